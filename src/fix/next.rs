//! Where a fix puts work that must not share the flagged migration: the
//! migration that follows it (the next free version with the tool's
//! markers, a popx `.autocommit` file, a diesel directory, a sqitch change,
//! a Liquibase changeset, or the lines after a script's own COMMIT). The
//! tool's transaction opt-out for the file itself is `opt_out`.
use super::popx::popx_name;
use super::timeouts::{preamble, unbounded_note};
use super::versions::{created, next_free, sibling_texts, slot};
use super::{Site, diesel, eol, line_start, place};
use crate::catalog::FixSafety;
use crate::finding::Edit;
use crate::sql::analysis::Stmt;
use crate::sql::history::Tool;
use crate::sql::ops::Op;
use regex::Regex;
use std::path::PathBuf;
use std::sync::LazyLock;

static FLYWAY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^V(\d+(?:[._]\d+)*)__(.+)\.sql$").unwrap());
static NUMBERED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\d+)_(.+)\.sql$").unwrap());

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
    removal_of(site, site.st)
}

/// As `removal`, for any statement of the flagged script.
pub fn removal_of(site: &Site, st: &Stmt) -> Edit {
    let text = site.text;
    let start = line_start(text, st.span.start);
    let mut end = st.span.end;
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

/// Whether the tool sends a file it runs outside a transaction as one
/// query (which PostgreSQL runs as one implicit transaction when it holds
/// more than one statement): golang-migrate always, diesel with
/// `run_in_transaction = false` (one `batch_execute`), dbmate with
/// `transaction:false` (one `Exec` of the file: dbmate issues 182 and 285,
/// one `CREATE INDEX CONCURRENTLY` runs, two fail). Work that refuses a
/// transaction is then alone in its file, without a `SET` beside it.
pub fn one_query(site: &Site) -> bool {
    matches!(
        site.fa.tool,
        Some(Tool::GolangMigrate | Tool::Diesel | Tool::Dbmate)
    )
}

/// golang-migrate sends a file as one query, and a `SET` beside a
/// statement that refuses a transaction makes that query one: the script's
/// `SET`s go (with a note saying where the bound goes instead) and
/// `in_place` rewrites the statement, which keeps its file, its version and
/// its down. Moving it out instead would leave a file of `SET`s only, a
/// version that does nothing.
/// The note goes before `kept`, the statement that stays.
pub fn alone_in_one_query(site: &Site, kept: &Stmt, in_place: Vec<Edit>) -> Vec<Edit> {
    let mut edits: Vec<Edit> = (site.fa.stmts.iter())
        .filter(|s| s.index != kept.index && super::sql::is_session(s))
        .map(|s| removal_of(site, s))
        .collect();
    let at = line_start(site.text, kept.span.start);
    edits.push(site.insert(at, unbounded_note(site)));
    edits.extend(in_place);
    edits
}

fn describe(site: &Site) -> String {
    describe_stmt(site.st)
}

/// A migration's name for the work of `st` (`index_<name>`, `drop_<name>`).
pub fn describe_stmt(st: &Stmt) -> String {
    let raw = match &st.op {
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
    following_chain(
        site,
        &[Follow {
            stmts,
            no_tx,
            desc: desc.to_string(),
            undo: None,
        }],
    )
}

/// One migration of the chain a fix writes after the flagged one.
pub struct Follow<'a> {
    pub stmts: &'a [String],
    pub no_tx: bool,
    pub desc: String,
    /// What undoes `stmts`, where their shape does not say (a sqitch
    /// change gets a revert script: `undo`).
    pub undo: Option<Vec<String>>,
}

/// The migrations of `chain`, each right after the one before: sqitch
/// changes planned one after the other, else the next free versions.
pub fn following_chain(site: &Site, chain: &[Follow]) -> Option<Vec<Edit>> {
    if site.fa.tool == Some(Tool::Sqitch)
        && let Some(edits) = super::sqitch::following(site, chain)
    {
        return Some(edits);
    }
    let mut edits = Vec::new();
    for (skip, f) in chain.iter().enumerate() {
        edits.extend(following_at(site, f.stmts, f.no_tx, &f.desc, skip)?);
    }
    Some(edits)
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
    // One query without a transaction: one statement, and no preamble
    // (a SET would make it a transaction, which that work refuses).
    let one_query = no_tx && one_query(site);
    if one_query && stmts.len() > 1 {
        return None;
    }
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
