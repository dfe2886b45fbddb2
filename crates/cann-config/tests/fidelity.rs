//! The spec agrees with the upstream code of each release, as `cargo xtask fidelity` read it
//! into `spec/fidelity/upstream.json` (9.0.0 at its tags, `next` at the pinned master
//! commits): the same comparison the xtask prints (`cann_config::fidelity`), here without
//! the mirrors. A disagreement fails unless `spec/fidelity/exceptions.yaml` explains it for
//! that release, with a reason in English and Chinese and a cited line; an exception that
//! matches nothing fails too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_config::fidelity::compare;
use cann_config::Release;
use cann_spec::fidelity::{parse_exceptions, Exception};
use serde_json::Value;

const FACTS: &str = include_str!("../../../spec/fidelity/upstream.json");
const EXCEPTIONS: &str = include_str!("../../../spec/fidelity/exceptions.yaml");

fn facts() -> Value {
    serde_json::from_str(FACTS).unwrap()
}

fn exceptions() -> Vec<Exception> {
    let known: Vec<&str> = Release::ALL.iter().map(|r| r.id()).collect();
    parse_exceptions("spec/fidelity/exceptions.yaml", EXCEPTIONS, &known)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn release(id: &str) -> Release {
    id.parse().unwrap()
}

#[test]
fn the_spec_agrees_with_the_code_of_each_release() {
    let facts = facts();
    let exceptions = exceptions();
    let mut used = vec![false; exceptions.len()];
    let mut unexplained = Vec::new();
    let releases = facts["releases"].as_object().unwrap();
    for (id, f) in releases {
        let out = compare(release(id), f);
        assert!(out.compared.values().sum::<usize>() > 400, "{id}: {out:?}");
        for d in out.found {
            match exceptions.iter().position(|e| e.covers(&d.key, id)) {
                Some(i) => used[i] = true,
                None => unexplained.push(format!(
                    "{id} {}\n  spec:     {}\n  upstream: {}",
                    d.key, d.spec, d.upstream
                )),
            }
        }
    }
    let stale: Vec<&str> = exceptions
        .iter()
        .zip(&used)
        // `history:` entries are the release-history test's (upstream_history.rs).
        .filter(|(e, u)| !**u && !e.finding.starts_with("history:"))
        .map(|(e, _)| e.finding.as_str())
        .collect();
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "{} disagreements with spec/fidelity/upstream.json:\n{}\n\nexceptions that match nothing: {stale:?}",
        unexplained.len(),
        unexplained.join("\n")
    );
}

#[test]
fn the_facts_cover_9_0_0_at_its_tags_and_next_at_master() {
    let facts = facts();
    let r = &facts["releases"];
    assert_eq!(
        r["9.0.0"]["upstream"]["tensorflow"]["ref"],
        "tfa_v0.0.48_9.0.0"
    );
    assert_eq!(r["9.0.0"]["upstream"]["ge"]["ref"], "v9.0.0");
    assert_eq!(r["next"]["upstream"]["tensorflow"]["ref"], "82957b9");
    for id in ["9.0.0", "next"] {
        for repo in ["tensorflow", "ge"] {
            let c = r[id]["upstream"][repo]["commit"]
                .as_str()
                .unwrap_or_default();
            assert!(
                c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()),
                "{id} {repo}: {c:?}"
            );
        }
    }
}

#[test]
fn a_changed_fact_is_a_disagreement_naming_both_sides() {
    let mut f = facts()["releases"]["9.0.0"].clone();
    let before = compare(Release::LATEST, &f).found.len();
    // The code checks a range the spec does not state, and a default moves.
    f["ranges"]["session:local_rank_id"][0]["max"] = Value::from(15);
    // The graph engine bounds a key more tightly than the spec does.
    f["ranges"]["ge:ge.exec.opWaitTimeout"][0]["max"] = Value::from(100);
    // The code states the bound the spec gives as its own advice.
    f["ranges"]["session:stream_sync_timeout"][0]["min"] = Value::from(-1);
    f["tf2"]["graph_run_mode"]["default"] = Value::from(0);
    f["session"]
        .as_object_mut()
        .unwrap()
        .insert("brand_new_key".into(), Value::Array(vec![]));
    let found = compare(Release::LATEST, &f).found;
    let keys: Vec<&str> = found.iter().map(|d| d.key.as_str()).collect();
    assert_eq!(found.len(), before + 5, "{keys:?}");
    for k in [
        "range:npu_run_config.local_rank_id",
        "range:npu_run_config.op_wait_timeout",
        "range:npu_run_config.stream_sync_timeout",
        "tf2-default:graph_run_mode",
        "session-missing:brand_new_key",
    ] {
        assert!(keys.contains(&k), "{k} not in {keys:?}");
    }
    let range = found
        .iter()
        .find(|d| d.key == "range:npu_run_config.local_rank_id")
        .unwrap();
    assert!(range.spec.contains("[0, 7]"), "{}", range.spec);
    assert!(
        range.upstream.contains("[0, 15]")
            && range
                .upstream
                .contains("hicann/tensorflow@tfa_v0.0.48_9.0.0:tf_adapter/util/npu_attrs.cc:"),
        "{}",
        range.upstream
    );
    let ge = found
        .iter()
        .find(|d| d.key == "range:npu_run_config.op_wait_timeout")
        .unwrap();
    assert!(
        ge.upstream
            .contains("hicann/ge@v9.0.0:compiler/api/gelib/gelib.cc:"),
        "{}",
        ge.upstream
    );
}

#[test]
fn bounds_come_from_the_adapter_the_estimator_and_the_engine() {
    let f = &facts()["releases"]["9.0.0"]["ranges"];
    let at = |key: &str| -> Vec<String> {
        f[key]
            .as_array()
            .unwrap_or_else(|| panic!("no bound on {key}"))
            .iter()
            .map(|b| b["at"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(at("keyword:log_step_count_steps")[0].starts_with(
        "tensorflow/estimator@v1.15.0:tensorflow_estimator/python/estimator/run_config.py:"
    ));
    // RunConfig's `> 0` is kept as written: an integer keyword then starts at 1, and the
    // float keep_checkpoint_every_n_hours takes any fraction above 0.
    assert_eq!(f["keyword:log_step_count_steps"][0]["min"], 0);
    assert_eq!(f["keyword:log_step_count_steps"][0]["above"], true);
    assert_eq!(f["keyword:keep_checkpoint_every_n_hours"][0]["above"], true);
    assert!(at("ge:ge.exec.opExecuteTimeout")[0].starts_with("hicann/ge@v9.0.0:"));
    assert!(at("session:task_index")[0].contains("om_partition_subgraphs_pass.cc:"));
    assert_eq!(
        f["session:input_fusion_size"].as_array().map(Vec::len),
        Some(2)
    );
}

#[test]
fn an_exception_holds_only_in_the_releases_it_names() {
    let e = exceptions();
    let tf2 = e
        .iter()
        .find(|e| e.finding == "tf2-values:auto_multistream_parallel_mode")
        .unwrap();
    assert!(tf2.covers(&tf2.finding, "9.0.0"));
    assert!(!tf2.covers(&tf2.finding, "next"));
}
