//! Tools that keep both directions in one file, split by directive lines:
//! dbmate (`-- migrate:up [transaction:false]`), goose (`-- +goose Up`,
//! `StatementBegin`/`StatementEnd`, `NO TRANSACTION`) and sql-migrate
//! (`-- +migrate Up [notransaction]`, `StatementBegin`/`StatementEnd`).
//! Only whole directive lines count: a word in a prose comment does not.
use super::{Build, Input, Layout, Step, Unit, names};
use crate::catalog::RuleId;
use crate::source::Span;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mark {
    Up { no_tx: bool },
    Down { no_tx: bool },
    Begin,
    End,
    NoTx,
}

/// The directive on one line, if the line is one for `layout`.
fn directive(layout: Layout, line: &str) -> Option<Mark> {
    let rest = line.trim().strip_prefix("--")?.trim_start();
    let lower = rest.to_ascii_lowercase();
    match layout {
        Layout::Dbmate => {
            let (dir, opts) = if let Some(o) = lower.strip_prefix("migrate:up") {
                (true, o)
            } else {
                (false, lower.strip_prefix("migrate:down")?)
            };
            if !(opts.is_empty() || opts.starts_with(char::is_whitespace)) {
                return None;
            }
            let no_tx = opts.split_whitespace().any(|o| o == "transaction:false");
            Some(if dir {
                Mark::Up { no_tx }
            } else {
                Mark::Down { no_tx }
            })
        }
        Layout::Goose | Layout::SqlMigrate => {
            let prefix = if layout == Layout::Goose {
                "+goose"
            } else {
                "+migrate"
            };
            let cmd = lower.strip_prefix(prefix)?;
            if !cmd.starts_with(char::is_whitespace) {
                return None;
            }
            let words: Vec<&str> = cmd.split_whitespace().collect();
            let no_tx = layout == Layout::SqlMigrate && words.get(1) == Some(&"notransaction");
            match words.as_slice() {
                ["up", ..] => Some(Mark::Up { no_tx }),
                ["down", ..] => Some(Mark::Down { no_tx }),
                ["statementbegin"] => Some(Mark::Begin),
                ["statementend"] => Some(Mark::End),
                ["no", "transaction"] if layout == Layout::Goose => Some(Mark::NoTx),
                _ => None,
            }
        }
        _ => None,
    }
}

fn tool_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Dbmate => "dbmate",
        Layout::Goose => "goose",
        _ => "sql-migrate",
    }
}

fn up_marker(layout: Layout) -> &'static str {
    match layout {
        Layout::Dbmate => "-- migrate:up",
        Layout::Goose => "-- +goose Up",
        _ => "-- +migrate Up",
    }
}

fn down_marker(layout: Layout) -> &'static str {
    match layout {
        Layout::Dbmate => "-- migrate:down",
        Layout::Goose => "-- +goose Down",
        _ => "-- +migrate Down",
    }
}

struct Parsed {
    up: Option<Unit>,
    down: Option<Unit>,
}

/// Splits one file into its up and down sections.
fn split(b: &mut Build, layout: Layout, inp: &Input) -> Parsed {
    let tool = tool_name(layout);
    let mut marks: Vec<(usize, usize, Mark)> = Vec::new(); // (line start, line end, mark)
    for (start, line) in names::lines(inp.text) {
        if let Some(m) = directive(layout, line) {
            marks.push((start, start + line.len(), m));
        }
    }
    let file_no_tx = marks.iter().any(|m| m.2 == Mark::NoTx);
    let mut parsed = Parsed {
        up: None,
        down: None,
    };
    let dirs: Vec<(usize, usize, Mark)> = marks
        .iter()
        .copied()
        .filter(|m| matches!(m.2, Mark::Up { .. } | Mark::Down { .. }))
        .collect();
    if let Some(first) = dirs.first() {
        let what = format!("the first `{}` line", up_marker(layout));
        b.stray_prefix(inp, first.0, &what);
    }
    for (i, &(_, end, mark)) in dirs.iter().enumerate() {
        let section_end = dirs.get(i + 1).map_or(inp.text.len(), |n| n.0);
        let span = Span::new(end, section_end);
        let mut blocks = Vec::new();
        let mut open: Option<usize> = None;
        for &(s, e, m) in marks.iter().filter(|m| span.start <= m.0 && m.0 < span.end) {
            match m {
                Mark::Begin => {
                    if open.is_some() {
                        b.problem(
                            RuleId::PC015,
                            inp.file,
                            Span::new(s, e),
                            format!("StatementBegin inside another StatementBegin block: {tool} fails to parse the file"),
                        );
                    }
                    open = Some(e);
                }
                Mark::End => match open.take() {
                    Some(from) => blocks.push(Span::new(from, s)),
                    None => b.problem(
                        RuleId::PC015,
                        inp.file,
                        Span::new(s, e),
                        format!(
                            "StatementEnd without a StatementBegin: {tool} fails to parse the file"
                        ),
                    ),
                },
                _ => {}
            }
        }
        if let Some(from) = open {
            let line = marks.iter().find(|m| m.1 == from).map_or(from, |m| m.0);
            b.problem(
                RuleId::PC015,
                inp.file,
                Span::new(line, from),
                format!("StatementBegin has no StatementEnd before the section ends: {tool} fails to parse the file"),
            );
            blocks.push(Span::new(from, section_end));
        }
        let (no_tx, is_up) = match mark {
            Mark::Up { no_tx } => (no_tx, true),
            Mark::Down { no_tx } => (no_tx, false),
            _ => continue,
        };
        let unit = Unit {
            file: inp.file,
            keep: Some(vec![span]),
            blocks,
            no_tx: no_tx || file_no_tx,
            label: if is_up {
                format!("the `{}` section", up_marker(layout))
            } else {
                format!("the `{}` section", down_marker(layout))
            },
        };
        let slot = if is_up {
            &mut parsed.up
        } else {
            &mut parsed.down
        };
        if slot.is_some() {
            b.problem(
                RuleId::PC015,
                inp.file,
                Span::new(dirs[i].0, end),
                format!(
                    "a second `{}` section: {tool} reads one section per direction",
                    if is_up {
                        up_marker(layout)
                    } else {
                        down_marker(layout)
                    }
                ),
            );
            continue;
        }
        *slot = Some(unit);
    }
    parsed
}

/// The order key: the numeric version (goose, sql-migrate), or the name
/// itself (dbmate sorts file names).
fn order_key(layout: Layout, name: &str) -> (u128, String) {
    let v = names::leading_digits(name).parse::<u128>().unwrap_or(0);
    match layout {
        Layout::Dbmate => (0, name.to_string()),
        _ => (v, name.to_string()),
    }
}

pub fn read(b: &mut Build, layout: Layout, mut inputs: Vec<Input>) {
    let tool = tool_name(layout);
    inputs.sort_by_key(|x| order_key(layout, &x.name));
    let mut seen: Vec<(String, String)> = Vec::new();
    for inp in &inputs {
        let v = names::leading_digits(&inp.name).to_string();
        let needs_version = layout != Layout::SqlMigrate;
        if needs_version
            && (v.is_empty() || (layout == Layout::Goose && !inp.name[v.len()..].starts_with('_')))
        {
            b.file_problem(
                RuleId::PC015,
                inp,
                format!(
                    "`{}` has no version: {tool} expects `<version>_<name>.sql` and does not run this file",
                    inp.name
                ),
            );
            continue;
        }
        if needs_version {
            let key = v.trim_start_matches('0').to_string();
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                b.file_problem(
                    RuleId::PC014,
                    inp,
                    format!("version {v} is also {first}: {tool} refuses two migrations with one version"),
                );
                continue;
            }
            seen.push((key, inp.rel.clone()));
        }
        let parsed = split(b, layout, inp);
        match (parsed.up, parsed.down) {
            (Some(up), down) => b.steps.push(Step {
                up,
                downs: down.into_iter().collect(),
                change: None,
            }),
            (None, Some(_)) => b.file_problem(
                RuleId::PC013,
                inp,
                format!(
                    "{} has a `{}` section but no `{}` section: {tool} never runs a step for it to undo",
                    inp.rel,
                    down_marker(layout),
                    up_marker(layout)
                ),
            ),
            (None, None) => b.file_problem(
                RuleId::PC015,
                inp,
                format!(
                    "{} has no `{}` line: {tool} does not run a file without one",
                    inp.rel,
                    up_marker(layout)
                ),
            ),
        }
    }
}
