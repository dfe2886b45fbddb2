//! The fields of a torch memory snapshot, read from a decoded pickle: the same model the JSON
//! form deserializes into (missing fields take their defaults, unknown ones are ignored).
//!
//! Shared objects are visited once per use, so a pickle that shares one big list many times
//! could expand far beyond its size; the visits are counted against the object budget.

use super::pickle::{Id, Node, Pickle, PickleError, MAX_OBJECTS};
use super::torch_snapshot::{Entry, SegBlock, Segment, Snapshot};

struct Reader<'a> {
    pk: &'a Pickle,
    visits: usize,
}

type R<T> = Result<T, PickleError>;

/// Reads the snapshot fields of `pk`.
pub(crate) fn snapshot(pk: &Pickle) -> R<Snapshot> {
    let mut r = Reader { pk, visits: 0 };
    let root = pk.root;
    let mut snap = Snapshot::default();
    for (key, v) in r.dict(root, "the snapshot")? {
        match key {
            "segments" => {
                for (i, s) in r.list(v, "segments")?.iter().enumerate() {
                    snap.segments
                        .push(r.segment(*s, &format!("segments[{i}]"))?);
                }
            }
            "device_traces" => {
                for (d, t) in r.list(v, "device_traces")?.iter().enumerate() {
                    let mut entries = Vec::new();
                    for (k, e) in r
                        .list(*t, &format!("device_traces[{d}]"))?
                        .iter()
                        .enumerate()
                    {
                        entries.push(r.entry(*e, &format!("device_traces[{d}][{k}]"))?);
                    }
                    snap.device_traces.push(entries);
                }
            }
            _ => {}
        }
    }
    Ok(snap)
}

impl<'a> Reader<'a> {
    fn fail<T>(&self, id: Id, what: &str, expected: &str) -> R<T> {
        Err(PickleError {
            offset: self.pk.offset(id),
            message: format!(
                "{what}: expected {expected}, found {}",
                self.pk.node(id).kind()
            ),
        })
    }

    fn visit(&mut self, id: Id) -> R<&'a Node> {
        self.visits += 1;
        if self.visits > MAX_OBJECTS {
            return Err(PickleError {
                offset: self.pk.offset(id),
                message: format!(
                    "shared objects expand to more than {MAX_OBJECTS} objects; \
                     a torch memory snapshot has far fewer"
                ),
            });
        }
        Ok(self.pk.node(id))
    }

    /// String keys and their values; other keys are not snapshot fields.
    fn dict(&mut self, id: Id, what: &str) -> R<Vec<(&'a str, Id)>> {
        match self.visit(id)? {
            Node::Dict(kv) => Ok(kv
                .iter()
                .filter_map(|&(k, v)| match self.pk.node(k) {
                    Node::Str(s) => Some((&**s, v)),
                    _ => None,
                })
                .collect()),
            _ => self.fail(id, what, "a dict"),
        }
    }

    fn list(&mut self, id: Id, what: &str) -> R<&'a [Id]> {
        match self.visit(id)? {
            Node::List(v) | Node::Tuple(v) => Ok(v),
            _ => self.fail(id, what, "a list"),
        }
    }

    fn int(&mut self, id: Id, what: &str) -> R<i128> {
        match self.visit(id)? {
            Node::Int(v) => Ok(*v),
            _ => self.fail(id, what, "an integer"),
        }
    }

    fn u64(&mut self, id: Id, what: &str) -> R<u64> {
        let v = self.int(id, what)?;
        u64::try_from(v).or_else(|_| self.fail(id, what, "an integer from 0 to 2^64-1"))
    }

    fn string(&mut self, id: Id, what: &str) -> R<String> {
        match self.visit(id)? {
            Node::Str(s) => Ok(s.to_string()),
            _ => self.fail(id, what, "a string"),
        }
    }

    fn segment(&mut self, id: Id, what: &str) -> R<Segment> {
        let mut s = Segment::default();
        for (key, v) in self.dict(id, what)? {
            let at = || format!("{what}.{key}");
            match key {
                "device" => {
                    let d = self.int(v, &at())?;
                    s.device =
                        i64::try_from(d).or_else(|_| self.fail(v, &at(), "a device index"))?;
                }
                "address" => s.address = self.u64(v, &at())?,
                "total_size" => s.total_size = self.u64(v, &at())?,
                "blocks" => {
                    for (i, b) in self.list(v, &at())?.iter().enumerate() {
                        s.blocks
                            .push(self.block(*b, &format!("{what}.blocks[{i}]"))?);
                    }
                }
                _ => {}
            }
        }
        Ok(s)
    }

    fn block(&mut self, id: Id, what: &str) -> R<SegBlock> {
        let mut b = SegBlock::default();
        for (key, v) in self.dict(id, what)? {
            let at = || format!("{what}.{key}");
            match key {
                "address" if matches!(self.pk.node(v), Node::None) => b.address = None,
                "address" => b.address = Some(self.u64(v, &at())?),
                "size" => b.size = self.u64(v, &at())?,
                "state" => b.state = self.string(v, &at())?,
                _ => {}
            }
        }
        Ok(b)
    }

    fn entry(&mut self, id: Id, what: &str) -> R<Entry> {
        let mut e = Entry::default();
        let mut action = false;
        for (key, v) in self.dict(id, what)? {
            let at = || format!("{what}.{key}");
            match key {
                "action" => {
                    e.action = self.string(v, &at())?;
                    action = true;
                }
                "addr" => e.addr = self.u64(v, &at())?,
                "size" => e.size = self.u64(v, &at())?,
                _ => {}
            }
        }
        if !action {
            return Err(PickleError {
                offset: self.pk.offset(id),
                message: format!("{what}: the entry has no `action`"),
            });
        }
        Ok(e)
    }
}
