//! A pickle decoder for torch memory snapshots: the opcodes of protocols 0–5 that a pickler
//! writes for plain data (dicts, lists, tuples, sets, strings, bytes, numbers, `None`,
//! booleans) and a few class references, decoded into an arena.
//!
//! Why not serde-pickle: a real pickler memoizes every container and writes a second use as a
//! memo reference (`BINGET`); torch shares frames, and a snapshot may share entry dicts
//! between devices. serde-pickle 1.2 takes a memo value on its first use, so the second one
//! fails ("invalid type: unit value"). Here a memo reference is an arena index: shared
//! objects are shared, and a self-containing list is just a cycle.
//!
//! The decoder is a loop over opcodes (no recursion, so no stack overflow on any input) under
//! three budgets, each refused with the byte offset of the opcode that exceeded it: nesting
//! depth, objects created, and open marks.

mod ops;

use std::collections::HashMap;
use std::fmt;

/// Containers nested deeper than this are refused. Snapshots nest about eight levels
/// (snapshot, segments, segment, blocks, block, frames, frame).
pub const MAX_DEPTH: u32 = 256;

/// Objects (each string, number and container) one pickle may create. A snapshot of a
/// million events with their frames stays well under it; each object costs about 40 bytes.
pub const MAX_OBJECTS: usize = 8_000_000;

/// An object of the pickle, by its index in [`Pickle::nodes`].
pub type Id = u32;

/// One decoded object.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    None,
    Bool(bool),
    Int(i128),
    /// An integer beyond 128 bits (kept by size only).
    BigInt,
    Float(f64),
    Str(Box<str>),
    Bytes(usize),
    List(Vec<Id>),
    Tuple(Vec<Id>),
    Dict(Vec<(Id, Id)>),
    Set(Vec<Id>),
    /// A class or function reference (`GLOBAL`, `STACK_GLOBAL`): `module.name`.
    Global(Box<str>),
    /// An instance built by calling a class (`REDUCE`, `NEWOBJ`); its state is not kept.
    Object(Box<str>),
}

impl Node {
    /// What the object is, as a Python user would name it.
    pub fn kind(&self) -> &'static str {
        match self {
            Node::None => "None",
            Node::Bool(_) => "a boolean",
            Node::Int(_) | Node::BigInt => "an integer",
            Node::Float(_) => "a float",
            Node::Str(_) => "a string",
            Node::Bytes(_) => "bytes",
            Node::List(_) => "a list",
            Node::Tuple(_) => "a tuple",
            Node::Dict(_) => "a dict",
            Node::Set(_) => "a set",
            Node::Global(_) => "a class reference",
            Node::Object(_) => "an object",
        }
    }
}

/// A decoded pickle: every object once, and the top one.
#[derive(Debug)]
pub struct Pickle {
    pub nodes: Vec<Node>,
    /// Byte offset of the opcode that created each node.
    pub offsets: Vec<u64>,
    pub root: Id,
}

impl Pickle {
    pub fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn offset(&self, id: Id) -> u64 {
        self.offsets[id as usize]
    }
}

/// Why a pickle was refused, and the byte offset of the opcode where that was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickleError {
    pub offset: u64,
    pub message: String,
}

impl fmt::Display for PickleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for PickleError {}

/// What a stack slot holds: an object, or a `MARK`.
#[derive(Clone, Copy)]
enum Slot {
    Obj(Id),
    Mark,
}

struct Decoder<'a> {
    data: &'a [u8],
    pos: usize,
    /// Offset of the opcode being decoded.
    at: usize,
    nodes: Vec<Node>,
    offsets: Vec<u64>,
    depth: Vec<u32>,
    stack: Vec<Slot>,
    marks: usize,
    memo: HashMap<u64, Id>,
    max_depth: u32,
    max_objects: usize,
}

/// Decodes `data` under the default budgets.
pub fn decode(data: &[u8]) -> Result<Pickle, PickleError> {
    decode_with(data, MAX_DEPTH, MAX_OBJECTS)
}

/// Decodes `data` with the given nesting and object budgets.
pub fn decode_with(data: &[u8], max_depth: u32, max_objects: usize) -> Result<Pickle, PickleError> {
    let mut d = Decoder {
        data,
        pos: 0,
        at: 0,
        nodes: Vec::new(),
        offsets: Vec::new(),
        depth: Vec::new(),
        stack: Vec::new(),
        marks: 0,
        memo: HashMap::new(),
        max_depth,
        max_objects,
    };
    let root = d.run()?;
    Ok(Pickle {
        nodes: d.nodes,
        offsets: d.offsets,
        root,
    })
}

impl Decoder<'_> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, PickleError> {
        Err(PickleError {
            offset: self.at as u64,
            message: message.into(),
        })
    }

    fn take(&mut self, n: usize) -> Result<&[u8], PickleError> {
        match self.pos.checked_add(n) {
            Some(end) if end <= self.data.len() => {
                let s = &self.data[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            _ => Err(PickleError {
                offset: self.at as u64,
                message: format!(
                    "the pickle ends inside an opcode (it needs {n} more bytes, {} are left)",
                    self.data.len() - self.pos
                ),
            }),
        }
    }

    fn le(&mut self, n: usize) -> Result<u64, PickleError> {
        let b = self.take(n)?;
        Ok(b.iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
    }

    /// A length prefix, checked against what is left so no allocation follows a lie.
    fn len(&mut self, n: usize) -> Result<usize, PickleError> {
        let v = self.le(n)?;
        let left = (self.data.len() - self.pos) as u64;
        if v > left {
            return self.err(format!(
                "a length of {v} bytes, but only {left} are left in the pickle"
            ));
        }
        Ok(v as usize)
    }

    /// A newline-terminated argument of the text opcodes.
    fn line(&mut self) -> Result<&str, PickleError> {
        let rest = &self.data[self.pos..];
        let Some(n) = rest.iter().position(|&b| b == b'\n') else {
            return self.err("the pickle ends inside a text argument (no newline)");
        };
        self.pos += n + 1;
        match std::str::from_utf8(&rest[..n]) {
            Ok(s) => Ok(s),
            Err(_) => self.err("a text argument is not UTF-8"),
        }
    }

    fn new_node(&mut self, node: Node, depth: u32) -> Result<Id, PickleError> {
        if self.nodes.len() >= self.max_objects {
            return self.err(format!(
                "more than {} objects; a torch memory snapshot has far fewer",
                self.max_objects
            ));
        }
        if depth > self.max_depth {
            return self.too_deep();
        }
        let id = self.nodes.len() as Id;
        self.nodes.push(node);
        self.offsets.push(self.at as u64);
        self.depth.push(depth);
        Ok(id)
    }

    fn too_deep<T>(&self) -> Result<T, PickleError> {
        self.err(format!(
            "containers nested more than {} deep; a torch memory snapshot nests about 8",
            self.max_depth
        ))
    }

    fn push(&mut self, node: Node) -> Result<(), PickleError> {
        let id = self.new_node(node, 0)?;
        self.stack.push(Slot::Obj(id));
        Ok(())
    }

    /// A container over `items`, one level deeper than the deepest of them.
    fn push_container(
        &mut self,
        items: &[Id],
        make: fn(Vec<Id>) -> Node,
    ) -> Result<(), PickleError> {
        let depth = self.depth_over(items);
        let id = self.new_node(make(items.to_vec()), depth)?;
        self.stack.push(Slot::Obj(id));
        Ok(())
    }

    fn depth_over(&self, items: &[Id]) -> u32 {
        let d = items
            .iter()
            .map(|&i| self.depth[i as usize])
            .max()
            .unwrap_or(0);
        d.saturating_add(1)
    }

    fn pop(&mut self) -> Result<Id, PickleError> {
        match self.stack.pop() {
            Some(Slot::Obj(id)) => Ok(id),
            Some(Slot::Mark) => self.err("an opcode needs an object but finds a MARK"),
            None => self.err("an opcode needs an object but the stack is empty"),
        }
    }

    fn top(&self) -> Result<Id, PickleError> {
        match self.stack.last() {
            Some(Slot::Obj(id)) => Ok(*id),
            Some(Slot::Mark) => self.err("an opcode needs an object but finds a MARK"),
            None => self.err("an opcode needs an object but the stack is empty"),
        }
    }

    /// The objects pushed since the last `MARK`, which is removed.
    fn pop_mark(&mut self) -> Result<Vec<Id>, PickleError> {
        let Some(m) = self.stack.iter().rposition(|s| matches!(s, Slot::Mark)) else {
            return self.err("an opcode needs a MARK but there is none");
        };
        // No MARK lies after the last one.
        let items = self.stack[m + 1..]
            .iter()
            .filter_map(|s| match s {
                Slot::Obj(id) => Some(*id),
                Slot::Mark => None,
            })
            .collect();
        self.stack.truncate(m);
        self.marks -= 1;
        Ok(items)
    }

    fn pop_n(&mut self, n: usize) -> Result<Vec<Id>, PickleError> {
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(self.pop()?);
        }
        items.reverse();
        Ok(items)
    }

    /// Adds `items` to the list or set `target`; `target` grows one level above them.
    fn extend(&mut self, target: Id, items: Vec<Id>) -> Result<(), PickleError> {
        let depth = self.depth_over(&items).max(self.depth[target as usize]);
        if depth > self.max_depth {
            return self.too_deep();
        }
        self.depth[target as usize] = depth;
        match &mut self.nodes[target as usize] {
            Node::List(v) | Node::Set(v) => {
                v.extend(items);
                Ok(())
            }
            other => {
                let k = other.kind();
                self.err(format!("items are appended to {k}, not to a list"))
            }
        }
    }

    fn set_items(&mut self, target: Id, kv: Vec<Id>) -> Result<(), PickleError> {
        if !kv.len().is_multiple_of(2) {
            return self.err("SETITEMS with a key and no value");
        }
        let depth = self.depth_over(&kv).max(self.depth[target as usize]);
        if depth > self.max_depth {
            return self.too_deep();
        }
        self.depth[target as usize] = depth;
        match &mut self.nodes[target as usize] {
            Node::Dict(m) => {
                m.extend(kv.chunks_exact(2).map(|p| (p[0], p[1])));
                Ok(())
            }
            // Dict subclasses (OrderedDict, defaultdict) and objects set their state by
            // items too; their contents are not needed.
            Node::Object(_) => Ok(()),
            other => {
                let k = other.kind();
                self.err(format!("items are set on {k}, not on a dict"))
            }
        }
    }

    fn memo_put(&mut self, key: u64) -> Result<(), PickleError> {
        let id = self.top()?;
        self.memo.insert(key, id);
        Ok(())
    }

    fn memo_get(&mut self, key: u64) -> Result<(), PickleError> {
        match self.memo.get(&key) {
            Some(&id) => {
                self.stack.push(Slot::Obj(id));
                Ok(())
            }
            None => self.err(format!(
                "a memo reference to entry {key}, which was never stored"
            )),
        }
    }

    fn string(&mut self, n: usize) -> Result<(), PickleError> {
        let b = self.take(n)?;
        match std::str::from_utf8(b) {
            Ok(s) => {
                let s: Box<str> = s.into();
                self.push(Node::Str(s))
            }
            Err(e) => {
                let off = self.pos - n + e.valid_up_to();
                Err(PickleError {
                    offset: off as u64,
                    message: "a string is not UTF-8".into(),
                })
            }
        }
    }

    fn long(&mut self, n: usize) -> Result<(), PickleError> {
        let b = self.take(n)?;
        if n > 16 {
            return self.push(Node::BigInt);
        }
        let mut v: i128 = 0;
        for (i, &x) in b.iter().enumerate() {
            v |= i128::from(x) << (8 * i);
        }
        // Two's complement over n bytes: sign-extend from the top byte.
        if n > 0 && n < 16 && b[n - 1] & 0x80 != 0 {
            v -= 1i128 << (8 * n);
        }
        self.push(Node::Int(v))
    }

    fn global(&mut self, module: &str, name: &str) -> Result<(), PickleError> {
        self.push(Node::Global(format!("{module}.{name}").into()))
    }

    /// `callable(*args)`: a dict subclass becomes a dict; anything else an opaque object.
    fn call(&mut self, callable: Id) -> Result<(), PickleError> {
        let node = match self.node(callable) {
            Node::Global(g) => match &**g {
                "collections.OrderedDict" | "builtins.dict" | "__builtin__.dict" => {
                    Node::Dict(Vec::new())
                }
                _ => Node::Object(g.clone()),
            },
            other => {
                let k = other.kind();
                return self.err(format!("a call of {k}, which is not a class"));
            }
        };
        self.push(node)
    }

    fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }
}
