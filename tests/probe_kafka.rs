//! The Kafka probe against a Kafka-protocol broker this test starts itself
//! (Tansu from `.ci/kafka.sh`, memory storage, one node): a topic that
//! matches is clean, a drifted contract raises exactly the expected rules,
//! a missing topic is a finding and is not created by the probe, configs the
//! broker does not report are said to be unchecked, and a broker that is
//! down is a located PR001 on the URL field. TLS (`kafkas://`) goes through
//! a rustls terminator this test runs in front of Tansu (Tansu 0.6 has no
//! working TLS listener), with a CA the test makes with `openssl`. What one
//! Tansu node cannot show (replication above 1, topic configs) is tested on
//! decoded answers in src/probe/kafka_tests.rs and
//! src/rules/pr/kafka_variant_tests.rs.
mod common;
#[path = "support/kafka_scratch.rs"]
mod kafka;
#[path = "support/kafka_proxy.rs"]
mod kafka_proxy;
#[path = "support/probe_scratch.rs"]
mod scratch;

use kafka::Tansu;
use platcheck::RuleId;
use scratch::run;

fn boundary(name: &str, topic: &str, broker: &str, extra: &str) -> String {
    format!(
        "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: {name}\n  owner: t\n  lifecycle: production\nspec:\n  delivery: at-least-once\n{extra}  broker:\n    kind: kafka\n    topic: {topic}\n{broker}  consumers:\n    - group: projector\n"
    )
}

fn rules(o: &platcheck::engine::Outcome) -> Vec<(String, RuleId, Option<String>)> {
    let mut got: Vec<_> = o
        .findings
        .iter()
        .map(|f| (f.file.clone(), f.rule, f.pointer.clone()))
        .collect();
    got.sort();
    got
}

#[test]
fn a_matching_topic_is_clean_and_drift_is_found() {
    if scratch::skipped() {
        return;
    }
    let tansu = Tansu::start();
    tansu.create("orders.confirmed", 3);
    let matching = "    partitions: 3\n    replication_factor: 1\n";
    let clean = run(
        &[(
            "ev.yaml",
            boundary("orders", "orders.confirmed", matching, ""),
        )],
        &[("orders", tansu.url())],
        true,
    );
    assert!(clean.findings.is_empty(), "{}", common::human(&clean));

    let drifted = "    partitions: 24\n    replication_factor: 3\n";
    let o = run(
        &[
            (
                "a.yaml",
                boundary("orders", "orders.confirmed", drifted, ""),
            ),
            ("b.yaml", boundary("gone", "orders.nowhere", matching, "")),
        ],
        &[("orders", tansu.url()), ("gone", tansu.url())],
        true,
    );
    let at = |f: &str, r, p: &str| (f.to_string(), r, Some(p.to_string()));
    assert_eq!(
        rules(&o),
        [
            at("a.yaml", RuleId::PR033, "/spec/broker/replication_factor"),
            at("a.yaml", RuleId::PR034, "/spec/broker/partitions"),
            at("b.yaml", RuleId::PR002, "/spec/broker/topic"),
        ],
        "{}",
        common::human(&o)
    );
    let text: String = o
        .findings
        .iter()
        .map(|f| f.message.clone() + "\n")
        .collect();
    assert!(
        text.contains("broker.partitions is 24 but topic `orders.confirmed`"),
        "{text}"
    );
    assert!(
        text.contains("topic `orders.nowhere` (broker.topic) does not exist"),
        "{text}"
    );
    // Metadata was asked with auto-creation off: the probe created nothing.
    assert_eq!(tansu.topics(), ["orders.confirmed"]);
}

#[test]
fn configs_the_broker_does_not_report_are_unchecked_not_clean() {
    if scratch::skipped() {
        return;
    }
    let tansu = Tansu::start();
    tansu.create("payments", 2);
    let broker = "    partitions: 2\n    replication_factor: 1\n    min_insync_replicas: 1\n";
    let o = run(
        &[(
            "ev.yaml",
            boundary("payments", "payments", broker, "  replay_window: 3d\n"),
        )],
        &[("payments", tansu.url())],
        true,
    );
    let at = |r, p: &str| ("ev.yaml".to_string(), r, Some(p.to_string()));
    assert_eq!(
        rules(&o),
        [
            at(RuleId::PR035, "/spec/broker/min_insync_replicas"),
            at(RuleId::PR036, "/spec/replay_window"),
        ],
        "{}",
        common::human(&o)
    );
    // The messages, unwrapped (the human report wraps them).
    let text: String = o
        .findings
        .iter()
        .map(|f| f.message.clone() + "\n")
        .collect();
    assert!(text.contains("the declared value is unchecked"), "{text}");
    assert!(text.contains("the replay window is unchecked"), "{text}");
}

#[test]
fn a_broker_that_is_down_is_a_located_finding_on_the_url_field() {
    if scratch::skipped() {
        return;
    }
    let url = {
        let tansu = Tansu::start();
        tansu.url()
    }; // stopped: nothing listens on its port now
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), scratch::CONFIG).unwrap();
    let contract = boundary("orders", "orders", "    partitions: 3\n", "")
        + "  probe:\n    url_env: PLATCHECK_TEST_KAFKA_URL\n";
    std::fs::write(dir.path().join("ev.yaml"), &contract).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["probe", "--format", "json", "ev.yaml"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env("PLATCHECK_TEST_KAFKA_URL", &url)
        .output()
        .expect("binary runs");
    let text = common::output_text(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect(&text);
    let findings = json["findings"].as_array().expect(&text);
    assert_eq!(findings.len(), 1, "{text}");
    let f = &findings[0];
    assert_eq!(f["rule"], "PR001", "{text}");
    assert_eq!(f["pointer"], "/spec/probe/url_env", "{text}");
    let line = contract
        .lines()
        .position(|l| l.contains("url_env:"))
        .unwrap()
        + 1;
    assert_eq!(f["line"], line, "{text}");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("cannot probe {url}")),
        "{message}"
    );
    assert!(message.contains("Connection refused"), "{message}");
}

/// `platcheck probe --format json` on one contract whose broker URL is in
/// PLATCHECK_TEST_KAFKA_URL: (exit code, findings, all output).
fn probe_binary(
    contract: &str,
    url: &str,
    env: &[(&str, &std::path::Path)],
) -> (Option<i32>, Vec<serde_json::Value>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), scratch::CONFIG).unwrap();
    let contract = contract.to_string() + "  probe:\n    url_env: PLATCHECK_TEST_KAFKA_URL\n";
    std::fs::write(dir.path().join("ev.yaml"), contract).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"));
    cmd.args(["probe", "--format", "json", "ev.yaml"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env("PLATCHECK_TEST_KAFKA_URL", url)
        .env_remove("SSL_CERT_DIR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("binary runs");
    let text = common::output_text(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect(&text);
    let findings = json["findings"].as_array().expect(&text).clone();
    (out.status.code(), findings, text)
}

#[test]
fn kafkas_through_a_tls_terminator_with_a_trusted_and_an_untrusted_ca() {
    if scratch::skipped() {
        return;
    }
    let tansu = Tansu::start();
    tansu.create("orders.secure", 3);
    let dir = tempfile::tempdir().unwrap();
    let certs = kafka_proxy::Certs::make(dir.path(), "platcheck-test-ca");
    let relay = kafka_proxy::Relay::start(tansu.port, Some(certs.server.clone()), None);
    let contract = boundary(
        "orders",
        "orders.secure",
        "    partitions: 3\n    replication_factor: 1\n",
        "",
    );
    let trusted = [("SSL_CERT_FILE", certs.ca.as_path())];
    // The name in the certificate, and its IP address (both in its SANs).
    for url in [
        format!("kafkas://localhost:{}", relay.port),
        format!("kafka://127.0.0.1:{}?security.protocol=SSL", relay.port),
    ] {
        let (code, findings, text) = probe_binary(&contract, &url, &trusted);
        assert_eq!((code, findings.len()), (Some(0), 0), "{url}: {text}");
    }
    // A drifted contract over TLS: the same findings as over plain TCP.
    let drifted = contract.replace("partitions: 3", "partitions: 24");
    let url = format!("kafkas://localhost:{}", relay.port);
    let (_, findings, text) = probe_binary(&drifted, &url, &trusted);
    let rules: Vec<&str> = findings
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["PR034"], "{text}");

    // A CA that did not sign the broker's certificate: refused, and said so.
    let other = tempfile::tempdir().unwrap();
    let stranger = kafka_proxy::Certs::make(other.path(), "some-other-ca");
    let (code, findings, text) =
        probe_binary(&contract, &url, &[("SSL_CERT_FILE", stranger.ca.as_path())]);
    assert_eq!((code, findings.len()), (Some(1), 1), "{text}");
    assert_eq!(findings[0]["rule"], "PR001", "{text}");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("TLS handshake with localhost:{}", relay.port))
            && message.contains("UnknownIssuer"),
        "{message}"
    );
    // Plain TCP to the TLS listener: a PR001 that says TLS, not a garbled answer.
    let plain = format!("kafka://127.0.0.1:{}", relay.port);
    let (_, findings, text) = probe_binary(&contract, &plain, &trusted);
    assert_eq!(findings.len(), 1, "{text}");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(
        findings[0]["rule"] == "PR001" && message.contains("TLS"),
        "{message}"
    );
    // TLS to the plain broker: Tansu reads the ClientHello as the length of
    // a frame it then waits for, so the probe's time limit ends it.
    let tls_to_plain = format!("kafkas://127.0.0.1:{}", tansu.port);
    let (_, findings, text) = probe_binary(&contract, &tls_to_plain, &trusted);
    assert_eq!(findings.len(), 1, "{text}");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(
        findings[0]["rule"] == "PR001" && message.contains("no answer within the probe time limit"),
        "{message}"
    );
}
