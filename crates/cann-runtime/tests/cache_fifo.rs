//! A FIFO planted in a shared cache (as a manifest or as a binary) never makes a lookup,
//! a scan or aging wait for a writer: it is an unusable entry, reported and skipped.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use cann_runtime::cache::{GcOptions, GcOutcome, Lookup, NoProgress};

mod cache_support;
use cache_support::*;

fn mkfifo(p: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        p,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        0,
    )
    .unwrap();
}

#[test]
fn fifos_in_the_cache_are_skipped_not_waited_on() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, clock) = manual(&d, Some(1), 0);
    let soc = kc(&d).join("soc");
    std::fs::create_dir_all(&soc).unwrap();
    // A manifest that is a FIFO.
    mkfifo(&soc.join("te_pipe.json"));
    // A real manifest whose binary is a FIFO.
    std::fs::write(
        soc.join("te_b.json"),
        r#"{"binFileName":"te_b","binFileSuffix":".o"}"#,
    )
    .unwrap();
    mkfifo(&soc.join("te_b.o"));
    write_cann_entry(&soc, "te_big", 2 * 1_048_576);
    age_entry(&soc, "te_big", t0() - 3 * 24 * 60 * MIN);
    for k in ["soc/te_pipe", "soc/te_b"] {
        assert!(matches!(c.get(k).unwrap(), Lookup::Miss(_)), "{k}");
    }
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.torn.iter().any(|x| x.rel == "soc/te_b.json"), "{v:?}");
    assert!(v.foreign.iter().any(|f| f.0 == "soc/te_pipe.json"), "{v:?}");
    clock.advance(31 * MIN);
    let GcOutcome::Done(_) = c.gc(&GcOptions::default()).unwrap() else {
        panic!("gc did not run")
    };
    assert!(!soc.join("te_big.json").exists(), "the real old entry aged");
}
