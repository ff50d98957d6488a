//! The Markdown of one contract's checklist: each item with its status,
//! what is missing, short or unchecked, its findings and waivers (each
//! waiver nested under the finding it covers) and its evidence.
use super::Options;
use super::markdown::{badge, code, kind_label, met_of, rest, text};
use super::model::{ContractReport, ItemResult, Report, Status, Waiver};
use crate::catalog::plural;
use crate::finding::Finding;
use std::fmt::Write as _;

pub fn contract(out: &mut String, c: &ContractReport, opts: &Options) {
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
    for v in &i.invalid {
        let _ = writeln!(
            out,
            "- invalid: {} ({}, [{}]({}))",
            code(&v.label),
            v.finding.rule,
            at(&c.file, &v.finding.file, v.finding.line),
            opts.links.file(&v.finding.file, v.finding.line)
        );
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

pub fn outside(out: &mut String, r: &Report, opts: &Options) {
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
