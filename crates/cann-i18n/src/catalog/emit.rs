//! Comments and notes in what `cannctl emit` writes.

crate::messages! {
    not_on_surface(name: &str, surface: &str) {
        en: "`{name}` cannot be set through {surface}; it is left out",
        zh: "`{name}` 无法通过 {surface} 设置，已略去",
    }
    /// A value TF2's `OptionValue` would refuse, as a comment in the emitted code.
    refused_by_tf2(name: &str, value: &str, accepted: &str) {
        en: "`{name}` = {value} cannot be set through TF2 global options, which accept only {accepted}; it is left out",
        zh: "`{name}` = {value} 无法通过 TF2 全局选项 npu.global_options() 设置（只接受 {accepted}），已略去",
    }
    // The surfaces, as `not_on_surface` names them.
    surface_session() { en: "a session's parameter_map", zh: "会话的 parameter_map" }
    surface_tf2() { en: "TF2 global options", zh: "TF2 全局选项 npu.global_options()" }

    nul_value(option: &str) {
        en: "the value of `{option}` holds a NUL character, which no output can carry",
        zh: "`{option}` 的取值含 NUL 字符，任何输出都无法承载",
    }
    nul_value_hint() {
        en: "remove the NUL character from the value",
        zh: "请删除取值中的 NUL 字符",
    }
    missing_argument(class: &str, param: &str) {
        en: "`{class}(...)` requires the argument `{param}`, which the config does not set",
        zh: "`{class}(...)` 必须传入参数 `{param}`，但配置中未设置",
    }
    missing_argument_hint(option: &str) {
        en: "set `{option}` in the config",
        zh: "请在配置中设置 `{option}`",
    }
}
