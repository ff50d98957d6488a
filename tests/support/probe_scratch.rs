//! Scratch state on the local servers for the probe tests: uniquely named
//! databases (PostgreSQL, MariaDB) that the test creates, configures through
//! their own per-database settings and drops again. Nothing global is
//! changed: other test runs use the same servers at the same time, so a
//! global setting is only ever read, and a mismatch is made by declaring a
//! contract that disagrees with it.
#![allow(dead_code)]
use mysql::prelude::Queryable;
use platcheck::engine::{self, Outcome};
use platcheck::settings::{Overrides, ProbeRequest};
use std::time::{SystemTime, UNIX_EPOCH};

pub const PG_ADMIN: &str = "postgres://root@127.0.0.1:5432/test";
pub const MY_ADMIN: &str = "mysql://root@127.0.0.1:3306/test";
pub const REDIS: &str = "redis://127.0.0.1:6379";

/// `PLATCHECK_DB_TESTS=0` skips the server tests, saying so; otherwise a
/// missing server fails them loudly.
pub fn skipped() -> bool {
    let skip = std::env::var("PLATCHECK_DB_TESTS").as_deref() == Ok("0");
    if skip {
        println!("skipped: PLATCHECK_DB_TESTS=0: probe tests need the local servers");
    }
    skip
}

/// A name no other run uses: prefix, process id and clock.
pub fn unique(prefix: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    // Fixed width, so that messages wrap the same in every run's snapshot.
    format!("{prefix}_{:07}_{nanos:09}", std::process::id())
}

/// A PostgreSQL database of this test, dropped (with its sessions) on drop.
pub struct PgScratch {
    pub name: String,
}

impl PgScratch {
    /// A database with the given per-database settings and SQL run in it.
    pub fn new(prefix: &str, settings: &[(&str, &str)], setup: &str) -> PgScratch {
        let name = unique(prefix);
        let mut admin = postgres::Client::connect(PG_ADMIN, postgres::NoTls)
            .expect("PostgreSQL 15 on 127.0.0.1:5432 (user root, db test)");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        for (k, v) in settings {
            admin
                .batch_execute(&format!("ALTER DATABASE {name} SET {k} = '{v}'"))
                .unwrap();
        }
        let scratch = PgScratch { name };
        let mut c = postgres::Client::connect(&scratch.url(), postgres::NoTls).unwrap();
        c.batch_execute(setup).unwrap();
        scratch
    }
    pub fn url(&self) -> String {
        format!("postgres://root@127.0.0.1:5432/{}", self.name)
    }
    /// A server setting, read (never set) for contracts that must agree with it.
    pub fn show(&self, setting: &str) -> String {
        let mut c = postgres::Client::connect(&self.url(), postgres::NoTls).unwrap();
        c.query_one(&format!("SHOW {setting}"), &[]).unwrap().get(0)
    }
}

impl Drop for PgScratch {
    fn drop(&mut self) {
        if let Ok(mut admin) = postgres::Client::connect(PG_ADMIN, postgres::NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// A MariaDB database of this test, dropped on drop.
pub struct MyScratch {
    pub name: String,
}

impl MyScratch {
    pub fn new(prefix: &str, setup: &[&str]) -> MyScratch {
        let name = unique(prefix);
        let mut admin =
            mysql::Conn::new(mysql::Opts::from_url(MY_ADMIN).unwrap()).expect("MariaDB on :3306");
        admin.query_drop(format!("CREATE DATABASE {name}")).unwrap();
        let scratch = MyScratch { name };
        let mut c = mysql::Conn::new(mysql::Opts::from_url(&scratch.url()).unwrap()).unwrap();
        for s in setup {
            c.query_drop(*s).unwrap();
        }
        scratch
    }
    pub fn url(&self) -> String {
        format!("mysql://root@127.0.0.1:3306/{}", self.name)
    }
    pub fn global(&self, var: &str) -> String {
        let mut c = mysql::Conn::new(mysql::Opts::from_url(&self.url()).unwrap()).unwrap();
        c.query_first::<String, _>(format!("SELECT CAST(@@GLOBAL.{var} AS CHAR)"))
            .unwrap()
            .unwrap()
    }
}

impl Drop for MyScratch {
    fn drop(&mut self) {
        if let Ok(mut admin) = mysql::Conn::new(mysql::Opts::from_url(MY_ADMIN).unwrap()) {
            let _ = admin.query_drop(format!("DROP DATABASE IF EXISTS {}", self.name));
        }
    }
}

/// The Redis `maxmemory-policy` (read, never set: it is global).
pub fn redis_policy() -> String {
    let client = redis::Client::open(REDIS).unwrap();
    let mut c = client.get_connection().expect("Redis on 127.0.0.1:6379");
    let kv: Vec<String> = redis::cmd("CONFIG")
        .arg("GET")
        .arg("maxmemory-policy")
        .query(&mut c)
        .unwrap();
    kv[1].clone()
}

/// The seed table of the size tests: 5,000 rows, analysed.
pub const PG_BIG: &str =
    "CREATE TABLE big AS SELECT g AS id FROM generate_series(1, 5000) g; ANALYZE big;";

pub const NATS: &str = "nats://127.0.0.1:4222";

/// A JetStream stream of this test (subjects `<name>.>`), with a durable
/// pull consumer `careful` (explicit acks, 5 deliveries, backoff 1s/20s,
/// one message in flight) and `sloppy` (no acks, unlimited deliveries);
/// deleted on drop.
pub struct NatsScratch {
    pub name: String,
    rt: tokio::runtime::Runtime,
    js: async_nats::jetstream::Context,
}

impl NatsScratch {
    pub fn new(prefix: &str, duplicate_window: std::time::Duration) -> NatsScratch {
        use async_nats::jetstream::{consumer, stream};
        let name = unique(prefix).to_ascii_uppercase();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let js = rt.block_on(async {
            let client = async_nats::connect(NATS)
                .await
                .expect("NATS with JetStream on 127.0.0.1:4222");
            let js = async_nats::jetstream::new(client);
            let s = js
                .create_stream(stream::Config {
                    name: name.clone(),
                    subjects: vec![format!("{name}.>")],
                    duplicate_window,
                    num_replicas: 1,
                    ..Default::default()
                })
                .await
                .unwrap();
            s.create_consumer(consumer::pull::Config {
                durable_name: Some("careful".into()),
                ack_policy: consumer::AckPolicy::Explicit,
                max_deliver: 5,
                backoff: vec![
                    std::time::Duration::from_secs(1),
                    std::time::Duration::from_secs(20),
                ],
                max_ack_pending: 1,
                ..Default::default()
            })
            .await
            .unwrap();
            s.create_consumer(consumer::pull::Config {
                durable_name: Some("sloppy".into()),
                ack_policy: consumer::AckPolicy::None,
                max_deliver: -1,
                ..Default::default()
            })
            .await
            .unwrap();
            js
        });
        NatsScratch { name, rt, js }
    }
}

impl Drop for NatsScratch {
    fn drop(&mut self) {
        // Its mirror first, if `mirror` made one (a mirror keeps no source alive).
        let _ = self
            .rt
            .block_on(self.js.delete_stream(format!("{}_MIRROR", self.name)));
        let _ = self.rt.block_on(self.js.delete_stream(&self.name));
    }
}

impl NatsScratch {
    /// The consumers on the stream now (the probe must not add one).
    pub fn consumer_count(&self) -> usize {
        self.rt.block_on(async {
            let mut s = self.js.get_stream(&self.name).await.unwrap();
            s.info().await.unwrap().state.consumer_count
        })
    }
}

/// The default vhost, percent-encoded as the AMQP URI spec writes it.
pub const AMQP: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";
/// The same without a path, for the test's own client (which does not decode it).
const AMQP_PLAIN: &str = "amqp://guest:guest@127.0.0.1:5672";

/// Whether a queue exists (a passive declare on a fresh connection).
pub fn queue_exists(name: &str) -> bool {
    use amqprs::channel::QueueDeclareArguments;
    use amqprs::connection::{Connection, OpenConnectionArguments};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let conn = Connection::open(&OpenConnectionArguments::try_from(AMQP_PLAIN).unwrap())
            .await
            .expect("RabbitMQ on 127.0.0.1:5672 (guest/guest)");
        let ch = conn.open_channel(None).await.unwrap();
        let r = ch
            .queue_declare(QueueDeclareArguments::new(name).passive(true).finish())
            .await;
        let _ = conn.close().await;
        r.is_ok()
    })
}

/// A durable queue of this test, deleted on drop.
pub struct RabbitScratch {
    pub name: String,
}

impl RabbitScratch {
    pub fn new(prefix: &str) -> RabbitScratch {
        let name = unique(prefix);
        Self::with(
            |ch, n| {
                Box::pin(async move {
                    use amqprs::channel::QueueDeclareArguments;
                    ch.queue_declare(QueueDeclareArguments::durable_client_named(&n))
                        .await
                        .unwrap();
                })
            },
            &name,
        );
        RabbitScratch { name }
    }

    fn with(
        f: impl FnOnce(
            amqprs::channel::Channel,
            String,
        ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>,
        name: &str,
    ) {
        use amqprs::connection::{Connection, OpenConnectionArguments};
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let conn = Connection::open(&OpenConnectionArguments::try_from(AMQP_PLAIN).unwrap())
                .await
                .expect("RabbitMQ on 127.0.0.1:5672 (guest/guest)");
            let ch = conn.open_channel(None).await.unwrap();
            f(ch, name.to_string()).await;
            let _ = conn.close().await;
        });
    }
}

impl Drop for RabbitScratch {
    fn drop(&mut self) {
        Self::with(
            |ch, n| {
                Box::pin(async move {
                    use amqprs::channel::QueueDeleteArguments;
                    let _ = ch.queue_delete(QueueDeleteArguments::new(&n)).await;
                })
            },
            &self.name,
        );
    }
}

/// The config of the probe tests' repositories: a tiny large_table_rows.
pub const CONFIG: &str =
    "version: 1\ntoday: 2026-11-30\nsql:\n  large_table_rows: 1000\nprobe:\n  timeout: 2s\n";

/// Writes `files` into a fresh directory and probes it with `targets`.
pub fn run(files: &[(&str, String)], targets: &[(&str, String)], only_probe: bool) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), CONFIG).unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let overrides = Overrides {
        today: Some(crate::common::today()),
        probe: Some(ProbeRequest {
            targets: targets
                .iter()
                .map(|(n, u)| (n.to_string(), u.clone()))
                .collect(),
            only_probe_rules: only_probe,
        }),
        ..Overrides::default()
    };
    engine::run(&[], dir.path(), &overrides).expect("run succeeds")
}

/// The local RabbitMQ management API (enabled by `.ci/rabbitmq.sh`).
pub const MANAGEMENT: &str = "http://guest:guest@127.0.0.1:15672";
const MANAGEMENT_API: &str = "http://127.0.0.1:15672/api";

/// One call to the management API as guest; the status and the body.
pub fn management(method: &str, path: &str, body: Option<serde_json::Value>) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let url = format!("{MANAGEMENT_API}{path}");
    // guest:guest, as the services are set up.
    let auth = "Basic Z3Vlc3Q6Z3Vlc3Q=";
    let resp = match (method, body) {
        ("GET", _) => agent.get(&url).header("authorization", auth).call(),
        ("DELETE", _) => agent.delete(&url).header("authorization", auth).call(),
        ("PUT", Some(b)) => agent
            .put(&url)
            .header("authorization", auth)
            .header("content-type", "application/json")
            .send(b.to_string()),
        ("POST", Some(b)) => agent
            .post(&url)
            .header("authorization", auth)
            .header("content-type", "application/json")
            .send(b.to_string()),
        other => panic!("unsupported management call {other:?}"),
    };
    let mut resp = resp.expect(
        "the RabbitMQ management API on 127.0.0.1:15672 (guest/guest): run .ci/rabbitmq.sh",
    );
    let status = resp.status().as_u16();
    (status, resp.body_mut().read_to_string().unwrap_or_default())
}

/// A queue of this test in the default vhost, declared through the
/// management API with the given arguments (`x-queue-type` and the like),
/// deleted on drop.
pub struct ManagedQueue {
    pub name: String,
}

impl ManagedQueue {
    pub fn new(prefix: &str, arguments: serde_json::Value) -> ManagedQueue {
        let name = unique(prefix);
        let (status, body) = management(
            "PUT",
            &format!("/queues/%2F/{name}"),
            Some(serde_json::json!({"durable": true, "arguments": arguments})),
        );
        assert!(
            status == 201 || status == 204,
            "declaring {name}: {status} {body}"
        );
        ManagedQueue { name }
    }
}

impl Drop for ManagedQueue {
    fn drop(&mut self) {
        management("DELETE", &format!("/queues/%2F/{}", self.name), None);
    }
}

impl NatsScratch {
    /// One more durable pull consumer, configured like `careful`.
    pub fn careful_consumer(&self, durable: &str) {
        use async_nats::jetstream::consumer;
        self.rt.block_on(async {
            let s = self.js.get_stream(&self.name).await.unwrap();
            s.create_consumer(consumer::pull::Config {
                durable_name: Some(durable.into()),
                ack_policy: consumer::AckPolicy::Explicit,
                max_deliver: 5,
                backoff: vec![
                    std::time::Duration::from_secs(1),
                    std::time::Duration::from_secs(20),
                ],
                max_ack_pending: 1,
                ..Default::default()
            })
            .await
            .unwrap();
        });
    }

    /// A mirror of this stream, `<name>_MIRROR`, deleted on drop. The
    /// server gives every other stream a duplicate window (a zero one
    /// becomes 2m); a mirror has none, which makes it the one stream here
    /// that shows a zero window.
    pub fn mirror(&self) -> String {
        use async_nats::jetstream::stream;
        let name = format!("{}_MIRROR", self.name);
        self.rt.block_on(async {
            self.js
                .create_stream(stream::Config {
                    name: name.clone(),
                    mirror: Some(stream::Source {
                        name: self.name.clone(),
                        ..Default::default()
                    }),
                    num_replicas: 1,
                    ..Default::default()
                })
                .await
                .unwrap();
        });
        name
    }
}
