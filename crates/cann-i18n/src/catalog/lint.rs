//! Messages of the `lint` area: what `cannctl lint` says about training scripts. Add entries
//! with [`crate::messages!`]; see the crate docs.

crate::messages! {
    // The API surface a name was written on, as a noun phrase.
    place_kwarg(class: &str) { en: "{class} argument", zh: "{class} 参数" }
    place_key() { en: "parameter_map key", zh: "parameter_map 键" }
    place_tf2() { en: "npu.global_options() option", zh: "npu.global_options() 选项" }
    place_env() { en: "environment variable", zh: "环境变量" }

    // What happens at run time when a name is not one the API knows.
    raises_kwarg(class: &str) {
        en: "{class}(...) raises TypeError",
        zh: "调用 {class}(...) 会抛出 TypeError",
    }
    key_never_read() {
        en: "the adapter never reads it, so this line has no effect",
        zh: "适配器不会读取该键，此行设置不会生效",
    }
    raises_value_error() { en: "the assignment raises ValueError", zh: "该赋值会抛出 ValueError" }
    env_never_read() {
        en: "nothing reads it, so it has no effect",
        zh: "没有组件读取该变量，设置不会生效",
    }

    unknown_name(what: &str, name: &str, then: &str) {
        en: "unknown {what} `{name}`: {then}",
        zh: "未知的{what} `{name}`：{then}",
    }
    // Scripts that could not be linted.
    grammar(detail: &str) {
        en: "the Python grammar could not be loaded: {detail}",
        zh: "无法加载 Python 语法：{detail}",
    }
    walk_loop(ancestor: &str) {
        en: "a link leads back to `{ancestor}`; not followed again",
        zh: "链接指回 `{ancestor}`，不再继续跟随",
    }
    walk_other(detail: &str) {
        en: "cannot walk here ({detail})",
        zh: "无法遍历此处（{detail}）",
    }
    /// indicatif's template for the progress bar (its `{{...}}` keys stay as they are).
    progress_template() {
        en: "{{spinner}} linting {{pos}}/{{len}} scripts {{wide_bar}} {{eta}}",
        zh: "{{spinner}} 正在检查 {{pos}}/{{len}} 个脚本 {{wide_bar}} {{eta}}",
    }
    not_linted(n: usize, list: &str) {
        en: "{n} file(s) could not be linted: {list}",
        zh: "有 {n} 个文件无法检查：{list}",
    }

    did_you_mean(name: &str) { en: "did you mean `{name}`?", zh: "是否应为 `{name}`？" }
    written_here(option: &str, here: &str) {
        en: "option `{option}` is written `{here}` here",
        zh: "选项 `{option}` 在此处写作 `{here}`",
    }

    // The option exists, but not on the surface it was written on.
    via_kwarg(class: &str) { en: "as an argument of {class}", zh: "作为 {class} 的参数设置" }
    via_key() { en: "through a session's parameter_map", zh: "通过 session 的 parameter_map 设置" }
    via_tf2() { en: "through npu.global_options()", zh: "通过 npu.global_options() 设置" }
    via_env() { en: "as an environment variable", zh: "作为环境变量设置" }
    not_on_surface(name: &str, via: &str, then: &str) {
        en: "`{name}` cannot be set {via}: {then}",
        zh: "`{name}` 不能{via}：{then}",
    }
    // A spelling the adapter no longer takes on this surface (the spec's `removed:`).
    named(what: &str, name: &str) { en: "the {what} `{name}`", zh: "{what} `{name}`" }
    retired_then(gone: &str, then: &str) { en: "{gone}; {then}", zh: "{gone}；{then}" }
    set_through(ways: &str) { en: "it is set through {ways}", zh: "可通过 {ways} 设置" }
    or() { en: " or ", zh: " 或 " }

    // Python types, as the surfaces take values.
    py_bool() { en: "a bool", zh: "布尔值" }
    py_int() { en: "an integer", zh: "整数" }
    py_number() { en: "a number", zh: "数值" }
    py_str() { en: "a string", zh: "字符串" }

    accessor_refused(key: &str, what: &str, want: &str, got: &str, empty: &str) {
        en: "parameter_map[\"{key}\"] is read as {what} (`.{want}`); set with `.{got}`, the adapter reads {empty} instead, which is not a value the option takes",
        zh: "parameter_map[\"{key}\"] 按{what}（`.{want}`）读取；通过 `.{got}` 设置时适配器读到的是 {empty}，而该值不是此选项的合法取值",
    }
    accessor_lost(key: &str, what: &str, want: &str, got: &str, empty: &str) {
        en: "parameter_map[\"{key}\"] is read as {what} (`.{want}`); set with `.{got}`, the adapter reads {empty} instead, and the value written is lost",
        zh: "parameter_map[\"{key}\"] 按{what}（`.{want}`）读取；通过 `.{got}` 设置时适配器读到的是 {empty}，所写的值不会生效",
    }
    wrong_type(what: &str, takes: &str, found: &str, raises: &str) {
        en: "{what} takes {takes}, found {found}: the script raises {raises} here",
        zh: "{what} 需要{takes}，实际为 {found}：脚本运行到此处会抛出 {raises}",
    }
    tf2_not_allowed(path: &str, allowed: &str, found: &str) {
        en: "npu.global_options().{path} accepts only {allowed}, found {found}: the assignment raises ValueError",
        zh: "npu.global_options().{path} 只接受 {allowed}，实际为 {found}：该赋值会抛出 ValueError",
    }
    // A retired option set to the empty value upstream still accepts and ignores.
    empty_ignored(gone: &str) {
        en: "{gone}; an empty value is still accepted and ignored, so this line has no effect",
        zh: "{gone}；空值仍会被接受并忽略，因此此行设置不会生效",
    }
    only_if_together() {
        en: "this holds only when the branches that set these options all run; they are set under different conditions",
        zh: "仅当设置这些选项的各个分支同时执行时才成立；这些选项是在不同条件下设置的",
    }

    // Files lint refuses.
    node_budget(budget: usize) {
        en: "the script's syntax tree has more than {budget} nodes, more than lint reads in one file",
        zh: "该脚本的语法树超过 {budget} 个节点，超出 lint 单个文件的读取上限",
    }
    node_budget_hint() {
        en: "such a file is generated data rather than a training script; exclude it (.gitignore or .ignore)",
        zh: "这样的文件通常是生成的数据而不是训练脚本；请将其排除（.gitignore 或 .ignore）",
    }

    // Fixes.
    fix_rename(from: &str, to: &str) { en: "rename `{from}` to `{to}`", zh: "将 `{from}` 改为 `{to}`" }
    fixed(fixes: usize, files: usize) {
        en: "fixed {fixes} finding(s) in {files} file(s)",
        zh: "已修复 {files} 个文件中的 {fixes} 处问题",
    }
    stdin_alone() {
        en: "`-` (standard input) must be the only path given to lint",
        zh: "`-`（标准输入）必须是传给 lint 的唯一路径",
    }

    // What each SARIF rule kind stands for.
    rule_unknown_option() {
        en: "A name the API does not know: a keyword raises TypeError, a TF2 attribute ValueError, and a parameter_map key is ignored.",
        zh: "接口不认识的名称：关键字参数会抛出 TypeError，TF2 属性会抛出 ValueError，parameter_map 键会被忽略。",
    }
    rule_type() {
        en: "A value of a type the API refuses; the script raises when it gets there.",
        zh: "接口不接受该类型的值；脚本运行到此处会抛出异常。",
    }
    rule_accessor() {
        en: "A session option set through an accessor (.i/.s/.b) other than the one the adapter reads.",
        zh: "session 选项使用了适配器不读取的访问器（.i/.s/.b）设置。",
    }
    rule_not_on_surface() {
        en: "An option set through an API that does not offer it.",
        zh: "通过不提供该选项的接口设置了该选项。",
    }
    rule_session() {
        en: "How a session is set up around parameter_map: its NpuOptimizer entry and TensorFlow's rewrite options.",
        zh: "session 在 parameter_map 之外的设置：NpuOptimizer 条目与 TensorFlow 的 rewrite 选项。",
    }

    // Live config objects (a ConfigProto, NPURunConfig keyword arguments) a running
    // program built, read by the Python API.
    rewrite_should_be_off(field: &str, shown: &str) {
        en: "rewrite_options.{field} is {shown}; a session on the NPU turns it off explicitly, since it conflicts with the adapter's own graph optimizations",
        zh: "rewrite_options.{field} 为 {shown}；在 NPU 上运行的 session 需显式关闭该项，以免与适配器自身的图优化冲突",
    }
    rewrite_should_be_on(field: &str, shown: &str) {
        en: "rewrite_options.{field} is {shown}; a session on the NPU keeps it on",
        zh: "rewrite_options.{field} 为 {shown}；在 NPU 上运行的 session 应保持开启",
    }
    rewrite_remove_line(field: &str) {
        en: "remove the line that sets rewrite_options.{field}",
        zh: "删除设置 rewrite_options.{field} 的代码",
    }
    rewrite_should_be_false(field: &str) {
        en: "rewrite_options.{field} is set; a session on the NPU keeps it false",
        zh: "rewrite_options.{field} 已开启；在 NPU 上运行的 session 应保持为 false",
    }
    empty_entry(key: &str, zero: &str) {
        en: "parameter_map[\"{key}\"] exists but holds no value; the adapter reads it as {zero}, not as the option's default",
        zh: "parameter_map[\"{key}\"] 存在但未赋值；适配器将其读作 {zero}，而非该选项的默认值",
    }
    empty_entry_hint(accessor: &str, key: &str) {
        en: "assign it (`.{accessor}` = ...) or delete the entry: del custom_op.parameter_map[\"{key}\"]",
        zh: "为其赋值（`.{accessor}` = ...）或删除该条目：del custom_op.parameter_map[\"{key}\"]",
    }
    no_npu_optimizer(name: &str) {
        en: "no custom optimizer is named {name}, so the adapter reads none of this session's options",
        zh: "没有名为 {name} 的自定义优化器，适配器不会读取该 session 的任何选项",
    }
    npu_optimizer_misnamed(found: &str, name: &str) {
        en: "the optimizer named `{found}` is read only when named exactly `{name}`",
        zh: "名为 `{found}` 的优化器须准确命名为 `{name}` 才会被读取",
    }
    npu_optimizer_twice(count: usize, name: &str) {
        en: "{count} custom optimizers are named {name}; the adapter reads each in turn, so a later one's values win",
        zh: "有 {count} 个名为 {name} 的自定义优化器；适配器依次读取，后者的取值覆盖前者",
    }
    npu_optimizer_twice_hint() {
        en: "set every parameter_map entry on one optimizer",
        zh: "在同一个优化器的 parameter_map 中设置全部选项",
    }
    takes_class(name: &str, class: &str, found: &str) {
        en: "`{name}` takes a {class} object, found {found}",
        zh: "`{name}` 应为 {class} 对象，实际为 {found}",
    }
}
