//! Messages of the `cannctl` front end: labels of rendered findings, summaries, usage errors.

crate::messages! {
    // Labels of a rendered finding.
    label_error() { en: "error", zh: "错误" }
    label_warning() { en: "warning", zh: "警告" }
    label_note() { en: "note", zh: "提示" }
    label_option() { en: "option", zh: "选项" }
    label_expected() { en: "expected", zh: "应为" }
    label_hint() { en: "hint", zh: "建议" }

    // Counts in the summary line.
    errors_one() { en: "1 error", zh: "1 个错误" }
    errors_many(n: usize) { en: "{n} errors", zh: "{n} 个错误" }
    warnings_one() { en: "1 warning", zh: "1 个警告" }
    warnings_many(n: usize) { en: "{n} warnings", zh: "{n} 个警告" }
    notes_one() { en: "1 note", zh: "1 条提示" }
    notes_many(n: usize) { en: "{n} notes", zh: "{n} 条提示" }
    counts(errors: &str, warnings: &str, notes: &str) {
        en: "{errors}, {warnings}, {notes}",
        zh: "{errors}，{warnings}，{notes}",
    }
    check_summary(file: &str, counts: &str, product: crate::Text, release: &str) {
        en: "{file}: {counts} for the {product} on CANN {release}",
        zh: "{file}：{counts}（{product}，CANN {release}）",
    }
    check_summary_every_product(file: &str, counts: &str, release: &str) {
        en: "{file}: {counts} for every product of CANN {release}",
        zh: "{file}：{counts}（CANN {release} 的全部产品）",
    }
    lint_summary(scanned: usize, with_findings: usize, counts: &str, product: crate::Text, release: &str) {
        en: "{scanned} script(s) checked, {with_findings} with findings: {counts} for the {product} on CANN {release}",
        zh: "已检查 {scanned} 个脚本，其中 {with_findings} 个有发现：{counts}（{product}，CANN {release}）",
    }
    lint_summary_every_product(scanned: usize, with_findings: usize, counts: &str, release: &str) {
        en: "{scanned} script(s) checked, {with_findings} with findings: {counts} for every product of CANN {release}",
        zh: "已检查 {scanned} 个脚本，其中 {with_findings} 个有发现：{counts}（CANN {release} 的全部产品）",
    }
    not_emitted(file: &str, counts: &str) {
        en: "{file}: not emitted: {counts}",
        zh: "{file}：有错误，未生成输出（{counts}）",
    }

    // Column headings of `options` and `products`.
    column_option() { en: "option", zh: "选项" }
    column_type() { en: "type", zh: "类型" }
    column_default() { en: "default", zh: "默认值" }
    column_summary() { en: "summary", zh: "说明" }
    column_product() { en: "product", zh: "产品" }
    column_name() { en: "name", zh: "名称" }
    column_aliases() { en: "also known as", zh: "别名" }
    column_releases() { en: "releases", zh: "版本" }
    product_with_note(name: crate::Text, note: crate::Text) {
        en: "{name} ({note})",
        zh: "{name}（{note}）",
    }

    // `cannctl diff`.
    diff_header(from: &str, to: &str, n: usize) {
        en: "changes from {from} to {to}: {n}",
        zh: "从 {from} 到 {to} 的变化：{n} 项",
    }
    diff_header_product(from: &str, to: &str, product: crate::Text, n: usize) {
        en: "changes from {from} to {to} for the {product}: {n}",
        zh: "从 {from} 到 {to}，{product}的变化：{n} 项",
    }
    diff_kind(kind: &str) { en: "{kind}:", zh: "{kind}：" }
    diff_kind_product() { en: "products", zh: "产品" }
    diff_kind_option() { en: "options", zh: "选项" }
    diff_kind_surface() { en: "spellings of options", zh: "选项的写法" }
    diff_kind_support() { en: "support on products", zh: "产品支持情况" }
    diff_kind_value() { en: "values", zh: "取值" }
    diff_kind_value_support() { en: "support of values on products", zh: "取值的产品支持情况" }
    diff_kind_default() { en: "defaults", zh: "默认值" }
    diff_kind_range() { en: "ranges", zh: "取值范围" }
    diff_kind_ge_key() { en: "ge keys", zh: "ge 键名" }
    diff_kind_deprecation() { en: "deprecations", zh: "弃用" }
    diff_kind_rule() { en: "rules", zh: "规则" }
    diff_kind_introduced() {
        en: "options whose first release is not known",
        zh: "首个版本不详的选项",
    }
    diff_added_between(after: &str, first: &str) {
        en: "added between {after} and {first}, release unknown",
        zh: "在 {after} 与 {first} 之间加入，具体版本不详",
    }
    diff_supported() { en: "supported", zh: "支持" }
    diff_not_supported() { en: "not supported", zh: "不支持" }
    diff_use_instead(replacement: &str) {
        en: "use `{replacement}` instead",
        zh: "请改用 `{replacement}`",
    }

    findings_left_out(file: &str, left: usize, shown: usize) {
        en: "{file}: {left} more findings not shown (the first {shown} are above; --max-findings 0 shows all)",
        zh: "{file}：另有 {left} 条结果未显示（以上为前 {shown} 条；--max-findings 0 显示全部）",
    }

    // Problems that stop a command.
    cannot_write(reason: &str) {
        en: "cannot write output: {reason}",
        zh: "无法写出结果：{reason}",
    }

    // Usage errors.
    no_product() { en: "no product to check against", zh: "未指定要检查的目标产品" }
    no_product_hint() {
        en: "add `product: <id>` to the file or pass --product (see `cannctl products`)",
        zh: "请在文件中写明 `product: <id>`，或使用 --product 指定（`cannctl products` 列出全部产品）",
    }
}
