//! `platcheck probe examples/probe`, the built binary against the local
//! servers: exactly the seeded differences, no credential in any output
//! format, and the baseline and inline suppressions work as for `check`.
//! The PostgreSQL and MariaDB databases, the NATS stream and the RabbitMQ
//! queue are this run's own; a copy of the example names them. The Kafka
//! broker is a Tansu of this run (`.ci/kafka.sh`), with the example's topic.
mod common;
#[path = "support/kafka_scratch.rs"]
mod kafka;
#[path = "support/probe_scratch.rs"]
mod scratch;

use scratch::{ManagedQueue, MyScratch, NatsScratch, PgScratch};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const SECRET: &str = "TopSecret-e2e-9f3";

struct Servers {
    pg: PgScratch,
    my: MyScratch,
    nats: NatsScratch,
    /// Deleted on drop, when the test is done with it.
    _queue: ManagedQueue,
    /// Stopped on drop.
    kafka: kafka::Tansu,
    /// A copy of examples/probe naming this run's stream and queue.
    work: tempfile::TempDir,
}

/// The names the example's broker contracts use; each run creates its own
/// stream and queue and points a copy of the example at them.
const EXAMPLE_STREAM: &str = "PLATCHECK_EXAMPLE_ORDERS";
const EXAMPLE_QUEUE: &str = "platcheck-example-invoices";
/// The example's Kafka topic, on a broker of the run's own: no renaming.
const EXAMPLE_TOPIC: &str = "orders.confirmed";

fn servers() -> Servers {
    let root = common::root().join("examples/probe/seed");
    let pg_seed = std::fs::read_to_string(root.join("postgres.sql")).unwrap();
    let pg = PgScratch::new(
        "platcheck_probe_e2e",
        &[
            ("statement_timeout", "30s"),
            ("idle_in_transaction_session_timeout", "0"),
        ],
        &pg_seed,
    );
    let my_seed = std::fs::read_to_string(root.join("mariadb.sql")).unwrap();
    let statements: Vec<String> = my_seed
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n")
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let refs: Vec<&str> = statements.iter().map(String::as_str).collect();
    let my = MyScratch::new("platcheck_probe_e2e", &refs);
    // As the contracts' header comments describe them.
    let nats = NatsScratch::new("platcheck_probe_e2e", std::time::Duration::from_secs(120));
    nats.careful_consumer("shipping-projector");
    let queue = ManagedQueue::new(
        "platcheck_probe_e2e",
        serde_json::json!({"x-queue-type": "quorum", "x-delivery-limit": 4}),
    );
    // As the header of order-confirmed.yaml describes it.
    let kafka = kafka::Tansu::start();
    kafka.create(EXAMPLE_TOPIC, 3);
    let work = tempfile::tempdir().unwrap();
    let example = work.path().join("examples/probe");
    std::fs::create_dir_all(&example).unwrap();
    common::copy_tree(&common::root().join("examples/probe"), &example, None);
    for (file, from, to) in [
        ("order-shipped.yaml", EXAMPLE_STREAM, &nats.name),
        ("invoice-issued.yaml", EXAMPLE_QUEUE, &queue.name),
    ] {
        let path = example.join("contracts/events").join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} names {from}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }
    Servers {
        pg,
        my,
        nats,
        _queue: queue,
        kafka,
        work,
    }
}

/// The binary, with the example's variables set (a password in the
/// PostgreSQL URL: trust authentication ignores it, the output must too).
fn platcheck(s: &Servers, cwd: &Path, args: &[&str]) -> Output {
    let pg_url = format!("postgres://root:{SECRET}@127.0.0.1:5432/{}", s.pg.name);
    Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(args)
        .current_dir(cwd)
        .env("ORDERS_DB_URL", pg_url)
        .env("LEDGER_DB_URL", s.my.url())
        .env("DEDUP_REDIS_URL", format!("{}/8", scratch::REDIS))
        .env("ORDERS_NATS_URL", scratch::NATS)
        .env("INVOICES_AMQP_URL", scratch::AMQP)
        .env("INVOICES_RABBITMQ_MANAGEMENT_URL", scratch::MANAGEMENT)
        .env("ORDERS_KAFKA_URL", s.kafka.url())
        .env_remove("SEARCH_DB_URL")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn findings(out: &Output) -> Vec<(String, String)> {
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let mut got: Vec<(String, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let file = f["file"].as_str().unwrap();
            let name = Path::new(file).file_stem().unwrap().to_string_lossy();
            (name.to_string(), f["rule"].as_str().unwrap().to_string())
        })
        .collect();
    got.sort();
    got
}

fn seeded() -> Vec<(String, String)> {
    let mut want: Vec<(String, String)> = [
        ("invoice-issued", "PR031"),
        ("ledger-db", "PR002"),
        ("order-confirmed", "PR033"),
        ("order-confirmed", "PR034"),
        ("order-confirmed", "PR035"),
        ("order-shipped", "PR031"),
        ("order-shipped", "PR033"),
        ("orders-db", "PR011"),
        ("orders-db", "PR012"),
        ("orders-db", "PR013"),
        ("orders-db", "PR014"),
        ("orders-db", "PR015"),
        ("orders-db", "PR016"),
        ("payment-capture", "PR021"),
        ("search-db", "PR001"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    want.sort();
    want
}

#[test]
fn probe_reports_exactly_the_seeded_differences_and_never_a_credential() {
    if scratch::skipped() {
        return;
    }
    let s = servers();
    let root = s.work.path().to_path_buf();
    let out = platcheck(&s, &root, &["probe", "examples/probe", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(findings(&out), seeded());
    // Read-only on the brokers too: no consumer was added to the stream,
    // no topic to the Kafka broker.
    assert_eq!(s.nats.consumer_count(), 3);
    assert_eq!(s.kafka.topics(), [EXAMPLE_TOPIC]);
    for format in [
        "human", "json", "sarif", "github", "gitlab", "junit", "gcc", "markdown", "html",
    ] {
        let out = platcheck(&s, &root, &["probe", "examples/probe", "--format", format]);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !all.contains(SECRET),
            "{format} prints the password:\n{all}"
        );
        // Markdown escapes the stars.
        assert!(
            all.contains("postgres://root:***@127.0.0.1") || all.contains(r"root:\*\*\*@127.0.0.1"),
            "{format}: the redacted URL is missing:\n{all}"
        );
    }
    // A refused connection's message is scrubbed too.
    let out = platcheck(
        &s,
        &root,
        &[
            "probe",
            "examples/probe",
            "--target",
            &format!("ledger-db=mysql://root:{SECRET}@127.0.0.1:1/x"),
        ],
    );
    let all = String::from_utf8_lossy(&out.stdout);
    assert!(all.contains("PR001") && !all.contains(SECRET), "{all}");
    // Kafka URLs: SASL credentials (refused: the probe does not
    // authenticate) and client settings pasted as parameters, over TCP and
    // TLS, in every format.
    let port = s.kafka.port;
    for url in [
        format!("kafka://probe:{SECRET}@127.0.0.1:{port}"),
        format!("kafkas://127.0.0.1:{port}?sasl.password={SECRET}&security.protocol=SASL_SSL"),
        format!("kafka://127.0.0.1:{port}?sasl.jaas.config=password%3D%22{SECRET}%22"),
    ] {
        let target = format!("order-confirmed={url}");
        for format in ["human", "json", "sarif", "markdown"] {
            let out = platcheck(
                &s,
                &root,
                &[
                    "probe",
                    "examples/probe",
                    "--format",
                    format,
                    "--target",
                    &target,
                ],
            );
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!all.contains(SECRET), "{format}, {url}:\n{all}");
        }
        let out = platcheck(
            &s,
            &root,
            &[
                "probe",
                "examples/probe",
                "--format",
                "json",
                "--target",
                &target,
            ],
        );
        let kafka: Vec<(String, String)> = findings(&out)
            .into_iter()
            .filter(|(c, _)| c == "order-confirmed")
            .collect();
        let text = String::from_utf8_lossy(&out.stdout);
        // The probe is refused before it connects: PR001 only, on the URL.
        assert_eq!(
            kafka,
            [("order-confirmed".to_string(), "PR001".to_string())],
            "{url}: {text}"
        );
        assert!(text.contains("***"), "{text}");
    }
}

#[test]
fn probe_findings_take_a_baseline_and_inline_suppressions() {
    if scratch::skipped() {
        return;
    }
    let s = servers();
    let tmp = tempfile::tempdir().unwrap();
    let dir = s.work.path().join("examples/probe");
    let db = dir.join("contracts/clusters/orders-db.yaml");
    let text = std::fs::read_to_string(&db).unwrap().replace(
        "    max: 800\n",
        "    max: 800   # platcheck-ignore PR014: pool budget under review (until 2099-01-01)\n",
    );
    std::fs::write(&db, text).unwrap();
    let out = platcheck(&s, &dir, &["probe", "--format", "json"]);
    let mut want = seeded();
    want.retain(|(c, r)| !(c == "orders-db" && r == "PR014"));
    assert_eq!(findings(&out), want);
    // `check` does not run PR014, so its suppression is not "unused" there.
    let out = platcheck(&s, &dir, &["check", "--format", "json"]);
    assert!(
        !findings(&out).iter().any(|(_, r)| r == "PC010"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A baseline of the probe's findings hides them all on the next probe.
    let baseline = tmp.path().join("probe-baseline.json");
    let out = platcheck(
        &s,
        &dir,
        &["baseline", "write", "--probe", baseline.to_str().unwrap()],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&baseline).unwrap();
    assert!(text.contains("PR011") && !text.contains(SECRET), "{text}");
    let out = platcheck(
        &s,
        &dir,
        &[
            "probe",
            "--format",
            "json",
            "--baseline",
            baseline.to_str().unwrap(),
        ],
    );
    assert_eq!(findings(&out), Vec::<(String, String)>::new());
    assert_eq!(out.status.code(), Some(0));
}
