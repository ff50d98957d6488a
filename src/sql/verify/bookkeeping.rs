//! The migration tool's own table. A real run happens in a database where
//! the tool (diesel, golang-migrate, goose, Flyway, pop) has created its
//! bookkeeping table before the first migration; a migration that names it
//! (lemmy puts a trigger on `__diesel_schema_migrations`) would fail in the
//! empty scratch database for a reason no real run has. Verify creates the
//! tables the scripts name, empty, as the tool would, unless a script
//! creates it itself.
use super::Script;

/// Name and PostgreSQL definition (columns as the tool creates them).
const PG_TABLES: &[(&str, &str)] = &[
    (
        "__diesel_schema_migrations",
        "(version varchar(50) PRIMARY KEY NOT NULL, \
          run_on timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)",
    ),
    (
        "schema_migrations",
        "(version bigint PRIMARY KEY NOT NULL, dirty boolean NOT NULL DEFAULT false)",
    ),
    (
        "goose_db_version",
        "(id serial PRIMARY KEY, version_id bigint NOT NULL, is_applied boolean NOT NULL, \
          tstamp timestamp DEFAULT now())",
    ),
    (
        "flyway_schema_history",
        "(installed_rank int PRIMARY KEY NOT NULL, version varchar(50), \
          description varchar(200) NOT NULL, type varchar(20) NOT NULL, \
          script varchar(1000) NOT NULL, checksum int, installed_by varchar(100) NOT NULL, \
          installed_on timestamp NOT NULL DEFAULT now(), execution_time int NOT NULL, \
          success boolean NOT NULL)",
    ),
    (
        "schema_migration",
        "(version varchar(48) PRIMARY KEY NOT NULL, version_self int NOT NULL DEFAULT 0)",
    ),
];

/// The same tables as the tools create them on MySQL/MariaDB (InnoDB, so a
/// foreign key or a trigger on one behaves as on the real server).
const MY_TABLES: &[(&str, &str)] = &[
    (
        "__diesel_schema_migrations",
        "(version varchar(50) PRIMARY KEY NOT NULL, \
          run_on timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP) ENGINE=InnoDB",
    ),
    (
        "schema_migrations",
        "(version bigint PRIMARY KEY NOT NULL, dirty boolean NOT NULL) ENGINE=InnoDB",
    ),
    (
        "goose_db_version",
        "(id serial PRIMARY KEY, version_id bigint NOT NULL, is_applied boolean NOT NULL, \
          tstamp timestamp NULL DEFAULT CURRENT_TIMESTAMP) ENGINE=InnoDB",
    ),
    (
        "flyway_schema_history",
        "(installed_rank int PRIMARY KEY NOT NULL, version varchar(50), \
          description varchar(200) NOT NULL, type varchar(20) NOT NULL, \
          script varchar(1000) NOT NULL, checksum int, installed_by varchar(100) NOT NULL, \
          installed_on timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, execution_time int NOT NULL, \
          success boolean NOT NULL) ENGINE=InnoDB",
    ),
    (
        "schema_migration",
        "(version varchar(48) PRIMARY KEY NOT NULL, version_self int NOT NULL DEFAULT 0) ENGINE=InnoDB",
    ),
];

fn ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Byte offsets where `name` stands as a whole identifier in `lower`.
fn occurrences<'a>(lower: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    lower.match_indices(name).filter_map(move |(i, _)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + name.len()..].chars().next();
        (!before.is_some_and(ident) && !after.is_some_and(ident)).then_some(i)
    })
}

/// `CREATE TABLE [IF NOT EXISTS] ["]name`: the words before the mention.
fn is_created_at(lower: &str, at: usize) -> bool {
    let head = lower[..at].trim_end_matches(['"', '`', '.']);
    let words: Vec<&str> = head.split_whitespace().rev().take(5).collect();
    let (w0, w1, w2) = (
        words.first().copied(),
        words.get(1).copied(),
        words.get(2).copied(),
    );
    matches!((w0, w1), (Some("table"), Some("create")))
        || matches!((w0, w1, w2), (Some("exists"), Some("not"), Some("if")))
            && words.get(3) == Some(&"table")
}

/// The `CREATE TABLE` statements to run before a PostgreSQL replay, with
/// the names they create.
pub fn pg_tables(scripts: &[Script]) -> Vec<(&'static str, String)> {
    named(scripts, PG_TABLES)
}

/// As `pg_tables`, for a MySQL/MariaDB replay (the same tables, as the
/// tools create them there; a MySQL identifier may be quoted with `).
pub fn my_tables(scripts: &[Script]) -> Vec<(&'static str, String)> {
    named(scripts, MY_TABLES)
}

fn named(
    scripts: &[Script],
    tables: &'static [(&'static str, &'static str)],
) -> Vec<(&'static str, String)> {
    let lower: Vec<String> = scripts
        .iter()
        .map(|s| s.text.to_ascii_lowercase())
        .collect();
    tables
        .iter()
        .filter(|(name, _)| {
            let mut named = false;
            for text in &lower {
                for at in occurrences(text, name) {
                    if is_created_at(text, at) {
                        return false;
                    }
                    named = true;
                }
            }
            named
        })
        .map(|(name, cols)| (*name, format!("CREATE TABLE IF NOT EXISTS {name} {cols}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scripts(text: &str) -> Vec<Script> {
        vec![Script {
            name: "up.sql".into(),
            text: text.into(),
        }]
    }

    #[test]
    fn a_named_tool_table_is_created_unless_a_script_creates_it() {
        let t = pg_tables(&scripts(
            "CREATE TRIGGER f BEFORE INSERT ON __diesel_schema_migrations EXECUTE FUNCTION f();",
        ));
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].0, "__diesel_schema_migrations");
        assert!(
            pg_tables(&scripts(
                "CREATE TABLE IF NOT EXISTS \"schema_migrations\" (v int);"
            ))
            .is_empty()
        );
        assert!(
            pg_tables(&scripts(
                "create table schema_migrations (v int); insert into schema_migrations values (1);"
            ))
            .is_empty()
        );
        // A longer name that contains a tool table's is not a mention.
        assert!(pg_tables(&scripts("SELECT * FROM my_schema_migrations_log;")).is_empty());
    }

    #[test]
    fn mariadb_gets_the_same_tables_in_its_own_syntax() {
        let t = my_tables(&scripts(
            "CREATE TRIGGER f BEFORE INSERT ON `schema_migrations` FOR EACH ROW SET NEW.dirty = 0;",
        ));
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].0, "schema_migrations");
        assert!(t[0].1.ends_with("ENGINE=InnoDB"), "{}", t[0].1);
        assert!(
            my_tables(&scripts(
                "CREATE TABLE IF NOT EXISTS `flyway_schema_history` (v int);"
            ))
            .is_empty()
        );
        let names: Vec<&str> = MY_TABLES.iter().map(|t| t.0).collect();
        let pg: Vec<&str> = PG_TABLES.iter().map(|t| t.0).collect();
        assert_eq!(names, pg, "every tool's table exists for both servers");
    }
}
