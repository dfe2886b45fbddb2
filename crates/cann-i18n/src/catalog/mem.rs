//! Messages of the `mem` area. Add entries with [`crate::messages!`]; see the crate docs.

crate::messages! {
    // The memory policy `static_memory_policy` and `GE_USE_STATIC_MEMORY` resolve to.
    policy_legacy_env(env: &str, value: &str, canonical: i64) {
        en: "{env} = {value} is a legacy spelling of {canonical}",
        zh: "{env} = {value} 是 {canonical} 的旧写法",
    }
    policy_invalid_env(env: &str, value: &str, expected: &str) {
        en: "{env} = {value} is not one of {expected} and is ignored",
        zh: "{env} = {value} 不是 {expected} 之一，已忽略",
    }
    policy_combined(option: &str, option_value: i64, env: &str, env_value: i64, effective: i64) {
        en: "{option} = {option_value} and {env} = {env_value} are combined into {effective}",
        zh: "{option} = {option_value} 与 {env} = {env_value} 合并为 {effective}",
    }
    // Where one part of the effective policy came from (`PolicySource`).
    policy_source_default() {
        en: "default (off)",
        zh: "默认（关闭）",
    }
    policy_source_both(option: &str, env: &str) {
        en: "{option} and {env}",
        zh: "{option} 与 {env}",
    }
    // The buffer CSV of `mem plan`.
    csv_no_buffers() {
        en: "no buffers: expected a header such as `id,lower,upper,size[,memset]` (or MiniMalloc's `buffer,start,end,size`) and one row per buffer",
        zh: "没有缓冲区：应有表头，例如 `id,lower,upper,size[,memset]`（或 MiniMalloc 的 `buffer,start,end,size`），其后每行一个缓冲区",
    }
    csv_no_rows() {
        en: "the header is there but no buffer rows follow",
        zh: "只有表头，没有缓冲区行",
    }
    csv_unknown_column(column: &str) {
        en: "unknown column `{column}`; the columns are id (or buffer, buffer_id), lower (or start, begin), upper (exclusive) or end (inclusive), size, and optionally memset and offset",
        zh: "未知列 `{column}`；可用的列为 id（或 buffer、buffer_id）、lower（或 start、begin）、upper（不含）或 end（含）、size，以及可选的 memset 和 offset",
    }
    csv_unsupported_column(column: &str) {
        en: "column `{column}` (a MiniMalloc extension) is not supported by this planner; remove it",
        zh: "本规划器不支持列 `{column}`（MiniMalloc 的扩展），请删除该列",
    }
    csv_duplicate_column(column: &str) {
        en: "column `{column}` appears twice in the header (counting its synonyms)",
        zh: "表头中列 `{column}` 出现了两次（同义列名也计算在内）",
    }
    csv_missing_column(column: &str) {
        en: "the header has no `{column}` column",
        zh: "表头缺少 `{column}` 列",
    }
    csv_field_count(found: usize, expected: usize) {
        en: "{found} fields, expected {expected} as in the header",
        zh: "有 {found} 个字段，按表头应为 {expected} 个",
    }
    csv_not_integer(column: &str, value: &str) {
        en: "`{column}` is `{value}`, expected a non-negative integer",
        zh: "`{column}` 为 `{value}`，应为非负整数",
    }
    csv_end_too_large(value: &str) {
        en: "`end` is `{value}`: an inclusive end this large has no exclusive upper bound",
        zh: "`end` 为 `{value}`：该值过大，无法换算为不含的上界",
    }
    csv_empty_lifetime(id: &str, lower: u64, upper: u64) {
        en: "buffer `{id}` lives over [{lower}, {upper}), which is empty; upper must exceed lower",
        zh: "缓冲区 `{id}` 的生存期 [{lower}, {upper}) 为空；upper 必须大于 lower",
    }
    csv_bad_memset(value: &str) {
        en: "`memset` is `{value}`, expected 0, 1, true or false",
        zh: "`memset` 为 `{value}`，应为 0、1、true 或 false",
    }
    csv_duplicate_id(id: &str) {
        en: "buffer id `{id}` appears twice",
        zh: "缓冲区 id `{id}` 出现了两次",
    }
    csv_sizes_overflow(size: u64, limit: u64) {
        en: "size {size}: the sizes up to this row add up past {limit} bytes, more than any arena can address",
        zh: "大小 {size}：截至本行的大小之和超过 {limit} 字节，超出任何内存池可寻址的范围",
    }
    csv_too_many_rows(limit: usize) {
        en: "more than {limit} buffer rows; the planner takes at most {limit} buffers per graph",
        zh: "缓冲区行数超过 {limit}；规划器每个图最多处理 {limit} 个缓冲区",
    }

    // Arguments of `mem plan`.
    time_limit_invalid(text: &str, max: u64) {
        en: "`{text}` is not a number of seconds above 0 and at most {max}",
        zh: "`{text}` 不是大于 0 且不超过 {max} 的秒数",
    }

    // What `mem plan` says about how good a plan is.
    plan_proven_optimal() {
        en: "proven optimal",
        zh: "已证明最优",
    }
    plan_gap(bound: u64, gap: &str) {
        en: "best lower bound {bound} B, within {gap}% of it",
        zh: "最佳下界 {bound} B，与之相差不超过 {gap}%",
    }
    plan_stopped_by_time() {
        en: "search stopped at the time limit",
        zh: "搜索在时间限制处停止",
    }
    // An indicatif template: {{spinner}}, {{elapsed}} and {{msg}} (plan_spinner_best) are
    // filled in by the spinner.
    plan_spinner(limit: &str) {
        en: "{{spinner}} planning {{elapsed}} / {limit}  {{msg}}",
        zh: "{{spinner}} 正在规划 {{elapsed}} / {limit}  {{msg}}",
    }
    plan_spinner_best(arena: &str, bound: &str, gap: &str) {
        en: "best arena {arena}, lower bound {bound} (within {gap}%)",
        zh: "目前最佳 arena {arena}，下界 {bound}（相差不超过 {gap}%）",
    }

    // What `mem simulate` and `mem compare` read.
    trace_read(origin: &str, events: usize, graphs: usize, execs: usize) {
        en: "trace {origin}: {events} events, {graphs} graphs, {execs} executions",
        zh: "轨迹 {origin}：{events} 个事件，{graphs} 个图，{execs} 次执行",
    }
    torch_snapshot_read(form: &str, device: usize, devices: usize, entries: usize, allocs: usize, frees: usize) {
        en: "torch snapshot ({form}), device {device} of {devices}: {entries} entries, {allocs} allocs, {frees} frees",
        zh: "torch 快照（{form}），设备 {device}（共 {devices} 个）：{entries} 条记录，{allocs} 次分配，{frees} 次释放",
    }
    torch_unmatched_frees(n: usize, bytes: &str) {
        en: "{n} frees of allocations made before the recorded window ({bytes}); replayed as live from the start",
        zh: "{n} 次释放所对应的分配发生在记录窗口之前（{bytes}）；重放时视为从一开始就存活",
    }
    torch_prelive_blocks(n: usize, bytes: &str) {
        en: "{n} blocks allocated before the window and never freed ({bytes})",
        zh: "{n} 个块在窗口之前分配且从未释放（{bytes}）",
    }
    torch_recorded_peak(bytes: &str) {
        en: "torch's caching allocator peaked at {bytes} reserved",
        zh: "torch 缓存分配器的预留峰值为 {bytes}",
    }
    torch_ignored_action(n: usize, action: &str) {
        en: "{n} entries with unknown action `{action}` ignored",
        zh: "忽略了 {n} 条未知操作 `{action}` 的记录",
    }

    // The summary of one `mem simulate` run.
    sim_policies(policy: i64, atomic: i64, growth: &str) {
        en: "static_memory_policy {policy}, atomic_clean_policy {atomic}, pool growth {growth}",
        zh: "static_memory_policy {policy}，atomic_clean_policy {atomic}，内存池扩展方式 {growth}",
    }
    sim_policies_alias(policy: i64, effective: i64, atomic: i64, growth: &str) {
        en: "static_memory_policy {policy} (runs as {effective}), atomic_clean_policy {atomic}, pool growth {growth}",
        zh: "static_memory_policy {policy}（按 {effective} 运行），atomic_clean_policy {atomic}，内存池扩展方式 {growth}",
    }
    sim_peak_reserved() { en: "peak reserved", zh: "预留峰值" }
    sim_peak_live() { en: "peak live", zh: "存活峰值" }
    sim_reserved_to_live() { en: "reserved / live", zh: "预留 / 存活" }
    sim_backend_calls() { en: "backend calls", zh: "后端调用" }
    sim_backend_calls_value(allocs: u64, frees: u64) {
        en: "{allocs} alloc, {frees} free",
        zh: "分配 {allocs} 次，释放 {frees} 次",
    }
    sim_cleans() { en: "cleans", zh: "清零" }
    sim_cleans_value(ops: u64, bytes: &str) {
        en: "{ops} ops, {bytes}",
        zh: "{ops} 次，{bytes}",
    }
    sim_executions() { en: "executions", zh: "执行" }
    sim_executions_value(run: u64, refused: u64) {
        en: "{run} run, {refused} refused",
        zh: "运行 {run} 次，拒绝 {refused} 次",
    }
    sim_refused(origin: &str, line: usize, exec: &str, graph: &str, policy: i64) {
        en: "{origin}:{line}: execution `{exec}` of graph `{graph}` refused: static_memory_policy {policy} does not allow graphs of a session to run concurrently",
        zh: "{origin}:{line}：图 `{graph}` 的执行 `{exec}` 被拒绝：static_memory_policy {policy} 不允许同一会话的多个图并发运行",
    }

    // `mem compare`'s table.
    compare_header(growth: &str) {
        en: "pool growth {growth}; policy 1 runs as 2 and is not shown",
        zh: "内存池扩展方式 {growth}；策略 1 按策略 2 运行，不单独列出",
    }
    compare_policy() { en: "policy", zh: "策略" }
    compare_allocs() { en: "allocs", zh: "分配次数" }
    compare_frees() { en: "frees", zh: "释放次数" }
    compare_clean_bytes() { en: "clean bytes", zh: "清零字节" }
    compare_refused() { en: "refused", zh: "拒绝次数" }
    compare_plot_title(origin: &str) {
        en: "{origin}: reserved and live bytes, one panel per policy",
        zh: "{origin}：预留字节与存活字节，每个策略一幅",
    }
    // The words inside the SVG of `mem compare --plot`.
    plot_panel(code: i64) { en: "policy {code}", zh: "策略 {code}" }
    plot_bytes_axis(unit: &str) { en: "bytes ({unit})", zh: "字节（{unit}）" }
    plot_event_axis() { en: "trace event", zh: "轨迹事件" }
    plot_peak(bytes: &str, event: usize) {
        en: "peak {bytes} at event {event}",
        zh: "峰值 {bytes}，位于事件 {event}",
    }
    plot_reserved_key() { en: "reserved (area)", zh: "预留（面积）" }
    plot_live_key() { en: "live (line)", zh: "存活（折线）" }
    compare_plot_written(path: &str) {
        en: "plot written to {path}",
        zh: "图已写入 {path}",
    }

    // `mem plan`'s report.
    plan_read(path: &str, buffers: usize, memset: usize) {
        en: "{path}: {buffers} buffers ({memset} `memset` outputs)",
        zh: "{path}：{buffers} 个缓冲区（其中 {memset} 个 `memset` 输出）",
    }
    plan_chosen(policy: i64, arena: &str, arena_bytes: u64, load: &str, load_bytes: u64, ratio: &str) {
        en: "atomic_clean_policy {policy}: arena {arena} ({arena_bytes} B), LOAD {load} ({load_bytes} B), ratio {ratio}, verified",
        zh: "atomic_clean_policy {policy}：内存池 {arena}（{arena_bytes} B），LOAD {load}（{load_bytes} B），比值 {ratio}，已校验",
    }
    plan_policy(policy: i64, arena: &str, load: &str, ratio: &str, ops: u64, cleaned: &str, found_by: &str) {
        en: "policy {policy}: arena {arena}, LOAD {load}, ratio {ratio}, {ops} clean ops, {cleaned} cleaned (found by `{found_by}`)",
        zh: "策略 {policy}：内存池 {arena}，LOAD {load}，比值 {ratio}，清零 {ops} 次，共 {cleaned}（由 `{found_by}` 求得）",
    }
    // How a plan was found (cann-memsim's `Strategy`), worded by the CLI; nested strategies
    // are worded inside out and passed in as `from`, `inner` or `highest`.
    plan_by_sweep(gap: &str) {
        en: "sweep by start time, {gap}",
        zh: "按开始时间扫描，{gap}",
    }
    plan_by_greedy(order: &str, gap: &str) {
        en: "greedy by {order}, {gap}",
        zh: "按{order}贪心，{gap}",
    }
    plan_gap_best() { en: "best gap", zh: "最佳空隙" }
    plan_gap_first() { en: "first gap", zh: "首个空隙" }
    plan_gap_aligned() { en: "aligned gaps", zh: "对齐空隙" }
    plan_order_size() { en: "size", zh: "大小" }
    plan_order_area() { en: "area", zh: "面积" }
    plan_order_lifetime() { en: "lifetime", zh: "生命周期" }
    plan_by_squeaky_wheel(round: u32) {
        en: "squeaky wheel, round {round}",
        zh: "squeaky wheel 重启，第 {round} 轮",
    }
    plan_from_peak(stack: &str) {
        en: "sweeps out from the peak, aligned gaps, its live set stacked {stack}",
        zh: "从负载峰值向前后扫描，对齐空隙，峰值时刻的存活缓冲区{stack}",
    }
    plan_stack_last_end_lowest() {
        en: "the last to end lowest",
        zh: "按最晚结束者在最下堆叠",
    }
    plan_stack_first_start_lowest() {
        en: "the first to start lowest",
        zh: "按最早开始者在最下堆叠",
    }
    plan_backtracked(stack: &str, lowered: u32) {
        en: "sweeps out from the peak, aligned gaps, its live set stacked {stack}, backtracked where the arena rose ({lowered} times lowered)",
        zh: "从负载峰值向前后扫描，对齐空隙，峰值时刻的存活缓冲区{stack}，并在内存池升高处回溯重扫（降低 {lowered} 次）",
    }
    plan_refined(from: &str, lowered: u32, start: usize) {
        en: "{from}, then {lowered} peak re-placements (start {start})",
        zh: "{from}，再经 {lowered} 次峰值重新放置（第 {start} 路起点）",
    }
    plan_by_exact() { en: "exact search", zh: "精确搜索" }
    plan_by_exact_proven() { en: "exact search (proven optimal)", zh: "精确搜索（已证明最优）" }
    plan_merged(blocks: usize, inner: &str) {
        en: "{blocks} blocks merged from the buffers: {inner}",
        zh: "合并缓冲区得到 {blocks} 个块：{inner}",
    }
    plan_split(bands: usize, groups: usize, highest: &str) {
        en: "split in time ({bands} bands, {groups} groups); the highest group: {highest}",
        zh: "按时间切分（{bands} 个贯穿条带，{groups} 个组）；最高的组：{highest}",
    }
    plan_policy_difference(arena: i128, load: u64, launches: i64) {
        en: "policy 0 over 1: {arena:+} B of arena ({load:+} B of LOAD, the unavoidable part), {launches:+} clean launches",
        zh: "策略 0 相对策略 1：内存池 {arena:+} B（其中 LOAD {load:+} B，无法避免），清零启动 {launches:+} 次",
    }
    plan_offsets_written(path: &str) {
        en: "offsets written to {path}",
        zh: "偏移量已写入 {path}",
    }

    // What is wrong inside a trace (cann-memsim's `TraceError`).
    trace_at_column(column: usize, text: &str) {
        en: "column {column}: {text}",
        zh: "第 {column} 列：{text}",
    }
    trace_json_syntax() {
        en: "not valid JSON (each line of a trace is one JSON object)",
        zh: "不是有效的 JSON（跟踪文件的每一行是一个 JSON 对象）",
    }
    trace_json_eof() {
        en: "the line ends inside a JSON value (each line of a trace is one whole JSON object)",
        zh: "该行在 JSON 值的中途结束（跟踪文件的每一行是一个完整的 JSON 对象）",
    }
    trace_missing_field(field: &str) {
        en: "the event has no `{field}` field",
        zh: "该事件缺少字段 `{field}`",
    }
    trace_unknown_field(field: &str, expected: &str) {
        en: "this event takes no field `{field}`; its fields are {expected}",
        zh: "该事件没有字段 `{field}`；可用字段为 {expected}",
    }
    trace_unknown_event(event: &str, expected: &str) {
        en: "unknown event `{event}`; the events are {expected}",
        zh: "未知事件 `{event}`；可用事件为 {expected}",
    }
    trace_shape(detail: &str) {
        en: "the event does not match the trace format ({detail})",
        zh: "该事件不符合跟踪文件的格式（解析器信息：{detail}）",
    }
    trace_empty() { en: "the trace has no events", zh: "跟踪文件中没有任何事件" }
    trace_count_graphs() { en: "graphs", zh: "图" }
    trace_count_executions() { en: "executions", zh: "执行" }
    trace_count_tensors() { en: "tensors", zh: "张量" }
    trace_count_variables() { en: "variables", zh: "变量" }
    trace_too_many(what: &str, limit: u32) {
        en: "too many {what} (more than {limit})",
        zh: "{what}数量过多（超过 {limit}）",
    }
    trace_graph_twice(graph: &str) {
        en: "graph `{graph}` is already registered",
        zh: "图 `{graph}` 已注册过",
    }
    trace_empty_memset(graph: &str, producer: u32, end: u32) {
        en: "memset output of graph `{graph}` has producer {producer} and end {end}; its lifetime [producer, end) must not be empty",
        zh: "图 `{graph}` 的 memset 输出 producer 为 {producer}、end 为 {end}；其生存期 [producer, end) 不能为空",
    }
    trace_graph_unknown(graph: &str) {
        en: "graph `{graph}` is not registered; register it with a `static_graph` or `dynamic_graph` event first",
        zh: "图 `{graph}` 尚未注册；请先用 `static_graph` 或 `dynamic_graph` 事件注册它",
    }
    trace_exec_running(exec: &str) {
        en: "execution `{exec}` is already running",
        zh: "执行 `{exec}` 已在运行",
    }
    trace_not_marked_concurrent(exec: &str, other: &str) {
        en: "execution `{exec}` begins while `{other}` is running; mark overlapping executions with \"concurrent\": true",
        zh: "执行 `{exec}` 开始时 `{other}` 仍在运行；重叠的执行请标记 \"concurrent\": true",
    }
    trace_alone_concurrent(exec: &str) {
        en: "execution `{exec}` is marked concurrent but no other execution is running",
        zh: "执行 `{exec}` 标记为并发，但没有其他执行在运行",
    }
    trace_exec_not_running(exec: &str) {
        en: "execution `{exec}` is not running (no `begin` for it, or it has ended)",
        zh: "执行 `{exec}` 不在运行（没有对应的 `begin`，或已结束）",
    }
    trace_alloc_in_static(exec: &str) {
        en: "execution `{exec}` runs a static-shape graph, whose memory is planned at load; only dynamic-shape graphs allocate tensors",
        zh: "执行 `{exec}` 运行的是静态 shape 图，其内存在加载时即已规划；只有动态 shape 图才会分配张量",
    }
    trace_tensor_zero(tensor: &str) {
        en: "tensor `{tensor}` has size 0; sizes are positive byte counts",
        zh: "张量 `{tensor}` 的大小为 0；大小应为正的字节数",
    }
    trace_tensor_live(tensor: &str) {
        en: "tensor `{tensor}` is already live; free it before reusing the name",
        zh: "张量 `{tensor}` 仍然存活；请先释放它再复用该名称",
    }
    trace_tensor_not_live(tensor: &str) {
        en: "tensor `{tensor}` is not live",
        zh: "张量 `{tensor}` 未处于存活状态",
    }
    trace_tensor_other_exec(tensor: &str, exec: &str) {
        en: "tensor `{tensor}` belongs to another execution, not `{exec}`",
        zh: "张量 `{tensor}` 属于另一个执行，而不是 `{exec}`",
    }
    trace_var_zero(var: &str) {
        en: "variable `{var}` has size 0; sizes are positive byte counts",
        zh: "变量 `{var}` 的大小为 0；大小应为正的字节数",
    }
    trace_var_allocated(var: &str) {
        en: "variable `{var}` is already allocated",
        zh: "变量 `{var}` 已分配",
    }
    trace_var_not_allocated(var: &str) {
        en: "variable `{var}` is not allocated",
        zh: "变量 `{var}` 未分配",
    }
    trace_importing(text: &str) {
        en: "importing the snapshot: {text}",
        zh: "导入快照时出错：{text}",
    }

    // An event the memory engine refused (cann-runtime's `SessionError` and the errors
    // under it), worded by cannctl; graphs, executions, tensors and variables by the
    // engine's own numbers.
    engine_refused(why: &str) {
        en: "the engine refused this event: {why}",
        zh: "引擎拒绝了此事件：{why}",
    }
    engine_session_refused(why: &str) {
        en: "the engine could not set up or close the session: {why}",
        zh: "引擎无法建立或关闭会话：{why}",
    }
    engine_concurrent(policy: i64, requested: &str, running: &str) {
        en: "static_memory_policy {policy} does not allow graph {requested} to run while graph {running} is running",
        zh: "static_memory_policy {policy} 不允许在图 {running} 运行期间运行图 {requested}",
    }
    engine_unknown_graph(graph: &str) { en: "no graph {graph} is registered", zh: "没有已注册的图 {graph}" }
    engine_unknown_execution(exec: &str) {
        en: "execution {exec} is unknown or has finished",
        zh: "执行 {exec} 不存在或已结束",
    }
    engine_unknown_tensor(tensor: &str) {
        en: "tensor {tensor} is not live in this execution",
        zh: "张量 {tensor} 在该执行中不处于存活状态",
    }
    engine_unknown_variable(var: &str) {
        en: "variable {var} is not allocated",
        zh: "变量 {var} 未分配",
    }
    engine_not_dynamic(graph: &str) {
        en: "graph {graph} is static-shape; its memory is planned at load, so it allocates no tensors",
        zh: "图 {graph} 是静态 shape 图，其内存在加载时即已规划，因此不会分配张量",
    }
    engine_zero_size() { en: "zero bytes were requested", zh: "请求的字节数为 0" }
    engine_arena_exhausted(requested: u64, reserved: u64) {
        en: "the expandable arena has no free range of {requested} bytes in the {reserved} bytes it reserved",
        zh: "可扩展内存区在其预留的 {reserved} 字节中没有 {requested} 字节的空闲区间",
    }
    engine_unknown_allocation(offset: u64) {
        en: "no live allocation at offset {offset}",
        zh: "偏移 {offset} 处没有存活的分配",
    }
    engine_bad_page_bytes(page_bytes: u64, base: u64) {
        en: "the arena's page of {page_bytes} bytes is not a non-zero multiple of the {base}-byte base page",
        zh: "内存区的页大小 {page_bytes} 字节不是 {base} 字节基础页的非零整数倍",
    }
    engine_bad_align(align: u64, page_bytes: u64) {
        en: "the arena's alignment {align} is not a power of two no larger than its page of {page_bytes} bytes",
        zh: "内存区的对齐值 {align} 不是不超过其页大小（{page_bytes} 字节）的 2 的幂",
    }
    engine_reserve_overflow(reserve_bytes: u64) {
        en: "the arena's reservation of {reserve_bytes} bytes overflows when rounded up to whole pages",
        zh: "内存区预留的 {reserve_bytes} 字节按整页向上取整后溢出",
    }
    engine_pages_unavailable(page: &str, len: u64, errno: i32) {
        en: "{page} pages are unavailable for {len} bytes (errno {errno})",
        zh: "无法为 {len} 字节提供{page}页（errno {errno}）",
    }
    engine_out_of_memory(len: u64) {
        en: "out of memory allocating {len} bytes",
        zh: "分配 {len} 字节时内存不足",
    }
    engine_zero_length() { en: "a request of zero bytes", zh: "请求长度为 0 字节" }
    engine_too_large(len: u64) {
        en: "a request of {len} bytes does not fit the address space",
        zh: "请求的 {len} 字节超出了地址空间",
    }
    engine_misaligned(offset: u64, len: u64, page_bytes: u64) {
        en: "range {offset}+{len} is not aligned to the {page_bytes}-byte page",
        zh: "区间 {offset}+{len} 未按 {page_bytes} 字节的页对齐",
    }
    engine_out_of_range(id: u64, offset: u64, len: u64) {
        en: "range {offset}+{len} is outside the usable part of handle {id}",
        zh: "区间 {offset}+{len} 超出了句柄 {id} 的可用部分",
    }
    engine_unknown_handle(id: u64) {
        en: "handle {id} does not belong to this backend",
        zh: "句柄 {id} 不属于此后端",
    }
    engine_os(op: &str, errno: i32) {
        en: "the system call {op} failed (errno {errno})",
        zh: "系统调用 {op} 失败（errno {errno}）",
    }
    engine_variable_pages(policy: i64, len: u64, tried: &str) {
        en: "variable_use_1g_huge_page = {policy}: {len} bytes of variable memory could not be had with {tried}",
        zh: "variable_use_1g_huge_page = {policy}：无法以{tried}获得 {len} 字节的变量内存",
    }
    engine_page_tried(page: &str, errno: i32) {
        en: "{page} pages (errno {errno})",
        zh: "{page}页（errno {errno}）",
    }
    engine_or() { en: " or ", zh: "或" }
    engine_page_base() { en: "default", zh: "默认" }
    engine_page_2m() { en: "2 MiB huge", zh: "2 MiB 大" }
    engine_page_1g() { en: "1 GiB huge", zh: "1 GiB 大" }
}
