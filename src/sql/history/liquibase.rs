//! Liquibase formatted SQL: a changelog starts with `--liquibase formatted
//! sql`; each `--changeset author:id [attributes]` runs in its own
//! transaction unless `runInTransaction:false`; its `--rollback <sql>` lines
//! (or a `/* liquibase rollback … */` block) undo it. Changelogs are read in
//! path order, as `includeAll` would.
use super::layout::is_liquibase;
use super::{Build, Input, Step, Unit, names};
use crate::catalog::RuleId;
use crate::source::Span;
use regex::Regex;
use std::sync::LazyLock;

static CHANGESET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^\s*--\s*changeset\b(.*)$").expect("regex"));
static ROLLBACK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^\s*--\s*rollback\b\s?").expect("regex"));

struct Changeset {
    header: Span,
    id: String,
    body: Span,
    no_tx: bool,
    one_statement: bool,
    dbms: Option<String>,
}

/// `attr:value` pairs after `author:id` on a changeset line.
fn attr<'a>(rest: &'a str, key: &str) -> Option<&'a str> {
    rest.split_whitespace().find_map(|w| {
        let (k, v) = w.split_once(':')?;
        k.eq_ignore_ascii_case(key).then_some(v)
    })
}

/// Whether a `dbms:` list includes the directory's database.
fn dbms_applies(list: &str, flavor: super::Flavor) -> bool {
    let mine: &[&str] = match flavor {
        super::Flavor::MySql => &["mysql", "mariadb"],
        super::Flavor::Cockroach => &["cockroachdb", "postgresql"],
        _ => &["postgresql"],
    };
    let items: Vec<String> = list
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .collect();
    if items.iter().any(|i| i == "none") {
        return false;
    }
    if items
        .iter()
        .any(|i| i.strip_prefix('!').is_some_and(|n| mine.contains(&n)))
    {
        return false;
    }
    let positives: Vec<&String> = items.iter().filter(|i| !i.starts_with('!')).collect();
    positives.is_empty()
        || positives
            .iter()
            .any(|i| *i == "all" || mine.contains(&i.as_str()))
}

pub fn read(b: &mut Build, mut inputs: Vec<Input>) {
    inputs.sort_by(|x, y| names::natural_cmp(&x.rel, &y.rel));
    // `file::author:id` → where it was first defined.
    let mut ids: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for inp in &inputs {
        if !is_liquibase(inp.text) {
            b.file_problem(
                RuleId::PC015,
                inp,
                format!(
                    "{} does not start with `--liquibase formatted sql`: Liquibase does not read it as a formatted SQL changelog",
                    inp.rel
                ),
            );
            continue;
        }
        let sets = changesets(b, inp);
        if let Some(first) = sets.first() {
            b.stray_prefix(inp, first.header.start, "the first `--changeset` line");
        }
        for cs in sets {
            let key = format!("{}::{}", inp.rel, cs.id);
            if let Some(first) = ids.get(&key) {
                b.problem(
                    RuleId::PC014,
                    inp.file,
                    cs.header,
                    format!("changeset {} is also defined at {first}: Liquibase refuses duplicate changeset identifiers", cs.id),
                );
                continue;
            }
            let line = 1 + inp.text[..cs.header.start].matches('\n').count();
            ids.insert(key, format!("{}:{line}", inp.rel));
            if let Some(list) = &cs.dbms
                && !dbms_applies(list, b.flavor)
            {
                b.problem(
                    RuleId::PC012,
                    inp.file,
                    cs.header,
                    format!(
                        "changeset {} is for dbms `{list}`, and this directory's migrations run on {}: Liquibase skips it",
                        cs.id,
                        b.flavor.as_str()
                    ),
                );
                continue;
            }
            let rollback = rollback(inp.text, cs.body);
            let up = Unit {
                file: inp.file,
                keep: Some(vec![cs.body]),
                blocks: if cs.one_statement {
                    vec![cs.body]
                } else {
                    Vec::new()
                },
                no_tx: cs.no_tx,
                label: format!("changeset {}", cs.id),
            };
            let downs = (!rollback.is_empty())
                .then(|| Unit {
                    file: inp.file,
                    keep: Some(rollback),
                    blocks: Vec::new(),
                    no_tx: cs.no_tx,
                    label: format!("the rollback of changeset {}", cs.id),
                })
                .into_iter()
                .collect();
            b.steps.push(Step::new(up, downs));
        }
    }
}

fn changesets(b: &mut Build, inp: &Input) -> Vec<Changeset> {
    let mut out: Vec<Changeset> = Vec::new();
    for (start, line) in names::lines(inp.text) {
        let Some(c) = CHANGESET.captures(line) else {
            continue;
        };
        let header = Span::new(start, start + line.len());
        if let Some(prev) = out.last_mut() {
            prev.body.end = start;
        }
        let rest = c.get(1).map_or("", |m| m.as_str()).trim();
        let first = rest.split_whitespace().next().unwrap_or("");
        let id = match first.split_once(':') {
            Some((a, i)) if !a.is_empty() && !i.is_empty() => first.trim_matches('"').to_string(),
            _ => {
                b.problem(
                    RuleId::PC015,
                    inp.file,
                    header,
                    "a changeset line needs `author:id` after `--changeset`: Liquibase refuses the changelog",
                );
                continue;
            }
        };
        let is_false = |k| attr(rest, k).is_some_and(|v| v.eq_ignore_ascii_case("false"));
        let delimiter = attr(rest, "endDelimiter").filter(|d| !d.is_empty() && *d != ";");
        out.push(Changeset {
            header,
            id,
            body: Span::new(header.end, inp.text.len()),
            no_tx: is_false("runInTransaction"),
            one_statement: is_false("splitStatements") || delimiter.is_some(),
            dbms: attr(rest, "dbms").map(str::to_string),
        });
    }
    out
}

/// The SQL of a changeset's rollback: the text after each `--rollback`
/// prefix, or the inside of a `/* liquibase rollback … */` block, with the
/// prefixes left out. "not required" and "empty" mean nothing to run.
fn rollback(text: &str, body: Span) -> Vec<Span> {
    let mut keep = Vec::new();
    let mut block: Option<usize> = None;
    for (start, line) in names::lines(&text[body.start..body.end]) {
        let at = body.start + start;
        if let Some(from) = block {
            if let Some(i) = line.find("*/") {
                keep.push(Span::new(from, at + i));
                block = None;
            }
            continue;
        }
        let trimmed = line.trim_start().to_ascii_lowercase();
        if trimmed.starts_with("/*") && trimmed[2..].trim_start().starts_with("liquibase rollback")
        {
            block = Some(at + line.len());
            continue;
        }
        if let Some(m) = ROLLBACK.find(line) {
            let sql = line[m.end()..].trim();
            if sql.eq_ignore_ascii_case("not required") || sql.eq_ignore_ascii_case("empty") {
                continue;
            }
            keep.push(Span::new(at + m.end(), at + line.len()));
        }
    }
    if let Some(from) = block {
        keep.push(Span::new(from.min(body.end), body.end));
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::history::Flavor;

    #[test]
    fn dbms_lists() {
        assert!(dbms_applies("postgresql", Flavor::Postgres));
        assert!(dbms_applies("all", Flavor::Postgres));
        assert!(!dbms_applies("mysql", Flavor::Postgres));
        assert!(!dbms_applies("!postgresql", Flavor::Postgres));
        assert!(dbms_applies("!mysql", Flavor::Postgres));
        assert!(dbms_applies("oracle,postgresql", Flavor::Postgres));
    }

    #[test]
    fn rollback_lines() {
        let t = "--changeset a:1\nCREATE TABLE t (a int);\n--rollback DROP TABLE t;\n";
        let body = Span::new(16, t.len());
        let keep = rollback(t, body);
        assert_eq!(keep.len(), 1);
        assert_eq!(&t[keep[0].start..keep[0].end], "DROP TABLE t;");
    }
}
