//! `OPTIONS`, `CONFIGS`, `RULES`, `FILES`: the spec as static data.

use cann_spec::{CharClass, ConfigKind, OptionType, Spec};
use proc_macro2::TokenStream;
use quote::quote;

use crate::lit::{lit, opt_str, opt_text, products, release, span, text};
use crate::Settings;

pub(crate) fn expand(spec: &Spec, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let n_opt = spec.options.len();
    let options = spec.options.iter().map(|o| {
        let (name, path, config) = (&o.name, &o.path, &o.config);
        let ty = match &o.ty {
            OptionType::Bool => quote!(#k::meta::TypeMeta::Bool),
            OptionType::Int => quote!(#k::meta::TypeMeta::Int),
            OptionType::Float => quote!(#k::meta::TypeMeta::Float),
            OptionType::IntEnum => quote!(#k::meta::TypeMeta::IntEnum),
            OptionType::StrEnum => quote!(#k::meta::TypeMeta::StrEnum),
            OptionType::Str => quote!(#k::meta::TypeMeta::Str),
            OptionType::CorePair => quote!(#k::meta::TypeMeta::CorePair),
            OptionType::Config(c) => quote!(#k::meta::TypeMeta::Config(#c)),
            OptionType::Object(c) => quote!(#k::meta::TypeMeta::Object(#c)),
            OptionType::Path { chars } => {
                let cs = chars.iter().map(|c| match c {
                    CharClass::AsciiAlphanumeric => quote!(#k::meta::CharClass::AsciiAlphanumeric),
                    CharClass::Cjk => quote!(#k::meta::CharClass::Cjk),
                    CharClass::Literal(ch) => quote!(#k::meta::CharClass::Literal(#ch)),
                });
                quote!(#k::meta::TypeMeta::Path { chars: &[#(#cs),*] })
            }
        };
        let default = match &o.default {
            Some(d) => {
                let d = lit(d, s);
                quote!(::core::option::Option::Some(#d))
            }
            None => quote!(::core::option::Option::None),
        };
        let values = o.values.iter().map(|v| {
            let l = lit(&v.value, s);
            let vname = &v.name;
            let aliases = v.aliases.iter().map(|a| lit(a, s));
            let avail = span(&v.available, s);
            let prods = match &v.products {
                Some(p) => {
                    let p = products(p, s);
                    quote!(::core::option::Option::Some(#p))
                }
                None => quote!(::core::option::Option::None),
            };
            let removed = crate::history::opt_removal(v.removed.as_ref(), s);
            let doc = text(&v.doc, s);
            let warning = opt_text(v.warning.as_ref(), s);
            let behaviour = crate::lit::opt_behaviour(v.behaviour, s);
            quote!(#k::meta::ValueMeta {
                value: #l, name: #vname, aliases: &[#(#aliases),*], available: #avail,
                products: #prods, warning: #warning, behaviour: #behaviour, removed: #removed,
                doc: #doc, loc: (),
            })
        });
        let range = opt_range(o.range.as_ref(), s);
        let special = o.special.iter().map(|(v, t)| {
            let t = text(t, s);
            quote!((#v, #t))
        });
        let unit = opt_str(o.unit.as_deref());
        let ge = opt_str(o.ge_key.as_deref());
        let est = opt_str(o.surfaces.estimator.as_deref());
        let session = match &o.surfaces.session {
            Some((n, a)) => {
                let a = crate::history::accessor(*a, s);
                quote!(::core::option::Option::Some((#n, #a)))
            }
            None => quote!(::core::option::Option::None),
        };
        let tf2 = opt_str(o.surfaces.tf2.as_deref());
        let tf2_as = match o.surfaces.tf2_as {
            Some(cann_spec::Encoding::Int) => quote!(::core::option::Option::Some(#k::meta::Encoding::Int)),
            Some(cann_spec::Encoding::Str) => quote!(::core::option::Option::Some(#k::meta::Encoding::Str)),
            Some(cann_spec::Encoding::Bool) => quote!(::core::option::Option::Some(#k::meta::Encoding::Bool)),
            None => quote!(::core::option::Option::None),
        };
        let est_default = match &o.surfaces.estimator_default {
            cann_spec::PyDefault::None => quote!(#k::meta::PyDefault::None),
            cann_spec::PyDefault::Required => quote!(#k::meta::PyDefault::Required),
            cann_spec::PyDefault::Lit(l) => {
                let l = lit(l, s);
                quote!(#k::meta::PyDefault::Lit(#l))
            }
        };
        let tf2_default = match &o.surfaces.tf2_default {
            Some(l) => {
                let l = lit(l, s);
                quote!(::core::option::Option::Some(#l))
            }
            None => quote!(::core::option::Option::None),
        };
        let tf2_values = match &o.surfaces.tf2_values {
            Some(vs) => {
                let vs = vs.iter().map(|v| match v {
                    Some(l) => {
                        let l = lit(l, s);
                        quote!(::core::option::Option::Some(#l))
                    }
                    None => quote!(::core::option::Option::None),
                });
                quote!(::core::option::Option::Some(&[#(#vs),*]))
            }
            None => quote!(::core::option::Option::None),
        };
        let by_product = o.by_product.iter().map(|f| {
            let ps = f.products.iter().map(|p| crate::lit::product(p, s));
            let range = opt_range(f.range.as_ref(), s);
            let default = match &f.default {
                Some(d) => {
                    let d = lit(d, s);
                    quote!(::core::option::Option::Some(#d))
                }
                None => quote!(::core::option::Option::None),
            };
            quote!(#k::meta::ProductFactsMeta { products: &[#(#ps),*], range: #range, default: #default, loc: () })
        });
        let env = opt_str(o.surfaces.env.as_deref());
        let values_of = opt_str(o.values_of.as_deref());
        let avail = span(&o.available, s);
        let prods = products(o.effective_products(spec), s);
        let dep = crate::history::deprecation(o.deprecated.as_ref(), s);
        let introduced = crate::history::introduced(o.introduced.as_ref(), s);
        let removed = o.removed.iter().map(|r| crate::history::removal(r, s));
        let doc = text(&o.doc, s);
        let source = &o.source;
        let changes = o.changes.iter().map(|c| {
            let from = release(&c.release, s);
            let default = match &c.default {
                Some(d) => {
                    let d = lit(d, s);
                    quote!(::core::option::Option::Some(#d))
                }
                None => quote!(::core::option::Option::None),
            };
            let ge = opt_str(c.ge_key.as_deref());
            let range = opt_range(c.range.as_ref(), s);
            quote!(#k::meta::ChangeMeta { release: #from, default: #default, ge_key: #ge, range: #range, loc: () })
        });
        quote! {
            #k::meta::OptionMeta {
                name: #name, path: #path, config: #config, ty: #ty, default: #default,
                values: &[#(#values),*], range: #range, special: &[#(#special),*], unit: #unit,
                ge_key: #ge, estimator: #est, estimator_default: #est_default, session: #session,
                tf2: #tf2, tf2_as: #tf2_as, tf2_default: #tf2_default, tf2_values: #tf2_values,
                env: #env, values_of: #values_of,
                available: #avail, introduced: #introduced, products: #prods, deprecated: #dep,
                removed: &[#(#removed),*], changes: &[#(#changes),*], by_product: &[#(#by_product),*],
                doc: #doc,
                source: &[#(#source),*],
            }
        }
    });

    let n_cfg = spec.configs.len();
    let configs = spec.configs.iter().map(|c| {
        let name = &c.name;
        let root = opt_str(c.root_key.as_deref());
        let kind = match c.kind {
            ConfigKind::Python => quote!(#k::meta::ConfigKind::Python),
            ConfigKind::Environment => quote!(#k::meta::ConfigKind::Environment),
        };
        let imp = opt_str(c.python_import.as_deref());
        let doc = text(&c.doc, s);
        quote!(#k::meta::ConfigMeta { name: #name, root_key: #root, kind: #kind, python_import: #imp, doc: #doc })
    });

    let n_rules = spec.rules.len();
    let rules = spec.rules.iter().map(|r| {
        let id = &r.id;
        let sev = match r.severity {
            cann_spec::Severity::Error => quote!(#k::meta::Severity::Error),
            cann_spec::Severity::Warning => quote!(#k::meta::Severity::Warning),
            cann_spec::Severity::Note => quote!(#k::meta::Severity::Note),
        };
        let conds = r.when.iter().map(|c| c.to_string());
        let opts = r.when.iter().map(|c| &c.option);
        let msg = text(&r.message, s);
        let hint = opt_text(r.hint.as_ref(), s);
        let avail = span(&r.available, s);
        quote!(#k::meta::RuleMeta { id: #id, severity: #sev, conditions: &[#(#conds),*], options: &[#(#opts),*], available: #avail, message: #msg, hint: #hint })
    });

    let n_files = spec.files.len();
    let files = spec.files.iter().map(|f| {
        let name = &f.name;
        let loc = text(&f.location, s);
        let inv = text(&f.invalid, s);
        let doc = text(&f.doc, s);
        let keys = f.sections.iter().flat_map(|sec| {
            sec.keys.iter().map(move |key| (sec.name.clone(), key))
        }).map(|(sec, key)| {
            let kname = &key.name;
            let range = opt_range(key.range.as_ref(), s);
            let unit = opt_str(key.unit.as_deref());
            let default = opt_i64(key.default);
            let env = opt_str(key.env.as_deref());
            let special = key.special.iter().map(|(v, t)| {
                let t = text(t, s);
                quote!((#v, #t))
            });
            let doc = text(&key.doc, s);
            quote!(#k::meta::FileKeyMeta { section: #sec, name: #kname, range: #range, unit: #unit, default: #default, env: #env, special: &[#(#special),*], doc: #doc })
        });
        quote!(#k::meta::FileMeta { name: #name, location: #loc, invalid: #inv, doc: #doc, keys: &[#(#keys),*] })
    });

    quote! {
        /// Every option of the spec, in spec order.
        pub static OPTIONS: [#k::meta::OptionMeta; #n_opt] = [#(#options),*];
        /// Every configuration class of the spec.
        pub static CONFIGS: [#k::meta::ConfigMeta; #n_cfg] = [#(#configs),*];
        /// Every cross-option rule of the spec.
        pub static RULES: [#k::meta::RuleMeta; #n_rules] = [#(#rules),*];
        /// On-disk file formats the options rely on.
        pub static FILES: [#k::meta::FileMeta; #n_files] = [#(#files),*];
    }
}

fn opt_i64(v: Option<i64>) -> TokenStream {
    match v {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// `Option<RangeMeta>` of a range written in the spec.
fn opt_range(r: Option<&cann_spec::IntRange>, s: &Settings) -> TokenStream {
    let k = &s.krate;
    match r {
        Some(r) => {
            let (min, max) = (opt_i64(r.min), opt_i64(r.max));
            let (excl, real, advice) = (r.min_exclusive, r.real, r.advice);
            quote!(::core::option::Option::Some(#k::meta::RangeMeta { min: #min, max: #max, min_exclusive: #excl, real: #real, advice: #advice }))
        }
        None => quote!(::core::option::Option::None),
    }
}
