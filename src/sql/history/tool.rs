//! Whether the migration tool runs a script inside a transaction: what
//! `migrations.tool` (or the tool a layout implies) does by default on
//! PostgreSQL, and the opt-outs that tool itself reads.
use super::{Flavor, Layout, Unit};
use crate::contracts::yaml::Node;
use crate::settings::Settings;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    Flyway,
    Liquibase,
    Alembic,
    Django,
    Rails,
    Goose,
    GolangMigrate,
    Dbmate,
    Sqitch,
    Diesel,
    SqlMigrate,
    Popx,
}

/// Every value `migrations.tool` and `sql.tool` recognise.
pub const NAMES: &[(&str, Tool)] = &[
    ("flyway", Tool::Flyway),
    ("liquibase", Tool::Liquibase),
    ("alembic", Tool::Alembic),
    ("django", Tool::Django),
    ("rails", Tool::Rails),
    ("goose", Tool::Goose),
    ("golang-migrate", Tool::GolangMigrate),
    ("dbmate", Tool::Dbmate),
    ("sqitch", Tool::Sqitch),
    ("diesel", Tool::Diesel),
    ("sql-migrate", Tool::SqlMigrate),
    ("popx", Tool::Popx),
];

impl Tool {
    /// `None` for tools platcheck knows nothing about (their transactions
    /// are then `sql.assume_in_transaction`'s to say).
    pub fn parse(s: &str) -> Option<Tool> {
        let s = s.trim().to_ascii_lowercase();
        NAMES.iter().find(|(n, _)| *n == s).map(|(_, t)| *t)
    }

    pub fn as_str(self) -> &'static str {
        NAMES
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("", |(n, _)| n)
    }

    fn display(self) -> &'static str {
        match self {
            Tool::Flyway => "Flyway",
            Tool::Liquibase => "Liquibase",
            Tool::Alembic => "Alembic",
            Tool::Django => "Django",
            Tool::Rails => "Rails",
            other => other.as_str(),
        }
    }

    /// The tool whose file names or markers a layout is.
    pub fn of_layout(layout: Layout) -> Option<Tool> {
        Some(match layout {
            Layout::GolangMigrate => Tool::GolangMigrate,
            Layout::Popx => Tool::Popx,
            Layout::Diesel => Tool::Diesel,
            Layout::Dbmate => Tool::Dbmate,
            Layout::Goose => Tool::Goose,
            Layout::SqlMigrate => Tool::SqlMigrate,
            Layout::Flyway => Tool::Flyway,
            Layout::Liquibase => Tool::Liquibase,
            Layout::Sqitch => Tool::Sqitch,
            Layout::Plain => return None,
        })
    }

    /// What the tool does with a script by default.
    fn mode(self, flavor: Flavor, flyway_mixed: bool) -> TxMode {
        match self {
            // Flyway runs a migration outside a transaction only when every
            // statement in it is one PostgreSQL refuses in a transaction
            // block (with `mixed`, when any is).
            Tool::Flyway if flyway_mixed => TxMode::FlywayMixed,
            Tool::Flyway => TxMode::Flyway,
            // The postgres driver sends the whole file as one query, which
            // PostgreSQL runs as one implicit transaction when it holds
            // more than one statement.
            Tool::GolangMigrate => TxMode::Implicit("golang-migrate"),
            // sqitch runs the script as written (scripts say BEGIN/COMMIT).
            Tool::Sqitch => TxMode::None,
            // popx runs CockroachDB, YugabyteDB and MySQL DDL in autocommit.
            Tool::Popx if flavor != Flavor::Postgres => TxMode::None,
            Tool::Liquibase => TxMode::Whole(format!(
                "the transaction {} runs each changeset in",
                self.display()
            )),
            _ => TxMode::Whole(format!(
                "the transaction {} runs each migration in",
                self.display()
            )),
        }
    }
}

/// How a script starts, transaction-wise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TxMode {
    /// No transaction but the script's own BEGIN/COMMIT.
    None,
    /// The whole script in one transaction; the text says whose.
    Whole(String),
    /// Flyway: one transaction, unless every statement must run outside one.
    Flyway,
    /// Flyway with `mixed = true`: one transaction, unless any statement
    /// must run outside one.
    FlywayMixed,
    /// One implicit transaction when the script has more than one
    /// statement: the tool named sends the whole file as one query.
    Implicit(&'static str),
}

impl TxMode {
    /// The wording of the transaction for messages (MG003's `{why}`).
    pub fn why(&self) -> String {
        match self {
            TxMode::None => String::new(),
            TxMode::Whole(w) => w.clone(),
            TxMode::Flyway => "the transaction Flyway runs this migration in (its other statements can run in one, so Flyway does not run the file outside a transaction)".into(),
            TxMode::FlywayMixed => "the transaction Flyway runs this migration in".into(),
            TxMode::Implicit(tool) => format!("the implicit transaction PostgreSQL gives a multi-statement query ({tool} sends the whole file as one)"),
        }
    }
}

/// A history's transaction rule: the configured tool, else an explicit
/// `sql.assume_in_transaction`, else the tool the layout implies.
#[derive(Clone, Debug)]
pub struct TxPolicy {
    pub tool: Option<Tool>,
    assumed: bool,
    /// Whether the layout's directives are the tool's own (goose reads
    /// `-- +goose NO TRANSACTION`; Alembic does not).
    honour_directives: bool,
    flavor: Flavor,
    /// Flyway's project configuration says `mixed = true`.
    pub flyway_mixed: bool,
}

impl TxPolicy {
    pub fn new(
        tool: Option<Tool>,
        settings: &Settings,
        layout: Layout,
        flavor: Flavor,
    ) -> TxPolicy {
        let implied = Tool::of_layout(layout);
        if let Some(t) = tool {
            return TxPolicy {
                tool: Some(t),
                assumed: false,
                honour_directives: Some(t) == implied,
                flavor,
                flyway_mixed: false,
            };
        }
        let assume_set = settings
            .config_root
            .as_ref()
            .and_then(|r| r.pointer("/sql/assume_in_transaction"))
            .and_then(Node::as_bool)
            .is_some();
        if assume_set {
            return TxPolicy {
                tool: None,
                assumed: settings.sql.assume_in_transaction,
                honour_directives: true,
                flavor,
                flyway_mixed: false,
            };
        }
        TxPolicy {
            tool: implied,
            assumed: false,
            honour_directives: true,
            flavor,
            flyway_mixed: false,
        }
    }

    pub fn mode(&self, unit: &Unit) -> TxMode {
        if unit.no_tx && self.honour_directives {
            // diesel runs a migration outside its transaction with one
            // `batch_execute` of the whole file: one simple query, which
            // PostgreSQL runs as one implicit transaction.
            if self.tool == Some(Tool::Diesel) {
                return TxMode::Implicit("diesel");
            }
            // dbmate runs a `transaction:false` migration as one `Exec` of
            // the whole section (it refuses to split statements: dbmate
            // PR 286), which lib/pq sends as one simple query.
            if self.tool == Some(Tool::Dbmate) && self.flavor == Flavor::Postgres {
                return TxMode::Implicit("dbmate");
            }
            return TxMode::None;
        }
        match self.tool {
            Some(t) => t.mode(self.flavor, self.flyway_mixed),
            None if self.assumed => {
                TxMode::Whole("the migration tool's transaction (sql.assume_in_transaction)".into())
            }
            None => TxMode::None,
        }
    }
}
