//! Where a setting sits among the script's conditional branches, so that two settings are
//! judged together only when they run together.
//!
//! A path is the list of branches (an `if`/`elif`/`else` arm, an `except` clause, a `match`
//! case) that enclose a node, outermost first. Loops, `with` and `try` bodies are not
//! branches: their code runs with the code around it. Function bodies are not either: a
//! config built in a helper runs when the helper is called.

use tree_sitter::Node;

/// One arm taken: (the statement that branches, the arm), by node id.
pub(crate) type Arm = (usize, usize);

/// The branches enclosing a node, outermost first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Path(pub Vec<Arm>);

/// How two settings' paths relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relation {
    /// One path contains the other: whenever the inner one runs, so does the outer one.
    Together,
    /// Different arms of one statement: they never run together.
    Exclusive,
    /// Arms of different statements: they may or may not run together.
    Independent,
}

impl Path {
    /// Computes the path of `n`, walking up to the root of the tree.
    pub fn of(n: Node<'_>) -> Path {
        let mut arms = Vec::new();
        let mut child = n;
        while let Some(parent) = child.parent() {
            if let Some(arm) = arm(parent, child) {
                arms.push(arm);
            }
            child = parent;
        }
        arms.reverse();
        Path(arms)
    }

    pub fn is_prefix_of(&self, other: &Path) -> bool {
        other.0.starts_with(&self.0)
    }

    pub fn relation(&self, other: &Path) -> Relation {
        if self.is_prefix_of(other) || other.is_prefix_of(self) {
            return Relation::Together;
        }
        let split = self.0.iter().zip(&other.0).find(|(a, b)| a != b);
        match split {
            Some((a, b)) if a.0 == b.0 => Relation::Exclusive,
            _ => Relation::Independent,
        }
    }
}

/// The arm `child` is, when it is one of the arms of the branching statement `parent`. The
/// condition of an `if` runs on the enclosing path, and so do the body, `else` and `finally`
/// of a `try`.
fn arm(parent: Node<'_>, child: Node<'_>) -> Option<Arm> {
    let is_arm = match (parent.kind(), child.kind()) {
        ("if_statement", "block") => parent.child_by_field_name("consequence") == Some(child),
        ("if_statement", "elif_clause" | "else_clause") => true,
        ("try_statement", "except_clause" | "except_group_clause") => true,
        // `match` cases sit in a block below the statement.
        ("block", "case_clause") => {
            return parent
                .parent()
                .filter(|m| m.kind() == "match_statement")
                .map(|m| (m.id(), child.id()))
        }
        _ => false,
    };
    is_arm.then(|| (parent.id(), child.id()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn paths(src: &str) -> Vec<(String, Path)> {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_python::LANGUAGE.into())
            .unwrap();
        let tree = p.parse(src, None).unwrap();
        let mut out = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.kind() == "assignment" {
                let name = src[n.byte_range()]
                    .split('=')
                    .next()
                    .unwrap()
                    .trim()
                    .to_string();
                out.push((name, Path::of(n)));
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    fn rel(src: &str, a: &str, b: &str) -> Relation {
        let ps = paths(src);
        let get = |k: &str| ps.iter().find(|(n, _)| n == k).unwrap().1.clone();
        get(a).relation(&get(b))
    }

    #[test]
    fn arms_of_one_if_exclude_each_other() {
        let src = "if f:\n    a = 1\nelif g:\n    b = 1\nelse:\n    c = 1\n";
        assert_eq!(rel(src, "a", "b"), Relation::Exclusive);
        assert_eq!(rel(src, "b", "c"), Relation::Exclusive);
    }

    #[test]
    fn two_ifs_are_independent_and_nesting_is_together() {
        let src = "x = 0\nif f:\n    a = 1\n    if g:\n        b = 1\nif h:\n    c = 1\nfor i in r:\n    d = 1\n";
        assert_eq!(rel(src, "a", "c"), Relation::Independent);
        assert_eq!(rel(src, "a", "b"), Relation::Together);
        assert_eq!(rel(src, "x", "b"), Relation::Together);
        assert_eq!(rel(src, "x", "d"), Relation::Together);
    }

    #[test]
    fn try_body_runs_on_the_enclosing_path_and_except_is_an_arm() {
        let src =
            "try:\n    a = 1\nexcept E:\n    b = 1\nexcept F:\n    c = 1\nfinally:\n    d = 1\n";
        assert_eq!(rel(src, "a", "d"), Relation::Together);
        assert_eq!(rel(src, "b", "c"), Relation::Exclusive);
        assert_eq!(
            paths(src)
                .iter()
                .find(|(n, _)| n == "b")
                .unwrap()
                .1
                 .0
                .len(),
            1
        );
    }

    #[test]
    fn a_condition_runs_on_the_enclosing_path() {
        let src = "if (a := 1):\n    b = 1\n";
        // The walrus is not an `assignment` node; the arm's own path is one arm deep.
        let ps = paths(src);
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].1 .0.len(), 1);
    }
}
