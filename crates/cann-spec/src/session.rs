//! `session.yaml`: how a TF1 session is set up around `parameter_map`, the custom optimizer
//! the adapter reads and what it asks of TensorFlow's graph rewrites (read and checked by
//! `read::session`).
//!
//! One type serves both stores of the model: the loader fills it with owned data, and
//! codegen emits it as `static` data borrowed for `'static` (`Cow::Borrowed`), so the lint
//! rule and the session emitter read the checked facts themselves, not a mirror of them.

use std::borrow::Cow;

/// A string of the model: owned when loaded, `'static` when emitted.
pub type Str = Cow<'static, str>;
/// A list of the model: owned when loaded, `'static` when emitted.
pub type List<T> = Cow<'static, [T]>;

/// The session set-up facts of the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSetup {
    /// The custom optimizer the adapter reads `parameter_map` from (`NpuOptimizer`).
    pub optimizer: Str,
    pub optimizer_source: List<Str>,
    /// What "off" is for each kind of `RewriterConfig` field.
    pub field_types: FieldTypes,
    /// The rewrites the adapter asks to be off or on, in the order the emitter writes them.
    pub rewrites: List<Rewrite>,
}

/// TensorFlow's numbers for "off", by kind of field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldTypes {
    pub toggle: OffValues,
    pub mem_opt: OffValues,
    pub bool: OffValues,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffValues {
    pub off: List<i64>,
    pub source: List<Str>,
}

/// A kind of `RewriterConfig` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// `RewriterConfig.Toggle`.
    Toggle,
    /// `RewriterConfig.MemOptType`.
    MemOpt,
    Bool,
}

/// What the adapter asks of a rewrite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// On by default, must be turned off (a bool: must stay false).
    Off,
    /// On by default, must stay on.
    On,
}

/// One `RewriterConfig` field the adapter asks something of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    /// The field's name in `RewriterConfig` (`remapping`).
    pub field: Str,
    pub ty: FieldType,
    pub want: Want,
    pub source: List<Str>,
}

impl SessionSetup {
    /// The values that mean "off" for a field of kind `ty`.
    pub fn off_values(&self, ty: FieldType) -> &[i64] {
        let t = &self.field_types;
        match ty {
            FieldType::Toggle => &t.toggle.off,
            FieldType::MemOpt => &t.mem_opt.off,
            FieldType::Bool => &t.bool.off,
        }
    }

    /// Whether `value`, set on `rewrite`'s field, is what the adapter asks for.
    pub fn as_wanted(&self, rewrite: &Rewrite, value: i64) -> bool {
        let off = self.off_values(rewrite.ty).contains(&value);
        match rewrite.want {
            Want::Off => off,
            Want::On => !off,
        }
    }

    /// The names of the fields judged, in spec order.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.rewrites.iter().map(|r| &*r.field)
    }
}
