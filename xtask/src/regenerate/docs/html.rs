//! Spec prose into HTML: escaping, `code` spans and the two-language markup.

use std::fmt;

use cann_spec::Text;

/// Markup that is already escaped. Templates print it as is (askama's `HtmlSafe`), while
/// every plain `String` they print is escaped; so spec prose cannot inject markup, and no
/// template needs `|safe`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Html(String);

impl Html {
    /// Markup assembled here from escaped pieces.
    pub fn trusted(s: String) -> Html {
        Html(s)
    }
}

impl fmt::Display for Html {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl askama::filters::HtmlSafe for Html {}

pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// Escaped text with `` `code` `` spans as `<code>`; an unpaired backtick stays as is.
pub fn inline(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    // An even number of parts means an odd number of backticks.
    if parts.len() & 1 == 0 {
        return escape(s);
    }
    let mut o = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i % 2 == 1 {
            o.push_str("<code>");
            o.push_str(&escape(p));
            o.push_str("</code>");
        } else {
            o.push_str(&quoted_literals(p));
        }
    }
    o
}

/// Escaped prose whose `"quoted"` literals without spaces (`"getnext:[128,3~5,-1]"`) are
/// code: a value is one token, never broken over lines.
fn quoted_literals(s: &str) -> String {
    let mut o = String::new();
    let mut rest = s;
    while let Some(a) = rest.find('"') {
        let after = &rest[a + 1..];
        match after.find('"') {
            Some(b) if b > 0 && !after[..b].chars().any(char::is_whitespace) => {
                o.push_str(&escape(&rest[..a]));
                o.push_str("<code>");
                o.push_str(&escape(&rest[a..a + b + 2]));
                o.push_str("</code>");
                rest = &after[b + 1..];
            }
            _ => {
                o.push_str(&escape(&rest[..=a]));
                rest = after;
            }
        }
    }
    o.push_str(&escape(rest));
    o
}

/// Both languages inline; the stylesheet shows the one chosen.
pub fn bi(t: &Text) -> Html {
    bi_str(&t.en, &t.zh)
}

pub fn bi_str(en: &str, zh: &str) -> Html {
    Html(format!(
        "<span class=\"en\" lang=\"en\">{}</span><span class=\"zh\" lang=\"zh\">{}</span>",
        inline(en),
        inline(zh)
    ))
}

/// Both languages as paragraphs.
pub fn bi_p(t: &Text) -> Html {
    Html(format!(
        "<p class=\"en\" lang=\"en\">{}</p><p class=\"zh\" lang=\"zh\">{}</p>",
        inline(&t.en),
        inline(&t.zh)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_and_escaping() {
        assert_eq!(
            inline("set `a<b>` & go"),
            "set <code>a&lt;b&gt;</code> &amp; go"
        );
        assert_eq!(inline("odd ` tick"), "odd ` tick");
        assert_eq!(
            inline("as \"a,b\" or \"two words\""),
            "as <code>&quot;a,b&quot;</code> or &quot;two words&quot;"
        );
    }
}
