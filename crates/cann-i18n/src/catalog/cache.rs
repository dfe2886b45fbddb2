//! Messages of the `cache` area (`cannctl cache info|gc|verify|clear`). Add entries with
//! [`crate::messages!`]; see the crate docs. Sizes are rendered by `remote::bytes`.

crate::messages! {
    // Opening.
    no_cache(base: &str, kernel_cache: &str) {
        en: "no operator compile cache at `{base}` (missing {kernel_cache})",
        zh: "`{base}` 处没有算子编译缓存（缺少 {kernel_cache}）",
    }

    // Progress bar labels.
    label_scanning() { en: "scanning", zh: "扫描" }
    label_aging() { en: "aging", zh: "老化" }
    label_verifying() { en: "verifying", zh: "校验" }
    label_clearing() { en: "clearing", zh: "清空" }

    /// indicatif's template for the progress bar (its `{{...}}` keys stay as they are).
    progress_template() {
        en: "{{msg}} [{{bar:30}}] {{pos}}/{{len}} entries",
        zh: "{{msg}} [{{bar:30}}] {{pos}}/{{len}} 个条目",
    }

    // Where a limit comes from.
    origin_file(path: &str) { en: "from {path}", zh: "来自 {path}" }
    origin_default() { en: "default", zh: "默认值" }
    place_env(var: &str) { en: "environment {var}", zh: "环境变量 {var}" }
    limit_warning(place: &str, message: &str) {
        en: "warning: {place}: {message}",
        zh: "警告：{place}：{message}",
    }

    // How long ago.
    ago_seconds(n: i64) { en: "{n} s ago", zh: "{n} 秒前" }
    ago_minutes(n: i64) { en: "{n} min ago", zh: "{n} 分钟前" }
    ago_hours(n: i64) { en: "{n} h ago", zh: "{n} 小时前" }
    ago_days(n: i64) { en: "{n} days ago", zh: "{n} 天前" }
    ago_at(rel: &str, unix: i64) { en: "{rel} (unix {unix})", zh: "{rel}（unix 时间 {unix}）" }

    // Which rule chose the cache directory.
    dir_given() {
        en: "op_compiler_cache_dir, given explicitly",
        zh: "op_compiler_cache_dir，显式指定",
    }
    dir_ascend_cache_path() {
        en: "ASCEND_CACHE_PATH, op_compiler_cache_dir unset",
        zh: "ASCEND_CACHE_PATH，未设置 op_compiler_cache_dir",
    }
    dir_home_default() {
        en: "$HOME/atc_data, neither op_compiler_cache_dir nor ASCEND_CACHE_PATH set",
        zh: "$HOME/atc_data，op_compiler_cache_dir 与 ASCEND_CACHE_PATH 均未设置",
    }

    // `cache info`.
    info_dir(path: &str, source: &str) {
        en: "cache directory: {path} ({source})",
        zh: "缓存目录：      {path}（{source}）",
    }
    info_kernel_cache(path: &str) {
        en: "kernel_cache:    {path}",
        zh: "kernel_cache 目录：{path}",
    }
    info_limit(mb: u32, origin: &str) {
        en: "limit:           {mb} MB ({origin})",
        zh: "上限：          {mb} MB（{origin}）",
    }
    info_limit_off(origin: &str) {
        en: "limit:           -1: aging and access-time updates off ({origin})",
        zh: "上限：          -1：不老化，也不更新访问时间（{origin}）",
    }
    info_ratio(percent: u8, origin: &str) {
        en: "retained share:  {percent} % ({origin})",
        zh: "保留比例：      {percent} %（{origin}）",
    }
    info_size(bytes: &str, entries: u64, source: &str) {
        en: "size:            {bytes} in {entries} entries ({source})",
        zh: "大小：          {bytes}，共 {entries} 个条目（{source}）",
    }
    source_ledger() {
        en: "from the ledger; nothing created or removed since",
        zh: "取自记账文件；此后没有文件被创建或删除",
    }
    source_walk() { en: "counted now", zh: "刚刚统计" }
    source_changed(dirs: u64) {
        en: "from the ledger, with the {dirs} directories changed since the last reconcile counted now",
        zh: "取自记账文件，其中上次核对后有变化的 {dirs} 个目录为刚刚统计",
    }
    info_oldest(ago: &str) {
        en: "oldest access:   {ago}",
        zh: "最早访问：      {ago}",
    }
    info_startup(need: &str) {
        en: "start-up check:  {need}",
        zh: "启动检查：      {need}",
    }
    need_no() { en: "no aging needed", zh: "无需老化" }
    need_no_blind(ago: &str, bound: u64) {
        en: "no aging needed as counted {ago}; a file rewritten in place since is not seen (too many files to size at start-up), so after {bound} minutes the answer is \"unknown\"",
        zh: "按 {ago} 的统计无需老化；此后原地改写的文件看不到（文件太多，启动时无法逐一测量），{bound} 分钟后回答将是“未知”",
    }
    need_unknown_stale(ago: &str, bound: u64) {
        en: "unknown: last counted {ago}, more than {bound} minutes ago; files rewritten in place since are not seen (run `cannctl cache gc`)",
        zh: "未知：上次统计在 {ago}，已超过 {bound} 分钟；此后原地改写的文件看不到（请运行 `cannctl cache gc`）",
    }
    info_skipped(n: u64, dirs: &str) {
        en: "warning: {n} directories could not be read and are not counted: {dirs}",
        zh: "警告：{n} 个目录无法读取，未计入统计：{dirs}",
    }
    need_yes() {
        en: "aging needed (run `cannctl cache gc`)",
        zh: "需要老化（请运行 `cannctl cache gc`）",
    }
    need_off() { en: "aging is off", zh: "老化已关闭" }
    need_unknown_foreign() {
        en: "unknown: files were created or removed since the last reconcile (run `cannctl cache gc`)",
        zh: "未知：上次核对之后有文件被创建或删除（请运行 `cannctl cache gc`）",
    }
    need_unknown_unreconciled() {
        en: "unknown: ledger not reconciled yet (run `cannctl cache gc`)",
        zh: "未知：记账文件尚未核对（请运行 `cannctl cache gc`）",
    }
    info_stamps(adk: &str, ops: &str) {
        en: "version stamps:  adk_version={adk} ops_version={ops}",
        zh: "版本标记：      adk_version={adk} ops_version={ops}",
    }
    stamp_none() { en: "(none)", zh: "（无）" }

    // `cache gc`.
    gc_skipped() {
        en: "another process is aging this cache; skipped",
        zh: "另一个进程正在老化此缓存；已跳过",
    }
    gc_removed(n: u64, what: &str, bytes: &str) {
        en: "removed {n} {what} ({bytes})",
        zh: "已删除 {n} 个{what}条目（{bytes}）",
    }
    gc_would_remove(n: u64, what: &str, bytes: &str) {
        en: "would remove {n} {what} ({bytes})",
        zh: "将删除 {n} 个{what}条目（{bytes}）",
    }
    reason_aged() { en: "aged", zh: "过期" }
    reason_invalidated() { en: "invalidated", zh: "已失效" }
    reason_torn() { en: "torn", zh: "不完整" }
    reason_orphan() { en: "orphan", zh: "孤立" }
    reason_temporary() { en: "temporary", zh: "临时" }
    gc_nothing() { en: "nothing to remove", zh: "没有需要删除的内容" }
    gc_sizes(before: &str, after: &str, entries_before: u64, entries_after: u64) {
        en: "size: {before} -> {after} ({entries_before} -> {entries_after} entries)",
        zh: "大小：{before} -> {after}（{entries_before} -> {entries_after} 个条目）",
    }
    gc_floor() {
        en: "note: every remaining entry was used in the last 30 minutes; the cache stays above its retained share",
        zh: "提示：剩余条目均在最近 30 分钟内被使用过；缓存大小仍高于保留比例",
    }

    // Why an entry cannot be served.
    why_dir_unreadable(detail: &str) {
        en: "its directory cannot be read ({detail})",
        zh: "所在目录无法读取（{detail}）",
    }
    why_manifest_unreadable() { en: "its manifest cannot be read", zh: "清单文件无法读取" }
    why_manifest_invalid(detail: &str) {
        en: "its manifest is not valid (the parser says: {detail})",
        zh: "清单文件无效（解析器信息：{detail}）",
    }
    why_manifest_bad_name(name: &str) {
        en: "its manifest names `{name}`, which is not a plain file name in its directory",
        zh: "清单文件引用了 `{name}`，它不是所在目录中的普通文件名",
    }
    why_size_mismatch(file: &str, bytes: u64, expected: u64) {
        en: "{file} holds {bytes} bytes, the manifest says {expected}",
        zh: "{file} 有 {bytes} 字节，而清单记录为 {expected} 字节",
    }
    why_not_regular(file: &str) {
        en: "{file} is not a regular file",
        zh: "{file} 不是普通文件",
    }
    why_missing(file: &str) { en: "{file} is missing", zh: "缺少 {file}" }

    // `cache verify`.
    verify_torn(rel: &str, why: &str) {
        en: "error: torn entry {rel}: {why}",
        zh: "错误：条目 {rel} 不完整：{why}",
    }
    verify_in_progress(rel: &str, why: &str) {
        en: "warning: entry {rel} incomplete but written within the last minute (probably being compiled): {why}",
        zh: "警告：条目 {rel} 不完整，但在最近一分钟内写入过（可能正在编译）：{why}",
    }
    verify_raw_manifest(path: &str) {
        en: "warning: manifest {path} has a name that is not UTF-8 (counted with its files; served and aged by CANN only)",
        zh: "警告：清单 {path} 的名称不是 UTF-8（连同其文件计入统计；仅由 CANN 使用和老化）",
    }
    verify_orphan(path: &str) {
        en: "warning: orphaned file {path} (no manifest names it)",
        zh: "警告：孤立文件 {path}（没有清单引用它）",
    }
    verify_temporary(path: &str) {
        en: "warning: unfinished commit {path}",
        zh: "警告：未完成的提交 {path}",
    }
    verify_foreign(kind: &str, path: &str) {
        en: "warning: foreign {kind} {path} (never followed)",
        zh: "警告：外来的{kind} {path}（从不跟随）",
    }
    verify_ledger_stale() {
        en: "note: size ledger out of date; the next gc reconciles it",
        zh: "提示：大小记账已过期；下一次 gc 会重新核对",
    }
    verify_summary(entries: u64, bytes: &str, torn: u64, orphans: u64, temporaries: u64, foreign: u64) {
        en: "{entries} entries, {bytes}, {torn} torn, {orphans} orphaned, {temporaries} temporary, {foreign} foreign",
        zh: "{entries} 个条目，{bytes}，{torn} 个不完整，{orphans} 个孤立，{temporaries} 个临时，{foreign} 个外来",
    }

    // `cache clear`.
    clear_summary(files: u64, bytes: &str, links: u64, dirs: u64) {
        en: "removed {files} files ({bytes}), {links} links, {dirs} directories",
        zh: "已删除 {files} 个文件（{bytes}）、{links} 个链接、{dirs} 个目录",
    }
    clear_kept(n: u64) {
        en: "kept {n} files written within the last minute (commits under way; gc removes them if unclaimed)",
        zh: "保留了最近一分钟内写入的 {n} 个文件（提交尚在进行；若无人认领，gc 会删除它们）",
    }

    // Errors of the cache library (`CacheError`).
    bad_path_char(path: &str, ch: &str, column: usize, allowed: &str) {
        en: "cache directory `{path}` contains `{ch}` at character {column}; allowed are {allowed}",
        zh: "缓存目录 `{path}` 的第 {column} 个字符 `{ch}` 不被允许；允许的字符为 {allowed}",
    }
    non_utf8_path(path: &str) {
        en: "cache directory `{path}` is not valid UTF-8",
        zh: "缓存目录 `{path}` 不是有效的 UTF-8",
    }
    no_directory() {
        en: "no cache directory: op_compiler_cache_dir is unset, ASCEND_CACHE_PATH is unset and HOME is unset",
        zh: "没有缓存目录：op_compiler_cache_dir、ASCEND_CACHE_PATH 与 HOME 均未设置",
    }
    bad_key(key: &str, why: &str) {
        en: "invalid cache key `{key}`: {why}",
        zh: "无效的缓存键 `{key}`：{why}",
    }
    key_length() { en: "must be 1 to 1024 bytes", zh: "长度须为 1 到 1024 字节" }
    key_empty_component() { en: "empty path component", zh: "路径中有空的组成部分" }
    key_hidden_component() {
        en: "components may not start with `.`",
        zh: "组成部分不能以 `.` 开头",
    }
    key_long_component() {
        en: "a component is longer than 200 bytes",
        zh: "有组成部分超过 200 字节",
    }
    key_bad_char() {
        en: "only a-z A-Z 0-9 _ - . and `/` are allowed",
        zh: "只允许 a-z A-Z 0-9 _ - . 和 `/`",
    }
    key_empty() { en: "empty", zh: "为空" }
    key_mix_part() {
        en: "`_mix_aic`/`_mix_aiv` names are parts of an entry, not entries",
        zh: "`_mix_aic`/`_mix_aiv` 名称是条目的组成部分，不是条目",
    }
    key_manifest_names_missing() {
        en: "the manifest names files that are not in the entry, or is not JSON",
        zh: "清单引用了条目中没有的文件，或不是 JSON",
    }
    key_unnamed_files() {
        en: "the entry holds files its manifest does not name",
        zh: "条目中有清单未引用的文件",
    }
    key_bad_named_file() {
        en: "a named file is hidden, the manifest itself, or not a plain name",
        zh: "清单引用的文件是隐藏文件、清单本身或不是普通文件名",
    }
    key_bad_suffix() {
        en: "suffix must be a plain file-name ending",
        zh: "后缀必须是普通的文件名结尾",
    }
    symlink_inside(path: &str) {
        en: "`{path}` is a symbolic link inside the cache; refusing to follow it",
        zh: "`{path}` 是缓存内的符号链接，拒绝跟随",
    }
    /// `op` is one of the `op_*` phrases below.
    io_failed(op: &str, path: &str, reason: &str) {
        en: "{op} `{path}`: {reason}",
        zh: "无法{op}：`{path}`（{reason}）",
    }
    opened_read_only(path: &str) {
        en: "`{path}` was opened read-only (for `info` and `verify`); changing it needs write access",
        zh: "`{path}` 以只读方式打开（用于 `info` 与 `verify`）；修改它需要写权限",
    }
    clear_busy(path: &str) {
        en: "clear `{path}`: another process is aging this cache; try again",
        zh: "无法清空 `{path}`：另一个进程正在老化此缓存，请稍后重试",
    }
    ini_unstable(path: &str) {
        en: "create `{path}`: op_cache.ini keeps appearing and vanishing",
        zh: "无法创建 `{path}`：op_cache.ini 反复出现又消失",
    }
    commit_aborted(step: &str) {
        en: "commit aborted by fault hook at {step}",
        zh: "提交在 {step} 处被故障注入钩子中止",
    }

    // What the cache was doing when a system call failed (the `op` of `io_failed`).
    op_scan() { en: "scan", zh: "扫描" }
    op_read_directory() { en: "read directory", zh: "读取目录" }
    op_create_directory() { en: "create directory", zh: "创建目录" }
    op_create_directory_in() { en: "create directory in", zh: "在其中创建目录" }
    op_open() { en: "open", zh: "打开" }
    op_open_state_in() { en: "open state in", zh: "打开其中的状态文件" }
    op_open_directory_of() { en: "open directory of", zh: "打开所在目录" }
    op_write() { en: "write", zh: "写入" }
    op_replace() { en: "replace", zh: "替换" }
    op_remove() { en: "remove", zh: "删除" }
    op_remove_stale_manifest_in() { en: "remove stale manifest in", zh: "删除其中过期的清单" }
    op_read_ledger_in() { en: "read ledger in", zh: "读取其中的大小记账" }
    op_write_ledger_in() { en: "write ledger in", zh: "写入其中的大小记账" }
    op_lock_ledger_in() { en: "lock ledger in", zh: "锁定其中的大小记账" }
    op_lock_gc_in() { en: "lock gc in", zh: "获取其中的老化锁" }
    op_read_index_in() { en: "read index in", zh: "读取其中的索引" }
    op_rewrite_index_in() { en: "rewrite index in", zh: "重写其中的索引" }
    op_append_index_in() { en: "append index in", zh: "追加其中的索引" }
    op_record_directories_in() { en: "record directories in", zh: "记录其中的目录列表" }
    op_record_loose_files_in() { en: "record loose files in", zh: "记录其中的散落文件" }
    op_write_binary_in() { en: "write binary in", zh: "在其中写入二进制文件" }
    op_rename_binary_in() { en: "rename binary in", zh: "在其中重命名二进制文件" }
    op_write_file_in() { en: "write file in", zh: "在其中写入文件" }
    op_rename_file_in() { en: "rename file in", zh: "在其中重命名文件" }
    op_write_manifest_in() { en: "write manifest in", zh: "在其中写入清单" }
    op_commit_manifest_in() { en: "commit manifest in", zh: "在其中提交清单" }
    op_sync_file_in() { en: "sync file in", zh: "同步其中的文件" }
    op_sync_directory_in() { en: "sync directory in", zh: "同步目录" }
}
