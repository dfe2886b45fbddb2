//! The facts extraction hands the rules: the config objects a script or a running program
//! builds, the settings each makes, and the names written that are no option where they were
//! written. `crate::extract` and `crate::live` fill them in; `crate::rules` judge them.

use cann_config::meta::{OptionMeta, Severity};
use cann_config::yaml::{Node as Value, Pos};
use cann_config::Diagnostic;

use crate::branch::Path;
use crate::messages::Place;
use crate::rules::rule::Rule;
use crate::{names, Finding, Surface};

/// What a script sets an option to, as far as it can be known without running it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Val {
    /// A literal, already in the option's type as the spec gives it.
    Lit(Value),
    /// Set, to a value known only when the script runs (a flag, a variable, a call).
    Unknown,
    /// Written in a way that means "not set", such as `None` for a keyword whose default
    /// is `None`.
    Unset,
}

/// One option set at one place in the script.
#[derive(Debug, Clone)]
pub(crate) struct Setting {
    pub option: &'static OptionMeta,
    /// Where the option's name is written; findings about the setting point here.
    pub at: Pos,
    pub val: Val,
    pub path: Path,
    /// Copied from the script's environment object: used for rules, reported there.
    pub borrowed: bool,
}

/// The settings of one object, and what was wrong before reading their values.
#[derive(Debug)]
pub(crate) struct ConfigObject {
    pub surface: Surface,
    /// Where the object starts; findings with no position of their own go here.
    pub anchor: Pos,
    /// Classes the object builds (their config-file paths), with where each is built.
    pub classes: Vec<(&'static str, Pos)>,
    pub settings: Vec<Setting>,
    pub findings: Vec<Finding>,
}

impl ConfigObject {
    pub(crate) fn new(surface: Surface, anchor: Pos) -> Self {
        ConfigObject {
            surface,
            anchor,
            classes: Vec::new(),
            settings: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// A finding of `rule` at `pos`, an error unless the rule says otherwise.
    pub(crate) fn finding(
        &mut self,
        rule: &Rule,
        option: &str,
        pos: Pos,
        message: String,
    ) -> &mut Diagnostic {
        let mut d = Diagnostic::new(Severity::Error, option, message);
        d.line = Some(pos.line);
        d.column = Some(pos.col);
        self.findings.push(Finding {
            surface: self.surface,
            kind: rule.kind,
            diagnostic: d,
            fix: None,
        });
        let last = self.findings.len() - 1;
        &mut self.findings[last].diagnostic
    }

    /// The finding pushed last, to attach a fix to.
    pub(crate) fn last_finding(&mut self) -> Option<&mut Finding> {
        self.findings.last_mut()
    }

    pub(crate) fn set(&mut self, option: &'static OptionMeta, at: Pos, val: Val, path: Path) {
        self.settings.push(Setting {
            option,
            at,
            val,
            path,
            borrowed: false,
        });
    }
}

/// A name a script wrote that is not an option on the surface it was written on, and
/// where: what `crate::rules::unknown_option` judges.
pub(crate) struct Written<'a> {
    pub surface: Surface,
    /// As written: a kwarg, a `parameter_map` key, or a dotted path below `global_options()`.
    pub name: &'a str,
    /// The estimator class, whose options alone a kwarg may name.
    pub class: Option<&'a str>,
    pub at: Pos,
    /// The bytes of the name's last segment, which a rename replaces.
    pub span: Option<std::ops::Range<usize>>,
    /// The `parameter_map` accessor written (`"s"`, `"list"`...).
    pub accessor: Option<&'a str>,
    /// The value, when it is a literal.
    pub value: Option<&'a Value>,
}

impl Written<'_> {
    /// The surface as messages name it.
    pub(crate) fn place(&self) -> Place<'static> {
        match self.surface {
            Surface::Estimator => Place::Kwarg(
                self.class
                    .and_then(names::python_class)
                    .map_or("NPURunConfig", |c| c.name),
            ),
            Surface::Session => Place::Key,
            Surface::Tf2 => Place::Tf2,
            Surface::Env => Place::Env,
        }
    }
}

/// A field of `RewriterConfig` as set: its name and its number (an enum value, or 0/1 for a
/// boolean).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    pub field: String,
    pub value: i64,
    /// The enum value's name as the protobuf descriptor gives it, for messages.
    pub value_name: String,
}
