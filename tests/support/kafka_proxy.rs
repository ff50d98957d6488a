//! A relay in the test process in front of a Tansu broker, for what Tansu
//! cannot do itself: a TLS listener (Tansu 0.6 refuses `--cert` with
//! `--key`, and a combined file gives no TLS listener), and a partition that
//! is not whole (one node keeps every partition whole). The broker's own
//! answers go through; with an edit, the relay changes Metadata answers
//! (decoded and re-encoded with the protocol codec) before the client sees
//! them, and nothing else. The relay handles one request at a time per
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

pub type Edit = fn(&mut MetadataResponse);

pub struct Relay {
    pub port: u16,
    stop: Arc<AtomicBool>,
}

impl Relay {
    /// Listens on a free port and relays every connection to `upstream`
    /// (a port on 127.0.0.1), over TLS with `tls`, editing Metadata with `edit`.
    pub fn start(upstream: u16, tls: Option<Arc<ServerConfig>>, edit: Option<Edit>) -> Relay {
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
                std::thread::spawn(move || {
                    let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                        return;
                    };
                    // A broken connection ends the relay of that connection only.
                    let _ = match tls {
                        Some(config) => {
                            let conn = ServerConnection::new(config).unwrap();
                            relay(StreamOwned::new(conn, client), server, edit)
                        }
                        None => relay(client, server, edit),
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
) -> std::io::Result<()> {
    loop {
        let request = frame(&mut client)?;
        let key = i16::from_be_bytes([request[0], request[1]]);
        let version = i16::from_be_bytes([request[2], request[3]]);
        send(&mut server, &request)?;
        let answer = frame(&mut server)?;
        let answer = match edit {
            Some(edit) if key == ApiKey::Metadata as i16 => edited(&answer, version, edit),
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
        }
    }
}
