//! The layouts platcheck reads, and how a directory's layout is recognised
//! when neither `migrations.layout` nor `sql.layout` names it.
use super::Input;
use super::names;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// `<version>_<title>.up.sql` / `.down.sql`, versions compared as numbers.
    GolangMigrate,
    /// ory/x popx: golang-migrate names with dialect and `.autocommit` infixes.
    Popx,
    /// `<version>_<name>/up.sql` and `down.sql`.
    Diesel,
    /// `-- migrate:up` / `-- migrate:down` sections.
    Dbmate,
    /// `-- +goose Up` / `-- +goose Down` sections.
    Goose,
    /// `-- +migrate Up` / `-- +migrate Down` sections.
    SqlMigrate,
    /// `V<ver>__`, `U<ver>__`, `R__`, `B<ver>__`.
    Flyway,
    /// `--liquibase formatted sql` changelogs.
    Liquibase,
    /// `deploy/`, `revert/`, `verify/`, ordered by `sqitch.plan`.
    Sqitch,
    /// Files in name order (SQL exports of Alembic, Django, Rails).
    Plain,
}

/// Every value `migrations.layout` and `sql.layout` accept (besides `auto`).
pub const NAMES: &[(&str, Layout)] = &[
    ("golang-migrate", Layout::GolangMigrate),
    ("popx", Layout::Popx),
    ("diesel", Layout::Diesel),
    ("dbmate", Layout::Dbmate),
    ("goose", Layout::Goose),
    ("sql-migrate", Layout::SqlMigrate),
    ("flyway", Layout::Flyway),
    ("liquibase", Layout::Liquibase),
    ("sqitch", Layout::Sqitch),
    ("plain", Layout::Plain),
];

impl Layout {
    /// `None` for `auto` and for values the schema already reported.
    pub fn parse(s: &str) -> Option<Layout> {
        NAMES.iter().find(|(n, _)| *n == s).map(|(_, l)| *l)
    }
    pub fn as_str(self) -> &'static str {
        NAMES
            .iter()
            .find(|(_, l)| *l == self)
            .map_or("plain", |(n, _)| n)
    }
}

/// Liquibase requires this as the changelog's first line.
pub fn is_liquibase(text: &str) -> bool {
    names::lines(text)
        .map(|(_, l)| l.trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| {
            let l = l.to_ascii_lowercase();
            l.strip_prefix("--").is_some_and(|r| {
                r.split_whitespace().collect::<Vec<_>>() == ["liquibase", "formatted", "sql"]
            })
        })
}

/// The section-marker layout a file's directive lines belong to.
pub fn markers(text: &str) -> Option<Layout> {
    for (_, line) in names::lines(text) {
        let Some(rest) = line.trim_start().strip_prefix("--") else {
            continue;
        };
        let rest = rest.trim_start().to_ascii_lowercase();
        if rest.starts_with("migrate:up") || rest.starts_with("migrate:down") {
            return Some(Layout::Dbmate);
        }
        if let Some(cmd) = rest.strip_prefix("+goose") {
            if matches!(cmd.trim(), "up" | "down") {
                return Some(Layout::Goose);
            }
        } else if let Some(cmd) = rest.strip_prefix("+migrate") {
            let first = cmd.split_whitespace().next().unwrap_or("");
            if matches!(first, "up" | "down") {
                return Some(Layout::SqlMigrate);
            }
        }
    }
    None
}

/// The layout one file's name or content says it belongs to.
fn shape(inp: &Input) -> Option<Layout> {
    if is_liquibase(inp.text) {
        return Some(Layout::Liquibase);
    }
    if let Some(l) = markers(inp.text) {
        return Some(l);
    }
    if super::versioned::is_golang_name(&inp.name) {
        let popx = inp.flavor.is_some() || inp.name.contains(".autocommit.");
        return Some(if popx {
            Layout::Popx
        } else {
            Layout::GolangMigrate
        });
    }
    if matches!(inp.name.as_str(), "up.sql" | "down.sql")
        && inp
            .dir()
            .rsplit('/')
            .next()
            .is_some_and(super::diesel::is_migration_dir)
    {
        return Some(Layout::Diesel);
    }
    if super::flyway::is_flyway_name(&inp.name) {
        return Some(Layout::Flyway);
    }
    None
}

/// The layout most of a directory's files have; ties go to the layout with
/// the more specific markers (content before names).
pub fn detect(inputs: &[Input], metas: &[Input]) -> Layout {
    if metas.iter().any(|m| m.name == "sqitch.plan") {
        return Layout::Sqitch;
    }
    const PRIORITY: [Layout; 8] = [
        Layout::Liquibase,
        Layout::Dbmate,
        Layout::Goose,
        Layout::SqlMigrate,
        Layout::Popx,
        Layout::GolangMigrate,
        Layout::Diesel,
        Layout::Flyway,
    ];
    let mut counts = [0usize; 8];
    let mut popx = false;
    for inp in inputs {
        if let Some(l) = shape(inp) {
            // popx names are golang-migrate names with more in them.
            let l = if l == Layout::Popx {
                popx = true;
                Layout::GolangMigrate
            } else {
                l
            };
            if let Some(i) = PRIORITY.iter().position(|p| *p == l) {
                counts[i] += 1;
            }
        }
    }
    let best = (0..PRIORITY.len())
        .filter(|&i| counts[i] > 0)
        .max_by(|&a, &b| counts[a].cmp(&counts[b]).then(b.cmp(&a)));
    match best.map(|i| PRIORITY[i]) {
        Some(Layout::GolangMigrate) if popx => Layout::Popx,
        Some(l) => l,
        None => Layout::Plain,
    }
}
