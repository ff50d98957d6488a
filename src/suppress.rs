//! Inline suppressions, the same for every file type:
//! `platcheck-ignore CL012, CL013: reason (until 2026-12-31)` in a comment on
//! the line before the finding or at the end of its line. A reason is
//! required; a suppression without one, for an unknown rule, past its
//! `until` date or matching nothing is itself a finding (PC010).
use crate::catalog::RuleId;
use crate::contracts::units;
use crate::emit::Report;
use crate::source::FileClass;
use crate::source::{SourceFile, Span};
use crate::sql::Dialect;
use crate::sql::lexer::{Lexer, Tok};
use jiff::civil::Date;

const MARKER: &str = "platcheck-ignore";

// The record is part of the outcome (`platcheck suppressions` lists it).
pub use crate::outcome::Suppression;

/// The comment text of each line that has one, with its byte offset.
fn comments(src: &SourceFile, class: FileClass) -> Vec<(usize, usize, String, bool)> {
    if class == FileClass::Sql {
        return sql_comments(src);
    }
    let mut out = Vec::new();
    for line in 1..=src.line_count() {
        let text = src.line_text(line);
        if !text.contains(MARKER) {
            continue;
        }
        let found = match class {
            FileClass::Yaml => yaml_comment(text).map(|i| (i, &text[i + 1..])),
            FileClass::Sql => None,
            FileClass::Markdown => text
                .find("<!--")
                .map(|i| (i, text[i + 4..].split("-->").next().unwrap_or(""))),
        };
        if let Some((at, body)) = found {
            let whole_line = text[..at].trim().is_empty();
            out.push((
                line,
                src.line_start(line) + at,
                body.trim().to_string(),
                whole_line,
            ));
        }
    }
    out
}

/// SQL comments found by the lexer, so that `--` or `/*` inside a string
/// literal, a quoted identifier or a dollar quote is data, not a
/// suppression. PostgreSQL's rules are used for every dialect: both read
/// quotes as quotes, which is what matters here.
fn sql_comments(src: &SourceFile) -> Vec<(usize, usize, String, bool)> {
    let text: &str = &src.text;
    if !text.contains(MARKER) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut lx = Lexer::new(text, Dialect::Postgres);
    while let Some(t) = lx.next_token() {
        let raw = &text[t.start..t.end];
        let inner = match t.kind {
            Tok::LineComment => &raw[2..],
            Tok::BlockComment => {
                let r = &raw[2..];
                r.strip_suffix("*/").unwrap_or(r)
            }
            _ => continue,
        };
        if !inner.contains(MARKER) {
            continue;
        }
        let line = src.line_col(t.start).line;
        let whole_line = text[src.line_start(line)..t.start].trim().is_empty();
        out.push((line, t.start, inner.trim().to_string(), whole_line));
    }
    out
}

/// The byte index of a YAML comment's `#`, skipping `#` inside quotes.
fn yaml_comment(line: &str) -> Option<usize> {
    let (mut single, mut double) = (false, false);
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single && prev != '\\' => double = !double,
            '#' if !single && !double && prev.is_whitespace() => return Some(i),
            _ => {}
        }
        prev = c;
    }
    None
}

/// Finds every suppression in a file.
pub fn scan(file: usize, src: &SourceFile, class: FileClass, today: Date) -> Vec<Suppression> {
    let mut out = Vec::new();
    for (line, offset, body, whole_line) in comments(src, class) {
        let Some(rest) = body.strip_prefix(MARKER) else {
            continue;
        };
        let (rule_part, reason_part) = match rest.split_once(':') {
            Some((r, why)) => (r, why.trim()),
            None => (rest, ""),
        };
        let rules: Vec<String> = rule_part
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let (reason, until_text) = split_until(reason_part);
        let target_line = if whole_line {
            next_code_line(src, line, class)
        } else {
            line
        };
        let span = Span::new(offset, src.line_span(line).end);
        let mut s = Suppression {
            file,
            line,
            target_line,
            target_span: src.line_span(target_line),
            span,
            rules,
            reason: reason.to_string(),
            until: None,
            defect: None,
            used: false,
            off: false,
        };
        if let Some(t) = until_text {
            match units::parse_date(t) {
                Ok(d) => s.until = Some(d),
                Err(e) => s.defect = Some(("bad_until", e)),
            }
        }
        if s.rules.is_empty() {
            s.defect = Some(("no_rule", String::new()));
        } else if let Some(bad) = s.rules.iter().find(|r| crate::catalog::select(r).is_none()) {
            s.defect = Some(("unknown", bad.clone()));
        } else if s.reason.is_empty() {
            s.defect = Some(("no_reason", String::new()));
        } else if let Some(until) = s.until.filter(|u| *u < today) {
            s.defect = Some(("expired", until.to_string()));
        }
        out.push(s);
    }
    out
}

fn split_until(reason: &str) -> (&str, Option<&str>) {
    let r = reason.trim();
    if let Some(open) = r.rfind("(until")
        && let Some(inner) = r[open..]
            .strip_prefix("(until")
            .and_then(|x| x.trim().strip_suffix(')'))
    {
        return (r[..open].trim(), Some(inner.trim()));
    }
    (r, None)
}

/// The next line that is not blank and not only a comment: a suppression on
/// its own line covers that line.
fn next_code_line(src: &SourceFile, line: usize, class: FileClass) -> usize {
    for l in line + 1..=src.line_count() {
        let t = src.line_text(l).trim();
        let comment_only = match class {
            FileClass::Yaml => t.starts_with('#'),
            FileClass::Sql => t.starts_with("--"),
            FileClass::Markdown => t.starts_with("<!--") && t.ends_with("-->"),
        };
        if !t.is_empty() && !comment_only {
            return l;
        }
    }
    line + 1
}

/// The suppression that silences a report on `line` of `file`, if any (its
/// index in `sups`); marks it used.
pub fn matches(sups: &mut [Suppression], file: usize, line: usize, rule: RuleId) -> Option<usize> {
    for (i, s) in sups.iter_mut().enumerate() {
        if s.file == file
            && s.target_line == line
            && s.defect.is_none()
            && s.rules.iter().any(|r| crate::catalog::selects(r, rule))
        {
            s.used = true;
            return Some(i);
        }
    }
    None
}

/// Under `--no-inline-suppressions`: marks every suppression off, and
/// `used` where it would have hidden one of `hidden` (file, line, rule)
/// findings; the run's note saying what the flag disabled, if anything.
pub fn turn_off(
    sups: &mut [Suppression],
    hidden: impl IntoIterator<Item = (usize, usize, RuleId)>,
    files: &[SourceFile],
) -> Option<String> {
    let mut findings = 0usize;
    for (file, line, rule) in hidden {
        findings += usize::from(matches(sups, file, line, rule).is_some());
    }
    for s in sups.iter_mut() {
        s.off = true;
    }
    let off: Vec<&Suppression> = sups.iter().filter(|s| s.used).collect();
    if off.is_empty() {
        return None;
    }
    const SHOWN: usize = 5;
    let mut at: Vec<String> = off
        .iter()
        .take(SHOWN)
        .map(|s| format!("{}:{}", files[s.file].display, s.line))
        .collect();
    if off.len() > SHOWN {
        at.push(format!("{} more", off.len() - SHOWN));
    }
    Some(format!(
        "--no-inline-suppressions: {} not applied ({}); the {} they would hide {} reported (`platcheck suppressions --no-inline-suppressions` lists them)",
        crate::catalog::plural(off.len(), "inline suppression", "inline suppressions"),
        at.join(", "),
        crate::catalog::plural(findings, "finding", "findings"),
        if findings == 1 { "is" } else { "are" },
    ))
}

/// PC010 reports for defective and unused suppressions.
pub fn defects(sups: &[Suppression]) -> Vec<Report> {
    sups.iter()
        .filter_map(|s| {
            let base = Report::new(RuleId::PC010, s.file, s.span).var("rules", s.rules.join(", "));
            match &s.defect {
                Some((variant, detail)) => {
                    let hint = match crate::contracts::schema::select_rules(detail) {
                        Err(msg) if *variant == "unknown" => msg
                            .split_once("; ")
                            .map_or(String::new(), |(_, h)| format!("; {h}")),
                        _ => String::new(),
                    };
                    Some(
                        base.variant(variant)
                            .var("detail", detail)
                            .var("hint", hint),
                    )
                }
                None if !s.used => {
                    let unused = base.variant("unused").var("line", s.target_line);
                    Some(if s.target_line == s.line {
                        unused
                    } else {
                        unused.related(s.file, s.target_span, "the line it would silence")
                    })
                }
                None => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> Date {
        units::parse_date("2026-11-30").unwrap()
    }

    #[test]
    fn parses_reason_and_until() {
        let src = SourceFile::new(
            "a.yaml",
            "a.yaml",
            "a:\n  # platcheck-ignore PC005: drill booked (until 2026-12-31)\n  b: 1 # platcheck-ignore PC003, PC004: known\n  c: \"# not a comment platcheck-ignore\"\n",
        );
        let s = scan(0, &src, FileClass::Yaml, today());
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].target_line, 3);
        assert_eq!(s[0].reason, "drill booked");
        assert_eq!(s[0].until.unwrap().to_string(), "2026-12-31");
        assert!(s[0].defect.is_none());
        assert_eq!(s[1].target_line, 3);
        assert_eq!(s[1].rules, vec!["PC003", "PC004"]);
    }

    #[test]
    fn defects_are_classified() {
        let src = SourceFile::new(
            "a.sql",
            "a.sql",
            "-- platcheck-ignore PC005\n-- platcheck-ignore ZZ999: x\n-- platcheck-ignore PC005: old (until 2026-01-01)\nselect 1;\n",
        );
        let s = scan(0, &src, FileClass::Sql, today());
        let kinds: Vec<_> = s.iter().map(|s| s.defect.as_ref().unwrap().0).collect();
        assert_eq!(kinds, vec!["no_reason", "unknown", "expired"]);
    }

    #[test]
    fn a_marker_inside_sql_data_is_not_a_suppression() {
        let src = SourceFile::new(
            "a.sql",
            "a.sql",
            "SELECT '-- platcheck-ignore MG001: in a string';\nDO $$ -- platcheck-ignore MG001: body $$;\nSELECT \"-- platcheck-ignore MG001: x\";\n",
        );
        assert!(scan(0, &src, FileClass::Sql, today()).is_empty());
    }

    #[test]
    fn sql_suppressions_count_lines_after_cr_and_crlf() {
        for nl in ["\n", "\r\n", "\r"] {
            let text = [
                "SELECT 1;",
                "/* platcheck-ignore MG001: a */",
                "CREATE INDEX i ON t (a); -- platcheck-ignore MG030: b",
                "",
            ]
            .join(nl);
            let src = SourceFile::new("a.sql", "a.sql", &text);
            let s = scan(0, &src, FileClass::Sql, today());
            let lines: Vec<_> = s.iter().map(|s| (s.line, s.target_line)).collect();
            assert_eq!(lines, vec![(2, 3), (3, 3)], "{nl:?}");
            assert!(s.iter().all(|s| s.defect.is_none()), "{nl:?}");
        }
    }
}

/// One row of `platcheck suppressions`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    pub file: String,
    pub line: usize,
    pub rules: Vec<String>,
    pub reason: String,
    pub until: Option<String>,
    /// matched | not-applied (it would match, but `--no-inline-suppressions`
    /// is on) | unused | expired | no-reason | unknown-rule | no-rule | bad-until
    pub status: &'static str,
}

pub fn listing(sups: &[Suppression], files: &[SourceFile]) -> Vec<Row> {
    let mut rows: Vec<Row> = sups
        .iter()
        .map(|s| Row {
            file: files[s.file].display.clone(),
            line: s.line,
            rules: s.rules.clone(),
            reason: s.reason.clone(),
            until: s.until.map(|d| d.to_string()),
            status: match (&s.defect, s.used) {
                (None, true) if s.off => "not-applied",
                (Some(("expired", _)), _) => "expired",
                (Some(("no_reason", _)), _) => "no-reason",
                (Some(("unknown", _)), _) => "unknown-rule",
                (Some(("no_rule", _)), _) => "no-rule",
                (Some(_), _) => "bad-until",
                (None, true) => "matched",
                (None, false) => "unused",
            },
        })
        .collect();
    rows.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    rows
}
