//! The Kafka wire protocol over one blocking TCP connection, plain or TLS
//! (rustls): each request is a length-prefixed frame (header + body,
//! encoded by `kafka-protocol`), each answer is read back under the probe's
//! deadline and matched by correlation id. ApiVersions comes first so that
//! every later request is sent in a version both sides speak.
use super::Failure;
use bytes::{Bytes, BytesMut};
use kafka_protocol::messages::{ApiKey, ApiVersionsRequest, RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{Decodable, Encodable, Request, StrBytes, VersionRange};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// A larger answer is not a Metadata or DescribeConfigs answer for one
/// topic: refuse it rather than allocate whatever a stranger announces.
const MAX_FRAME: usize = 16 << 20;

/// The connection to one broker: plain TCP, or TLS over it.
enum Stream {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Stream {
    fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(s) => s,
            Stream::Tls(s) => &s.sock,
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

/// A client certificate for mTLS: the PEM chain and its PEM key, as the
/// environment names them (the files are read when the probe runs).
#[derive(Debug)]
pub struct ClientCert {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// The client side of `kafkas://`: the system's trusted CAs (or the ones
/// `SSL_CERT_FILE` / `SSL_CERT_DIR` name), a client certificate when one is
/// given, the ring provider named explicitly so no process-wide default is
/// needed.
pub fn tls_config(client: Option<&ClientCert>) -> Result<Arc<ClientConfig>, Failure> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    let (_added, _ignored) = roots.add_parsable_certificates(found.certs);
    if roots.is_empty() {
        let why = found
            .errors
            .first()
            .map_or_else(|| "none found".to_string(), ToString::to_string);
        return Err(Failure::new(format!(
            "no trusted CA certificate for the TLS connection (the system store, SSL_CERT_FILE or SSL_CERT_DIR): {why}"
        )));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Failure::new(format!("TLS setup: {e}")))?
        .with_root_certificates(roots);
    let config = match client {
        None => builder.with_no_client_auth(),
        Some(c) => {
            let (chain, key) = client_identity(c)?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| Failure::new(format!("TLS client certificate: {e}")))?
        }
    };
    Ok(Arc::new(config))
}

/// The chain and key from their PEM files; a missing, empty or encrypted
/// file is said with its path (the paths are not secrets, the key is).
fn client_identity(
    c: &ClientCert,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), Failure> {
    let cert_at = c.cert.display();
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&c.cert)
        .and_then(Iterator::collect)
        .map_err(|e| {
            Failure::new(format!(
                "the client certificate {cert_at} (PLATCHECK_KAFKA_SSL_CERT): {e}"
            ))
        })?;
    if chain.is_empty() {
        return Err(Failure::new(format!(
            "the client certificate {cert_at} (PLATCHECK_KAFKA_SSL_CERT) holds no PEM certificate"
        )));
    }
    let key = PrivateKeyDer::from_pem_file(&c.key).map_err(|e| {
        Failure::new(format!(
            "the client key {} (PLATCHECK_KAFKA_SSL_KEY) is no unencrypted PEM private key: {e}",
            c.key.display()
        ))
    })?;
    Ok((chain, key))
}

pub struct Conn {
    stream: Stream,
    deadline: Instant,
    correlation: i32,
    /// What the broker offers per API key (from ApiVersions).
    offered: Vec<(i16, VersionRange)>,
}

impl Conn {
    /// Connects to the first bootstrap address that answers (over TLS when
    /// `tls` is given), and asks its API versions.
    pub fn open(
        hosts: &[String],
        tls: Option<&Arc<ClientConfig>>,
        deadline: Instant,
    ) -> Result<Conn, Failure> {
        let mut last = Failure::new("no bootstrap address in the kafka:// URL");
        for host in hosts {
            let stream = connect(host, deadline).and_then(|tcp| match tls {
                None => Ok(Stream::Plain(tcp)),
                Some(config) => handshake(host, tcp, config, deadline),
            });
            match stream {
                Ok(stream) => {
                    let mut conn = Conn {
                        stream,
                        deadline,
                        correlation: 0,
                        offered: Vec::new(),
                    };
                    conn.api_versions()?;
                    return Ok(conn);
                }
                Err(f) => last = f,
            }
        }
        Err(last)
    }

    /// ApiVersions v0: every broker answers it (later versions may be
    /// refused with a v0 answer anyway).
    fn api_versions(&mut self) -> Result<(), Failure> {
        let answer = self.send(&ApiVersionsRequest::default(), 0)?;
        if answer.error_code != 0 {
            return Err(error("ApiVersions", answer.error_code, None));
        }
        self.offered = answer
            .api_keys
            .iter()
            .map(|k| {
                let range = VersionRange {
                    min: k.min_version,
                    max: k.max_version,
                };
                (k.api_key, range)
            })
            .collect();
        Ok(())
    }

    /// The highest version of `R` both the broker and this client speak,
    /// at least `min` (`None`: no common version).
    pub fn version<R: Request>(&self, min: i16) -> Option<i16> {
        let (_, offered) = self.offered.iter().find(|(k, _)| *k == R::KEY)?;
        let both = offered.intersect(&R::VERSIONS);
        (!both.is_empty() && both.max >= min).then_some(both.max)
    }

    /// Sends `request` in `version` and decodes its answer.
    pub fn send<R: Request>(&mut self, request: &R, version: i16) -> Result<R::Response, Failure> {
        self.correlation += 1;
        let key = ApiKey::try_from(R::KEY).map_err(|_| Failure::new("unknown Kafka API key"))?;
        let header = RequestHeader::default()
            .with_request_api_key(R::KEY)
            .with_request_api_version(version)
            .with_correlation_id(self.correlation)
            .with_client_id(Some(StrBytes::from_static_str("platcheck-probe")));
        let mut body = BytesMut::new();
        let encoded = header
            .encode(&mut body, key.request_header_version(version))
            .and_then(|()| request.encode(&mut body, version));
        encoded.map_err(|e| Failure::new(format!("cannot encode a {key:?} request: {e}")))?;
        let len = i32::try_from(body.len()).map_err(|_| Failure::new("request too large"))?;
        let mut frame = len.to_be_bytes().to_vec();
        frame.extend_from_slice(&body);
        self.arm()?;
        self.stream
            .write_all(&frame)
            .map_err(|e| io_failure(&format!("sending {key:?}"), &e))?;
        let mut answer = self.read_frame(key)?;
        let head = ResponseHeader::decode(&mut answer, key.response_header_version(version))
            .map_err(|e| garbled(key, &e))?;
        if head.correlation_id != self.correlation {
            return Err(Failure::new(format!(
                "the broker answered {key:?} out of order (correlation id {} for {})",
                head.correlation_id, self.correlation
            )));
        }
        R::Response::decode(&mut answer, version).map_err(|e| garbled(key, &e))
    }

    fn read_frame(&mut self, key: ApiKey) -> Result<Bytes, Failure> {
        let mut len = [0u8; 4];
        self.arm()?;
        self.stream
            .read_exact(&mut len)
            .map_err(|e| io_failure(&format!("reading the {key:?} answer"), &e))?;
        // A TLS record (alert 0x15, handshake 0x16, version 3.x) where a
        // frame length should be: the listener wants TLS.
        if matches!(len, [0x15 | 0x16, 3, 0..=4, _]) {
            return Err(Failure::new(format!(
                "the broker answered {key:?} with TLS: the listener wants TLS (kafkas://)"
            )));
        }
        let len = usize::try_from(i32::from_be_bytes(len)).unwrap_or(usize::MAX);
        if len > MAX_FRAME {
            return Err(Failure::new(format!(
                "the broker's {key:?} answer announces {len} bytes: not a Kafka answer to this request"
            )));
        }
        let mut buf = vec![0u8; len];
        self.arm()?;
        self.stream
            .read_exact(&mut buf)
            .map_err(|e| io_failure(&format!("reading the {key:?} answer"), &e))?;
        Ok(Bytes::from(buf))
    }

    /// Every read and write waits at most until the probe's deadline.
    fn arm(&self) -> Result<(), Failure> {
        arm(self.stream.tcp(), self.deadline)
    }
}

/// Bounds the socket's next reads and writes by the deadline.
fn arm(tcp: &TcpStream, deadline: Instant) -> Result<(), Failure> {
    let left = deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
        .ok_or_else(|| Failure::new("no answer within the probe time limit"))?;
    let _ = tcp.set_read_timeout(Some(left));
    let _ = tcp.set_write_timeout(Some(left));
    Ok(())
}

/// The TLS handshake, done before the first request so that a certificate
/// the client does not trust is said as such (not as a failed ApiVersions).
fn handshake(
    host: &str,
    mut tcp: TcpStream,
    config: &Arc<ClientConfig>,
    deadline: Instant,
) -> Result<Stream, Failure> {
    // `host:port` or `[v6]:port`: the name the certificate must carry.
    let name = host
        .rsplit_once(':')
        .map_or(host, |(h, _)| h)
        .trim_start_matches('[')
        .trim_end_matches(']');
    let server = ServerName::try_from(name.to_string())
        .map_err(|e| Failure::new(format!("TLS: `{name}` is not a server name: {e}")))?;
    let mut tls = ClientConnection::new(Arc::clone(config), server)
        .map_err(|e| Failure::new(format!("TLS setup: {e}")))?;
    while tls.is_handshaking() {
        arm(&tcp, deadline)?;
        tls.complete_io(&mut tcp).map_err(|e| {
            let what = format!("TLS handshake with {host}");
            match e.kind() {
                std::io::ErrorKind::UnexpectedEof => Failure::new(format!(
                    "{what}: the broker closed the connection (a plain-TCP listener? then kafka://)"
                )),
                _ => io_failure(&what, &e),
            }
        })?;
    }
    Ok(Stream::Tls(Box::new(StreamOwned::new(tls, tcp))))
}

fn connect(host: &str, deadline: Instant) -> Result<TcpStream, Failure> {
    let addrs: Vec<SocketAddr> = host
        .to_socket_addrs()
        .map_err(|e| Failure::new(format!("cannot resolve {host}: {e}")))?
        .collect();
    let mut last = Failure::new(format!("{host} resolves to no address"));
    for addr in addrs {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            break;
        };
        match TcpStream::connect_timeout(&addr, left) {
            Ok(s) => return Ok(s),
            Err(e) => last = io_failure(&format!("connecting to {host}"), &e),
        }
    }
    Err(last)
}

fn io_failure(what: &str, e: &std::io::Error) -> Failure {
    match e.kind() {
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
            Failure::new(format!("{what}: no answer within the probe time limit"))
        }
        std::io::ErrorKind::UnexpectedEof => Failure::new(format!(
            "{what}: the broker closed the connection (a TLS or SASL-only listener?)"
        )),
        _ => Failure::new(format!("{what}: {e}")),
    }
}

fn garbled(key: ApiKey, e: &dyn std::fmt::Display) -> Failure {
    Failure::new(format!("the broker's {key:?} answer does not decode: {e}"))
}

/// A Kafka error code as its protocol name says it.
pub fn error(what: &str, code: i16, message: Option<&StrBytes>) -> Failure {
    let name = kafka_protocol::ResponseError::try_from_code(code)
        .map_or_else(|| format!("error {code}"), |e| format!("{e} ({code})"));
    match message.map(|m| m.as_str()).filter(|m| !m.is_empty()) {
        Some(m) => Failure::new(format!("{what}: {name}: {m}")),
        None => Failure::new(format!("{what}: {name}")),
    }
}
