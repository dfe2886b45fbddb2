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
    not_emitted(file: &str, counts: &str) {
        en: "{file}: not emitted: {counts}",
        zh: "{file}：有错误，未生成输出（{counts}）",
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
