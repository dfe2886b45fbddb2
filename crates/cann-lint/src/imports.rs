//! Whose `NPURunConfig` (or `global_options`) a call is: the adapter's, or a function or
//! class of the script's own, or of another package, that happens to have the same name.
//!
//! The script's bindings are read from its statements (not its expressions): `def` and
//! `class` names, `import` and `from ... import` with their aliases. A name is the
//! adapter's unless the script binds it to something else; a name bound by nothing here
//! (most often through `from npu_bridge.npu_init import *`) is taken to be the adapter's.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::syntax::Source;

/// The adapter's Python packages: TF1 `npu_bridge`, TF2 `npu_device`.
const ADAPTER_PACKAGES: [&str; 2] = ["npu_bridge", "npu_device"];

fn is_adapter_module(module: &str) -> bool {
    let top = module
        .trim_start_matches('.')
        .split('.')
        .next()
        .unwrap_or("");
    ADAPTER_PACKAGES.contains(&top)
}

/// Where a name of the script comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// Imported from the adapter's packages (a module, or a name in one).
    Adapter,
    /// Defined in the script, or imported from another package.
    Other,
}

#[derive(Debug, Default)]
pub(crate) struct Bindings {
    names: HashMap<String, Origin>,
    /// Names defined by `def` or `class` anywhere in the script: never the adapter's.
    defined: HashSet<String>,
}

impl Bindings {
    /// Reads the bindings of every statement below `root`, without entering expressions.
    pub fn of(root: Node<'_>, src: &Source<'_>) -> Bindings {
        let mut b = Bindings::default();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "function_definition" | "class_definition" => {
                    if let Some(name) = n.child_by_field_name("name") {
                        b.defined.insert(src.text(name).to_string());
                    }
                }
                "import_statement" => b.import(n, src),
                "import_from_statement" => b.import_from(n, src),
                _ => {}
            }
            let mut c = n.walk();
            for child in n.named_children(&mut c) {
                if is_statement_container(child.kind()) {
                    stack.push(child);
                }
            }
        }
        b
    }

    /// `import a.b` binds `a`; `import a.b as m` binds `m`.
    fn import(&mut self, n: Node<'_>, src: &Source<'_>) {
        let mut c = n.walk();
        for item in n.children_by_field_name("name", &mut c) {
            let (module, bound) = match item.kind() {
                "aliased_import" => {
                    let module = item.child_by_field_name("name").map(|m| src.text(m));
                    let alias = item.child_by_field_name("alias").map(|a| src.text(a));
                    (module.unwrap_or(""), alias.unwrap_or("").to_string())
                }
                _ => {
                    let module = src.text(item);
                    (module, module.split('.').next().unwrap_or("").to_string())
                }
            };
            self.bind(bound, module);
        }
    }

    /// `from m import a, b as c`: each name takes the origin of `m`; `*` binds nothing named.
    fn import_from(&mut self, n: Node<'_>, src: &Source<'_>) {
        let module = n
            .child_by_field_name("module_name")
            .map(|m| src.text(m))
            .unwrap_or("");
        let mut c = n.walk();
        for item in n.children_by_field_name("name", &mut c) {
            let bound = match item.kind() {
                "aliased_import" => item.child_by_field_name("alias").map(|a| src.text(a)),
                _ => Some(src.text(item)),
            };
            if let Some(bound) = bound {
                self.bind(bound.to_string(), module);
            }
        }
    }

    fn bind(&mut self, name: String, module: &str) {
        if name.is_empty() {
            return;
        }
        let origin = if is_adapter_module(module) {
            Origin::Adapter
        } else {
            Origin::Other
        };
        // One binding from the adapter anywhere (often beside a fallback import) is enough.
        let slot = self.names.entry(name).or_insert(origin);
        if origin == Origin::Adapter {
            *slot = Origin::Adapter;
        }
    }

    /// Whether `callee` (the function of a call, or the object of an attribute) names the
    /// adapter's `name`.
    pub fn is_adapters(&self, callee: Node<'_>, src: &Source<'_>) -> bool {
        match callee.kind() {
            "identifier" => {
                let name = src.text(callee);
                if self.defined.contains(name) {
                    return false;
                }
                self.names.get(name) != Some(&Origin::Other)
            }
            "attribute" => {
                let mut root = callee;
                while let Some(o) = root.child_by_field_name("object") {
                    root = o;
                }
                if root.kind() != "identifier" {
                    // `make().NPURunConfig(...)`: nothing to go by; take it as written.
                    return true;
                }
                let r = src.text(root);
                if r == "self" || r == "cls" || self.defined.contains(r) {
                    return false;
                }
                self.names.get(r) != Some(&Origin::Other)
            }
            _ => false,
        }
    }
}

/// Node kinds whose children may be statements that bind names.
fn is_statement_container(kind: &str) -> bool {
    matches!(
        kind,
        "module"
            | "block"
            | "function_definition"
            | "class_definition"
            | "decorated_definition"
            | "if_statement"
            | "elif_clause"
            | "else_clause"
            | "for_statement"
            | "while_statement"
            | "try_statement"
            | "except_clause"
            | "finally_clause"
            | "with_statement"
            | "match_statement"
            | "case_clause"
            | "import_statement"
            | "import_from_statement"
            | "ERROR"
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn calls(src: &str) -> Vec<(String, bool)> {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_python::LANGUAGE.into())
            .unwrap();
        let tree = p.parse(src, None).unwrap();
        let s = Source::new(src);
        let b = Bindings::of(tree.root_node(), &s);
        let mut out = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.kind() == "call" {
                let f = n.child_by_field_name("function").unwrap();
                out.push((s.text(f).to_string(), b.is_adapters(f, &s)));
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        out.sort();
        out
    }

    #[test]
    fn star_imports_and_adapter_imports_are_the_adapters() {
        let src = "from npu_bridge.npu_init import *\nimport npu_device as npu\n\
                   from npu_bridge.estimator.npu.npu_config import NPURunConfig as RC\n\
                   a = NPURunConfig()\nb = npu.global_options()\nc = RC()\n";
        assert!(calls(src).iter().all(|(_, ok)| *ok), "{:?}", calls(src));
    }

    #[test]
    fn a_local_definition_or_another_package_is_not() {
        let src = "from mylib import NPURunConfig\nimport helpers\n\
                   def global_options():\n    return {}\n\
                   class Cfg:\n    def make(self):\n        return self.NPURunConfig()\n\
                   a = NPURunConfig()\nb = global_options()\nc = helpers.global_options()\n";
        let got = calls(src);
        assert!(got.iter().all(|(_, ok)| !*ok), "{got:?}");
    }

    #[test]
    fn a_fallback_import_beside_the_adapters_keeps_the_adapters() {
        let src = "try:\n    from npu_bridge.estimator.npu.npu_config import NPURunConfig\n\
                   except ImportError:\n    from compat import NPURunConfig\nx = NPURunConfig()\n";
        assert_eq!(calls(src), vec![("NPURunConfig".to_string(), true)]);
    }
}
