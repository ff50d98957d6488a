//! Where a fix puts work that must not share the flagged migration: the
//! tool's own transaction opt-out for the file (a goose, dbmate or
//! sql-migrate directive, a Flyway sidecar `.conf`, diesel's
//! `metadata.toml`, Liquibase's `runInTransaction:false`), and the
//! migration that follows it (the next free version with the tool's
//! markers, a popx `.autocommit` file, a diesel directory, a Liquibase
//! changeset, or the lines after a script's own COMMIT).
use super::{Site, diesel, eol, line_start, place};
use crate::catalog::FixSafety;
use crate::finding::Edit;
use crate::sql::history::Tool;
use crate::sql::ops::Op;
use regex::Regex;
use std::path::{Path, PathBuf};
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
        Tool::Diesel => diesel::opt_out(site),
        Tool::Liquibase => place::liquibase_opt_out(site),
        // golang-migrate and popx opt out by file (one statement, an
        // `.autocommit` name): the work moves to a migration of its own.
        // Alembic, Django and Rails opt out in their Python or Ruby code,
        // which platcheck does not read: no fix writes it.
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
    let nl = eol(site.text);
    let statements: String = stmts.iter().map(|s| format!("{s};{nl}")).collect();
    // Where the tool runs one file in several transactions, the work goes
    // in the same file: a changeset of its own, or after the COMMIT.
    if tool == Tool::Liquibase {
        let body = format!("{}{statements}", preamble(site));
        let desc = if skip > 0 {
            format!("{desc}-{}", skip + 1)
        } else {
            desc.to_string()
        };
        return Some(vec![place::liquibase_following(site, &body, no_tx, &desc)?]);
    }
    if let Some(at) = place::after_commit(site) {
        return Some(vec![place::insert_after_commit(site, at, &statements)]);
    }
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
    if tool == Tool::Diesel {
        return diesel::following(site, &statements, no_tx, desc, skip);
    }
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
        Tool::GolangMigrate | Tool::Goose | Tool::Dbmate | Tool::SqlMigrate | Tool::Popx => {
            let c = NUMBERED.captures(name)?;
            let n: u128 = c[1].parse().ok()?;
            let width = c[1].len();
            let next = next_free(skip, |k| {
                let v = format!("{:0width$}", n + k);
                let prefix = format!("{v}_");
                let texts = sibling_texts(site, dir, |f| f.starts_with(&prefix));
                (v.len() == width).then(|| (slot(&texts, name), v))
            })?;
            match tool {
                Tool::GolangMigrate => format!("{next}_{desc}.up.sql"),
                Tool::Popx => popx_name(name, &next, desc, no_tx)?,
                _ => format!("{next}_{desc}.sql"),
            }
        }
        _ => return None,
    };
    // golang-migrate sends the file as one query: a preamble would make it
    // a transaction, which work outside a transaction refuses.
    let one_query = no_tx && tool == Tool::GolangMigrate;
    if one_query && stmts.len() > 1 {
        return None;
    }
    let mut body = format!("-- Follows {name} (written by `platcheck fix`).{nl}");
    if one_query {
        body.push_str(&unbounded_note(site));
    } else {
        body.push_str(&preamble(site));
    }
    body.push_str(&statements);
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
    let mut edits = vec![created(path.clone(), text)];
    if no_tx && tool == Tool::Flyway {
        let mut conf = path.into_os_string();
        conf.push(".conf");
        edits.push(created(
            PathBuf::from(conf),
            format!("executeInTransaction=false{nl}"),
        ));
    } else if tool == Tool::Popx {
        // popx refuses an up migration without its down.
        let down = new_name.replace(".up.sql", ".down.sql");
        edits.push(created(
            dir.join(down),
            format!("-- Undoes nothing: written by `platcheck fix` with {new_name}.{nl}"),
        ));
    }
    Some(edits)
}

/// What holds a version the follow-up could take.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Free,
    /// A follow-up `platcheck fix` wrote for this same migration (an
    /// earlier pass): the next one goes after it.
    Ours,
    /// Another migration: what follows must not jump over it.
    Theirs,
}

/// Whose the migrations `texts` (one version's files) are.
pub(crate) fn slot(texts: &[String], flagged: &str) -> Slot {
    if texts.is_empty() {
        Slot::Free
    } else if texts.iter().all(|t| t.contains(MARK))
        && texts
            .iter()
            .any(|t| t.contains(&format!("-- Follows {flagged} ")))
    {
        Slot::Ours
    } else {
        Slot::Theirs
    }
}

const MARK: &str = "written by `platcheck fix`";

/// The `skip`-th free version after the flagged one, walking `at(1)`,
/// `at(2)`, … past follow-ups of ours; `None` at another migration.
pub(crate) fn next_free(
    skip: usize,
    at: impl Fn(u128) -> Option<(Slot, String)>,
) -> Option<String> {
    let mut free = 0;
    for k in 1..=32 {
        let (slot, version) = at(k)?;
        match slot {
            Slot::Theirs => return None,
            Slot::Ours => {}
            Slot::Free if free == skip => return Some(version),
            Slot::Free => free += 1,
        }
    }
    None
}

/// The texts of the files in `dir` whose names `pick` takes: as the run
/// read them, else from the disk.
pub(crate) fn sibling_texts(site: &Site, dir: &Path, pick: impl Fn(&str) -> bool) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(&pick))
        .map(|e| {
            let path = e.path();
            let read = site.ctx.ws.files.iter().find(|f| f.path == path);
            match read {
                Some(f) => f.text.to_string(),
                None if path.is_dir() => {
                    std::fs::read_to_string(path.join("up.sql")).unwrap_or_default()
                }
                None => std::fs::read_to_string(&path).unwrap_or_default(),
            }
        })
        .collect()
}

const POPX_DIALECTS: &[&str] = &["postgres", "cockroach", "mysql", "sqlite3", "sqlite"];

/// A popx file name with a dialect (`….postgres.up.sql`).
pub(crate) fn popx_has_dialect(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.split('.').skip(1).any(|p| POPX_DIALECTS.contains(&p)))
}

/// popx: `<version>_<name>[.<dialect>][.autocommit].up.sql`, the dialect
/// of the flagged file kept; `.autocommit` runs it outside a transaction.
fn popx_name(name: &str, next: &str, desc: &str, no_tx: bool) -> Option<String> {
    let stem = name.strip_suffix(".up.sql")?;
    let dialect = stem
        .rsplit('.')
        .find(|p| {
            matches!(
                *p,
                "postgres" | "cockroach" | "mysql" | "sqlite3" | "sqlite"
            )
        })
        .filter(|_| stem.contains('.'));
    let mut out = format!("{next}_{desc}");
    if let Some(d) = dialect {
        out.push('.');
        out.push_str(d);
    }
    if no_tx {
        out.push_str(".autocommit");
    }
    out.push_str(".up.sql");
    Some(out)
}

pub(crate) fn created(path: PathBuf, text: String) -> Edit {
    Edit {
        path,
        start: 0,
        end: 0,
        text,
        create: true,
    }
}

/// The script's timeouts for a migration written after it.
pub(crate) fn preamble(site: &Site) -> String {
    let nl = eol(site.text);
    [("lock_timeout", "'2s'"), ("statement_timeout", "'15min'")]
        .iter()
        .map(|(setting, default)| format!("{}{nl}", session_setting(site, setting, default)))
        .collect()
}

/// Why a one-query golang-migrate follow-up has no `SET statement_timeout`
/// and where its bound goes instead: the fix must not drop the flagged
/// script's timeout without saying so (MG031 reports the file as well).
fn unbounded_note(site: &Site) -> String {
    let nl = eol(site.text);
    let flagged = site.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let had = site
        .fa
        .stmts
        .iter()
        .find(|s| is_set(s, "statement_timeout"))
        .map(|s| {
            format!(
                " ({flagged} had `{}`)",
                &site.text[s.span.start..s.span.end]
            )
        })
        .unwrap_or_default();
    format!(
        "-- No SET statement_timeout{had}: golang-migrate sends this file as one query,{nl}\
         -- and a SET would make it a transaction, which this statement refuses.{nl}\
         -- Bound it with x-statement-timeout=<milliseconds> in the database URL.{nl}"
    )
}

fn is_set(s: &crate::sql::analysis::Stmt, setting: &str) -> bool {
    matches!(&s.op, Some(Op::Set { name, .. }) if name.eq_ignore_ascii_case(setting))
}

/// The script's own `SET <setting>` statement, else one with `default`.
fn session_setting(site: &Site, setting: &str, default: &str) -> String {
    site.fa
        .stmts
        .iter()
        .find(|s| is_set(s, setting))
        .map(|s| format!("{};", &site.text[s.span.start..s.span.end]))
        .unwrap_or_else(|| format!("SET {setting} = {default};"))
}
