//! One file per notification.

mod cancel;
mod did_change;
mod did_change_configuration;
mod did_change_watched_files;
mod did_close;
mod did_open;
mod did_save;
mod initialized;

pub use cancel::Cancel;
pub use did_change::DidChange;
pub use did_change_configuration::DidChangeConfiguration;
pub use did_change_watched_files::DidChangeWatchedFiles;
pub use did_close::DidClose;
pub use did_open::DidOpen;
pub use did_save::DidSave;
pub use initialized::Initialized;
