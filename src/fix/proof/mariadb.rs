//! `fix --verify` for the MySQL/MariaDB fixes (MG100, MG103: an
//! `ALGORITHM=…, LOCK=NONE` clause): the fixed migrations replayed on a
//! real MariaDB in a scratch database of their own, after their history and
//! with fixture rows in every table. `LOCK=NONE` is the server's promise
//! that reads and writes go on for the whole ALTER, and a server that
//! cannot keep it refuses the statement (ER_ALTER_OPERATION_NOT_SUPPORTED):
//! a fixed statement the server accepts on a table with rows is proven,
//! one it refuses fails.
use super::{FIXTURE_ROWS, Plan, PlanFile, Proof};
use crate::sql::verify::my::message;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder};
use std::fmt::Write as _;

/// Replays the plan, one scratch database per history, on the server at
/// `url` (`mysql://user:password@host:port/db`).
pub fn run(plan: &Plan, url: &str) -> Result<Proof, String> {
    let opts = Opts::from_url(url).map_err(|e| format!("{url}: {e}"))?;
    let mut proof = Proof::default();
    for history in &plan.histories {
        let db = format!(
            "platcheck_fixproof_{}",
            crate::sql::verify::scratch::unique_name()
        );
        let mut admin =
            Conn::new(opts.clone()).map_err(|e| format!("cannot connect: {}", message(&e)))?;
        admin
            .query_drop(format!("CREATE DATABASE `{db}`"))
            .map_err(|e| format!("cannot create the proof database: {}", message(&e)))?;
        let result = (|| {
            let mut c = Conn::new(OptsBuilder::from_opts(opts.clone()).db_name(Some(&db)))
                .map_err(|e| format!("cannot connect to {db}: {}", message(&e)))?;
            replay(&mut c, &db, history, &mut proof)
        })();
        // The database is ours alone: drop it whatever happened.
        let _ = admin.query_drop(format!("DROP DATABASE IF EXISTS `{db}`"));
        result?;
    }
    proof.summarise(
        "fixed MySQL/MariaDB migrations",
        "the server accepted every ALGORITHM/LOCK clause (it refuses a LOCK=NONE it cannot keep)",
    );
    Ok(proof)
}

fn replay(c: &mut Conn, db: &str, history: &[PlanFile], proof: &mut Proof) -> Result<(), String> {
    let first_judged = history
        .iter()
        .position(|f| f.judged)
        .unwrap_or(history.len());
    for (i, file) in history.iter().enumerate() {
        if i == first_judged {
            for t in fixture_rows(c, db)? {
                let _ = writeln!(
                    proof.text,
                    "note: no fixture rows in {t} (its columns need values platcheck cannot make up)"
                );
            }
        }
        for s in &file.stmts {
            let head = crate::sql::verify::head(&s.text);
            let ran = c.query_drop(&s.text);
            if !file.judged {
                ran.map_err(|e| {
                    format!(
                        "{}: the history before the fix does not replay: {}",
                        file.name,
                        message(&e)
                    )
                })?;
                continue;
            }
            proof.statements += 1;
            let upper = s.text.to_ascii_uppercase();
            let guarded = upper.contains("LOCK=NONE") || upper.contains("LOCK = NONE");
            match ran {
                Err(e) => {
                    proof.failures += 1;
                    let _ = writeln!(
                        proof.text,
                        "FAIL {}:{} {head}: the server refused it: {}",
                        file.name,
                        s.line,
                        message(&e)
                    );
                    return Ok(());
                }
                Ok(()) if guarded => {
                    let _ = writeln!(
                        proof.text,
                        "ok   {}:{} {head}: accepted with LOCK=NONE on a table with rows: reads and writes go on while it runs",
                        file.name, s.line
                    );
                }
                Ok(()) => {
                    let _ = writeln!(proof.text, "ok   {}:{} {head}: ran", file.name, s.line);
                }
            }
        }
    }
    Ok(())
}

/// Fills every table of `db` with rows made from its column types; returns
/// the tables it could not fill.
fn fixture_rows(c: &mut Conn, db: &str) -> Result<Vec<String>, String> {
    let tables: Vec<String> = c
        .exec(
            "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
            (db,),
        )
        .map_err(|e| message(&e))?;
    let mut skipped = Vec::new();
    for t in tables {
        let cols: Vec<(String, String, String)> = c
            .exec(
                "SELECT COLUMN_NAME, DATA_TYPE, EXTRA FROM information_schema.COLUMNS \
                 WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION",
                (db, &t),
            )
            .map_err(|e| message(&e))?;
        let (mut names, mut values) = (Vec::new(), Vec::new());
        for (name, ty, extra) in &cols {
            if extra.to_ascii_lowercase().contains("generated") {
                continue;
            }
            let v = match ty.to_ascii_lowercase().as_str() {
                "tinyint" => "0",
                "smallint" | "mediumint" | "int" | "bigint" | "decimal" | "float" | "double" => {
                    "g.seq"
                }
                "char" | "varchar" | "text" | "mediumtext" | "longtext" | "tinytext" => {
                    "CONCAT('v', g.seq)"
                }
                "datetime" | "timestamp" | "date" => "NOW()",
                "json" => "'{}'",
                _ => continue,
            };
            names.push(format!("`{}`", name.replace('`', "``")));
            values.push(v);
        }
        let sql = format!(
            "INSERT INTO `{}` ({}) SELECT {} FROM (WITH RECURSIVE s(seq) AS (SELECT 1 UNION ALL SELECT seq + 1 FROM s WHERE seq < {FIXTURE_ROWS}) SELECT seq FROM s) g",
            t.replace('`', "``"),
            names.join(", "),
            values.join(", ")
        );
        if names.is_empty() || c.query_drop(&sql).is_err() {
            skipped.push(t);
        }
    }
    Ok(skipped)
}
