//! What the input layer reads and what it refuses, on real files, pipes, devices and sockets.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use cann_input::{
    decode_utf8, position_of, read_bytes, read_capped, read_text, FileKind, InputError, Lang,
    Limits,
};

const CAP: Limits = Limits::new(1024);

fn kind_of(r: Result<Vec<u8>, InputError>) -> FileKind {
    match r {
        Err(InputError::NotRegular { kind, .. }) => kind,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_regular_file_is_read_whole() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("a.yaml");
    std::fs::write(&p, "product: x\n").unwrap();
    assert_eq!(read_text(&p, CAP).unwrap(), "product: x\n");
}

#[test]
fn a_file_of_exactly_the_cap_is_read_and_one_byte_more_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("a");
    std::fs::write(&p, vec![b'a'; 1024]).unwrap();
    assert_eq!(read_bytes(&p, CAP).unwrap().len(), 1024);
    std::fs::write(&p, vec![b'a'; 1025]).unwrap();
    let e = read_bytes(&p, CAP).unwrap_err();
    assert!(
        matches!(e, InputError::TooLarge { limit: 1024, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("1024 bytes"), "{e}");
}

#[test]
fn the_cap_holds_on_bytes_read_not_on_the_reported_size() {
    // An endless reader reports no size at all, as /dev/zero and /proc files do.
    let e = read_capped(std::io::repeat(0), Path::new("endless"), 4096, 0).unwrap_err();
    assert!(
        matches!(e, InputError::TooLarge { limit: 4096, .. }),
        "{e:?}"
    );
    // A /proc file reports size 0 and is still read, under the cap.
    let status = read_text(Path::new("/proc/self/status"), Limits::new(1 << 20)).unwrap();
    assert!(status.contains("Name:"));
    let e = read_bytes(Path::new("/proc/self/status"), Limits::new(8)).unwrap_err();
    assert!(matches!(e, InputError::TooLarge { .. }), "{e:?}");
}

#[test]
fn devices_are_refused_without_reading() {
    assert_eq!(
        kind_of(read_bytes(Path::new("/dev/zero"), CAP)),
        FileKind::CharDevice
    );
    assert_eq!(
        kind_of(read_bytes(Path::new("/dev/null"), CAP)),
        FileKind::CharDevice
    );
}

#[test]
fn a_fifo_without_a_writer_is_refused_not_waited_on() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("pipe");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &p,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        0,
    )
    .unwrap();
    assert_eq!(kind_of(read_bytes(&p, CAP)), FileKind::Fifo);
    assert_eq!(kind_of(read_bytes(&p, CAP.no_follow())), FileKind::Fifo);
}

#[test]
fn a_directory_and_a_socket_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let e = read_bytes(t.path(), CAP).unwrap_err();
    assert_eq!(kind_of(Err(e)), FileKind::Directory);
    let s = t.path().join("sock");
    let _l = std::os::unix::net::UnixListener::bind(&s).unwrap();
    assert_eq!(kind_of(read_bytes(&s, CAP)), FileKind::Socket);
}

#[test]
fn a_symlink_is_followed_unless_the_caller_says_not_to() {
    let t = tempfile::tempdir().unwrap();
    let target = t.path().join("real");
    std::fs::write(&target, "x").unwrap();
    let link = t.path().join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    assert_eq!(read_bytes(&link, CAP).unwrap(), b"x");
    let e = read_bytes(&link, CAP.no_follow()).unwrap_err();
    assert!(e.hint(Lang::En).unwrap().contains("not followed"));
    assert_eq!(kind_of(Err(e)), FileKind::Symlink);
    // A link to a device is refused as the device when links are followed.
    let dev = t.path().join("zero");
    std::os::unix::fs::symlink("/dev/zero", &dev).unwrap();
    assert_eq!(kind_of(read_bytes(&dev, CAP)), FileKind::CharDevice);
}

#[test]
fn a_missing_file_is_an_open_error_callers_can_recognise() {
    let e = read_bytes(Path::new("/nonexistent/x.yaml"), CAP).unwrap_err();
    assert!(e.is_not_found(), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("/nonexistent/x.yaml: cannot open: "),
        "{e}"
    );
}

#[test]
fn bad_utf8_is_placed_by_offset_line_and_column() {
    let e = decode_utf8(Path::new("c.yaml"), b"ab\ncd\xffe".to_vec(), true).unwrap_err();
    let at = e.position().unwrap();
    assert_eq!((at.offset, at.line, at.column), (5, 2, 3));
    assert_eq!(
        e.to_string(),
        "c.yaml:2:3: not UTF-8 text (first bad byte at offset 5)"
    );
    assert!(e
        .message(Lang::Zh)
        .starts_with("c.yaml:2:3: 不是 UTF-8 文本"));
    assert_eq!(
        e.reason(Lang::En),
        "not UTF-8 text (first bad byte at offset 5)"
    );
    // Columns count characters, so a caret after CJK text lands on the bad byte.
    let e = decode_utf8(Path::new("c"), "中文".bytes().chain([0xC3]).collect(), true).unwrap_err();
    let at = e.position().unwrap();
    assert_eq!((at.offset, at.line, at.column), (6, 1, 3));
}

#[test]
fn a_byte_order_mark_is_dropped_and_offsets_still_count_it() {
    let with_bom = [cann_input::BOM, b"k: v\n"].concat();
    assert_eq!(
        decode_utf8(Path::new("c"), with_bom.clone(), true).unwrap(),
        "k: v\n"
    );
    assert_eq!(
        decode_utf8(Path::new("c"), with_bom, false).unwrap(),
        "\u{feff}k: v\n"
    );
    let bad = [cann_input::BOM, b"\xff"].concat();
    let at = decode_utf8(Path::new("c"), bad, true)
        .unwrap_err()
        .position()
        .unwrap();
    assert_eq!((at.offset, at.line, at.column), (3, 1, 1));
}

#[test]
fn positions_clamp_to_the_end() {
    let p = position_of(b"a\nb", 99);
    assert_eq!((p.offset, p.line, p.column), (3, 2, 2));
}

#[test]
fn every_refusal_reads_in_chinese_too() {
    let e = read_bytes(Path::new("/dev/zero"), CAP).unwrap_err();
    assert_eq!(e.message(Lang::Zh), "/dev/zero: 这是字符设备，不是普通文件");
    assert_eq!(
        e.to_string(),
        "/dev/zero: a character device, not a regular file"
    );
    assert!(e.hint(Lang::Zh).unwrap().contains("标准输入"));
}
