//! A report as a table, for notebooks: `_repr_html_` and `_repr_markdown_`. The heading is
//! the report's own summary line; the columns come from the catalog.

use cann_i18n::catalog::python as msg;

use crate::findings::{Finding, Report};

fn head(r: &Report) -> String {
    let full = r.render();
    // The command's text ends with its summary ("file: 2 errors, 0 warnings, 0 notes").
    full.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string()
}

fn place(f: &Finding) -> String {
    let mut s = String::new();
    if let Some(p) = &f.path {
        s.push_str(p);
    }
    if let (Some(l), Some(c)) = (f.line, f.column) {
        s.push_str(&format!(":{l}:{c}"));
    }
    if let Some(w) = &f.setting {
        s.push_str(w);
    }
    s.trim_start_matches(':').to_string()
}

fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("<br>"),
            c => out.push(c),
        }
    }
    out
}

fn escape_md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\n' => out.push_str("<br>"),
            '<' => out.push_str("&lt;"),
            c => out.push(c),
        }
    }
    out
}

fn columns(r: &Report) -> [String; 5] {
    let l = r.lang;
    [
        msg::col_severity(l),
        msg::col_where(l),
        msg::col_option(l),
        msg::col_message(l),
        msg::col_hint(l),
    ]
}

fn row(f: &Finding) -> [String; 5] {
    [
        f.severity.to_string(),
        place(f),
        f.option.clone(),
        f.message.clone(),
        f.hint.clone().unwrap_or_default(),
    ]
}

pub fn html(r: &Report) -> String {
    let mut out = format!("<p><strong>{}</strong></p>", escape_html(&head(r)));
    if r.findings.is_empty() {
        return out;
    }
    out.push_str("<table><thead><tr>");
    for c in columns(r) {
        out.push_str(&format!("<th>{}</th>", escape_html(&c)));
    }
    out.push_str("</tr></thead><tbody>");
    for f in &r.findings {
        out.push_str("<tr>");
        for (i, cell) in row(f).iter().enumerate() {
            let text = escape_html(cell);
            if i == 2 && !cell.is_empty() {
                out.push_str(&format!("<td><code>{text}</code></td>"));
            } else {
                out.push_str(&format!("<td>{text}</td>"));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

pub fn markdown(r: &Report) -> String {
    let mut out = format!("**{}**\n", escape_md(&head(r)));
    if r.findings.is_empty() {
        return out;
    }
    let cols = columns(r);
    out.push_str(&format!("\n| {} |\n", cols.join(" | ")));
    out.push_str(&format!("|{}\n", "---|".repeat(cols.len())));
    for f in &r.findings {
        let cells: Vec<String> = row(f)
            .iter()
            .enumerate()
            .map(|(i, c)| match i {
                2 if !c.is_empty() => format!("`{}`", c.replace('`', "")),
                _ => escape_md(c),
            })
            .collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}
