//! Credentials never leave the process: every URL shown is redacted, and
//! every driver message is scrubbed of the password and the user-info.

/// The URL with its password replaced by `***` (user names stay: they say
/// which role probed, which the permissions section of the README needs).
pub fn url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "***".into();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let tail = redact_query(tail);
    match authority.rsplit_once('@') {
        Some((info, host)) => match info.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => format!("{scheme}://{info}@{host}{tail}"),
        },
        None => format!("{scheme}://{authority}{tail}"),
    }
}

/// `?password=…` (libpq and the MySQL URLs accept it) is a secret too, and
/// so are Kafka client settings pasted as parameters (`sasl.password`,
/// `ssl.key.password`, `sasl.jaas.config` with its `password="…"`).
fn redact_query(tail: &str) -> String {
    let Some((path, query)) = tail.split_once('?') else {
        return tail.to_string();
    };
    let params: Vec<String> = query
        .split('&')
        .map(|kv| match kv.split_once('=') {
            Some((k, _)) if is_secret_key(k) => format!("{k}=***"),
            _ => kv.to_string(),
        })
        .collect();
    format!("{path}?{}", params.join("&"))
}

fn is_secret_key(k: &str) -> bool {
    let k = k.to_ascii_lowercase();
    ["pass", "secret", "token", "jaas", "credential"]
        .iter()
        .any(|s| k.contains(s))
}

/// The strings that must not appear in any output: the password (raw and
/// percent-decoded) and any secret query value.
pub fn secrets(url: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some((_, rest)) = url.split_once("://") else {
        out.push(url.to_string());
        return out;
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    if let Some((info, _)) = rest[..authority_end].rsplit_once('@')
        && let Some((_, pw)) = info.split_once(':')
        && !pw.is_empty()
    {
        out.push(pw.to_string());
        out.push(percent_decode(pw));
    }
    if let Some((_, query)) = rest[authority_end..].split_once('?') {
        for kv in query.split('&') {
            if let Some((k, v)) = kv.split_once('=')
                && is_secret_key(k)
                && !v.is_empty()
            {
                out.push(v.to_string());
                out.push(percent_decode(v));
            }
        }
    }
    out.sort();
    out.dedup();
    // Longest first, so a secret containing another is replaced whole.
    out.sort_by_key(|s| std::cmp::Reverse(s.len()));
    out
}

/// `text` with every secret replaced by `***`.
pub fn scrub(text: &str, secrets: &[String]) -> String {
    let mut t = text.to_string();
    for s in secrets {
        t = t.replace(s.as_str(), "***");
    }
    t
}

pub(super) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            let b = u8::try_from(h * 16 + l).unwrap_or(b'?');
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted_and_hosts_kept() {
        assert_eq!(
            url("postgres://probe:s3cr%40t@db.internal:5432/orders?sslmode=require"),
            "postgres://probe:***@db.internal:5432/orders?sslmode=require"
        );
        assert_eq!(
            url("redis://:hunter2@cache:6379/3"),
            "redis://:***@cache:6379/3"
        );
        assert_eq!(
            url("mysql://root@127.0.0.1/test"),
            "mysql://root@127.0.0.1/test"
        );
        assert_eq!(
            url("postgres://h/db?user=u&password=pw"),
            "postgres://h/db?user=u&password=***"
        );
        assert_eq!(url("not a url"), "***");
    }

    #[test]
    fn kafka_urls_are_redacted_with_every_bootstrap_host_kept() {
        assert_eq!(
            url("kafka://probe:pa%3Ass@b1:9092,b2:9092,[::1]:9094/orders"),
            "kafka://probe:***@b1:9092,b2:9092,[::1]:9094/orders"
        );
        assert_eq!(
            url("kafkas://probe:hunter2@b1:9093?security.protocol=SSL"),
            "kafkas://probe:***@b1:9093?security.protocol=SSL"
        );
        assert_eq!(
            url("kafka+ssl://b1:9093?sasl.username=u&sasl.password=pw&ssl.key.password=kp"),
            "kafka+ssl://b1:9093?sasl.username=u&sasl.password=***&ssl.key.password=***"
        );
        let jaas = "kafka://b1?sasl.jaas.config=PlainLoginModule%20required%20password%3D%22jp%22";
        assert_eq!(url(jaas), "kafka://b1?sasl.jaas.config=***");
        let s = secrets("kafkas://probe:pa%3Ass@b1:9093?sasl.password=pw2");
        for secret in ["pa%3Ass", "pa:ss", "pw2"] {
            assert!(s.contains(&secret.to_string()), "{secret}: {s:?}");
        }
        assert_eq!(
            scrub("SASL pa:ss refused for pw2", &s),
            "SASL *** refused for ***"
        );
        let s = secrets(jaas);
        assert!(s.iter().any(|v| v.contains("password=\"jp\"")), "{s:?}");
    }

    #[test]
    fn secrets_cover_raw_and_decoded_passwords() {
        let s = secrets("postgres://u:s3cr%40t@h/db?password=other");
        assert!(s.contains(&"s3cr%40t".to_string()) && s.contains(&"s3cr@t".to_string()));
        assert_eq!(
            scrub("auth s3cr@t failed; other", &s),
            "auth *** failed; ***"
        );
    }
}
