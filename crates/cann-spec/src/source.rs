//! Sources in the form that names a git ref: `owner/name@ref`, `owner/name@ref:path`,
//! `owner/name@ref:path:line` (a line-level citation) and `owner/name@ref:path:absent` (an
//! absence citation: the file at that ref never names what it is cited for, e.g. a session
//! key no release reads), where `ref` is a tag, a branch or a commit. Other sources (seed
//! files, pages) are not cited at a ref and parse to `None`.
//! `releases.yaml` says which refs are which release (`refs:`), so a source's release is
//! known: [`crate::Spec::release_of`].

/// One source read at a git ref.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cited<'a> {
    /// `owner/name`.
    pub repo: &'a str,
    /// The tag, branch or commit the source was read at.
    pub rev: &'a str,
    /// The file, when the source is one (`None` for a bare ref or a commit with its subject).
    pub path: Option<&'a str>,
    /// The line of `path` the fact was read from.
    pub line: Option<u32>,
    /// `path:absent`: the fact is that `path` never names the item at this ref.
    pub absent: bool,
}

/// The suffix of an absence citation.
pub const ABSENT: &str = "absent";

impl<'a> Cited<'a> {
    pub fn parse(source: &'a str) -> Option<Cited<'a>> {
        let (repo, rest) = source.split_once('@')?;
        let (owner, name) = repo.split_once('/')?;
        let word = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        if !word(owner) || !word(name) {
            return None;
        }
        let (rev, tail) = match rest.split_once(':') {
            Some((rev, tail)) => (rev, Some(tail)),
            None => (rest, None),
        };
        if rev.is_empty() || rev.contains(char::is_whitespace) {
            return None;
        }
        // `owner/name@commit: subject` names a commit by its subject, not a file.
        let tail = tail.filter(|t| !t.starts_with(char::is_whitespace) && !t.is_empty());
        let (path, line, absent) = match tail {
            None => (None, None, false),
            Some(t) => match t.rsplit_once(':') {
                Some((p, n))
                    if !p.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    (Some(p), n.parse().ok().filter(|l| *l > 0), false)
                }
                Some((p, ABSENT)) if !p.is_empty() => (Some(p), None, true),
                _ => (Some(t), None, false),
            },
        };
        Some(Cited {
            repo,
            rev,
            path,
            line,
            absent,
        })
    }

    /// `owner/name@ref`, as `refs:` of a release writes it.
    pub fn at(&self) -> String {
        format!("{}@{}", self.repo, self.rev)
    }
}

#[cfg(test)]
mod tests {
    use super::Cited;

    #[test]
    fn sources_name_repo_ref_file_and_line() {
        let c =
            Cited::parse("hicann/tensorflow@tfa_v0.0.48_9.0.0:tf_adapter/util/npu_attrs.cc:394")
                .unwrap_or_else(|| panic!("a line citation"));
        assert_eq!(c.repo, "hicann/tensorflow");
        assert_eq!(c.rev, "tfa_v0.0.48_9.0.0");
        assert_eq!(c.path, Some("tf_adapter/util/npu_attrs.cc"));
        assert_eq!(c.line, Some(394));
        let f = Cited::parse("hicann/ge@v9.0.0:compiler/graph/build/model_builder.cc");
        assert_eq!(
            f.and_then(|c| c.path),
            Some("compiler/graph/build/model_builder.cc")
        );
        assert_eq!(f.and_then(|c| c.line), None);
        assert_eq!(f.map(|c| c.absent), Some(false));
        let gone = Cited::parse("hicann/tensorflow@82957b9:tf_adapter/util/npu_attrs.cc:absent");
        assert_eq!(
            gone.map(|c| (c.path, c.line, c.absent)),
            Some((Some("tf_adapter/util/npu_attrs.cc"), None, true))
        );
        let commit = Cited::parse("Ascend/tensorflow@c8e219da: delete the keyword");
        assert_eq!(commit.map(|c| (c.rev, c.path)), Some(("c8e219da", None)));
        let bare = Cited::parse("hicann/tensorflow@82957b9");
        assert_eq!(
            bare.map(|c| c.at()),
            Some("hicann/tensorflow@82957b9".to_string())
        );
        for not in [
            "seeds/003_4673dfd952b60fb9.txt",
            "https://www.hiascend.com/document/x.html",
            "spec/history/upstream-refs.json",
            "Ascend/modelzoo:built-in/env.sh",
            "drill",
        ] {
            assert_eq!(Cited::parse(not), None, "{not}");
        }
    }
}
