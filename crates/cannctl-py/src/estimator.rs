//! `NPURunConfig(...)` keyword arguments and TF2's `npu.global_options()`, read from the
//! values a running script holds: plain values, dicts standing for a config class, the
//! adapter's own config objects (read by their attributes), and a `session_config`
//! `ConfigProto` (read as `check_session_config` reads one). What cannot be read is said in
//! a note, never passed over in silence.

use cann_config::meta::{Lang, OptionMeta, PyDefault, Severity, TypeMeta};
use cann_config::yaml::{Kind, Node, Pos};
use cann_config::{Diagnostic, OPTIONS};
use cann_i18n::catalog::{lint as lint_msg, python as msg};
use cann_lint::live::{self, npu_optimizer, Kwarg};
use cann_lint::LintOptions;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert;
use crate::proto;
use crate::written::Settings;

/// Classes nested deeper than this are not read (the adapter's go two deep).
const MAX_DEPTH: u32 = 8;

/// What reading the arguments found: how each was written, and findings of its own.
pub struct Reader {
    pub settings: Settings,
    pub extra: Vec<Diagnostic>,
    lang: Lang,
    opts: LintOptions,
}

/// The spec's option for keyword `name` of `class` (options without a surface, such as
/// `session_config`, by their own name).
fn option(class: &str, name: &str) -> Option<&'static OptionMeta> {
    let of_class = || OPTIONS.iter().filter(move |o| o.config == class);
    of_class()
        .find(|o| o.estimator == Some(name))
        .or_else(|| of_class().find(|o| o.estimator.is_none() && o.name == name))
}

/// Whether `v` is what the class's constructor sets when the keyword is left out: such an
/// attribute of a live object was most likely not written by the script.
fn is_default(o: &OptionMeta, v: &Kind) -> bool {
    use cann_config::meta::Lit;
    match (&o.estimator_default, v) {
        (PyDefault::None, Kind::Null) => true,
        (PyDefault::Lit(Lit::Int(a)), Kind::Int(b)) => a == b,
        // Python's `==` across int and float: `10000 == 10000.0`. Defaults are small
        // integers, exact as f64.
        #[allow(clippy::cast_precision_loss)]
        (PyDefault::Lit(Lit::Int(a)), Kind::Float(b)) => *a as f64 == *b,
        (PyDefault::Lit(Lit::Float(a)), Kind::Float(b)) => a.get() == *b,
        (PyDefault::Lit(Lit::Bool(a)), Kind::Bool(b)) => a == b,
        (PyDefault::Lit(Lit::Str(a)), Kind::Str(b)) => a == b,
        _ => false,
    }
}

fn at_node(at: Pos, kind: Kind) -> Node {
    Node { pos: at, kind }
}

impl Reader {
    pub fn new(opts: LintOptions) -> Self {
        Reader {
            settings: Settings::default(),
            extra: Vec::new(),
            lang: opts.lang,
            opts,
        }
    }

    fn note(&mut self, option: &str, at: Pos, setting: &str, found: &str) {
        let mut d = Diagnostic::new(
            Severity::Note,
            option,
            msg::not_read(self.lang, setting, found),
        );
        d.hint = Some(msg::not_read_hint(self.lang, setting));
        (d.line, d.column) = (Some(at.line), Some(at.col));
        self.extra.push(d);
    }

    /// The keyword arguments of a call to `class`, each numbered in `settings`.
    pub fn kwargs(
        &mut self,
        class: &str,
        kwargs: Option<&Bound<'_, PyDict>>,
        prefix: &str,
        depth: u32,
    ) -> PyResult<Vec<Kwarg>> {
        let Some(kwargs) = kwargs else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(kwargs.len());
        for (k, v) in kwargs.iter() {
            let name: String = k.cast::<PyString>()?.to_cow()?.into_owned();
            out.push(self.kwarg(class, &name, &v, prefix, depth)?);
        }
        Ok(out)
    }

    fn kwarg(
        &mut self,
        class: &str,
        name: &str,
        v: &Bound<'_, PyAny>,
        prefix: &str,
        depth: u32,
    ) -> PyResult<Kwarg> {
        let written = format!("{prefix}{name}");
        let at = self.settings.next(written.clone());
        let o = option(class, name);
        let path = o.map_or_else(|| written.clone(), |o| o.path.to_string());
        let value = if let Some(digits) = convert::big_int(v) {
            let d = convert::big_int_finding(&path, &digits, at, self.lang);
            self.extra.push(d);
            None
        } else if let Ok(d) = v.cast::<PyDict>() {
            // A class an option takes, given as a dict of its own keyword arguments.
            let inner_class = match o.map(|o| o.ty) {
                Some(TypeMeta::Config(c)) => c,
                _ => class,
            };
            (depth < MAX_DEPTH)
                .then(|| self.kwargs(inner_class, Some(d), &format!("{written}."), depth + 1))
                .transpose()?
                .map(|inner| at_node(at, map_of(inner)))
        } else if let Some(kind) = convert::scalar(v)? {
            Some(at_node(at, kind))
        } else {
            self.object(o, v, &written, &path, at, depth)?
        };
        Ok(Kwarg {
            name: name.to_string(),
            at,
            value,
        })
    }

    /// An object given for an option: the adapter's config class (read by its attributes),
    /// a session's `ConfigProto`, or something not read, which a note says.
    fn object(
        &mut self,
        o: Option<&'static OptionMeta>,
        v: &Bound<'_, PyAny>,
        written: &str,
        path: &str,
        at: Pos,
        depth: u32,
    ) -> PyResult<Option<Node>> {
        let found = convert::type_name(v);
        if let Some(TypeMeta::Config(want)) = o.map(|o| o.ty) {
            if found != want {
                let mut d = Diagnostic::new(
                    Severity::Error,
                    path,
                    lint_msg::takes_class(self.lang, written, want, &found),
                );
                d.hint = Some(format!("{written}={want}(...)"));
                (d.line, d.column) = (Some(at.line), Some(at.col));
                self.extra.push(d);
                return Ok(None);
            }
            if depth >= MAX_DEPTH {
                return Ok(None);
            }
            let inner = self.attributes(want, v, &format!("{written}."), depth + 1)?;
            return Ok(Some(at_node(at, map_of(inner))));
        }
        if proto::is_config_proto(v) {
            self.session(v, &format!("{written}."))?;
            return Ok(None);
        }
        self.note(path, at, written, &found);
        Ok(None)
    }

    /// The adapter's config object `v` of class `class`, read by its attributes: the
    /// constructor keeps each keyword as `_name` (a few as `name`). Attributes at the
    /// constructor's default count as not set.
    fn attributes(
        &mut self,
        class: &str,
        v: &Bound<'_, PyAny>,
        prefix: &str,
        depth: u32,
    ) -> PyResult<Vec<Kwarg>> {
        let mut out = Vec::new();
        for o in OPTIONS.iter().filter(|o| o.config == class) {
            let Some(name) = o.estimator else { continue };
            let attr = [format!("_{name}"), name.to_string()]
                .into_iter()
                .find(|a| v.hasattr(a.as_str()).unwrap_or(false));
            let Some(attr) = attr else { continue };
            let value = v.getattr(attr.as_str())?;
            if convert::scalar(&value)?.is_some_and(|k| is_default(o, &k)) {
                continue;
            }
            out.push(self.kwarg(class, name, &value, prefix, depth)?);
        }
        Ok(out)
    }

    /// `session_config`: its `NpuOptimizer` entries, checked as `check_session_config`
    /// checks them. The Estimator adds that optimizer itself, so a session without one
    /// (nor one misnamed) is fine here.
    fn session(&mut self, v: &Bound<'_, PyAny>, prefix: &str) -> PyResult<()> {
        let proto = proto::read(v, &mut self.settings, prefix, self.lang)?;
        let relevant = proto.optimizers.iter().any(|o| {
            o.name == npu_optimizer()
                || cann_spec::did_you_mean(&o.name, [npu_optimizer()]).is_some()
        });
        if relevant {
            let found = live::check_session(&proto, &self.opts);
            self.extra.extend(found.into_iter().map(|f| f.diagnostic));
        }
        Ok(())
    }

    /// TF2 attribute paths from keyword arguments, nested dicts giving sections
    /// (`memory_config={"atomic_clean_policy": 1}`).
    pub fn tf2_paths(
        &mut self,
        attrs: Option<&Bound<'_, PyDict>>,
        prefix: &str,
        depth: u32,
        out: &mut Vec<Kwarg>,
    ) -> PyResult<()> {
        let Some(attrs) = attrs else { return Ok(()) };
        for (k, v) in attrs.iter() {
            let name: String = k.cast::<PyString>()?.to_cow()?.into_owned();
            let path = format!("{prefix}{name}");
            if let Ok(d) = v.cast::<PyDict>() {
                if depth < MAX_DEPTH {
                    self.tf2_paths(Some(d), &format!("{path}."), depth + 1, out)?;
                }
                continue;
            }
            let at = self.settings.next(path.clone());
            let value = if let Some(digits) = convert::big_int(&v) {
                let d = convert::big_int_finding(&path, &digits, at, self.lang);
                self.extra.push(d);
                None
            } else if let Some(kind) = convert::scalar(&v)? {
                Some(at_node(at, kind))
            } else {
                let found = convert::type_name(&v);
                self.note(&path, at, &path, &found);
                None
            };
            out.push(Kwarg {
                name: path,
                at,
                value,
            });
        }
        Ok(())
    }
}

fn map_of(kwargs: Vec<Kwarg>) -> Kind {
    Kind::Map(
        kwargs
            .into_iter()
            .map(|kw| {
                let key = at_node(kw.at, Kind::Str(kw.name));
                let value = kw.value.unwrap_or(at_node(kw.at, Kind::Null));
                (key, value)
            })
            .collect(),
    )
}
