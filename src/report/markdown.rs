//! The report as GitHub-flavoured Markdown: the full document, or the
//! compact form for a CI step summary. Everything from user files is escaped.
use super::Options;
use super::model::{ContractReport, Counts, ItemResult, Report, Status};
use crate::contracts::Kind;
use crate::finding::Finding;
use std::fmt::Write as _;

/// The status with a symbol; the word is always there, so it never depends
/// on the symbol (or its colour) being seen.
pub fn badge(s: Status) -> String {
    let icon = match s {
        Status::NotMet => "❌",
        Status::Missing => "⚠️",
        Status::Attested => "📝",
        Status::Met => "✅",
        Status::NotApplicable => "➖",
    };
    format!("{icon} {}", s.label())
}

/// Escapes text for Markdown (tables included): no markup, links or HTML
/// can come from a contract.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\r' | '\n' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '!' => {
                out.push('\\');
                out.push(ch);
            }
            c => out.push(c),
        }
    }
    out
}

/// A code span that no value can break out of (the fence is longer than any
/// backtick run inside it).
pub fn code(s: &str) -> String {
    let s = s.replace(['\r', '\n'], " ");
    let mut longest = 0;
    let mut run = 0;
    for ch in s.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

pub fn kind_label(k: Kind) -> &'static str {
    match k {
        Kind::Cluster => "Cluster",
        Kind::EventBoundary => "Event boundary",
    }
}

pub fn render(r: &Report, opts: &Options) -> String {
    let mut out = String::from("# Launch checklist report\n\n");
    summary(&mut out, r);
    counts_table(&mut out, "By owner", "owner", r.by_owner().into_iter());
    counts_table(
        &mut out,
        "By lifecycle",
        "lifecycle",
        r.by_lifecycle().into_iter(),
    );
    index(&mut out, r, opts);
    if !opts.compact {
        for c in &r.contracts {
            contract(&mut out, c, opts);
        }
    }
    out
}

fn summary(out: &mut String, r: &Report) {
    let t = r.totals();
    let clusters = r
        .contracts
        .iter()
        .filter(|c| c.kind == Kind::Cluster)
        .count();
    let _ = writeln!(
        out,
        "- **Today:** {} (from {})",
        r.today,
        text(r.today_source)
    );
    let _ = writeln!(
        out,
        "- **Contracts:** {} ({} clusters, {} event boundaries)",
        r.contracts.len(),
        clusters,
        r.contracts.len() - clusters
    );
    let rest: Vec<String> = Status::ALL
        .iter()
        .filter(|s| **s != Status::Met)
        .map(|s| format!("{} {}", t.get(*s), s.label()))
        .collect();
    let _ = writeln!(
        out,
        "- **Items met:** {} of {} ({})",
        t.get(Status::Met),
        t.total(),
        rest.join(", ")
    );
    if r.unattached > 0 || r.suppressed > 0 {
        let _ = writeln!(
            out,
            "- Not in this report: {} finding{} outside any contract (migrations, docs, config) and {} hidden by suppressions or the baseline; `platcheck check` lists them.",
            r.unattached,
            if r.unattached == 1 { "" } else { "s" },
            r.suppressed
        );
    }
    out.push('\n');
}

fn counts_table<'a>(
    out: &mut String,
    title: &str,
    what: &str,
    rows: impl Iterator<Item = (&'a str, Counts)>,
) {
    let _ = writeln!(out, "## {title}\n");
    let _ = write!(out, "| {what} | contracts | items met |");
    for s in Status::ALL.iter().filter(|s| **s != Status::Met) {
        let _ = write!(out, " {} |", s.label());
    }
    out.push_str("\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (name, c) in rows {
        let _ = write!(
            out,
            "| {} | {} | {} of {} |",
            text(name),
            c.contracts,
            c.get(Status::Met),
            c.total()
        );
        for s in Status::ALL.iter().filter(|s| **s != Status::Met) {
            let _ = write!(out, " {} |", c.get(*s));
        }
        out.push('\n');
    }
    out.push('\n');
}

/// One row per contract, with the items that are not met or missing.
fn index(out: &mut String, r: &Report, opts: &Options) {
    out.push_str("## Contracts\n\n| contract | owner | lifecycle | items met | needs attention |\n|---|---|---|---:|---|\n");
    for c in &r.contracts {
        let open: Vec<String> = c
            .items
            .iter()
            .filter(|i| matches!(i.status, Status::NotMet | Status::Missing))
            .map(|i| {
                let rules: Vec<String> = rule_ids(&i.findings);
                let why = if rules.is_empty() {
                    i.status.label().to_string()
                } else {
                    rules.join(", ")
                };
                format!("{}. {} ({why})", i.item.number, text(&i.item.title))
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} [{}]({}) | {} | {} | {} of {} | {} |",
            kind_label(c.kind),
            text(&c.name),
            opts.links.file(&c.file, c.line),
            text(&c.owner),
            text(&c.lifecycle),
            c.count(Status::Met),
            c.items.len(),
            if open.is_empty() {
                "—".to_string()
            } else {
                open.join("; ")
            }
        );
    }
    out.push('\n');
}

fn rule_ids(findings: &[&Finding]) -> Vec<String> {
    let mut ids: Vec<String> = findings.iter().map(|f| f.rule.to_string()).collect();
    ids.sort();
    ids.dedup();
    ids
}

fn contract(out: &mut String, c: &ContractReport, opts: &Options) {
    let _ = writeln!(out, "## {} {}\n", kind_label(c.kind), text(&c.name));
    let _ = writeln!(
        out,
        "Owner {} · lifecycle {} · [{}:{}]({}) · {} of {} items met · checklist: {}\n",
        text(&c.owner),
        text(&c.lifecycle),
        text(&c.file),
        c.line,
        opts.links.file(&c.file, c.line),
        c.count(Status::Met),
        c.items.len(),
        text(&c.checklist.source)
    );
    out.push_str("| # | item | status | decided by |\n|---:|---|---|---|\n");
    for i in &c.items {
        let rules: Vec<String> = i.rules.iter().map(|r| r.to_string()).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            i.item.number,
            text(&i.item.title),
            badge(i.status),
            if rules.is_empty() {
                "—".into()
            } else {
                rules.join(", ")
            }
        );
    }
    out.push('\n');
    for i in &c.items {
        item(out, c, i, opts);
    }
    if !c.other.is_empty() {
        out.push_str("**Other findings** (no checklist item)\n\n");
        for f in &c.other {
            finding(out, c, f, opts);
        }
        out.push('\n');
    }
}

fn item(out: &mut String, c: &ContractReport, i: &ItemResult, opts: &Options) {
    let _ = writeln!(
        out,
        "**{}. {}** — {}  \n{} _({})_\n",
        i.item.number,
        text(&i.item.title),
        badge(i.status),
        text(i.item.text.trim()),
        text(&i.item.source)
    );
    if let Some(reason) = &i.reason {
        let _ = writeln!(out, "- {}: {}", i.status.label(), text(reason));
    }
    for f in &i.findings {
        finding(out, c, f, opts);
    }
    if !i.evidence.is_empty() {
        let values: Vec<String> = i
            .evidence
            .iter()
            .map(|e| {
                format!(
                    "{} ([L{}]({}))",
                    code(&format!("{}: {}", e.label, e.value)),
                    e.line,
                    opts.links.file(&c.file, e.line)
                )
            })
            .collect();
        let _ = writeln!(out, "- evidence: {}", values.join(" · "));
    }
    out.push('\n');
}

fn finding(out: &mut String, c: &ContractReport, f: &Finding, opts: &Options) {
    // In the contract's own file the line is enough.
    let at = if f.file == c.file {
        format!("L{}", f.line)
    } else {
        format!("{}:{}", text(&f.file), f.line)
    };
    let _ = writeln!(
        out,
        "- [{}]({}) {} {}: {} ([{at}]({}))",
        f.rule,
        f.rule.url(),
        f.rule.meta().name,
        f.severity.as_str(),
        text(&f.message),
        opts.links.file(&f.file, f.line)
    );
}
