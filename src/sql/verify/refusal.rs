//! Why the server refused a statement, when the run can tell: a later
//! major version accepts the syntax, the statement needs what an earlier
//! refused statement would have created, or the replaying role lacks a
//! privilege. A refusal is a migration that fails on this server, never a
//! lock-table mismatch; naming its cause keeps one PostgreSQL 16-only
//! statement from reading as a hundred unexplained failures.
use super::StmtReport;
use crate::sql::Version;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Refusal {
    /// PostgreSQL `major` and later accept the statement; this server is older.
    NewerSyntax { major: u32, what: String },
    /// It names `relation`, which the refused statement `index` of `file`
    /// (at `line`) would have created or changed.
    AfterRefusal {
        relation: String,
        file: String,
        line: usize,
        index: usize,
    },
    /// The replaying role may not do it (a superuser's statement, run under
    /// verify's sandbox role).
    Privilege,
}

impl Refusal {
    /// The cause as the start of a sentence: `syntax newer than this server (…)`.
    pub fn sentence(&self) -> String {
        match self {
            Refusal::NewerSyntax { major, what } => {
                format!("syntax newer than this server (PostgreSQL {major} accepts {what})")
            }
            Refusal::AfterRefusal {
                relation,
                file,
                line,
                index,
            } => format!(
                "after an earlier refusal (`{relation}` comes from statement {index} at {file}:{line}, which the server refused)"
            ),
            Refusal::Privilege => "a privilege the replaying role lacks (verify's sandbox role is no superuser; --allow-cluster-wide, for trusted input, runs as the URL's user)".into(),
        }
    }

    /// The short label the summary counts by.
    pub fn label(&self) -> &'static str {
        match self {
            Refusal::NewerSyntax { .. } => "syntax newer than this server",
            Refusal::AfterRefusal { .. } => "after an earlier refusal",
            Refusal::Privilege => "a privilege the role lacks",
        }
    }
}

/// PostgreSQL errors a later major version no longer raises: the SQLSTATE,
/// the start of the message, a test on the token it names (`at or near
/// "…"`, empty when the message names none), the first version that
/// accepts the form, and the form.
type NewerRow = (
    &'static str,
    &'static str,
    fn(&str) -> bool,
    u32,
    &'static str,
);

const NEWER_PG: &[NewerRow] = &[
    (
        "42601",
        "subquery in FROM must have an alias",
        |_| true,
        16,
        "a subquery in FROM without an alias",
    ),
    (
        "42601",
        "trailing junk after numeric literal",
        |near| {
            let n = near.to_ascii_lowercase();
            n.ends_with('_') || ["0x", "0o", "0b"].iter().any(|p| n.starts_with(p))
        },
        16,
        "numeric literals with `_` separators or in hex, octal or binary",
    ),
    (
        "42601",
        "syntax error at or near",
        |near| near.eq_ignore_ascii_case("STORAGE"),
        16,
        "STORAGE in a column definition of CREATE TABLE",
    ),
];

/// `message (SQLSTATE)` as verify records a PostgreSQL error.
fn split_code(error: &str) -> (&str, &str) {
    match error.rsplit_once(" (") {
        Some((msg, code)) if code.len() == 6 && code.ends_with(')') => (msg, &code[..5]),
        _ => (error, ""),
    }
}

/// The first double-quoted name in a message, unescaped.
fn quoted(msg: &str) -> Option<String> {
    let start = msg.find('"')? + 1;
    let len = msg[start..].find('"')?;
    Some(msg[start..start + len].to_string())
}

fn newer_syntax(error: &str, server: Version) -> Option<Refusal> {
    let (msg, code) = split_code(error);
    let near = msg
        .split_once("at or near ")
        .and_then(|(_, rest)| quoted(rest))
        .unwrap_or_default();
    NEWER_PG
        .iter()
        .find(|(c, start, test, major, _)| {
            *c == code && msg.starts_with(start) && test(&near) && server.0 < *major
        })
        .map(|(_, _, _, major, what)| Refusal::NewerSyntax {
            major: *major,
            what: (*what).to_string(),
        })
}

/// Undefined-object errors: the name the server could not find.
fn missing_name(error: &str) -> Option<String> {
    let (msg, code) = split_code(error);
    if !matches!(code, "42P01" | "42703" | "42704" | "42883" | "3F000") {
        return None;
    }
    let name = quoted(msg)?;
    // `relation "public.t"`: the earlier statement may have named it bare.
    Some(
        name.rsplit('.')
            .next()
            .unwrap_or(&name)
            .to_ascii_lowercase(),
    )
}

/// `name` occurs in `text` as a whole identifier (any case, quoted or not).
fn mentions(text: &str, name: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    lower.match_indices(name).any(|(i, _)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// Names the cause of each refusal the run can explain; `texts[i]` is the
/// whole text of `reports[i]`. Run after the replay, in statement order, so
/// a refusal that follows from an explained one is explained in turn.
pub fn explain(reports: &mut [StmtReport], texts: &[&str], server: Version) {
    for i in 0..reports.len() {
        let Some(error) = reports[i].observed.error.clone() else {
            continue;
        };
        if reports[i].predicted.refused.is_some() {
            continue;
        }
        let cause = newer_syntax(&error, server)
            .or_else(|| {
                let name = missing_name(&error)?;
                let j = (0..i)
                    .rev()
                    .find(|&j| reports[j].observed.error.is_some() && mentions(texts[j], &name))?;
                // A chain names its first link: the statement to fix.
                match &reports[j].observed.refusal {
                    Some(r @ Refusal::AfterRefusal { relation, .. }) if *relation == name => {
                        Some(r.clone())
                    }
                    _ => Some(Refusal::AfterRefusal {
                        relation: name,
                        file: reports[j].file.clone(),
                        line: reports[j].line,
                        index: reports[j].index,
                    }),
                }
            })
            .or_else(|| (split_code(&error).1 == "42501").then_some(Refusal::Privilege));
        if let Some(cause) = cause {
            reports[i].observed.refusal = Some(cause);
            reports[i].disagreements =
                super::compare::compare(&reports[i].predicted, &reports[i].observed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pg16_form_on_pg15_is_newer_syntax_and_not_on_pg16() {
        let e = "subquery in FROM must have an alias (42601)";
        assert!(matches!(
            newer_syntax(e, Version(15, 4, 0)),
            Some(Refusal::NewerSyntax { major: 16, .. })
        ));
        assert_eq!(newer_syntax(e, Version(16, 1, 0)), None);
        let junk = "trailing junk after numeric literal at or near \"1_\" (42601)";
        assert!(newer_syntax(junk, Version(15, 0, 0)).is_some());
        let real_junk = "trailing junk after numeric literal at or near \"12a\" (42601)";
        assert_eq!(newer_syntax(real_junk, Version(15, 0, 0)), None);
    }

    #[test]
    fn missing_names_and_whole_identifier_mentions() {
        assert_eq!(
            missing_name("relation \"public.Comment_Actions\" does not exist (42P01)").as_deref(),
            Some("comment_actions")
        );
        assert_eq!(missing_name("division by zero (22012)"), None);
        assert!(mentions(
            "CREATE TABLE comment_actions AS",
            "comment_actions"
        ));
        assert!(mentions(
            "CREATE TABLE \"comment_actions\"(",
            "comment_actions"
        ));
        assert!(!mentions(
            "CREATE TABLE comment_actions_2 AS",
            "comment_actions"
        ));
    }
}
