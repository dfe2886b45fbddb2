#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::lint_source;

fn fixtures() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    for d in [dir.clone(), dir.join("patterns")] {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "py") {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                out.push((p.display().to_string(), text));
            }
        }
    }
    out.sort();
    assert!(out.len() >= 8, "{out:?}");
    out
}

/// A small deterministic generator: the same edits on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % below.max(1)
    }
}

/// What typing does: characters, brackets and quotes left open, lines, whole settings,
/// deletions, the same character typed and taken back.
const TYPED: [&str; 14] = [
    "x",
    "e",
    "\n",
    "(",
    ")",
    "\"",
    "[",
    ", ",
    "    ",
    "#",
    "custom_op.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"allow_fp32\")\n",
    "cfg = NPURunConfig(precision_mode=\"bad\", op_debug_level=3)\n",
    "os.environ[\"GE_USE_STATIC_MEMORY\"] = \"2\"\n",
    "npu.global_options().memory_config.atomic_clean_policy = 5\n",
];

fn floor_char(t: &str, mut i: usize) -> usize {
    while !t.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn edit(t: &mut String, rng: &mut Lcg) {
    let at = floor_char(t, rng.next(t.len() + 1));
    match rng.next(4) {
        0 => {
            let end = floor_char(t, (at + 1 + rng.next(24)).min(t.len()));
            t.replace_range(at..end, "");
        }
        _ => t.insert_str(at, TYPED[rng.next(TYPED.len())]),
    }
}

/// At every step of random edits, the incremental lint finds exactly what a fresh lint of
/// the same text finds: broken and repaired code included.
#[test]
fn every_step_of_random_edits_equals_a_fresh_lint() {
    let opts = LintOptions::default();
    let mut rng = Lcg(27);
    let (mut reused, mut incremental) = (0, 0);
    for (name, text) in fixtures() {
        let mut memo = Incremental::default();
        let mut t = text.clone();
        for step in 0..40 {
            let fresh = lint_source(&t, &opts).unwrap();
            let again = memo.lint(&t, &opts).unwrap();
            assert_eq!(again, fresh, "{name}, step {step}:\n{t}");
            reused += memo.stats().reused;
            incremental += usize::from(memo.stats().incremental_parse);
            // Every few steps, back to the start: syntax errors come and go.
            if step % 10 == 9 {
                t = text.clone();
            } else {
                edit(&mut t, &mut rng);
            }
        }
    }
    // The point of it: most objects and most parses came from the run before.
    assert!(reused > 100, "{reused} objects reused");
    assert!(incremental > 50, "{incremental} incremental parses");
}

/// Changing one `parameter_map` key checks that session alone again; the other objects'
/// verdicts are the last run's.
#[test]
fn an_edit_in_one_object_checks_that_object_alone() {
    let opts = LintOptions::default();
    let (_, text) = fixtures()
        .into_iter()
        .find(|(n, _)| n.ends_with("/session_bert.py"))
        .unwrap();
    // Two copies: the same script twice over, each function its own object.
    let text = format!("{text}\n{}", text.replace("def ", "def again_"));
    let mut memo = Incremental::default();
    let first = memo.lint(&text, &opts).unwrap();
    let objects = memo.stats().checked;
    assert!(objects >= 2, "{:?}", memo.stats());
    let at = text.rfind("\"precision_mode\"").unwrap() + "\"precision_mod".len();
    let mut edited = text.clone();
    edited.replace_range(at..at + 1, "x");
    let second = memo.lint(&edited, &opts).unwrap();
    assert_eq!(second, lint_source(&edited, &opts).unwrap());
    assert_ne!(second.findings, first.findings);
    let s = memo.stats();
    assert!(s.incremental_parse, "{s:?}");
    assert_eq!(s.checked, 1, "{s:?}");
    assert_eq!(s.reused, objects - 1, "{s:?}");
    // Other options: nothing is reused.
    let zh = LintOptions {
        lang: cann_config::meta::Lang::Zh,
        ..opts
    };
    assert_eq!(
        memo.lint(&edited, &zh).unwrap(),
        lint_source(&edited, &zh).unwrap()
    );
    assert_eq!(memo.stats().reused, 0);
}

#[test]
fn the_edit_between_two_texts() {
    let e = edit_between("ab\ncd\nef", "ab\ncXd\nef");
    assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (4, 4, 5));
    assert_eq!(e.start_position, tree_sitter::Point::new(1, 1));
    assert_eq!(e.new_end_position, tree_sitter::Point::new(1, 2));
    // Repeated bytes: prefix and suffix never overlap.
    let e = edit_between("aaa", "aaaa");
    assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (3, 3, 4));
    let e = edit_between("a\nb", "");
    assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (0, 3, 0));
    assert_eq!(e.old_end_position, tree_sitter::Point::new(1, 1));
}
