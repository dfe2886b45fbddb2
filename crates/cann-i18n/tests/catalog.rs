//! Every catalog entry has both languages, written as each language writes.

use cann_i18n::catalog::AREAS;
use cann_i18n::{Entry, Lang};

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}')
}

fn is_full_width_punct(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}')
}

/// The text with its `{placeholders}` and `` `code` `` spans removed, and the punctuation
/// that only joins them.
fn without_code(text: &str) -> String {
    let mut out = String::new();
    let mut skip_until = None;
    for c in text.chars() {
        match (skip_until, c) {
            (Some(end), c) if c == end => skip_until = None,
            (Some(_), _) => {}
            (None, '{') => skip_until = Some('}'),
            (None, '`') => skip_until = Some('`'),
            (None, c) if c.is_alphanumeric() => out.push(c),
            (None, _) => {}
        }
    }
    out
}

fn entries() -> impl Iterator<Item = (&'static str, &'static Entry)> {
    AREAS
        .iter()
        .flat_map(|(area, es)| es.iter().map(move |e| (*area, e)))
}

/// `{name}` and `{name:spec}` placeholders of a text; `{{` is a literal brace.
fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        if rest[i + 1..].starts_with('{') {
            rest = &rest[i + 2..];
            continue;
        }
        let end = rest[i..].find('}').map_or(rest.len(), |e| i + e);
        let inner = &rest[i + 1..end];
        out.push(inner.split(':').next().unwrap_or(inner));
        rest = &rest[(end + 1).min(rest.len())..];
    }
    out
}

#[test]
fn every_entry_has_both_languages() {
    let mut bad = Vec::new();
    for (area, e) in entries() {
        for lang in Lang::ALL {
            if e.text(lang).trim().is_empty() {
                bad.push(format!("{area}::{} has no {lang} text", e.id));
            }
        }
        // Chinese words, or at least Chinese punctuation around placeholders. A fragment that
        // is only placeholders and code (`{what} `{name}``) has no prose to translate.
        let prose = !without_code(e.zh).trim().is_empty();
        if (prose && !e.zh.chars().any(|c| is_cjk(c) || is_full_width_punct(c))) || e.zh == e.en {
            bad.push(format!(
                "{area}::{}: the zh text is not Chinese: {:?}",
                e.id, e.zh
            ));
        }
        if e.en.chars().any(is_cjk) {
            bad.push(format!(
                "{area}::{}: the en text has Chinese: {:?}",
                e.id, e.en
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn both_languages_show_every_argument() {
    let mut bad = Vec::new();
    for (area, e) in entries() {
        for lang in Lang::ALL {
            let used = placeholders(e.text(lang));
            for arg in e.args {
                if !used.contains(arg) {
                    bad.push(format!(
                        "{area}::{}: the {lang} text does not show `{arg}`",
                        e.id
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Chinese text uses full-width punctuation next to Chinese characters.
#[test]
fn chinese_punctuation_is_full_width() {
    let mut bad = Vec::new();
    for (area, e) in entries() {
        let cs: Vec<char> = e.zh.chars().collect();
        for w in cs.windows(2) {
            let half = [',', ';', ':', '(', ')', '?', '!'];
            if (is_cjk(w[0]) && half.contains(&w[1])) || (half.contains(&w[0]) && is_cjk(w[1])) {
                bad.push(format!(
                    "{area}::{}: half-width `{}{}` in {:?}",
                    e.id, w[0], w[1], e.zh
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn ids_are_unique_within_an_area() {
    for (area, es) in AREAS {
        let mut ids: Vec<&str> = es.iter().map(|e| e.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(before, ids.len(), "duplicate ids in {area}");
    }
}

#[test]
fn text_arguments_follow_the_message_language() {
    let name = cann_i18n::Text {
        en: "Atlas A2 training series",
        zh: "Atlas A2 训练系列产品",
    };
    let zh = cann_i18n::catalog::config::cores_over_product(Lang::Zh, "aicore_num", name);
    assert_eq!(zh, "`aicore_num` 超出了 Atlas A2 训练系列产品的核数");
    let en = cann_i18n::catalog::config::cores_over_product(Lang::En, "aicore_num", name);
    assert_eq!(
        en,
        "`aicore_num` asks for more cores than the Atlas A2 training series has"
    );
}

#[test]
fn lang_tags_parse_with_regions() {
    assert_eq!("zh-CN".parse::<Lang>(), Ok(Lang::Zh));
    assert_eq!("zh_CN.UTF-8".parse::<Lang>(), Ok(Lang::Zh));
    assert_eq!("EN".parse::<Lang>(), Ok(Lang::En));
    assert!("fr".parse::<Lang>().is_err());
    assert_eq!(Lang::Zh.join(["a", "b"]), "a、b");
    assert_eq!(Lang::En.join(["a", "b"]), "a, b");
}

/// Chinese text keeps a space between Chinese and Latin letters, digits or code, in the
/// catalog's own words and where an argument meets them.
#[test]
fn chinese_meets_latin_with_a_space() {
    let mut bad = Vec::new();
    for (area, e) in entries() {
        // Placeholders are spaced when formatted; the literal text must already be.
        let literal: String = {
            let mut out = String::new();
            let mut depth = 0;
            for c in e.zh.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => {
                        depth -= 1;
                        out.push('\u{3000}');
                    }
                    _ if depth > 0 => {}
                    c => out.push(c),
                }
            }
            out
        };
        let cs: Vec<char> = literal.chars().collect();
        for w in cs.windows(2) {
            let latin = |c: char| c.is_ascii_alphanumeric() || c == '`';
            if (is_cjk(w[0]) && latin(w[1])) || (latin(w[0]) && is_cjk(w[1])) {
                bad.push(format!(
                    "{area}::{}: `{}{}` in {:?}",
                    e.id, w[0], w[1], e.zh
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let key = cann_i18n::catalog::lint::place_key(Lang::Zh);
    let env = cann_i18n::catalog::lint::place_env(Lang::Zh);
    let then = "适配器不会读取该键";
    assert_eq!(
        cann_i18n::catalog::lint::unknown_name(Lang::Zh, &key, "op_debug_levl", then),
        "未知的 parameter_map 键 `op_debug_levl`：适配器不会读取该键"
    );
    assert_eq!(
        cann_i18n::catalog::lint::unknown_name(Lang::Zh, &env, "X", then),
        "未知的环境变量 `X`：适配器不会读取该键"
    );
    // Inside a value nothing changes.
    assert_eq!(
        cann_i18n::catalog::lint::unknown_name(Lang::Zh, &env, "模型v2", then),
        "未知的环境变量 `模型v2`：适配器不会读取该键"
    );
}
