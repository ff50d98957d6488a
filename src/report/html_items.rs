//! The HTML of one contract's checklist: each item with its status, what is
//! missing or short or unchecked, its findings and waivers, its evidence.
//! Classes and `data-*` attributes carry only our own tokens.
use super::Options;
use super::html::{badge, bar, esc};
use super::markdown::kind_label;
use super::model::{ContractReport, ItemResult, Report, Status, Waiver};
use crate::catalog::plural;
use crate::finding::Finding;
use std::fmt::Write as _;

pub fn contract(out: &mut String, i: usize, c: &ContractReport, owner: usize, opts: &Options) {
    let counts = c.counts();
    let _ = write!(
        out,
        "<section class=\"contract\" id=\"c-{i}\" data-owner=\"o{owner}\" data-kind=\"{}\">\n<header><p class=\"kind\">{} · {}</p><h2>{}</h2>\n<p class=\"who\"><span>owner <strong>{}</strong></span><span>lifecycle <strong>{}</strong></span><a href=\"{}\">{}:{}</a></p>\n<p class=\"score\"><strong>{} of {}</strong> met ",
        c.kind.as_str(),
        kind_label(c.kind),
        esc(&c.checklist.title),
        esc(&c.name),
        esc(&c.owner),
        esc(&c.lifecycle),
        esc(&opts.links.file(&c.file, c.line)),
        esc(&c.file),
        c.line,
        counts.get(Status::Met),
        plural(counts.applicable(), "item that applies", "items that apply"),
    );
    bar(out, &counts);
    let rest: Vec<String> = Status::ALL
        .iter()
        .filter(|s| **s != Status::Met && counts.get(**s) > 0)
        .map(|s| format!("{} {}", counts.get(*s), s.label()))
        .collect();
    let _ = write!(
        out,
        " <span class=\"rest\">{}</span>",
        esc(&rest.join(" · "))
    );
    out.push_str("</p></header>\n<ol class=\"items\">\n");
    for it in &c.items {
        item(out, c, it, opts);
    }
    out.push_str("</ol>\n");
    if !c.other.is_empty() || !c.other_waivers.is_empty() {
        out.push_str("<div class=\"other\"><h3>Other findings <small>(no checklist item)</small></h3><ul class=\"findings\">\n");
        findings(out, &c.file, &c.other, &c.other_waivers, opts);
        out.push_str("</ul></div>\n");
    }
    out.push_str("</section>\n");
}

fn item(out: &mut String, c: &ContractReport, it: &ItemResult, opts: &Options) {
    let k = it.status.slug();
    let _ = writeln!(
        out,
        "<li class=\"item s-{k}\" data-status=\"{k}\" data-item=\"{n}\"><span class=\"no\">{n}</span><div class=\"body\"><h3>{}</h3>{}\n<p class=\"text\">{} <span class=\"src\">— {}</span></p>",
        esc(&it.item.title),
        badge(it.status),
        esc(&it.text),
        esc(&it.item.source),
        n = it.item.number,
    );
    if let Some(reason) = &it.reason {
        let _ = writeln!(out, "<p class=\"reason\">{}</p>", esc(reason));
    }
    gaps(out, c, it, opts);
    if !it.findings.is_empty() || !it.waivers.is_empty() {
        out.push_str("<ul class=\"findings\">\n");
        findings(out, &c.file, &it.findings, &it.waivers, opts);
        out.push_str("</ul>\n");
    }
    if !it.evidence.is_empty() {
        out.push_str("<ul class=\"evidence\" aria-label=\"evidence\">");
        for e in &it.evidence {
            let _ = write!(
                out,
                "<li><a href=\"{}\"><code class=\"k\">{}</code> <code class=\"v\">{}</code></a></li>",
                esc(&opts.links.file(&c.file, e.line)),
                esc(&e.label),
                esc(&e.value)
            );
        }
        out.push_str("</ul>\n");
    }
    if !it.item.rules.is_empty() {
        let links: Vec<String> = it
            .item
            .rules
            .iter()
            .map(|spec| {
                let ids = spec.expand();
                match ids.as_slice() {
                    [one] if spec.explicit() => {
                        format!("<a href=\"{}\">{one}</a>", esc(&one.url()))
                    }
                    _ => format!(
                        "<span title=\"{}\">{}</span>",
                        esc(&ids.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(" ")),
                        esc(spec.pattern())
                    ),
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "<p class=\"rules\">must not fire: {}</p>",
            links.join(" ")
        );
    }
    out.push_str("</div></li>\n");
}

/// What keeps the item from being met: absent fields, values that fall
/// short, inputs the run was not given.
fn gaps(out: &mut String, c: &ContractReport, it: &ItemResult, opts: &Options) {
    if it.missing.is_empty()
        && it.invalid.is_empty()
        && it.short.is_empty()
        && it.unchecked.is_empty()
    {
        return;
    }
    out.push_str("<ul class=\"gaps\">\n");
    for m in &it.missing {
        let why = m.why.as_deref().map_or_else(String::new, |w| {
            format!(" <span class=\"why\">({})</span>", esc(w))
        });
        let _ = writeln!(
            out,
            "<li class=\"missing\" data-field=\"{}\">missing evidence: <code>{}</code>{why}</li>",
            esc(&m.pointer),
            esc(&m.label),
        );
    }
    for v in &it.invalid {
        let _ = writeln!(
            out,
            "<li class=\"invalid\" data-field=\"{}\">invalid: <a href=\"{}\"><code>{}</code></a> ({}, {})</li>",
            esc(&v.pointer),
            esc(&opts.links.file(&v.finding.file, v.finding.line)),
            esc(&v.label),
            v.finding.rule,
            at(&c.file, &v.finding.file, v.finding.line),
        );
    }
    for s in &it.short {
        let why = s.why.as_deref().map_or_else(String::new, |w| {
            format!(" <span class=\"why\">— {}</span>", esc(w))
        });
        let _ = writeln!(
            out,
            "<li class=\"short\" data-field=\"{}\">falls short: <a href=\"{}\"><code>{}: {}</code></a> needs {}{why}</li>",
            esc(&s.pointer),
            esc(&opts.links.file(&c.file, s.line)),
            esc(&s.label),
            esc(&s.value),
            esc(&s.expected),
        );
    }
    for u in &it.unchecked {
        let _ = writeln!(
            out,
            "<li class=\"unchecked\">not checked: {} — <span class=\"how\">{}</span></li>",
            esc(&u.what),
            esc(&u.how)
        );
    }
    out.push_str("</ul>\n");
}

/// `line 12` in the contract's own file, `file:12` elsewhere.
fn at(home: &str, file: &str, line: usize) -> String {
    if file == home {
        format!("line {line}")
    } else {
        format!("{}:{line}", esc(file))
    }
}

fn finding_body(home: &str, f: &Finding, opts: &Options) -> String {
    format!(
        "<a class=\"rule\" href=\"{}\" title=\"{}\">{}</a> <span class=\"sev\">{}</span> {} <a class=\"at\" href=\"{}\">{}</a>",
        esc(&f.rule.url()),
        esc(&f.rule.meta().name),
        f.rule,
        f.severity.as_str(),
        esc(&f.message),
        esc(&opts.links.file(&f.file, f.line)),
        at(home, &f.file, f.line),
    )
}

fn finding(out: &mut String, home: &str, f: &Finding, opts: &Options) {
    let _ = writeln!(
        out,
        "<li class=\"finding sev-{}\">{}</li>",
        f.severity.as_str(),
        finding_body(home, f, opts)
    );
}

/// Findings in force (one whose waiver expired is shown with it), then the
/// waived ones.
fn findings(out: &mut String, home: &str, active: &[&Finding], waivers: &[Waiver], opts: &Options) {
    for f in active {
        match waivers
            .iter()
            .find(|w| w.expired && std::ptr::eq(w.finding, *f))
        {
            Some(w) => waiver(out, home, w, opts),
            None => finding(out, home, f, opts),
        }
    }
    for w in waivers.iter().filter(|w| !w.expired) {
        waiver(out, home, w, opts);
    }
}

/// A waived finding with where the waiver is written, why, until when and
/// who wrote it.
fn waiver(out: &mut String, home: &str, w: &Waiver, opts: &Options) {
    let f = w.finding;
    let until = match (&w.until, w.expired) {
        (Some(u), true) => format!(
            "<time datetime=\"{u}\">{u}</time>: expired, the finding is in force again",
            u = esc(u)
        ),
        (Some(u), false) => format!("<time datetime=\"{u}\">{u}</time>", u = esc(u)),
        (None, _) => "no expiry date".into(),
    };
    let _ = writeln!(
        out,
        "<li class=\"finding waiver sev-{sev}{exp}\" data-waiver=\"{kind}\"><span class=\"wtag\">{tag}</span> {body}<dl><dt>waiver</dt><dd class=\"w-where\">{kind} at <a href=\"{href}\">{place}</a></dd><dt>reason</dt><dd class=\"w-reason\">{reason}</dd><dt>until</dt><dd class=\"w-until\">{until}</dd><dt>by</dt><dd class=\"w-author\">{author}</dd></dl></li>",
        sev = f.severity.as_str(),
        exp = if w.expired { " expired" } else { "" },
        kind = w.kind.as_str(),
        tag = if w.expired {
            "waiver expired"
        } else {
            "waived"
        },
        body = finding_body(home, f, opts),
        href = esc(&opts.links.file(&w.file, w.line)),
        place = at(home, &w.file, w.line),
        reason = esc(&w.reason),
        author = w
            .author
            .as_deref()
            .map_or_else(|| "not known".to_string(), esc),
    );
}

pub fn outside(out: &mut String, r: &Report, opts: &Options) {
    if r.outside.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<section class=\"contract outside\" id=\"outside\"><header><h2>Findings outside any contract</h2><p class=\"who\">{} that concern no contract (docs, config, migrations under no cluster's <code>migrations.path</code>)</p></header><div class=\"other\"><ul class=\"findings\">",
        plural(r.outside.len(), "finding", "findings")
    );
    for f in &r.outside {
        finding(out, "", f, opts);
    }
    out.push_str("</ul></div></section>\n");
}
