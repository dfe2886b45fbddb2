//! Messages about user config files: reading them (`cann_config::parse`) and checking them
//! against a product and release (`cann_config::validate`).

crate::messages! {
    // What a user would call each kind of YAML/JSON value.
    kind_null() { en: "null", zh: "空值" }
    kind_bool() { en: "a boolean", zh: "布尔值" }
    kind_int() { en: "an integer", zh: "整数" }
    kind_float() { en: "a floating-point number", zh: "浮点数" }
    kind_str() { en: "a string", zh: "字符串" }
    kind_seq() { en: "a list", zh: "列表" }
    kind_map() { en: "a mapping", zh: "映射" }

    // Text that is not YAML or JSON at all.
    syntax_unclosed(open: char) {
        en: "`{open}` is never closed",
        zh: "`{open}` 没有对应的右括号",
    }
    syntax_unclosed_hint(close: char) {
        en: "close it with `{close}` after its last item",
        zh: "请在最后一项之后用 `{close}` 闭合",
    }
    syntax_mismatched(open: char, close: char) {
        en: "`{open}` is closed by `{close}`",
        zh: "`{open}` 被 `{close}` 闭合，括号不匹配",
    }
    syntax_stray_close() {
        en: "a closing bracket with nothing open before it",
        zh: "多余的右括号：前面没有对应的左括号",
    }
    syntax_missing_comma(close: char) {
        en: "expected `,` or `{close}` here",
        zh: "此处应为 `,` 或 `{close}`",
    }
    syntax_unclosed_quote() {
        en: "a quoted string is never closed",
        zh: "引号没有闭合",
    }
    syntax_indentation() {
        en: "a key or `:` that fits no mapping here; check the indentation",
        zh: "此处的键或 `:` 不属于任何映射，请检查缩进",
    }
    syntax_indentation_hint() {
        en: "keys of one mapping start in the same column; a value after `key:` needs a space",
        zh: "同一映射中的键须从同一列开始；键后的 `:` 与值之间须有空格",
    }
    syntax_tab() {
        en: "a tab where YAML needs spaces",
        zh: "YAML 此处只能使用空格，不能使用制表符",
    }
    syntax_tab_hint() { en: "indent with spaces", zh: "请用空格缩进" }
    syntax_duplicate_key(key: &str) {
        en: "`{key}` is set twice in one mapping",
        zh: "`{key}` 在同一映射中重复设置",
    }
    syntax_duplicate_unnamed() {
        en: "a key is set twice in one mapping",
        zh: "同一映射中有重复设置的键",
    }
    syntax_documents() {
        en: "the file holds more than one document (`---`)",
        zh: "文件中有多个文档（`---`）",
    }
    syntax_documents_hint() {
        en: "a config file is one document: keep the part you mean and remove the `---` lines",
        zh: "一个配置文件只能是一个文档：请保留需要的部分并删除 `---` 分隔行",
    }
    syntax_too_complex() {
        en: "the file nests or repeats aliases beyond what a config file needs, so it is not read",
        zh: "文件的嵌套层数或别名展开超出配置文件的合理范围，不予读取",
    }
    /// A large, plain file past a budget: `what` is one of the `budget_*` texts.
    syntax_too_large(what: &str, limit: usize) {
        en: "the file holds more {what} than a config file is read with (at most {limit}), so it is not read",
        zh: "文件中的{what}超过读取配置文件的上限（至多 {limit}），不予读取",
    }
    syntax_too_large_hint() {
        en: "a config file sets a few hundred options at most; this one is generated or not a config",
        zh: "配置文件至多设置几百个选项；该文件可能是生成的，或并非配置文件",
    }
    budget_events() { en: "YAML events (keys, values, starts and ends of lists and mappings)", zh: "YAML 事件（键、值以及列表和映射的起止）" }
    budget_nodes() { en: "values (scalars, lists and mappings)", zh: "值（标量、列表与映射）" }
    budget_scalar_bytes() { en: "bytes of text in values", zh: "值的文本字节" }
    syntax_other(detail: &str) {
        en: "not valid YAML or JSON: {detail}",
        zh: "不是有效的 YAML 或 JSON：{detail}",
    }
    json_trailing_comma() {
        en: "a comma after the last item, which JSON does not allow",
        zh: "最后一项之后多了逗号，JSON 不允许这样写",
    }
    json_trailing_comma_hint() {
        en: "remove the comma, or write the file as YAML (.yaml), which allows it",
        zh: "请删除该逗号，或改用允许这种写法的 YAML 格式（.yaml）",
    }
    json_other(detail: &str) {
        en: "not valid JSON: {detail}",
        zh: "不是有效的 JSON：{detail}",
    }

    // The document as a whole.
    empty_file() { en: "the file is empty", zh: "文件为空" }
    empty_file_hint() {
        en: "a config file is a mapping, e.g. `npu_run_config: {{ op_compiler_cache_mode: enable }}`",
        zh: "配置文件是一个映射，例如 `npu_run_config: {{ op_compiler_cache_mode: enable }}`",
    }
    root_not_mapping(found: &str) {
        en: "a config file must be a mapping, found {found}",
        zh: "配置文件应为映射，实际为{found}",
    }
    root_not_mapping_hint() {
        en: "start the file with keys such as `product:` and `npu_run_config:`",
        zh: "文件应以 `product:`、`npu_run_config:` 等键开头",
    }
    target_not_string(key: &str, found: &str) {
        en: "`{key}` must be a string, found {found}",
        zh: "`{key}` 应为字符串，实际为{found}",
    }
    quote_target(text: &str) {
        en: "quote it: \"{text}\"",
        zh: "请加上引号：\"{text}\"",
    }

    // Keys.
    not_a_mapping(path: &str, found: &str) {
        en: "`{path}` must be a mapping of options, found {found}",
        zh: "`{path}` 应为选项映射，实际为{found}",
    }
    key_not_string(found: &str) {
        en: "option names must be strings, found {found}",
        zh: "选项名应为字符串，实际为{found}",
    }
    unknown_option(key: &str, parent: &str) {
        en: "unknown option `{key}` in `{parent}`",
        zh: "`{parent}` 中没有选项 `{key}`",
    }
    unknown_env_var(key: &str) {
        en: "`{key}` is not an environment variable the spec knows; it is not checked",
        zh: "规格中没有环境变量 `{key}`，不对其做检查",
    }
    suggestions_left_out(left: usize, scored: usize) {
        en: "{left} more unknown keys have no did-you-mean hint: only the first {scored} of a file are compared with the known names",
        zh: "另有 {left} 个未知键没有拼写建议：每个文件只为前 {scored} 个未知键比对已知名称",
    }
    unknown_top_key(key: &str) {
        en: "unknown key `{key}` at the top of the file",
        zh: "配置文件顶层没有键 `{key}`",
    }
    duplicate_key(key: &str, line: u32) {
        en: "`{key}` is set twice; the first is on line {line}",
        zh: "`{key}` 重复设置，第一次在第 {line} 行",
    }
    duplicate_key_hint() {
        en: "keep one of them",
        zh: "请只保留其中一处",
    }

    // What would be valid.
    one_of(list: &str) { en: "one of {list}", zh: "以下之一：{list}" }
    nearest_of(list: &str, more: usize) {
        en: "one of {list}, or {more} more (`cannctl options` lists them all)",
        zh: "{list}，或另外 {more} 项之一（`cannctl options` 可列出全部）",
    }
    did_you_mean(name: &str) { en: "did you mean `{name}`?", zh: "是否想写 `{name}`？" }
    did_you_mean_value(value: &str) {
        en: "did you mean \"{value}\"?",
        zh: "是否想写 \"{value}\"？",
    }
    integer_between(min: i64, max: i64, unit: &str) {
        en: "an integer from {min} to {max}{unit}",
        zh: "{min} 到 {max}{unit} 之间的整数",
    }
    integer_at_least(min: i64, unit: &str) {
        en: "an integer of at least {min}{unit}",
        zh: "不小于 {min}{unit} 的整数",
    }
    integer_at_most(max: i64, unit: &str) {
        en: "an integer of at most {max}{unit}",
        zh: "不大于 {max}{unit} 的整数",
    }
    any_integer() { en: "any integer", zh: "任意整数" }
    // Ranges of a float option (bounds are whole numbers; `above` leaves the bound out).
    number_between(min: i64, max: i64, unit: &str) {
        en: "a number from {min} to {max}{unit}",
        zh: "{min} 到 {max}{unit} 之间的数",
    }
    number_at_least(min: i64, unit: &str) {
        en: "a number of at least {min}{unit}",
        zh: "不小于 {min}{unit} 的数",
    }
    number_at_most(max: i64, unit: &str) {
        en: "a number of at most {max}{unit}",
        zh: "不大于 {max}{unit} 的数",
    }
    number_above(min: i64, unit: &str) {
        en: "a number above {min}{unit} (a fraction such as 0.5 is fine)",
        zh: "大于 {min}{unit} 的数（可以是 0.5 这样的小数）",
    }
    number_above_at_most(min: i64, max: i64, unit: &str) {
        en: "a number above {min} and at most {max}{unit}",
        zh: "大于 {min} 且不大于 {max}{unit} 的数",
    }
    any_number() { en: "any number", zh: "任意数" }
    /// What a float option wants, in "`x` must be {want}".
    want_number() { en: "a number (such as 0.5 or 2)", zh: "数值（如 0.5 或 2）" }
    special_or(values: &str, range: &str) {
        en: "{values}, or {range}",
        zh: "{values}，或{range}",
    }

    // Units of the spec's `unit:` field, as a reader writes them after a number.
    unit_percent() { en: " percent", zh: "％" }
    unit_bytes() { en: " bytes", zh: " 字节" }
    unit_hours() { en: " h", zh: " 小时" }
    unit_seconds() { en: " s", zh: " 秒" }
    unit_milliseconds() { en: " ms", zh: " 毫秒" }

    // Values.
    wrong_type(name: &str, want: &str, found: &str, shown: &str) {
        en: "`{name}` must be {want}, found {found} {shown}",
        zh: "`{name}` 应为{want}，实际为{found} {shown}",
    }
    unquote(value: &str) {
        en: "write {value} without quotes",
        zh: "去掉引号，写作 {value}",
    }
    quote_value(value: &str) {
        en: "quote the value: \"{value}\"",
        zh: "请给取值加上引号：\"{value}\"",
    }
    legacy_value(shown: &str, name: &str, canonical: &str, meaning: &str) {
        en: "{shown} is a legacy spelling of `{name}` {canonical} ({meaning})",
        zh: "{shown} 是 `{name}` 取值 {canonical}（{meaning}）的旧写法",
    }
    write_as(value: &str) { en: "write {value}", zh: "请写作 {value}" }
    not_a_value(shown: &str, name: &str) {
        en: "{shown} is not a value of `{name}`",
        zh: "{shown} 不是 `{name}` 的有效取值",
    }
    not_core_pair(text: &str, reason: &str) {
        en: "\"{text}\" is not a core pair: {reason}",
        zh: "\"{text}\" 不是有效的核数对：{reason}",
    }
    core_pair_shape() {
        en: "two integers separated by `|`, e.g. \"24|48\"",
        zh: "应为以 `|` 分隔的两个整数，例如 \"24|48\"",
    }
    core_pair_whole() {
        en: "both counts must be whole numbers",
        zh: "两个核数都必须是整数",
    }
    core_pair_large() { en: "a count is too large", zh: "核数过大" }
    core_pair_zero() {
        en: "both counts must be greater than 0",
        zh: "两个核数都必须大于 0",
    }
    core_pair_expected() {
        en: "\"cube|vector\": two integers above 0, e.g. \"24|48\"",
        zh: "\"cube|vector\"：两个大于 0 的整数，例如 \"24|48\"",
    }

    // Releases and products.
    unknown_product(id: &str) { en: "unknown product `{id}`", zh: "没有产品 `{id}`" }
    value_warning(value: &str, name: &str, note: &str) {
        en: "value {value} of `{name}`: {note}",
        zh: "`{name}` 的取值 {value}：{note}",
    }
    unknown_release(id: &str) { en: "unknown release `{id}`", zh: "没有版本 `{id}`" }
    ambiguous_product(id: &str) {
        en: "`{id}` names more than one product; write the id of the one you mean",
        zh: "`{id}` 对应多个产品，请写出所指产品的 id",
    }
    release_lacks_product(release: &str, product: crate::Text) {
        en: "release {release} does not include the {product}",
        zh: "版本 {release} 不包含 {product}",
    }
    any_release() { en: "any release", zh: "任意版本" }
    releases_from(from: &str) { en: "release {from} or later", zh: "{from} 及以后的版本" }
    releases_through(last: &str) { en: "release {last} or earlier", zh: "{last} 及以前的版本" }
    release_only(release: &str) { en: "release {release} only", zh: "仅 {release} 版本" }
    releases_from_to(from: &str, last: &str) {
        en: "releases {from} to {last}",
        zh: "{from} 至 {last} 的版本",
    }
    products_among(list: &str) {
        en: "one of these products: {list}",
        zh: "以下产品之一：{list}",
    }
    every_product() { en: "every product of the release", zh: "该版本的所有产品" }

    // Checking against a target.
    option_unavailable(name: &str, release: &str) {
        en: "`{name}` is not available in release {release}",
        zh: "`{name}` 在版本 {release} 中不可用",
    }
    option_unsupported(name: &str, product: crate::Text, release: &str) {
        en: "`{name}` is not supported on the {product} in release {release}",
        zh: "{product}在版本 {release} 中不支持 `{name}`",
    }
    value_unavailable(shown: &str, name: &str, release: &str) {
        en: "value {shown} of `{name}` is not available in release {release}",
        zh: "`{name}` 的取值 {shown} 在版本 {release} 中不可用",
    }
    value_unsupported(shown: &str, name: &str, product: crate::Text, release: &str) {
        en: "value {shown} of `{name}` is not supported on the {product} in release {release}",
        zh: "{product}在版本 {release} 中不支持 `{name}` 的取值 {shown}",
    }
    deprecated(name: &str, since: &str) {
        en: "`{name}` is deprecated since {since}",
        zh: "`{name}` 自 {since} 起已弃用",
    }
    use_instead(replacement: &str, note: crate::Text) {
        en: "use `{replacement}` instead. {note}",
        zh: "请改用 `{replacement}`。{note}",
    }
    out_of_range(value: &str, name: &str) {
        en: "{value} is out of range for `{name}`",
        zh: "{value} 超出 `{name}` 的取值范围",
    }
    env_no_longer_read(name: &str, when: &str) {
        en: "the toolkit no longer reads the environment variable `{name}` ({when}): setting it does nothing, unless the script itself uses the name",
        zh: "工具链已不再读取环境变量 `{name}`（{when}）：设置它不起作用，除非脚本自身使用该名称",
    }
    python_object_only(name: &str, class: &str) {
        en: "`{name}` takes a Python object ({class}), which only a script can pass; a config file cannot hold it",
        zh: "`{name}` 接受 Python 对象（{class}），只能在脚本中传入；配置文件无法表示它",
    }
    range_advice() {
        en: "(cannctl's advice: no upstream source states this bound)",
        zh: "（cannctl 的建议：上游未规定此范围）",
    }
    outside_advice(value: &str, name: &str) {
        en: "{value} is outside the range cannctl advises for `{name}` (no upstream source states a bound, so it may still be accepted)",
        zh: "{value} 超出 cannctl 为 `{name}` 建议的取值范围（上游未规定该范围，因此该值仍可能被接受）",
    }
    bad_path_chars(name: &str, chars: &str) {
        en: "`{name}` contains characters that are not allowed: {chars}",
        zh: "`{name}` 含有不允许的字符：{chars}",
    }
    bad_path_hint() {
        en: "rename the directory, or point to it through a symbolic link with an allowed name",
        zh: "请重命名该目录，或通过名称合规的符号链接指向它",
    }
    chars_alphanumeric() {
        en: "letters a-z, A-Z and digits 0-9",
        zh: "字母 a-z、A-Z 和数字 0-9",
    }
    chars_cjk() { en: "Chinese characters", zh: "汉字" }
    cores_zero(name: &str) {
        en: "both core counts of `{name}` must be above 0",
        zh: "`{name}` 的两个核数都必须大于 0",
    }
    cores_over_device(name: &str) {
        en: "`{name}` asks for more cores than the processor has",
        zh: "`{name}` 超出了处理器的核数",
    }
    cores_over_product(name: &str, product: crate::Text) {
        en: "`{name}` asks for more cores than the {product} has",
        zh: "`{name}` 超出了 {product}的核数",
    }
    cores_at_most(cube: u32, vector: u32) {
        en: "at most \"{cube}|{vector}\"",
        zh: "最多 \"{cube}|{vector}\"",
    }

    // The processor's `platform_config` ini.
    soc_bad_count(line: usize, key: &str, value: &str) {
        en: "line {line}: `{key}` must be a whole number above 0, found `{value}`",
        zh: "第 {line} 行：`{key}` 应为大于 0 的整数，实际为 `{value}`",
    }
    soc_missing(key: &str) {
        en: "no `{key}` in the [SoCInfo] section",
        zh: "[SoCInfo] 节中没有 `{key}`",
    }
    soc_hint() {
        en: "the file is <CANN>/<arch>-linux/data/platform_config/<soc_version>.ini",
        zh: "该文件位于 <CANN>/<arch>-linux/data/platform_config/<soc_version>.ini",
    }

    // Retired options, values and spellings (`removed:` in the spec); also read by lint,
    // `explain` and `diff`, so each says it the same way.
    // The sentence is worded once: `removed` or `no_effect` around one of the `when_*`
    // clauses (`cann_config::history::removed_sentence`), with `use_after` after it where
    // something replaces the retired item (a deprecation: `deprecated`, then `use_after`). The validator, `explain`, the docs site, the
    // schema and the Markdown reference all write it from these.
    removed(what: &str, when: &str) {
        en: "{what} was removed: {when}",
        zh: "{what} 已被移除：{when}",
    }
    use_after(sentence: &str, replacement: &str) {
        en: "{sentence}; use `{replacement}` instead",
        zh: "{sentence}；请改用 `{replacement}`",
    }
    when_after(last: &str) {
        en: "{last} is the last release that supports it",
        zh: "最后支持它的版本是 {last}",
    }
    when_before(release: &str) {
        en: "no release since {release} supports it",
        zh: "自 {release} 起的版本均不支持它",
    }
    when_never() {
        en: "no release of the adapter reads it",
        zh: "适配器的任何版本都不读取它",
    }
    // A retired option set to the empty value upstream still accepts and ignores
    // (`empty_ignored` on the removal).
    empty_setting_ignored(gone: &str) {
        en: "{gone}; an empty value is still accepted and ignored, so this setting has no effect",
        zh: "{gone}；空值仍会被接受并忽略，因此该设置不会生效",
    }
    no_effect(what: &str, why: &str) {
        en: "{what} has no effect: {why}",
        zh: "{what} 不生效：{why}",
    }
    value_of(shown: &str, name: &str) {
        en: "value {shown} of `{name}`",
        zh: "`{name}` 的取值 {shown}",
    }
    up_to_release(last: &str) {
        en: "a release up to {last}",
        zh: "{last} 及更早的版本",
    }
    before_release(release: &str) {
        en: "a release before {release}",
        zh: "{release} 之前的版本",
    }
    use_mapped_instead(replacement: &str, map: &str, note: crate::Text) {
        en: "use `{replacement}` ({map}) instead. {note}",
        zh: "请改用 `{replacement}`（{map}）。{note}",
    }
    use_value_instead(value: &str, note: crate::Text) {
        en: "use {value} instead. {note}",
        zh: "请改用 {value}。{note}",
    }
    gone_after(last: &str) { en: "last supported in {last}", zh: "最后支持版本 {last}" }
    gone_before(release: &str) { en: "unsupported since {release}", zh: "自 {release} 起不再支持" }
    gone_never() { en: "never read", zh: "从未被读取" }
    gone_use(when: &str, replacement: &str) {
        en: "{when}; use {replacement}",
        zh: "{when}；请改用 {replacement}",
    }

    // An option whose first release is not known (`introduced:` in the spec); also read by
    // lint, `explain`, `diff` and the docs.
    introduced_unknown(after: &str, first: &str) {
        en: "added after {after}, first recorded in {first}; the release in between is not known",
        zh: "在 {after} 之后加入，最早见于 {first}；其间的具体版本不详",
    }
    may_not_exist(name: &str, release: &str, when: &str) {
        en: "`{name}` may not exist in release {release}: {when}",
        zh: "`{name}` 在版本 {release} 中可能不存在：{when}",
    }
    may_not_exist_hint(first: &str) {
        en: "make sure the installed adapter reads it, or check against {first} or later",
        zh: "请确认所安装的适配器读取该选项，或按 {first} 及之后的版本检查",
    }
}
