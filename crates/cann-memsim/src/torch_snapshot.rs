//! The fields of a torch memory snapshot that the import reads: the model both forms land in
//! (the JSON form deserializes into it, the pickle form is read into it by
//! [`super::torch_pickle`]). Missing fields take their defaults, unknown ones are ignored, so
//! newer torch versions load.

use serde::Deserialize;

#[derive(Deserialize, Default)]
pub(crate) struct Snapshot {
    #[serde(default)]
    pub(crate) segments: Vec<Segment>,
    #[serde(default)]
    pub(crate) device_traces: Vec<Vec<Entry>>,
}

#[derive(Deserialize, Default)]
pub(crate) struct Segment {
    #[serde(default)]
    pub(crate) device: i64,
    #[serde(default)]
    pub(crate) address: u64,
    #[serde(default)]
    pub(crate) total_size: u64,
    #[serde(default)]
    pub(crate) blocks: Vec<SegBlock>,
}

#[derive(Deserialize, Default)]
pub(crate) struct SegBlock {
    #[serde(default)]
    pub(crate) address: Option<u64>,
    #[serde(default)]
    pub(crate) size: u64,
    #[serde(default)]
    pub(crate) state: String,
}

#[derive(Deserialize, Default)]
pub(crate) struct Entry {
    pub(crate) action: String,
    #[serde(default)]
    pub(crate) addr: u64,
    #[serde(default)]
    pub(crate) size: u64,
}
