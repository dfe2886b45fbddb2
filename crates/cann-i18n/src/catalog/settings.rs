//! Messages of the `settings` area: what is wrong with `[tool.cannctl]` in a pyproject.toml.

crate::messages! {
    not_toml(detail: &str) {
        en: "not valid TOML: {detail}",
        zh: "不是有效的 TOML：{detail}",
    }
    toml_hint() {
        en: "see https://toml.io for the syntax",
        zh: "语法见 https://toml.io",
    }
    not_a_table(key: &str) {
        en: "`{key}` must be a table",
        zh: "`{key}` 必须是表",
    }
    unknown_key(key: &str) {
        en: "unknown key `{key}` in [tool.cannctl]",
        zh: "[tool.cannctl] 中有未知键 `{key}`",
    }
    expected_keys(keys: &str) {
        en: "expected one of {keys}",
        zh: "应为以下之一：{keys}",
    }
    want_string(key: &str) {
        en: "`{key}` must be a string",
        zh: "`{key}` 必须是字符串",
    }
    want_strings(key: &str) {
        en: "`{key}` must be a list of strings",
        zh: "`{key}` 必须是字符串列表",
    }
    bad_lang(value: &str) {
        en: "unknown language `{value}`",
        zh: "未知语言 `{value}`",
    }
    lang_hint() {
        en: "expected `en` or `zh`",
        zh: "应为 `en` 或 `zh`",
    }
    bad_glob(glob: &str, detail: &str) {
        en: "`{glob}` is not a valid glob: {detail}",
        zh: "`{glob}` 不是有效的通配模式：{detail}",
    }
    glob_hint() {
        en: "globs are relative to the pyproject.toml's directory, such as `build/**` or `*_test.py`",
        zh: "通配模式相对于 pyproject.toml 所在目录，例如 `build/**` 或 `*_test.py`",
    }
    bad_url(value: &str) {
        en: "`{value}` is not an http(s) URL",
        zh: "`{value}` 不是 http(s) 地址",
    }
    url_hint() {
        en: "give the docs site's root, such as https://example.org/cannctl/",
        zh: "请给出文档站点的根地址，例如 https://example.org/cannctl/",
    }
}
