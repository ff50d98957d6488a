//! The workspace from what was loaded: files in discovery order (their
//! contracts and reports get the file's index), and the checks across
//! loaded files that run before the rules (PC007).
use super::loading::Loaded;
use crate::catalog::RuleId;
use crate::discover::FileClass;
use crate::emit::Sink;
use crate::workspace::Workspace;
use std::collections::BTreeMap;

/// Adds the loaded files to the workspace (their contracts and reports
/// get the file's index); returns how many count as checked.
pub(super) fn add_loaded(ws: &mut Workspace, sink: &mut Sink, loaded: Vec<Loaded>) -> usize {
    let mut checked = 0;
    for l in loaded {
        checked += usize::from(l.checked);
        let Some(src) = l.source else { continue };
        let file = ws.add_file(src, Some(l.class));
        match l.class {
            FileClass::Sql => ws.sql.push(file),
            FileClass::Markdown => ws.markdown.push(file),
            FileClass::Yaml => {}
        }
        ws.contracts.extend(l.contracts.into_iter().map(|mut c| {
            c.file = file;
            c
        }));
        sink.reports.extend(l.reports.into_iter().map(|mut r| {
            r.file = file;
            r
        }));
    }
    checked
}

/// PC007: two contracts of one kind with one name.
pub(super) fn duplicate_names(ws: &Workspace, sink: &mut Sink) {
    let mut first: BTreeMap<(crate::contracts::Kind, &str), &crate::contracts::Contract> =
        BTreeMap::new();
    for c in &ws.contracts {
        if c.name.is_empty() {
            continue;
        }
        match first.get(&(c.kind, c.name.as_str())) {
            Some(orig) => {
                let at = ws.files[orig.file].line_col(orig.span_for("/metadata/name").start);
                sink.push(
                    c.report(RuleId::PC007, "/metadata/name")
                        .related(
                            orig.file,
                            orig.span_for("/metadata/name"),
                            format!("{} `{}` is first defined here", c.kind.as_str(), c.name),
                        )
                        .var("kind", c.kind.as_str())
                        .var("name", &c.name)
                        .var(
                            "first",
                            format!("{}:{}", ws.files[orig.file].display, at.line),
                        ),
                );
            }
            None => {
                first.insert((c.kind, c.name.as_str()), c);
            }
        }
    }
}
