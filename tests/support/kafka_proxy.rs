//! A relay in the test process in front of a Tansu broker, for what Tansu
//! cannot do itself: a TLS listener (Tansu 0.6 refuses `--cert` with
//! `--key`, and a combined file gives no TLS listener), and a partition that
//! is not whole (one node keeps every partition whole). The broker's own
//! answers go through; with an edit, the relay changes Metadata answers
//! (decoded and re-encoded with the protocol codec) before the client sees
//! them, and nothing else. With a SASL front (kafka_sasl_server.rs) it plays
//! a SASL-enforcing listener; with a server config that requires client
//! certificates, an mTLS one. The relay handles one request at a time per
//! connection, as the probe sends them.
// Shared by several test binaries; each uses part of it.
#![allow(dead_code)]
use bytes::{Buf, BytesMut};
use kafka_protocol::messages::{ApiKey, MetadataResponse, ResponseHeader};
use kafka_protocol::protocol::{Decodable, Encodable};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[path = "kafka_sasl_server.rs"]
pub mod sasl;

pub type Edit = fn(&mut MetadataResponse);

/// The SASL listener the relay plays: the mechanisms it offers, its users.
pub struct Front {
    pub mechanisms: Vec<&'static str>,
    pub users: Vec<sasl::User>,
}

pub struct Relay {
    pub port: u16,
    stop: Arc<AtomicBool>,
}

impl Relay {
    /// Listens on a free port and relays every connection to `upstream`
    /// (a port on 127.0.0.1), over TLS with `tls`, editing Metadata with `edit`.
    pub fn start(upstream: u16, tls: Option<Arc<ServerConfig>>, edit: Option<Edit>) -> Relay {
        Relay::spawn(upstream, tls, edit, None)
    }

    /// A relay that authenticates every connection with `front` first.
    pub fn start_sasl(upstream: u16, tls: Option<Arc<ServerConfig>>, front: Front) -> Relay {
        Relay::spawn(upstream, tls, None, Some(Arc::new(front)))
    }

    fn spawn(
        upstream: u16,
        tls: Option<Arc<ServerConfig>>,
        edit: Option<Edit>,
        front: Option<Arc<Front>>,
    ) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(client) = client else { continue };
                let tls = tls.clone();
                let front = front.clone();
                std::thread::spawn(move || {
                    let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                        return;
                    };
                    // A broken connection ends the relay of that connection only.
                    let _ = match tls {
                        Some(config) => {
                            let conn = ServerConnection::new(config).unwrap();
                            relay(StreamOwned::new(conn, client), server, edit, front)
                        }
                        None => relay(client, server, edit, front),
                    };
                });
            }
        });
        Relay { port, stop }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread so it sees the flag and ends.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn frame(from: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    from.read_exact(&mut len)?;
    let mut body = vec![0u8; i32::from_be_bytes(len).max(0) as usize];
    from.read_exact(&mut body)?;
    Ok(body)
}

fn send(to: &mut impl Write, body: &[u8]) -> std::io::Result<()> {
    to.write_all(&(body.len() as i32).to_be_bytes())?;
    to.write_all(body)?;
    to.flush()
}

fn relay(
    mut client: impl Read + Write,
    mut server: TcpStream,
    edit: Option<Edit>,
    front: Option<Arc<Front>>,
) -> std::io::Result<()> {
    let mut session = front
        .as_ref()
        .map(|f| sasl::Session::new(&f.mechanisms, &f.users));
    loop {
        let request = frame(&mut client)?;
        let key = i16::from_be_bytes([request[0], request[1]]);
        let version = i16::from_be_bytes([request[2], request[3]]);
        if let Some(session) = session.as_mut() {
            match session.handle(&request) {
                sasl::Step::Forward => {}
                sasl::Step::Answer(a) => {
                    send(&mut client, &a)?;
                    continue;
                }
                sasl::Step::AnswerAndClose(a) => return send(&mut client, &a),
                sasl::Step::Close => return Ok(()),
            }
        }
        send(&mut server, &request)?;
        let answer = frame(&mut server)?;
        let answer = match edit {
            Some(edit) if key == ApiKey::Metadata as i16 => edited(&answer, version, edit),
            _ if session.is_some() && key == ApiKey::ApiVersions as i16 => {
                sasl::advertise(&answer, version)
            }
            _ => answer,
        };
        send(&mut client, &answer)?;
    }
}

fn edited(answer: &[u8], version: i16, edit: Edit) -> Vec<u8> {
    let header_version = ApiKey::Metadata.response_header_version(version);
    let mut buf = bytes::Bytes::copy_from_slice(answer);
    let header = ResponseHeader::decode(&mut buf, header_version).unwrap();
    let mut meta = MetadataResponse::decode(&mut buf, version).unwrap();
    assert!(!buf.has_remaining(), "the Metadata answer decodes whole");
    edit(&mut meta);
    let mut out = BytesMut::new();
    header.encode(&mut out, header_version).unwrap();
    meta.encode(&mut out, version).unwrap();
    out.to_vec()
}

/// A CA and a certificate it signs for `localhost` and 127.0.0.1, made by
/// the `openssl` command in `dir` (nothing committed, nothing reused).
pub struct Certs {
    /// The CA certificate a client must trust (`SSL_CERT_FILE`).
    pub ca: PathBuf,
    pub server: Arc<ServerConfig>,
    dir: PathBuf,
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the openssl command (the TLS tests make their certificates with it)");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Certs {
    pub fn make(dir: &Path, ca_name: &str) -> Certs {
        let ec = [
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
        ];
        let subject = format!("/CN={ca_name}");
        let mut args = vec!["req", "-x509"];
        args.extend(ec);
        args.extend([
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", &subject,
        ]);
        openssl(dir, &args);
        let mut args = vec!["req"];
        args.extend(ec);
        args.extend([
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=localhost",
        ]);
        openssl(dir, &args);
        std::fs::write(
            dir.join("server.ext"),
            "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n",
        )
        .unwrap();
        openssl(
            dir,
            &[
                "x509",
                "-req",
                "-in",
                "server.csr",
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                "server.pem",
                "-days",
                "2",
                "-extfile",
                "server.ext",
            ],
        );
        let chain: Vec<CertificateDer<'static>> =
            CertificateDer::pem_file_iter(dir.join("server.pem"))
                .unwrap()
                .map(Result::unwrap)
                .collect();
        let key = PrivateKeyDer::from_pem_file(dir.join("server.key")).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let server = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap();
        Certs {
            ca: dir.join("ca.pem"),
            server: Arc::new(server),
            dir: dir.to_path_buf(),
        }
    }

    /// A client certificate for `cn` signed by this CA: (chain, key) files.
    pub fn client(&self, cn: &str) -> (PathBuf, PathBuf) {
        let dir = &self.dir;
        let (key, csr, pem) = (
            format!("{cn}.key"),
            format!("{cn}.csr"),
            format!("{cn}.pem"),
        );
        let subject = format!("/CN={cn}");
        openssl(
            dir,
            &[
                "req",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-keyout",
                &key,
                "-out",
                &csr,
                "-subj",
                &subject,
            ],
        );
        std::fs::write(
            dir.join("client.ext"),
            "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n",
        )
        .unwrap();
        openssl(
            dir,
            &[
                "x509",
                "-req",
                "-in",
                &csr,
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                &pem,
                "-days",
                "2",
                "-extfile",
                "client.ext",
            ],
        );
        (dir.join(pem), dir.join(key))
    }

    /// The broker's certificate, and a client certificate signed by this CA
    /// required of every client (the handshake fails without one).
    pub fn server_requiring_clients(&self) -> Arc<ServerConfig> {
        let mut roots = rustls::RootCertStore::empty();
        for ca in CertificateDer::pem_file_iter(&self.ca).unwrap() {
            roots.add(ca.unwrap()).unwrap();
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
            Arc::new(roots),
            provider.clone(),
        )
        .build()
        .unwrap();
        let chain: Vec<CertificateDer<'static>> =
            CertificateDer::pem_file_iter(self.dir.join("server.pem"))
                .unwrap()
                .map(Result::unwrap)
                .collect();
        let key = PrivateKeyDer::from_pem_file(self.dir.join("server.key")).unwrap();
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_client_cert_verifier(verifier)
            .with_single_cert(chain, key)
            .unwrap();
        Arc::new(config)
    }
}
