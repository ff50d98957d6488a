//! The algorithm probe: which ALGORITHM/LOCK pair the server accepts for
//! an ALTER, cheapest first, on a copy of the table (or, --in-place, on the
//! table inside the rolled-back transaction), and whether the InnoDB table
//! id changed (a rebuild).
use super::{Dialect, MyVerifier, ON_COPY, PROBE, message, refused};
use crate::sql::verify::{Observed, VerifyError};
use mysql::prelude::Queryable;
use regex::Regex;
use std::sync::OnceLock;

impl MyVerifier {
    fn table_id(&mut self, table: &str) -> Option<u64> {
        let name = format!("{}/{table}", self.db);
        let queries = [
            "SELECT TABLE_ID FROM information_schema.INNODB_SYS_TABLES WHERE NAME = ?",
            "SELECT TABLE_ID FROM information_schema.INNODB_TABLES WHERE NAME = ?",
        ];
        queries.iter().find_map(|q| {
            self.admin
                .exec_first::<u64, _, _>(*q, (&name,))
                .ok()
                .flatten()
        })
    }

    /// The first algorithm the server accepts for this ALTER on a copy.
    pub(super) fn probe(&mut self, text: &str) -> Result<Option<Observed>, VerifyError> {
        let Some((table, probe_sql)) = retarget(text) else {
            return Ok(None);
        };
        let _ = self.send(&format!("DROP TABLE IF EXISTS `{PROBE}`"))?;
        if self
            .send(&format!("CREATE TABLE `{PROBE}` LIKE {table}"))?
            .is_err()
        {
            return Ok(None);
        }
        // Generated columns refuse explicit values; an empty copy still
        // tells the algorithm, only the rebuild check is weaker.
        let _ = self.send(&format!("INSERT INTO `{PROBE}` SELECT * FROM {table}"))?;
        let out = self.try_algorithms(&probe_sql, PROBE, ON_COPY)?;
        let _ = self.send(&format!("DROP TABLE IF EXISTS `{PROBE}`"))?;
        Ok(out)
    }

    pub(super) fn probe_in_place(&mut self, text: &str) -> Result<Option<Observed>, VerifyError> {
        let Some((table, _)) = retarget(text) else {
            return Ok(None);
        };
        let sql = strip_forced(text);
        let bare = table
            .rsplit('.')
            .next()
            .unwrap_or(&table)
            .trim_matches('`')
            .to_string();
        self.try_algorithms(&sql, &bare, "")
    }

    fn try_algorithms(
        &mut self,
        probe_sql: &str,
        table: &str,
        context: &str,
    ) -> Result<Option<Observed>, VerifyError> {
        // Best algorithm first, and for each the weakest lock it accepts:
        // what the server picks when the statement names neither.
        let maria = self.dialect == Dialect::MariaDb;
        let mut tries: Vec<(&str, Option<&str>)> = Vec::new();
        // MySQL permits only LOCK=DEFAULT with INSTANT, which never blocks DML.
        if !maria {
            tries.push(("INSTANT", None));
        }
        for algorithm in ["INSTANT", "NOCOPY", "INPLACE"] {
            if algorithm != "INPLACE" && !maria {
                continue;
            }
            for lock in ["NONE", "SHARED", "EXCLUSIVE"] {
                tries.push((algorithm, Some(lock)));
            }
        }
        tries.push(("COPY", None));
        let before = self.table_id(table);
        for (algorithm, lock) in tries {
            let clause = match lock {
                Some(l) => format!(", ALGORITHM={algorithm}, LOCK={l}"),
                None => format!(", ALGORITHM={algorithm}"),
            };
            match self.send(&format!("{probe_sql}{clause}"))? {
                Ok(()) => {
                    let after = self.table_id(table);
                    return Ok(Some(Observed {
                        algorithm: Some(algorithm.to_string()),
                        lock_none: Some(
                            matches!(lock, Some("NONE"))
                                || lock.is_none() && algorithm == "INSTANT",
                        ),
                        lock_exclusive: lock == Some("EXCLUSIVE"),
                        rewrite: before.zip(after).map(|(b, a)| a != b),
                        ..Observed::default()
                    }));
                }
                Err(e) if refused(&e) => continue,
                Err(e) => {
                    return Ok(Some(Observed {
                        error: Some(format!("{context}{}", message(&e))),
                        ..Observed::default()
                    }));
                }
            }
        }
        Ok(None)
    }
}

/// The ALTER's table as written, and the ALTER aimed at the probe copy
/// with any ALGORITHM/LOCK clause removed (the probe sets its own).
pub fn retarget(text: &str) -> Option<(String, String)> {
    static HEAD: OnceLock<Regex> = OnceLock::new();
    let head = HEAD.get_or_init(|| {
        Regex::new(r"(?is)^\s*ALTER\s+(?:ONLINE\s+|IGNORE\s+)*TABLE\s+(?:IF\s+EXISTS\s+)?((?:`[^`]+`|[\w$]+)(?:\.(?:`[^`]+`|[\w$]+))?)")
            .expect("static regex")
    });
    let m = head.captures(text)?;
    let name = m.get(1)?;
    let rest = strip_forced(&text[name.end()..]);
    Some((
        name.as_str().to_string(),
        format!("{}`{PROBE}`{rest}", &text[..name.start()]),
    ))
}

/// The statement without its own ALGORITHM/LOCK clauses.
pub(super) fn strip_forced(text: &str) -> String {
    static CLAUSE: OnceLock<Regex> = OnceLock::new();
    let clause = CLAUSE.get_or_init(|| {
        Regex::new(r"(?i),\s*(?:ALGORITHM|LOCK)\s*=?\s*[A-Z]+").expect("static regex")
    });
    let s = clause.replace_all(text, "");
    s.trim_end().trim_end_matches(';').to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn retarget_replaces_the_table_and_drops_forced_clauses() {
        let (t, sql) = super::retarget(
            "ALTER TABLE `shop`.payments ADD COLUMN note varchar(100), ALGORITHM=COPY, LOCK = SHARED",
        )
        .unwrap();
        assert_eq!(t, "`shop`.payments");
        assert_eq!(
            sql,
            "ALTER TABLE `_platcheck_probe` ADD COLUMN note varchar(100)"
        );
        assert!(super::retarget("SELECT 1").is_none());
    }
}
