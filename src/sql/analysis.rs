//! The per-script walk: split, lex, parse, classify each statement; follow
//! transactions and session settings; judge each statement against the
//! schema so far and the lock table. `replay` runs it over every history in
//! the tool's order, once per run (cached in the run's
//! `registry::Analyses`); every MG rule reads the result.
use super::context::FileCtx;
use super::effects::{self, Effect};
use super::history::{self, Problem, TxMode};
use super::lexer::{self, Token};
use super::locks::{MyPlan, PgMode};
use super::ops::{Name, Op};
use super::parse::{self, Parsed};
pub use super::replay::{ObservedRows, Slot, analyze, analyze_observed};
use super::schema::Model;
use super::split::{self, SplitError};
use super::{Dialect, classify};
use crate::finding::{LockFact, SqlFacts, StatementRef};
use crate::source::Span;
use std::borrow::Cow;
use std::collections::HashMap;

/// The classifier reads the head of a statement; past this many tokens a
/// statement is data (a huge INSERT), and the rest is not kept.
pub const TOKEN_LIMIT: usize = 20_000;

#[derive(Debug)]
pub struct Stmt {
    /// 1-based position in its script: the file, or the section or
    /// changeset of it that the tool runs as one.
    pub index: usize,
    /// The statement text in the file (no leading comments, no terminator).
    pub span: Span,
    /// The statement's kind for messages (`ALTER TABLE`, or its first word).
    pub kind: Cow<'static, str>,
    /// `None`: neither sqlparser nor the classifier understood it.
    pub op: Option<Op>,
    pub parsed: Parsed,
    /// Boxed: rare, and kept for every statement.
    pub split_error: Option<Box<SplitError>>,
    /// The transaction the statement runs in (explicit, or the tool's).
    pub tx: Option<u32>,
    pub lock_timeout: bool,
    pub statement_timeout: bool,
    pub fk_checks_off: bool,
    pub effects: Vec<Effect>,
    pub locks: Vec<(Name, PgMode)>,
    /// What few statements have (see `Rare`; read through `maybe_locks`,
    /// `secondary` and `refused`).
    rare: Option<Box<Rare>>,
    pub rewrite: bool,
    pub scan: bool,
    /// MySQL/MariaDB: the algorithm and DML level the server would choose.
    pub plan: Option<MyPlan>,
}

/// The facts most statements lack, boxed so that those pay one word each
/// (inline they were 72 bytes of every statement the analysis keeps).
#[derive(Debug, Default)]
pub struct Rare {
    /// Locks taken only if rows reach the relation (`Effect::conditional`).
    pub maybe_locks: Vec<(Name, PgMode)>,
    /// The relations in `locks` that are indexes, views or sequences (not
    /// tables): `verify` observes those only where a prediction names them.
    pub secondary: Vec<String>,
    /// The server refuses the statement, and why (a lock-table row that
    /// says so): the migration fails there.
    pub refused: Option<String>,
}

/// Where a script sits in its history.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Role {
    /// A forward step (or a script outside any layout).
    #[default]
    Up,
    /// A down/undo/revert/rollback script, judged on the schema after its
    /// own up step; `note` is appended to its findings' messages.
    Down { note: String },
}

/// One script: a file, or the part of one the tool runs as a unit.
#[derive(Debug)]
pub struct FileAnalysis {
    pub file: usize,
    pub ctx: FileCtx,
    pub stmts: Vec<Stmt>,
    /// Tables, views and indexes created in this script → index of the
    /// creating statement (0: by an earlier step of the same change).
    pub created: HashMap<String, usize>,
    pub role: Role,
    /// `(offset, text)` when the script's text differs from the file's
    /// inside its statements (a rollback spread over `--rollback` lines).
    pub window: Option<(usize, String)>,
    /// Whose transaction a statement with `tx == Some(0)` runs in.
    pub tool_tx: String,
    /// The history this script belongs to: its layout and the tool whose
    /// transaction rules apply (`fix` writes that tool's opt-out).
    pub layout: Option<history::Layout>,
    pub tool: Option<history::Tool>,
}

#[derive(Debug, Default)]
pub struct Analysis {
    pub files: Vec<FileAnalysis>,
    /// Bad or skipped inputs found while reading the histories (PC012–PC016).
    pub problems: Vec<Problem>,
}

impl FileAnalysis {
    /// What a finding in this script adds to its message: for a down
    /// script, which up step it was judged after.
    pub fn note(&self) -> Option<&str> {
        match &self.role {
            Role::Down { note } => Some(note),
            Role::Up => None,
        }
    }
    /// Created earlier in this file (or by this very statement): nobody
    /// else can be using it, so locking it blocks no one.
    pub fn is_new(&self, name: &Name, stmt: &Stmt) -> bool {
        self.created
            .get(&name.name)
            .is_some_and(|&i| i <= stmt.index)
    }
}

impl Stmt {
    /// Locks taken only if rows reach the relation (`Effect::conditional`).
    pub fn maybe_locks(&self) -> &[(Name, PgMode)] {
        self.rare.as_ref().map_or(&[], |r| &r.maybe_locks)
    }
    /// The relations in `locks` that are indexes, views or sequences.
    pub fn secondary(&self) -> &[String] {
        self.rare.as_ref().map_or(&[], |r| &r.secondary)
    }
    /// Why the server refuses the statement, if it does.
    pub fn refused(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.refused.as_deref())
    }
    /// Records the rare facts, boxed only when there are some.
    pub fn set_rare(&mut self, mut rare: Rare) {
        rare.maybe_locks.shrink_to_fit();
        rare.secondary.shrink_to_fit();
        let none =
            rare.maybe_locks.is_empty() && rare.secondary.is_empty() && rare.refused.is_none();
        self.rare = (!none).then(|| Box::new(rare));
    }

    /// The facts every SQL finding carries (output.md).
    pub fn facts(&self, ctx: &FileCtx) -> SqlFacts {
        let locks = if let Some(plan) = self.plan {
            self.effects
                .iter()
                .filter_map(|e| e.table.as_ref())
                .take(1)
                .map(|t| LockFact {
                    relation: t.display(),
                    mode: my_mode(plan),
                })
                .collect()
        } else {
            self.locks
                .iter()
                .map(|(n, m)| LockFact {
                    relation: n.display(),
                    mode: m.as_str().to_string(),
                })
                .collect()
        };
        let _ = ctx;
        SqlFacts {
            statement: StatementRef {
                index: self.index,
                kind: self.kind.to_string(),
            },
            locks,
            rewrite: self.rewrite,
            scan: self.scan,
        }
    }
    /// The strongest lock this statement takes on `table`.
    pub fn lock_on(&self, table: &Name) -> PgMode {
        self.locks
            .iter()
            .filter(|(n, _)| n.name == table.name)
            .map(|(_, m)| *m)
            .max()
            .unwrap_or(PgMode::None)
    }
}

pub fn my_mode(p: MyPlan) -> String {
    let lock = if p.exclusive {
        "EXCLUSIVE"
    } else if p.concurrent_dml {
        "NONE"
    } else {
        "SHARED"
    };
    format!("ALGORITHM={}, LOCK={lock}", p.algorithm.as_str())
}

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
                            v => Some(super::timezone::is_utc(v)),
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

/// A statement piece and its significant tokens (offsets in the piece's
/// body), or a piece whose body must be lexed again.
struct Next {
    piece: split::Piece,
    toks: Vec<Token>,
    /// Lex `body` alone: the piece joins several (a tool block), or a
    /// custom delimiter may have cut tokens short.
    relex: bool,
}

/// `f` over the statement pieces in order, with each tool block
/// (`StatementBegin` … `End`) joined into one, and each statement's tokens:
/// the ones the splitter lexed, so a file is lexed once.
fn statements(src: &Source, dialect: Dialect, mut f: impl FnMut(split::Piece, &[Token])) {
    let block_of = |at: usize| {
        src.blocks
            .iter()
            .position(|b| b.start <= src.base + at && src.base + at < b.end)
    };
    let text = src.text;
    let mut flush = |n: Next| {
        let body = &text[n.piece.body.start..n.piece.body.end];
        if n.relex {
            f(n.piece, &lexer::tokens(body, dialect, TOKEN_LIMIT));
        } else {
            f(n.piece, &n.toks);
        }
    };
    let mut splitter = split::Splitter::new(text, dialect);
    let mut cur: Option<Next> = None;
    let mut last_block = None;
    let mut toks = Vec::new();
    while let Some(p) = splitter.next_piece(Some(split::Tokens {
        out: &mut toks,
        limit: TOKEN_LIMIT,
    })) {
        if !p.is_statement() {
            continue;
        }
        let blk = block_of(p.body.start);
        if blk.is_some()
            && blk == last_block
            && let Some(prev) = cur.as_mut()
        {
            prev.piece.body.end = p.body.end;
            prev.piece.span.end = p.span.end;
            if prev.piece.error.is_none() {
                prev.piece.error = p.error;
            }
            prev.relex = true;
            continue;
        }
        last_block = blk;
        let at = p.body.start;
        for t in &mut toks {
            t.start -= at;
            t.end -= at;
        }
        let next = Next {
            piece: p,
            toks: std::mem::take(&mut toks),
            relex: splitter.custom_delimiter(),
        };
        if let Some(done) = cur.replace(next) {
            flush(done);
        }
    }
    if let Some(done) = cur {
        flush(done);
    }
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
        let op = classify::classify(body, toks, dialect);
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
            effects: Vec::new(),
            locks: Vec::new(),
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
            super::judge::judge(st, &op, model.get(), &ctx, &sess);
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
