//! Messages of the `mem` area. Add entries with [`crate::messages!`]; see the crate docs.

crate::messages! {
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
    plan_progress(phase: &str, arena: u64, bound: u64, seconds: &str) {
        en: "{phase}: arena {arena} B, lower bound {bound} B, {seconds} s",
        zh: "{phase}：内存池 {arena} B，下界 {bound} B，{seconds} 秒",
    }
}
