//! Python a user pastes into a training script, for each API surface.

use std::fmt::Write as _;

use cann_i18n::catalog::emit as msg;

use crate::meta::{Accessor, Lang, OptionMeta, PyDefault, TypeMeta};
use crate::session::{FieldType, Want};
use crate::{Config, ValueRef, Visit, Visitor, CONFIGS};

/// A Python literal for the value.
fn py(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Bool(true) => "True".into(),
        ValueRef::Bool(false) => "False".into(),
        ValueRef::Int(i) => i.to_string(),
        // `Float`'s text is Python's repr: `0.5`, `10000.0`, `1e+16`.
        ValueRef::Float(x) => x.to_string(),
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
fn not_expressible(out: &mut String, skipped: &[&'static OptionMeta], surface: &str, lang: Lang) {
    for o in skipped {
        let _ = writeln!(out, "# {}", msg::not_on_surface(lang, o.path, surface));
    }
}

/// `config = NPURunConfig(...)` with nested `MemoryConfig(...)`. A keyword the
/// constructor requires and the config leaves unset gets the spec's default for `release`,
/// or is reported in `errors` when the spec has none.
pub(super) fn estimator(
    cfg: &Config,
    release: crate::Release,
    errors: &mut Vec<super::EmitError>,
    lang: Lang,
) -> String {
    struct Est<'e> {
        /// Argument lists of the calls being built, innermost last, with the keywords given.
        stack: Vec<(Vec<String>, Vec<&'static str>)>,
        classes: Vec<&'static str>,
        skipped: Vec<&'static OptionMeta>,
        imports: Vec<&'static str>,
        release: crate::Release,
        errors: &'e mut Vec<super::EmitError>,
    }
    impl Est<'_> {
        /// The required keywords of `class` that the call does not pass yet.
        fn fill_required(&mut self, class: &str, args: &mut Vec<String>, given: &[&str]) {
            let required = crate::OPTIONS
                .iter()
                .filter(|o| o.config == class && o.estimator_default == PyDefault::Required);
            for o in required {
                let Some(kw) = o.estimator else { continue };
                if given.contains(&kw) {
                    continue;
                }
                match o.default_in(self.release) {
                    Some(d) => args.push(format!("{kw}={}", py_lit(d))),
                    None => self.errors.push(super::EmitError {
                        option: o.path,
                        kind: super::EmitErrorKind::MissingArgument {
                            class: o.config,
                            param: kw,
                        },
                    }),
                }
            }
        }
    }
    impl Visitor for Est<'_> {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            match (o.estimator, self.stack.last_mut()) {
                (Some(kw), Some((args, given))) => {
                    args.push(format!("{kw}={}", py(v)));
                    given.push(kw);
                }
                _ => self.skipped.push(o),
            }
        }
        fn enter(&mut self, o: &'static OptionMeta) {
            self.stack.push((Vec::new(), Vec::new()));
            if let TypeMeta::Config(c) = o.ty {
                self.classes.push(c);
            }
        }
        fn leave(&mut self, o: &'static OptionMeta) {
            let (mut args, given) = self.stack.pop().unwrap_or_default();
            let class = self.classes.pop().unwrap_or("");
            self.fill_required(class, &mut args, &given);
            if let Some(i) = import_of(class) {
                if !self.imports.contains(&i) {
                    self.imports.push(i);
                }
            }
            if let (Some(kw), Some((parent, given))) = (o.estimator, self.stack.last_mut()) {
                parent.push(format!("{kw}={class}({})", args.join(", ")));
                given.push(kw);
            }
        }
    }
    let mut e = Est {
        stack: Vec::new(),
        classes: Vec::new(),
        skipped: Vec::new(),
        imports: Vec::new(),
        release,
        errors,
    };
    let mut body = String::new();
    if let Some(run) = &cfg.npu_run_config {
        e.stack.push((Vec::new(), Vec::new()));
        run.visit(&mut e);
        let (mut args, given) = e.stack.pop().unwrap_or_default();
        e.fill_required("NPURunConfig", &mut args, &given);
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
    not_expressible(&mut out, &e.skipped, "NPURunConfig", lang);
    out.push_str(&body);
    out
}

/// TF1 session: `custom_op.parameter_map[...]` with the option's accessor.
pub(super) fn session(cfg: &Config, lang: Lang) -> String {
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
            // The literal the AttrValue field takes: the adapter parses `s` entries itself,
            // so they carry the value's text whatever its type.
            let rhs = match (acc, v) {
                (Accessor::S, v) => format!("tf.compat.as_bytes({})", py_str(&super::plain(v))),
                (Accessor::I, ValueRef::Bool(b)) => i64::from(b).to_string(),
                (Accessor::B, ValueRef::Int(i)) => py(ValueRef::Bool(i != 0)),
                (Accessor::I | Accessor::B, v) => py(v),
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
    not_expressible(&mut out, &s.skipped, &msg::surface_session(lang), lang);
    out.push_str("config = tf.compat.v1.ConfigProto()\n");
    out.push_str("custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n");
    let setup = &crate::SESSION_SETUP;
    out.push_str(&format!("custom_op.name = {}\n", py_str(&setup.optimizer)));
    for l in &s.lines {
        out.push_str(l);
        out.push('\n');
    }
    // The rewrites the adapter asks to be turned off (TF's remapping fuses ops the NPU graph
    // cannot take, and its memory optimizer rewrites what the graph engine plans), as every
    // upstream session example writes them; the ones asked to stay on are on by default.
    for r in setup.rewrites.iter() {
        if r.want == Want::Off && r.ty != FieldType::Bool {
            out.push_str(&format!(
                "config.graph_options.rewrite_options.{} = RewriterConfig.OFF\n",
                r.field
            ));
        }
    }
    out
}

/// The value in the Python type TF2's `OptionValue` declares, where it differs from the
/// option's own type.
fn as_tf2(o: &OptionMeta, v: ValueRef<'_>) -> Lit {
    use crate::meta::Encoding;
    match (o.tf2_as, v) {
        (Some(Encoding::Bool), ValueRef::Int(i)) => Lit::Bool(i != 0),
        (Some(Encoding::Int), ValueRef::Bool(b)) => Lit::Int(i64::from(b)),
        (Some(Encoding::Str), ValueRef::Int(i)) => Lit::Owned(i.to_string()),
        (Some(Encoding::Str), ValueRef::Bool(b)) => Lit::Owned(if b { "1" } else { "0" }.into()),
        (_, ValueRef::Bool(b)) => Lit::Bool(b),
        (_, ValueRef::Int(i)) => Lit::Int(i),
        (_, ValueRef::Float(x)) => Lit::Float(x),
        (_, ValueRef::Str(s)) => Lit::Owned(s.to_string()),
        (_, ValueRef::Cores(c)) => Lit::Owned(c.to_string()),
    }
}

/// A value on its way to Python.
enum Lit {
    Bool(bool),
    Int(i64),
    Float(crate::meta::Float),
    Owned(String),
}

impl Lit {
    fn python(&self) -> String {
        match self {
            Lit::Bool(true) => "True".into(),
            Lit::Bool(false) => "False".into(),
            Lit::Int(i) => i.to_string(),
            Lit::Float(x) => x.to_string(),
            Lit::Owned(s) => py_str(s),
        }
    }

    /// Python's `==`, which `in` uses: `True == 1`, but `"1" != 1`.
    fn equals(&self, l: &crate::meta::Lit) -> bool {
        use crate::meta::Lit as M;
        // Python compares numbers by value across bool, int and float. Option values are
        // small integers, so converting them to f64 is exact.
        #[allow(clippy::cast_precision_loss)]
        let num = |x: &Lit| match x {
            Lit::Bool(b) => Some(f64::from(u8::from(*b))),
            Lit::Int(i) => Some(*i as f64),
            Lit::Float(x) => Some(x.get()),
            Lit::Owned(_) => None,
        };
        #[allow(clippy::cast_precision_loss)]
        let listed = match l {
            M::Int(i) => Some(*i as f64),
            M::Bool(b) => Some(f64::from(u8::from(*b))),
            M::Float(x) => Some(x.get()),
            M::Str(_) => None,
        };
        match (self, l) {
            (Lit::Owned(a), M::Str(b)) => a == b,
            (x, _) => listed.is_some() && num(x) == listed,
        }
    }
}

/// A Python literal for a spec literal.
fn py_lit(l: crate::meta::Lit) -> String {
    match l {
        crate::meta::Lit::Bool(b) => py(ValueRef::Bool(b)),
        crate::meta::Lit::Int(i) => i.to_string(),
        crate::meta::Lit::Float(x) => x.to_string(),
        crate::meta::Lit::Str(s) => py_str(s),
    }
}

/// TF2: attributes of `npu.global_options()`, set before `npu.open()`. A value the
/// option's `OptionValue` would refuse is left out with a comment saying what it takes.
pub(super) fn tf2(cfg: &Config, lang: Lang) -> String {
    struct T2 {
        lines: Vec<String>,
        skipped: Vec<&'static OptionMeta>,
        refused: Vec<String>,
        lang: Lang,
    }
    impl Visitor for T2 {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            if o.env.is_some() {
                return;
            }
            let Some(path) = o.tf2 else {
                self.skipped.push(o);
                return;
            };
            let lit = as_tf2(o, v);
            if let Some(accepted) = o.tf2_values {
                if !accepted.iter().flatten().any(|a| lit.equals(a)) {
                    let shown: Vec<String> = accepted
                        .iter()
                        .map(|a| a.map_or_else(|| "None".to_string(), py_lit))
                        .collect();
                    let why = msg::refused_by_tf2(
                        self.lang,
                        o.path,
                        &lit.python(),
                        &self.lang.join(shown),
                    );
                    self.refused.push(format!("# {why}"));
                    return;
                }
            }
            self.lines
                .push(format!("npu.global_options().{path} = {}", lit.python()));
        }
    }
    let mut t = T2 {
        lines: Vec::new(),
        skipped: Vec::new(),
        refused: Vec::new(),
        lang,
    };
    if let Some(run) = &cfg.npu_run_config {
        run.visit(&mut t);
    }
    let mut out = String::from("import npu_device as npu\n\n");
    not_expressible(&mut out, &t.skipped, &msg::surface_tf2(lang), lang);
    for l in t.refused.iter().chain(&t.lines) {
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
