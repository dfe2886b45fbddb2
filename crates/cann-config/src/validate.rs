//! Checking a config against a product and release: every finding, never just the first.

use cann_i18n::catalog::config as msg;

use crate::meta::{self, Lang, Lit, OptionMeta, Severity, TypeMeta};
use crate::parse::allowed;
use crate::{check_rules_partial, Config, Diagnostic, Report, Target, ValueRef, Visit, Visitor};

/// Validates `cfg` for `target`, with messages in English.
pub fn validate(cfg: &Config, target: Target) -> Report {
    let mut report = Report::default();
    validate_into(cfg, target, &mut report);
    report
}

/// Validates `cfg` for `target`, appending to `report` in its language.
pub fn validate_into(cfg: &Config, target: Target, report: &mut Report) {
    validate_on_device(cfg, target, None, report);
}

/// As [`validate_into`], with the core counts of the actual processor (from its
/// `platform_config` ini) bounding `aicore_num` instead of the product line's.
pub fn validate_on_device(
    cfg: &Config,
    target: Target,
    device: Option<crate::CoreCounts>,
    report: &mut Report,
) {
    check_all(cfg, target, device, &[], report);
}

fn check_all(
    cfg: &Config,
    target: Target,
    device: Option<crate::CoreCounts>,
    unread: &[(&'static OptionMeta, Unread)],
    report: &mut Report,
) {
    let lang = report.lang;
    let known = target.release.meta().products;
    if !known.contains(&target.product) {
        let m = msg::release_lacks_product(lang, target.release.id(), target.product.meta().name);
        let names = lang.join(known.iter().map(|p| p.id()));
        report.push(
            Diagnostic::new(Severity::Error, "product", m)
                .with_value(target.product.id())
                .with_expected(msg::one_of(lang, &names)),
        );
    }
    let mut checker = Checker {
        target,
        lang,
        report,
        device,
        unsupported_depth: 0,
        entered: Vec::new(),
    };
    cfg.visit(&mut checker);
    for (o, u) in unread {
        if *u == Unread::Set {
            checker.presence(o);
        }
    }
    let known = |path: &str| unread.iter().find(|(o, _)| o.path == path).map(|(_, u)| *u);
    check_rules_partial(cfg, target.release, report, &known);
}

/// What a front end knows about an option whose value it could not read, such as a linter
/// meeting `dump_path=FLAGS.dump_dir` in a script. Such an option is left out of the
/// [`Config`] and listed beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread {
    /// Surely set, to a value known only when the program runs.
    Set,
    /// Perhaps set: only on some paths through the program.
    Maybe,
}

/// Validates a config that is known only in part: `cfg` holds the values that were read,
/// `unread` the options that are set to a value not known here, or perhaps set. Their
/// values are not checked, but an option surely set is still checked for availability,
/// product support and deprecation, and a rule fires only when it surely holds.
pub fn validate_partial(
    cfg: &Config,
    unread: &[(&'static OptionMeta, Unread)],
    target: Target,
    report: &mut Report,
) {
    check_all(cfg, target, None, unread, report);
}

struct Checker<'r> {
    target: Target,
    lang: Lang,
    report: &'r mut Report,
    /// Core counts of the processor, when known.
    device: Option<crate::CoreCounts>,
    /// Inside a class that is itself unsupported, its fields are not reported again.
    unsupported_depth: u32,
    entered: Vec<bool>,
}

/// The products of `release` that `products` covers, by name in `lang`; empty when none.
fn supported_names(
    products: meta::Products,
    release: crate::Release,
    lang: Lang,
) -> Vec<&'static str> {
    crate::PRODUCTS
        .iter()
        .filter(|p| meta::supports(products, p.product, release))
        .map(|p| p.name.get(lang))
        .collect()
}

impl Checker<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.report.push(d);
    }

    /// The releases in which some product may use `products`: where an option or value is
    /// unavailable for every product, the real cause is the release, not the product.
    fn usable_in(products: meta::Products, span: meta::Span, release: crate::Release) -> bool {
        span.contains(release)
            && release
                .meta()
                .products
                .iter()
                .any(|p| meta::supports(products, *p, release))
    }

    /// Availability in the release and support on the product; `false` when either fails.
    fn support(&mut self, o: &'static OptionMeta, value: Option<String>) -> bool {
        let Target { product, release } = self.target;
        let lang = self.lang;
        if let Some(r) = o.removed_in(release) {
            // Below a removed class, its fields went with it: said once, at the class.
            if self.unsupported_depth == 0 {
                let mut d = crate::history::removed_option(o, r, lang);
                d.value = value;
                self.push(d);
            }
            return false;
        }
        if !Self::usable_in(o.products, o.available, release) {
            let mut d = Diagnostic::new(
                Severity::Error,
                o.path,
                msg::option_unavailable(lang, o.name, release.id()),
            );
            d.expected = releases_with(o.products, o.available, lang);
            d.value = value;
            self.push(d);
            return false;
        }
        if self.unsupported_depth == 0 && !meta::supports(o.products, product, release) {
            let m = msg::option_unsupported(lang, o.name, product.meta().name, release.id());
            let names = supported_names(o.products, release, lang);
            let mut d = Diagnostic::new(Severity::Error, o.path, m)
                .with_expected(msg::products_among(lang, &lang.join(names)));
            d.value = value;
            self.push(d);
            return false;
        }
        true
    }

    /// A retired option set to `""` where the spec's removal says upstream ignores an empty
    /// value: a warning that it has no effect instead of the removal's error (a non-empty
    /// value is still refused). Returns whether it was that case.
    fn empty_ignored(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) -> bool {
        let ValueRef::Str(s) = v else { return false };
        let Some(r) = crate::history::empty_ignored_in(o, self.target.release, s) else {
            return false;
        };
        // Below a removed class, its fields went with it: said once, at the class.
        if self.unsupported_depth == 0 {
            let d = crate::history::empty_ignored(o, r, self.lang);
            self.push(d);
        }
        true
    }

    /// What is checked of an option set to an unknown value: whether it may be set at all.
    fn presence(&mut self, o: &'static OptionMeta) {
        self.history_notes(o);
        self.support(o, None);
    }

    fn history_notes(&mut self, o: &'static OptionMeta) {
        // The history notes of an option set in the target release: an unknown first
        // release first, then a deprecation.
        if let Some(d) = crate::history::may_not_exist(o, self.target.release, self.lang) {
            self.push(d);
        }
        let Some(dep) = o.deprecated else { return };
        // A removed option is said once, as an error.
        if self.target.release < dep.since || o.removed_in(self.target.release).is_some() {
            return;
        }
        let lang = self.lang;
        let mut d = Diagnostic::new(
            Severity::Warning,
            o.path,
            msg::deprecated(lang, o.name, dep.since.id()),
        );
        d.hint = Some(crate::history::replacement_hint(
            dep.replacement,
            dep.values,
            dep.note,
            lang,
        ));
        self.push(d);
    }

    fn enum_value(&mut self, o: &'static OptionMeta, lit: Lit, shown: &str) {
        let Some(v) = o.value(lit) else { return };
        let Target { product, release } = self.target;
        let lang = self.lang;
        if let Some(w) = v.warning {
            let m = msg::value_warning(lang, shown, o.name, w.get(lang));
            self.push(Diagnostic::new(Severity::Warning, o.path, m).with_value(shown));
        }
        let products = v.products.unwrap_or(o.products);
        if let Some(r) = v.removed.filter(|r| r.gone_in(release)) {
            self.push(crate::history::removed_value(o, v, &r, lang));
        } else if !Self::usable_in(products, v.available, release) {
            let m = msg::value_unavailable(lang, shown, o.name, release.id());
            let mut d = Diagnostic::new(Severity::Error, o.path, m).with_value(shown);
            d.expected = releases_with(products, v.available, lang);
            self.push(d);
        } else if let Some(products) = v.products {
            if !meta::supports(products, product, release) {
                let m =
                    msg::value_unsupported(lang, shown, o.name, product.meta().name, release.id());
                let names = supported_names(products, release, lang);
                self.push(
                    Diagnostic::new(Severity::Error, o.path, m)
                        .with_value(shown)
                        .with_expected(msg::products_among(lang, &lang.join(names))),
                );
            }
        }
    }

    fn range(&mut self, o: &'static OptionMeta, i: i64) {
        let Some(r) = o.range_on(self.target.product, self.target.release) else {
            return;
        };
        // A special value (such as -1, "off") lies outside the range and is valid all the same.
        if !r.contains(i) && !o.special.iter().any(|(v, _)| *v == i) {
            self.outside(o, r, ValueRef::Int(i));
        }
    }

    /// A float option's value against its range (no special values: those are integers).
    fn real_range(&mut self, o: &'static OptionMeta, x: meta::Float) {
        let Some(r) = o.range_on(self.target.product, self.target.release) else {
            return;
        };
        if !r.contains_real(x.get()) {
            self.outside(o, r, ValueRef::Float(x));
        }
    }

    fn outside(&mut self, o: &'static OptionMeta, r: meta::RangeMeta, v: ValueRef<'_>) {
        let lang = self.lang;
        let shown = v.to_string();
        // No upstream source states an advised bound: the value may work, so warn.
        let (severity, text) = if r.advice {
            (Severity::Warning, msg::outside_advice(lang, &shown, o.name))
        } else {
            (Severity::Error, msg::out_of_range(lang, &shown, o.name))
        };
        self.push(
            Diagnostic::new(severity, o.path, text)
                .with_value(v)
                .with_expected(meta::describe_int_values_in(
                    Some(r),
                    o.special,
                    o.unit,
                    lang,
                )),
        );
    }

    fn path_chars(&mut self, o: &'static OptionMeta, chars: &'static [meta::CharClass], s: &str) {
        let mut bad: Vec<char> = s
            .chars()
            .filter(|c| !chars.iter().any(|cc| cc.matches(*c)))
            .collect();
        if bad.is_empty() {
            return;
        }
        bad.sort_unstable();
        bad.dedup();
        let lang = self.lang;
        let shown: Vec<String> = bad.iter().map(|c| format!("{c:?}")).collect();
        let allowed = lang.join(chars.iter().map(|c| c.describe(lang)));
        self.push(
            Diagnostic::new(
                Severity::Error,
                o.path,
                msg::bad_path_chars(lang, o.name, &shown.join(" ")),
            )
            .with_value(format!("{s:?}"))
            .with_expected(allowed)
            .with_hint(msg::bad_path_hint(lang)),
        );
    }

    /// A value no emitter could write is an error here already, with the emitter's words.
    fn carriable(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
        if matches!(v, ValueRef::Str(s) if s.contains('\0')) {
            let e = crate::emit::EmitError {
                option: o.path,
                kind: crate::emit::EmitErrorKind::Nul,
            };
            self.push(e.diagnostic(self.report.lang));
        }
    }

    fn cores(&mut self, o: &'static OptionMeta, c: crate::CoreCounts) {
        let lang = self.lang;
        if c.cube == 0 || c.vector == 0 {
            self.push(
                Diagnostic::new(Severity::Error, o.path, msg::cores_zero(lang, o.name))
                    .with_value(format!("\"{c}\"")),
            );
            return;
        }
        let product = self.target.product.meta();
        let (bound, m) = match self.device {
            Some(d) => (
                Some((d.cube, d.vector)),
                msg::cores_over_device(lang, o.name),
            ),
            None => (
                product.cores,
                msg::cores_over_product(lang, o.name, product.name),
            ),
        };
        if let Some((cube, vector)) = bound {
            if c.cube > cube || c.vector > vector {
                self.push(
                    Diagnostic::new(Severity::Error, o.path, m)
                        .with_value(format!("\"{c}\""))
                        .with_expected(msg::cores_at_most(lang, cube, vector)),
                );
            }
        }
    }
}

/// The releases in which something with `products` support and `span` availability can be
/// used on some product, in words; `None` when there is none.
fn releases_with(products: meta::Products, span: meta::Span, lang: Lang) -> Option<String> {
    use crate::Release;
    let usable = |r: &Release| Checker::usable_in(products, span, *r);
    let first = Release::ALL.iter().position(usable)?;
    let last = Release::ALL.iter().rposition(usable)?;
    if !Release::ALL[first..=last].iter().all(usable) {
        // Support lapsed and came back: name the releases.
        let ids = Release::ALL.iter().filter(|r| usable(r)).map(|r| r.id());
        return Some(msg::one_of(lang, &lang.join(ids)));
    }
    let from = (first > 0).then(|| Release::ALL[first]);
    let last = (last + 1 < Release::ALL.len()).then(|| Release::ALL[last]);
    Some(
        meta::Span {
            from,
            last,
            loc: (),
        }
        .describe(lang),
    )
}

impl Visitor for Checker<'_> {
    fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
        self.history_notes(o);
        self.carriable(o, v);
        if self.empty_ignored(o, v) {
            return;
        }
        if !self.support(o, Some(v.to_string())) {
            return;
        }
        match (o.ty, v) {
            (TypeMeta::IntEnum, ValueRef::Int(i)) => {
                self.enum_value(o, Lit::Int(i), &i.to_string())
            }
            (TypeMeta::StrEnum, ValueRef::Str(s)) => {
                if let Some(meta) = o
                    .values
                    .iter()
                    .find(|x| matches!(x.value, Lit::Str(t) if t == s))
                {
                    self.enum_value(o, meta.value, &format!("{s:?}"));
                }
            }
            (TypeMeta::Int, ValueRef::Int(i)) => self.range(o, i),
            (TypeMeta::Float, ValueRef::Float(x)) => self.real_range(o, x),
            (TypeMeta::Path { chars }, ValueRef::Str(s)) => self.path_chars(o, chars, s),
            (TypeMeta::CorePair, ValueRef::Cores(c)) => self.cores(o, c),
            (TypeMeta::IntEnum | TypeMeta::StrEnum, _) => {
                let m = msg::not_a_value(self.lang, &v.to_string(), o.name);
                let mut d = Diagnostic::new(Severity::Error, o.path, m).with_value(v);
                d.expected = allowed(o, self.lang);
                self.push(d);
            }
            (TypeMeta::Object(class), _) => {
                let m = msg::python_object_only(self.lang, o.name, class);
                self.push(Diagnostic::new(Severity::Error, o.path, m).with_value(v));
            }
            _ => {}
        }
    }

    fn enter(&mut self, o: &'static OptionMeta) {
        self.history_notes(o);
        // Once a class is unsupported, everything below it is too; say it once.
        let suppress = self.unsupported_depth > 0 || !self.support(o, None);
        if suppress {
            self.unsupported_depth += 1;
        }
        self.entered.push(suppress);
    }

    fn leave(&mut self, _o: &'static OptionMeta) {
        if self.entered.pop() == Some(true) {
            self.unsupported_depth = self.unsupported_depth.saturating_sub(1);
        }
    }
}
