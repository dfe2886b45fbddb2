//! Every integer range of the spec, at and just past both ends, through the whole pipeline
//! (YAML text, parse, validate).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_config::meta::TypeMeta;
use cann_config::{Release, OPTIONS};
use common::*;

/// A config file that sets the option at `path` to `value`.
fn yaml_at(path: &str, value: i64) -> String {
    let mut out = String::new();
    for (depth, seg) in path.split('.').enumerate() {
        out.push_str(&"  ".repeat(depth));
        out.push_str(seg);
        out.push(':');
        out.push(if depth + 1 == path.split('.').count() {
            ' '
        } else {
            '\n'
        });
    }
    out.push_str(&value.to_string());
    out.push('\n');
    out
}

fn out_of_range(path: &str, value: i64) -> bool {
    let yaml = yaml_at(path, value);
    check(&yaml, "atlas-a2-training", Release::LATEST.id())
        .iter()
        .any(|d| {
            // An advised bound says so, as a warning: its words differ from an upstream one's.
            d.option == path
                && (d.message.contains("out of range") || d.message.contains("cannctl advises"))
        })
}

#[test]
fn every_integer_range_holds_at_its_ends() {
    let mut checked = 0;
    for o in OPTIONS.iter().filter(|o| o.ty == TypeMeta::Int) {
        let Some(r) = o.range_in(Release::LATEST) else {
            continue;
        };
        if let Some(min) = r.min {
            assert!(!out_of_range(o.path, min), "{}: min {min} rejected", o.path);
            if min > i64::MIN {
                assert!(
                    out_of_range(o.path, min - 1),
                    "{}: {} accepted",
                    o.path,
                    min - 1
                );
            }
        }
        if let Some(max) = r.max {
            assert!(!out_of_range(o.path, max), "{}: max {max} rejected", o.path);
            if max < i64::MAX {
                assert!(
                    out_of_range(o.path, max + 1),
                    "{}: {} accepted",
                    o.path,
                    max + 1
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} ranged options");
}

#[test]
fn every_enum_rejects_a_value_it_does_not_list() {
    for o in OPTIONS.iter().filter(|o| o.ty == TypeMeta::IntEnum) {
        let unused = (0..1000)
            .find(|v| {
                !o.values.iter().any(|x| {
                    x.value == cann_config::meta::Lit::Int(*v)
                        || x.aliases.contains(&cann_config::meta::Lit::Int(*v))
                })
            })
            .unwrap();
        let f = parse(&yaml_at(o.path, unused));
        assert!(
            f.diagnostics.iter().any(|d| d.option == o.path),
            "{}: {unused} accepted",
            o.path
        );
    }
}
