//! Findings about a spec, each with the place it comes from.

use std::fmt;
use std::path::PathBuf;

use crate::yaml::Pos;

/// Where a spec item was written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Loc {
    pub file: PathBuf,
    pub pos: Pos,
}

impl Loc {
    pub fn new(file: impl Into<PathBuf>, pos: Pos) -> Self {
        Loc {
            file: file.into(),
            pos,
        }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pos.line == 0 {
            write!(f, "{}", self.file.display())
        } else {
            write!(f, "{}:{}", self.file.display(), self.pos)
        }
    }
}

/// One problem in the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub loc: Loc,
    pub message: String,
    /// What would have been valid, e.g. the list of known keys.
    pub expected: Option<String>,
    pub hint: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.loc, self.message)?;
        if let Some(e) = &self.expected {
            write!(f, "; expected {e}")?;
        }
        if let Some(h) = &self.hint {
            write!(f, " (hint: {h})")?;
        }
        Ok(())
    }
}

/// Collects every problem instead of stopping at the first (serde_derive's `Ctxt`).
#[derive(Debug, Default)]
#[must_use = "diagnostics must be turned into a result with `finish`"]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn error(&mut self, loc: Loc, message: impl Into<String>) -> &mut Diagnostic {
        self.items.push(Diagnostic {
            loc,
            message: message.into(),
            expected: None,
            hint: None,
        });
        let last = self.items.len() - 1;
        &mut self.items[last]
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.items
    }

    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    /// `Ok(value)` when nothing was reported; otherwise every finding, sorted by place.
    pub fn finish<T>(self, value: T) -> Result<T, SpecErrors> {
        if self.items.is_empty() {
            Ok(value)
        } else {
            let mut items = self.items;
            items.sort_by(|a, b| a.loc.cmp(&b.loc));
            Err(SpecErrors(items))
        }
    }
}

impl Diagnostic {
    pub fn expected(&mut self, e: impl Into<String>) -> &mut Self {
        self.expected = Some(e.into());
        self
    }
    pub fn hint(&mut self, h: impl Into<String>) -> &mut Self {
        self.hint = Some(h.into());
        self
    }
}

/// The spec could not be loaded; every finding is here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecErrors(pub Vec<Diagnostic>);

impl fmt::Display for SpecErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecErrors {}
