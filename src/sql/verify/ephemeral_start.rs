//! Initialising and starting the throwaway server's process: PostgreSQL
//! (`initdb` with a password file, `postgres` on a unix socket only) and
//! MariaDB/MySQL (their install step, the server without networking).
use super::{PG_PORT, io, own, run_init, spawn};
use crate::sql::verify::VerifyError;
use crate::sql::verify::ephemeral_bins::{Bins, Kind};
use std::path::Path;
use std::process::{Child, Command};

pub(super) fn start_pg(
    bins: &Bins,
    dir: &Path,
    user: Option<(u32, u32)>,
    password: &str,
) -> Result<Child, VerifyError> {
    let pwfile = dir.join("pw");
    std::fs::write(&pwfile, password).map_err(io("cannot write the password file"))?;
    own(&pwfile, user)?;
    run_init(
        Command::new(&bins.init)
            .arg("-D")
            .arg(dir.join("data"))
            .args([
                "-U",
                "platcheck",
                "--auth=scram-sha-256",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
            ])
            .arg(format!("--pwfile={}", pwfile.display())),
        dir,
        user,
        "initdb",
    )?;
    let _ = std::fs::remove_file(&pwfile);
    let mut cmd = Command::new(&bins.server);
    cmd.arg("-D").arg(dir.join("data")).arg("-k").arg(dir);
    for setting in [
        "listen_addresses=".to_string(),
        format!("port={PG_PORT}"),
        "unix_socket_permissions=0700".into(),
        "fsync=off".into(),
        "synchronous_commit=off".into(),
        "full_page_writes=off".into(),
        "shared_buffers=32MB".into(),
        "max_connections=60".into(),
    ] {
        cmd.arg("-c").arg(setting);
    }
    // Immediate shutdown when verify dies: no checkpoint for throwaway data.
    spawn(&mut cmd, dir, user, libc::SIGQUIT)
}

pub(super) fn start_my(
    kind: Kind,
    bins: &Bins,
    dir: &Path,
    user: Option<(u32, u32)>,
) -> Result<Child, VerifyError> {
    let data = dir.join("data");
    for sub in ["files", "tmp"] {
        let p = dir.join(sub);
        std::fs::create_dir(&p).map_err(io("cannot create the server's directory"))?;
        own(&p, user)?;
    }
    let mut init = Command::new(&bins.init);
    if kind == Kind::MariaDb {
        init.arg("--no-defaults")
            .arg(format!("--datadir={}", data.display()))
            .args([
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
                "--skip-name-resolve",
            ]);
    } else {
        init.arg("--no-defaults")
            .arg("--initialize-insecure")
            .arg(format!("--datadir={}", data.display()));
    }
    run_init(
        &mut init,
        dir,
        user,
        bins.init
            .file_name()
            .map_or("init", |n| n.to_str().unwrap_or("init")),
    )?;
    let mut cmd = Command::new(&bins.server);
    cmd.arg("--no-defaults")
        .arg(format!("--datadir={}", data.display()))
        .arg(format!("--socket={}", dir.join("sock").display()))
        .arg(format!("--pid-file={}", dir.join("server.pid").display()))
        .arg(format!("--tmpdir={}", dir.join("tmp").display()))
        .arg(format!(
            "--secure-file-priv={}",
            dir.join("files").display()
        ))
        .args([
            "--skip-networking",
            "--local-infile=0",
            "--skip-log-bin",
            "--innodb-flush-log-at-trx-commit=0",
        ]);
    if kind == Kind::MySql {
        cmd.arg("--mysqlx=OFF");
    }
    spawn(&mut cmd, dir, user, libc::SIGKILL)
}
