//! The server side of Kafka SASL for the test relay (kafka_proxy.rs), which
//! plays a SASL-enforcing listener in front of Tansu: Tansu 0.6 has
//! `--authentication` with SCRAM users, but on its memory storage no user
//! can be created once it is on (`tansu user create` is itself refused as
//! not authenticated), and a user made before does not survive the restart;
//! its sqlite storage is not compiled into this build (FeatureNotEnabled),
//! and a PostgreSQL-backed Tansu was not tried.
//! `SaslHandshake` and `SaslAuthenticate` are answered here, PLAIN (RFC 4616)
//! and SCRAM-SHA-256/512 (RFC 5802/7677) verified as a broker does (SCRAM
//! from a stored key and server key, never the password), and any other
//! request before authentication closes the connection, as Kafka's SASL
//! listeners do. Written apart from the client in src/probe/kafka_sasl.rs so
//! that a mistake on one side is not mirrored on the other.
#![allow(dead_code)]
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use bytes::{Bytes, BytesMut};
use kafka_protocol::messages::api_versions_response::ApiVersion;
use kafka_protocol::messages::{
    ApiKey, ApiVersionsResponse, RequestHeader, ResponseHeader, SaslAuthenticateRequest,
    SaslAuthenticateResponse, SaslHandshakeRequest, SaslHandshakeResponse,
};
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};
use ring::{digest, hmac, pbkdf2};
use std::num::NonZeroU32;

/// SASL_AUTHENTICATION_FAILED, UNSUPPORTED_SASL_MECHANISM, ILLEGAL_SASL_STATE.
const AUTH_FAILED: i16 = 58;
const UNSUPPORTED: i16 = 33;
const ILLEGAL_STATE: i16 = 34;

#[derive(Clone)]
pub struct User {
    pub mechanism: &'static str,
    pub name: String,
    pub password: String,
}

/// A SCRAM credential as a broker stores it.
#[derive(Clone)]
pub struct Stored {
    pub salt: Vec<u8>,
    pub iterations: u32,
    pub stored_key: Vec<u8>,
    pub server_key: Vec<u8>,
}

fn algs(
    mechanism: &str,
) -> (
    pbkdf2::Algorithm,
    hmac::Algorithm,
    &'static digest::Algorithm,
) {
    match mechanism {
        "SCRAM-SHA-512" => (
            pbkdf2::PBKDF2_HMAC_SHA512,
            hmac::HMAC_SHA512,
            &digest::SHA512,
        ),
        _ => (
            pbkdf2::PBKDF2_HMAC_SHA256,
            hmac::HMAC_SHA256,
            &digest::SHA256,
        ),
    }
}

impl Stored {
    pub fn new(mechanism: &str, password: &str, salt: &[u8], iterations: u32) -> Stored {
        let (prf, mac, dig) = algs(mechanism);
        let mut salted = vec![0u8; dig.output_len()];
        pbkdf2::derive(
            prf,
            NonZeroU32::new(iterations).unwrap(),
            salt,
            password.as_bytes(),
            &mut salted,
        );
        let key = hmac::Key::new(mac, &salted);
        let client_key = hmac::sign(&key, b"Client Key");
        Stored {
            salt: salt.to_vec(),
            iterations,
            stored_key: digest::digest(dig, client_key.as_ref()).as_ref().to_vec(),
            server_key: hmac::sign(&key, b"Server Key").as_ref().to_vec(),
        }
    }
}

/// One SCRAM exchange on the server side.
pub struct ScramServer {
    mechanism: &'static str,
    users: Vec<(String, Stored)>,
    server_nonce: String,
    state: Option<(Stored, String, String)>,
}

impl ScramServer {
    pub fn new(mechanism: &'static str, users: Vec<(String, Stored)>, server_nonce: &str) -> Self {
        ScramServer {
            mechanism,
            users,
            server_nonce: server_nonce.to_string(),
            state: None,
        }
    }

    /// client-first → server-first (or why not).
    pub fn first(&mut self, client_first: &str) -> Result<String, String> {
        let bare = client_first
            .strip_prefix("n,,")
            .ok_or("only `n,,` (no channel binding, no authzid) is served")?;
        let mut name = None;
        let mut nonce = None;
        for kv in bare.split(',') {
            if let Some(v) = kv.strip_prefix("n=") {
                name = Some(v.replace("=2C", ",").replace("=3D", "="));
            } else if let Some(v) = kv.strip_prefix("r=") {
                nonce = Some(v.to_string());
            }
        }
        let (name, nonce) = name.zip(nonce).ok_or("client-first lacks n= or r=")?;
        let stored = self
            .users
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| s.clone())
            .ok_or_else(|| format!("unknown user `{name}`"))?;
        let combined = format!("{nonce}{}", self.server_nonce);
        let server_first = format!(
            "r={combined},s={},i={}",
            B64.encode(&stored.salt),
            stored.iterations
        );
        let auth_prefix = format!("{bare},{server_first}");
        self.state = Some((stored, combined, auth_prefix));
        Ok(server_first)
    }

    /// client-final → server-final, after checking the proof.
    pub fn last(&mut self, client_final: &str) -> Result<String, String> {
        let (stored, combined, auth_prefix) = self.state.take().ok_or("no client-first yet")?;
        let (without_proof, proof) = client_final
            .rsplit_once(",p=")
            .ok_or("client-final has no proof")?;
        if without_proof != format!("c=biws,r={combined}") {
            return Err("client-final: wrong channel binding or nonce".into());
        }
        let proof = B64.decode(proof).map_err(|_| "the proof is not base64")?;
        let (_, mac, dig) = algs(self.mechanism);
        let auth = format!("{auth_prefix},{without_proof}");
        let signature = hmac::sign(&hmac::Key::new(mac, &stored.stored_key), auth.as_bytes());
        if proof.len() != signature.as_ref().len() {
            return Err("the proof has the wrong length".into());
        }
        let client_key: Vec<u8> = proof
            .iter()
            .zip(signature.as_ref())
            .map(|(a, b)| a ^ b)
            .collect();
        if digest::digest(dig, &client_key).as_ref() != stored.stored_key.as_slice() {
            return Err("invalid proof".into());
        }
        let server_sig = hmac::sign(&hmac::Key::new(mac, &stored.server_key), auth.as_bytes());
        Ok(format!("v={}", B64.encode(server_sig.as_ref())))
    }
}

/// What the relay does with one request.
pub enum Step {
    /// Answer the client with this frame body.
    Answer(Vec<u8>),
    /// Answer, then close (a failed authentication).
    AnswerAndClose(Vec<u8>),
    /// Pass it on to the broker.
    Forward,
    /// Close without an answer (a request before authentication).
    Close,
}

/// The SASL state of one relayed connection.
pub struct Session {
    mechanisms: Vec<&'static str>,
    users: Vec<User>,
    chosen: Option<&'static str>,
    scram: Option<ScramServer>,
    pub authenticated: bool,
    /// What each SaslAuthenticate failure said (the test reads it).
    pub refusals: Vec<String>,
}

impl Session {
    pub fn new(mechanisms: &[&'static str], users: &[User]) -> Session {
        Session {
            mechanisms: mechanisms.to_vec(),
            users: users.to_vec(),
            chosen: None,
            scram: None,
            authenticated: false,
            refusals: Vec::new(),
        }
    }

    pub fn handle(&mut self, request: &[u8]) -> Step {
        let key = i16::from_be_bytes([request[0], request[1]]);
        let version = i16::from_be_bytes([request[2], request[3]]);
        let Ok(api) = ApiKey::try_from(key) else {
            return Step::Close;
        };
        let mut buf = Bytes::copy_from_slice(request);
        let header = RequestHeader::decode(&mut buf, api.request_header_version(version)).unwrap();
        let answer = |body: &dyn Fn(&mut BytesMut)| {
            let mut out = BytesMut::new();
            ResponseHeader::default()
                .with_correlation_id(header.correlation_id)
                .encode(&mut out, api.response_header_version(version))
                .unwrap();
            body(&mut out);
            out.to_vec()
        };
        match api {
            ApiKey::ApiVersions => Step::Forward,
            _ if self.authenticated => Step::Forward,
            ApiKey::SaslHandshake => {
                let req = SaslHandshakeRequest::decode(&mut buf, version).unwrap();
                let asked = req.mechanism.as_str();
                let chosen = self.mechanisms.iter().find(|m| **m == asked).copied();
                self.chosen = chosen;
                let offered = self
                    .mechanisms
                    .iter()
                    .map(|m| StrBytes::from_static_str(m))
                    .collect();
                let resp = SaslHandshakeResponse::default()
                    .with_error_code(if chosen.is_some() { 0 } else { UNSUPPORTED })
                    .with_mechanisms(offered);
                Step::Answer(answer(&|out| resp.encode(out, version).unwrap()))
            }
            ApiKey::SaslAuthenticate => {
                let req = SaslAuthenticateRequest::decode(&mut buf, version).unwrap();
                let result = self.authenticate(&req.auth_bytes);
                let resp = match &result {
                    Ok(bytes) => SaslAuthenticateResponse::default()
                        .with_auth_bytes(Bytes::from(bytes.clone())),
                    Err((code, why)) => {
                        self.refusals.push(why.clone());
                        SaslAuthenticateResponse::default()
                            .with_error_code(*code)
                            .with_error_message(Some(StrBytes::from_string(why.clone())))
                    }
                };
                let frame = answer(&|out| resp.encode(out, version).unwrap());
                match result {
                    Ok(_) => Step::Answer(frame),
                    Err(_) => Step::AnswerAndClose(frame),
                }
            }
            _ => Step::Close,
        }
    }

    fn authenticate(&mut self, bytes: &[u8]) -> Result<Vec<u8>, (i16, String)> {
        let failed = |why: String| (AUTH_FAILED, format!("Authentication failed: {why}"));
        let mechanism = self.chosen.ok_or((
            ILLEGAL_STATE,
            "SaslAuthenticate before SaslHandshake".to_string(),
        ))?;
        let text = String::from_utf8_lossy(bytes).into_owned();
        if mechanism == "PLAIN" {
            let mut parts = text.split('\0');
            let (_authz, name, password) = (parts.next(), parts.next(), parts.next());
            let ok = self.users.iter().any(|u| {
                u.mechanism == "PLAIN"
                    && Some(u.name.as_str()) == name
                    && Some(u.password.as_str()) == password
            });
            return match ok {
                true => {
                    self.authenticated = true;
                    Ok(Vec::new())
                }
                false => Err(failed(format!(
                    "Invalid username or password for `{}`",
                    name.unwrap_or("")
                ))),
            };
        }
        match self.scram.as_mut() {
            None => {
                let users = self
                    .users
                    .iter()
                    .filter(|u| u.mechanism == mechanism)
                    .map(|u| {
                        (
                            u.name.clone(),
                            Stored::new(mechanism, &u.password, b"platcheck-salt!", 4096),
                        )
                    })
                    .collect();
                let mut server = ScramServer::new(mechanism, users, &B64.encode(rand_bytes()));
                let first = server.first(&text).map_err(failed)?;
                self.scram = Some(server);
                Ok(first.into_bytes())
            }
            Some(server) => {
                let last = server.last(&text).map_err(failed)?;
                self.authenticated = true;
                Ok(last.into_bytes())
            }
        }
    }
}

fn rand_bytes() -> [u8; 18] {
    use ring::rand::SecureRandom;
    let mut b = [0u8; 18];
    ring::rand::SystemRandom::new().fill(&mut b).unwrap();
    b
}

/// Tansu's ApiVersions answer with the two SASL APIs added when it lacks
/// them, so the client sees the listener it is talking to.
pub fn advertise(answer: &[u8], version: i16) -> Vec<u8> {
    let hv = ApiKey::ApiVersions.response_header_version(version);
    let mut buf = Bytes::copy_from_slice(answer);
    let header = ResponseHeader::decode(&mut buf, hv).unwrap();
    let mut resp = ApiVersionsResponse::decode(&mut buf, version).unwrap();
    for (key, max) in [(ApiKey::SaslHandshake, 1), (ApiKey::SaslAuthenticate, 2)] {
        if !resp.api_keys.iter().any(|k| k.api_key == key as i16) {
            resp.api_keys.push(
                ApiVersion::default()
                    .with_api_key(key as i16)
                    .with_min_version(0)
                    .with_max_version(max),
            );
        }
    }
    let mut out = BytesMut::new();
    header.encode(&mut out, hv).unwrap();
    resp.encode(&mut out, version).unwrap();
    out.to_vec()
}
