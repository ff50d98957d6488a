//! Where a fix puts work that must not share the flagged migration: the
//! tool's own transaction opt-out for the file (a goose, dbmate or
//! sql-migrate directive, a Flyway sidecar `.conf`), and the migration that
//! follows it (the next free version, with the tool's markers).
use super::{Site, eol, line_start};
use crate::catalog::FixSafety;
use crate::finding::Edit;
use crate::sql::history::Tool;
use crate::sql::ops::Op;
use regex::Regex;
use std::path::PathBuf;
use std::sync::LazyLock;

static FLYWAY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^V(\d+(?:[._]\d+)*)__(.+)\.sql$").unwrap());
static NUMBERED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\d+)_(.+)\.sql$").unwrap());

/// The edits that make the tool run the flagged file outside its transaction.
pub fn opt_out(site: &Site) -> Option<Vec<Edit>> {
    let nl = eol(site.text);
    match site.fa.tool? {
        Tool::Flyway => Some(vec![sidecar(site)]),
        Tool::Goose => Some(vec![
            site.insert(0, format!("-- +goose NO TRANSACTION{nl}")),
        ]),
        Tool::Dbmate => directive_suffix(
            site,
            r"(?im)^--[ \t]*migrate:up\b[^\r\n]*",
            " transaction:false",
        ),
        Tool::SqlMigrate => directive_suffix(
            site,
            r"(?im)^--[ \t]*\+migrate[ \t]+up\b[^\r\n]*",
            " notransaction",
        ),
        _ => None,
    }
}

fn sidecar(site: &Site) -> Edit {
    let mut path = site.path.as_os_str().to_owned();
    path.push(".conf");
    Edit {
        path: PathBuf::from(path),
        start: 0,
        end: 0,
        text: format!("executeInTransaction=false{}", eol(site.text)),
        create: true,
    }
}

fn directive_suffix(site: &Site, pattern: &str, suffix: &str) -> Option<Vec<Edit>> {
    let m = Regex::new(pattern).ok()?.find(site.text)?;
    if m.end() > site.st.span.start {
        return None;
    }
    Some(vec![site.insert(m.end(), suffix)])
}

/// A fix that moves the flagged statement into the following migration.
pub struct Moved {
    pub edits: Vec<Edit>,
    /// `Unsafe` when other work of the script runs after it (that work now
    /// runs before it).
    pub safety: FixSafety,
}

/// Removes the flagged statement from its file and writes `stmts` as the
/// migration right after it.
pub fn move_to_following(site: &Site, stmts: &[String], no_tx: bool) -> Option<Moved> {
    let later_work = site
        .fa
        .stmts
        .iter()
        .any(|s| s.index > site.st.index && !super::sql::is_session(s));
    let desc = describe(site);
    let mut edits = following(site, stmts, no_tx, &desc)?;
    edits.push(removal(site));
    Some(Moved {
        edits,
        safety: if later_work {
            FixSafety::Unsafe
        } else {
            FixSafety::Safe
        },
    })
}

/// The flagged statement's lines, from the start of its first line to the
/// end of the line holding its terminator (its comments stay).
pub fn removal(site: &Site) -> Edit {
    let text = site.text;
    let start = line_start(text, site.st.span.start);
    let mut end = site.st.span.end;
    let rest = &text[end..];
    let ws = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    if rest[ws..].starts_with(';') {
        end += ws + 1;
    }
    let tail = &text[end..];
    let line_end = tail.find('\n').map_or(tail.len(), |i| i + 1);
    if tail[..line_end].trim().is_empty() {
        end += line_end;
    }
    site.edit(start, end, "")
}

fn describe(site: &Site) -> String {
    let raw = match &site.st.op {
        Some(Op::CreateIndex { name: Some(n), .. }) => format!("index_{n}"),
        Some(Op::DropIndex { names, .. }) if !names.is_empty() => format!("drop_{}", names[0].name),
        Some(Op::AlterTable { table, .. }) => format!("alter_{}", table.name),
        _ => "follow_up".into(),
    };
    raw.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// The migration that runs right after the flagged one, holding `stmts`:
/// the next free version in the flagged file's directory, the tool's
/// markers, and the script's own timeouts (else the defaults the timeout
/// rules ask for). `None` when the tool has no version between this one and
/// the next, or platcheck does not know how to write one for it.
pub fn following(site: &Site, stmts: &[String], no_tx: bool, desc: &str) -> Option<Vec<Edit>> {
    following_at(site, stmts, no_tx, desc, 0)
}

/// As `following`, `skip` free versions further on (a fix writing two
/// migrations asks for the second with `skip = 1`).
pub fn following_at(
    site: &Site,
    stmts: &[String],
    no_tx: bool,
    desc: &str,
    skip: usize,
) -> Option<Vec<Edit>> {
    let tool = site.fa.tool?;
    let dir = site.path.parent()?;
    let name = site.path.file_name()?.to_str()?;
    let siblings: Vec<String> = site
        .ctx
        .ws
        .files
        .iter()
        .filter(|f| f.path.parent() == Some(dir))
        .filter_map(|f| f.path.file_name()?.to_str().map(str::to_string))
        .collect();
    let taken =
        |prefix: &str| siblings.iter().any(|s| s.starts_with(prefix)) || dir.join(prefix).exists();
    let new_name = match tool {
        Tool::Flyway => {
            let c = FLYWAY.captures(name)?;
            let version = c[1].replace('.', "_");
            (1..100)
                .filter_map(|k| {
                    let v = format!("{version}_{k}");
                    let dotted = v.replace('_', ".");
                    (!taken(&format!("V{v}__")) && !taken(&format!("V{dotted}__")))
                        .then(|| format!("V{v}__{desc}.sql"))
                })
                .nth(skip)?
        }
        Tool::GolangMigrate | Tool::Goose | Tool::Dbmate | Tool::SqlMigrate => {
            let c = NUMBERED.captures(name)?;
            let n: u128 = c[1].parse().ok()?;
            let next = format!("{:0width$}", n + 1 + skip as u128, width = c[1].len());
            if taken(&format!("{next}_")) {
                return None;
            }
            match tool {
                Tool::GolangMigrate => format!("{next}_{desc}.up.sql"),
                _ => format!("{next}_{desc}.sql"),
            }
        }
        _ => return None,
    };
    let nl = eol(site.text);
    // golang-migrate sends the file as one query: a preamble would make it
    // a transaction, which work outside a transaction refuses.
    let preamble = !(no_tx && tool == Tool::GolangMigrate);
    if !preamble && stmts.len() > 1 {
        return None;
    }
    let mut body = format!("-- Follows {name} (written by `platcheck fix`).{nl}");
    if preamble {
        for (setting, default) in [("lock_timeout", "'2s'"), ("statement_timeout", "'15min'")] {
            body.push_str(&session_setting(site, setting, default));
            body.push_str(nl);
        }
    }
    for s in stmts {
        body.push_str(s);
        body.push(';');
        body.push_str(nl);
    }
    let text = match tool {
        Tool::Goose if no_tx => format!("-- +goose NO TRANSACTION{nl}-- +goose Up{nl}{body}"),
        Tool::Goose => format!("-- +goose Up{nl}{body}"),
        Tool::Dbmate if no_tx => {
            format!("-- migrate:up transaction:false{nl}{body}{nl}-- migrate:down{nl}")
        }
        Tool::Dbmate => format!("-- migrate:up{nl}{body}{nl}-- migrate:down{nl}"),
        Tool::SqlMigrate if no_tx => format!("-- +migrate Up notransaction{nl}{body}"),
        Tool::SqlMigrate => format!("-- +migrate Up{nl}{body}"),
        _ => body,
    };
    let path = dir.join(&new_name);
    let mut edits = vec![Edit {
        path: path.clone(),
        start: 0,
        end: 0,
        text,
        create: true,
    }];
    if no_tx && tool == Tool::Flyway {
        let mut conf = path.into_os_string();
        conf.push(".conf");
        edits.push(Edit {
            path: PathBuf::from(conf),
            start: 0,
            end: 0,
            text: format!("executeInTransaction=false{nl}"),
            create: true,
        });
    }
    Some(edits)
}

/// The script's own `SET <setting>` statement, else one with `default`.
fn session_setting(site: &Site, setting: &str, default: &str) -> String {
    site.fa
        .stmts
        .iter()
        .find(|s| matches!(&s.op, Some(Op::Set { name, .. }) if name.eq_ignore_ascii_case(setting)))
        .map(|s| format!("{};", &site.text[s.span.start..s.span.end]))
        .unwrap_or_else(|| format!("SET {setting} = {default};"))
}
