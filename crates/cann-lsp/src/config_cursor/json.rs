//! What may be typed at a place of a JSON config. The text being typed does not parse
//! (`{"npu_run_config": {"op_comp`), so the place is read from the tokens before the
//! cursor: the keys of the objects it is inside, and whether a key or a value comes next.
//! Nothing is validated here; `cannctl check` says what is wrong.

use super::Site;

/// What a JSON site needs beyond YAML's: whether the cursor is inside a string (then the
/// completion is the bare word, and a closing quote the editor typed is kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonSite {
    pub site: Site,
    pub quoted: bool,
}

/// Containers deeper than this are not followed (nor are configs ever this deep).
const MAX_DEPTH: usize = 64;

#[derive(Debug)]
enum Frame {
    /// An object: the key being read or just read, and whether its value comes next.
    Object {
        key: Option<String>,
        value_next: bool,
    },
    Array,
}

/// The site at byte `offset` of a JSON text, or `None` where nothing is completed (inside
/// an array, after a value, past too deep a nesting).
pub fn site_at(text: &str, offset: usize) -> Option<JsonSite> {
    let before = text.get(..offset)?;
    let mut stack: Vec<Frame> = Vec::new();
    // The byte after the opening quote of the string the scan is in.
    let mut string: Option<usize> = None;
    let mut escaped = false;
    // A value was completed in the current object slot (`"a": 1|`): nothing to offer.
    let mut after_value = false;
    // Inside a bare literal (`true`, `12`); whitespace after one ends the value.
    let mut bare = false;
    for (i, c) in before.char_indices() {
        if let Some(start) = string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                string = None;
                if let Some(Frame::Object { key, value_next }) = stack.last_mut() {
                    if *value_next {
                        after_value = true;
                    } else {
                        *key = Some(before[start..i].to_string());
                    }
                } else {
                    after_value = true;
                }
            }
            continue;
        }
        if !c.is_whitespace() && !matches!(c, '"' | '{' | '[' | '}' | ']' | ':' | ',') {
            bare = true;
            after_value = false;
            continue;
        }
        if bare {
            after_value = true;
            bare = false;
        }
        match c {
            '"' => string = Some(i + 1),
            '{' | '[' => {
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                stack.push(if c == '{' {
                    Frame::Object {
                        key: None,
                        value_next: false,
                    }
                } else {
                    Frame::Array
                });
                after_value = false;
            }
            '}' | ']' => {
                stack.pop();
                after_value = true;
            }
            ':' => {
                if let Some(Frame::Object { value_next, .. }) = stack.last_mut() {
                    *value_next = true;
                }
                after_value = false;
            }
            ',' => {
                if let Some(Frame::Object { key, value_next }) = stack.last_mut() {
                    *key = None;
                    *value_next = false;
                }
                after_value = false;
            }
            _ => {}
        }
    }
    let path = |upto: usize| -> String {
        stack[..upto]
            .iter()
            .filter_map(|f| match f {
                Frame::Object { key, .. } => key.clone(),
                Frame::Array => None,
            })
            .collect::<Vec<_>>()
            .join(".")
    };
    // Every frame but the innermost must be an object holding the key it is under.
    let depth = stack.len();
    if depth == 0
        || stack[..depth - 1].iter().any(|f| {
            !matches!(
                f,
                Frame::Object {
                    key: Some(_),
                    value_next: true
                }
            )
        })
    {
        return None;
    }
    let Frame::Object { key, value_next } = &stack[depth - 1] else {
        return None;
    };
    let parent = path(depth - 1);
    let (start, quoted) = match string {
        Some(s) => (s, true),
        None => {
            let word = before
                .trim_end_matches(|c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
            (word.len(), false)
        }
    };
    if *value_next {
        if after_value && string.is_none() {
            return None;
        }
        let key = key.as_deref()?;
        let path = if parent.is_empty() {
            key.to_string()
        } else {
            format!("{parent}.{key}")
        };
        return Some(JsonSite {
            site: Site::Value { path, start },
            quoted,
        });
    }
    // A key: inside its quotes, or where one may start (after `{` or `,`).
    if !quoted && (key.is_some() || start != offset) {
        return None;
    }
    Some(JsonSite {
        site: Site::Key { parent, start },
        quoted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The site at the `|` of `marked`.
    fn at(marked: &str) -> Option<JsonSite> {
        let offset = marked.find('|').unwrap_or(marked.len());
        let text = marked.replacen('|', "", 1);
        site_at(&text, offset)
    }

    fn key(parent: &str, start: usize, quoted: bool) -> Option<JsonSite> {
        Some(JsonSite {
            site: Site::Key {
                parent: parent.into(),
                start,
            },
            quoted,
        })
    }

    fn value(path: &str, start: usize, quoted: bool) -> Option<JsonSite> {
        Some(JsonSite {
            site: Site::Value {
                path: path.into(),
                start,
            },
            quoted,
        })
    }

    #[test]
    fn keys_inside_quotes_and_where_one_may_start() {
        assert_eq!(at("{\"|"), key("", 2, true));
        assert_eq!(
            at("{\"npu_run_config\": {\"op_comp|\"}}"),
            key("npu_run_config", 21, true)
        );
        assert_eq!(
            at("{\"npu_run_config\": {\n  |"),
            key("npu_run_config", 23, false)
        );
        assert_eq!(
            at("{\"product\": \"x\", \"npu_run_config\": {\"a\": 1, \"memory_config\": {|"),
            key("npu_run_config.memory_config", 62, false)
        );
    }

    #[test]
    fn values_quoted_and_bare() {
        assert_eq!(at("{\"product\": \"atl|"), value("product", 13, true));
        assert_eq!(
            at("{\"npu_run_config\": {\"enable_dump\": tr|"),
            value("npu_run_config.enable_dump", 35, false)
        );
        assert_eq!(
            at("{\"npu_run_config\": {\"op_compiler_cache_mode\": |"),
            value("npu_run_config.op_compiler_cache_mode", 46, false)
        );
    }

    #[test]
    fn nothing_after_a_value_inside_arrays_or_in_escaped_keys() {
        assert_eq!(at("{\"product\": \"x\" |"), None);
        assert_eq!(at("{\"a\": 1 |"), None);
        assert_eq!(at("{\"a\": [\"|"), None);
        assert_eq!(at("[{\"|"), None);
        assert_eq!(at("|"), None);
        // An escaped quote does not end the key.
        assert_eq!(at("{\"a\\\"b|"), key("", 2, true));
        // Odd offsets and deep nesting answer nothing, never panic.
        assert_eq!(site_at("{\"é\"", 3), None);
        assert_eq!(site_at(&"{\"a\":".repeat(100), 500), None);
    }
}
