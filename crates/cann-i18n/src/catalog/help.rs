//! What the command line itself says: `--help` texts of every command and argument, the
//! headings of the help page, and usage errors (an unknown flag, a bad value).
//!
//! Help texts are found by id: `about_<command path>` for a command, and for an argument
//! `arg_<command path>_<argument>`, falling back to a shorter path (`arg_cache_dir` serves
//! every `cache` command, `arg_format` every command). Paths join with `_`; `-` becomes `_`.
//! A test in `cannctl` walks the whole command tree, so a command or flag without its text
//! here fails it.

crate::messages! {
    // Commands.
    about_cannctl() {
        en: "Check, explain and emit Ascend CANN TF Adapter configurations",
        zh: "检查、解释并生成昇腾 CANN TF Adapter 配置",
    }
    about_check() {
        en: "Validate a config file against a product and release; exit 1 on errors",
        zh: "按产品和版本校验配置文件；有错误时退出码为 1",
    }
    about_emit() {
        en: "Write a validated config for the graph engine, a training script or the shell",
        zh: "把校验通过的配置写成图引擎选项、训练脚本代码或 shell 环境变量",
    }
    about_explain() {
        en: "Describe one option: type, default, values, products by release, keys, rules",
        zh: "说明一个选项：类型、默认值、取值、各版本支持的产品、键名和规则",
    }
    about_options() {
        en: "List the options of the spec",
        zh: "列出规格中的选项",
    }
    about_products() {
        en: "List the products the spec knows",
        zh: "列出规格中已知的产品",
    }
    about_diff() {
        en: "What changed between two releases: products, options, values, support, defaults",
        zh: "两个版本之间的变化：产品、选项、取值、支持情况和默认值",
    }
    about_cache() {
        en: "Inspect and maintain an operator compile cache directory",
        zh: "查看和维护算子编译缓存目录",
    }
    about_cache_info() {
        en: "Resolved directory and why, effective limits and their sources, size, entries, oldest access",
        zh: "显示解析出的目录及其依据、生效的上限及来源、大小、条目数和最早的访问时间",
    }
    about_cache_gc() {
        en: "Age the cache now: remove idle entries (least recently used first) down to the retained share, and leftovers",
        zh: "立即老化缓存：按最久未用优先删除空闲条目，直到降至保留比例，并清理残留文件",
    }
    about_cache_verify() {
        en: "Check every entry: torn entries (error), orphaned, temporary and foreign files (warning)",
        zh: "检查每个条目：不完整的条目报错误，孤立、临时和外来文件报警告",
    }
    about_cache_clear() {
        en: "Remove every entry and leftover; symbolic links are unlinked, never followed",
        zh: "删除全部条目和残留文件；符号链接只删除链接本身，从不跟随",
    }
    about_cache_push() {
        en: "Upload to a shared store the entries it lacks (scoped by SoC and op_cache.ini's toolkit stamps)",
        zh: "将共享存储中缺少的条目上传到该存储（按 SoC 和 op_cache.ini 中的工具包版本标记划分范围）",
    }
    about_cache_pull() {
        en: "Bring from a shared store the entries of this toolkit and SoC the cache lacks; every object's hash is checked",
        zh: "从共享存储拉取本缓存缺少的、属于本工具包版本和 SoC 的条目；每个对象的哈希都会校验",
    }
    about_lint() {
        en: "Check the options Python training scripts set, on every API surface",
        zh: "检查 Python 训练脚本在各个接口上设置的选项",
    }
    about_mem() {
        en: "Simulate memory policies on a trace, compare them, or plan static buffers",
        zh: "在内存轨迹上模拟内存策略、比较各策略，或规划静态缓冲区",
    }
    about_mem_simulate() {
        en: "Replay a trace under one static_memory_policy: peak reserved and live bytes, backend calls, cleans, refused concurrent executions (exit 1 if any)",
        zh: "按一种 static_memory_policy 回放轨迹：预留与实际占用的峰值字节数、后端调用次数、清零次数，以及被拒绝的并发执行（有则退出码为 1）",
    }
    about_mem_compare() {
        en: "Replay a trace under every policy side by side",
        zh: "按每种策略回放轨迹并并排比较",
    }
    about_mem_plan() {
        en: "Plan offsets for a graph's buffers in one arena against the LOAD bound",
        zh: "在一块内存区中为图的缓冲区规划偏移，并与 LOAD 下界比较",
    }
    about_schema() {
        en: "Print the JSON Schema of config files, for editors (`$id`: the schema's URI)",
        zh: "输出配置文件的 JSON Schema，供编辑器使用（`$id` 为该 schema 的 URI）",
    }
    about_server() {
        en: "Run the language server (LSP over standard input and output) for editors: lint and check findings, hover, completion and fixes",
        zh: "运行供编辑器使用的语言服务器（基于标准输入输出的 LSP）：提供 lint 与 check 的检查结果、悬停说明、补全和修复",
    }
    about_completions() {
        en: "Print a shell completion script (bash, zsh, fish, elvish or powershell)",
        zh: "输出 shell 补全脚本（bash、zsh、fish、elvish 或 powershell）",
    }
    about_man() {
        en: "Print the man page of cannctl (roff), e.g. for `man -l -`",
        zh: "输出 cannctl 的 man 手册页（roff 格式），例如交给 `man -l -` 查看",
    }
    about_help() {
        en: "Print this message or the help of the given command",
        zh: "显示本帮助，或指定命令的帮助",
    }

    // Arguments several commands share.
    arg_help() { en: "Print help", zh: "显示帮助" }
    arg_version() { en: "Print version", zh: "显示版本" }
    arg_format() { en: "Output format", zh: "输出格式" }
    arg_lang() {
        en: "Language of messages (default: from LC_ALL, LC_MESSAGES or LANG)",
        zh: "消息语言（默认取自 LC_ALL、LC_MESSAGES 或 LANG）",
    }
    arg_color() {
        en: "When to color output; `auto` colors a terminal unless NO_COLOR is set, or always when CLICOLOR_FORCE is",
        zh: "何时使用颜色；`auto` 表示输出到终端时着色（设置了 NO_COLOR 时不着色，设置了 CLICOLOR_FORCE 时总是着色）",
    }
    arg_product() {
        en: "Product id, e.g. atlas-a2-training (overrides `product:` in the file)",
        zh: "产品 ID，例如 atlas-a2-training（优先于文件中的 `product:`）",
    }
    arg_release() {
        en: "CANN release, e.g. 9.0.0 (overrides `release:`; default: the newest release)",
        zh: "CANN 版本，例如 9.0.0（优先于文件中的 `release:`；默认为最新版本）",
    }
    arg_max_findings() {
        en: "Findings drawn per file in human output, the rest counted (0: all); machine formats have all",
        zh: "人类可读输出中每个文件最多显示的结果数，其余只计数（0 表示全部）；机器格式总是包含全部结果",
    }
    arg_stdin_filename() {
        en: "With `-` (standard input): the file name to report and to choose YAML or JSON by",
        zh: "配合 `-`（标准输入）使用：报告中显示的文件名，也据其扩展名判断按 YAML 还是 JSON 解析",
    }

    // check
    arg_check_files() {
        en: "Config files (YAML or JSON; `-` reads standard input). With several, each is checked on its own and the exit code is the worst; `--format json` then prints an array of the per-file reports",
        zh: "配置文件（YAML 或 JSON；`-` 表示读标准输入）。给出多个时逐个检查，退出码取最严重者；此时 `--format json` 输出各文件报告组成的数组",
    }
    arg_check_product() {
        en: "Product id, e.g. atlas-a2-training (overrides `product:` in the file, which overrides `product` of [tool.cannctl] in the nearest pyproject.toml)",
        zh: "产品 ID，例如 atlas-a2-training（优先于文件中的 `product:`，后者优先于最近的 pyproject.toml 中 [tool.cannctl] 的 `product`）",
    }
    arg_check_release() {
        en: "CANN release, e.g. 9.0.0 (overrides `release:` in the file, then `release` of [tool.cannctl]; default: the newest release)",
        zh: "CANN 版本，例如 9.0.0（优先于文件中的 `release:`，其次为 [tool.cannctl] 的 `release`；默认为最新版本）",
    }
    arg_check_lang() {
        en: "Language of messages (default: `lang` of [tool.cannctl], else from LC_ALL, LC_MESSAGES or LANG)",
        zh: "消息语言（默认取 [tool.cannctl] 的 `lang`，否则取自 LC_ALL、LC_MESSAGES 或 LANG）",
    }
    arg_check_soc_ini() {
        en: "A CANN `platform_config/<soc_version>.ini`: check `aicore_num` against its `cube_core_cnt` and `vector_core_cnt`",
        zh: "CANN 的 `platform_config/<soc_version>.ini` 文件：按其中的 `cube_core_cnt` 和 `vector_core_cnt` 检查 `aicore_num`",
    }

    // emit
    arg_emit_file() {
        en: "Config file (YAML or JSON)",
        zh: "配置文件（YAML 或 JSON）",
    }
    arg_emit_to() {
        en: "What to write: ge (the ge.* option map), estimator, session, tf2, env or json",
        zh: "生成什么：ge（ge.* 选项表）、estimator、session、tf2、env 或 json",
    }

    // explain
    arg_explain_option() {
        en: "Any name of the option: its name (static_memory_policy), dotted path or its tail (memory_config.static_memory_policy), ge.* key, Estimator keyword, session parameter_map name, TF2 path, environment variable, or a retired spelling",
        zh: "选项的任一名称：选项名（如 static_memory_policy）、点分路径或其末段（如 memory_config.static_memory_policy）、ge.* 键名、Estimator 参数名、session 的 parameter_map 名称、TF2 路径、环境变量，或已停用的旧写法",
    }
    arg_explain_release() {
        en: "Show the facts of this CANN release, e.g. 8.3.RC1 (default: the newest release)",
        zh: "显示该 CANN 版本中的情况，例如 8.3.RC1（默认为最新版本）",
    }

    // options
    arg_options_name() {
        en: "Only the option of this name (any name explain takes: ge.* key, Estimator keyword, parameter_map name, TF2 path, environment variable, path tail), else the options whose names contain it",
        zh: "只列出该名称对应的选项（explain 接受的任一名称：ge.* 键名、Estimator 参数名、parameter_map 名称、TF2 路径、环境变量、路径末段）；没有时列出名称中含有它的选项",
    }
    arg_options_product() {
        en: "Only options this product supports (in --release, or in any release)",
        zh: "只列出该产品支持的选项（在 --release 指定的版本中，未指定则任一版本）",
    }
    arg_options_release() {
        en: "Only options this release has",
        zh: "只列出该版本中存在的选项",
    }

    // products
    arg_products_release() {
        en: "Only products this release knows",
        zh: "只列出该版本包含的产品",
    }

    // diff
    arg_diff_from() { en: "The earlier release, e.g. 8.3.RC1", zh: "较早的版本，例如 8.3.RC1" }
    arg_diff_to() { en: "The later release, e.g. 9.0.0", zh: "较新的版本，例如 9.0.0" }
    arg_diff_product() {
        en: "Only what changes for this product",
        zh: "只显示与该产品有关的变化",
    }

    // cache
    arg_cache_dir() {
        en: "Cache directory (as given to op_compiler_cache_dir); default: ${{ASCEND_CACHE_PATH}}, else $HOME/atc_data",
        zh: "缓存目录（与 op_compiler_cache_dir 相同）；默认为 ${{ASCEND_CACHE_PATH}}，未设置时为 $HOME/atc_data",
    }
    arg_cache_config() {
        en: "A cannctl config file: its op_compiler_cache_dir and `env:` values (ASCEND_CACHE_PATH, ASCEND_MAX_OP_CACHE_SIZE, ...) apply as they would for that job",
        zh: "cannctl 配置文件：其中的 op_compiler_cache_dir 和 `env:` 取值（ASCEND_CACHE_PATH、ASCEND_MAX_OP_CACHE_SIZE 等）按该作业运行时的方式生效",
    }
    arg_cache_gc_dry_run() {
        en: "Show what would be removed without removing anything",
        zh: "只显示将删除的内容，不实际删除",
    }
    arg_cache_gc_remote() {
        en: "Age a shared store instead (see `cache push`): entries by last push or pull, under DIR's limit and retained share (op_cache.ini, ASCEND_MAX_OP_CACHE_SIZE, ...)",
        zh: "改为老化共享存储（见 `cache push`）：按最近一次推送或拉取排序条目，使用 DIR 的上限和保留比例（op_cache.ini、ASCEND_MAX_OP_CACHE_SIZE 等）",
    }
    arg_cache_gc_max_size() {
        en: "With --remote: the store's limit in MB instead of DIR's",
        zh: "与 --remote 一起使用：以 MB 为单位的存储上限，代替 DIR 的上限",
    }
    arg_cache_remote() {
        en: "The shared store: a path or `file:///dir`, `redis://host:port/db` (`rediss://` for TLS), or `s3://bucket/prefix` (endpoint and region from `?endpoint=&region=` or AWS_ENDPOINT_URL, AWS_REGION). Credentials only from the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, REDIS_USERNAME, REDIS_PASSWORD",
        zh: "共享存储：路径或 `file:///dir`、`redis://host:port/db`（TLS 用 `rediss://`），或 `s3://bucket/prefix`（端点和区域取自 `?endpoint=&region=` 或 AWS_ENDPOINT_URL、AWS_REGION）。凭据只从环境变量读取：AWS_ACCESS_KEY_ID、AWS_SECRET_ACCESS_KEY、AWS_SESSION_TOKEN、REDIS_USERNAME、REDIS_PASSWORD",
    }
    arg_cache_dry_run() {
        en: "Show what would move without writing anything (a pull still fetches and verifies)",
        zh: "只显示将传输的内容，不写入任何数据（拉取时仍会下载并校验）",
    }
    arg_cache_jobs() {
        en: "Transfers in flight at once",
        zh: "同时进行的传输数",
    }
    arg_cache_pull_soc() {
        en: "SoC directory to pull (repeatable; default: the SoC directories the cache has)",
        zh: "要拉取的 SoC 目录（可重复；默认为缓存中已有的 SoC 目录）",
    }
    arg_cache_pull_binary_format() {
        en: "Binary format to pull (repeatable, e.g. elf64le-em183; default: the formats of the cache's own entries of each SoC, or the only one stored)",
        zh: "要拉取的二进制格式（可重复，例如 elf64le-em183；默认为缓存中各 SoC 已有条目的格式，或存储中唯一的格式）",
    }

    // lint
    arg_lint_paths() {
        en: "Scripts, or directories to search for `.py` files (honouring .gitignore); `-` reads one script from standard input",
        zh: "脚本文件，或要在其中查找 `.py` 文件的目录（遵循 .gitignore）；`-` 从标准输入读取一个脚本",
    }
    arg_lint_stdin_filename() {
        en: "With `-` (standard input): the file name findings are reported under. With --fix the fixed script is written to standard output",
        zh: "配合 `-`（标准输入）使用：结果中显示的文件名。同时指定 --fix 时，修复后的脚本写到标准输出",
    }
    arg_lint_product() {
        en: "Product id, e.g. atlas-a2-training (default: `product` of [tool.cannctl] in the nearest pyproject.toml). Without one, only what is wrong on every product of the release is reported",
        zh: "产品 ID，例如 atlas-a2-training（默认取最近的 pyproject.toml 中 [tool.cannctl] 的 `product`）。未指定时只报告在该版本所有产品上都有问题的设置",
    }
    arg_lint_release() {
        en: "CANN release, e.g. 9.0.0 (default: `release` of [tool.cannctl], else the newest release)",
        zh: "CANN 版本，例如 9.0.0（默认取 [tool.cannctl] 的 `release`，否则为最新版本）",
    }
    arg_lint_lang() {
        en: "Language of messages (default: `lang` of [tool.cannctl], else from LC_ALL, LC_MESSAGES or LANG)",
        zh: "消息语言（默认取 [tool.cannctl] 的 `lang`，否则取自 LC_ALL、LC_MESSAGES 或 LANG）",
    }
    arg_lint_no_progress() {
        en: "Never draw a progress bar (one is drawn only on a terminal, for large trees)",
        zh: "不显示进度条（仅在终端上检查大型目录时才会显示）",
    }
    arg_lint_fix() {
        en: "Apply the safe fixes to the scripts, then report what is left",
        zh: "对脚本应用安全的修复，然后报告剩余的问题",
    }
    arg_lint_diff() {
        en: "Print the safe fixes as a unified diff and change nothing (exit 1 if there are any)",
        zh: "以统一 diff 格式输出安全的修复，不修改任何文件（有修复时退出码为 1）",
    }
    arg_lint_docs_url() {
        en: "Where the generated docs site is served; SARIF rules then link their option's page (`helpUri`) (default: `docs-url` of [tool.cannctl])",
        zh: "生成的文档站点地址；SARIF 规则会据此链接到对应选项的页面（`helpUri`）（默认取 [tool.cannctl] 的 `docs-url`）",
    }

    // mem
    arg_mem_trace() {
        en: "JSONL trace (see examples/traces/README.md) or a torch / torch_npu memory snapshot (`_dump_snapshot`, pickle or JSON)",
        zh: "JSONL 轨迹（见 examples/traces/README.md），或 torch / torch_npu 的内存快照（`_dump_snapshot`，pickle 或 JSON）",
    }
    arg_mem_simulate_policy() {
        en: "static_memory_policy: 0, 1, 2, 3 or 4",
        zh: "static_memory_policy：0、1、2、3 或 4",
    }
    arg_mem_atomic_clean() {
        en: "atomic_clean_policy: 0 or 1",
        zh: "atomic_clean_policy：0 或 1",
    }
    arg_mem_plan_atomic_clean() {
        en: "atomic_clean_policy: 0 or 1 (both are planned; this one is reported first)",
        zh: "atomic_clean_policy：0 或 1（两种都会规划，先报告此项）",
    }
    arg_mem_growth() {
        en: "How a policy-2 pool grows: documented (free the pool, allocate one of the new size) or engine-code (keep it, add the shortfall in 2 MiB blocks)",
        zh: "策略 2 内存池的增长方式：documented（按文档：释放后按新大小重新申请）或 engine-code（按引擎代码：保留原池，以 2 MiB 块补足差额）",
    }
    arg_mem_device() {
        en: "Device of a torch snapshot (default: the one with the longest history)",
        zh: "torch 快照中的设备编号（默认取记录最长的设备）",
    }
    arg_mem_compare_plot() {
        en: "Also draw reserved and live bytes over the trace to this SVG file",
        zh: "同时把整个轨迹上预留与实际占用的字节数绘制到该 SVG 文件",
    }
    arg_mem_plan_buffers() {
        en: "CSV `id,lower,upper,size[,memset]`, lifetimes half-open",
        zh: "CSV 文件，列为 `id,lower,upper,size[,memset]`，生存期为左闭右开区间",
    }
    arg_mem_plan_offsets() {
        en: "Write `id,lower,upper,size,memset,offset` for the reported plan here",
        zh: "把所报告方案的 `id,lower,upper,size,memset,offset` 写到此文件",
    }
    arg_mem_plan_time_limit() {
        en: "Seconds the whole search may take (it stops earlier when the plan is proven optimal or its work budget is spent)",
        zh: "整个搜索最多用时的秒数（方案被证明最优或工作量预算用完时会提前结束）",
    }
    arg_mem_plan_threads() {
        en: "Threads for the search; the plan is the same for any number. Default: the available cores, at most 4",
        zh: "搜索使用的线程数；线程数不影响结果。默认为可用核数，最多 4 个",
    }
    arg_mem_plan_seed() {
        en: "Seed of the search's noise: the same seed gives the same plan",
        zh: "搜索随机扰动的种子：相同的种子得到相同的方案",
    }

    // completions
    arg_completions_shell() {
        en: "The shell to complete for",
        zh: "要生成补全脚本的 shell",
    }

    // Headings of the help page.
    heading_usage() { en: "Usage:", zh: "用法：" }
    heading_commands() { en: "Commands", zh: "命令" }
    heading_arguments() { en: "Arguments", zh: "参数" }
    heading_options() { en: "Options", zh: "选项" }
    default_value(value: &str) { en: "[default: {value}]", zh: "［默认：{value}］" }
    possible_values(values: &str) { en: "[possible values: {values}]", zh: "［可选值：{values}］" }
    env_var(name: &str) { en: "[env: {name}]", zh: "［环境变量：{name}］" }

    // Usage errors.
    usage_unknown_argument(arg: &str) {
        en: "unexpected argument `{arg}`",
        zh: "无法识别的参数 `{arg}`",
    }
    usage_unknown_command(name: &str) {
        en: "unknown command `{name}`",
        zh: "没有名为 `{name}` 的命令",
    }
    usage_invalid_value(value: &str, arg: &str) {
        en: "invalid value `{value}` for `{arg}`",
        zh: "`{arg}` 的值 `{value}` 无效",
    }
    usage_invalid_value_because(value: &str, arg: &str, reason: &str) {
        en: "invalid value `{value}` for `{arg}`: {reason}",
        zh: "`{arg}` 的值 `{value}` 无效：{reason}",
    }
    usage_not_a_whole_number() { en: "not a whole number", zh: "不是整数" }
    usage_number_too_large() { en: "the number is too large", zh: "数值过大" }
    usage_not_a_number() { en: "not a number", zh: "不是数字" }
    usage_out_of_range(min: i128, max: i128) {
        en: "not between {min} and {max}",
        zh: "不在 {min} 到 {max} 的范围内",
    }
    usage_value_missing(arg: &str) {
        en: "`{arg}` needs a value",
        zh: "`{arg}` 需要一个值",
    }
    usage_extra_value(value: &str, arg: &str) {
        en: "`{arg}` takes no more values; `{value}` is one too many",
        zh: "`{arg}` 不再接受更多的值，`{value}` 是多余的",
    }
    usage_value_count(arg: &str, wanted: usize, given: usize) {
        en: "`{arg}` takes {wanted} values; {given} given",
        zh: "`{arg}` 需要 {wanted} 个值，实际给出 {given} 个",
    }
    usage_missing_arguments(args: &str) {
        en: "missing: {args}",
        zh: "缺少必需的参数：{args}",
    }
    usage_missing_command(command: &str) {
        en: "`{command}` needs a command",
        zh: "`{command}` 后面需要一个子命令",
    }
    usage_conflict(arg: &str, other: &str) {
        en: "`{arg}` cannot be used with {other}",
        zh: "`{arg}` 不能与 {other} 同时使用",
    }
    usage_repeated(arg: &str) {
        en: "`{arg}` is given more than once",
        zh: "`{arg}` 只能给出一次",
    }
    usage_needs_equals(arg: &str) {
        en: "write the value of `{arg}` after `=`",
        zh: "`{arg}` 的值需要写在 `=` 之后",
    }
    usage_not_utf8() {
        en: "an argument is not valid UTF-8",
        zh: "有参数不是有效的 UTF-8 文本",
    }
    usage_other() {
        en: "the command line cannot be read",
        zh: "无法解析命令行",
    }
    usage_one_of(values: &str) { en: "one of {values}", zh: "以下之一：{values}" }
    usage_did_you_mean(name: &str) { en: "did you mean `{name}`?", zh: "是否想写 `{name}`？" }
    usage_dash_dash(arg: &str) {
        en: "to pass `{arg}` as a value, write `-- {arg}`",
        zh: "若要把 `{arg}` 作为值传入，请写成 `-- {arg}`",
    }
    usage_see_help(help: &str) {
        en: "`{help}` lists what this command takes",
        zh: "`{help}` 可列出该命令接受的参数",
    }
    usage_line(usage: &str) { en: "Usage: {usage}", zh: "用法：{usage}" }
}
