//! Every text lint writes itself, in English and Chinese, in one place (the spec's own texts,
//! such as rule messages, come from the spec). Each function returns the text in `lang`.

use cann_config::meta::Lang;

fn pick(lang: Lang, en: String, zh: String) -> String {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// The API surface a name was written on, as a noun phrase.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Place<'a> {
    Kwarg(&'a str),
    Key,
    Tf2,
    Env,
}

fn place(lang: Lang, p: Place<'_>) -> String {
    match (lang, p) {
        (Lang::En, Place::Kwarg(c)) => format!("{c} argument"),
        (Lang::Zh, Place::Kwarg(c)) => format!("{c} 参数"),
        (Lang::En, Place::Key) => "parameter_map key".into(),
        (Lang::Zh, Place::Key) => "parameter_map 键".into(),
        (Lang::En, Place::Tf2) => "npu.global_options() option".into(),
        (Lang::Zh, Place::Tf2) => "npu.global_options() 选项".into(),
        (Lang::En, Place::Env) => "environment variable".into(),
        (Lang::Zh, Place::Env) => "环境变量".into(),
    }
}

/// What happens at run time when the name is not one the API knows.
fn consequence(lang: Lang, p: Place<'_>) -> String {
    match (lang, p) {
        (Lang::En, Place::Kwarg(c)) => format!("{c}(...) raises TypeError"),
        (Lang::Zh, Place::Kwarg(c)) => format!("调用 {c}(...) 会抛出 TypeError"),
        (Lang::En, Place::Key) => "the adapter never reads it, so this line has no effect".into(),
        (Lang::Zh, Place::Key) => "适配器不会读取该键，此行设置不会生效".into(),
        (Lang::En, Place::Tf2) => "the assignment raises ValueError".into(),
        (Lang::Zh, Place::Tf2) => "该赋值会抛出 ValueError".into(),
        (Lang::En, Place::Env) => "nothing reads it, so it has no effect".into(),
        (Lang::Zh, Place::Env) => "没有组件读取该变量，设置不会生效".into(),
    }
}

pub(crate) fn unknown_name(lang: Lang, p: Place<'_>, name: &str) -> String {
    let (what, then) = (place(lang, p), consequence(lang, p));
    pick(
        lang,
        format!("unknown {what} `{name}`: {then}"),
        format!("未知的{what} `{name}`：{then}"),
    )
}

pub(crate) fn did_you_mean(lang: Lang, name: &str) -> String {
    pick(
        lang,
        format!("did you mean `{name}`?"),
        format!("是否应为 `{name}`？"),
    )
}

/// The option exists under another name on this surface.
pub(crate) fn written_here(lang: Lang, option: &str, here: &str) -> String {
    pick(
        lang,
        format!("option `{option}` is written `{here}` here"),
        format!("选项 `{option}` 在此处写作 `{here}`"),
    )
}

/// The option exists, but not on this surface.
pub(crate) fn not_on_surface(lang: Lang, p: Place<'_>, name: &str) -> String {
    let then = consequence(lang, p);
    let (en, zh) = match p {
        Place::Kwarg(c) => (
            format!("as an argument of {c}"),
            format!("作为 {c} 的参数设置"),
        ),
        Place::Key => (
            "through a session's parameter_map".into(),
            "通过 session 的 parameter_map 设置".into(),
        ),
        Place::Tf2 => (
            "through npu.global_options()".into(),
            "通过 npu.global_options() 设置".into(),
        ),
        Place::Env => (
            "as an environment variable".into(),
            "作为环境变量设置".into(),
        ),
    };
    pick(
        lang,
        format!("`{name}` cannot be set {en}: {then}"),
        format!("`{name}` 不能{zh}：{then}"),
    )
}

pub(crate) fn set_through(lang: Lang, ways: &[String]) -> String {
    pick(
        lang,
        format!("it is set through {}", ways.join(" or ")),
        format!("可通过 {} 设置", ways.join(" 或 ")),
    )
}

/// A Python type, as the surfaces take values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PyType {
    Bool,
    Int,
    Str,
}

fn py_type(lang: Lang, t: PyType) -> &'static str {
    match (lang, t) {
        (Lang::En, PyType::Bool) => "a bool",
        (Lang::Zh, PyType::Bool) => "布尔值",
        (Lang::En, PyType::Int) => "an integer",
        (Lang::Zh, PyType::Int) => "整数",
        (Lang::En, PyType::Str) => "a string",
        (Lang::Zh, PyType::Str) => "字符串",
    }
}

/// `parameter_map["k"]` read with one accessor, set with another. The adapter then reads
/// the field's empty value; `refused` says whether that empty value is outside the values
/// the option lists (the adapter or the graph engine then refuses it) rather than one it
/// takes (the value written is lost).
pub(crate) fn accessor(
    lang: Lang,
    key: &str,
    want: &str,
    got: &str,
    reads: PyType,
    refused: bool,
) -> String {
    let what = py_type(lang, reads);
    let empty = match reads {
        PyType::Bool => "False",
        PyType::Int => "0",
        PyType::Str => "\"\"",
    };
    let (then_en, then_zh) = if refused {
        (
            "which is not a value the option takes".to_string(),
            "而该值不是此选项的合法取值".to_string(),
        )
    } else {
        (
            "and the value written is lost".to_string(),
            "所写的值不会生效".to_string(),
        )
    };
    pick(
        lang,
        format!(
            "parameter_map[\"{key}\"] is read as {what} (`.{want}`); set with `.{got}`, the adapter reads {empty} instead, {then_en}"
        ),
        format!(
            "parameter_map[\"{key}\"] 按{what}（`.{want}`）读取；通过 `.{got}` 设置时适配器读到的是 {empty}，{then_zh}"
        ),
    )
}

/// A value of a Python type the API refuses.
pub(crate) fn wrong_type(
    lang: Lang,
    what: &str,
    takes: PyType,
    found: &str,
    raises: &str,
) -> String {
    let takes = py_type(lang, takes);
    pick(
        lang,
        format!("{what} takes {takes}, found {found}: the script raises {raises} here"),
        format!("{what} 需要{takes}，实际为 {found}：脚本运行到此处会抛出 {raises}"),
    )
}

/// A TF2 value outside the list the option's `OptionValue` accepts.
pub(crate) fn tf2_not_allowed(lang: Lang, path: &str, found: &str, allowed: &str) -> String {
    pick(
        lang,
        format!(
            "npu.global_options().{path} accepts only {allowed}, found {found}: the assignment raises ValueError"
        ),
        format!(
            "npu.global_options().{path} 只接受 {allowed}，实际为 {found}：该赋值会抛出 ValueError"
        ),
    )
}

/// What a rename fix does.
pub(crate) fn fix_rename(lang: Lang, from: &str, to: &str) -> String {
    pick(
        lang,
        format!("rename `{from}` to `{to}`"),
        format!("将 `{from}` 改为 `{to}`"),
    )
}

/// A rule that holds only if settings made in different `if` statements all run.
pub(crate) fn only_if_together(lang: Lang) -> String {
    pick(
        lang,
        "this holds only when the branches that set these options all run; they are set under different conditions".into(),
        "仅当设置这些选项的各个分支同时执行时才成立；这些选项是在不同条件下设置的".into(),
    )
}

/// The walk over one script's syntax tree stopped at its budget.
pub(crate) fn node_budget(lang: Lang, budget: usize) -> String {
    pick(
        lang,
        format!("the script's syntax tree has more than {budget} nodes, more than lint reads in one file"),
        format!("该脚本的语法树超过 {budget} 个节点，超出 lint 单个文件的读取上限"),
    )
}

pub(crate) fn node_budget_hint(lang: Lang) -> String {
    pick(
        lang,
        "such a file is generated data rather than a training script; exclude it (.gitignore or .ignore)".into(),
        "这样的文件通常是生成的数据而不是训练脚本；请将其排除（.gitignore 或 .ignore）".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text exists in both languages and the two differ (a missing translation would
    /// show as the English text twice).
    #[test]
    fn both_languages_differ() {
        let pairs = [
            (
                unknown_name(Lang::En, Place::Key, "x"),
                unknown_name(Lang::Zh, Place::Key, "x"),
            ),
            (
                unknown_name(Lang::En, Place::Kwarg("NPURunConfig"), "x"),
                unknown_name(Lang::Zh, Place::Kwarg("NPURunConfig"), "x"),
            ),
            (
                unknown_name(Lang::En, Place::Tf2, "x"),
                unknown_name(Lang::Zh, Place::Tf2, "x"),
            ),
            (
                unknown_name(Lang::En, Place::Env, "x"),
                unknown_name(Lang::Zh, Place::Env, "x"),
            ),
            (did_you_mean(Lang::En, "x"), did_you_mean(Lang::Zh, "x")),
            (
                accessor(Lang::En, "k", "s", "b", PyType::Str, true),
                accessor(Lang::Zh, "k", "s", "b", PyType::Str, true),
            ),
            (
                accessor(Lang::En, "k", "s", "b", PyType::Str, false),
                accessor(Lang::Zh, "k", "s", "b", PyType::Str, false),
            ),
            (
                wrong_type(Lang::En, "w", PyType::Int, "1.5", "TypeError"),
                wrong_type(Lang::Zh, "w", PyType::Int, "1.5", "TypeError"),
            ),
            (
                tf2_not_allowed(Lang::En, "p", "0", "'0'"),
                tf2_not_allowed(Lang::Zh, "p", "0", "'0'"),
            ),
            (node_budget(Lang::En, 1), node_budget(Lang::Zh, 1)),
            (only_if_together(Lang::En), only_if_together(Lang::Zh)),
            (
                fix_rename(Lang::En, "a", "b"),
                fix_rename(Lang::Zh, "a", "b"),
            ),
            (node_budget_hint(Lang::En), node_budget_hint(Lang::Zh)),
        ];
        for (en, zh) in pairs {
            assert_ne!(en, zh);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
        }
    }
}
