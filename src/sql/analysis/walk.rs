//! The walk over one script: classify and parse each statement, follow the
//! transaction and session settings, judge it against the schema so far.
use super::pieces::statements;
use super::{FileAnalysis, Role, Slot, Stmt};
use crate::source::Span;
use crate::sql::context::FileCtx;
use crate::sql::effects;
use crate::sql::history::{self, TxMode};
use crate::sql::lexer::Token;
use crate::sql::ops::Op;
use crate::sql::parse::{self, Parsed};
use crate::sql::schema::Model;
use crate::sql::{Dialect, classify};
use std::borrow::Cow;
use std::collections::HashMap;

fn kind_of(op: Option<&Op>, toks: &[Token], text: &str) -> Cow<'static, str> {
    let k = match op {
        Some(Op::AlterTable { .. }) => "ALTER TABLE",
        Some(Op::CreateTable { .. }) => "CREATE TABLE",
        Some(Op::CreateIndex { .. }) => "CREATE INDEX",
        Some(Op::DropIndex { .. }) => "DROP INDEX",
        Some(Op::DropTable { .. }) => "DROP TABLE",
        Some(Op::RefreshMatView { .. }) => "REFRESH MATERIALIZED VIEW",
        Some(Op::CreateView {
            materialized: true, ..
        }) => "CREATE MATERIALIZED VIEW",
        Some(Op::AddEnumValue { .. }) => "ALTER TYPE",
        Some(Op::RenameTable { .. }) => "RENAME TABLE",
        Some(Op::Optimize { .. }) => "OPTIMIZE TABLE",
        _ => "",
    };
    if !k.is_empty() {
        return Cow::Borrowed(k);
    }
    // The common first words without an allocation each.
    const WORDS: &[&str] = &[
        "SET", "UPDATE", "INSERT", "DELETE", "DO", "SELECT", "COMMENT", "GRANT", "CREATE", "ALTER",
        "DROP", "BEGIN", "COMMIT",
    ];
    let Some(t) = toks.first() else {
        return Cow::Borrowed("");
    };
    let word = &text[t.start..t.end];
    match WORDS.iter().find(|w| w.eq_ignore_ascii_case(word)) {
        Some(w) => Cow::Borrowed(w),
        None => Cow::Owned(word.to_ascii_uppercase()),
    }
}

struct Session {
    /// TimeZone is UTC now (`None`: as the server's default).
    utc: Option<bool>,
    tx: Option<u32>,
    next_tx: u32,
    lock_timeout: bool,
    statement_timeout: bool,
    fk_checks_off: bool,
}

impl Session {
    fn apply(&mut self, op: &Op, dialect: Dialect) {
        match op {
            Op::Begin if dialect == Dialect::Postgres => {
                self.next_tx += 1;
                self.tx = Some(self.next_tx);
            }
            Op::Commit | Op::Rollback => self.tx = None,
            Op::Set { name, value } => {
                let on = !matches!(value.as_str(), "0" | "default" | "");
                match name.as_str() {
                    "lock_timeout" | "lock_wait_timeout" | "innodb_lock_wait_timeout" => {
                        self.lock_timeout = on
                    }
                    "statement_timeout" | "max_execution_time" | "max_statement_time" => {
                        self.statement_timeout = on
                    }
                    "foreign_key_checks" => {
                        self.fk_checks_off = matches!(value.as_str(), "0" | "off" | "false")
                    }
                    "timezone" => {
                        self.utc = match value.as_str() {
                            "default" | "local" | "" => None,
                            v => Some(crate::sql::timezone::is_utc(v)),
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// A script to analyse: `text` starts at offset `base` of its file.
pub struct Source<'a> {
    pub text: &'a str,
    pub base: usize,
    /// File ranges the tool sends as one statement.
    pub blocks: &'a [Span],
    pub tx: TxMode,
}

/// One whole file, outside any history (`platcheck verify` replays its own).
pub fn analyze_file(text: &str, file: usize, ctx: FileCtx, model: &mut Model) -> FileAnalysis {
    let tx = if ctx.in_transaction {
        TxMode::Whole("the migration tool's transaction (sql.assume_in_transaction)".into())
    } else {
        TxMode::None
    };
    let src = Source {
        text,
        base: 0,
        blocks: &[],
        tx,
    };
    analyze_source(&src, file, ctx, &mut Slot::Live(model))
}

pub fn analyze_source(src: &Source, file: usize, ctx: FileCtx, model: &mut Slot) -> FileAnalysis {
    let dialect = ctx.dialect;
    let text = src.text;
    let shift = |sp: Span| Span::new(sp.start + src.base, sp.end + src.base);
    // The statements are made once and judged in place (the session walk
    // needs to know first whether the tool wraps the script in a
    // transaction, which depends on every statement).
    let mut stmts: Vec<Stmt> = Vec::new();
    let (mut all_outside, mut any_outside) = (true, false);
    let flyway = matches!(src.tx, TxMode::Flyway | TxMode::FlywayMixed);
    statements(src, dialect, |piece, toks| {
        let body = &text[piece.body.start..piece.body.end];
        let mut op = classify::classify(body, toks, dialect);
        if let Some(op) = &mut op {
            super::compact::compact(op);
        }
        // sqlparser's verdict matters only for a statement the
        // classifier cannot read (PC009 reports those where sqlparser
        // stopped): a statement the classifier understood is analysed
        // from its tokens whatever sqlparser says, so it is not parsed.
        let parsed = if piece.error.is_some() {
            Parsed::Skipped
        } else if op.is_some() {
            Parsed::Classified
        } else {
            parse::parse(body, toks, dialect)
        };
        // Only Flyway's transaction rule reads it (6% of a 20k-statement
        // run when asked of every statement).
        if flyway {
            let outside = history::flyway_runs_outside_transaction(body, toks);
            all_outside &= outside;
            any_outside |= outside;
        }
        stmts.push(Stmt {
            index: stmts.len() + 1,
            span: shift(piece.body),
            kind: kind_of(op.as_ref(), toks, body),
            op,
            parsed,
            split_error: piece.error.map(|mut e| {
                e.at += src.base;
                Box::new(e)
            }),
            tx: None,
            lock_timeout: false,
            statement_timeout: false,
            fk_checks_off: false,
            effects: Box::default(),
            locks: Box::default(),
            rare: None,
            rewrite: false,
            scan: false,
            plan: None,
        });
    });
    stmts.shrink_to_fit();
    let wrapped = dialect == Dialect::Postgres
        && match &src.tx {
            TxMode::None => false,
            TxMode::Whole(_) => true,
            TxMode::Flyway => !all_outside,
            TxMode::FlywayMixed => !any_outside,
            TxMode::Implicit(_) => stmts.len() > 1,
        };
    let mut s = Session {
        utc: None,
        tx: wrapped.then_some(0),
        next_tx: 0,
        lock_timeout: false,
        statement_timeout: false,
        fk_checks_off: false,
    };
    let mut created = HashMap::new();
    let count = stmts.len();
    for st in &mut stmts {
        let index = st.index;
        // The session as it is when the statement starts.
        st.tx = s.tx;
        st.lock_timeout = s.lock_timeout;
        st.statement_timeout = s.statement_timeout;
        st.fk_checks_off = s.fk_checks_off;
        if let Some(op) = st.op.take() {
            s.apply(&op, dialect);
            if let Op::CreateTable { name, .. } | Op::CreateView { name, .. } = &op {
                created.insert(name.name.clone(), index);
            }
            if let Op::CreateIndex { name: Some(n), .. } = &op {
                created.insert(n.clone(), index);
            }
            let sess = effects::SessionFacts {
                utc: s.utc.unwrap_or(ctx.server_utc),
            };
            crate::sql::judge::judge(st, &op, model.get(), &ctx, &sess);
            model.apply(&op, index == count);
            // The indexes a new table's constraints made are as new as the
            // table (a later lock on them in this file blocks no one).
            if let Op::CreateTable { name, .. } | Op::AlterTable { table: name, .. } = &op
                && created.contains_key(&name.name)
            {
                for i in model.get().table_indexes(&name.name) {
                    created.entry(i).or_insert(index);
                }
            }
            st.op = Some(op);
        }
    }
    FileAnalysis {
        file,
        ctx,
        stmts,
        created,
        role: Role::Up,
        window: None,
        tool_tx: src.tx.why(),
        layout: None,
        tool: None,
    }
}
