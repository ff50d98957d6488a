//! A Kafka-protocol broker for one test: Tansu (from `.ci/kafka.sh`), started
//! on a free port with memory storage and stopped (its process killed) when
//! dropped, so no test sees another's topics and nothing outlives the run.
//! Tansu is one node: every partition has one replica, and DescribeConfigs
//! answers without entries (tests/README.md says what that leaves untested).
// Shared by several test binaries; each uses part of it.
#![allow(dead_code)]
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Tansu {
    child: Child,
    pub port: u16,
}

/// The broker binary `.ci/kafka.sh` links; missing is a loud failure.
fn binary() -> PathBuf {
    let path = std::env::var_os("PLATCHECK_TANSU")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::common::root().join("target/kafka/tansu"));
    assert!(
        path.exists(),
        "{} not installed: run `bash .ci/kafka.sh` (the Kafka probe tests need the Tansu broker)",
        path.display()
    );
    path
}

impl Tansu {
    pub fn start() -> Tansu {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let listen = format!("tcp://127.0.0.1:{port}");
        let child = Command::new(binary())
            .args(["broker", "--silent", "--storage-engine", "memory://tansu/"])
            .args([
                "--listener-url",
                &listen,
                "--advertised-listener-url",
                &listen,
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tansu");
        let tansu = Tansu { child, port };
        // Readiness, not a timed assertion: wait for the listener, at most 30s.
        let until = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < until, "tansu does not listen on {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        tansu
    }

    pub fn url(&self) -> String {
        format!("kafka://127.0.0.1:{}", self.port)
    }

    fn cli(&self, args: &[&str]) -> String {
        let out = Command::new(binary())
            .args(args)
            .args(["--broker", &format!("tcp://127.0.0.1:{}", self.port)])
            .output()
            .expect("run tansu");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "tansu {args:?}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    }

    /// Creates a topic through the broker's own client (the test's setup:
    /// the probe itself never writes).
    pub fn create(&self, topic: &str, partitions: u32) {
        self.cli(&[
            "topic",
            "create",
            topic,
            "--partitions",
            &partitions.to_string(),
        ]);
    }

    /// The topic names the broker has.
    pub fn topics(&self) -> Vec<String> {
        let text = self.cli(&["topic", "list"]);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| {
            panic!("tansu topic list: {e}: {text}");
        });
        json.as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str().map(str::to_string))
            .collect()
    }
}

/// A relay edit (`kafka_proxy::Relay`): every partition gets three
/// replicas (its leader and two brokers that do not exist), all in sync but
/// for partition 0, which has only its leader in sync and one follower
/// offline. The state a three-node cluster shows with one node down.
pub fn degrade_first_partition(meta: &mut kafka_protocol::messages::MetadataResponse) {
    use kafka_protocol::messages::BrokerId;
    for t in &mut meta.topics {
        for p in &mut t.partitions {
            let leader = p.leader_id;
            p.replica_nodes = vec![leader, BrokerId(1001), BrokerId(1002)];
            p.isr_nodes = p.replica_nodes.clone();
            if p.partition_index == 0 {
                p.isr_nodes = vec![leader];
                p.offline_replicas = vec![BrokerId(1002)];
            }
        }
    }
}

impl Drop for Tansu {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
