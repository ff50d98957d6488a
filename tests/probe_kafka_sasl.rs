//! The Kafka probe with SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and with
//! a client certificate (mTLS), against Tansu behind the test relay: the
//! relay (tests/support/kafka_proxy.rs, kafka_sasl_server.rs) plays the
//! SASL-enforcing or client-certificate-requiring listener and relays the
//! authenticated connection to Tansu, since Tansu 0.6 cannot be given a
//! user once its own `--authentication` is on (memory storage). Not Apache
//! Kafka: no Apache Kafka installs on this machine.
mod common;
#[path = "support/kafka_scratch.rs"]
mod kafka;
#[path = "support/kafka_proxy.rs"]
mod kafka_proxy;
#[path = "support/probe_scratch.rs"]
mod scratch;

use base64::Engine;
use kafka::Tansu;
use kafka_proxy::sasl::{ScramServer, Stored, User};
use kafka_proxy::{Certs, Front, Relay};
use std::path::Path;

const PASSWORD: &str = "s3cr3t-Pa55word";

fn boundary(name: &str, topic: &str, partitions: u32, var: &str) -> String {
    format!(
        "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: {name}\n  owner: t\n  lifecycle: production\nspec:\n  delivery: at-least-once\n  broker:\n    kind: kafka\n    topic: {topic}\n    partitions: {partitions}\n    replication_factor: 1\n  consumers:\n    - group: projector\n  probe:\n    url_env: {var}\n"
    )
}

/// `platcheck probe --format json` on the contracts: (exit code, findings
/// as (file, rule, message), all output).
fn probe(
    contracts: &[(&str, String)],
    env: &[(&str, &str)],
) -> (Option<i32>, Vec<(String, String, String)>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), scratch::CONFIG).unwrap();
    for (file, text) in contracts {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"));
    cmd.args(["probe", "--format", "json"])
        .args(contracts.iter().map(|(f, _)| *f))
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env_remove("SSL_CERT_DIR");
    for var in [
        "PLATCHECK_KAFKA_SASL_MECHANISM",
        "PLATCHECK_KAFKA_SASL_USERNAME",
        "PLATCHECK_KAFKA_SASL_PASSWORD",
        "PLATCHECK_KAFKA_SSL_CERT",
        "PLATCHECK_KAFKA_SSL_KEY",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("binary runs");
    let text = common::output_text(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect(&text);
    let mut findings: Vec<_> = json["findings"]
        .as_array()
        .expect(&text)
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (s("file"), s("rule"), s("message"))
        })
        .collect();
    findings.sort();
    (out.status.code(), findings, text)
}

fn users() -> Vec<User> {
    ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
        .into_iter()
        .map(|m| User {
            mechanism: m,
            name: "probe".into(),
            password: PASSWORD.into(),
        })
        .collect()
}

fn front(mechanisms: &[&'static str]) -> Front {
    Front {
        mechanisms: mechanisms.to_vec(),
        users: users(),
    }
}

/// RFC 7677 section 3, from the server's side: the relay's SCRAM verifier
/// accepts the RFC's proof, answers the RFC's signature, refuses a forgery.
#[test]
fn the_relays_scram_server_matches_the_rfc_7677_example() {
    let b64 = base64::engine::general_purpose::STANDARD;
    let salt = b64.decode("W22ZaJ0SNY7soEsUEjb6gQ==").unwrap();
    let stored = Stored::new("SCRAM-SHA-256", "pencil", &salt, 4096);
    let users = vec![("user".to_string(), stored)];
    let nonce = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    let mut server = ScramServer::new("SCRAM-SHA-256", users.clone(), nonce);
    let first = server.first("n,,n=user,r=rOprNGfwEbeRWgbNEkqO").unwrap();
    assert_eq!(
        first,
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
    );
    let last = server
        .last("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
        .unwrap();
    assert_eq!(last, "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
    let mut server = ScramServer::new("SCRAM-SHA-256", users, nonce);
    server.first("n,,n=user,r=rOprNGfwEbeRWgbNEkqO").unwrap();
    let e = server
        .last("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=eHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
        .unwrap_err();
    assert_eq!(e, "invalid proof");
}

#[test]
fn each_mechanism_authenticates_and_the_topic_is_compared() {
    if scratch::skipped() {
        return;
    }
    let tansu = Tansu::start();
    tansu.create("orders.sasl", 3);
    let relay = Relay::start_sasl(
        tansu.port,
        None,
        front(&["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]),
    );
    let url = format!(
        "kafka://127.0.0.1:{}?security.protocol=SASL_PLAINTEXT",
        relay.port
    );
    for mechanism in ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] {
        let env = [
            ("K", url.as_str()),
            ("PLATCHECK_KAFKA_SASL_MECHANISM", mechanism),
            ("PLATCHECK_KAFKA_SASL_USERNAME", "probe"),
            ("PLATCHECK_KAFKA_SASL_PASSWORD", PASSWORD),
        ];
        let clean = boundary("orders", "orders.sasl", 3, "K");
        let (code, findings, text) = probe(&[("ev.yaml", clean)], &env);
        assert_eq!((code, findings.len()), (Some(0), 0), "{mechanism}: {text}");
        // Past authentication the probe reads Metadata: drift is found.
        let drifted = boundary("orders", "orders.sasl", 24, "K");
        let (_, findings, text) = probe(&[("ev.yaml", drifted)], &env);
        let rules: Vec<&str> = findings.iter().map(|f| f.1.as_str()).collect();
        assert_eq!(rules, ["PR034"], "{mechanism}: {text}");
    }
    // The mechanism may be named in the URL instead (it is not a secret).
    let named = format!("{url}&sasl.mechanism=SCRAM-SHA-512");
    let env = [
        ("K", named.as_str()),
        ("PLATCHECK_KAFKA_SASL_USERNAME", "probe"),
        ("PLATCHECK_KAFKA_SASL_PASSWORD", PASSWORD),
    ];
    let (code, findings, text) = probe(&[("ev.yaml", boundary("o", "orders.sasl", 3, "K"))], &env);
    assert_eq!((code, findings.len()), (Some(0), 0), "{text}");
}

#[test]
fn a_refused_login_is_a_located_finding_and_the_other_contracts_are_probed() {
    if scratch::skipped() {
        return;
    }
    let tansu = Tansu::start();
    tansu.create("orders.sasl", 3);
    let relay = Relay::start_sasl(tansu.port, None, front(&["PLAIN", "SCRAM-SHA-512"]));
    let sasl_url = format!(
        "kafka://127.0.0.1:{}?security.protocol=SASL_PLAINTEXT",
        relay.port
    );
    let plain_url = tansu.url();
    let contracts = [
        ("a.yaml", boundary("secured", "orders.sasl", 3, "SASL_URL")),
        ("b.yaml", boundary("open", "orders.sasl", 24, "PLAIN_URL")),
    ];
    for mechanism in ["PLAIN", "SCRAM-SHA-512"] {
        let wrong = "not-the-Pa55word";
        let env = [
            ("SASL_URL", sasl_url.as_str()),
            ("PLAIN_URL", plain_url.as_str()),
            ("PLATCHECK_KAFKA_SASL_MECHANISM", mechanism),
            ("PLATCHECK_KAFKA_SASL_USERNAME", "probe"),
            ("PLATCHECK_KAFKA_SASL_PASSWORD", wrong),
        ];
        let (code, findings, text) = probe(&contracts, &env);
        assert_eq!(code, Some(1), "{text}");
        let rules: Vec<(&str, &str)> = findings
            .iter()
            .map(|f| (f.0.as_str(), f.1.as_str()))
            .collect();
        // The refused login on its contract; the next contract still probed.
        assert_eq!(rules, [("a.yaml", "PR001"), ("b.yaml", "PR034")], "{text}");
        let message = &findings[0].2;
        assert!(
            message.contains(&format!(
                "SASL {mechanism} authentication as `probe` failed"
            )) && message.contains("SaslAuthenticationFailed"),
            "{message}"
        );
        assert!(!text.contains(wrong), "the password is printed: {text}");
    }
    // A mechanism the listener does not offer: said with what it offers.
    let env = [
        ("SASL_URL", sasl_url.as_str()),
        ("PLAIN_URL", plain_url.as_str()),
        ("PLATCHECK_KAFKA_SASL_MECHANISM", "SCRAM-SHA-256"),
        ("PLATCHECK_KAFKA_SASL_USERNAME", "probe"),
        ("PLATCHECK_KAFKA_SASL_PASSWORD", PASSWORD),
    ];
    let (_, findings, text) = probe(&contracts[..1], &env);
    assert_eq!(findings.len(), 1, "{text}");
    let message = &findings[0].2;
    assert!(
        message.contains("UnsupportedSaslMechanism") && message.contains("[PLAIN, SCRAM-SHA-512]"),
        "{message}"
    );
    assert!(!text.contains(PASSWORD), "{text}");
}

#[test]
fn sasl_asked_wrongly_or_not_at_all_is_said_before_or_by_the_broker() {
    if scratch::skipped() {
        return;
    }
    let tansu = Tansu::start();
    tansu.create("orders.sasl", 3);
    let relay = Relay::start_sasl(tansu.port, None, front(&["PLAIN"]));
    let c = || vec![("ev.yaml", boundary("orders", "orders.sasl", 3, "K"))];
    // No SASL asked of a SASL listener: it closes the connection.
    let plain = format!("kafka://127.0.0.1:{}", relay.port);
    let (_, findings, text) = probe(&c(), &[("K", plain.as_str())]);
    assert_eq!(findings.len(), 1, "{text}");
    assert!(
        findings[0].1 == "PR001" && findings[0].2.contains("closed the connection"),
        "{text}"
    );
    // SASL asked, the password not given: said before any connection.
    let url = format!("{plain}?security.protocol=SASL_PLAINTEXT&sasl.mechanism=PLAIN");
    let (_, findings, text) = probe(
        &c(),
        &[
            ("K", url.as_str()),
            ("PLATCHECK_KAFKA_SASL_USERNAME", "probe"),
        ],
    );
    assert_eq!(findings.len(), 1, "{text}");
    assert!(
        findings[0]
            .2
            .contains("PLATCHECK_KAFKA_SASL_PASSWORD is not set"),
        "{text}"
    );
    // Credentials in the URL: refused, never tried, never printed.
    let inline = format!(
        "kafka://probe:{PASSWORD}@127.0.0.1:{}?security.protocol=SASL_PLAINTEXT",
        relay.port
    );
    let (_, findings, text) = probe(&c(), &[("K", inline.as_str())]);
    assert_eq!(findings.len(), 1, "{text}");
    assert!(
        findings[0].2.contains("PLATCHECK_KAFKA_SASL_USERNAME"),
        "{text}"
    );
    assert!(!text.contains(PASSWORD), "{text}");
}

fn tls_env<'a>(url: &'a str, ca: &'a Path) -> Vec<(&'a str, &'a str)> {
    vec![("K", url), ("SSL_CERT_FILE", ca.to_str().unwrap())]
}

#[test]
fn sasl_ssl_and_a_client_certificate() {
    if scratch::skipped() {
        return;
    }
    let tansu = Tansu::start();
    tansu.create("orders.mtls", 2);
    let dir = tempfile::tempdir().unwrap();
    let certs = Certs::make(dir.path(), "platcheck-test-ca");
    let c = || vec![("ev.yaml", boundary("orders", "orders.mtls", 2, "K"))];

    // SASL over TLS.
    let relay = Relay::start_sasl(
        tansu.port,
        Some(certs.server.clone()),
        front(&["SCRAM-SHA-512"]),
    );
    let url = format!(
        "kafkas://localhost:{}?security.protocol=SASL_SSL&sasl.mechanism=SCRAM-SHA-512",
        relay.port
    );
    let mut env = tls_env(&url, &certs.ca);
    env.extend([
        ("PLATCHECK_KAFKA_SASL_USERNAME", "probe"),
        ("PLATCHECK_KAFKA_SASL_PASSWORD", PASSWORD),
    ]);
    let (code, findings, text) = probe(&c(), &env);
    assert_eq!((code, findings.len()), (Some(0), 0), "{text}");

    // mTLS: a listener that requires a client certificate from its CA.
    let relay = Relay::start(tansu.port, Some(certs.server_requiring_clients()), None);
    let url = format!("kafkas://localhost:{}", relay.port);
    let (cert, key) = certs.client("platcheck-probe");
    let (cert, key) = (cert.to_str().unwrap(), key.to_str().unwrap());
    let mut env = tls_env(&url, &certs.ca);
    env.extend([
        ("PLATCHECK_KAFKA_SSL_CERT", cert),
        ("PLATCHECK_KAFKA_SSL_KEY", key),
    ]);
    let (code, findings, text) = probe(&c(), &env);
    assert_eq!((code, findings.len()), (Some(0), 0), "{text}");

    // Without a client certificate the listener refuses the handshake.
    let (_, findings, text) = probe(&c(), &tls_env(&url, &certs.ca));
    assert_eq!(findings.len(), 1, "{text}");
    assert_eq!(findings[0].1, "PR001", "{text}");
    assert!(findings[0].2.contains("CertificateRequired"), "{text}");

    // A certificate from a CA the listener does not trust: refused too.
    let other = tempfile::tempdir().unwrap();
    let stranger = Certs::make(other.path(), "some-other-ca");
    let (cert2, key2) = stranger.client("platcheck-probe");
    let mut env = tls_env(&url, &certs.ca);
    env.extend([
        ("PLATCHECK_KAFKA_SSL_CERT", cert2.to_str().unwrap()),
        ("PLATCHECK_KAFKA_SSL_KEY", key2.to_str().unwrap()),
    ]);
    let (_, findings, text) = probe(&c(), &env);
    assert_eq!(findings.len(), 1, "{text}");
    assert!(
        findings[0].1 == "PR001" && findings[0].2.contains("UnknownCA"),
        "{text}"
    );

    // A key file that is not there: said with its variable, not a panic.
    let missing = dir.path().join("nowhere.key");
    let mut env = tls_env(&url, &certs.ca);
    env.extend([
        ("PLATCHECK_KAFKA_SSL_CERT", cert),
        ("PLATCHECK_KAFKA_SSL_KEY", missing.to_str().unwrap()),
    ]);
    let (_, findings, text) = probe(&c(), &env);
    assert_eq!(findings.len(), 1, "{text}");
    assert!(findings[0].2.contains("PLATCHECK_KAFKA_SSL_KEY"), "{text}");
}
