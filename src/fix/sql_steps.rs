//! PostgreSQL fixes that split one blocking step into online steps across
//! two migrations: a foreign key added NOT VALID and validated in the next
//! migration (MG015); SET NOT NULL through a NOT VALID CHECK, validated,
//! then SET NOT NULL and the CHECK dropped (MG013); ADD UNIQUE as a unique
//! index built concurrently and attached with USING INDEX (MG017).
use super::next::{self, Follow, following};
use super::opt_out;
use super::{Site, eol, fix, ident};
use crate::catalog::{FixSafety, RuleId};
use crate::finding::Fix;
use crate::sql::Dialect;
use crate::sql::history::Tool;
use crate::sql::ops::{Alter, Constraint, ConstraintKind, Op};
use regex::Regex;
use std::sync::LazyLock;

static TABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(\S+)").unwrap()
});
static FOREIGN_KEY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)\bFOREIGN\s+KEY\b").unwrap());
static SET_NOT_NULL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)\bALTER\s+(?:COLUMN\s+)?(\S+)\s+SET\s+NOT\s+NULL\s*$").unwrap()
});
static UNIQUE_COLS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)\bUNIQUE\s*(\([^()]*\))\s*$").unwrap());

pub fn compute(site: &Site, rule: RuleId) -> Option<Fix> {
    if site.fa.ctx.dialect != Dialect::Postgres {
        return None;
    }
    let Some(Op::AlterTable { table, actions }) = &site.st.op else {
        return None;
    };
    // One subcommand only: a statement doing several things is rewritten
    // by a person, who knows which of them may move.
    let [action] = actions.as_slice() else {
        return None;
    };
    let text = site.stmt_text();
    let table_text = TABLE.captures(text)?.get(1)?.as_str().to_string();
    match (rule, action) {
        (RuleId::MG015, Alter::AddConstraint(c))
            if c.kind == ConstraintKind::ForeignKey && !c.not_valid =>
        {
            foreign_key(site, &table.name, &table_text, c)
        }
        (RuleId::MG013, Alter::SetNotNull(col)) => {
            set_not_null(site, &table.name, &table_text, col)
        }
        (RuleId::MG017, Alter::AddConstraint(c))
            if c.kind == ConstraintKind::Unique && !c.using_index =>
        {
            unique(site, &table.name, &table_text, c)
        }
        _ => None,
    }
}

fn foreign_key(site: &Site, table: &str, table_text: &str, c: &Constraint) -> Option<Fix> {
    let text = site.stmt_text();
    let mut edits = Vec::new();
    let name = match &c.name {
        Some(n) => ident(n),
        None => {
            // PostgreSQL's own default name, written out so the next
            // migration can validate it.
            let n = ident(&format!("{table}_{}_fkey", c.columns.join("_")));
            let at = site.st.span.start + FOREIGN_KEY.find(text)?.start();
            edits.push(site.insert(at, format!("CONSTRAINT {n} ")));
            n
        }
    };
    edits.push(site.insert(site.st.span.end, " NOT VALID"));
    let validate = format!("ALTER TABLE {table_text} VALIDATE CONSTRAINT {name}");
    edits.extend(following(
        site,
        &[validate],
        false,
        &format!("validate_{}", plain(&name)),
    )?);
    Some(fix(
        "add the foreign key NOT VALID, validate it in the next migration",
        FixSafety::Safe,
        edits,
    ))
}

fn set_not_null(site: &Site, table: &str, table_text: &str, col: &str) -> Option<Fix> {
    let col_text = SET_NOT_NULL
        .captures(site.stmt_text())?
        .get(1)?
        .as_str()
        .to_string();
    let check = ident(&format!("{table}_{col}_not_null"));
    let add = format!(
        "ALTER TABLE {table_text} ADD CONSTRAINT {check} CHECK ({col_text} IS NOT NULL) NOT VALID"
    );
    // SET NOT NULL ends its migration: the ACCESS EXCLUSIVE it takes is
    // then held for the catalog change only, not for another statement.
    let steps = [
        format!("ALTER TABLE {table_text} VALIDATE CONSTRAINT {check}"),
        format!("ALTER TABLE {table_text} ALTER COLUMN {col_text} SET NOT NULL"),
    ];
    let drop = [format!("ALTER TABLE {table_text} DROP CONSTRAINT {check}")];
    let desc = plain(&format!("{table}_{col}"));
    let mut edits = vec![site.edit(site.st.span.start, site.st.span.end, add.clone())];
    edits.extend(next::following_chain(
        site,
        &[
            Follow {
                stmts: &steps,
                no_tx: false,
                desc: format!("{desc}_not_null"),
                undo: None,
            },
            Follow {
                stmts: &drop,
                no_tx: false,
                desc: format!("{desc}_drop_check"),
                // The CHECK it drops, back as the flagged migration adds it.
                undo: Some(vec![add]),
            },
        ],
    )?);
    let later_work = site
        .fa
        .stmts
        .iter()
        .any(|s| s.index > site.st.index && !super::sql::is_session(s));
    Some(fix(
        "SET NOT NULL through a NOT VALID CHECK validated in the next migration",
        if later_work {
            FixSafety::Unsafe
        } else {
            FixSafety::Safe
        },
        edits,
    ))
}

fn unique(site: &Site, table: &str, table_text: &str, c: &Constraint) -> Option<Fix> {
    let cols = UNIQUE_COLS
        .captures(site.stmt_text())?
        .get(1)?
        .as_str()
        .to_string();
    let name = match &c.name {
        Some(n) => ident(n),
        None => ident(&format!("{table}_{}_key", c.columns.join("_"))),
    };
    let build =
        format!("CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {table_text} {cols}");
    let attach =
        format!("ALTER TABLE {table_text} ADD CONSTRAINT {name} UNIQUE USING INDEX {name}");
    let alone = site
        .fa
        .stmts
        .iter()
        .all(|s| s.index == site.st.index || super::sql::is_session(s));
    let opt_out = (alone && site.st.tx == Some(0))
        .then(|| opt_out::opt_out(site))
        .flatten();
    // A tool that runs the file outside a transaction as one query takes
    // one statement per file: the build and the attach part.
    let one_query = next::one_query(site);
    if let Some(opt_out) = opt_out.clone().filter(|_| !one_query) {
        let nl = eol(site.text);
        let mut edits = vec![site.edit(
            site.st.span.start,
            site.st.span.end,
            format!("{build};{nl}{attach}"),
        )];
        edits.extend(opt_out);
        return Some(fix(
            "build the unique index concurrently, then attach it USING INDEX",
            FixSafety::Safe,
            edits,
        ));
    }
    // golang-migrate (diesel outside its transaction) runs a file of two
    // statements in one transaction: the build gets a migration of its
    // own, the attach the one after it.
    if one_query {
        let desc = plain(&name);
        // Alone in its file: the build keeps the file (its SETs go), the
        // attach follows; no version is left holding SETs only. diesel's
        // file opts out with its `metadata.toml`.
        let opted = site.fa.tool == Some(Tool::GolangMigrate) || opt_out.is_some();
        if alone && site.st.tx == Some(0) && opted {
            let build_here = site.edit(site.st.span.start, site.st.span.end, build);
            let mut edits = next::alone_in_one_query(site, site.st, vec![build_here]);
            edits.extend(opt_out.into_iter().flatten());
            edits.extend(following(
                site,
                &[attach],
                false,
                &format!("attach_{desc}"),
            )?);
            return Some(fix(
                "build the unique index concurrently alone in its file, attach it USING INDEX in the next migration",
                FixSafety::Safe,
                edits,
            ));
        }
        let mut edits = following(site, &[build], true, &format!("index_{desc}"))?;
        edits.extend(next::following_at(
            site,
            &[attach],
            false,
            &format!("attach_{desc}"),
            1,
        )?);
        let later_work = site
            .fa
            .stmts
            .iter()
            .any(|s| s.index > site.st.index && !super::sql::is_session(s));
        edits.push(next::removal(site));
        return Some(fix(
            "build the unique index concurrently in the next migration, attach it USING INDEX in the one after",
            if later_work {
                FixSafety::Unsafe
            } else {
                FixSafety::Safe
            },
            edits,
        ));
    }
    let moved = next::move_to_following(site, &[build, attach], true)?;
    Some(fix(
        "build the unique index concurrently in the next migration, then attach it USING INDEX",
        moved.safety,
        moved.edits,
    ))
}

fn plain(name: &str) -> String {
    name.trim_matches('"')
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}
