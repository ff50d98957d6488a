//! The oracle: the lock table's predictions replayed against real servers.
//! Every row of `src/sql/locks/*.csv` with an `example`, and every statement
//! of the MG rules' bad and good fixtures, runs through `platcheck verify`'s
//! engine on the local PostgreSQL and MariaDB; the static prediction must
//! equal what the server did. A disagreement is fixed in the lock table or
//! the classifier, never here.
#[path = "verify_oracle/servers.rs"]
mod servers;
#[path = "verify_oracle/world.rs"]
mod world;

use platcheck::sql::locks;
use platcheck::sql::verify::my::MyVerifier;
use platcheck::sql::verify::pg::PgVerifier;
use platcheck::sql::verify::{Run, Script, StmtReport};
use servers::Server;
use std::collections::BTreeSet;

fn script(name: &str, text: &str) -> Vec<Script> {
    vec![Script {
        name: name.to_string(),
        text: text.to_string(),
    }]
}

fn describe(r: &StmtReport) -> String {
    format!(
        "{}:{} `{}` [{}]: {}",
        r.file,
        r.line,
        r.statement,
        r.predicted.keys.join("+"),
        r.disagreements.join("; ")
    )
}

/// Forms that agreed: the lock-table key set of each statement the server
/// ran and the prediction named.
fn agreeing_forms(run: &Run, forms: &mut BTreeSet<String>, failures: &mut Vec<String>) {
    for r in &run.statements {
        if !r.disagreements.is_empty() {
            failures.push(describe(r));
        } else if !r.predicted.keys.is_empty() && r.observed.skipped.is_none() {
            let mut keys = r.predicted.keys.clone();
            keys.sort();
            keys.dedup();
            forms.insert(keys.join("+"));
        }
    }
}

/// The example's last statement must be the row it illustrates.
fn exercises(run: &Run, key: &str) -> bool {
    run.statements
        .last()
        .is_some_and(|r| r.predicted.keys.iter().any(|k| k == key))
}

/// Each named form on a fresh database: every statement must agree, and
/// the last one (the form) must be one the lock table speaks of (a row, or
/// a refusal the server confirms). Returns how many forms ran.
fn replay_forms(
    kind: world::Kind,
    mut replay: impl FnMut(&[Script]) -> Run,
    failures: &mut Vec<String>,
) -> usize {
    let forms = world::forms(kind);
    let mut names = BTreeSet::new();
    for f in &forms {
        assert!(names.insert(f.name.clone()), "form `{}` twice", f.name);
        let run = replay(std::slice::from_ref(&f.script));
        for r in run
            .statements
            .iter()
            .filter(|r| !r.disagreements.is_empty())
        {
            failures.push(describe(r));
        }
        match run.statements.last() {
            Some(r) if r.predicted.keys.is_empty() => failures.push(format!(
                "form `{}`: its last statement `{}` is no lock-table row",
                f.name, r.statement
            )),
            Some(r) if r.observed.skipped.is_some() || r.observed.withheld.is_some() => {
                failures.push(format!("form `{}`: its last statement was not run", f.name))
            }
            Some(_) => {}
            None => failures.push(format!("form `{}`: no statement", f.name)),
        }
    }
    forms.len()
}

#[test]
fn postgres_lock_table_and_fixtures_agree_with_the_server() {
    let url = match servers::postgres() {
        Server::Url(u) => u,
        Server::Skip(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let mut v = PgVerifier::connect(&url, false).expect("connect to PostgreSQL");
    // Every index of the fixtures is named in their history: one the
    // prediction leaves out while the server locks it is a disagreement.
    v.strict_indexes = true;
    let mut forms = BTreeSet::new();
    let mut failures = Vec::new();
    let mut rows: Vec<_> = locks::pg_rows().filter(|r| !r.example.is_empty()).collect();
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    for row in &rows {
        v.reset().expect("reset");
        let run = v
            .replay(&script(&format!("pg.csv:{}", row.key), &row.example))
            .expect("replay");
        if !exercises(&run, &row.key) {
            failures.push(format!(
                "pg.csv:{}: the example's last statement is not classified as this row",
                row.key
            ));
        }
        agreeing_forms(&run, &mut forms, &mut failures);
    }
    let row_forms = forms.len();
    for case in world::fixtures(world::Kind::Postgres) {
        v.reset().expect("reset");
        // One replay: the analysis then knows the world's tables and
        // indexes, as it would know earlier migrations of the same repo.
        let mut scripts = world::setup(world::Kind::Postgres, &case.scripts);
        scripts.extend(case.scripts);
        let run = v.replay(&scripts).expect("replay");
        let run = world::drop_expected_refusals(run, &mut failures);
        agreeing_forms(&run, &mut forms, &mut failures);
    }
    let named = replay_forms(
        world::Kind::Postgres,
        |s| {
            v.reset().expect("reset");
            v.replay(s).expect("replay")
        },
        &mut failures,
    );
    println!(
        "PostgreSQL {}: {} lock-table rows with examples, {} statement forms agree ({} from the rows), {} named forms",
        v.version_text,
        rows.len(),
        forms.len(),
        row_forms,
        named
    );
    assert!(named >= 60, "only {named} named PostgreSQL forms");
    assert!(
        failures.is_empty(),
        "disagreements:\n{}",
        failures.join("\n")
    );
    assert!(
        forms.len() >= 60,
        "only {} PostgreSQL forms: {forms:?}",
        forms.len()
    );
    for must in [
        "create_index_concurrently",
        "add_fk",
        "drop_fk",
        "alter_type_rewrite",
    ] {
        assert!(forms.contains(must), "{must} not covered");
    }
}

#[test]
fn mariadb_lock_table_and_fixtures_agree_with_the_server() {
    let url = match servers::mariadb() {
        Server::Url(u) => u,
        Server::Skip(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let mut v = MyVerifier::connect(&url, false).expect("connect to MariaDB");
    let mut forms = BTreeSet::new();
    let mut failures = Vec::new();
    let mut rows: Vec<_> = locks::mysql_rows()
        .filter(|r| !r.example.is_empty())
        .collect();
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    let mut probed = BTreeSet::new();
    for row in &rows {
        v.reset().expect("reset");
        let run = v
            .replay(&script(&format!("mysql.csv:{}", row.key), &row.example))
            .expect("replay");
        if !exercises(&run, &row.key) {
            failures.push(format!(
                "mysql.csv:{}: the example's last statement is not classified as this row",
                row.key
            ));
        }
        for r in run
            .statements
            .iter()
            .filter(|r| r.observed.algorithm.is_some())
        {
            if r.disagreements.is_empty() {
                probed.insert(r.predicted.keys.join("+"));
            }
        }
        agreeing_forms(&run, &mut forms, &mut failures);
    }
    for case in world::fixtures(world::Kind::MariaDb) {
        v.reset().expect("reset");
        // One replay: the analysis then knows the world's tables and
        // indexes, as it would know earlier migrations of the same repo.
        let mut scripts = world::setup(world::Kind::MariaDb, &case.scripts);
        scripts.extend(case.scripts);
        let run = v.replay(&scripts).expect("replay");
        let run = world::drop_expected_refusals(run, &mut failures);
        for r in run
            .statements
            .iter()
            .filter(|r| r.observed.algorithm.is_some())
        {
            if r.disagreements.is_empty() {
                probed.insert(r.predicted.keys.join("+"));
            }
        }
        agreeing_forms(&run, &mut forms, &mut failures);
    }
    let named = replay_forms(
        world::Kind::MariaDb,
        |s| {
            v.reset().expect("reset");
            v.replay(s).expect("replay")
        },
        &mut failures,
    );
    println!(
        "MariaDB {}: {} lock-table rows with examples, {} ALTER forms probed and agreeing, {} named forms",
        v.version_text,
        rows.len(),
        probed.len(),
        named
    );
    assert!(named >= 12, "only {named} named MariaDB forms");
    assert!(
        failures.is_empty(),
        "disagreements:\n{}",
        failures.join("\n")
    );
    assert!(
        probed.len() >= 25,
        "only {} MariaDB ALTER forms: {probed:?}",
        probed.len()
    );
}
