//! EV053: the payload schema changed incompatibly with its declared mode
//! against the `--base` revision. The comparison itself lives in
//! `crate::compat`; this file picks the versions and words the findings.
use crate::catalog::RuleId;
use crate::compat::git::{Repo, Version};
use crate::compat::prepare::{Target, target};
use crate::compat::{self, Mode};
use crate::contracts::Contract;
use crate::emit::{Report, Sink};
use crate::registry::RuleCtx;
use crate::rules::policy;
use crate::source::Span;
use std::collections::HashSet;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let repo = ctx
        .settings
        .base
        .as_ref()
        .and_then(|b| Repo::open(&ctx.settings.root, b).ok());
    for c in ctx.ws.judged_boundaries() {
        if let Some(t) = target(c, ctx.settings) {
            boundary(ctx, c, &t, repo.as_ref(), sink);
        }
    }
}

fn boundary(ctx: &RuleCtx, c: &Contract, t: &Target, repo: Option<&Repo>, sink: &mut Sink) {
    let Some(file) = ctx.ws.file_at(&t.abs) else {
        sink.push(
            c.report(RuleId::EV053, "/spec/schema/path")
                .variant("missing")
                .var("boundary", &c.name)
                .var("path", &t.rel),
        );
        return;
    };
    let text = ctx.ws.files[file].text.clone();
    // An unreadable file was added empty and already reported as PC001.
    if text.is_empty() && !std::fs::metadata(&t.abs).is_ok_and(|m| m.is_file() && m.len() == 0) {
        return;
    }
    if let Err(e) = compat::check_syntax(t.format, &text) {
        sink.push(
            Report::new(RuleId::EV053, file, e.span)
                .variant("unparseable")
                .var("boundary", &c.name)
                .var("format", t.format.as_str())
                .var("detail", e.message),
        );
        return;
    }
    let (Some(repo), Some(mode)) = (repo, t.mode) else {
        return;
    };
    if mode == Mode::None {
        return;
    }
    let versions: Vec<Version> = if mode.transitive() {
        repo.history(&t.rel)
    } else {
        repo.show(&t.rel)
            .map(|text| Version {
                commit: repo.commit.clone(),
                text,
            })
            .into_iter()
            .collect()
    };
    // The documents ask never to remove, rename or retype a field in place;
    // the registry modes allow some of that in one direction.
    let additive_only = policy::switch(ctx, "schema_evolution", "registry") == "additive-only";
    let mut seen = HashSet::new();
    for v in &versions {
        let against = if v.commit == repo.commit {
            format!("the base revision `{}`", repo.name)
        } else {
            format!(
                "the earlier version in {}",
                &v.commit[..v.commit.len().min(10)]
            )
        };
        match compat::compare(t.format, &v.text, &text, t.policy) {
            Ok(diff) => {
                for b in diff
                    .breaks
                    .iter()
                    .filter(|b| additive_only || mode.rejects(b))
                {
                    // Transitive runs meet the same break in many versions:
                    // report it once, against the newest.
                    if !seen.insert((b.path.clone(), b.change.clone())) {
                        continue;
                    }
                    sink.push(
                        Report::new(RuleId::EV053, file, b.span)
                            .var("boundary", &c.name)
                            .var("field", &b.path)
                            .var("change", &b.change)
                            .var(
                                "mode",
                                if mode.rejects(b) {
                                    mode.as_str()
                                } else {
                                    "additive-only (policy.schema_evolution)"
                                },
                            )
                            .var("against", &against)
                            .var("why", b.why()),
                    );
                }
                let shown = ctx.settings.reports_on(&ctx.ws.files[c.file].path)
                    || ctx.settings.reports_on(&ctx.ws.files[file].path);
                for n in diff.notes.into_iter().filter(|_| shown) {
                    let note = format!("{} ({}): {n}", c.name, ctx.ws.files[file].display);
                    if !sink.notes.contains(&note) {
                        sink.notes.push(note);
                    }
                }
            }
            Err((_, e)) => sink.push(
                Report::new(RuleId::EV053, file, Span::empty(0))
                    .variant("base_unparseable")
                    .var("boundary", &c.name)
                    .var("format", t.format.as_str())
                    .var("against", &against)
                    .var("detail", e.message),
            ),
        }
    }
}
