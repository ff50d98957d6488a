//! The report as GitHub-flavoured Markdown: the full document, or the
//! compact form for a CI step summary. Everything from user files is escaped.
use super::Options;
use super::evidence::plural;
use super::model::{ContractReport, Counts, ItemResult, Report, Status, Waiver};
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
            contract(&mut out, c, opts);
        }
        outside(&mut out, r, opts);
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

fn contract(out: &mut String, c: &ContractReport, opts: &Options) {
    let counts = c.counts();
    let _ = writeln!(out, "## {} {}\n", kind_label(c.kind), text(&c.name));
    let rest = rest(&counts);
    let _ = writeln!(
        out,
        "Owner {} · lifecycle {} · [{}:{}]({}) · checklist: {}  \n**{}**{}{} · {} not applicable\n",
        text(&c.owner),
        text(&c.lifecycle),
        text(&c.file),
        c.line,
        opts.links.file(&c.file, c.line),
        text(&c.checklist.source),
        met_of(&counts),
        if rest.is_empty() { "" } else { " · " },
        rest,
        counts.get(Status::NotApplicable),
    );
    out.push_str("| # | item | status | must not fire |\n|---:|---|---|---|\n");
    for i in &c.items {
        let rules: Vec<&str> = i.item.rules.iter().map(|r| r.pattern()).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            i.item.number,
            text(&i.item.title),
            badge(i.status),
            if rules.is_empty() {
                "—".into()
            } else {
                text(&rules.join(", "))
            }
        );
    }
    out.push('\n');
    for i in &c.items {
        item(out, c, i, opts);
    }
    if !c.other.is_empty() || !c.other_waivers.is_empty() {
        out.push_str("**Other findings** (no checklist item)\n\n");
        findings(out, &c.file, &c.other, &c.other_waivers, opts);
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
        text(&i.text),
        text(&i.item.source)
    );
    if let Some(reason) = &i.reason {
        let _ = writeln!(out, "- not applicable: {}", text(reason));
    }
    if !i.missing.is_empty() {
        let fields: Vec<String> = i
            .missing
            .iter()
            .map(|m| match &m.why {
                Some(why) => format!("{} ({})", code(&m.label), text(why)),
                None => code(&m.label),
            })
            .collect();
        let _ = writeln!(out, "- missing evidence: {}", fields.join(", "));
    }
    for s in &i.short {
        let _ = writeln!(
            out,
            "- falls short: {} needs {}{} ([L{}]({}))",
            code(&format!("{}: {}", s.label, s.value)),
            text(&s.expected),
            s.why
                .as_deref()
                .map_or_else(String::new, |w| format!(" — {}", text(w))),
            s.line,
            opts.links.file(&c.file, s.line)
        );
    }
    for u in &i.unchecked {
        let _ = writeln!(out, "- not checked: {} — {}", text(&u.what), text(&u.how));
    }
    findings(out, &c.file, &i.findings, &i.waivers, opts);
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

/// `L12` in the contract's own file, `file:12` elsewhere.
fn at(home: &str, file: &str, line: usize) -> String {
    if file == home {
        format!("L{line}")
    } else {
        format!("{}:{line}", text(file))
    }
}

fn finding(out: &mut String, home: &str, f: &Finding, opts: &Options) {
    out.push_str("- ");
    finding_line(out, home, f, opts);
}

/// A finding on one line: rule (linked to its doc), name, severity,
/// message, where (linked).
fn finding_line(out: &mut String, home: &str, f: &Finding, opts: &Options) {
    let _ = writeln!(
        out,
        "[{}]({}) {} {}: {} ([{}]({}))",
        f.rule,
        f.rule.url(),
        f.rule.meta().name,
        f.severity.as_str(),
        text(&f.message),
        at(home, &f.file, f.line),
        opts.links.file(&f.file, f.line)
    );
}

/// Findings in force (each followed by its expired waiver, if it had one),
/// then the waived ones with their waivers.
fn findings(out: &mut String, home: &str, active: &[&Finding], waivers: &[Waiver], opts: &Options) {
    for f in active {
        finding(out, home, f, opts);
        for w in waivers
            .iter()
            .filter(|w| w.expired && std::ptr::eq(w.finding, *f))
        {
            waiver(out, home, w, opts);
        }
    }
    for w in waivers.iter().filter(|w| !w.expired) {
        let _ = write!(out, "- waived: ");
        finding_line(out, home, w.finding, opts);
        waiver(out, home, w, opts);
    }
}

/// Who waived a finding, why and until when (nested under the finding).
fn waiver(out: &mut String, home: &str, w: &Waiver, opts: &Options) {
    let _ = writeln!(
        out,
        "  - {}{} waiver at [{}]({}): “{}”; {}; {}",
        if w.expired { "its " } else { "" },
        w.kind.as_str(),
        at(home, &w.file, w.line),
        opts.links.file(&w.file, w.line),
        text(&w.reason),
        match (&w.until, w.expired) {
            (Some(u), true) => format!("expired {u}: the finding is in force again"),
            (Some(u), false) => format!("until {u}"),
            (None, _) => "no expiry date".into(),
        },
        w.author.as_deref().map_or_else(
            || "author not known".to_string(),
            |a| format!("by {}", text(a))
        )
    );
}

fn outside(out: &mut String, r: &Report, opts: &Options) {
    if r.outside.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Findings outside any contract\n\n{} that concern no contract (docs, config, migrations under no cluster's `migrations.path`):\n",
        plural(r.outside.len(), "finding", "findings")
    );
    for f in &r.outside {
        finding(out, "", f, opts);
    }
    out.push('\n');
}
