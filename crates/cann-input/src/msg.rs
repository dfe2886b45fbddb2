//! Every text this crate shows a user, in English and Chinese, in one place (to move into
//! the shared message catalog's `input` area when it exists).

use crate::{display_name, FileKind, InputError};

/// The language of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

pub(crate) fn kind(k: FileKind, lang: Lang) -> &'static str {
    use FileKind::*;
    match (lang, k) {
        (Lang::En, Directory) => "a directory",
        (Lang::En, Fifo) => "a FIFO (named pipe)",
        (Lang::En, CharDevice) => "a character device",
        (Lang::En, BlockDevice) => "a block device",
        (Lang::En, Socket) => "a socket",
        (Lang::En, Symlink) => "a symbolic link",
        (Lang::En, Other) => "a special file",
        (Lang::Zh, Directory) => "目录",
        (Lang::Zh, Fifo) => "FIFO（命名管道）",
        (Lang::Zh, CharDevice) => "字符设备",
        (Lang::Zh, BlockDevice) => "块设备",
        (Lang::Zh, Socket) => "套接字",
        (Lang::Zh, Symlink) => "符号链接",
        (Lang::Zh, Other) => "特殊文件",
    }
}

/// `path[:line:column]: reason`, the way compilers place a message.
pub(crate) fn message(e: &InputError, lang: Lang) -> String {
    let p = display_name(e.path());
    match e.position() {
        Some(at) => format!("{p}:{}:{}: {}", at.line, at.column, reason(e, lang)),
        None => format!("{p}: {}", reason(e, lang)),
    }
}

/// What is wrong, without the path, for callers that place the message themselves.
pub(crate) fn reason(e: &InputError, lang: Lang) -> String {
    match (lang, e) {
        (Lang::En, InputError::Open { source, .. }) => format!("cannot open: {source}"),
        (Lang::Zh, InputError::Open { source, .. }) => format!("无法打开：{source}"),
        (Lang::En, InputError::NotRegular { kind: k, .. }) => {
            format!("{}, not a regular file", kind(*k, lang))
        }
        (Lang::Zh, InputError::NotRegular { kind: k, .. }) => {
            format!("这是{}，不是普通文件", kind(*k, lang))
        }
        (Lang::En, InputError::TooLarge { limit, .. }) => {
            format!(
                "larger than {limit} bytes, the most this input may hold; reading stopped there"
            )
        }
        (Lang::Zh, InputError::TooLarge { limit, .. }) => {
            format!("超过 {limit} 字节（此类输入的上限），已停止读取")
        }
        (Lang::En, InputError::Read { source, .. }) => format!("cannot read: {source}"),
        (Lang::Zh, InputError::Read { source, .. }) => format!("无法读取：{source}"),
        (Lang::En, InputError::NotUtf8 { at, .. }) => {
            format!("not UTF-8 text (first bad byte at offset {})", at.offset)
        }
        (Lang::Zh, InputError::NotUtf8 { at, .. }) => {
            format!("不是 UTF-8 文本（第一个无效字节位于偏移 {}）", at.offset)
        }
    }
}

pub(crate) fn hint(e: &InputError, lang: Lang) -> Option<&'static str> {
    Some(match (lang, e) {
        (
            Lang::En,
            InputError::NotRegular {
                kind: FileKind::Symlink,
                ..
            },
        ) => "links are not followed here; pass the file the link points to",
        (
            Lang::Zh,
            InputError::NotRegular {
                kind: FileKind::Symlink,
                ..
            },
        ) => "此处不跟随符号链接；请传入链接指向的文件",
        (
            Lang::En,
            InputError::NotRegular {
                kind: FileKind::Directory,
                ..
            },
        ) => "pass a file inside the directory",
        (
            Lang::Zh,
            InputError::NotRegular {
                kind: FileKind::Directory,
                ..
            },
        ) => "请传入该目录中的某个文件",
        (Lang::En, InputError::NotRegular { .. }) => {
            "pass a regular file; to read from a pipe, pass `-` and redirect the pipe to standard input"
        }
        (Lang::Zh, InputError::NotRegular { .. }) => {
            "请传入普通文件；如需从管道读取，请传入 `-` 并将管道重定向到标准输入"
        }
        (Lang::En, InputError::TooLarge { .. }) => "check that this is the right file",
        (Lang::Zh, InputError::TooLarge { .. }) => "请确认这是正确的文件",
        (Lang::En, InputError::NotUtf8 { .. }) => "save the file as UTF-8",
        (Lang::Zh, InputError::NotUtf8 { .. }) => "请将文件另存为 UTF-8 编码",
        _ => return None,
    })
}
