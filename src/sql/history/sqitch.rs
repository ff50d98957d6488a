//! sqitch: `sqitch.plan` lists the changes in deploy order; each change has
//! `deploy/<change>.sql`, `revert/<change>.sql` and `verify/<change>.sql`.
//! A change reworked after a tag keeps its earlier scripts as
//! `deploy/<change>@<tag>.sql`. sqitch runs each script as written (no
//! transaction of its own: the scripts say BEGIN and COMMIT).
use super::{Build, Input, Step, Unit, names};
use crate::catalog::RuleId;
use crate::source::Span;

struct Change {
    name: String,
    /// The name's place in the plan file.
    span: Span,
    /// The first tag after this occurrence (for reworked changes).
    tag: Option<String>,
}

fn parse_plan(text: &str) -> Vec<Change> {
    let mut out: Vec<Change> = Vec::new();
    let mut untagged_from = 0;
    for (start, line) in names::lines(text) {
        let t = line.trim_start();
        let lead = line.len() - t.len();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') {
            continue;
        }
        if let Some(tag) = t.strip_prefix('@') {
            let tag = tag.split_whitespace().next().unwrap_or("").to_string();
            for c in &mut out[untagged_from..] {
                c.tag.get_or_insert_with(|| tag.clone());
            }
            untagged_from = out.len();
            continue;
        }
        // `+name` deploys, `-name` is a revert entry: no new step.
        if t.starts_with('-') {
            continue;
        }
        let body = t.strip_prefix('+').unwrap_or(t);
        let skip = line.len() - lead - body.len();
        let name = body
            .split(|c: char| c.is_whitespace() || c == '[')
            .next()
            .unwrap_or("");
        if name.is_empty() {
            continue;
        }
        let at = start + lead + skip;
        out.push(Change {
            name: name.to_string(),
            span: Span::new(at, at + name.len()),
            tag: None,
        });
    }
    out
}

/// One change line of a plan, as `platcheck fix` needs it to add the
/// change that follows it the way `sqitch add` would.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanEntry {
    pub name: String,
    /// `2026-01-02T00:00:00Z`.
    pub timestamp: Option<String>,
    /// `Name <email>`, as the line names its planner.
    pub planner: Option<String>,
    /// The text after ` # `.
    pub note: Option<String>,
}

/// The change lines of a plan in order (reworked changes appear again).
pub fn plan_entries(text: &str) -> Vec<PlanEntry> {
    parse_plan(text)
        .into_iter()
        .map(|c| {
            let rest = &text[c.span.end..];
            let line = &rest[..rest.find(['\n', '\r']).unwrap_or(rest.len())];
            let (line, note) = match line.split_once(" #") {
                Some((l, n)) => (l, Some(n.trim().to_string())),
                None => (line, None),
            };
            // Dependencies, then the timestamp, then the planner.
            let line = match line.trim_start().strip_prefix('[') {
                Some(deps) => deps.split_once(']').map_or("", |(_, r)| r),
                None => line,
            };
            let line = line.trim();
            let (timestamp, planner) = match line.split_once(char::is_whitespace) {
                Some((ts, who)) if ts.ends_with('Z') => {
                    (Some(ts.to_string()), Some(who.trim().to_string()))
                }
                _ => (None, None),
            };
            PlanEntry {
                name: c.name,
                timestamp,
                planner: planner.filter(|p| p.ends_with('>')),
                note,
            }
        })
        .collect()
}

/// The plan's `%project=` name.
pub fn plan_project(text: &str) -> Option<&str> {
    names::lines(text).find_map(|(_, l)| l.trim().strip_prefix("%project=").map(str::trim))
}

pub fn read(b: &mut Build, inputs: Vec<Input>, metas: &[Input]) {
    let Some(plan) = metas.iter().find(|m| m.name == "sqitch.plan") else {
        return super::plain::read(b, inputs);
    };
    let changes = parse_plan(plan.text);
    let mut used = vec![false; inputs.len()];
    let by_rel: std::collections::HashMap<&str, usize> = inputs
        .iter()
        .enumerate()
        .map(|(n, i)| (i.rel.as_str(), n))
        .collect();
    let find = |rel: &str| by_rel.get(rel).copied();
    for (i, c) in changes.iter().enumerate() {
        let reworked = changes[i + 1..].iter().any(|l| l.name == c.name);
        let script = match (&c.tag, reworked) {
            (Some(tag), true) => format!("{}@{tag}", c.name),
            _ => c.name.clone(),
        };
        let deploy = format!("deploy/{script}.sql");
        let Some(d) = find(&deploy) else {
            b.problem(
                RuleId::PC016,
                plan.file,
                c.span,
                format!("sqitch.plan names change `{}`, but {deploy} is not among the checked files: sqitch deploy fails there", c.name),
            );
            continue;
        };
        used[d] = true;
        let mut downs = Vec::new();
        if let Some(r) = find(&format!("revert/{script}.sql")) {
            used[r] = true;
            downs.push(Unit::whole(
                inputs[r].file,
                format!("revert script {}", inputs[r].rel),
            ));
        }
        if let Some(v) = find(&format!("verify/{script}.sql")) {
            used[v] = true;
            b.file_problem(
                RuleId::PC012,
                &inputs[v],
                "a sqitch verify script checks a deployed change and changes nothing: not part of the history",
            );
        }
        b.steps.push(Step::new(
            Unit::whole(inputs[d].file, inputs[d].rel.clone()),
            downs,
        ));
    }
    for (inp, _) in inputs.iter().zip(&used).filter(|(_, u)| !**u) {
        let (rule, detail) = if inp.rel.starts_with("revert/") {
            (
                RuleId::PC013,
                format!(
                    "{} reverts a change sqitch.plan does not list: sqitch never deploys what it would undo",
                    inp.rel
                ),
            )
        } else if inp.rel.starts_with("deploy/") || inp.rel.starts_with("verify/") {
            (
                RuleId::PC012,
                format!(
                    "{} is not a change in sqitch.plan: sqitch never runs it",
                    inp.rel
                ),
            )
        } else {
            (
                RuleId::PC015,
                format!(
                    "{} is outside deploy/, revert/ and verify/: sqitch does not run it",
                    inp.rel
                ),
            )
        };
        b.file_problem(rule, inp, detail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_lines() {
        let plan = "%syntax-version=1.0.0\n%project=flipr\n\nappschema 2024-01-01T00:00:00Z A <a@x> # schema\nusers [appschema] 2024-01-02T00:00:00Z A <a@x>\n@v1.0 2024-01-03T00:00:00Z A <a@x>\nusers [users@v1.0] 2024-01-04T00:00:00Z A <a@x>\n";
        let c = parse_plan(plan);
        let names: Vec<&str> = c.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["appschema", "users", "users"]);
        assert_eq!(c[1].tag.as_deref(), Some("v1.0"));
        assert_eq!(c[2].tag, None);
        assert_eq!(&plan[c[0].span.start..c[0].span.end], "appschema");
        let e = plan_entries(plan);
        assert_eq!(e[0].timestamp.as_deref(), Some("2024-01-01T00:00:00Z"));
        assert_eq!(e[0].planner.as_deref(), Some("A <a@x>"));
        assert_eq!(e[0].note.as_deref(), Some("schema"));
        assert_eq!(e[1].planner.as_deref(), Some("A <a@x>"));
        assert_eq!(e[1].note, None);
        assert_eq!(plan_project(plan), Some("flipr"));
    }
}
