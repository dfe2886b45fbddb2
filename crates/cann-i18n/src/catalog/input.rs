//! Messages of the `input` area: why a file was not read (the input layer, `cann-input`).

crate::messages! {
    // What a path is, when it is not a regular file.
    kind_directory() { en: "a directory", zh: "目录" }
    kind_fifo() { en: "a FIFO (named pipe)", zh: "FIFO（命名管道）" }
    kind_char_device() { en: "a character device", zh: "字符设备" }
    kind_block_device() { en: "a block device", zh: "块设备" }
    kind_socket() { en: "a socket", zh: "套接字" }
    kind_symlink() { en: "a symbolic link", zh: "符号链接" }
    kind_other() { en: "a special file", zh: "特殊文件" }

    // Reasons, without the path.
    cannot_open(reason: &str) { en: "cannot open: {reason}", zh: "无法打开：{reason}" }
    not_regular(kind: &str) {
        en: "{kind}, not a regular file",
        zh: "这是{kind}，不是普通文件",
    }
    too_large(limit: u64) {
        en: "larger than {limit} bytes, the most this input may hold; reading stopped there",
        zh: "超过 {limit} 字节（此类输入的上限），已停止读取",
    }
    cannot_read(reason: &str) { en: "cannot read: {reason}", zh: "无法读取：{reason}" }
    not_utf8(offset: u64) {
        en: "not UTF-8 text (first bad byte at offset {offset})",
        zh: "不是 UTF-8 文本（第一个无效字节位于偏移 {offset}）",
    }

    // I/O reasons we have words for; others keep the system's text.
    io_not_found() { en: "no such file or directory", zh: "文件或目录不存在" }
    io_permission_denied() { en: "permission denied", zh: "没有访问权限" }
    io_is_a_directory() { en: "it is a directory", zh: "这是一个目录" }
    io_not_a_directory() {
        en: "a part of the path is not a directory",
        zh: "路径中的某一级不是目录",
    }
    io_already_exists() { en: "it already exists", zh: "已存在" }
    io_read_only() { en: "the file system is read-only", zh: "文件系统为只读" }
    io_storage_full() { en: "no space left on the device", zh: "设备上没有剩余空间" }
    io_quota_exceeded() { en: "the disk quota is used up", zh: "磁盘配额已用完" }
    io_file_too_large() { en: "the file is too large for the file system", zh: "文件超出文件系统允许的大小" }
    io_busy() { en: "the resource is busy", zh: "资源正忙" }
    io_invalid_filename() {
        en: "the name is not valid (too long, or holds a character the system refuses)",
        zh: "名称无效（过长，或含有系统不接受的字符）",
    }
    io_too_many_links() { en: "the file has too many hard links", zh: "文件的硬链接过多" }
    io_link_loop() {
        en: "too many levels of symbolic links (a loop?)",
        zh: "符号链接层级过多（可能存在循环）",
    }
    io_stale_handle() {
        en: "the network file handle is stale (the file changed on the server)",
        zh: "网络文件句柄已失效（服务器上的文件已改变）",
    }
    io_timed_out() { en: "the operation timed out", zh: "操作超时" }
    io_interrupted() { en: "the operation was interrupted", zh: "操作被中断" }
    io_unexpected_eof() { en: "the file ended early", zh: "文件意外结束" }
    io_out_of_memory() { en: "out of memory", zh: "内存不足" }
    io_unsupported() {
        en: "the operation is not supported here",
        zh: "此处不支持该操作",
    }
    /// Kinds the catalog has no words for: the system's own text, as a detail.
    io_other(detail: &str) {
        en: "input/output error ({detail})",
        zh: "输入输出错误（系统信息：{detail}）",
    }

    // Hints.
    symlink_hint() {
        en: "links are not followed here; pass the file the link points to",
        zh: "此处不跟随符号链接；请传入链接指向的文件",
    }
    directory_hint() {
        en: "pass a file inside the directory",
        zh: "请传入该目录中的某个文件",
    }
    special_file_hint() {
        en: "pass a regular file; to read from a pipe, pass `-` and redirect the pipe to standard input",
        zh: "请传入普通文件；如需从管道读取，请传入 `-` 并将管道重定向到标准输入",
    }
    too_large_hint() {
        en: "check that this is the right file",
        zh: "请确认这是正确的文件",
    }
    not_utf8_hint() {
        en: "save the file as UTF-8",
        zh: "请将文件另存为 UTF-8 编码",
    }
}
