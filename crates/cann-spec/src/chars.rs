//! Character classes the spec names in `chars:`, defined once for every consumer
//! (validator, JSON Schema, cache directory checks).

/// Blocks of CJK ideographs: the "Chinese characters" the upstream documentation allows.
pub const CJK: &[(char, char)] = &[
    ('\u{3400}', '\u{4DBF}'),   // extension A
    ('\u{4E00}', '\u{9FFF}'),   // unified ideographs
    ('\u{F900}', '\u{FAFF}'),   // compatibility ideographs
    ('\u{20000}', '\u{2FA1F}'), // extensions B-F and the compatibility supplement
];

pub fn is_cjk(c: char) -> bool {
    CJK.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c))
}
