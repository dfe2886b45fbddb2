//! The prose detector the `--lang zh` tests share: which words of an output are English
//! prose, once names, code, paths and numbers are set aside.

use std::collections::BTreeSet;

use cann_config::OPTIONS;

/// Terms the upstream Chinese docs write in English, and unit and brand names.
const KEPT_IN_ENGLISH: &[&str] = &[
    "CANN",
    "Ascend",
    "Atlas",
    "Cube",
    "Vector",
    "Core",
    "session",
    "shape",
    "MB",
    "true",
    "false",
    "null",
    "Estimator",
    "Loss",
    "Scale",
    "cannctl",
    "TF",
    "Adapter",
    "shell",
    "bash",
    "zsh",
    "fish",
    "elvish",
    "powershell",
    "man",
    "roff",
    "diff",
    "Schema",
    "pickle",
    "torch",
    "Python",
    // Operator names.
    "Gather",
];

/// Every name a message may quote bare: options, classes, values, keys, variables, products.
pub fn names() -> BTreeSet<String> {
    let mut n: BTreeSet<String> = KEPT_IN_ENGLISH.iter().map(|s| s.to_string()).collect();
    // Terms the spec's Chinese texts (carried over from upstream docs/zh) write in English
    // inside Chinese sentences (`dump 路径`, `rank table 文件`): a word whose neighbour, past
    // spaces and other such words, is a Chinese character. An English sentence quoted in
    // a Chinese text does not count.
    let mut kept_by_upstream = |zh: &str| {
        let cs: Vec<char> = zh.chars().collect();
        let mut i = 0;
        while i < cs.len() {
            if !cs[i].is_ascii_alphabetic() {
                i += 1;
                continue;
            }
            let start = i;
            while i < cs.len() && cs[i].is_ascii_alphabetic() {
                i += 1;
            }
            let before = cs[..start].iter().rev().find(|c| !c.is_whitespace());
            let after = cs[i..].iter().find(|c| !c.is_whitespace());
            let cjk = |c: Option<&char>| c.is_some_and(|c| *c > '\u{2e80}');
            if cjk(before) || cjk(after) {
                n.insert(cs[start..i].iter().collect());
            }
        }
    };
    for o in OPTIONS {
        kept_by_upstream(o.doc.zh);
    }
    for p in cann_config::Product::ALL {
        kept_by_upstream(p.meta().name.zh);
        for a in p.meta().aliases {
            kept_by_upstream(&format!("{a}的"));
        }
    }
    let mut add = |s: &str| {
        n.extend(
            // Whole names only: a segment of one (`mode` of `cache_mode`) is not a name.
            s.split('.').filter(|w| !w.is_empty()).map(str::to_string),
        );
    };
    for o in OPTIONS {
        // Type names as the tables show them (`int`, `string-enum`).
        for t in o.ty.name().split('-') {
            add(t);
        }
        add(o.path);
        add(o.config);
        for x in [o.ge_key, o.estimator, o.tf2, o.env].into_iter().flatten() {
            add(x);
        }
        for v in o.values {
            add(v.name);
        }
    }
    for p in cann_config::Product::ALL {
        add(p.id());
    }
    for (name, _) in cann_config::emit::Format::ALL {
        add(name);
    }
    // The values flags take (`human`, `documented`), as the help lists them.
    fn values(cmd: &clap::Command, add: &mut dyn FnMut(&str)) {
        for a in cmd.get_arguments() {
            for v in a.get_possible_values() {
                add(v.get_name());
            }
        }
        for s in cmd.get_subcommands() {
            add(s.get_name());
            values(s, add);
        }
    }
    values(
        &cannctl::cli::localize::command(cann_config::meta::Lang::Zh),
        &mut add,
    );
    n
}

/// The English words left in `out` once what is not prose is removed: the quoted source
/// lines, paths, code in backticks, quoted values, and identifiers (with `_`, digits, dots).
pub fn english_words(out: &str, names: &BTreeSet<String>) -> Vec<String> {
    let mut words = Vec::new();
    for line in out.lines() {
        let t = line.trim_start();
        let excerpt = t
            .split_once('|')
            .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
            || t.starts_with('|');
        if excerpt || t.starts_with("-->") {
            continue;
        }
        let mut prose = String::new();
        let mut quote = None;
        for c in line.chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '`' || c == '"' || c == '\'' => quote = Some(c),
                None => prose.push(c),
            }
        }
        for token in
            prose.split(|c: char| c.is_whitespace() || "，。：；、（）()[],:;?？".contains(c))
        {
            // Operator and class names (HcomAllReduce) and acronyms have capitals inside.
            let identifier = token.contains(['_', '.', '/', '=', '|', '-'])
                || token.chars().any(|c| c.is_ascii_digit())
                || token.chars().skip(1).any(|c| c.is_ascii_uppercase());
            if identifier {
                continue;
            }
            for w in token.split(|c: char| !c.is_ascii_alphabetic()) {
                if w.len() >= 2 && !names.contains(w) {
                    words.push(w.to_string());
                }
            }
        }
    }
    words
}
