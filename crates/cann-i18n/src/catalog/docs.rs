//! The docs site (`cargo xtask regenerate` → `docs/`): headings, labels and the sentences its
//! pages and its script say around the spec's own texts.

crate::messages! {
    // The frame of every page.
    site_name() { en: "CANN options", zh: "CANN 配置项" }
    nav_options() { en: "Options", zh: "配置项" }
    nav_classes() { en: "Classes", zh: "配置类" }
    nav_releases() { en: "Releases", zh: "版本" }
    nav_products() { en: "Products", zh: "产品" }
    nav_picker() { en: "By release", zh: "按版本查看" }
    search_label() { en: "Search options", zh: "搜索配置项" }
    search_placeholder() { en: "Search options (press /)", zh: "搜索配置项（按 / 键）" }
    theme_toggle() { en: "Switch between dark and light", zh: "切换深色与浅色" }
    footer() { en: "Generated from the option spec by", zh: "由配置规范生成：" }
    on_this_page() { en: "On this page", zh: "本页内容" }
    anchor_label() { en: "link to this section", zh: "本节链接" }
    copy() { en: "Copy", zh: "复制" }

    // The ways of setting an option, as snippet tabs.
    snippet_file() { en: "cannctl config file", zh: "cannctl 配置文件" }
    snippet_estimator() { en: "TF1 Estimator", zh: "TF1 Estimator 参数" }
    snippet_session() { en: "TF1 session (parameter_map)", zh: "TF1 session（parameter_map）" }
    snippet_tf2() { en: "TF2 global options", zh: "TF2 全局选项（global_options）" }
    snippet_env() { en: "Environment variable", zh: "环境变量" }

    // Search results.
    search_none() { en: "No matching option", zh: "没有匹配的配置项" }
    by_ge() { en: "graph-engine key", zh: "图引擎参数" }
    by_path() { en: "config path", zh: "配置文件路径" }
    by_env() { en: "environment variable", zh: "环境变量" }
    by_estimator() { en: "Estimator keyword", zh: "Estimator 参数" }
    by_tf2() { en: "TF2 path", zh: "TF2 路径" }
    by_session() { en: "TF1 session key", zh: "TF1 session 参数名" }
    by_text() { en: "matched in the description", zh: "在说明中匹配" }
    by_typo() { en: "a name close to what you typed", zh: "与输入相近的名称" }

    // The index.
    index_title() { en: "CANN TF Adapter options", zh: "CANN TF Adapter 配置项" }
    index_intro() {
        en: "Every option the TF Adapter takes: its type, default, values, graph-engine key, how to set it in an Estimator, a TF1 session, TF2 and the shell, the rules that involve it and the products and releases that support it. Check a config file with `cannctl check`.",
        zh: "TF Adapter 的全部配置项：类型、默认值、取值、图引擎参数名、在 Estimator、TF1 session、TF2 与 shell 中的设置方法、相关规则，以及支持的产品与版本。可用 `cannctl check` 检查配置文件。",
    }
    index_schema() {
        en: "Editors complete config files from the JSON Schema:",
        zh: "编辑器可依据 JSON Schema 补全配置文件：",
    }
    classes_heading() { en: "Configuration classes", zh: "配置类" }
    col_class() { en: "Class", zh: "配置类" }
    col_count() { en: "Options", zh: "配置项数" }
    col_description() { en: "Description", zh: "说明" }
    col_option() { en: "Option", zh: "配置项" }
    link_products() { en: "Products and the releases that know them", zh: "产品及其所属版本" }
    link_reference() { en: "Markdown reference", zh: "Markdown 参考" }
    badge_removed() { en: "removed", zh: "已移除" }
    badge_never_read() { en: "never read", zh: "从未读取" }
    badge_deprecated() { en: "deprecated", zh: "已弃用" }
    badge_unreleased() { en: "unreleased", zh: "未发布" }

    // An option's page.
    label_type() { en: "Type", zh: "类型" }
    label_default() { en: "Default", zh: "默认值" }
    label_range() { en: "Range", zh: "取值范围" }
    label_ge_key() { en: "Graph-engine key", zh: "图引擎参数" }
    label_path() { en: "Config file path", zh: "配置文件路径" }
    label_available() { en: "Available", zh: "可用版本" }
    label_values() { en: "Values", zh: "取值" }
    label_value() { en: "Value", zh: "取值" }
    label_name() { en: "Name", zh: "名称" }
    label_meaning() { en: "Meaning", zh: "含义" }
    label_from_release() { en: "From release", zh: "起始版本" }
    label_products() { en: "Products", zh: "产品" }
    label_set_through() { en: "Set through", zh: "设置方式" }
    label_python_import() { en: "Python import", zh: "Python 导入" }
    label_root_key() { en: "Config file key", zh: "配置文件键" }
    badge_default() { en: "default", zh: "默认" }
    badge_legacy() { en: "legacy spelling", zh: "旧写法" }
    history_heading() { en: "Changes by release", zh: "各版本的变化" }
    how_to_set_heading() { en: "How to set it", zh: "设置方法" }
    rules_heading() { en: "Rules", zh: "规则" }
    support_heading() { en: "Support by product and release", zh: "产品与版本支持" }
    sources_heading() { en: "Sources", zh: "来源" }
    first_release_unknown() { en: "First release not known", zh: "首个版本不详" }
    deprecated_title() { en: "Deprecated", zh: "已弃用" }
    removed_title() { en: "Removed", zh: "已移除" }
    never_read_title() { en: "Never read", zh: "从未读取" }
    sources_label() { en: "Sources:", zh: "来源：" }
    /// After a citation `path:absent`: the file at that ref never names the item.
    source_absent() {
        en: "(absent: this file never names it at that ref)",
        zh: "（未出现：该版本的这个文件中从未提及它）",
    }
    deprecated_since(since: &str) { en: "since {since}.", zh: "自 {since} 起。" }
    deprecated_use(since: &str) { en: "since {since}; use", zh: "自 {since} 起；请改用" }
    use_word() { en: "Use", zh: "请改用" }
    no_release_reads() { en: "no release", zh: "没有版本" }
    never_read_lead() {
        en: "This option does nothing: no release of the adapter reads it, so there is nothing to set.",
        zh: "该配置项不起作用：适配器的任何版本都不读取它，因此无需设置。",
    }
    removed_lead() {
        en: "This option is retired: the releases that still read it are listed below; do not set it for a newer release.",
        zh: "该配置项已退役：下方列出仍读取它的版本；较新的版本请勿设置。",
    }
    removed_lead_none() {
        en: "This option is retired before every release this site covers, so there is nothing to set.",
        zh: "该配置项在本站涵盖的所有版本之前就已退役，因此无需设置。",
    }
    adapter_does() { en: "What the adapter does with it:", zh: "适配器如何处理它：" }
    not_estimator() { en: "Not settable as an Estimator argument.", zh: "不能作为 Estimator 参数设置。" }
    not_session() {
        en: "Not settable through a TF1 session's parameter_map.",
        zh: "不能通过 TF1 session 的 parameter_map 设置。",
    }
    not_tf2() { en: "Not settable through TF2 global options.", zh: "不能通过 TF2 global_options 设置。" }
    value_releases(releases: &str) { en: "releases: {releases}", zh: "版本：{releases}" }
    value_products(list: &str) { en: "products: {list}", zh: "产品：{list}" }
    rule_when() { en: "when", zh: "条件" }
    rule_and() { en: "and", zh: "且" }
    rule_fix() { en: "Fix:", zh: "修改建议：" }
    rule_problem() { en: "Problem: reported", zh: "问题：会报告" }
    rule_fixed() { en: "Fixed: not reported", zh: "修正后：不会报告" }

    // Viewing an option at one release.
    at_release_heading() { en: "At one release", zh: "指定版本" }
    at_release_pick() { en: "Show the facts of release", zh: "查看该版本的情况：" }
    at_release_newest() { en: "the newest", zh: "最新版本" }
    at_release_not_read(release: &str) {
        en: "Release {release} does not read this option.",
        zh: "版本 {release} 不读取该配置项。",
    }
    at_release_no_product() { en: "no product", zh: "没有产品" }

    // Support tables.
    col_product() { en: "Product", zh: "产品" }
    cell_yes() { en: "supported", zh: "支持" }
    cell_no() { en: "not supported", zh: "不支持" }
    cell_absent() { en: "product not in this release", zh: "该版本不含此产品" }

    // Class, products and release pages.
    options_heading() { en: "Options", zh: "配置项" }
    products_heading() { en: "Products", zh: "产品" }
    releases_knowing() { en: "Releases that know it:", zh: "包含该产品的版本：" }
    options_supported_in(release: &str, count: usize) {
        en: "Options supported in {release} ({count})",
        zh: "{release} 中支持的配置项（{count} 个）",
    }
    products_by_release() { en: "Products by release", zh: "各版本包含的产品" }
    release_option_count() { en: "Options available in this release:", zh: "本版本可用的配置项数：" }
    changes_since(prev: &str) { en: "Changes since {prev}", zh: "相对 {prev} 的变化" }
    no_changes() {
        en: "No change in options, values, defaults or support.",
        zh: "配置项、取值、默认值与支持范围均无变化。",
    }
    first_release() {
        en: "The first release in the spec: everything above is where the history starts.",
        zh: "规范中最早的版本，历史从此开始。",
    }
    change_maybe_here() { en: "maybe here", zh: "可能在此" }
    change_added() { en: "added", zh: "新增" }
    change_removed() { en: "removed", zh: "移除" }
    change_changed() { en: "changed", zh: "变更" }
    badge_new() { en: "new", zh: "新增" }
    new_product_supported(count: usize) {
        en: "{count} options supported",
        zh: "{count} 个配置项受支持",
    }
    new_product_unsupported() { en: "not supported:", zh: "不支持：" }

    // The release × product picker.
    picker_title() { en: "Options by release and product", zh: "按版本与产品查看配置项" }
    picker_intro() {
        en: "Pick a release and a product: the list shows exactly the options `cannctl check` accepts there, with the values each takes there.",
        zh: "选择版本与产品：列表只显示 `cannctl check` 在该处接受的配置项，以及各配置项在该处可用的取值。",
    }
    picker_release() { en: "Release", zh: "版本" }
    picker_product() { en: "Product", zh: "产品" }
    picker_count(count: &str) { en: "{count} options", zh: "{count} 个配置项" }
    picker_not_in_release() {
        en: "This release does not include this product.",
        zh: "该版本不包含此产品。",
    }
}
