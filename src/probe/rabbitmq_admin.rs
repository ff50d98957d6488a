//! The RabbitMQ queue probe over the management HTTP API: one read-only
//! `GET /api/queues/{vhost}/{queue}`, which shows what AMQP cannot (a passive
//! `queue.declare` ignores arguments): the queue type (quorum, classic,
//! stream), its replicas, and the effective `x-dead-letter-exchange` and
//! `x-delivery-limit` (the queue's argument, else its policy's).
//! Permissions: a user with the `monitoring` tag (or `management` with
//! access to the vhost); plain `http://` only (no TLS client is built in).
use super::Failure;
use super::facts::ManagedQueueFacts;
use base64::Engine as _;
use std::time::Duration;

/// Percent-encodes one path segment (`/` is `%2F`, the default vhost).
fn segment(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            b => format!("%{b:02X}"),
        })
        .collect()
}

/// The API base without its user-info, and the Basic credentials it held
/// (percent-decoded, as a URL writes a password with `@` or `:` in it).
fn split_credentials(url: &str) -> (String, Option<String>) {
    let Some((scheme, rest)) = url.split_once("://") else {
        return (url.to_string(), None);
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let tail = tail.split(['?', '#']).next().unwrap_or("");
    let tail = tail.trim_end_matches('/');
    match authority.rsplit_once('@') {
        Some((info, host)) => {
            let (user, pass) = info.split_once(':').unwrap_or((info, ""));
            let creds = format!(
                "{}:{}",
                super::redact::percent_decode(user),
                super::redact::percent_decode(pass)
            );
            (format!("{scheme}://{host}{tail}"), Some(creds))
        }
        None => (format!("{scheme}://{authority}{tail}"), None),
    }
}

/// Probes `queue` in `vhost` through the management API at `url`
/// (`http://user:password@host:15672`, a path prefix kept).
pub fn probe(
    url: &str,
    vhost: &str,
    queue: &str,
    timeout: Duration,
) -> Result<ManagedQueueFacts, Failure> {
    if url.starts_with("https://") {
        return Err(Failure::new(
            "https:// management URLs are not supported (the probe has no TLS client): use http:// on a private network or through a tunnel",
        ));
    }
    let (base, creds) = split_credentials(url);
    let endpoint = format!("{base}/api/queues/{}/{}", segment(vhost), segment(queue));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        // A 404 is an answer (no such queue), not a transport error.
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let auth = creds.map(|c| {
        let token = base64::engine::general_purpose::STANDARD.encode(c);
        format!("Basic {token}")
    });
    let get = |endpoint: &str| -> Result<(u16, String), Failure> {
        let mut req = agent.get(endpoint).header("accept", "application/json");
        if let Some(a) = &auth {
            req = req.header("authorization", a);
        }
        let mut resp = req
            .call()
            .map_err(|e| Failure::new(format!("management API: {e}")))?;
        let body = resp
            .body_mut()
            .with_config()
            .limit(1 << 20)
            .read_to_string()
            .map_err(|e| Failure::new(format!("management API: {e}")))?;
        Ok((resp.status().as_u16(), body))
    };
    let (status, body) = get(&endpoint)?;
    match status {
        200 => {
            // The version decides what an unset delivery limit means.
            let (_, overview) = get(&format!("{base}/api/overview"))?;
            let version = serde_json::from_str::<serde_json::Value>(&overview)
                .ok()
                .and_then(|v| v["rabbitmq_version"].as_str().map(str::to_string))
                .unwrap_or_default();
            parse(queue, vhost, &body, &version)
        }
        404 => Ok(ManagedQueueFacts {
            queue: queue.to_string(),
            vhost: vhost.to_string(),
            ..ManagedQueueFacts::default()
        }),
        401 => Err(Failure::new(
            "management API: login refused (401): the user needs the monitoring tag",
        )),
        code => Err(Failure::new(format!(
            "management API answered {code} for the queue"
        ))),
    }
}

/// The queue's JSON, as 3.x and 4.x management plugins write it.
fn parse(
    queue: &str,
    vhost: &str,
    body: &str,
    version: &str,
) -> Result<ManagedQueueFacts, Failure> {
    let v: serde_json::Value = serde_json::from_str(body)
        .map_err(|e| Failure::new(format!("management API: not a queue object: {e}")))?;
    let args = &v["arguments"];
    let policy = &v["effective_policy_definition"];
    let kind = v["type"]
        .as_str()
        .or_else(|| args["x-queue-type"].as_str())
        .unwrap_or("classic")
        .to_string();
    // Quorum and stream queues list their replicas; a classic queue has one.
    let replicas = v["members"].as_array().map_or(1, Vec::len);
    let dead_letter_exchange = args["x-dead-letter-exchange"]
        .as_str()
        .or_else(|| policy["dead-letter-exchange"].as_str())
        .map(str::to_string);
    // Both set: the lower limit applies.
    let limits = [
        args["x-delivery-limit"].as_i64(),
        policy["delivery-limit"].as_i64(),
    ];
    let set = limits.into_iter().flatten().min();
    // RabbitMQ 4 gives a quorum queue a limit of 20 unless one is set, and
    // reads a negative one as "no limit"; 3.x has no default.
    let major: u32 = version
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    let delivery_limit = match set {
        Some(l) if l < 0 => None,
        None if kind == "quorum" && major >= 4 => Some(20),
        other => other,
    };
    Ok(ManagedQueueFacts {
        queue: queue.to_string(),
        vhost: vhost.to_string(),
        exists: true,
        kind,
        durable: v["durable"].as_bool().unwrap_or(false),
        replicas,
        dead_letter_exchange,
        delivery_limit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_leave_the_url_and_are_decoded() {
        assert_eq!(
            split_credentials("http://probe:p%40ss@mq:15672/"),
            ("http://mq:15672".into(), Some("probe:p@ss".into()))
        );
        assert_eq!(
            split_credentials("http://mq:15672/rabbitmq"),
            ("http://mq:15672/rabbitmq".into(), None)
        );
        assert_eq!(segment("/"), "%2F");
        assert_eq!(segment("orders.q"), "orders.q");
    }

    #[test]
    fn arguments_win_and_the_lower_limit_applies() {
        let f = parse(
            "q",
            "/",
            r#"{"type":"quorum","durable":true,"members":["a","b","c"],
               "arguments":{"x-delivery-limit":9,"x-dead-letter-exchange":"dlx"},
               "effective_policy_definition":{"delivery-limit":4,"dead-letter-exchange":"other"}}"#,
            "3.10.8",
        )
        .unwrap();
        assert_eq!(
            (f.kind.as_str(), f.replicas, f.delivery_limit),
            ("quorum", 3, Some(4))
        );
        assert_eq!(f.dead_letter_exchange.as_deref(), Some("dlx"));
        let classic = parse("q", "/", r#"{"durable":false,"arguments":{}}"#, "3.10.8").unwrap();
        assert_eq!((classic.kind.as_str(), classic.replicas), ("classic", 1));
        assert_eq!(
            (classic.delivery_limit, classic.dead_letter_exchange),
            (None, None)
        );
    }

    #[test]
    fn rabbitmq_4_defaults_a_quorum_queue_to_20_deliveries_after_the_first() {
        let quorum = r#"{"type":"quorum","arguments":{}}"#;
        assert_eq!(
            parse("q", "/", quorum, "4.1.0").unwrap().delivery_limit,
            Some(20)
        );
        assert_eq!(
            parse("q", "/", quorum, "3.13.7").unwrap().delivery_limit,
            None
        );
        let unlimited = r#"{"type":"quorum","arguments":{"x-delivery-limit":-1}}"#;
        assert_eq!(
            parse("q", "/", unlimited, "4.1.0").unwrap().delivery_limit,
            None
        );
    }
}
