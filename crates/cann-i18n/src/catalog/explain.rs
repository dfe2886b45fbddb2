//! Labels and messages of `cannctl explain`.

crate::messages! {
    // The release the facts are given for.
    release_newest(release: &str) {
        en: "release: {release} (the newest released; --release picks another)",
        zh: "版本：{release}（已发布的最新版本；可用 --release 指定其他版本）",
    }
    release_chosen(release: &str) { en: "release: {release}", zh: "版本：{release}" }
    not_read_in(release: &str, available: &str) {
        en: "not read in {release}: the adapter reads it in {available}",
        zh: "{release} 不读取该选项：适配器在 {available}读取它",
    }
    removed_in(release: &str, when: &str) {
        en: "retired in {release}: {when}",
        zh: "{release} 中已移除：{when}",
    }

    // A field and its value, a heading above a list, values also accepted.
    field(label: &str, value: &str) { en: "{label}: {value}", zh: "{label}：{value}" }
    heading(label: &str) { en: "{label}:", zh: "{label}：" }
    also(values: &str) { en: "(also {values})", zh: "（兼容写法 {values}）" }

    // Field labels.
    label_type() { en: "type", zh: "类型" }
    label_default() { en: "default", zh: "默认值" }
    label_unset() { en: "unset", zh: "不设置" }
    label_range() { en: "range", zh: "取值范围" }
    label_values() { en: "values", zh: "取值" }
    label_removed() { en: "removed", zh: "已移除" }
    label_removed_spelling() { en: "removed spelling", zh: "已移除的写法" }
    label_deprecated_since() { en: "deprecated since", zh: "弃用版本" }
    label_how_to_set() { en: "how to set it", zh: "设置方式" }
    label_support_by_release() { en: "support by release", zh: "各版本支持情况" }
    label_history() { en: "changes by release", zh: "各版本的变化" }
    label_rules() { en: "rules", zh: "规则" }
    label_sources() { en: "sources", zh: "来源" }
    supported() { en: "yes", zh: "支持" }

    // Surfaces in "how to set it".
    surface_ge() { en: "graph engine", zh: "图引擎" }
    surface_estimator() { en: "Estimator", zh: "Estimator 参数" }
    surface_session() { en: "TF1 session", zh: "TF1 会话" }
    surface_tf2() { en: "TF2", zh: "TF2 全局选项" }
    surface_env() { en: "environment", zh: "环境变量" }

    // A value in the chosen release.
    value_not_in(release: &str, when: &str) {
        en: "not in {release}: {when}",
        zh: "{release} 不可用：{when}",
    }
    value_products(release: &str, products: &str) {
        en: "products in {release}: {products}",
        zh: "{release} 支持的产品：{products}",
    }
    value_no_product(release: &str) {
        en: "no product in {release}",
        zh: "{release} 中没有产品支持",
    }

    // One line of the history: what a release changed.
    change_from(release: &str, what: &str) { en: "from {release}: {what}", zh: "自 {release} 起：{what}" }
    change_default(before: &str, after: &str) {
        en: "default {before} -> {after}",
        zh: "默认值 {before} -> {after}",
    }
    change_range(before: &str, after: &str) {
        en: "range {before} -> {after}",
        zh: "取值范围 {before} -> {after}",
    }
    change_ge_key(before: &str, after: &str) {
        en: "graph-engine key {before} -> {after}",
        zh: "图引擎键 {before} -> {after}",
    }
    change_values_added(values: &str) { en: "values added: {values}", zh: "新增取值：{values}" }
    change_values_gone(values: &str) { en: "values gone: {values}", zh: "不再可用的取值：{values}" }
    change_read() { en: "first read", zh: "开始读取" }
    change_not_read() { en: "no longer read", zh: "不再读取" }
    none() { en: "none", zh: "无" }

    rule_line(id: &str, severity: &str, when: &str) {
        en: "{id} ({severity}): {when}",
        zh: "{id}（{severity}）：{when}",
    }
    both(a: &str, b: &str) { en: "{a} and {b}", zh: "{a} 且 {b}" }
    rule_not_stated(release: &str) {
        en: "not stated in {release}",
        zh: "{release} 的文档未说明此规则",
    }

    // Looking an option up.
    unknown_option(query: &str) { en: "unknown option `{query}`", zh: "未知选项 `{query}`" }
    did_you_mean(name: &str) {
        en: "did you mean `{name}`? (`cannctl options` lists them all)",
        zh: "是否想输入 `{name}`？（`cannctl options` 列出全部选项）",
    }
    list_options() {
        en: "`cannctl options` lists every option",
        zh: "`cannctl options` 列出全部选项",
    }
    ambiguous(query: &str, paths: &str) {
        en: "`{query}` names several options: {paths}",
        zh: "`{query}` 对应多个选项：{paths}",
    }
    ambiguous_hint() {
        en: "give the dotted path of the one you mean",
        zh: "请给出所指选项的完整点分路径",
    }

    // An option whose first release is not known; an empty value a removal still takes.
    label_introduced() { en: "introduced", zh: "引入版本" }
    may_not_exist_in(release: &str, when: &str) {
        en: "may not exist in {release}: {when}",
        zh: "{release} 中可能不存在：{when}",
    }
    empty_ignored() {
        en: "an empty value is still accepted and ignored",
        zh: "空值仍被接受，但不生效",
    }
}
