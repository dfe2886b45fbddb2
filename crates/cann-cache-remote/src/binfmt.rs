//! What an entry's binaries are, as a short name that is a path component of its scope.
//!
//! A kernel binary compiled for one machine is of no use to another, and a cache that
//! serves it fails only when the kernel is loaded. Entries are scoped by the format of their
//! binaries so that a node never pulls a binary its own entries are not made of.
//!
//! For an ELF file the name is its class, byte order and machine, read from the fixed start
//! of the ELF header (System V gABI, "ELF Header"; the constants as glibc's `<elf.h>` names
//! them): `e_ident[0..4]` is `\x7fELF`, `e_ident[EI_CLASS = 4]` is 1 (`ELFCLASS32`) or 2
//! (`ELFCLASS64`), `e_ident[EI_DATA = 5]` is 1 (`ELFDATA2LSB`) or 2 (`ELFDATA2MSB`), and
//! `e_machine` is the 16-bit field at offset 18 (after the 16 bytes of `e_ident` and the
//! 2 of `e_type`), in that byte order. Those 20 bytes are all this reads, so a hand parse
//! is enough and no ELF crate is needed. `elf64le-em183` is a 64-bit little-endian AArch64
//! (`EM_AARCH64` = 183) object, `elf64le-em62` an x86-64 one (`EM_X86_64` = 62).
//!
//! Anything else gets a coarse kind: `elf-other` (ELF magic, unknown class or byte order,
//! or cut short), `empty`, `text` (UTF-8 without NUL in its first [`HEAD`] bytes) or
//! `data`. An entry's format joins its binaries' distinct formats in sorted order with `_`
//! (a mixed kernel whose parts are of one machine has one), `none` without any binary.

/// Bytes of a binary's start the classification reads.
pub const HEAD: usize = 64;

/// The format of one binary, from its first bytes (at least [`HEAD`] when it has them).
pub fn binary_format(head: &[u8]) -> String {
    if let Some(id) = head.strip_prefix(b"\x7fELF") {
        let class = match id.first() {
            Some(1) => "32",
            Some(2) => "64",
            _ => return "elf-other".to_owned(),
        };
        let (order, le) = match id.get(1) {
            Some(1) => ("le", true),
            Some(2) => ("be", false),
            _ => return "elf-other".to_owned(),
        };
        let (Some(&a), Some(&b)) = (head.get(18), head.get(19)) else {
            return "elf-other".to_owned();
        };
        let machine = if le {
            u16::from_le_bytes([a, b])
        } else {
            u16::from_be_bytes([a, b])
        };
        return format!("elf{class}{order}-em{machine}");
    }
    let head = &head[..head.len().min(HEAD)];
    if head.is_empty() {
        return "empty".to_owned();
    }
    // A multi-byte character cut by the end of the head is still text.
    let utf8 = match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    };
    if utf8 && !head.contains(&0) {
        "text".to_owned()
    } else {
        "data".to_owned()
    }
}

/// The format of an entry whose binaries start with `heads`.
pub fn entry_format<'a>(heads: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut all: Vec<String> = heads.into_iter().map(binary_format).collect();
    all.sort();
    all.dedup();
    if all.is_empty() {
        return "none".to_owned();
    }
    all.join("_")
}

/// True for a name [`entry_format`] can return (what a listing may offer as a scope).
pub fn is_format_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 200
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first 20 bytes of an ELF header: e_ident, e_type (ET_REL), e_machine.
    fn elf(class: u8, data: u8, machine: u16) -> Vec<u8> {
        let mut b = vec![0x7f, b'E', b'L', b'F', class, data, 1];
        b.resize(16, 0);
        let (t, m) = if data == 2 {
            (1u16.to_be_bytes(), machine.to_be_bytes())
        } else {
            (1u16.to_le_bytes(), machine.to_le_bytes())
        };
        b.extend(t);
        b.extend(m);
        b.extend([0xab; 40]);
        b
    }

    #[test]
    fn elf_headers() {
        assert_eq!(binary_format(&elf(2, 1, 183)), "elf64le-em183");
        assert_eq!(binary_format(&elf(2, 1, 62)), "elf64le-em62");
        assert_eq!(binary_format(&elf(1, 2, 8)), "elf32be-em8");
        assert_eq!(binary_format(&elf(3, 1, 62)), "elf-other");
        assert_eq!(binary_format(&elf(2, 0, 62)), "elf-other");
        assert_eq!(binary_format(&elf(2, 1, 62)[..19]), "elf-other");
        // The same machine in the other byte order is another format.
        assert_ne!(
            binary_format(&elf(2, 2, 183)),
            binary_format(&elf(2, 1, 183))
        );
    }

    #[test]
    fn other_kinds_and_entries() {
        assert_eq!(binary_format(b""), "empty");
        assert_eq!(binary_format(b"{\"k\": 1}\n"), "text");
        assert_eq!(binary_format("算子".as_bytes()), "text");
        assert_eq!(binary_format(&"算".as_bytes()[..2]), "text");
        assert_eq!(binary_format(b"\x00\x01\x02"), "data");
        assert_eq!(binary_format(b"\xff\xfe"), "data");
        let (a, x) = (elf(2, 1, 183), elf(2, 1, 62));
        assert_eq!(entry_format([a.as_slice(), a.as_slice()]), "elf64le-em183");
        assert_eq!(
            entry_format([a.as_slice(), x.as_slice()]),
            "elf64le-em183_elf64le-em62"
        );
        assert_eq!(entry_format([]), "none");
        for f in ["elf64le-em183_elf64le-em62", "none", "elf-other", "data"] {
            assert!(is_format_name(f), "{f}");
        }
        assert!(!is_format_name("../x") && !is_format_name("") && !is_format_name("A"));
    }
}
