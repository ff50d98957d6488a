//! Flyway: `V<version>__<description>.sql` in version order (compared part
//! by part as numbers: `V10` after `V9`, `1.0` equal to `1`), `U<version>__`
//! undoes the versioned migration of its version, `R__` repeatables run
//! after every versioned one (by description), and the newest
//! `B<version>__` baseline is the starting schema of a new database. A
//! script configuration file beside a migration (`V1__x.sql.conf`) with
//! `executeInTransaction=false` opts it out of Flyway's transaction.
use super::{Build, Input, Step, Unit, names};
use crate::catalog::RuleId;
use crate::sql::lexer::{Tok, Token};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A Flyway version: its parts without leading zeros, trailing zero parts dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Version(Vec<String>);

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        let n = self.0.len().max(other.0.len());
        for i in 0..n {
            let a = self.0.get(i).map_or("0", String::as_str);
            let b = other.0.get(i).map_or("0", String::as_str);
            let o = a.len().cmp(&b.len()).then_with(|| a.cmp(b));
            if o != Ordering::Equal {
                return o;
            }
        }
        Ordering::Equal
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Version {
    fn parse(s: &str) -> Option<Version> {
        let mut parts = Vec::new();
        for p in s.split(['.', '_']) {
            if p.is_empty() || !p.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let t = p.trim_start_matches('0');
            parts.push(if t.is_empty() { "0" } else { t }.to_string());
        }
        while parts.len() > 1 && parts.last().is_some_and(|p| p == "0") {
            parts.pop();
        }
        Some(Version(parts))
    }
}

enum Kind {
    Versioned(Version),
    Undo(Version),
    Baseline(Version),
    Repeatable(String),
}

/// `V1__x.sql`, `U1__x.sql`, `B1__x.sql`, `R__x.sql` (the version may be
/// malformed: that is for `read` to report).
pub fn is_flyway_name(name: &str) -> bool {
    prefix(name).is_some()
}

/// (prefix letter, version text, description) of a Flyway-shaped name.
fn prefix(name: &str) -> Option<(char, &str, &str)> {
    let stem = name.strip_suffix(".sql")?;
    let first = stem.chars().next()?;
    if !matches!(first, 'V' | 'U' | 'B' | 'R') {
        return None;
    }
    let (ver, desc) = stem[1..].split_once("__")?;
    if first == 'R' && !ver.is_empty() {
        return None;
    }
    if first != 'R' && !ver.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some((first, ver, desc))
}

fn kind(name: &str) -> Option<Result<Kind, String>> {
    let (p, ver, desc) = prefix(name)?;
    if p == 'R' {
        return Some(Ok(Kind::Repeatable(desc.to_string())));
    }
    let Some(v) = Version::parse(ver) else {
        return Some(Err(format!(
            "`{ver}` in `{name}` is not a Flyway version (numbers separated by `.` or `_`): Flyway refuses the migration"
        )));
    };
    Some(Ok(match p {
        'V' => Kind::Versioned(v),
        'U' => Kind::Undo(v),
        _ => Kind::Baseline(v),
    }))
}

/// Flyway's callbacks (`beforeMigrate.sql`, `afterEachMigrate__x.sql`).
fn is_callback(name: &str) -> bool {
    ["before", "after", "createSchema"].iter().any(|p| {
        name.strip_prefix(p).is_some_and(|r| {
            r.is_empty() || r.starts_with(|c: char| c.is_ascii_uppercase() || c == '.')
        })
    })
}

/// `executeInTransaction=false` in a script configuration file.
fn opts_out(conf: &str) -> bool {
    names::lines(conf).any(|(_, l)| {
        let l = l.trim();
        if l.starts_with('#') {
            return false;
        }
        let mut kv = l.splitn(2, '=');
        let (k, v) = (
            kv.next().unwrap_or("").trim(),
            kv.next().unwrap_or("").trim(),
        );
        k == "executeInTransaction" && v.eq_ignore_ascii_case("false")
    })
}

/// `executeInTransaction` and `mixed` from the nearest `flyway.conf`
/// (`flyway.mixed=true`) or `flyway.toml` (`mixed = true` under `[flyway]`).
fn project_settings(projects: &[Input]) -> (bool, bool) {
    let Some(p) = projects.first() else {
        return (false, false);
    };
    let toml = p.name.ends_with(".toml");
    let mut section = String::new();
    let (mut no_tx, mut mixed) = (false, false);
    for (_, line) in names::lines(p.text) {
        let l = line.split('#').next().unwrap_or("").trim();
        if toml && l.starts_with('[') {
            section = l.trim_matches(['[', ']']).trim().to_string();
            continue;
        }
        let Some((k, v)) = l.split_once('=') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim().trim_matches('"'));
        let key = if toml {
            if section != "flyway" {
                continue;
            }
            k
        } else {
            let Some(k) = k.strip_prefix("flyway.") else {
                continue;
            };
            k
        };
        match key {
            "executeInTransaction" => no_tx = v.eq_ignore_ascii_case("false"),
            "mixed" => mixed = v.eq_ignore_ascii_case("true"),
            _ => {}
        }
    }
    (no_tx, mixed)
}

pub fn read(b: &mut Build, inputs: Vec<Input>, metas: &[Input]) {
    let (project_no_tx, mixed) = project_settings(&b.projects);
    b.flyway_mixed = mixed;
    let mut versioned: BTreeMap<VersionKey, Vec<Input>> = BTreeMap::new();
    let mut undos: BTreeMap<VersionKey, Vec<Input>> = BTreeMap::new();
    let mut baselines: Vec<(Version, Input)> = Vec::new();
    let mut repeatable: Vec<(String, Input)> = Vec::new();
    for inp in inputs {
        match kind(&inp.name) {
            Some(Ok(Kind::Versioned(v))) => versioned.entry(VersionKey(v)).or_default().push(inp),
            Some(Ok(Kind::Undo(v))) => undos.entry(VersionKey(v)).or_default().push(inp),
            Some(Ok(Kind::Baseline(v))) => baselines.push((v, inp)),
            Some(Ok(Kind::Repeatable(d))) => repeatable.push((d, inp)),
            Some(Err(e)) => b.file_problem(RuleId::PC015, &inp, e),
            None if is_callback(&inp.name) => b.file_problem(
                RuleId::PC012,
                &inp,
                format!(
                    "`{}` is a Flyway callback, run around migrations rather than as one: not part of the history",
                    inp.name
                ),
            ),
            None => b.file_problem(
                RuleId::PC015,
                &inp,
                format!(
                    "`{}` is not a Flyway migration name (`V<version>__<description>.sql`, `U…`, `B…` or `R__…`): Flyway ignores it",
                    inp.name
                ),
            ),
        }
    }
    let no_tx = |inp: &Input| {
        let conf = format!("{}.conf", inp.rel);
        project_no_tx || metas.iter().any(|m| m.rel == conf && opts_out(m.text))
    };
    if let Some((_, newest)) = baselines.into_iter().max_by(|a, b| a.0.cmp(&b.0)) {
        b.baseline
            .push(Unit::whole(newest.file, newest.rel.clone()));
    }
    for (v, files) in versioned {
        let mut files = files.into_iter();
        let Some(up) = files.next() else { continue };
        for dup in files {
            duplicate(b, &dup, &up, &v.0);
        }
        let mut downs = Vec::new();
        if let Some(us) = undos.remove(&v) {
            let mut us = us.into_iter();
            if let Some(u) = us.next() {
                let mut du = Unit::whole(u.file, format!("undo migration {}", u.rel));
                du.no_tx = no_tx(&u);
                downs.push(du);
                for dup in us {
                    duplicate(b, &dup, &u, &v.0);
                }
            }
        }
        let mut unit = Unit::whole(up.file, up.rel.clone());
        unit.no_tx = no_tx(&up);
        b.steps.push(Step::new(unit, downs));
    }
    for files in undos.into_values() {
        for u in files {
            b.file_problem(
                RuleId::PC013,
                &u,
                format!(
                    "{} undoes a version no `V…__` migration has: Flyway has nothing to undo with it",
                    u.rel
                ),
            );
        }
    }
    repeatable.sort_by(|x, y| x.0.cmp(&y.0).then_with(|| x.1.rel.cmp(&y.1.rel)));
    for (_, r) in repeatable {
        let mut unit = Unit::whole(r.file, r.rel.clone());
        unit.no_tx = no_tx(&r);
        b.steps.push(Step {
            up: unit,
            downs: Vec::new(),
            change: None,
        });
    }
}

fn duplicate(b: &mut Build, dup: &Input, first: &Input, v: &Version) {
    b.file_problem(
        RuleId::PC014,
        dup,
        format!(
            "version {} is also {}: Flyway refuses to migrate with two migrations of one version",
            v.0.join("."),
            first.rel
        ),
    );
}

/// `Version` as a map key (ordered as Flyway orders versions).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct VersionKey(Version);

/// Whether Flyway's PostgreSQL parser marks the statement as one that
/// cannot run in a transaction (its `detectCanExecuteInTransaction` list).
pub fn runs_outside_transaction(body: &str, toks: &[Token]) -> bool {
    let words: Vec<String> = toks
        .iter()
        .filter(|t| t.kind == Tok::Word)
        .take(6)
        .map(|t| body[t.start..t.end].to_ascii_uppercase())
        .collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    match w.as_slice() {
        [
            "CREATE" | "DROP",
            "DATABASE" | "TABLESPACE" | "SUBSCRIPTION",
            ..,
        ] => true,
        ["ALTER", "SYSTEM", ..] | ["VACUUM", ..] | ["DISCARD", "ALL", ..] => true,
        ["CREATE" | "DROP", "INDEX", "CONCURRENTLY", ..]
        | ["CREATE" | "DROP", "UNIQUE", "INDEX", "CONCURRENTLY", ..] => true,
        ["REINDEX", "SCHEMA" | "DATABASE" | "SYSTEM", ..]
        | ["REINDEX", "VERBOSE", "SCHEMA" | "DATABASE" | "SYSTEM", ..] => true,
        ["ALTER", "TYPE", ..] => toks.windows(2).any(|p| {
            body[p[0].start..p[0].end].eq_ignore_ascii_case("ADD")
                && body[p[1].start..p[1].end].eq_ignore_ascii_case("VALUE")
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_as_numbers() {
        let v = |s| Version::parse(s).unwrap();
        assert!(v("9") < v("10"));
        assert_eq!(v("1.0"), v("1"));
        assert_eq!(v("1_1"), v("1.1"));
        assert!(v("2024.01.15") > v("2023.12.31"));
        assert!(Version::parse("1a").is_none());
        assert!(Version::parse("1..2").is_none());
    }

    #[test]
    fn names() {
        assert!(is_flyway_name("V1__init.sql"));
        assert!(is_flyway_name("R__views.sql"));
        assert!(is_flyway_name("V1a__bad.sql"));
        assert!(!is_flyway_name("Vacuum__x.sql"));
        assert!(!is_flyway_name("0001_init.sql"));
        assert!(is_callback("afterMigrate.sql"));
        assert!(is_callback("beforeEachMigrate__log.sql"));
        assert!(!is_callback("afternoon.sql"));
        assert!(opts_out("# note\nexecuteInTransaction=false\n"));
        assert!(!opts_out("# executeInTransaction=false\n"));
    }
}
