//! sqitch: work that must follow the flagged change becomes changes of its
//! own, as `sqitch add` writes them, so that sqitch deploys, reverts and
//! verifies them: a line in `sqitch.plan` after the last one (requiring
//! the change before it, planned by the flagged change's planner, dated
//! `today`), `deploy/<name>.sql`, `revert/<name>.sql` undoing it, and
//! `verify/<name>.sql` when the project has `verify/`. Only after the last
//! change of the plan (or after follow-ups written for the same change):
//! a change planned between deployed ones changes the ids of the rest.
//! The flagged change's own revert follows what its deploy now does
//! (`sqitch_revert`).
use super::next::Follow;
use super::timeouts::preamble;
use super::undo::{self, Undo};
use super::versions::{MARK, created};
use super::{Site, eol};
use crate::finding::Edit;
use crate::sql::history::{SqitchEntry, sqitch_plan, sqitch_project};
use std::path::Path;

/// The changes holding `chain`, one after the other, after the flagged
/// change; `None` when the plan is not read, the flagged change is not
/// the plan's last, or a statement has no undo platcheck knows.
pub fn following(site: &Site, chain: &[Follow]) -> Option<Vec<Edit>> {
    let deploy = site.path.parent()?;
    if deploy.file_name()? != "deploy" || site.path.extension()? != "sql" {
        return None;
    }
    let change = site.path.file_stem()?.to_str()?;
    // `deploy/<change>@<tag>.sql` is a reworked change's earlier script.
    if change.contains('@') {
        return None;
    }
    let root = deploy.parent()?;
    let plan_path = root.join("sqitch.plan");
    let plan = site.ctx.ws.files.iter().find(|f| f.path == plan_path)?;
    let text: &str = &plan.text;
    let entries = sqitch_plan(text);
    let at = entries.iter().rposition(|e| e.name == change)?;
    if !entries[at + 1..].iter().all(|e| ours(e, change)) {
        return None;
    }
    let planner = entries[at].planner.as_deref()?;
    let project = sqitch_project(text)?;
    let today = format!("{}T00:00:00Z", site.ctx.today());
    // The plan's own latest date when `today` is before it.
    let latest = entries.iter().filter_map(|e| e.timestamp.clone()).max();
    let stamp = latest.filter(|l| *l > today).unwrap_or(today);
    let nl = eol(text);
    let in_tx = site.st.tx.is_some();
    let mut prev = entries.last()?.name.clone();
    let mut names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
    let mut lines = String::new();
    if !text.is_empty() && !text.ends_with('\n') {
        lines.push_str(nl);
    }
    let mut edits = Vec::new();
    for f in chain {
        let undos = undos(f)?;
        let name = fresh(&format!("{change}_{}", f.desc), &names, root);
        let header = |verb: &str, prep: &str| format!("-- {verb} {project}:{name} {prep} pg{nl}");
        let mut deploy = header("Deploy", "to");
        deploy.push_str(&format!("-- requires: {prev}{nl}"));
        deploy.push_str(&format!("-- Follows {change} ({MARK}).{nl}"));
        let body: String = f.stmts.iter().map(|s| format!("{s};{nl}")).collect();
        deploy.push_str(&wrapped(
            &format!("{}{body}", preamble(site)),
            in_tx && !f.no_tx,
            nl,
        ));
        let mut revert = header("Revert", "from");
        revert.push_str(&format!("-- Undoes {name} ({MARK}).{nl}"));
        revert.push_str(&revert_body(site, &undos, in_tx, nl));
        edits.push(created(
            root.join("deploy").join(format!("{name}.sql")),
            deploy,
        ));
        edits.push(created(
            root.join("revert").join(format!("{name}.sql")),
            revert,
        ));
        if root.join("verify").is_dir() {
            let mut verify = header("Verify", "on");
            let checks: String = (f.stmts.iter())
                .filter_map(|s| undo::check(s))
                .map(|c| format!("{c};{nl}"))
                .collect();
            verify.push_str(&format!("BEGIN;{nl}{checks}ROLLBACK;{nl}"));
            edits.push(created(
                root.join("verify").join(format!("{name}.sql")),
                verify,
            ));
        }
        lines.push_str(&format!(
            "{name} [{prev}] {stamp} {planner} # Follows {change} ({MARK}){nl}"
        ));
        names.push(name.clone());
        prev = name;
    }
    edits.push(Edit {
        path: plan.path.clone(),
        start: text.len(),
        end: text.len(),
        text: lines,
        create: false,
    });
    edits.extend(super::sqitch_revert::edits(site, root, change, chain));
    Some(edits)
}

/// A change `platcheck fix` planned after `change` (its note says so).
fn ours(e: &SqitchEntry, change: &str) -> bool {
    e.note
        .as_deref()
        .is_some_and(|n| n.contains(MARK) && n.contains(&format!("Follows {change} ")))
}

/// What undoes each statement of `f`, in its order.
fn undos(f: &Follow) -> Option<Vec<Undo>> {
    match &f.undo {
        Some(u) => Some(u.iter().cloned().map(Undo::Sql).collect()),
        None => f.stmts.iter().map(|s| undo::undo(s)).collect(),
    }
}

/// The revert: the undos in reverse order, in a transaction like the
/// flagged script's unless one of them refuses it.
fn revert_body(site: &Site, undos: &[Undo], in_tx: bool, nl: &str) -> String {
    let mut body = String::new();
    if undos.iter().any(|u| matches!(u, Undo::Sql(_))) {
        body.push_str(&preamble(site));
    }
    for u in undos.iter().rev() {
        match u {
            Undo::Sql(s) => body.push_str(&format!("{s};{nl}")),
            Undo::Nothing(why) => body.push_str(&format!("-- Nothing to undo: {why}.{nl}")),
        }
    }
    let tx = in_tx
        && undos.iter().all(|u| !u.no_tx())
        && undos.iter().any(|u| matches!(u, Undo::Sql(_)));
    wrapped(&body, tx, nl)
}

fn wrapped(body: &str, tx: bool, nl: &str) -> String {
    if tx {
        format!("BEGIN;{nl}{body}COMMIT;{nl}")
    } else {
        body.to_string()
    }
}

/// A change name sqitch accepts that the plan and `deploy/` do not hold:
/// sqitch refuses a name ending in punctuation and digits (`x_2`, read as
/// a change offset), so suffixes are letters.
fn fresh(base: &str, taken: &[String], root: &Path) -> String {
    let mut base = base.trim_end_matches('_').to_string();
    let digits = base.len() - base.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && base[..base.len() - digits].ends_with(|c: char| !c.is_ascii_alphanumeric()) {
        base.push_str("_step");
    }
    let free = |n: &str| {
        !taken.iter().any(|t| t == n) && !root.join("deploy").join(format!("{n}.sql")).exists()
    };
    std::iter::once(base.clone())
        .chain(('b'..='z').map(|c| format!("{base}_{c}")))
        .find(|n| free(n))
        .unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::fresh;
    use std::path::Path;

    #[test]
    fn names_sqitch_accepts() {
        let root = Path::new("/nonexistent");
        assert_eq!(fresh("idx_index_i_1", &[], root), "idx_index_i_1_step");
        assert_eq!(fresh("idx_index_v2", &[], root), "idx_index_v2");
        assert_eq!(fresh("idx_x", &["idx_x".into()], root), "idx_x_b");
    }
}
