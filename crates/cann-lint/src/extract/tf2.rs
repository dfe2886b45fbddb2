//! TF2: `npu.global_options().a.b = value`, also through a name bound to
//! `npu.global_options()` or to an attribute below it. One script is one config object,
//! since the options are global to the process.

use tree_sitter::Node;

use super::Extract;
use crate::branch::Trail;
use crate::object::{ConfigObject, Val, Written};
use crate::rules::{unknown_option, value_type};
use crate::syntax::last_name;
use crate::Surface;
use crate::{names, surface};

impl Extract<'_, '_> {
    /// The attribute path below `global_options()` that `n` denotes, if it is one.
    fn tf2_path(&self, n: Node<'_>) -> Option<String> {
        let mut segs: Vec<&str> = Vec::new();
        let mut cur = n;
        loop {
            match cur.kind() {
                "attribute" => {
                    segs.push(self.src.text(cur.child_by_field_name("attribute")?));
                    cur = cur.child_by_field_name("object")?;
                }
                "call" => {
                    let func = cur.child_by_field_name("function")?;
                    if last_name(self.src, func)? != "global_options"
                        || !self.bindings.is_adapters(func, self.src)
                    {
                        return None;
                    }
                    segs.reverse();
                    return Some(segs.join("."));
                }
                "identifier" => {
                    let base = self.tf2_aliases.get(self.src.text(cur))?;
                    if !base.is_empty() {
                        segs.push(base);
                    }
                    segs.reverse();
                    return Some(segs.join("."));
                }
                _ => return None,
            }
        }
    }

    pub(super) fn assignment<'t>(&mut self, a: Node<'t>, trail: &Trail<'t>) {
        let (Some(left), Some(right)) = (
            a.child_by_field_name("left"),
            a.child_by_field_name("right"),
        ) else {
            return;
        };
        if left.kind() == "identifier" {
            // `opts = npu.global_options()` binds a name; any other assignment unbinds it.
            let name = self.src.text(left).to_string();
            match self.tf2_path(right) {
                Some(p) => self.tf2_aliases.insert(name, p),
                None => self.tf2_aliases.remove(&name),
            };
            return;
        }
        if left.kind() != "attribute" {
            return;
        }
        let Some(path) = self.tf2_path(left) else {
            return;
        };
        let Some(last) = left.child_by_field_name("attribute") else {
            return;
        };
        let at = self.src.pos(last);
        let value = self.src.literal(right);
        let branch = trail.path_of(a);
        let idx = match self.tf2 {
            Some(i) => i,
            None => {
                self.objects
                    .push(ConfigObject::new(Surface::Tf2, self.src.pos(a)));
                let i = self.objects.len() - 1;
                self.tf2 = Some(i);
                i
            }
        };
        let lang = self.lang;
        let Some(obj) = self.objects.get_mut(idx) else {
            return;
        };
        match names::tf2(&path) {
            Some(o) => {
                let val = match value {
                    Some(v) => surface::tf2(o, &path, &v, lang),
                    None => Ok(Val::Unknown),
                };
                match val {
                    Ok(val) => obj.set(o, at, val, branch),
                    Err(msg) => value_type::refused(obj, o, at, msg, branch),
                }
            }
            // Assigning a whole section, e.g. `global_options().memory_config = ...`, is not
            // an option setting.
            None if names::tf2_names().any(|p| p.starts_with(&format!("{path}."))) => {}
            None => {
                let w = Written {
                    surface: Surface::Tf2,
                    name: &path,
                    class: None,
                    at,
                    span: Some(last.byte_range()),
                    accessor: None,
                    value: value.as_ref(),
                };
                unknown_option::judge(obj, lang, w);
            }
        }
    }
}
