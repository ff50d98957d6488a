//! Scratch objects on the local brokers for the probe tests: JetStream
//! streams with durable consumers, RabbitMQ queues (over AMQP and through
//! the management API), each uniquely named and deleted on drop.
#![allow(dead_code)]
use super::unique;

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
