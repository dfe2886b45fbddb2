//! The server's state: open documents, the client's settings, and the project settings
//! each document resolves to. Handlers that run off the main loop get a [`Snapshot`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cann_config::meta::Lang;
use lsp_types::Url;

use crate::document::Document;
use crate::settings::{self, ClientSettings, Effective};

/// Everything a handler needs about one document, frozen at one version.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub uri: Url,
    /// The file's path, for `file:` documents.
    pub path: Option<PathBuf>,
    pub doc: Document,
    pub settings: Arc<Effective>,
    /// `exclude` leaves the file out: no diagnostics.
    pub excluded: bool,
}

#[derive(Debug, Default)]
pub struct Session {
    documents: HashMap<Url, Document>,
    client: ClientSettings,
    /// The language of the client's `locale`, when it says one.
    locale: Option<Lang>,
    /// The workspace root: client `exclude` globs are relative to it.
    root: PathBuf,
    /// Settings by the directory of a document; cleared when any settings may have changed.
    resolved: HashMap<PathBuf, Arc<Effective>>,
}

impl Session {
    pub fn new(client: ClientSettings, locale: Option<Lang>, root: PathBuf) -> Self {
        Session {
            client,
            locale,
            root,
            ..Session::default()
        }
    }

    pub fn open(&mut self, uri: Url, doc: Document) {
        self.documents.insert(uri, doc);
    }

    pub fn close(&mut self, uri: &Url) {
        self.documents.remove(uri);
    }

    pub fn document_mut(&mut self, uri: &Url) -> Option<&mut Document> {
        self.documents.get_mut(uri)
    }

    pub fn uris(&self) -> Vec<Url> {
        self.documents.keys().cloned().collect()
    }

    /// New client settings: every document's settings are resolved again.
    pub fn set_client(&mut self, client: ClientSettings) {
        self.client = client;
        self.resolved.clear();
    }

    /// A pyproject.toml changed (saved, or changed on disk): resolve again.
    pub fn settings_changed(&mut self) {
        self.resolved.clear();
    }

    /// The language of the server's own messages outside any document.
    pub fn lang(&self) -> Lang {
        let client = self
            .client
            .lang
            .as_deref()
            .and_then(cann_check::settings::parse_lang);
        client.or(self.locale).unwrap_or(Lang::En)
    }

    fn settings_for(&mut self, path: Option<&Path>) -> Arc<Effective> {
        let dir = path
            .and_then(Path::parent)
            .map_or_else(|| self.root.clone(), Path::to_path_buf);
        if let Some(s) = self.resolved.get(&dir) {
            return s.clone();
        }
        let project = cann_check::settings::resolve(&dir, self.lang());
        let e = Arc::new(settings::effective(
            &self.client,
            project,
            self.locale_or_client(),
            &self.root,
        ));
        self.resolved.insert(dir, e.clone());
        e
    }

    fn locale_or_client(&self) -> Option<Lang> {
        self.locale
    }

    pub fn snapshot(&mut self, uri: &Url) -> Option<Snapshot> {
        let doc = self.documents.get(uri)?.clone();
        let path = (uri.scheme() == "file")
            .then(|| uri.to_file_path().ok())
            .flatten();
        let settings = self.settings_for(path.as_deref());
        let excluded = path
            .as_deref()
            .is_some_and(|p| settings.exclude.excludes(p));
        Some(Snapshot {
            uri: uri.clone(),
            path,
            doc,
            settings,
            excluded,
        })
    }
}
