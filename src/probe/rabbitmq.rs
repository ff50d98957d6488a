//! The RabbitMQ probe over AMQP 0-9-1 (the port the services use): the
//! server's properties from the connection handshake, and a *passive*
//! `queue.declare`, which only asks whether the queue exists and creates
//! nothing. What AMQP does not show: a queue's type (quorum or classic),
//! its `x-dead-letter-exchange` and `x-delivery-limit` arguments (a passive
//! declare ignores arguments); the `<name>.management` target reads those
//! from the management API (`rabbitmq_admin.rs`). Permissions: `configure` on the queue is NOT
//! needed for a passive declare; the user needs access to the vhost.
use super::Failure;
use super::facts::QueueFacts;
use amqprs::callbacks::ChannelCallback;
use amqprs::channel::{Channel, QueueDeclareArguments};
use amqprs::connection::{Connection, OpenConnectionArguments};
use amqprs::{Ack, BasicProperties, Cancel, CloseChannel, Nack, Return};
use std::time::Duration;

/// Hands on the server's reason for closing the channel: a passive declare
/// of a missing queue is answered by `channel.close` 404 NOT_FOUND, and the
/// client reports only "channel closed". The client runs this callback (and
/// answers `close-ok`) before it fails the pending declare, and drops it when
/// the channel ends any other way, so the receiver gets the reason or knows
/// there is none: no guessing how long the close frame takes.
struct CloseReason(Option<tokio::sync::oneshot::Sender<(u16, String)>>);

#[async_trait::async_trait]
impl ChannelCallback for CloseReason {
    async fn close(
        &mut self,
        _: &Channel,
        close: CloseChannel,
    ) -> Result<(), amqprs::error::Error> {
        if let Some(tx) = self.0.take() {
            let _ = tx.send((close.reply_code(), close.reply_text().clone()));
        }
        Ok(())
    }
    async fn cancel(&mut self, _: &Channel, _: Cancel) -> Result<(), amqprs::error::Error> {
        Ok(())
    }
    async fn flow(&mut self, _: &Channel, active: bool) -> Result<bool, amqprs::error::Error> {
        Ok(active)
    }
    async fn publish_ack(&mut self, _: &Channel, _: Ack) {}
    async fn publish_nack(&mut self, _: &Channel, _: Nack) {}
    async fn publish_return(&mut self, _: &Channel, _: Return, _: BasicProperties, _: Vec<u8>) {}
}

/// The vhost of an `amqp://` URL: its path, percent-decoded (`/` when absent).
fn vhost(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = rest.find('/').map_or("", |i| &rest[i + 1..]);
    let path = path.split(['?', '#']).next().unwrap_or("");
    if path.is_empty() {
        "/".into()
    } else {
        super::redact::percent_decode(path)
    }
}

pub fn probe(url: &str, queue: &str, timeout: Duration) -> Result<QueueFacts, Failure> {
    // A longer name cannot be sent (AMQP short string): say so, never panic.
    if queue.len() > 255 {
        return Err(Failure::new("the queue name is longer than 255 bytes"));
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the AMQP client: {e}")))?;
    rt.block_on(async {
        let run = async {
            let mut args = OpenConnectionArguments::try_from(url)
                .map_err(|e| Failure::new(format!("bad AMQP URL: {e}")))?;
            // The URI spec percent-encodes the vhost (`/%2f` is `/`); the
            // client takes the path as it is written.
            args.virtual_host(&vhost(url));
            let conn = Connection::open(&args)
                .await
                .map_err(|e| Failure::new(e.to_string()))?;
            let props = conn.server_properties().clone();
            let channel = conn
                .open_channel(None)
                .await
                .map_err(|e| Failure::new(e.to_string()))?;
            let (tx, reason) = tokio::sync::oneshot::channel();
            channel
                .register_callback(CloseReason(Some(tx)))
                .await
                .map_err(|e| Failure::new(e.to_string()))?;
            let declared = channel
                .queue_declare(QueueDeclareArguments::new(queue).passive(true).finish())
                .await;
            let (exists, messages, consumers) = match declared {
                Ok(Some((_, m, c))) => (true, u64::from(m), u64::from(c)),
                Ok(None) => (true, 0, 0),
                // Bounded by the probe's time limit around all of this.
                Err(e) => match reason.await {
                    Ok((404, _)) => (false, 0, 0),
                    Ok((code, text)) => {
                        return Err(Failure::new(format!("{text} ({code})")));
                    }
                    Err(_) => return Err(Failure::new(e.to_string())),
                },
            };
            let _ = conn.close().await;
            Ok(QueueFacts {
                queue: queue.to_string(),
                exists,
                product: props.product().to_string(),
                version: super::facts::numeric_version(props.version()),
                publisher_confirms: props.capabilities().publisher_confirms(),
                messages,
                consumers,
            })
        };
        tokio::time::timeout(timeout, run)
            .await
            .unwrap_or_else(|_| Err(Failure::new("no answer within the probe time limit")))
    })
}
