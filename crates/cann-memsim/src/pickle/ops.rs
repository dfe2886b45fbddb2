//! The opcode loop: one arm per opcode, each under the decoder's budgets.

use super::{Decoder, Id, Node, PickleError, Slot};

impl Decoder<'_> {
    pub(super) fn run(&mut self) -> Result<Id, PickleError> {
        loop {
            self.at = self.pos;
            let Some(&op) = self.data.get(self.pos) else {
                return self.err("the pickle ends without a STOP opcode");
            };
            self.pos += 1;
            match op {
                0x80 => {
                    let p = self.le(1)?;
                    if p > 5 {
                        return self.err(format!("pickle protocol {p}; protocols 0 to 5 are read"));
                    }
                }
                // FRAME: a length hint for buffered readers; the data follows inline.
                0x95 => {
                    self.le(8)?;
                }
                b'.' => {
                    let root = self.pop()?;
                    return Ok(root);
                }
                b'(' => {
                    if self.marks as u32 >= self.max_depth {
                        return self.err(format!(
                            "more than {} open MARKs; a torch memory snapshot nests about 8",
                            self.max_depth
                        ));
                    }
                    self.marks += 1;
                    self.stack.push(Slot::Mark);
                }
                b'0' => match self.stack.pop() {
                    Some(Slot::Mark) => self.marks -= 1,
                    Some(Slot::Obj(_)) => {}
                    None => return self.err("POP on an empty stack"),
                },
                b'1' => {
                    self.pop_mark()?;
                }
                b'2' => {
                    let id = self.top()?;
                    self.stack.push(Slot::Obj(id));
                }
                b'N' => self.push(Node::None)?,
                0x88 => self.push(Node::Bool(true))?,
                0x89 => self.push(Node::Bool(false))?,
                b'J' => {
                    let v = self.le(4)? as u32 as i32;
                    self.push(Node::Int(i128::from(v)))?;
                }
                b'K' => {
                    let v = self.le(1)?;
                    self.push(Node::Int(i128::from(v)))?;
                }
                b'M' => {
                    let v = self.le(2)?;
                    self.push(Node::Int(i128::from(v)))?;
                }
                0x8a => {
                    let n = self.len(1)?;
                    self.long(n)?;
                }
                0x8b => {
                    let n = self.len(4)?;
                    self.long(n)?;
                }
                b'I' | b'L' => {
                    let s = self.line()?.trim_end_matches('L').to_owned();
                    let node = match s.as_str() {
                        "00" => Node::Bool(false),
                        "01" => Node::Bool(true),
                        _ => match s.parse::<i128>() {
                            Ok(v) => Node::Int(v),
                            Err(_) if s.bytes().all(|b| b.is_ascii_digit() || b == b'-') => {
                                Node::BigInt
                            }
                            Err(_) => return self.err(format!("`{s}` is not an integer")),
                        },
                    };
                    self.push(node)?;
                }
                b'G' => {
                    let b = self.take(8)?;
                    let mut a = [0u8; 8];
                    a.copy_from_slice(b);
                    self.push(Node::Float(f64::from_be_bytes(a)))?;
                }
                b'F' => {
                    let s = self.line()?.to_owned();
                    match s.parse::<f64>() {
                        Ok(v) => self.push(Node::Float(v))?,
                        Err(_) => return self.err(format!("`{s}` is not a float")),
                    }
                }
                0x8c => {
                    let n = self.len(1)?;
                    self.string(n)?;
                }
                b'X' => {
                    let n = self.len(4)?;
                    self.string(n)?;
                }
                0x8d => {
                    let n = self.len(8)?;
                    self.string(n)?;
                }
                // Protocol 0 text (`UNICODE`, `STRING`): kept as written; snapshots never
                // use them, and the escapes do not matter to the fields read.
                b'V' | b'S' => {
                    let s: Box<str> = self.line()?.into();
                    self.push(Node::Str(s))?;
                }
                // Python 2 byte strings, and bytes.
                b'U' | b'C' => {
                    let n = self.len(1)?;
                    self.take(n)?;
                    self.push(Node::Bytes(n))?;
                }
                b'T' | b'B' => {
                    let n = self.len(4)?;
                    self.take(n)?;
                    self.push(Node::Bytes(n))?;
                }
                0x8e | 0x96 => {
                    let n = self.len(8)?;
                    self.take(n)?;
                    self.push(Node::Bytes(n))?;
                }
                b']' => self.push(Node::List(Vec::new()))?,
                b')' => self.push(Node::Tuple(Vec::new()))?,
                b'}' => self.push(Node::Dict(Vec::new()))?,
                0x8f => self.push(Node::Set(Vec::new()))?,
                b'l' => {
                    let items = self.pop_mark()?;
                    self.push_container(&items, Node::List)?;
                }
                b't' => {
                    let items = self.pop_mark()?;
                    self.push_container(&items, Node::Tuple)?;
                }
                0x91 => {
                    let items = self.pop_mark()?;
                    self.push_container(&items, Node::Set)?;
                }
                0x85..=0x87 => {
                    let items = self.pop_n(usize::from(op - 0x84))?;
                    self.push_container(&items, Node::Tuple)?;
                }
                b'd' => {
                    let kv = self.pop_mark()?;
                    if !kv.len().is_multiple_of(2) {
                        return self.err("DICT with a key and no value");
                    }
                    let depth = self.depth_over(&kv);
                    let pairs = kv.chunks_exact(2).map(|p| (p[0], p[1])).collect();
                    let id = self.new_node(Node::Dict(pairs), depth)?;
                    self.stack.push(Slot::Obj(id));
                }
                b'a' => {
                    let item = self.pop()?;
                    let list = self.top()?;
                    self.extend(list, vec![item])?;
                }
                b'e' | 0x90 => {
                    let items = self.pop_mark()?;
                    let list = self.top()?;
                    self.extend(list, items)?;
                }
                b's' => {
                    let kv = self.pop_n(2)?;
                    let dict = self.top()?;
                    self.set_items(dict, kv)?;
                }
                b'u' => {
                    let kv = self.pop_mark()?;
                    let dict = self.top()?;
                    self.set_items(dict, kv)?;
                }
                0x94 => {
                    let key = self.memo.len() as u64;
                    self.memo_put(key)?;
                }
                b'q' => {
                    let key = self.le(1)?;
                    self.memo_put(key)?;
                }
                b'r' => {
                    let key = self.le(4)?;
                    self.memo_put(key)?;
                }
                b'p' => {
                    let s = self.line()?.to_owned();
                    match s.parse::<u64>() {
                        Ok(key) => self.memo_put(key)?,
                        Err(_) => return self.err(format!("`{s}` is not a memo key")),
                    }
                }
                b'h' => {
                    let key = self.le(1)?;
                    self.memo_get(key)?;
                }
                b'j' => {
                    let key = self.le(4)?;
                    self.memo_get(key)?;
                }
                b'g' => {
                    let s = self.line()?.to_owned();
                    match s.parse::<u64>() {
                        Ok(key) => self.memo_get(key)?,
                        Err(_) => return self.err(format!("`{s}` is not a memo key")),
                    }
                }
                b'c' => {
                    let module = self.line()?.to_owned();
                    let name = self.line()?.to_owned();
                    self.global(&module, &name)?;
                }
                0x93 => {
                    let name = self.pop()?;
                    let module = self.pop()?;
                    match (self.node(module), self.node(name)) {
                        (Node::Str(m), Node::Str(n)) => {
                            let (m, n) = (m.to_string(), n.to_string());
                            self.global(&m, &n)?;
                        }
                        _ => return self.err("STACK_GLOBAL needs a module and a name string"),
                    }
                }
                // REDUCE and NEWOBJ: callable and arguments; NEWOBJ_EX also keyword arguments.
                b'R' | 0x81 | 0x92 => {
                    if op == 0x92 {
                        self.pop()?;
                    }
                    self.pop()?;
                    let callable = self.pop()?;
                    self.call(callable)?;
                }
                // BUILD: the state of an object; not needed, and dicts are already complete.
                b'b' => {
                    self.pop()?;
                    self.top()?;
                }
                b'P' | b'Q' => {
                    return self.err(
                        "a persistent reference (PERSID); a memory snapshot has none \
                         (is this a model checkpoint?)",
                    )
                }
                0x82..=0x84 => {
                    return self
                        .err("an extension-registry reference (EXT); a memory snapshot has none")
                }
                0x97 | 0x98 => {
                    return self.err("an out-of-band buffer; a memory snapshot has none")
                }
                other => {
                    return self.err(format!(
                    "byte 0x{other:02x} is not a pickle opcode (is the file cut or not a pickle?)"
                ))
                }
            }
        }
    }
}
