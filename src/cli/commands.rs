//! The commands that are not `check`: baseline write, the suppression
//! listing, and the rule catalogue (`rule`, `rules`).
use super::{CheckArgs, CliError, FileWrite, Global, Output, overrides};
use crate::catalog::RuleId;
use crate::engine;
use crate::outcome::WaivedBy;
use crate::output::Format;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub(super) fn baseline_write(
    g: &Global,
    file: Option<PathBuf>,
    paths: &[PathBuf],
    cwd: &Path,
) -> Result<Output, CliError> {
    let args = CheckArgs {
        paths: paths.to_vec(),
        ..CheckArgs::default()
    };
    let mut ov = overrides(g, &args, cwd);
    ov.baseline = None;
    let mut outcome = engine::run(paths, cwd, &ov)?;
    let target = file
        .map(|f| if f.is_absolute() { f } else { cwd.join(f) })
        .or_else(|| outcome.baseline.clone())
        .unwrap_or_else(|| cwd.join(".platcheck-baseline.json"));
    // A stale-baseline notice about the old file is not debt to record.
    outcome.findings.retain(|f| f.rule != RuleId::PC011);
    // The config's `baseline:` still applied: what it hid is debt too, or
    // rewriting the baseline would drop its entries.
    let hidden = std::mem::take(&mut outcome.waived);
    outcome.findings.extend(
        hidden
            .into_iter()
            .filter(|w| matches!(w.by, WaivedBy::Baseline { .. }))
            .map(|w| w.finding),
    );
    outcome
        .findings
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let b = crate::baseline::build(&outcome.findings, &outcome.files, &outcome.root);
    let n = b.entries.len();
    let msg = format!(
        "wrote {n} baseline {} to {}\n",
        if n == 1 { "entry" } else { "entries" },
        crate::source::display_path(&target, cwd)
    );
    Ok(Output::Text(
        msg,
        vec![FileWrite {
            path: target,
            text: crate::baseline::to_json(&b),
            append: false,
        }],
    ))
}

pub(super) fn suppressions(g: &Global, args: &CheckArgs, cwd: &Path) -> Result<Output, CliError> {
    let outcome = engine::run(&args.paths, cwd, &overrides(g, args, cwd))?;
    let mut rows = crate::suppress::listing(&outcome.suppressions, &outcome.files);
    rows.retain(|r| outcome.in_scope(&r.file));
    let text = match g.format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&rows).unwrap_or_default();
            s.push('\n');
            s
        }
        _ => {
            let mut s = String::new();
            for r in &rows {
                let until = r
                    .until
                    .as_ref()
                    .map_or(String::new(), |u| format!(" (until {u})"));
                let _ = writeln!(
                    s,
                    "{}:{}: {} [{}] {}{}",
                    r.file,
                    r.line,
                    r.rules.join(", "),
                    r.status,
                    r.reason,
                    until
                );
            }
            let _ = writeln!(
                s,
                "{} suppression{}",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" }
            );
            s
        }
    };
    Ok(Output::Text(text, Vec::new()))
}

pub(super) fn rule_doc(key: &str) -> Result<String, CliError> {
    let (rank, ids) = crate::contracts::schema::select_rules(key).map_err(CliError)?;
    // A family or prefix (`MG`, `MG03*`): the table of the rules it names.
    if rank < 3 {
        return Ok(rules_table_of(&ids));
    }
    let id = ids[0];
    let m = id.meta();
    let mut out = String::new();
    let _ = writeln!(out, "# {} {} ({})\n", id, m.name, m.severity.as_str());
    let _ = writeln!(out, "Message: {}", m.message);
    for (variant, msg) in &m.messages {
        let _ = writeln!(out, "Message ({variant}): {msg}");
    }
    let _ = writeln!(out, "Help: {}", m.help);
    let _ = writeln!(out, "Input: {}", m.input);
    let _ = writeln!(out, "Source: {}", m.source);
    // The launch-checklist items whose evidence says this rule must not fire.
    for item in crate::report::checklist::items_deciding(id) {
        let _ = writeln!(out, "Checklist: {item}");
    }
    let _ = writeln!(out, "Docs: {}\n", id.url());
    out.push_str(&m.body);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

/// `platcheck rules --format json`: every rule with its catalogue fields.
pub(super) fn rules_json() -> String {
    let rows: Vec<serde_json::Value> = RuleId::ALL
        .iter()
        .map(|id| {
            let m = id.meta();
            serde_json::json!({
                "id": id.as_str(),
                "family": &id.as_str()[..2],
                "name": m.name,
                "severity": m.severity.as_str(),
                "message": m.message,
                "help": m.help,
                "input": m.input,
                "url": id.url(),
            })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&rows).unwrap_or_default();
    s.push('\n');
    s
}

pub(super) fn rules_table() -> String {
    rules_table_of(RuleId::ALL)
}

fn rules_table_of(ids: &[RuleId]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<6}  {:<8}  {:<40}  MESSAGE",
        "ID", "SEVERITY", "NAME"
    );
    for id in ids {
        let m = id.meta();
        let msg = m.message.lines().next().unwrap_or("");
        let _ = writeln!(
            out,
            "{:<6}  {:<8}  {:<40}  {}",
            id,
            m.severity.as_str(),
            m.name,
            msg
        );
    }
    out
}
