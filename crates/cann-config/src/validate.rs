//! Checking a config against a product and release: every finding, never just the first.

use crate::meta::{self, Lit, OptionMeta, Severity, TypeMeta};
use crate::parse::allowed;
use crate::{check_rules, Config, Diagnostic, Report, Target, ValueRef, Visit, Visitor};

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
    if !target.release.meta().products.contains(&target.product) {
        let known: Vec<&str> = target
            .release
            .meta()
            .products
            .iter()
            .map(|p| p.id())
            .collect();
        let msg = report.t(
            &format!(
                "release {} does not know the product {}",
                target.release, target.product
            ),
            &format!("版本 {} 不包含产品 {}", target.release, target.product),
        );
        report.push(
            Diagnostic::new(Severity::Error, "product", msg)
                .with_expected(format!("one of {}", known.join(", "))),
        );
    }
    let mut checker = Checker {
        target,
        report,
        device,
        unsupported_depth: 0,
        entered: Vec::new(),
    };
    cfg.visit(&mut checker);
    check_rules(cfg, target.release, report);
}

struct Checker<'r> {
    target: Target,
    report: &'r mut Report,
    /// Core counts of the processor, when known.
    device: Option<crate::CoreCounts>,
    /// Inside a class that is itself unsupported, its fields are not reported again.
    unsupported_depth: u32,
    entered: Vec<bool>,
}

fn product_list(products: meta::Products, release: crate::Release) -> String {
    match products {
        None => "every product".into(),
        Some(list) => {
            let names: Vec<&str> = list
                .iter()
                .filter(|s| s.span.contains(release))
                .map(|s| s.product.id())
                .collect();
            if names.is_empty() {
                format!("no product in {release}")
            } else {
                names.join(", ")
            }
        }
    }
}

impl Checker<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.report.push(d);
    }

    /// Availability in the release and support on the product; `false` when either fails.
    fn support(&mut self, o: &'static OptionMeta, value: Option<String>) -> bool {
        let Target { product, release } = self.target;
        if !o.available.contains(release) {
            let msg = self.report.t(
                &format!("`{}` is not available in release {release}", o.name),
                &format!("`{}` 在版本 {release} 中不可用", o.name),
            );
            let mut d = Diagnostic::new(Severity::Error, o.path, msg)
                .with_expected(format!("a release in {}", o.available));
            d.value = value;
            self.push(d);
            return false;
        }
        if self.unsupported_depth == 0 && !meta::supports(o.products, product, release) {
            let msg = self.report.t(
                &format!(
                    "`{}` is not supported on {} in release {release}",
                    o.name,
                    product.meta().name.en
                ),
                &format!(
                    "`{}` 在版本 {release} 中不支持 {}",
                    o.name,
                    product.meta().name.zh
                ),
            );
            let mut d = Diagnostic::new(Severity::Error, o.path, msg).with_expected(format!(
                "a product among: {}",
                product_list(o.products, release)
            ));
            d.value = value;
            self.push(d);
            return false;
        }
        true
    }

    fn deprecated(&mut self, o: &'static OptionMeta) {
        if let Some(dep) = o.deprecated {
            if self.target.release >= dep.since {
                let msg = self.report.t(
                    &format!("`{}` is deprecated since {}", o.name, dep.since),
                    &format!("`{}` 自 {} 起已弃用", o.name, dep.since),
                );
                let mut d = Diagnostic::new(Severity::Warning, o.path, msg);
                d.hint = Some(match dep.replacement {
                    Some(r) => self.report.t(
                        &format!("use `{r}` instead. {}", dep.note.en),
                        &format!("请改用 `{r}`。{}", dep.note.zh),
                    ),
                    None => dep.note.get(self.report.lang).to_string(),
                });
                self.push(d);
            }
        }
    }

    fn enum_value(&mut self, o: &'static OptionMeta, lit: Lit, shown: &str) {
        let Some(v) = o.value(lit) else { return };
        let Target { product, release } = self.target;
        if !v.available.contains(release) {
            let msg = self.report.t(
                &format!(
                    "value {shown} of `{}` is not available in release {release}",
                    o.name
                ),
                &format!("`{}` 的取值 {shown} 在版本 {release} 中不可用", o.name),
            );
            self.push(
                Diagnostic::new(Severity::Error, o.path, msg)
                    .with_value(shown)
                    .with_expected(format!("a release in {}", v.available)),
            );
        } else if let Some(products) = v.products {
            if !meta::supports(products, product, release) {
                let msg = self.report.t(
                    &format!(
                        "value {shown} of `{}` is not supported on {product} in release {release}",
                        o.name
                    ),
                    &format!(
                        "`{}` 的取值 {shown} 在版本 {release} 中不支持 {product}",
                        o.name
                    ),
                );
                self.push(
                    Diagnostic::new(Severity::Error, o.path, msg)
                        .with_value(shown)
                        .with_expected(format!(
                            "a product among: {}",
                            product_list(products, release)
                        )),
                );
            }
        }
    }

    fn range(&mut self, o: &'static OptionMeta, i: i64) {
        if let Some(r) = o.range_in(self.target.release) {
            if !r.contains(i) {
                let unit = o.unit.map(|u| format!(" {u}")).unwrap_or_default();
                let msg = self.report.t(
                    &format!("{i} is out of range for `{}`", o.name),
                    &format!("{i} 超出 `{}` 的取值范围", o.name),
                );
                self.push(
                    Diagnostic::new(Severity::Error, o.path, msg)
                        .with_value(i)
                        .with_expected(format!("an integer {r}{unit}")),
                );
            }
        }
    }

    fn path_chars(&mut self, o: &'static OptionMeta, chars: &'static [meta::CharClass], s: &str) {
        let bad: Vec<char> = s
            .chars()
            .filter(|c| !chars.iter().any(|cc| cc.matches(*c)))
            .collect();
        if !bad.is_empty() {
            let mut shown: Vec<String> = bad.iter().map(|c| format!("{c:?}")).collect();
            shown.dedup();
            let allowed: Vec<String> = chars.iter().map(|c| c.describe()).collect();
            let msg = self.report.t(
                &format!(
                    "`{}` contains characters that are not allowed: {}",
                    o.name,
                    shown.join(" ")
                ),
                &format!("`{}` 含有不允许的字符：{}", o.name, shown.join(" ")),
            );
            self.push(
                Diagnostic::new(Severity::Error, o.path, msg)
                    .with_value(format!("{s:?}"))
                    .with_expected(allowed.join(", "))
                    .with_hint("rename the directory, or point to it through a symbolic link with an allowed name"),
            );
        }
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
        if c.cube == 0 || c.vector == 0 {
            let msg = self.report.t(
                &format!("both core counts of `{}` must be above 0", o.name),
                &format!("`{}` 的两个核数都必须大于 0", o.name),
            );
            self.push(Diagnostic::new(Severity::Error, o.path, msg).with_value(format!("\"{c}\"")));
            return;
        }
        let (bound, what) = match self.device {
            Some(d) => (Some((d.cube, d.vector)), "the processor".to_string()),
            None => (
                self.target.product.meta().cores,
                self.target.product.to_string(),
            ),
        };
        if let Some((cube, vector)) = bound {
            if c.cube > cube || c.vector > vector {
                let msg = self.report.t(
                    &format!("`{}` asks for more cores than {what} has", o.name),
                    &format!("`{}` 超出 {what} 的核数", o.name),
                );
                self.push(
                    Diagnostic::new(Severity::Error, o.path, msg)
                        .with_value(format!("\"{c}\""))
                        .with_expected(format!("at most \"{cube}|{vector}\"")),
                );
            }
        }
    }
}

impl Visitor for Checker<'_> {
    fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
        self.deprecated(o);
        self.carriable(o, v);
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
                    .find(|x| matches!(x.lit, Lit::Str(t) if t == s))
                {
                    self.enum_value(o, meta.lit, &format!("{s:?}"));
                }
            }
            (TypeMeta::Int, ValueRef::Int(i)) => self.range(o, i),
            (TypeMeta::Path { chars }, ValueRef::Str(s)) => self.path_chars(o, chars, s),
            (TypeMeta::CorePair, ValueRef::Cores(c)) => self.cores(o, c),
            (TypeMeta::IntEnum | TypeMeta::StrEnum, _) => {
                let msg = format!("{v} is not a value of `{}`", o.name);
                let mut d = Diagnostic::new(Severity::Error, o.path, msg).with_value(v);
                d.expected = allowed(o);
                self.push(d);
            }
            _ => {}
        }
    }

    fn enter(&mut self, o: &'static OptionMeta) {
        self.deprecated(o);
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
