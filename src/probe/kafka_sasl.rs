//! SASL for the Kafka probe: `SaslHandshake` v1, then `SaslAuthenticate`
//! with PLAIN (RFC 4616) or SCRAM-SHA-256/512 (RFC 5802, RFC 7677). The
//! credentials come from the environment only (a URL's user-info or
//! `sasl.password` is refused before this runs), and no message this module
//! returns carries the password: a broker's own error text is scrubbed.
//! HMAC, PBKDF2 and the digests are ring's, the crypto provider rustls
//! already uses here (no second implementation of the same primitives).
use super::Failure;
use super::kafka_wire::{Conn, error};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use bytes::Bytes;
use kafka_protocol::messages::{SaslAuthenticateRequest, SaslHandshakeRequest};
use kafka_protocol::protocol::StrBytes;
use ring::{digest, hmac, pbkdf2};
use std::num::NonZeroU32;

pub const MECHANISM_ENV: &str = "PLATCHECK_KAFKA_SASL_MECHANISM";
pub const USERNAME_ENV: &str = "PLATCHECK_KAFKA_SASL_USERNAME";
pub const PASSWORD_ENV: &str = "PLATCHECK_KAFKA_SASL_PASSWORD";

/// Kafka brokers store SCRAM credentials with 4096..=16384 iterations; a
/// count far above that is a stranger making the probe burn CPU (the probe's
/// time limit bounds I/O, not a PBKDF2 loop).
const MAX_ITERATIONS: u32 = 100_000;
/// RFC 7677 asks for at least 4096; Kafka refuses fewer too.
const MIN_ITERATIONS: u32 = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mechanism {
    Plain,
    ScramSha256,
    ScramSha512,
}

impl Mechanism {
    pub fn parse(name: &str) -> Result<Mechanism, Failure> {
        match name.trim().to_ascii_uppercase().as_str() {
            "PLAIN" => Ok(Mechanism::Plain),
            "SCRAM-SHA-256" => Ok(Mechanism::ScramSha256),
            "SCRAM-SHA-512" => Ok(Mechanism::ScramSha512),
            other => Err(Failure::new(format!(
                "SASL mechanism `{other}` is none of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512: not probed"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mechanism::Plain => "PLAIN",
            Mechanism::ScramSha256 => "SCRAM-SHA-256",
            Mechanism::ScramSha512 => "SCRAM-SHA-512",
        }
    }
}

/// Who the probe authenticates as. `Debug` is written out so the password
/// never reaches a log line or a panic message.
pub struct Credentials {
    pub mechanism: Mechanism,
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} as {} (password ***)",
            self.mechanism.name(),
            self.username
        )
    }
}

/// The credentials from the environment; the mechanism from the
/// environment, else the URL's `sasl.mechanism` (not a secret).
pub fn credentials(
    url_mechanism: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Credentials, Failure> {
    let mechanism = env(MECHANISM_ENV)
        .or_else(|| url_mechanism.map(str::to_string))
        .ok_or_else(|| {
            Failure::new(format!(
                "the URL asks for SASL but names no mechanism: set {MECHANISM_ENV} (or ?sasl.mechanism=) to PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512"
            ))
        })?;
    let mechanism = Mechanism::parse(&mechanism)?;
    let need = |var: &str| {
        env(var)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| Failure::new(format!("the URL asks for SASL but {var} is not set")))
    };
    Ok(Credentials {
        mechanism,
        username: need(USERNAME_ENV)?,
        password: need(PASSWORD_ENV)?,
    })
}

/// Authenticates the connection, or says why the broker refused.
pub fn authenticate(conn: &mut Conn, creds: &Credentials) -> Result<(), Failure> {
    let name = creds.mechanism.name();
    let Some(v) = conn.version::<SaslHandshakeRequest>(1) else {
        return Err(Failure::new(
            "the broker offers no SaslHandshake v1 (SASL framed in Kafka requests): not probed",
        ));
    };
    let shake = conn.send(
        &SaslHandshakeRequest::default().with_mechanism(StrBytes::from_static_str(name)),
        v,
    )?;
    if shake.error_code != 0 {
        let offered: Vec<&str> = shake.mechanisms.iter().map(|m| m.as_str()).collect();
        let f = error(
            &format!("SASL handshake for {name}"),
            shake.error_code,
            None,
        );
        return Err(Failure::new(format!(
            "{}; the broker offers [{}]",
            f.detail,
            offered.join(", ")
        )));
    }
    let Some(v) = conn.version::<SaslAuthenticateRequest>(0) else {
        return Err(Failure::new(
            "the broker offers no SaslAuthenticate version",
        ));
    };
    let fail = |code: i16, message: Option<&StrBytes>| {
        let f = error(
            &format!("SASL {name} authentication as `{}` failed", creds.username),
            code,
            message,
        );
        Failure::new(scrub(&f.detail, &creds.password))
    };
    let step = |conn: &mut Conn, bytes: Vec<u8>| {
        let request = SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(bytes));
        let answer = conn.send(&request, v)?;
        if answer.error_code != 0 {
            return Err(fail(answer.error_code, answer.error_message.as_ref()));
        }
        Ok(answer.auth_bytes.to_vec())
    };
    match creds.mechanism {
        Mechanism::Plain => {
            step(conn, plain(&creds.username, &creds.password))?;
        }
        Mechanism::ScramSha256 | Mechanism::ScramSha512 => {
            let nonce = nonce()?;
            let scram = Scram::new(creds.mechanism, &creds.username, &nonce);
            let server_first = step(conn, scram.client_first().into_bytes())?;
            let server_first = String::from_utf8_lossy(&server_first).into_owned();
            let (client_final, signature) = scram
                .client_final(&creds.password, &server_first)
                .map_err(|e| Failure::new(format!("SASL {name}: {e}")))?;
            let server_final = step(conn, client_final.into_bytes())?;
            let server_final = String::from_utf8_lossy(&server_final);
            verify_server_final(&server_final, &signature).map_err(|e| {
                Failure::new(format!("SASL {name}: {}", scrub(&e, &creds.password)))
            })?;
        }
    }
    Ok(())
}

fn scrub(text: &str, password: &str) -> String {
    if password.is_empty() {
        text.to_string()
    } else {
        text.replace(password, "***")
    }
}

/// RFC 4616: authzid (empty), authcid, password, NUL-separated.
pub fn plain(username: &str, password: &str) -> Vec<u8> {
    format!("\0{username}\0{password}").into_bytes()
}

/// 24 random bytes as base64: printable, no `,` (RFC 5802's nonce syntax).
fn nonce() -> Result<String, Failure> {
    use ring::rand::SecureRandom;
    let mut raw = [0u8; 24];
    ring::rand::SystemRandom::new()
        .fill(&mut raw)
        .map_err(|_| Failure::new("no random source for the SCRAM nonce"))?;
    Ok(B64.encode(raw))
}

/// The client side of one SCRAM exchange.
pub struct Scram {
    mechanism: Mechanism,
    first_bare: String,
    nonce: String,
}

impl Scram {
    pub fn new(mechanism: Mechanism, username: &str, nonce: &str) -> Scram {
        // RFC 5802 saslname: `=` and `,` escaped.
        let name = username.replace('=', "=3D").replace(',', "=2C");
        Scram {
            mechanism,
            first_bare: format!("n={name},r={nonce}"),
            nonce: nonce.to_string(),
        }
    }

    /// `n,,` (no channel binding, no authzid) and the bare message.
    pub fn client_first(&self) -> String {
        format!("n,,{}", self.first_bare)
    }

    /// The client-final message for the server-first one, and the server
    /// signature the server-final message must carry. The password goes in
    /// as UTF-8 without SASLprep, as Kafka's own clients and brokers do.
    pub fn client_final(
        &self,
        password: &str,
        server_first: &str,
    ) -> Result<(String, Vec<u8>), String> {
        let attr = |k: &str| {
            server_first
                .split(',')
                .find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='))
        };
        if server_first.starts_with("m=") {
            return Err("the server asks for a SCRAM extension the probe does not know".into());
        }
        if let Some(e) = attr("e") {
            return Err(format!("the server refused the exchange: {e}"));
        }
        let nonce = attr("r").ok_or("the server-first message has no nonce")?;
        if !nonce.starts_with(&self.nonce) || nonce.len() == self.nonce.len() {
            return Err("the server's nonce does not extend the client's".into());
        }
        let salt = attr("s")
            .and_then(|s| B64.decode(s).ok())
            .ok_or("the server-first message has no base64 salt")?;
        let iterations: u32 = attr("i")
            .and_then(|i| i.parse().ok())
            .ok_or("the server-first message has no iteration count")?;
        if !(MIN_ITERATIONS..=MAX_ITERATIONS).contains(&iterations) {
            return Err(format!(
                "the server asks for {iterations} PBKDF2 iterations, outside {MIN_ITERATIONS}..={MAX_ITERATIONS}"
            ));
        }
        let (prf, mac, dig, len) = match self.mechanism {
            Mechanism::ScramSha512 => (
                pbkdf2::PBKDF2_HMAC_SHA512,
                hmac::HMAC_SHA512,
                &digest::SHA512,
                64,
            ),
            _ => (
                pbkdf2::PBKDF2_HMAC_SHA256,
                hmac::HMAC_SHA256,
                &digest::SHA256,
                32,
            ),
        };
        let mut salted = vec![0u8; len];
        let n = NonZeroU32::new(iterations).ok_or("zero iterations")?;
        pbkdf2::derive(prf, n, &salt, password.as_bytes(), &mut salted);
        let key = hmac::Key::new(mac, &salted);
        let client_key = hmac::sign(&key, b"Client Key");
        let stored = digest::digest(dig, client_key.as_ref());
        let without_proof = format!("c=biws,r={nonce}");
        let auth = format!("{},{server_first},{without_proof}", self.first_bare);
        let signature = hmac::sign(&hmac::Key::new(mac, stored.as_ref()), auth.as_bytes());
        let proof: Vec<u8> = client_key
            .as_ref()
            .iter()
            .zip(signature.as_ref())
            .map(|(a, b)| a ^ b)
            .collect();
        let server_key = hmac::sign(&key, b"Server Key");
        let expected = hmac::sign(&hmac::Key::new(mac, server_key.as_ref()), auth.as_bytes());
        Ok((
            format!("{without_proof},p={}", B64.encode(proof)),
            expected.as_ref().to_vec(),
        ))
    }
}

/// The server-final message proves the server knew the stored key: a
/// mismatch is a broker (or something in between) that is not the one the
/// credentials were made for.
pub fn verify_server_final(message: &str, expected: &[u8]) -> Result<(), String> {
    if let Some(e) = message.strip_prefix("e=") {
        return Err(format!("the server refused the exchange: {e}"));
    }
    let v = message
        .split(',')
        .find_map(|kv| kv.strip_prefix("v="))
        .and_then(|v| B64.decode(v).ok())
        .ok_or("the server-final message has no signature")?;
    if v != expected {
        return Err(
            "the server's signature does not match: not the broker the credentials are for".into(),
        );
    }
    Ok(())
}

#[cfg(test)]
#[path = "kafka_sasl_tests.rs"]
mod tests;
