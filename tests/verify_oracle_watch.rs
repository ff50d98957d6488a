//! Why verify's watcher cannot make DROP INDEX CONCURRENTLY's last lock
//! (ACCESS EXCLUSIVE on the index) wait where a sample sees it, asked of
//! the server: the only SQL way to hold a lock weaker than SHARE UPDATE
//! EXCLUSIVE on an index is to plan a query on its table, which locks the
//! table too; and DROP INDEX CONCURRENTLY waits for every transaction that
//! holds a lock on the table (on its virtual transaction id, not on the
//! index) before it asks for the index. A blocker holding the index is so
//! always released before the request it was meant to catch. REINDEX …
//! CONCURRENTLY drops its old copies the same way.
#[path = "verify_oracle/servers.rs"]
mod servers;

use postgres::{Client, NoTls};
use servers::Server;

fn connect(url: &str) -> Client {
    Client::connect(url, NoTls).expect("connect")
}

#[test]
fn drop_index_concurrently_waits_for_the_index_holder_by_transaction_not_by_index() {
    let url = match servers::postgres() {
        Server::Url(u) => u,
        Server::Skip(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let schema = format!("pc_watch_{}", std::process::id());
    let mut admin = connect(&url);
    admin
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}; \
             CREATE TABLE {schema}.t (id int PRIMARY KEY, a int); \
             CREATE INDEX t_a_idx ON {schema}.t (a)"
        ))
        .expect("setup");
    // The holder: a planned query locks the table and each of its indexes.
    let mut holder = connect(&url);
    holder.batch_execute("BEGIN").expect("BEGIN");
    holder
        .batch_execute(&format!("SELECT FROM {schema}.t LIMIT 0"))
        .expect("plan on t");
    let held: Vec<(String, String)> = holder
        .query(
            "SELECT c.relname::text, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation \
             WHERE l.pid = pg_backend_pid() AND c.relnamespace = $1::text::regnamespace \
             ORDER BY 1",
            &[&schema],
        )
        .expect("pg_locks")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let access_share = |rel: &str| {
        held.iter()
            .any(|(r, m)| r == rel && m == "AccessShareLock")
    };
    assert!(access_share("t") && access_share("t_a_idx"), "{held:?}");

    let mut worker = connect(&url);
    let pid: i32 = worker
        .query_one("SELECT pg_backend_pid()", &[])
        .expect("pid")
        .get(0);
    let sql = format!("DROP INDEX CONCURRENTLY {schema}.t_a_idx");
    let job = std::thread::spawn(move || worker.batch_execute(&sql).map_err(|e| e.to_string()));
    // The worker cannot finish while the holder is open: wait for its
    // queued request to show (no time limit: it must come).
    let waiting = loop {
        let rows = admin
            .query(
                "SELECT locktype, COALESCE(relation::regclass::text, '') FROM pg_locks \
                 WHERE pid = $1 AND NOT granted",
                &[&pid],
            )
            .expect("pg_locks");
        if let Some(r) = rows.first() {
            break (r.get::<_, String>(0), r.get::<_, String>(1));
        }
        assert!(!job.is_finished(), "DROP INDEX CONCURRENTLY did not wait for the holder");
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let blocking: Vec<i32> = admin
        .query("SELECT unnest(pg_blocking_pids($1))", &[&pid])
        .expect("pg_blocking_pids")
        .iter()
        .map(|r| r.get(0))
        .collect();
    let holder_pid: i32 = holder
        .query_one("SELECT pg_backend_pid()", &[])
        .expect("pid")
        .get(0);
    holder.batch_execute("COMMIT").expect("COMMIT");
    let done = job.join().expect("worker thread");
    admin
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .expect("cleanup");
    // It waits on the holder's transaction (WaitForLockers), not on the
    // index: the holder is let go before the index's lock is asked for.
    assert_eq!(waiting.0, "virtualxid", "waited on {waiting:?}");
    assert_eq!(blocking, vec![holder_pid]);
    done.expect("DROP INDEX CONCURRENTLY ran once the holder committed");
}
