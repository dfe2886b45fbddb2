//! What a value does: `behaviours:` on an option the runtime acts on, `behaviour:` on each of
//! its values, and `values_of` for an option that takes another's values. A value the
//! runtime could not act on is a loader error at its line, never a Rust compile error later.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_spec::behaviour::{Behaviour, CacheBehaviour, MemoryExpansion};
use cann_spec::{load_files, Diagnostic, SourceFile};

const RELEASES: &str = "\
releases:
  - id: \"1.0\"
    products: [p-one]
";

const OPTIONS: &str = "\
config:
  name: RunConfig
  root_key: run
  products: { p-one: \"..\" }
  doc: { en: Run., zh: 运行。 }
options:
  - name: cache_mode
    type: string-enum
    behaviours: cache-mode
    values:
      - value: enable
        name: enable
        behaviour: reuse
        doc: { en: On., zh: 开。 }
      - value: force
        name: force
        behaviour: rebuild
        doc: { en: Again., zh: 重建。 }
      - value: disable
        name: disable
        behaviour: off
        doc: { en: Off., zh: 关。 }
    doc: { en: Cache., zh: 缓存。 }
  - name: memory_policy
    type: int-enum
    behaviours: memory-expansion
    values:
      - { value: 0, name: none, behaviour: none, doc: { en: No., zh: 无。 } }
      - { value: 2, name: static, behaviour: static-shape, aliases: [1], doc: { en: S., zh: 静。 } }
      - { value: 3, name: dynamic, behaviour: dynamic-shape, doc: { en: D., zh: 动。 } }
      - { value: 4, name: all, behaviour: all-shapes, doc: { en: A., zh: 全。 } }
    doc: { en: Memory., zh: 内存。 }
";

const ENV: &str = "\
config:
  name: Environment
  kind: environment
  root_key: env
  products: { p-one: \"..\" }
  doc: { en: Env., zh: 环境。 }
options:
  - name: MEMORY_POLICY
    type: int-enum
    values_of: memory_policy
    env: MEMORY_POLICY
    doc: { en: Env memory., zh: 环境内存。 }
";

fn files(options: &str, env: &str) -> Vec<SourceFile> {
    let mut files = common::spec_files(common::ONE_PRODUCT, RELEASES, options);
    files.push(SourceFile {
        path: "spec/env.yaml".into(),
        text: env.into(),
    });
    files
}

fn errors(options: &str, env: &str) -> Vec<Diagnostic> {
    match load_files(&files(options, env)) {
        Ok(_) => panic!("the spec should not load"),
        Err(e) => e.0,
    }
}

fn one(options: &str, env: &str) -> Diagnostic {
    let errs = errors(options, env);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    errs.into_iter().next().unwrap()
}

#[test]
fn behaviours_load_and_env_takes_the_option_values() {
    let spec = load_files(&files(OPTIONS, ENV)).unwrap();
    let cache = &spec.options[0];
    let got: Vec<_> = cache.values.iter().map(|v| v.behaviour).collect();
    assert_eq!(
        got,
        [
            Some(Behaviour::Cache(CacheBehaviour::Reuse)),
            Some(Behaviour::Cache(CacheBehaviour::Rebuild)),
            Some(Behaviour::Cache(CacheBehaviour::Off)),
        ]
    );
    let memory = &spec.options[1];
    let env = spec
        .options
        .iter()
        .find(|o| o.name == "MEMORY_POLICY")
        .unwrap();
    assert_eq!(env.values_of.as_deref(), Some("memory_policy"));
    assert_eq!(env.values, memory.values);
    assert_eq!(env.behaviours, memory.behaviours);
    assert_eq!(cann_spec::names::option_enum(env), "MemoryPolicy");
    assert_eq!(
        env.values[1].behaviour,
        Some(Behaviour::Memory(MemoryExpansion::StaticShape))
    );
}

#[test]
fn a_value_without_behaviour_is_refused_at_its_line() {
    let d = one(&OPTIONS.replace("        behaviour: rebuild\n", ""), ENV);
    assert_eq!(d.loc.file.to_str(), Some("spec/options/run.yaml"));
    // The value's own first line (`value: force`), column of its mapping.
    assert_eq!((d.loc.pos.line, d.loc.pos.col), (15, 9));
    assert!(
        d.message
            .contains("value `force` of `cache_mode` does not say what the runtime does with it"),
        "{d}"
    );
    assert_eq!(
        d.expected.as_deref(),
        Some("`behaviour:` one of `reuse`, `rebuild`, `off` (the `cache-mode` family the runtime implements)")
    );
    assert!(d.hint.is_some());
}

#[test]
fn an_unknown_behaviour_is_refused_with_a_suggestion() {
    let d = one(
        &OPTIONS.replace("behaviour: rebuild", "behaviour: rebuilt"),
        ENV,
    );
    assert_eq!((d.loc.pos.line, d.loc.pos.col), (17, 20));
    assert!(
        d.message
            .contains("`rebuilt` is not a behaviour of the `cache-mode` family"),
        "{d}"
    );
    assert_eq!(d.hint.as_deref(), Some("did you mean `rebuild`?"));
    // A behaviour of another family is not one of this one's.
    let d = one(
        &OPTIONS.replace("behaviour: rebuild", "behaviour: separate"),
        ENV,
    );
    assert!(d.message.contains("`separate` is not a behaviour"), "{d}");
}

#[test]
fn a_behaviour_needs_its_option_to_name_a_family() {
    let errs = errors(&OPTIONS.replace("    behaviours: cache-mode\n", ""), ENV);
    // One per value, each at its `behaviour:` line.
    let lines: Vec<u32> = errs.iter().map(|d| d.loc.pos.line).collect();
    assert_eq!(lines, [12, 16, 20], "{errs:#?}");
    assert!(
        errs.iter()
            .all(|d| d.message.contains("names no behaviour family")),
        "{errs:#?}"
    );
    let d = one(
        &OPTIONS.replace("behaviours: cache-mode", "behaviours: cache-modes"),
        ENV,
    );
    assert_eq!(d.loc.pos.line, 9);
    assert!(
        d.message
            .contains("names the unknown behaviour family `cache-modes`"),
        "{d}"
    );
    assert_eq!(d.hint.as_deref(), Some("did you mean `cache-mode`?"));
}

#[test]
fn a_combined_family_needs_a_value_for_every_behaviour() {
    let without_all = OPTIONS.replace(
        "      - { value: 4, name: all, behaviour: all-shapes, doc: { en: A., zh: 全。 } }\n",
        "",
    );
    let d = one(&without_all, ENV);
    assert_eq!(d.loc.pos.line, 26);
    assert!(
        d.message
            .contains("no value of `memory_policy` does `all-shapes`"),
        "{d}"
    );
}

#[test]
fn values_of_names_an_enum_option_and_lists_no_values() {
    let d = one(
        OPTIONS,
        &ENV.replace("values_of: memory_policy", "values_of: memory_polcy"),
    );
    assert_eq!(d.loc.file.to_str(), Some("spec/env.yaml"));
    assert_eq!(d.loc.pos.line, 10);
    assert!(
        d.message
            .contains("`values_of` names the unknown option `memory_polcy`"),
        "{d}"
    );
    assert_eq!(d.hint.as_deref(), Some("did you mean `memory_policy`?"));
    let own = ENV.replace(
        "    values_of: memory_policy\n",
        "    values_of: memory_policy\n    values:\n      - { value: 0, name: none, doc: { en: No., zh: 无。 } }\n",
    );
    let d = one(OPTIONS, &own);
    assert!(d.message.contains("lists values of its own"), "{d}");
    let d = one(OPTIONS, &ENV.replace("type: int-enum", "type: string-enum"));
    assert!(d.message.contains("both must be the same enum type"), "{d}");
}
