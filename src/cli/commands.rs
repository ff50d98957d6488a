//! The commands that are not `check`: baseline write, the suppression
//! listing, and the rule catalogue (`rule`, `rules`).
use super::{CheckArgs, CliError, FileWrite, Global, Output, overrides};
use crate::catalog::RuleId;
use crate::engine;
use crate::outcome::WaivedBy;
use crate::output::Format;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

pub(super) fn baseline_write(
    g: &Global,
    file: Option<PathBuf>,
    args: &CheckArgs,
    probe: Option<crate::settings::ProbeRequest>,
    cwd: &Path,
) -> Result<Output, CliError> {
    let mut ov = overrides(g, args, cwd);
    ov.baseline = None;
    ov.probe = probe;
    let mut outcome = engine::run(&args.paths, cwd, &ov)?;
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
            replace: crate::read::write::Replace::Baseline,
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

pub(super) fn init(
    g: &Global,
    dir: Option<PathBuf>,
    tool: Option<&str>,
    baseline: bool,
    cwd: &Path,
) -> Result<Output, CliError> {
    let dir = match dir {
        Some(d) if d.is_absolute() => d,
        Some(d) => cwd.join(d),
        None => cwd.to_path_buf(),
    };
    let mut opts = crate::init::Options {
        today: g.today.unwrap_or_else(crate::settings::system_today),
        tool: tool.and_then(crate::sql::history::Tool::parse),
    };
    // Migrations whose tool the shapes do not tell: ask, when someone can answer.
    if opts.tool.is_none()
        && crate::init::plan(&dir, &opts).tool.is_none()
        && std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal()
    {
        opts.tool = ask_tool();
    }
    let mut text = crate::init::scaffold(&dir, &opts).map_err(CliError)?;
    if !baseline {
        return Ok(Output::Text(text, Vec::new()));
    }
    let file = dir.join(".platcheck-baseline.json");
    let Output::Text(msg, mut files) = baseline_write(
        g,
        Some(file),
        &CheckArgs {
            paths: vec![dir.clone()],
            ..CheckArgs::default()
        },
        None,
        cwd,
    )?
    else {
        return Err(CliError(
            "internal error: baseline write printed no text".into(),
        ));
    };
    text.push_str(&msg);
    // Written after the baseline exists: a config naming a missing baseline
    // is an error.
    files.push(FileWrite {
        path: dir.join(crate::settings::CONFIG_NAME),
        text: "baseline: .platcheck-baseline.json\n".into(),
        append: true,
        replace: crate::read::write::Replace::Nothing,
    });
    text.push_str(
        "platcheck.yaml: baseline: .platcheck-baseline.json (the next run hides what it records)\n",
    );
    Ok(Output::Text(text, files))
}

/// Asks on the terminal which migration tool runs the migrations (three
/// tries, with a did-you-mean); `None` when no answer names one.
fn ask_tool() -> Option<crate::sql::history::Tool> {
    use std::io::Write as _;
    let names = crate::sql::history::tool_names();
    for _ in 0..3 {
        eprint!("Which tool runs these migrations? ({}) ", names.join(", "));
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        if std::io::stdin().read_line(&mut line).ok()? == 0 {
            return None;
        }
        let answer = line.trim();
        if let Some(t) = crate::sql::history::Tool::parse(answer) {
            return Some(t);
        }
        match crate::contracts::schema::suggest(answer, &names) {
            Some(s) => eprintln!("`{answer}` is not one of them; did you mean `{s}`?"),
            None => eprintln!("`{answer}` is not one of them"),
        }
    }
    None
}
