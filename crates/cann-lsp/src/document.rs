//! One open document: its text, version and kind, and incremental edits applied to it.

use std::sync::Arc;

use lsp_types::TextDocumentContentChangeEvent;

use crate::position::LineIndex;

/// What the server does with a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A Python script: `cannctl lint`.
    Python,
    /// A cannctl config, YAML or JSON: `cannctl check`.
    Config { json: bool },
    /// A `pyproject.toml`: its `[tool.cannctl]` is the project's settings.
    Pyproject,
    /// Anything else: kept, never checked.
    Other,
}

impl Kind {
    /// By the client's language id, else the file name.
    pub fn of(language_id: &str, path: &str) -> Kind {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        if name == cann_check::settings::PYPROJECT {
            return Kind::Pyproject;
        }
        match (language_id, ext.as_deref()) {
            ("python", _) | (_, Some("py" | "pyi")) => Kind::Python,
            ("json" | "jsonc", _) | (_, Some("json")) => Kind::Config { json: true },
            ("yaml", _) | (_, Some("yaml" | "yml")) => Kind::Config { json: false },
            _ => Kind::Other,
        }
    }
}

/// Documents larger than this are not kept: edits to them are dropped until the client
/// sends the whole text again, smaller. Four times what is ever checked.
pub const MAX_KEPT: usize = 4 * cann_lint::MAX_SCRIPT_BYTES as usize;

#[derive(Debug, Clone)]
pub struct Document {
    pub text: Arc<str>,
    pub index: Arc<LineIndex>,
    pub version: i32,
    pub kind: Kind,
    /// The text was too large to keep: its size when last known.
    pub dropped: Option<usize>,
}

impl Document {
    pub fn new(text: String, version: i32, kind: Kind) -> Self {
        let mut d = Document {
            text: Arc::from(""),
            index: Arc::new(LineIndex::new("")),
            version,
            kind,
            dropped: None,
        };
        d.set(text);
        d
    }

    fn set(&mut self, text: String) {
        if text.len() > MAX_KEPT {
            self.dropped = Some(text.len());
            self.text = Arc::from("");
        } else {
            self.dropped = None;
            self.text = Arc::from(text);
        }
        self.index = Arc::new(LineIndex::new(&self.text));
    }

    /// Applies the changes in order (each range is in the text as the previous change left
    /// it). A change without a range replaces the whole text.
    pub fn apply(&mut self, changes: Vec<TextDocumentContentChangeEvent>, version: i32) {
        self.version = version;
        let mut text = self.text.to_string();
        for c in changes {
            match c.range {
                None => text = c.text,
                Some(_) if self.dropped.is_some() => {}
                Some(r) => {
                    let ix = LineIndex::new(&text);
                    let a = ix.offset(&text, r.start);
                    let b = ix.offset(&text, r.end);
                    let (a, b) = (a.min(b), a.max(b));
                    if text.len() - (b - a) + c.text.len() > MAX_KEPT {
                        self.dropped = Some(text.len() - (b - a) + c.text.len());
                        text.clear();
                        continue;
                    }
                    text.replace_range(a..b, &c.text);
                }
            }
        }
        if self.dropped.is_some() && text.is_empty() {
            let size = self.dropped;
            self.text = Arc::from("");
            self.index = Arc::new(LineIndex::new(""));
            self.dropped = size;
            return;
        }
        self.set(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    fn change(l0: u32, c0: u32, l1: u32, c1: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l0, c0), Position::new(l1, c1))),
            range_length: None,
            text: text.into(),
        }
    }

    #[test]
    fn incremental_edits_in_order_across_cjk() {
        let mut d = Document::new("# 中文😀\nx = 1\n".into(), 1, Kind::Python);
        // After "# 中文😀" (2 + 2 + 2 units): insert; then edit the next line.
        d.apply(vec![change(0, 6, 0, 6, "!"), change(1, 4, 1, 5, "22")], 2);
        assert_eq!(&*d.text, "# 中文😀!\nx = 22\n");
        // A reversed or out-of-range range is clamped, never a panic.
        d.apply(vec![change(5, 0, 0, 99, "")], 3);
        assert_eq!(&*d.text, "# 中文😀!");
        assert_eq!(d.version, 3);
    }

    #[test]
    fn kinds_by_language_and_name() {
        assert_eq!(Kind::of("python", "file:///a/x"), Kind::Python);
        assert_eq!(
            Kind::of("", "file:///a/b.yaml"),
            Kind::Config { json: false }
        );
        assert_eq!(Kind::of("json", "file:///a/b"), Kind::Config { json: true });
        assert_eq!(
            Kind::of("toml", "file:///a/pyproject.toml"),
            Kind::Pyproject
        );
        assert_eq!(Kind::of("rust", "file:///a/b.rs"), Kind::Other);
    }
}
