//! What every MG rule shares: the cached analysis, the report shape (the
//! statement's first line, SQL facts attached), E/W by table heat, and the
//! wording of locks and heat in messages.
use crate::catalog::RuleId;
use crate::emit::Report;
use crate::finding::Severity;
use crate::registry::RuleCtx;
use crate::source::Span;
use crate::sql::analysis::{self, Analysis, FileAnalysis, Stmt};
use crate::sql::context::Heat;
use crate::sql::effects::Effect;
use crate::sql::effects_toast::{ToastLock, toast_locks};
use crate::sql::lexer::{self, Tok};
use crate::sql::locks::{self, PgMode};
use crate::sql::ops::Name;

pub fn analysis<'a>(ctx: &RuleCtx<'a>) -> &'a Analysis {
    ctx.sql()
}

pub fn pg_files<'a>(ctx: &RuleCtx<'a>) -> impl Iterator<Item = &'a FileAnalysis> {
    analysis(ctx)
        .files
        .iter()
        .filter(|f| !f.ctx.dialect.is_mysql())
}

pub fn my_files<'a>(ctx: &RuleCtx<'a>) -> impl Iterator<Item = &'a FileAnalysis> {
    analysis(ctx)
        .files
        .iter()
        .filter(|f| f.ctx.dialect.is_mysql())
}

/// The statement's text (as the script has it: a rollback's `--rollback`
/// prefixes are not part of it).
pub fn text<'a>(ctx: &RuleCtx<'a>, fa: &'a FileAnalysis, st: &Stmt) -> &'a str {
    match &fa.window {
        Some((base, t)) => &t[st.span.start - base..st.span.end - base],
        None => &ctx.ws.files[fa.file].text[st.span.start..st.span.end],
    }
}

/// A report at the statement's first line, with its lock facts.
pub fn report(ctx: &RuleCtx, rule: RuleId, fa: &FileAnalysis, st: &Stmt) -> Report {
    Report::new(rule, fa.file, head(ctx, fa, st))
        .sql(st.facts(&fa.ctx))
        .var("statement", st.index)
        .note(fa.note())
}

/// A statement's first line: where its findings sit, and the related place
/// when another statement's finding names it.
pub fn head(ctx: &RuleCtx, fa: &FileAnalysis, st: &Stmt) -> Span {
    let t = text(ctx, fa, st);
    let first_line = t.find(['\n', '\r']).unwrap_or(t.len());
    Span::new(st.span.start, st.span.start + first_line)
}

/// Error on a hot or large table, or one whose size is not declared (the
/// gate fails closed; an index whose table is not known counts as such);
/// warning on a table declared small.
pub fn heat_severity(fa: &FileAnalysis, tables: &[&Name]) -> Severity {
    let unknown_table = tables.is_empty() && !fa.ctx.unknown_small;
    if unknown_table || tables.iter().any(|t| fa.ctx.heat(&t.name) != Heat::Normal) {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// E/W by the tables' heat (`heat_severity`). When nothing declared makes
/// it an error — the tables' sizes are simply not known — the message says
/// so and where to declare them, so an undeclared table never reads like a
/// measured large one.
pub trait BySize {
    fn by_size(self, fa: &FileAnalysis, tables: &[&Name]) -> Self;
}

impl BySize for Report {
    fn by_size(mut self, fa: &FileAnalysis, tables: &[&Name]) -> Report {
        let severity = heat_severity(fa, tables);
        self = self.severity(severity);
        if severity != Severity::Error {
            return self;
        }
        let heats: Vec<Heat> = tables.iter().map(|t| fa.ctx.heat(&t.name)).collect();
        if heats
            .iter()
            .any(|h| matches!(h, Heat::Hot | Heat::Large(_)))
        {
            return self;
        }
        let mut undeclared: Vec<String> = Vec::new();
        for (t, h) in tables.iter().zip(&heats) {
            let name = t.display();
            if *h == Heat::Unknown && !undeclared.contains(&name) {
                undeclared.push(name);
            }
        }
        let (what, it) = match undeclared.as_slice() {
            [] => ("size of the index's table not declared".to_string(), "it"),
            [one] => (format!("size of {one} not declared"), "it"),
            many => (format!("sizes of {} not declared", many.join(", ")), "them"),
        };
        let how = match &fa.ctx.cluster {
            Some(cluster) => format!(
                "declare {it} in Cluster {cluster}'s `migrations.table_rows`/`hot_tables`, or set `migrations.unknown_table_size: small`"
            ),
            None => format!(
                "declare {it} in a Cluster's `migrations.table_rows`/`hot_tables`, or set `sql.unknown_table_size: small`"
            ),
        };
        let note = format!(
            " ({what}, so counted as large: {how}){}",
            self.note.as_deref().unwrap_or("")
        );
        self.note = Some(note);
        self
    }
}

/// `orders (hot table)`, `order_items (400,000,000 rows)` or `audit_log`.
pub fn describe(fa: &FileAnalysis, t: &Name) -> String {
    match fa.ctx.heat(&t.name) {
        Heat::Hot => format!("{} (hot table)", t.display()),
        Heat::Large(r) => format!(
            "{} ({} rows)",
            t.display(),
            crate::contracts::units::thousands(r as i128)
        ),
        // Messages splice the name into `table.column`: the docs and the
        // severity say what an undeclared size means.
        Heat::Unknown | Heat::Normal => t.display(),
    }
}

/// `ACCESS EXCLUSIVE on orders, SHARE ROW EXCLUSIVE on customers`.
pub fn locks_text(fa: &FileAnalysis, st: &Stmt) -> String {
    if let Some(plan) = st.plan {
        return analysis::my_mode(plan);
    }
    let parts: Vec<String> = st
        .locks
        .iter()
        .map(|(n, m)| format!("{} on {}", m.as_str(), n.display()))
        .chain(
            certain_toast(st)
                .into_iter()
                .map(|l| format!("{} on {}", l.mode.as_str(), l.relation)),
        )
        .collect();
    let _ = fa;
    if parts.is_empty() {
        "a lock on the index's table (not declared in earlier migrations)".into()
    } else {
        parts.join(", ")
    }
}

/// The TOAST tables and TOAST indexes the statement always locks (named
/// as verify names them: `pg_toast of t`, `index of pg_toast of t`).
pub fn certain_toast(st: &Stmt) -> Vec<ToastLock> {
    let mut v: Vec<ToastLock> = Vec::new();
    for l in toast_locks(&st.effects).into_iter().filter(|l| l.certain) {
        match v.iter_mut().find(|x| x.relation == l.relation) {
            Some(x) => x.mode = x.mode.max(l.mode),
            None => v.push(l),
        }
    }
    v
}

/// Whether the effect's table existed before this file.
pub fn existing(fa: &FileAnalysis, st: &Stmt, e: &Effect) -> bool {
    e.table.as_ref().is_none_or(|t| !fa.is_new(t, st))
}

pub fn pg_lock(e: &Effect) -> PgMode {
    locks::pg(e.key).lock
}

/// The statement with `word` inserted after the first keyword `after`
/// (`CREATE INDEX` → `CREATE INDEX CONCURRENTLY`), as the concrete fix.
pub fn insert_after(sql: &str, after: &str, word: &str) -> String {
    let dialect = crate::sql::Dialect::Postgres;
    for t in lexer::tokens(sql, dialect, 64) {
        if t.kind == Tok::Word && sql[t.start..t.end].eq_ignore_ascii_case(after) {
            return format!("{} {word}{};", &sql[..t.end], &sql[t.end..]);
        }
    }
    format!("{sql};")
}

/// A statement on one line, shortened for messages.
pub fn one_line(sql: &str) -> String {
    let s: String = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(79).collect::<String>())
    } else {
        s
    }
}

/// The table name to show, or a placeholder when unknown.
pub fn table_or(e: &Effect, unknown: &str) -> String {
    e.table
        .as_ref()
        .map_or_else(|| unknown.to_string(), Name::display)
}
