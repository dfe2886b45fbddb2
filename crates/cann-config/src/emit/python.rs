//! Python a user pastes into a training script, for each API surface.

use std::fmt::Write as _;

use crate::meta::{Accessor, OptionMeta, TypeMeta};
use crate::{Config, ValueRef, Visit, Visitor, CONFIGS};

/// A Python literal for the value.
fn py(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Bool(true) => "True".into(),
        ValueRef::Bool(false) => "False".into(),
        ValueRef::Int(i) => i.to_string(),
        ValueRef::Str(s) => py_str(s),
        ValueRef::Cores(c) => py_str(&c.to_string()),
    }
}

/// A double-quoted Python string literal; non-ASCII text stays readable (source is UTF-8).
pub(crate) fn py_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn import_of(class: &str) -> Option<&'static str> {
    CONFIGS
        .iter()
        .find(|c| c.name == class)
        .and_then(|c| c.python_import)
}

/// Options set in the config that a surface cannot express, as Python comments.
fn not_expressible(out: &mut String, skipped: &[&'static OptionMeta], surface: &str) {
    for o in skipped {
        let _ = writeln!(
            out,
            "# `{}` cannot be set through {surface}; it is left out",
            o.path
        );
    }
}

/// `config = NPURunConfig(...)` with nested `MemoryConfig(...)`.
pub fn estimator(cfg: &Config) -> String {
    #[derive(Default)]
    struct Est {
        /// Argument lists of the calls being built, innermost last.
        stack: Vec<Vec<String>>,
        classes: Vec<&'static str>,
        skipped: Vec<&'static OptionMeta>,
        imports: Vec<&'static str>,
    }
    impl Visitor for Est {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            match (o.estimator, self.stack.last_mut()) {
                (Some(kw), Some(args)) => args.push(format!("{kw}={}", py(v))),
                _ => self.skipped.push(o),
            }
        }
        fn enter(&mut self, o: &'static OptionMeta) {
            self.stack.push(Vec::new());
            if let TypeMeta::Config(c) = o.ty {
                self.classes.push(c);
            }
        }
        fn leave(&mut self, o: &'static OptionMeta) {
            let args = self.stack.pop().unwrap_or_default();
            let class = self.classes.pop().unwrap_or("");
            if let Some(i) = import_of(class) {
                if !self.imports.contains(&i) {
                    self.imports.push(i);
                }
            }
            if let (Some(kw), Some(parent)) = (o.estimator, self.stack.last_mut()) {
                parent.push(format!("{kw}={class}({})", args.join(", ")));
            }
        }
    }
    let mut e = Est::default();
    let mut body = String::new();
    if let Some(run) = &cfg.npu_run_config {
        e.stack.push(Vec::new());
        run.visit(&mut e);
        let args = e.stack.pop().unwrap_or_default();
        if let Some(i) = import_of("NPURunConfig") {
            if !e.imports.contains(&i) {
                e.imports.insert(0, i);
            }
        }
        let _ = writeln!(body, "config = NPURunConfig(");
        for a in &args {
            let _ = writeln!(body, "    {a},");
        }
        let _ = writeln!(body, ")");
    }
    let mut out = String::new();
    for i in &e.imports {
        let _ = writeln!(out, "{i}");
    }
    if !e.imports.is_empty() {
        out.push('\n');
    }
    not_expressible(&mut out, &e.skipped, "NPURunConfig");
    out.push_str(&body);
    out
}

/// TF1 session: `custom_op.parameter_map[...]` with the option's accessor.
pub fn session(cfg: &Config) -> String {
    #[derive(Default)]
    struct Sess {
        lines: Vec<String>,
        skipped: Vec<&'static OptionMeta>,
    }
    impl Visitor for Sess {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            if o.env.is_some() {
                return;
            }
            let Some((name, acc)) = o.session else {
                self.skipped.push(o);
                return;
            };
            let rhs = match acc {
                Accessor::S => format!("tf.compat.as_bytes({})", py(v)),
                Accessor::I | Accessor::B => py(v),
            };
            self.lines.push(format!(
                "custom_op.parameter_map[{}].{} = {rhs}",
                py_str(name),
                acc.as_str()
            ));
        }
    }
    let mut s = Sess::default();
    if let Some(run) = &cfg.npu_run_config {
        run.visit(&mut s);
    }
    let mut out = String::from(
        "import tensorflow as tf\nfrom npu_bridge.npu_init import *\nfrom tensorflow.core.protobuf.rewriter_config_pb2 import RewriterConfig\n\n",
    );
    not_expressible(&mut out, &s.skipped, "a session's parameter_map");
    out.push_str("config = tf.compat.v1.ConfigProto()\n");
    out.push_str("custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n");
    out.push_str("custom_op.name = \"NpuOptimizer\"\n");
    for l in &s.lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str("config.graph_options.rewrite_options.remapping = RewriterConfig.OFF\n");
    out
}

/// The value converted to the Python type TF2 checks for, where the spec says it differs.
fn as_tf2<'a>(o: &OptionMeta, v: ValueRef<'a>) -> ValueRef<'a> {
    use crate::meta::Encoding;
    match (o.tf2_as, v) {
        (Some(Encoding::Bool), ValueRef::Int(i)) => ValueRef::Bool(i != 0),
        (Some(Encoding::Int), ValueRef::Bool(b)) => ValueRef::Int(i64::from(b)),
        _ => v,
    }
}

/// A string-typed value for TF2, kept alive for the borrow in `ValueRef::Str`.
fn tf2_line(o: &OptionMeta, path: &str, v: ValueRef<'_>) -> String {
    match (o.tf2_as, v) {
        (Some(crate::meta::Encoding::Str), ValueRef::Int(i)) => {
            format!("npu.global_options().{path} = {}", py_str(&i.to_string()))
        }
        (Some(crate::meta::Encoding::Str), ValueRef::Bool(b)) => format!(
            "npu.global_options().{path} = {}",
            py_str(if b { "1" } else { "0" })
        ),
        _ => format!("npu.global_options().{path} = {}", py(as_tf2(o, v))),
    }
}

/// TF2: attributes of `npu.global_options()`, set before `npu.open()`.
pub fn tf2(cfg: &Config) -> String {
    #[derive(Default)]
    struct T2 {
        lines: Vec<String>,
        skipped: Vec<&'static OptionMeta>,
    }
    impl Visitor for T2 {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            if o.env.is_some() {
                return;
            }
            match o.tf2 {
                Some(path) => self.lines.push(tf2_line(o, path, v)),
                None => self.skipped.push(o),
            }
        }
    }
    let mut t = T2::default();
    if let Some(run) = &cfg.npu_run_config {
        run.visit(&mut t);
    }
    let mut out = String::from("import npu_device as npu\n\n");
    not_expressible(&mut out, &t.skipped, "TF2 global options");
    for l in &t.lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str("npu.open().as_default()\n");
    out
}

#[cfg(test)]
mod tests {
    use super::py_str;

    #[test]
    fn python_strings_escape_what_they_must() {
        assert_eq!(py_str("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(py_str("24|48"), "\"24|48\"");
        assert_eq!(py_str("目录\n"), "\"目录\\n\"");
        assert_eq!(py_str("\u{1}"), "\"\\x01\"");
    }
}
