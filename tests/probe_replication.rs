//! The probe rules about replicas, against real replicas the test starts
//! itself (the shared services have none): a throwaway PostgreSQL primary
//! with a streaming standby (PR011, PR012) and a Redis primary with a
//! replica (PR021). The primaries are the test's own, so their global
//! settings may be changed; nothing on the shared services is touched.
mod common;
#[path = "support/replica_pair.rs"]
mod pair;
#[path = "support/probe_scratch.rs"]
mod scratch;

use platcheck::RuleId;
use platcheck::engine::Outcome;
use scratch::run;
use std::time::{Duration, Instant};

fn cluster(spec: &str) -> String {
    format!(
        "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: orders-db\n  owner: t\n  lifecycle: production\nspec:\n{spec}"
    )
}

fn variants(o: &Outcome) -> Vec<(RuleId, String)> {
    o.findings
        .iter()
        .map(|f| (f.rule, f.message.clone()))
        .collect()
}

fn probe_pg(url: &str, spec: &str) -> Outcome {
    run(
        &[("db.yaml", cluster(spec))],
        &[("orders-db", url.to_string())],
        true,
    )
}

#[test]
fn a_streaming_standby_its_count_mode_and_lag() {
    if scratch::skipped() {
        return;
    }
    // The standby replays every commit 3s late: a replay lag the probe sees.
    let pg = pair::PgPair::start("recovery_min_apply_delay = '3s'");
    let url = pg.url();

    // One streaming replica, asynchronous: the contract that says so is clean.
    let spec = "  ha:\n    replication: async\n  read_replicas:\n    count: 1\n";
    let o = probe_pg(&url, spec);
    assert!(o.findings.is_empty(), "{}", common::human(&o));

    // Two declared, one streaming.
    let o = probe_pg(&url, &spec.replace("count: 1", "count: 2"));
    let got = variants(&o);
    assert_eq!(got.len(), 1, "{}", common::human(&o));
    assert_eq!(got[0].0, RuleId::PR012);
    assert!(
        got[0].1.starts_with("read_replicas.count is 2 but ")
            && got[0].1.ends_with(" streams to 1 replica(s)"),
        "{}",
        got[0].1
    );

    // Lag over the budget: commits keep coming while the probe looks, so
    // the server keeps measuring the standby's (delayed) replay.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (stop, url) = (stop.clone(), url.clone());
        std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.batch_execute("CREATE TABLE IF NOT EXISTS ticks (at timestamptz)")
                .unwrap();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                c.batch_execute("INSERT INTO ticks VALUES (now())").unwrap();
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let lagging =
        spec.to_string() + "  capacity:\n    dimensions:\n      replica_lag: { limit: 1s }\n";
    let start = Instant::now();
    let o = loop {
        let o = probe_pg(&url, &lagging);
        if !o.findings.is_empty() || start.elapsed() > Duration::from_secs(60) {
            break o;
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    let got = variants(&o);
    assert_eq!(got.len(), 1, "{}", common::human(&o));
    assert_eq!(got[0].0, RuleId::PR012);
    assert!(
        got[0].1.starts_with("replica `replica1` of ")
            && got[0].1.ends_with(
                " behind, over the 1s lag budget (capacity.dimensions.replica_lag.limit)"
            ),
        "{}",
        got[0].1
    );

    // Commits wait for replica1 now: `async` is wrong (PR011), `sync` right.
    pg.set("synchronous_standby_names", "replica1");
    let o = probe_pg(&url, spec);
    let got = variants(&o);
    assert_eq!(got.len(), 1, "{}", common::human(&o));
    assert_eq!(got[0].0, RuleId::PR011);
    assert!(
        got[0].1.starts_with("ha.replication is async but ")
            && got[0]
                .1
                .contains("waits for a standby on commit (synchronous_standby_names = 'replica1'"),
        "{}",
        got[0].1
    );
    let o = probe_pg(&url, &spec.replace("async", "sync"));
    assert!(o.findings.is_empty(), "{}", common::human(&o));
}

fn boundary(persistence: bool) -> String {
    format!(
        "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: orders\n  owner: t\n  lifecycle: production\nspec:\n  consumers:\n    - group: g\n      idempotency:\n        store: redis\n        window: 1d\n        redis:\n          maxmemory_policy: noeviction\n          persistence: {persistence}\n"
    )
}

fn probe_redis(url: &str) -> Outcome {
    run(
        &[("ev.yaml", boundary(true))],
        &[("orders.dedup", url.to_string())],
        true,
    )
}

#[test]
fn a_redis_primary_with_and_without_its_replica() {
    if scratch::skipped() {
        return;
    }
    let primary =
        pair::RedisServer::start(&["--appendonly", "yes", "--maxmemory-policy", "noeviction"]);
    // Persistent but alone: a node loss loses the dedup keys.
    let o = probe_redis(&primary.url());
    let got = variants(&o);
    assert_eq!(got.len(), 1, "{}", common::human(&o));
    assert_eq!(got[0].0, RuleId::PR021);
    assert!(
        got[0].1.ends_with(
            "has no connected replica: losing the node loses the keys written since the last sync"
        ),
        "{}",
        got[0].1
    );

    let port = primary.port.to_string();
    let replica = pair::RedisServer::start(&[
        "--replicaof",
        "127.0.0.1",
        &port,
        "--maxmemory-policy",
        "noeviction",
    ]);
    primary.wait_replication("connected_slaves:1");
    let o = probe_redis(&primary.url());
    assert!(o.findings.is_empty(), "{}", common::human(&o));

    // The dedup URL reaches the replica: writes there fail.
    let o = probe_redis(&replica.url());
    let got = variants(&o);
    assert_eq!(got.len(), 1, "{}", common::human(&o));
    assert_eq!(got[0].0, RuleId::PR021);
    // INFO says `role:slave` on Redis 7.
    assert!(
        got[0]
            .1
            .ends_with(" is a slave: dedup writes need the primary"),
        "{}",
        got[0].1
    );
}
