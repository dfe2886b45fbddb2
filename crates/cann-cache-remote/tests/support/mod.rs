//! Caches written the way CANN writes them, the servers the stores need (started on
//! loopback, stopped on drop), and the checks every store must pass.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod servers;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cann_cache_remote::{self as remote, Env, Options, Remote, StoreSpec};
use cann_runtime::cache::{Cache, CacheDir, NoProgress, OpenOptions};

pub const SOC: &str = "Ascend910B";

/// Environment of a test store (credentials of the S3 server, never from the real process).
#[derive(Debug, Clone, Default)]
pub struct TestEnv(pub BTreeMap<String, String>);

impl Env for TestEnv {
    fn var(&self, name: &str) -> Option<String> {
        self.0.get(name).cloned()
    }
}

/// A store under test: its URL and the environment it needs.
#[derive(Debug, Clone)]
pub struct Store {
    pub url: String,
    pub env: TestEnv,
}

impl Store {
    pub fn spec(&self) -> StoreSpec {
        remote::parse_url(&self.url, &self.env).unwrap()
    }
    pub fn open(&self) -> Remote {
        Remote::open(&self.spec(), &self.env).unwrap()
    }
}

/// A small deterministic byte stream (xorshift), so binaries do not compress to nothing and
/// differ per entry.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.truncate(n);
    out
}

/// ELF machines of the two hosts the format tests pretend to be (glibc `<elf.h>`).
pub const EM_AARCH64: u16 = 183;
pub const EM_X86_64: u16 = 62;
/// The binary format of [`kernel`]'s binaries.
pub const FORMAT: &str = "elf64le-em183";

/// A kernel binary for `machine`: a 64-bit little-endian ELF header start (e_ident, e_type
/// ET_REL, e_machine), then noise, `n` bytes in all.
pub fn kernel_for(machine: u16, seed: u64, n: usize) -> Vec<u8> {
    let mut b = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
    b.extend(1u16.to_le_bytes());
    b.extend(machine.to_le_bytes());
    b.extend(noise(seed, n.saturating_sub(20)));
    b
}

/// A kernel binary of [`FORMAT`].
pub fn kernel(seed: u64, n: usize) -> Vec<u8> {
    kernel_for(EM_AARCH64, seed, n)
}

/// Writes one entry as CANN's compiler does (binary, then the manifest naming it, in
/// place). The manifest fields are those of a real one
/// (hicann/ge@ffdcbc9:tests/engines/nn_engine/config/fe_config/atomic_test_core_type_aiv.json).
pub fn write_cann_entry(dir: &Path, stem: &str, bin: &[u8]) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(format!("{stem}.o")), bin).unwrap();
    let m = format!(
        r#"{{
    "kernelName": "{stem}__kernel0",
    "binFileName": "{stem}",
    "binFileSuffix": ".o",
    "magic": "RT_DEV_BINARY_MAGIC_ELF",
    "parameters": [0, 0, 1],
    "core_type": "AIV"
}}"#
    );
    std::fs::write(dir.join(format!("{stem}.json")), m).unwrap();
}

/// Writes a mixed kernel: `<stem>.json` listing its aic and aiv parts, each with a binary.
pub fn write_mix_entry(dir: &Path, stem: &str, seed: u64, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for (i, part) in ["mix_aic", "mix_aiv"].iter().enumerate() {
        std::fs::write(
            dir.join(format!("{stem}_{part}.o")),
            kernel(seed + i as u64, n),
        )
        .unwrap();
        let m = format!(
            r#"{{"binFileName":"{stem}_{part}","binFileSuffix":".o","magic":"RT_DEV_BINARY_MAGIC_ELF"}}"#
        );
        std::fs::write(dir.join(format!("{stem}_{part}.json")), m).unwrap();
    }
    let m = format!(
        r#"{{"jsonList":[{{"jsonFileName":"{stem}_mix_aic.json"}},{{"jsonFileName":"{stem}_mix_aiv.json"}}]}}"#
    );
    std::fs::write(dir.join(format!("{stem}.json")), m).unwrap();
}

/// A node's cache directory: `op_cache.ini` with the toolkit stamps, and `kernel_cache/`.
pub struct Node {
    pub tmp: tempfile::TempDir,
}

impl Node {
    pub fn new(adk: &str, ops: &str) -> Node {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(
            tmp.path().join("op_cache.ini"),
            format!("[op_compiler_cache]\nmax_op_cache_size=500\nremain_cache_size_ratio=50\nadk_version={adk}\nops_version={ops}\n"),
        )
        .unwrap();
        Node { tmp }
    }

    pub fn dir(&self) -> CacheDir {
        CacheDir::explicit(self.tmp.path()).unwrap()
    }

    pub fn kc(&self) -> PathBuf {
        self.tmp.path().join("kernel_cache")
    }

    pub fn meta(&self) -> PathBuf {
        self.kc().join(SOC).join("kernel_meta")
    }

    pub fn cache(&self) -> Arc<Cache> {
        Arc::new(Cache::open(&self.dir(), OpenOptions::default()).unwrap())
    }

    /// `n` single-binary entries of a few to a hundred kilobytes (seeded by `seed`), and one
    /// mixed kernel.
    pub fn fill(&self, seed: u64, n: u64) {
        self.fill_singles(EM_AARCH64, seed, n);
        write_mix_entry(&self.meta(), &format!("te_mix_{seed:08x}"), seed, 4096);
    }

    /// `n` single-binary entries whose binaries are ELF objects for `machine`.
    pub fn fill_singles(&self, machine: u16, seed: u64, n: u64) {
        for i in 0..n {
            let size = 2048 + ((seed + i) * 7919 % 97) as usize * 1024;
            write_cann_entry(
                &self.meta(),
                &format!("te_op{}_{:08x}", i, seed * 1000 + i),
                &kernel_for(machine, seed * 1000 + i, size),
            );
        }
    }

    pub fn versions(&self) -> (String, String) {
        remote::versions(&self.dir()).unwrap()
    }

    pub fn push(&self, store: &Store) -> remote::PushReport {
        remote::push(
            &self.cache(),
            &store.open(),
            &self.versions(),
            &Options::default(),
            &NoProgress,
        )
        .unwrap()
    }

    pub fn pull(&self, store: &Store) -> remote::PullReport {
        self.pull_socs(store, &[SOC.to_owned()])
    }

    pub fn pull_socs(&self, store: &Store, socs: &[String]) -> remote::PullReport {
        self.pull_with(store, socs, &Options::default())
    }

    pub fn pull_with(&self, store: &Store, socs: &[String], opts: &Options) -> remote::PullReport {
        remote::pull(
            &self.cache(),
            &store.open(),
            &self.versions(),
            socs,
            opts,
            &NoProgress,
        )
        .unwrap()
    }

    /// Every file under `kernel_cache/` but our state, by relative path.
    pub fn files(&self) -> BTreeMap<String, Vec<u8>> {
        fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                if rel == ".cann-cache" || rel == "op_cache_file_del.lock" {
                    continue;
                }
                if e.file_type().unwrap().is_dir() {
                    walk(root, &p, out);
                } else {
                    out.insert(rel, std::fs::read(&p).unwrap());
                }
            }
        }
        let mut out = BTreeMap::new();
        if self.kc().is_dir() {
            walk(&self.kc(), &self.kc(), &mut out);
        }
        out
    }

    /// `cache verify` finds nothing wrong and its ledger agrees with the disk.
    pub fn assert_verify_clean(&self) {
        let v = self.cache().verify(&NoProgress).unwrap();
        assert!(
            v.torn.is_empty()
                && v.orphans.is_empty()
                && v.temporaries.is_empty()
                && v.foreign.is_empty(),
            "{v:?}"
        );
        assert!(v.ledger_matches, "{v:?}");
    }
}

/// The scope of `SOC` for these stamps.
pub fn scope(adk: &str, ops: &str) -> remote::Scope {
    remote::Scope {
        soc: SOC.into(),
        adk_version: adk.into(),
        ops_version: ops.into(),
        binary_format: FORMAT.into(),
    }
}

/// Runs a future on a small runtime (tests reach the store directly to damage objects).
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

// ---- The behaviours every store must show. ----

/// Push, a second push that writes nothing, pull on a fresh node, byte-identical entries,
/// `verify` clean, and a second pull that brings nothing.
pub fn round_trip(store: &Store) {
    let a = Node::new("7.0.RC1", "7.0.RC1");
    a.fill(1, 12);
    let first = a.push(store);
    assert_eq!((first.pushed, first.present), (13, 0), "{first:?}");
    assert!(first.skipped.is_empty(), "{first:?}");
    let again = a.push(store);
    assert_eq!((again.pushed, again.present), (0, 13), "{again:?}");

    let b = Node::new("7.0.RC1", "7.0.RC1");
    let got = b.pull(store);
    assert_eq!((got.pulled, got.present), (13, 0), "{got:?}");
    assert!(got.refused.is_empty(), "{got:?}");
    assert_eq!(
        a.files(),
        b.files(),
        "pulled entries are byte for byte the pushed ones"
    );
    b.assert_verify_clean();
    let again = b.pull(store);
    assert_eq!((again.pulled, again.present), (0, 13), "{again:?}");
    // What was pulled is served by the local cache like any entry.
    let key = format!("{SOC}/kernel_meta/te_op0_000003e8");
    assert!(matches!(
        b.cache().get(&key).unwrap(),
        cann_runtime::cache::Lookup::Hit(_)
    ));
}

/// Entries of another toolkit version or SoC are never pulled.
pub fn scoping(store: &Store) {
    let a = Node::new("7.0.0", "7.0.0");
    a.fill(2, 4);
    assert_eq!(a.push(store).pushed, 5);
    for (adk, ops) in [("8.0.0", "7.0.0"), ("7.0.0", "8.0.0")] {
        let other = Node::new(adk, ops);
        let got = other.pull(store);
        assert_eq!((got.pulled, got.present), (0, 0), "{adk}/{ops}: {got:?}");
        assert!(other.files().is_empty());
    }
    let other_soc = Node::new("7.0.0", "7.0.0");
    let got = other_soc.pull_socs(store, &["Ascend310P3".to_owned()]);
    assert_eq!(got.pulled, 0, "{got:?}");
    assert!(other_soc.files().is_empty());
    // Entries invalidated locally (committed before a toolkit change) are not pushed.
    let c = Node::new("7.0.0", "7.0.0");
    c.fill(3, 2);
    std::thread::sleep(std::time::Duration::from_millis(20));
    c.cache().invalidate_all().unwrap();
    let rep = c.push(store);
    assert_eq!(rep.pushed, 0, "invalidated entries stay local: {rep:?}");
}

/// A corrupted and a truncated object are refused and reported; the rest still arrives.
pub fn corruption(store: &Store) {
    let a = Node::new("7.1.0", "7.1.0");
    a.fill(4, 6);
    assert_eq!(a.push(store).pushed, 7);
    let r = store.open();
    let sc = scope("7.1.0", "7.1.0");
    let names = block_on(r.list(&sc)).unwrap();
    assert_eq!(names.len(), 7);
    let (flip, cut) = (&names[1], &names[2]);
    block_on(async {
        let mut b = r.get(&sc, flip).await.unwrap().unwrap();
        let mid = b.len() / 2;
        b[mid] ^= 0x40;
        r.put(&sc, flip, b).await.unwrap();
        let b = r.get(&sc, cut).await.unwrap().unwrap();
        r.put(&sc, cut, b[..b.len() / 3].to_vec()).await.unwrap();
    });
    let b = Node::new("7.1.0", "7.1.0");
    let got = b.pull(store);
    assert_eq!(got.pulled, 5, "{got:?}");
    assert_eq!(got.refused.len(), 2, "{got:?}");
    assert!(got.has_errors());
    for x in &got.refused {
        assert!(x.why.contains("corrupted or truncated"), "{x:?}");
    }
    for n in [flip, cut] {
        let stem = n.rest.rsplit('/').next().unwrap();
        assert!(
            !b.meta().join(format!("{stem}.json")).exists(),
            "refused {stem} must not appear"
        );
    }
    b.assert_verify_clean();
}

/// Two nodes pushing at once (overlapping entries) leave only whole objects: a fresh node
/// pulls the union, byte-identical, and nothing is refused.
pub fn concurrent_pushers(store: &Store) {
    let (a, b) = (Node::new("7.2.0", "7.2.0"), Node::new("7.2.0", "7.2.0"));
    a.fill(5, 20);
    b.fill(5, 20); // the same compile on another node: identical bytes, same names
    b.fill(6, 10); // and some of its own
    let (ra, rb) = std::thread::scope(|s| {
        let ta = s.spawn(|| a.push(store));
        let tb = s.spawn(|| b.push(store));
        (ta.join().unwrap(), tb.join().unwrap())
    });
    assert_eq!(ra.pushed + ra.present, 21, "{ra:?}");
    assert_eq!(rb.pushed + rb.present, 32, "{rb:?}");
    let c = Node::new("7.2.0", "7.2.0");
    let got = c.pull(store);
    assert!(got.refused.is_empty(), "{got:?}");
    assert_eq!(got.pulled, 32, "{got:?}");
    assert_eq!(c.files(), b.files());
    c.assert_verify_clean();
}

/// Remote aging: over the limit, the least recently used entries go (recently pulled ones
/// stay), down to the retained share; nothing used within the floor is removed; what is
/// left still pulls whole and what went is never pulled.
pub fn remote_gc(store: &Store) {
    let a = Node::new("7.3.0", "7.3.0");
    a.fill(7, 9);
    assert_eq!(a.push(store).pushed, 10);
    let r = store.open();
    let sc = scope("7.3.0", "7.3.0");
    let names = block_on(r.list(&sc)).unwrap();
    let now = cann_runtime::cache::clock::system_now();
    let hour = 3_600_000_000_000i64;
    // Three entries pulled ten minutes before the pass below; the rest last used when pushed.
    let recent: Vec<_> = names[..3].to_vec();
    block_on(r.record_use(&sc, &recent, now + 2 * hour - hour / 6)).unwrap();
    let inv = block_on(r.inventory()).unwrap();
    let mine: Vec<_> = inv
        .items
        .iter()
        .filter(|i| i.scope_dir == sc.dir())
        .collect();
    assert_eq!(mine.len(), 10);
    let total: u64 = mine.iter().map(|i| i.bytes).sum();
    let limits = |now_ns, dry_run| remote::GcLimits {
        max_bytes: total,
        target_bytes: total / 2,
        floor_ns: cann_runtime::cache::limits::AGING_FLOOR,
        now_ns,
        dry_run,
    };
    // Everything was used within the floor: nothing goes.
    let rep = remote::gc_remote(&r, &limits(now, false)).unwrap();
    assert!(rep.removed.is_empty() && rep.stopped_by_floor, "{rep:?}");
    // Two hours on: the seven idle since their push go first, oldest first, until half.
    let dry = remote::gc_remote(&r, &limits(now + 2 * hour, true)).unwrap();
    let rep = remote::gc_remote(&r, &limits(now + 2 * hour, false)).unwrap();
    assert_eq!(
        dry.removed, rep.removed,
        "a dry run names what the pass removes"
    );
    assert!(!rep.removed.is_empty(), "{rep:?}");
    assert!(
        rep.bytes_after <= total / 2 || rep.stopped_by_floor,
        "{rep:?}"
    );
    for x in &rep.removed {
        assert!(
            !recent.iter().any(|n| x.object.ends_with(&n.rel())),
            "recently used {x:?} removed"
        );
    }
    let left = block_on(r.list(&sc)).unwrap();
    assert_eq!(left.len() as u64, 10 - rep.removed.len() as u64);
    let b = Node::new("7.3.0", "7.3.0");
    let got = b.pull(store);
    assert!(got.refused.is_empty(), "{got:?}");
    assert_eq!(got.pulled, left.len() as u64);
    b.assert_verify_clean();
    // Under the limit now: a second pass removes nothing.
    let again = remote::gc_remote(&r, &limits(now + 2 * hour, false)).unwrap();
    assert!(again.removed.is_empty(), "{again:?}");
}

/// Entries whose binaries are another machine's ELF are never pulled: a node takes the
/// formats of its own entries, a fresh node the only format stored (or the one it is told,
/// and none when the store holds several), each format left behind is reported, and an
/// object whose binaries are not what its scope says is refused while the rest arrives.
pub fn binary_format(store: &Store) {
    let (arm, x86) = (Node::new("7.4.0", "7.4.0"), Node::new("7.4.0", "7.4.0"));
    arm.fill_singles(EM_AARCH64, 8, 5);
    x86.fill_singles(EM_X86_64, 9, 3);
    // A fresh node while one format is stored: it is the cluster's, so it is taken.
    assert_eq!(arm.push(store).scopes[0].binary_format, FORMAT);
    let first = Node::new("7.4.0", "7.4.0");
    let got = first.pull(store);
    assert_eq!(got.pulled, 5, "{got:?}");
    let x = x86.push(store);
    assert_eq!((x.pushed, x.scopes.len()), (3, 1), "{x:?}");
    assert_eq!(x.scopes[0].binary_format, "elf64le-em62");
    let x86_files = x86.files();

    // A node with x86 entries of its own: only the x86 ones arrive.
    let node = Node::new("7.4.0", "7.4.0");
    node.fill_singles(EM_X86_64, 10, 1);
    let got = node.pull(store);
    assert_eq!((got.pulled, got.present), (3, 0), "{got:?}");
    assert!(got.refused.is_empty() && !got.has_errors(), "{got:?}");
    assert_eq!(got.other_formats.len(), 1, "{got:?}");
    let other = &got.other_formats[0];
    assert_eq!((other.binary_format.as_str(), other.objects), (FORMAT, 5));
    assert!(other.reason.contains("elf64le-em62"), "{other:?}");
    for (rel, bytes) in node.files() {
        if rel.ends_with(".o") {
            assert_eq!(&bytes[18..20], &EM_X86_64.to_le_bytes(), "{rel}");
        }
    }
    for rel in x86_files.keys() {
        assert!(node.files().contains_key(rel), "{rel} missing");
    }

    // A fresh node now that two formats are stored: it cannot tell, so it takes none.
    let fresh = Node::new("7.4.0", "7.4.0");
    let got = fresh.pull(store);
    assert_eq!(got.pulled, 0, "{got:?}");
    assert_eq!(got.other_formats.len(), 2, "{got:?}");
    assert!(got.other_formats[0].reason.contains("--binary-format"));
    assert!(fresh.files().is_empty());
    // Told its format, it takes exactly that one.
    let told = Options {
        binary_formats: vec!["elf64le-em62".to_owned()],
        ..Options::default()
    };
    let got = fresh.pull_with(store, &[SOC.to_owned()], &told);
    assert_eq!(got.pulled, 3, "{got:?}");
    assert_eq!(fresh.files(), x86_files);

    // An object stored as x86 whose binary is the ARM one (hash and header consistent, as a
    // node that misclassified it would write): refused by what its bytes are.
    let r = store.open();
    let sc = remote::Scope {
        binary_format: "elf64le-em62".into(),
        ..scope("7.4.0", "7.4.0")
    };
    let key = format!("{SOC}/kernel_meta/te_op0_00001f40");
    let arm_entry = arm.cache().read_exact(&key).unwrap().unwrap();
    let (name, bytes) = remote::layout::encode(&key, &sc, &arm_entry).unwrap();
    block_on(async {
        r.put(&sc, &name, bytes).await.unwrap();
        r.publish(&sc, std::slice::from_ref(&name)).await.unwrap();
    });
    let victim = Node::new("7.4.0", "7.4.0");
    victim.fill_singles(EM_X86_64, 10, 1);
    let got = victim.pull(store);
    assert_eq!(got.pulled, 3, "{got:?}");
    assert_eq!(got.refused.len(), 1, "{got:?}");
    assert!(got.has_errors());
    let why = &got.refused[0].why;
    assert!(
        why.contains("binary format elf64le-em183") && why.contains("elf64le-em62"),
        "{why}"
    );
    assert!(!victim.meta().join("te_op0_00001f40.json").exists());
    // Its own entry was written behind the ledger's back (as CANN writes), so only the
    // entries themselves are checked: whole, nothing left half-done.
    let v = victim.cache().verify(&NoProgress).unwrap();
    assert!(
        v.torn.is_empty() && v.temporaries.is_empty() && v.orphans.is_empty(),
        "{v:?}"
    );
    assert_eq!(v.entries, 4, "{v:?}");
}
