//! What a statement does, as far as locks and compatibility are concerned.
//! The classifier produces these from tokens; rules and the lock table read
//! them. Names are normalised (unquoted identifiers lower-cased, schema kept
//! separately) so `Orders`, `public.orders` and `"orders"` compare equal.

/// A possibly schema-qualified object name.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name {
    /// Boxed: rarely there, and a name sits in every statement, effect
    /// and lock the analysis keeps (a word less each, issue 21).
    pub schema: Option<Box<str>>,
    pub name: String,
}

impl Name {
    pub fn new(name: impl Into<String>) -> Name {
        Name {
            schema: None,
            name: name.into(),
        }
    }
    /// How the name is written in messages and lock facts.
    pub fn display(&self) -> String {
        match &self.schema {
            Some(s) => format!("{s}.{}", self.name),
            None => self.name.clone(),
        }
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.display())
    }
}

/// A column type: base name (lower-case, aliases folded) and its modifiers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeName {
    pub base: String,
    pub args: Vec<i64>,
    /// ENUM/SET members (MySQL).
    pub members: Vec<String>,
    pub array: bool,
    /// The type as written.
    pub raw: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DefaultExpr {
    pub raw: String,
    /// Calls a volatile function (a rewrite on PostgreSQL).
    pub volatile: bool,
    /// A parenthesised expression rather than a literal (MySQL).
    pub expression: bool,
    /// Functions the expression calls, lower-cased, without schema: one
    /// no built-in list knows is judged on its `CREATE FUNCTION`.
    pub calls: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColumnDef {
    pub name: String,
    pub ty: TypeName,
    pub not_null: bool,
    pub default: Option<DefaultExpr>,
    pub primary_key: bool,
    pub unique: bool,
    pub references: Option<Name>,
    /// The referenced column of a column-level REFERENCES (`None`: the primary key).
    pub ref_column: Option<String>,
    pub identity: bool,
    pub generated_stored: bool,
    pub auto_increment: bool,
    /// Its column-level CHECKs, each as the identifiers its expression
    /// names: PostgreSQL names a CHECK after the one column its expression
    /// references, which need not be the column it is written on
    /// (`a int CHECK (b > 0)` is `t_b_check`).
    pub checks: Vec<Vec<String>>,
    pub charset: Option<String>,
    /// MySQL `FIRST` / `AFTER col`.
    pub positioned: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintKind {
    Check,
    ForeignKey,
    Unique,
    PrimaryKey,
    Exclude,
    NotNull,
    Index,
    Fulltext,
    Spatial,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub name: Option<String>,
    pub kind: ConstraintKind,
    pub columns: Vec<String>,
    pub references: Option<Name>,
    /// The referenced columns (empty: the primary key).
    pub ref_columns: Vec<String>,
    pub not_valid: bool,
    pub using_index: bool,
    /// The index `USING INDEX i` names (PostgreSQL renames it to the
    /// constraint's name and locks it).
    pub index: Option<String>,
    /// For CHECK: the column of a `CHECK (col IS NOT NULL)`.
    pub is_not_null_of: Option<String>,
}

impl Constraint {
    /// A constraint of `kind` with nothing else known yet.
    pub fn new(name: Option<String>, kind: ConstraintKind) -> Constraint {
        Constraint {
            name,
            kind,
            columns: Vec::new(),
            references: None,
            ref_columns: Vec::new(),
            not_valid: false,
            using_index: false,
            index: None,
            is_not_null_of: None,
        }
    }
}

/// One action of an `ALTER TABLE`. The column and constraint payloads are
/// boxed: inline, every action of every ALTER (a `SET NOT NULL` as much as
/// an `ADD COLUMN`) took the size of a whole `ColumnDef`, and the analysis
/// keeps every statement's actions for the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Alter {
    AddColumn {
        col: Box<ColumnDef>,
        if_not_exists: bool,
    },
    DropColumn {
        name: String,
        if_exists: bool,
        cascade: bool,
    },
    /// PostgreSQL `ALTER COLUMN … TYPE`, MySQL `MODIFY`/`CHANGE` (which restate the column).
    ColumnType {
        name: String,
        new_name: Option<String>,
        col: Box<ColumnDef>,
        using: bool,
        /// The USING expression is the column itself, or the column cast
        /// to the new type (`USING v`, `USING v::text`): the server judges
        /// that as if there were no USING.
        using_plain: bool,
        /// A `COLLATE` clause.
        collate: bool,
        restated: bool,
    },
    SetNotNull(String),
    DropNotNull(String),
    SetDefault(String),
    DropDefault(String),
    SetStorage(String),
    SetStatistics(String),
    AddConstraint(Box<Constraint>),
    ValidateConstraint(String),
    DropConstraint {
        name: String,
        foreign_key: bool,
    },
    DropPrimaryKey,
    DropIndex(String),
    RenameColumn {
        from: String,
        to: String,
    },
    RenameTo(Name),
    /// `RENAME CONSTRAINT a TO b` (PostgreSQL: a UNIQUE / PRIMARY KEY /
    /// EXCLUDE constraint's index is renamed with it), MySQL `RENAME
    /// INDEX|KEY a TO b`.
    RenameConstraint {
        from: String,
        to: String,
    },
    SetSchema,
    SetLogged(bool),
    /// `SET TABLESPACE name`.
    SetTablespace(String),
    /// `SET ACCESS METHOD name`.
    SetAccessMethod(String),
    AttachPartition(Name),
    DetachPartition {
        part: Name,
        concurrently: bool,
    },
    Trigger,
    Rule,
    RowLevelSecurity,
    Owner,
    ReplicaIdentity,
    /// `CLUSTER ON index` (the index named), `SET WITHOUT CLUSTER` (none).
    ClusterOn(Option<String>),
    /// `SET ( … )` / `RESET ( … )` storage parameters, by name.
    SetParams(Vec<String>),
    /// `INHERIT parent` / `NO INHERIT parent`.
    Inherit(Option<Name>),
    /// MySQL table options.
    Algorithm(String),
    LockClause(String),
    ConvertCharset,
    RowFormat,
    Engine,
    Force,
    DefaultCharset,
    AutoIncrementValue,
    Comment,
    Other(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Begin,
    Commit,
    Rollback,
    /// `SET [SESSION|LOCAL] name = value`, or `set_config('name', …)`.
    Set {
        name: String,
        value: String,
    },
    CreateTable {
        name: Name,
        if_not_exists: bool,
        columns: Vec<ColumnDef>,
        constraints: Vec<Constraint>,
        /// Boxed: rare, and it set the size of every `Op`.
        partition_of: Option<Box<Name>>,
        /// `PARTITION OF p DEFAULT`.
        default_partition: bool,
        /// `PARTITION BY …`.
        partitioned: bool,
        as_select: bool,
        temp: bool,
    },
    AlterTable {
        table: Name,
        actions: Vec<Alter>,
    },
    DropTable {
        names: Vec<Name>,
        if_exists: bool,
        cascade: bool,
    },
    DropSchema {
        name: Name,
        database: bool,
    },
    RenameSchema,
    /// MySQL `RENAME TABLE a TO b`.
    RenameTable {
        from: Name,
        to: Name,
    },
    CreateIndex {
        name: Option<String>,
        table: Name,
        concurrently: bool,
        unique: bool,
        if_not_exists: bool,
        kind: ConstraintKind,
        /// `ON ONLY parent`: the partitioned parent's index alone, built by nothing.
        only: bool,
        /// Every name in its column list (columns, and words of expressions).
        columns: Vec<String>,
    },
    DropIndex {
        names: Vec<Name>,
        /// MySQL `DROP INDEX i ON t`.
        table: Option<Name>,
        concurrently: bool,
        if_exists: bool,
    },
    Reindex {
        target: Name,
        table_level: bool,
        concurrently: bool,
    },
    Cluster {
        table: Option<Name>,
    },
    Vacuum {
        tables: Vec<Name>,
        full: bool,
    },
    RefreshMatView {
        name: Name,
        concurrently: bool,
    },
    CreateView {
        name: Name,
        materialized: bool,
        or_replace: bool,
        /// Every name the view's query mentions (its possible sources).
        deps: Vec<String>,
    },
    DropView {
        names: Vec<Name>,
        materialized: bool,
        cascade: bool,
    },
    /// `CREATE [OR REPLACE] FUNCTION|PROCEDURE name … [IMMUTABLE|STABLE|VOLATILE]`.
    CreateFunction {
        name: Name,
        /// `i`, `s` or `v`, as `pg_proc.provolatile` (VOLATILE when unsaid).
        volatility: char,
        /// Materialized views its body refreshes (`true`: CONCURRENTLY).
        refreshes: Vec<(String, bool)>,
        /// Tables its body writes (INSERT INTO / UPDATE / DELETE FROM).
        writes: Vec<String>,
    },
    DropFunction {
        names: Vec<Name>,
        cascade: bool,
    },
    /// `ALTER TRIGGER t ON table …`.
    AlterTrigger {
        table: Name,
    },
    /// `DROP POLICY` / `ALTER POLICY`.
    Policy {
        table: Name,
        drop: bool,
    },
    /// `ALTER SEQUENCE name …`; `restart`: RESTART, INCREMENT, MINVALUE,
    /// MAXVALUE, CYCLE, CACHE, START (anything but OWNED BY / RENAME / SET SCHEMA).
    AlterSequence {
        name: Name,
        options: bool,
    },
    /// `ANALYZE [table]`.
    Analyze {
        tables: Vec<Name>,
    },
    /// `ALTER INDEX a RENAME TO b`.
    RenameIndex {
        from: Name,
        to: String,
    },
    /// `ALTER INDEX i SET (…)` / `RESET (…)`: the option names.
    IndexParams {
        index: Name,
        params: Vec<String>,
    },
    /// `ALTER INDEX parent ATTACH PARTITION child`.
    AttachIndex {
        parent: Name,
        child: Name,
    },
    Truncate {
        tables: Vec<Name>,
        cascade: bool,
    },
    AddEnumValue {
        type_name: Name,
        value: String,
    },
    CreateType {
        name: Name,
    },
    /// `CREATE DOMAIN name AS type [CHECK (…) | NOT NULL …]`.
    CreateDomain {
        name: Name,
        constrained: bool,
    },
    Lock {
        tables: Vec<Name>,
        mode: String,
    },
    CreateTrigger {
        table: Name,
        /// The trigger's own name.
        name: String,
        /// The function `EXECUTE FUNCTION|PROCEDURE` names.
        function: Option<String>,
    },
    DropTrigger {
        table: Option<Name>,
        name: String,
    },
    CreatePolicy {
        table: Name,
    },
    CreateRule {
        table: Name,
    },
    /// UPDATE/DELETE/INSERT; `bulk` when it can touch many rows (no WHERE,
    /// or INSERT … SELECT).
    Dml {
        table: Name,
        verb: &'static str,
        bulk: bool,
        /// Tables written by data-modifying `WITH` queries before it.
        cte_writes: Vec<Name>,
    },
    /// MySQL `OPTIMIZE TABLE`.
    Optimize {
        tables: Vec<Name>,
    },
    /// Anything else we recognise (SELECT, GRANT, COMMENT, CREATE FUNCTION…).
    Other,
}

impl Op {
    /// The relation whose existence decides whether lock rules apply.
    pub fn is_transaction_control(&self) -> bool {
        matches!(self, Op::Begin | Op::Commit | Op::Rollback)
    }
}
