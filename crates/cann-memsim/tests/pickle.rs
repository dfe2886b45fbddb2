//! The pickle decoder on hand-written opcode streams: memo sharing, cycles, budgets, lengths
//! and integers as Python's pickle writes them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cann_memsim::pickle::{decode, decode_with, Node};

#[test]
fn shared_memo_entries_are_one_object() {
    // {"a": [1], "b": <memo 1>}, as pickle.dumps(protocol=4) writes a shared list.
    let p = b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x01a\x94]\x94K\x01a\x8c\x01b\x94h\x02u.";
    let pk = decode(p).unwrap();
    let Node::Dict(kv) = pk.node(pk.root) else {
        panic!("{:?}", pk.node(pk.root))
    };
    assert_eq!(kv.len(), 2);
    assert_eq!(kv[0].1, kv[1].1);
    let Node::List(items) = pk.node(kv[0].1) else {
        panic!("{:?}", pk.node(kv[0].1))
    };
    assert_eq!(
        items.iter().map(|&i| pk.node(i)).collect::<Vec<_>>(),
        [&Node::Int(1)]
    );
}

#[test]
fn deep_nesting_is_refused_with_an_offset() {
    let mut p = vec![0x80, 4];
    p.extend(std::iter::repeat_n(b']', 20_000));
    p.extend(std::iter::repeat_n(b'a', 19_999));
    p.push(b'.');
    let e = decode(&p).unwrap_err();
    assert!(e.message.contains("nested more than 256"), "{e}");
    assert!(e.offset > 20_000, "{e}");

    let mut p = vec![0x80, 2];
    p.extend(std::iter::repeat_n(b'(', 20_000));
    let e = decode(&p).unwrap_err();
    assert!(e.message.contains("MARK"), "{e}");
    assert_eq!(e.offset, 2 + 256);
}

#[test]
fn object_budget_is_enforced() {
    let mut p = vec![0x80, 4, b']', b'('];
    p.extend(std::iter::repeat_n(b'N', 100));
    p.extend([b'e', b'.']);
    let e = decode_with(&p, 256, 50).unwrap_err();
    assert!(e.message.contains("more than 50 objects"), "{e}");
}

#[test]
fn lengths_past_the_end_are_refused_before_allocating() {
    let e = decode(b"\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7f").unwrap_err();
    assert!(e.message.contains("only 0 are left"), "{e}");
    assert_eq!(e.offset, 2);
}

#[test]
fn long_integers_sign_extend() {
    // 2**64 - 1 needs nine bytes; -1 one.
    let pk = decode(b"\x80\x02\x8a\x09\xff\xff\xff\xff\xff\xff\xff\xff\x00.").unwrap();
    assert_eq!(pk.node(pk.root), &Node::Int(i128::from(u64::MAX)));
    let pk = decode(b"\x80\x02\x8a\x01\xff.").unwrap();
    assert_eq!(pk.node(pk.root), &Node::Int(-1));
}

#[test]
fn a_self_containing_list_is_a_cycle() {
    let pk = decode(b"\x80\x04]\x94h\x00a.").unwrap();
    assert_eq!(pk.node(pk.root), &Node::List(vec![pk.root]));
}
