//! The NATS JetStream probe: `STREAM.INFO` of the stream and
//! `CONSUMER.INFO` of each consumer group's durable consumer, both read-only
//! JetStream API requests (nothing is created, not even a consumer).
//! Permissions: publish on `$JS.API.STREAM.INFO.<stream>` and
//! `$JS.API.CONSUMER.INFO.<stream>.>`, subscribe on the inbox (`_INBOX.>`).
use super::Failure;
use super::facts::{ConsumerFacts, StreamFacts};
use async_nats::jetstream;
use std::time::Duration;

/// The probe of one stream and the named durable consumers on it.
pub fn probe(
    url: &str,
    stream: &str,
    consumers: &[String],
    timeout: Duration,
) -> Result<StreamFacts, Failure> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the NATS client: {e}")))?;
    rt.block_on(async {
        let client = async_nats::ConnectOptions::new()
            .connection_timeout(timeout)
            .request_timeout(Some(timeout))
            .name("platcheck-probe")
            .connect(url)
            .await
            .map_err(|e| Failure::new(e.to_string()))?;
        let js = jetstream::new(client);
        let found = match js.get_stream(stream).await {
            Ok(s) => s,
            Err(e) if is_not_found(&e.to_string()) => {
                return Ok(StreamFacts {
                    stream: stream.to_string(),
                    exists: false,
                    ..StreamFacts::default()
                });
            }
            Err(e) => return Err(Failure::new(e.to_string())),
        };
        let info = found.cached_info();
        let mut out = StreamFacts {
            stream: stream.to_string(),
            exists: true,
            duplicate_window_ms: millis(info.config.duplicate_window),
            replicas: info.config.num_replicas,
            consumers: Vec::new(),
        };
        for name in consumers {
            let facts = match found.consumer_info(name).await {
                Ok(c) => ConsumerFacts {
                    name: name.clone(),
                    exists: true,
                    ack_policy: format!("{:?}", c.config.ack_policy).to_ascii_lowercase(),
                    max_deliver: c.config.max_deliver,
                    backoff_ms: c.config.backoff.iter().map(|d| millis(*d)).collect(),
                    max_ack_pending: c.config.max_ack_pending,
                },
                Err(e) if is_not_found(&e.to_string()) => ConsumerFacts {
                    name: name.clone(),
                    ..ConsumerFacts::default()
                },
                Err(e) => return Err(Failure::new(e.to_string())),
            };
            out.consumers.push(facts);
        }
        Ok(out)
    })
}

/// JetStream says "stream not found" (10059) / "consumer not found" (10014).
fn is_not_found(message: &str) -> bool {
    message.contains("not found")
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}
