//! The report as GitHub-flavoured Markdown: the full document, or the
//! compact form for a CI step summary. Everything from user files is escaped.
use super::Options;
use super::markdown_items;
use super::model::{Counts, ItemResult, Report, Status};
use crate::catalog::plural;
use crate::contracts::Kind;
use crate::finding::Finding;
use std::fmt::Write as _;

/// The status with a symbol; the word is always there, so it never depends
/// on the symbol (or its colour) being seen.
pub fn badge(s: Status) -> String {
    let icon = match s {
        Status::NotMet => "❌",
        Status::Missing => "⚠️",
        Status::NotChecked => "❔",
        Status::Waived => "🔕",
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

/// `13 clusters, 1 event boundary`.
pub fn kinds(r: &Report) -> String {
    format!(
        "{}, {}",
        plural(r.clusters(), "cluster", "clusters"),
        plural(r.boundaries(), "event boundary", "event boundaries")
    )
}

/// `118 of 213 items that apply met`.
pub fn met_of(c: &Counts) -> String {
    format!(
        "{} of {} met",
        c.get(Status::Met),
        plural(c.applicable(), "item that applies", "items that apply")
    )
}

/// The other statuses, `95 not met, 3 missing evidence, …` (zeros left out).
pub fn rest(c: &Counts) -> String {
    let parts: Vec<String> = Status::ALL
        .iter()
        .filter(|s| !matches!(s, Status::Met | Status::NotApplicable) && c.get(**s) > 0)
        .map(|s| format!("{} {}", c.get(*s), s.label()))
        .collect();
    parts.join(", ")
}

/// What `--base` meant for this run.
pub fn base_line(r: &Report) -> String {
    match &r.facts.base {
        Some(b) => format!("payload schemas compared with `--base {b}`"),
        None => {
            "not compared: `--base` was not given, so schema compatibility (EV053) is not checked"
                .into()
        }
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
            markdown_items::contract(&mut out, c, opts);
        }
        markdown_items::outside(&mut out, r, opts);
    }
    out
}

fn summary(out: &mut String, r: &Report) {
    let f = &r.facts;
    let t = r.totals();
    let revision = match &f.revision {
        Some(rev) => format!(
            "{}{}",
            code(rev.short()),
            if rev.dirty {
                " with uncommitted changes under the checked paths"
            } else {
                " (clean)"
            }
        ),
        None if f.revision_looked_up => "not a git repository (no revision)".into(),
        None => "not recorded".into(),
    };
    let _ = writeln!(out, "- **Revision:** {revision}");
    let _ = writeln!(
        out,
        "- **Date used:** {} (from {})",
        f.today,
        text(&f.today_source)
    );
    let _ = writeln!(
        out,
        "- **Config:** {}",
        f.config
            .as_deref()
            .map_or_else(|| "none (defaults)".to_string(), text)
    );
    let _ = writeln!(out, "- **platcheck:** {}", text(&f.version));
    let _ = writeln!(out, "- **Schema compatibility:** {}", base_line(r));
    if let Some(since) = &f.changed_since {
        let _ = writeln!(
            out,
            "- **Findings limited** to files changed since {} (`--changed-since`): items of unchanged files may read met",
            code(since)
        );
    }
    let _ = writeln!(out, "- **Contracts:** {} ({})", r.contracts.len(), kinds(r));
    let rest = rest(&t);
    let _ = writeln!(
        out,
        "- **Items:** {}{}{}; {} not applicable (not counted)",
        met_of(&t),
        if rest.is_empty() { "" } else { "; " },
        rest,
        t.get(Status::NotApplicable)
    );
    let _ = writeln!(
        out,
        "- **Findings outside any contract:** {}; **waivers:** {} (each shown under its item)",
        r.outside.len(),
        r.waivers()
    );
    out.push('\n');
}

fn counts_table<'a>(
    out: &mut String,
    title: &str,
    what: &str,
    rows: impl Iterator<Item = (&'a str, Counts)>,
) {
    let _ = writeln!(out, "## {title}\n");
    let _ = write!(out, "| {what} | contracts | met |");
    for s in Status::ALL.iter().filter(|s| **s != Status::Met) {
        let _ = write!(out, " {} |", s.label());
    }
    out.push_str("\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (name, c) in rows {
        let _ = write!(
            out,
            "| {} | {} | {} of {} |",
            text(name),
            c.contracts,
            c.get(Status::Met),
            c.applicable()
        );
        for s in Status::ALL.iter().filter(|s| **s != Status::Met) {
            let _ = write!(out, " {} |", c.get(*s));
        }
        out.push('\n');
    }
    out.push('\n');
}

/// One row per contract, with the items that need attention.
fn index(out: &mut String, r: &Report, opts: &Options) {
    out.push_str(
        "## Contracts\n\n| contract | owner | lifecycle | met | needs attention |\n|---|---|---|---:|---|\n",
    );
    for c in &r.contracts {
        let open: Vec<String> = c
            .items
            .iter()
            .filter(|i| i.status.open() || i.status == Status::Waived)
            .map(|i| {
                format!(
                    "{}. {} ({})",
                    i.item.number,
                    text(&i.item.title),
                    attention(i)
                )
            })
            .collect();
        let counts = c.counts();
        let _ = writeln!(
            out,
            "| {} [{}]({}) | {} | {} | {} of {} | {} |",
            kind_label(c.kind),
            text(&c.name),
            opts.links.file(&c.file, c.line),
            text(&c.owner),
            text(&c.lifecycle),
            counts.get(Status::Met),
            counts.applicable(),
            if open.is_empty() {
                "—".to_string()
            } else {
                open.join("; ")
            }
        );
    }
    out.push('\n');
}

/// Why an open item is open, in a few words.
fn attention(i: &ItemResult) -> String {
    match i.status {
        Status::Missing => {
            let fields: Vec<String> = i.missing.iter().map(|m| text(&m.label)).collect();
            format!("missing {}", fields.join(", "))
        }
        Status::NotChecked => {
            let what: Vec<String> = i.unchecked.iter().map(|u| text(&u.what)).collect();
            format!("not checked: {}", what.join("; "))
        }
        Status::Waived => {
            let mut ids: Vec<String> = i
                .waivers
                .iter()
                .map(|w| w.finding.rule.to_string())
                .collect();
            ids.sort();
            ids.dedup();
            format!("waived: {}", ids.join(", "))
        }
        _ => {
            let mut ids = rule_ids(&i.findings);
            if i.waivers.iter().any(|w| w.expired) {
                ids.push("expired waiver".into());
            }
            ids.extend(i.short.iter().map(|s| text(&s.label)));
            if !i.invalid.is_empty() {
                let fields: Vec<String> = i.invalid.iter().map(|v| text(&v.label)).collect();
                ids.push(format!("invalid {}", fields.join(", ")));
            }
            // Not met outranks missing evidence; what is missing still shows.
            if !i.missing.is_empty() {
                let fields: Vec<String> = i.missing.iter().map(|m| text(&m.label)).collect();
                ids.push(format!("missing {}", fields.join(", ")));
            }
            ids.join(", ")
        }
    }
}

fn rule_ids(findings: &[&Finding]) -> Vec<String> {
    let mut ids: Vec<String> = findings.iter().map(|f| f.rule.to_string()).collect();
    ids.sort();
    ids.dedup();
    ids
}
