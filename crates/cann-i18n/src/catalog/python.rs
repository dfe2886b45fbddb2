//! Messages of the Python package (`cannctl-py`): what its API says beyond the command's
//! own findings. Add entries with [`crate::messages!`]; see the crate docs.

crate::messages! {
    unknown_lang(found: &str) {
        en: "lang must be \"en\" or \"zh\", or a locale naming one (\"zh_CN.UTF-8\", \"en-US\"); found {found}",
        zh: "lang 应为 \"en\" 或 \"zh\"，或指明其一的区域设置（\"zh_CN.UTF-8\"、\"en-US\"）；实际为 {found}",
    }
    /// A value the API cannot look into: what it set was not checked.
    not_read(setting: &str, found: &str) {
        en: "`{setting}` is a {found}, which cannctl does not read: the settings it holds were not checked",
        zh: "`{setting}` 是 {found}，cannctl 不读取该对象：其中的设置未经检查",
    }
    not_read_hint(setting: &str) {
        en: "pass `{setting}` as a dict of its keyword arguments, or the adapter's own object",
        zh: "请以其关键字参数组成的 dict 传入 `{setting}`，或传入适配器自己的对象",
    }
    /// Text cut short in a message: a path or value far longer than anything real.
    elided(n: usize) {
        en: "… ({n} more characters)",
        zh: "…（另有 {n} 个字符）",
    }
    /// A string too long to name a file, taken as config text.
    not_text_or_path(n: usize, max: usize) {
        en: "a string of {n} characters is no path (paths have at most {max} bytes) and reads as no config",
        zh: "长度为 {n} 个字符的字符串不是路径（路径至多 {max} 字节），也无法读作配置",
    }
    not_utf8(at: usize) {
        en: "the config text is not UTF-8 (byte {at})",
        zh: "配置文本不是 UTF-8 编码（第 {at} 字节）",
    }
    /// An integer past 64 bits, which no option takes.
    big_int(digits: usize) {
        en: "an integer of {digits} digits, beyond any option's range",
        zh: "{digits} 位的整数，超出所有选项的取值范围",
    }
    // Column heads of a report shown as a table (Jupyter).
    col_severity() { en: "Severity", zh: "级别" }
    col_where() { en: "Where", zh: "位置" }
    col_option() { en: "Option", zh: "选项" }
    col_message() { en: "Message", zh: "说明" }
    col_hint() { en: "Hint", zh: "提示" }
    unknown_target(found: &str, list: &str) {
        en: "to must be one of {list}; found {found}",
        zh: "to 应为 {list} 之一；实际为 {found}",
    }
    too_deep(path: &str, max: u32) {
        en: "`{path}` is nested more than {max} levels deep; a config is a few levels",
        zh: "`{path}` 的嵌套超过 {max} 层；配置只有几层",
    }
    // What a function was given in place of what it takes (a TypeError); `found` is the
    // Python type's name.
    not_config_proto(found: &str) {
        en: "expected a tf.compat.v1.ConfigProto (or a RunConfig holding one as session_config), found {found}",
        zh: "应为 tf.compat.v1.ConfigProto（或以 session_config 持有它的 RunConfig），实际为 {found}",
    }
    not_a_source(found: &str) {
        en: "source must be a path, YAML or JSON text, or a dict; found {found}",
        zh: "source 应为路径、YAML 或 JSON 文本，或 dict；实际为 {found}",
    }
    not_paths(found: &str) {
        en: "paths must be str, bytes or os.PathLike, or an iterable of them; found {found}",
        zh: "paths 应为 str、bytes 或 os.PathLike，或由它们组成的可迭代对象；实际为 {found}",
    }
    /// A dict key that is not a string, at `path` inside the config.
    key_not_str(path: &str, found: &str, key: &str) {
        en: "keys of `{path}` must be strings, found {found} {key}",
        zh: "`{path}` 的键应为字符串，实际为 {found} {key}",
    }
    /// The same, at the top of the config.
    top_key_not_str(found: &str, key: &str) {
        en: "keys of the config must be strings, found {found} {key}",
        zh: "配置的键应为字符串，实际为 {found} {key}",
    }
    not_a_value(path: &str, found: &str) {
        en: "`{path}` is a {found}, which a config file cannot hold; use a bool, int, float, str, list or dict",
        zh: "`{path}` 是 {found}，配置文件无法容纳该类型；请使用 bool、int、float、str、list 或 dict",
    }
}
