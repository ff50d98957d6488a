//! Which engine a migration file runs on and how hot its tables are: the
//! Cluster whose `spec.migrations.path` contains the file, else
//! `sql.*` in platcheck.yaml, else PostgreSQL 15. Also where its history
//! comes from (`Origin`): the layout, tool and baseline the Cluster or the
//! config names.
use super::history::{Layout, Tool};
use super::{Dialect, Version};
use crate::contracts::Contract;
use crate::contracts::units;
use crate::contracts::yaml::Node;
use crate::settings::Settings;
use crate::source::normalize;
use crate::workspace::Workspace;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct FileCtx {
    pub dialect: Dialect,
    pub version: Version,
    /// The Cluster contract the file belongs to, if any.
    pub cluster: Option<String>,
    pub hot_tables: Vec<String>,
    pub table_rows: HashMap<String, u128>,
    pub large_table_rows: u128,
    /// `unknown_table_size: small` (the Cluster's `migrations`, else
    /// `sql.`): a table whose size is not declared counts as small. By
    /// default it counts as large: the gate fails closed.
    pub unknown_small: bool,
    /// The migration tool wraps the whole script in one transaction.
    pub in_transaction: bool,
    pub require_idempotent: bool,
    /// Files that share a schema history (one cluster, or one directory).
    pub scope: String,
    /// The server's own TimeZone is UTC (known only to `verify`, which
    /// asks the server; a lint cannot know it and assumes not).
    pub server_utc: bool,
}

/// How much a lock on a table hurts: decides E vs W.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heat {
    Hot,
    Large(u128),
    /// Neither in `hot_tables` nor in `table_rows`: treated as large unless
    /// `unknown_table_size: small` says otherwise.
    Unknown,
    Normal,
}

impl FileCtx {
    pub fn heat(&self, table: &str) -> Heat {
        let t = table.rsplit('.').next().unwrap_or(table);
        if self.hot_tables.iter().any(|h| h.eq_ignore_ascii_case(t)) {
            return Heat::Hot;
        }
        match self.table_rows.get(&t.to_ascii_lowercase()) {
            Some(&r) if r > self.large_table_rows => Heat::Large(r),
            Some(_) => Heat::Normal,
            None if self.unknown_small => Heat::Normal,
            None => Heat::Unknown,
        }
    }
}

/// Each Cluster's `migrations.path`, normalised, to the cluster: built once
/// per run so finding a file's cluster costs its depth, not the number of
/// clusters (the lookup was quadratic on large monorepos).
pub fn migration_owners<'a>(
    ws: &'a Workspace,
    settings: &Settings,
) -> HashMap<PathBuf, &'a Contract> {
    let root = normalize(&settings.root);
    let mut owners = HashMap::new();
    for c in ws.clusters() {
        if let Some(mpath) = c.get("/spec/migrations/path").and_then(Node::as_str) {
            owners.entry(normalize(&root.join(mpath))).or_insert(c);
            // The baseline dump belongs to the cluster wherever it lives.
            if let Some(b) = c.get("/spec/migrations/baseline").and_then(Node::as_str) {
                owners.entry(normalize(&root.join(b))).or_insert(c);
            }
        }
    }
    owners
}

/// Where a file's history is described: the owning Cluster's
/// `migrations.*`, else the config's `sql.*`.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// `engine.product` or `sql.dialect` as written (`cockroachdb`, `mysql`).
    pub product: String,
    /// `None`: detect it from the files.
    pub layout: Option<Layout>,
    pub tool: Option<Tool>,
    /// `migrations.baseline`: the dump that is the starting schema.
    pub baseline: Option<PathBuf>,
    /// The owning Cluster's `migrations.path`, normalised.
    pub cluster_dir: Option<PathBuf>,
}

/// The Cluster whose history holds the file at `path` (normalised): the
/// most specific `migrations.path` that contains it. The file's own path
/// is a key only for a cluster's baseline dump.
pub fn owner<'a>(
    owners: &HashMap<PathBuf, &'a Contract>,
    path: &std::path::Path,
) -> Option<&'a Contract> {
    owners.get(path).copied().or_else(|| {
        path.ancestors()
            .skip(1)
            .find_map(|dir| owners.get(dir).copied())
    })
}

/// The context of one migration file. The most specific `migrations.path`
/// that contains the file decides its cluster.
pub fn for_file(
    ws: &Workspace,
    settings: &Settings,
    owners: &HashMap<PathBuf, &Contract>,
    file: usize,
) -> FileCtx {
    for_file_with(ws, settings, owners, file).0
}

/// The context of one migration file and where its history is described.
pub fn for_file_with(
    ws: &Workspace,
    settings: &Settings,
    owners: &HashMap<PathBuf, &Contract>,
    file: usize,
) -> (FileCtx, Origin) {
    let src = &ws.files[file];
    let path = normalize(&src.path);
    let require_idempotent = settings
        .config_root
        .as_ref()
        .and_then(|r| r.pointer("/sql/require_idempotent"))
        .and_then(Node::as_bool)
        .unwrap_or(false);
    let mut ctx = FileCtx {
        server_utc: false,
        dialect: Dialect::from_product(&settings.sql.dialect).unwrap_or(Dialect::Postgres),
        version: Version::parse(&settings.sql.version).unwrap_or(Version(15, 0, 0)),
        cluster: None,
        hot_tables: Vec::new(),
        table_rows: HashMap::new(),
        large_table_rows: settings.sql.large_table_rows,
        unknown_small: settings.sql.unknown_small,
        in_transaction: settings.sql.assume_in_transaction,
        // Flyway re-applies a repeatable migration (`R__*.sql`) whenever it
        // changes, so it must be idempotent whatever the config says.
        require_idempotent: require_idempotent
            || path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("R__")),
        scope: path
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
    };
    // Without `sql.version` the default is the dialect's own, not PG's 15.
    let has_version = settings
        .config_root
        .as_ref()
        .and_then(|r| r.pointer("/sql/version"))
        .is_some();
    if !has_version {
        ctx.version = default_version(ctx.dialect);
    } else if let Some((v, _)) = Version::configured(&settings.sql.version, ctx.dialect) {
        ctx.version = v;
    }
    let mut origin = Origin {
        product: settings.sql.dialect.clone(),
        layout: settings.sql.layout.as_deref().and_then(Layout::parse),
        tool: settings.sql.tool.as_deref().and_then(Tool::parse),
        baseline: None,
        cluster_dir: None,
    };
    let root = normalize(&settings.root);
    if let Some(c) = owner(owners, &path) {
        origin.cluster_dir = c
            .get("/spec/migrations/path")
            .and_then(Node::as_str)
            .map(|m| normalize(&root.join(m)));
        let m = |k: &str| {
            c.get(&format!("/spec/migrations/{k}"))
                .and_then(Node::as_str)
        };
        if let Some(l) = m("layout") {
            origin.layout = Layout::parse(l);
        }
        if let Some(t) = m("tool") {
            origin.tool = Tool::parse(t);
        }
        origin.baseline = m("baseline").map(|b| normalize(&root.join(b)));
        if let Some(p) = c.get("/spec/engine/product").and_then(Node::as_str) {
            origin.product = p.to_string();
        }
        if let Some(d) = c
            .get("/spec/engine/product")
            .and_then(Node::as_str)
            .and_then(Dialect::from_product)
        {
            ctx.dialect = d;
            ctx.version = default_version(d);
        }
        if let Some((v, _)) = c
            .get("/spec/engine/version")
            .and_then(Node::scalar_text)
            .and_then(|v| Version::configured(&v, ctx.dialect))
        {
            ctx.version = v;
        }
        ctx.cluster = Some(c.name.clone());
        ctx.scope = format!("cluster:{}", c.name);
        if let Some(hot) = c.get("/spec/migrations/hot_tables") {
            ctx.hot_tables = hot
                .as_seq()
                .iter()
                .filter_map(|n| n.as_str().map(str::to_ascii_lowercase))
                .collect();
        }
        if let Some(u) = c
            .get("/spec/migrations/unknown_table_size")
            .and_then(Node::as_str)
        {
            ctx.unknown_small = u == "small";
        }
        if let Some(rows) = c.get("/spec/migrations/table_rows") {
            for (k, v) in rows.entries() {
                if let Some(r) = v.scalar_text().and_then(|t| units::parse_rows(&t).ok()) {
                    ctx.table_rows.insert(k.name.to_ascii_lowercase(), r);
                }
            }
        }
    }
    (ctx, origin)
}

pub fn default_version(d: Dialect) -> Version {
    match d {
        Dialect::Postgres => Version(15, 0, 0),
        Dialect::MySql => Version(8, 0, 35),
        Dialect::MariaDb => Version(10, 11, 0),
    }
}
