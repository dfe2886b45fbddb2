//! Paths relative to `kernel_cache/`, as the index, the scan and every operation name a
//! file: `soc/kernel_meta/te_add.json`, or a bare name at the top. The one place that
//! splits such a path into its directory and its name, or joins them.

/// A path relative to `kernel_cache/`, `/`-separated; its directory part is `""` at the
/// top. Borrowed: the maps and lists that own these paths keep plain `String`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RelPath<'a>(&'a str);

impl<'a> RelPath<'a> {
    pub fn new(rel: &'a str) -> Self {
        RelPath(rel)
    }

    /// The directory part (`""` at the top) and the file name.
    pub fn split(self) -> (&'a str, &'a str) {
        self.0.rsplit_once('/').unwrap_or(("", self.0))
    }

    /// The directory part, `""` at the top.
    pub fn dir(self) -> &'a str {
        self.split().0
    }

    /// The last component.
    pub fn name(self) -> &'a str {
        self.split().1
    }

    /// The file `name` in the same directory (an entry's binary beside its manifest).
    pub fn sibling(self, name: &str) -> String {
        join(self.dir(), name)
    }

    /// How many directories deep it is (0 at the top).
    pub fn depth(self) -> usize {
        self.0.matches('/').count()
    }
}

/// The file `name` in the directory `dir` (`""` is the top).
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_joins_at_the_top_and_below() {
        let deep = RelPath::new("soc/meta/k.json");
        assert_eq!(deep.split(), ("soc/meta", "k.json"));
        assert_eq!(deep.sibling("k.o"), "soc/meta/k.o");
        assert_eq!(deep.depth(), 2);
        let top = RelPath::new("k.json");
        assert_eq!(top.split(), ("", "k.json"));
        assert_eq!(top.sibling("k.o"), "k.o");
        assert_eq!(join("", "x"), "x");
        assert_eq!(join("a", "x"), "a/x");
    }
}
