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
    /// Computes the path of `n`, walking up to the root of the tree. Each step up costs a
    /// descent from the root (tree-sitter keeps no parent links), so a walk that visits
    /// many nodes keeps a [`Trail`] instead.
    pub fn of(n: Node<'_>) -> Path {
        let mut arms = Vec::new();
        let mut child = n;
        while let Some(parent) = child.parent() {
            if let Some(arm) = arm(parent, child, || parent.parent()) {
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
fn arm<'t>(
    parent: Node<'t>,
    child: Node<'t>,
    grandparent: impl FnOnce() -> Option<Node<'t>>,
) -> Option<Arm> {
    let is_arm = match (parent.kind(), child.kind()) {
        ("if_statement", "block") => parent.child_by_field_name("consequence") == Some(child),
        ("if_statement", "elif_clause" | "else_clause") => true,
        ("try_statement", "except_clause" | "except_group_clause") => true,
        // `match` cases sit in a block below the statement.
        ("block", "case_clause") => {
            return grandparent()
                .filter(|m| m.kind() == "match_statement")
                .map(|m| (m.id(), child.id()))
        }
        _ => false,
    };
    is_arm.then(|| (parent.id(), child.id()))
}

/// The nodes from the root down to a walk's current node, and the arms among them: what
/// [`Path`] and the ancestors of the current node are, kept up to date step by step as the
/// walk moves, so that neither costs a walk up the tree.
pub(crate) struct Trail<'t> {
    nodes: Vec<Node<'t>>,
    /// For each node after the root: the arm it is of its parent, if it is one.
    arms: Vec<Option<Arm>>,
}

impl<'t> Trail<'t> {
    pub fn new(root: Node<'t>) -> Self {
        Trail {
            nodes: vec![root],
            arms: Vec::new(),
        }
    }

    /// The walk went down to `child`, a child of the current node.
    pub fn down(&mut self, child: Node<'t>) {
        let n = self.nodes.len();
        let grand = n.checked_sub(2).and_then(|i| self.nodes.get(i)).copied();
        let arm = self
            .nodes
            .last()
            .and_then(|&parent| arm(parent, child, || grand));
        self.nodes.push(child);
        self.arms.push(arm);
    }

    /// The walk went back up to the current node's parent.
    pub fn up(&mut self) {
        if self.nodes.len() > 1 {
            self.nodes.pop();
            self.arms.pop();
        }
    }

    /// The walk went on to `sibling`, the current node's next sibling.
    pub fn next(&mut self, sibling: Node<'t>) {
        self.up();
        self.down(sibling);
    }

    /// The current node's ancestor `k` levels up (1: its parent).
    pub fn ancestor(&self, k: usize) -> Option<Node<'t>> {
        let i = self.nodes.len().checked_sub(1 + k)?;
        self.nodes.get(i).copied()
    }

    /// The nearest enclosing node of `kind` (the current node aside), by id; 0 for none.
    pub fn enclosing(&self, kind: &str) -> usize {
        let above = self.nodes.len().saturating_sub(1);
        self.nodes[..above]
            .iter()
            .rev()
            .find(|n| n.kind() == kind)
            .map_or(0, Node::id)
    }

    /// The path of `n`: the current node or a node below it (found by going down from
    /// the current node, which costs the width of the few levels between them).
    pub fn path_of(&self, n: Node<'t>) -> Path {
        let mut arms: Vec<Arm> = self.arms.iter().flatten().copied().collect();
        let Some(&top) = self.nodes.last() else {
            return Path(arms);
        };
        let mut at = top;
        let mut above = self.ancestor(1);
        while at.id() != n.id() {
            let Some(child) = at.child_with_descendant(n) else {
                // Not below the current node: walked up the slow way.
                return Path::of(n);
            };
            if let Some(a) = arm(at, child, || above) {
                arms.push(a);
            }
            above = Some(at);
            at = child;
        }
        Path(arms)
    }
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

    /// A walk's trail says what walking up from each node says: its path (for the node
    /// and the nodes just below it), its parent and grandparent, and its function.
    #[test]
    fn a_trail_agrees_with_walking_up() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut sources = vec![
            "def f():\n    match x:\n        case 1:\n            a[\"k\"].i = 1\n        case _:\n            if g:\n                b = h(c=1)\n            elif k:\n                pass\n            else:\n                try:\n                    d = 1\n                except E:\n                    e = [i for i in r if i]\n                finally:\n                    f = 1\n".to_string(),
            "if (a := 1):\n    b = (1 if c else 2)\nelse:\n    def g(:\n        x[\"y\"] = (\n".to_string(),
        ];
        for f in [
            "session_bert.py",
            "estimator_resnet50.py",
            "tf2_keras_gpt.py",
            "py2_legacy_broken.py",
        ] {
            sources.push(std::fs::read_to_string(dir.join(f)).unwrap());
        }
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_python::LANGUAGE.into())
            .unwrap();
        let mut nodes = 0;
        for src in &sources {
            let tree = p.parse(src, None).unwrap();
            let mut cursor = tree.root_node().walk();
            let mut trail = Trail::new(tree.root_node());
            loop {
                let n = cursor.node();
                nodes += 1;
                assert_eq!(trail.path_of(n), Path::of(n), "{n:?}");
                assert_eq!(trail.ancestor(1), n.parent());
                assert_eq!(trail.ancestor(2), n.parent().and_then(|p| p.parent()));
                let mut up = n.parent();
                let func = loop {
                    match up {
                        Some(u) if u.kind() == "function_definition" => break u.id(),
                        Some(u) => up = u.parent(),
                        None => break 0,
                    }
                };
                assert_eq!(trail.enclosing("function_definition"), func);
                let mut c = n.walk();
                for child in n.children(&mut c) {
                    assert_eq!(trail.path_of(child), Path::of(child));
                }
                if cursor.goto_first_child() {
                    trail.down(cursor.node());
                    continue;
                }
                let done = loop {
                    if cursor.goto_next_sibling() {
                        trail.next(cursor.node());
                        break false;
                    }
                    if !cursor.goto_parent() {
                        break true;
                    }
                    trail.up();
                };
                if done {
                    break;
                }
            }
        }
        assert!(nodes > 1500, "{nodes}");
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
