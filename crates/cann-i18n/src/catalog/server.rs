//! Messages of the `server` area: what the language server (`cannctl server`) says itself.

crate::messages! {
    too_large(bytes: usize, cap: usize) {
        en: "this document is {bytes} bytes, over the {cap}-byte limit; it is not checked",
        zh: "该文档有 {bytes} 字节，超过 {cap} 字节的上限，不做检查",
    }
    binary() {
        en: "this document holds NUL bytes (binary data); it is not checked",
        zh: "该文档含有 NUL 字节（二进制数据），不做检查",
    }
    settings_error(place: &str, message: &str) {
        en: "cannctl settings: {place}: {message}",
        zh: "cannctl 设置：{place}：{message}",
    }
    not_checked(reason: &str) {
        en: "not checked: {reason}",
        zh: "未检查：{reason}",
    }
    fix_all() {
        en: "cannctl: apply every safe fix",
        zh: "cannctl：应用全部安全修复",
    }
    client_gone() {
        en: "no LSP client: the input ended before the client's `initialize`; editors start `cannctl server` themselves",
        zh: "没有 LSP 客户端：在客户端发送 `initialize` 之前输入已结束；`cannctl server` 应由编辑器启动",
    }
    stopped(detail: &str) {
        en: "the language server stopped: {detail}",
        zh: "语言服务器已停止：{detail}",
    }
}
