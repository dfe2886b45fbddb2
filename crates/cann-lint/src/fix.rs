//! Applying fixes: `cannctl lint --fix` writes them, `--diff` shows them as a unified diff.
//!
//! Edits are applied to the file as it is on disk (its own line endings kept), only when it
//! still reads as what was linted, and only where they do not overlap an edit already taken.
//! A file is written through a temporary file in its directory renamed over it, so a failure
//! leaves the old file whole.

use std::path::{Path, PathBuf};

use crate::{Edit, FileReport, LintError};

/// One script with the fixes of its findings applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    pub path: PathBuf,
    pub before: String,
    pub after: String,
    /// How many findings' fixes were applied.
    pub applied: usize,
}

/// `text` with `edits` applied; an edit overlapping one already taken is left out (it is
/// applied by the next run, against the new text). Returns the text and whether every edit
/// was applied.
pub fn apply(text: &str, edits: &[&Edit]) -> (String, bool) {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut all = true;
    for e in sorted {
        let fits = e.start >= at
            && e.end >= e.start
            && e.end <= text.len()
            && text.is_char_boundary(e.start)
            && text.is_char_boundary(e.end);
        if !fits {
            all = false;
            continue;
        }
        out.push_str(&text[at..e.start]);
        out.push_str(&e.replacement);
        at = e.end;
    }
    out.push_str(&text[at..]);
    (out, all)
}

/// The fixed text of one linted script, read again from disk. `None` when it has no fix, or
/// when the file on disk is no longer the text that was linted (changed since, or not UTF-8,
/// so that its bytes could not be written back as they were).
pub fn fixed(report: &FileReport) -> Result<Option<Fixed>, LintError> {
    if report.findings.iter().all(|f| f.fix.is_none()) {
        return Ok(None);
    }
    let bytes = cann_input::read_bytes(
        &report.path,
        cann_input::Limits::new(crate::walk::MAX_SCRIPT_BYTES).keep_bom(),
    )?;
    Ok(fixed_from(report, bytes))
}

/// The fixed text of one linted script whose bytes, as they were read, are `bytes` (a
/// script read from standard input cannot be read again). `None` as for [`fixed`].
pub fn fixed_from(report: &FileReport, bytes: Vec<u8>) -> Option<Fixed> {
    let fixes: Vec<&crate::Fix> = report
        .findings
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .collect();
    if fixes.is_empty() {
        return None;
    }
    let Ok(before) = String::from_utf8(bytes) else {
        return None;
    };
    if crate::normalize_newlines(&before) != report.source.as_str() {
        return None;
    }
    // Every edit of a fix, or none of them: a fix half applied could change behaviour.
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = 0;
    for f in fixes {
        let clashes = f.edits.iter().any(|e| {
            taken.iter().any(|t| {
                e.start < t.end && t.start < e.end || (e.start == t.start && e.end == t.end)
            })
        });
        if !clashes {
            taken.extend(f.edits.iter());
            applied += 1;
        }
    }
    let (after, _) = apply(&before, &taken);
    (after != before).then(|| Fixed {
        path: report.path.clone(),
        before,
        after,
        applied,
    })
}

/// Writes `after` over `path`, atomically.
pub fn write(path: &Path, after: &str) -> Result<(), LintError> {
    let err = |source: std::io::Error| LintError::Path {
        path: path.to_path_buf(),
        source,
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
    std::io::Write::write_all(&mut tmp, after.as_bytes()).map_err(err)?;
    if let Ok(meta) = std::fs::metadata(path) {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(err)?;
    }
    tmp.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}

/// A unified diff of the fix, as `git diff` shows one.
pub fn diff(f: &Fixed) -> String {
    let name = f.path.display().to_string();
    similar::TextDiff::from_lines(&f.before, &f.after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, r: &str) -> Edit {
        Edit {
            start,
            end,
            replacement: r.into(),
        }
    }

    #[test]
    fn edits_apply_in_order_and_overlaps_wait() {
        let a = edit(4, 7, "XYZ");
        let b = edit(0, 1, "");
        let c = edit(5, 6, "!");
        let (out, all) = apply("0123456789", &[&a, &b, &c]);
        assert_eq!(out, "123XYZ789");
        assert!(!all);
    }
}
