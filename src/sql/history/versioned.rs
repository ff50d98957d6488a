//! golang-migrate (`<version>_<title>.up.sql`, versions compared as
//! numbers) and ory/x popx (the same names with a dialect and an
//! `.autocommit` infix; versions compared as strings, the file for the
//! exact dialect preferred over the generic one).
use super::{Build, Input, Step, Unit};
use crate::catalog::RuleId;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

static GOLANG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([0-9]+)_(.*)\.(up|down)\.sql$").expect("regex"));
static POPX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([0-9]+)_([^.]+)(\.autocommit)?\.(up|down)\.sql$").expect("regex")
});

pub fn is_golang_name(name: &str) -> bool {
    GOLANG.is_match(name)
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Dir {
    Up,
    Down,
}

fn dir_of(s: &str) -> Dir {
    if s == "up" { Dir::Up } else { Dir::Down }
}

pub fn golang(b: &mut Build, inputs: Vec<Input>) {
    let mut by_version: BTreeMap<(u64, Dir), Vec<Input>> = BTreeMap::new();
    for inp in inputs {
        let Some(c) = GOLANG.captures(&inp.name) else {
            b.file_problem(
                RuleId::PC015,
                &inp,
                format!(
                    "`{}` is not a golang-migrate file name (`<version>_<title>.up.sql` or `.down.sql`): golang-migrate skips it",
                    inp.name
                ),
            );
            continue;
        };
        let Ok(v) = c[1].parse::<u64>() else {
            b.file_problem(
                RuleId::PC015,
                &inp,
                format!(
                    "version `{}` does not fit golang-migrate's unsigned 64-bit versions",
                    &c[1]
                ),
            );
            continue;
        };
        let d = dir_of(&c[3]);
        by_version.entry((v, d)).or_default().push(inp);
    }
    let mut downs: BTreeMap<u64, Input> = BTreeMap::new();
    let mut ups: Vec<(u64, Input)> = Vec::new();
    for ((v, d), files) in by_version {
        let mut files = files.into_iter();
        let Some(first) = files.next() else { continue };
        for dup in files {
            b.file_problem(
                RuleId::PC014,
                &dup,
                format!(
                    "version {v} is also {}: golang-migrate refuses a directory with two {} migrations of one version",
                    first.rel,
                    if d == Dir::Up { "up" } else { "down" }
                ),
            );
        }
        match d {
            Dir::Up => ups.push((v, first)),
            Dir::Down => {
                downs.insert(v, first);
            }
        }
    }
    for (v, up) in ups {
        let down = downs.remove(&v);
        b.steps.push(step(&up, down.as_ref(), false));
    }
    for down in downs.into_values() {
        orphan(b, &down, "golang-migrate");
    }
}

/// A popx file competing for its version: its dialect rank, its
/// `.autocommit` flag, the file.
type Candidate<'a> = (u8, bool, Input<'a>);

pub fn popx(b: &mut Build, inputs: Vec<Input>) {
    let mut by_version: BTreeMap<(String, Dir), Vec<Candidate>> = BTreeMap::new();
    for inp in inputs {
        let Some(c) = POPX.captures(&inp.name) else {
            b.file_problem(
                RuleId::PC015,
                &inp,
                format!(
                    "`{}` is not a popx migration file name (`<version>_<name>[.<dialect>][.autocommit].up.sql` or `.down.sql`): popx skips it",
                    inp.name
                ),
            );
            continue;
        };
        let rank = inp.flavor.and_then(|f| b.flavor.rank(f)).unwrap_or(0);
        let key = (c[1].to_string(), dir_of(&c[4]));
        let auto = c.get(3).is_some();
        by_version.entry(key).or_default().push((rank, auto, inp));
    }
    let mut downs: BTreeMap<String, (bool, Input)> = BTreeMap::new();
    let mut ups: Vec<(bool, Input)> = Vec::new();
    for ((v, d), mut cands) in by_version {
        cands.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.2.rel.cmp(&b.2.rel)));
        let mut cands = cands.into_iter();
        let Some((rank, auto, best)) = cands.next() else {
            continue;
        };
        for (r, _, other) in cands {
            if r == rank {
                b.file_problem(
                    RuleId::PC014,
                    &other,
                    format!(
                        "version {v} is also {} for the same dialect: popx cannot tell which to run",
                        best.rel
                    ),
                );
            } else {
                b.file_problem(
                    RuleId::PC012,
                    &other,
                    format!(
                        "popx runs {} instead of this file on {}: the file for the exact dialect wins",
                        best.rel,
                        b.flavor.as_str()
                    ),
                );
            }
        }
        match d {
            Dir::Up => ups.push((auto, best)),
            Dir::Down => {
                downs.insert(v, (auto, best));
            }
        }
    }
    // popx sorts versions as strings; BTreeMap<String> iterates in that order.
    for (auto, up) in ups {
        let v = POPX
            .captures(&up.name)
            .map(|c| c[1].to_string())
            .unwrap_or_default();
        let down = downs.remove(&v);
        let mut s = step(&up, down.as_ref().map(|d| &d.1), auto);
        // ory splits one change into numbered steps that ship together.
        s.change = (v.len() == 20).then(|| v[..14].to_string());
        if let (Some(d), Some((down_auto, _))) = (s.downs.first_mut(), &down) {
            d.no_tx = *down_auto;
        }
        b.steps.push(s);
    }
    for (_, down) in downs.into_values() {
        orphan(b, &down, "popx");
    }
}

fn step(up: &Input, down: Option<&Input>, no_tx: bool) -> Step {
    let mut u = Unit::whole(up.file, up.rel.clone());
    u.no_tx = no_tx;
    let downs = down
        .map(|d| {
            let mut du = Unit::whole(d.file, "down migration");
            du.no_tx = no_tx;
            du
        })
        .into_iter()
        .collect();
    Step::new(u, downs)
}

fn orphan(b: &mut Build, down: &Input, tool: &str) {
    b.file_problem(
        RuleId::PC013,
        down,
        format!(
            "{} has no up migration with its version: {tool} never runs the up step it would undo",
            down.rel
        ),
    );
}
