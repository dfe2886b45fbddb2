//! Messages of the shared cache tier (`cannctl cache push|pull --remote URL`).

crate::messages! {
    // The --remote URL.
    bad_url(url: &str, why: &str) {
        en: "remote `{url}`: {why}",
        zh: "远端 `{url}`：{why}",
    }
    bad_scheme(url: &str, scheme: &str) {
        en: "remote `{url}`: unknown scheme `{scheme}://`; expected a path, `file://`, `redis://`, `rediss://` or `s3://`",
        zh: "远端 `{url}`：未知的协议 `{scheme}://`；应为路径、`file://`、`redis://`、`rediss://` 或 `s3://`",
    }
    credentials_in_url(url: &str, what: &str, var: &str) {
        en: "remote `{url}` carries credentials (`{what}`); a command line is visible to every user of the node and ends up in shell histories and job logs. Remove them from the URL and set {var} in the environment instead",
        zh: "远端 `{url}` 中含有凭据（`{what}`）；命令行对节点上的所有用户可见，也会留在 shell 历史和作业日志中。请从 URL 中删除凭据，改为在环境变量 {var} 中设置",
    }

    // Failures.
    store_failed(op: &str, target: &str, detail: &str) {
        en: "remote store: {op} `{target}` failed: {detail}",
        zh: "远端存储：{op} `{target}` 失败：{detail}",
    }
    no_versions(ini: &str) {
        en: "`{ini}` has no adk_version and ops_version stamps, so the toolkit these entries belong to is unknown and they cannot be scoped; the compiler writes the stamps on its first run (or write them into the [op_compiler_cache] section)",
        zh: "`{ini}` 中没有 adk_version 和 ops_version 版本标记，无法确定这些条目所属的工具包版本，因而无法划定范围；编译器首次运行时会写入这些标记（也可手动写入 [op_compiler_cache] 节）",
    }
    no_soc(dir: &str) {
        en: "`{dir}` has no SoC directory yet, so it is unknown which SoC's entries to pull; pass --soc NAME (the directory name under kernel_cache, e.g. Ascend910B)",
        zh: "`{dir}` 下还没有 SoC 目录，无法确定要拉取哪个 SoC 的条目；请使用 --soc NAME 指定（kernel_cache 下的目录名，例如 Ascend910B）",
    }
    bad_soc(soc: &str) {
        en: "SoC `{soc}` is not a directory name under kernel_cache (letters, digits, `_`, `-`, `.`)",
        zh: "SoC `{soc}` 不是 kernel_cache 下的合法目录名（字母、数字、`_`、`-`、`.`）",
    }
    no_cache(dir: &str) {
        en: "no operator compile cache at `{dir}` (missing kernel_cache/)",
        zh: "`{dir}` 处没有算子编译缓存（缺少 kernel_cache/）",
    }
    runtime_failed(detail: &str) {
        en: "cannot start the transfer workers: {detail}",
        zh: "无法启动传输工作线程：{detail}",
    }

    // Why a remote object is refused on pull.
    why_hash(expected: &str, actual: &str) {
        en: "content hash is {actual}, its name says {expected} (corrupted or truncated in the store)",
        zh: "内容哈希为 {actual}，而对象名为 {expected}（对象在存储中已损坏或被截断）",
    }
    why_format(detail: &str) {
        en: "not an entry object of this format: {detail}",
        zh: "不是本格式的条目对象：{detail}",
    }
    why_misplaced(key: &str) {
        en: "holds entry `{key}`, which does not belong at this name or scope",
        zh: "其中的条目 `{key}` 与对象名或范围不符",
    }
    why_binary_format(claimed: &str, actual: &str) {
        en: "its binaries are of binary format {actual}, but it is stored as {claimed} (written by a node that misclassified them, or altered in the store)",
        zh: "其中二进制文件的二进制格式为 {actual}，但存储位置标为 {claimed}（由错误分类的节点写入，或在存储中被改动）",
    }
    why_changed() {
        en: "changed while being pushed; push again",
        zh: "推送期间条目发生了变化；请重新推送",
    }
    why_other_format(fmt_name: &str, own: &str) {
        en: "binary format {fmt_name} is not this node's ({own}): not pulled",
        zh: "二进制格式 {fmt_name} 与本节点的（{own}）不同：未拉取",
    }
    why_format_unknown(fmt_name: &str, all: &str) {
        en: "binary format {fmt_name} not pulled: the store holds several binary formats for this SoC and toolkit ({all}) and this cache has no entry of this SoC to tell which is its own; pass --binary-format",
        zh: "未拉取二进制格式 {fmt_name}：存储中该 SoC 和工具包有多种二进制格式（{all}），而本缓存中没有该 SoC 的条目可用来判断哪种属于本节点；请使用 --binary-format 指定",
    }
    bad_binary_format(fmt_name: &str) {
        en: "`{fmt_name}` is not a binary format name (lower-case letters, digits, `-` and `_`, as `elf64le-em183`; `cache pull` names the formats the store holds)",
        zh: "`{fmt_name}` 不是二进制格式名称（小写字母、数字、`-` 和 `_`，例如 `elf64le-em183`；`cache pull` 会列出存储中已有的格式）",
    }
    why_unusable(detail: &str) {
        en: "the entry cannot be committed: {detail}",
        zh: "条目无法提交：{detail}",
    }
    why_missing() {
        en: "listed in the index but gone from the store",
        zh: "索引中列出，但存储中已不存在",
    }

    // Reports.
    label_pushing() { en: "pushing", zh: "推送" }
    label_pulling() { en: "pulling", zh: "拉取" }
    push_summary(n: u64, bytes: &str, present: u64, store: &str) {
        en: "pushed {n} entries ({bytes}) to {store}; {present} already there",
        zh: "已向 {store} 推送 {n} 个条目（{bytes}）；{present} 个已存在",
    }
    push_dry_summary(n: u64, bytes: &str, present: u64, store: &str) {
        en: "would push {n} entries ({bytes}) to {store}; {present} already there",
        zh: "将向 {store} 推送 {n} 个条目（{bytes}）；{present} 个已存在",
    }
    pull_summary(n: u64, bytes: &str, present: u64, store: &str) {
        en: "pulled {n} entries ({bytes}) from {store}; {present} already here",
        zh: "已从 {store} 拉取 {n} 个条目（{bytes}）；{present} 个本地已有",
    }
    pull_dry_summary(n: u64, bytes: &str, present: u64, store: &str) {
        en: "would pull {n} entries ({bytes}) from {store}; {present} already here",
        zh: "将从 {store} 拉取 {n} 个条目（{bytes}）；{present} 个本地已有",
    }
    scope_line(soc: &str, adk: &str, ops: &str, fmt_name: &str) {
        en: "scope: SoC {soc}, adk_version={adk}, ops_version={ops}, binary format {fmt_name}",
        zh: "范围：SoC {soc}，adk_version={adk}，ops_version={ops}，二进制格式 {fmt_name}",
    }
    refused(object: &str, why: &str) {
        en: "error: refused {object}: {why}",
        zh: "错误：已拒绝 {object}：{why}",
    }
    skipped(key: &str, why: &str) {
        en: "warning: skipped {key}: {why}",
        zh: "警告：已跳过 {key}：{why}",
    }
    other_format(soc: &str, n: u64, why: &str) {
        en: "note: SoC {soc}: {n} objects left in the store: {why}",
        zh: "提示：SoC {soc}：{n} 个对象留在存储中：{why}",
    }
    old_layout(n: u64) {
        en: "note: {n} objects of the first store layout (cce1, which recorded no binary format) were not pulled; a push from a node with these entries stores them anew, and `cache gc --remote` ages the old ones out",
        zh: "提示：{n} 个第一版存储布局（cce1，未记录二进制格式）的对象未拉取；由拥有这些条目的节点重新推送即可按新布局存储，`cache gc --remote` 会老化清除旧对象",
    }
    why_no_soc() {
        en: "not inside a SoC directory, so it has no scope",
        zh: "不在 SoC 目录中，无法划定范围",
    }
    conflicts(n: u64) {
        en: "note: {n} keys have more than one version in the store; the one with the smallest hash was taken, as every node does",
        zh: "提示：{n} 个键在存储中有多个版本；已按所有节点一致的规则选取哈希最小的版本",
    }
    bytes(n: u64, mb: &str) {
        en: "{n} bytes ({mb} MB)",
        zh: "{n} 字节（{mb} MB）",
    }

    // Remote aging.
    gc_summary(n: u64, bytes: &str, store: &str) {
        en: "removed {n} entries ({bytes}) from {store}",
        zh: "已从 {store} 删除 {n} 个条目（{bytes}）",
    }
    gc_dry_summary(n: u64, bytes: &str, store: &str) {
        en: "would remove {n} entries ({bytes}) from {store}",
        zh: "将从 {store} 删除 {n} 个条目（{bytes}）",
    }
    gc_sizes(before: &str, after: &str, entries_before: u64, entries_after: u64, limit: &str, target: &str) {
        en: "size: {before} -> {after} ({entries_before} -> {entries_after} entries); limit {limit}, aging shrinks to {target}",
        zh: "大小：{before} -> {after}（{entries_before} -> {entries_after} 个条目）；上限 {limit}，老化后缩减至 {target}",
    }
    gc_floor() {
        en: "note: every remaining entry was pushed or pulled in the last 30 minutes; the store stays above its retained share",
        zh: "提示：剩余条目均在最近 30 分钟内被推送或拉取；存储大小仍高于保留比例",
    }
    gc_off() {
        en: "aging is off (max_op_cache_size = -1); pass --max-size MB to age the store",
        zh: "老化已关闭（max_op_cache_size = -1）；如需老化该存储，请使用 --max-size MB",
    }
}
