//! `platcheck verify`: its arguments, and turning a replay into what `main`
//! prints. The replay itself is `sql::verify`.
use crate::mirror::gate_cmd::GateRun;
use crate::output::Format;
use crate::sql::verify::command::{
    against_recording, ephemeral, live, product_of, read_recording, scripts,
};
use crate::sql::verify::ephemeral_bins::Kind;
use crate::sql::verify::{DEFAULT_WATCH_CONNECTIONS, Options, VerifyError, render, signals};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// postgres://… or mysql://… / mariadb://… ; a scratch database is created and dropped there. Without it, verify starts its own throwaway server (see --server).
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
    /// Compare with a recorded run (from --save) instead of a live server.
    #[arg(long, value_name = "FILE", conflicts_with = "database_url")]
    pub observed: Option<PathBuf>,
    /// Also write the run as a recording (JSON), for `--observed` or an `observed.json`.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// PostgreSQL only: replay in the URL's own database, inside one transaction that is rolled back.
    #[arg(long, requires = "database_url")]
    pub in_place: bool,
    /// Without --database-url: the throwaway server to start (postgres, mariadb or mysql), from the installed binaries.
    #[arg(long, value_name = "KIND", default_value = "postgres", value_parser = ["postgres", "postgresql", "mariadb", "mysql"], conflicts_with = "database_url")]
    pub server: String,
    /// Where the throwaway server's binaries are (initdb and postgres; mariadb-install-db and mariadbd; mysqld).
    #[arg(long, value_name = "DIR")]
    pub engine_bin: Option<PathBuf>,
    /// DANGEROUS, for trusted input only: run statements that act outside the scratch database (databases, roles, server settings, files, programs, other servers), as the URL's own user, without the sandbox role.
    #[arg(long)]
    pub allow_cluster_wide: bool,
    /// A PostgreSQL extension CREATE EXTENSION may create besides the built-in allow-list (repeatable).
    #[arg(long = "allow-extension", value_name = "NAME")]
    pub allow_extension: Vec<String>,
    /// Seconds one statement may run before platcheck cancels it, whatever the SQL sets.
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    pub statement_timeout: u64,
    /// Seconds the whole replay may take before platcheck stops it (exit 2).
    #[arg(long, value_name = "SECS", default_value_t = 1800)]
    pub total_timeout: u64,
    /// Sessions the PostgreSQL lock watcher may hold at once; with more tables than that, tables share sessions and the run says so.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WATCH_CONNECTIONS)]
    pub watch_connections: usize,
    /// Read migration files through symlinks that resolve outside the directories named here (refused otherwise).
    #[arg(long)]
    pub follow_external_links: bool,
    /// Migration files, or migration directories, replayed in the order given; a directory replays what its migration tool runs (forward steps, in the tool's order).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

impl VerifyArgs {
    pub fn options(&self) -> Options {
        Options {
            in_place: self.in_place,
            allow_cluster_wide: self.allow_cluster_wide,
            extensions: self.allow_extension.clone(),
            statement_limit: Duration::from_secs(self.statement_timeout.max(1)),
            total_limit: Duration::from_secs(self.total_timeout.max(1)),
            watch_connections: self.watch_connections.max(2),
        }
    }
}

pub fn run(format: Format, args: &VerifyArgs, cwd: &Path) -> Result<GateRun, String> {
    let product = match (&args.database_url, &args.observed) {
        (_, Some(rec)) => {
            let d = read_recording(&cwd.join(rec))?.dialect;
            product_of(if d == "postgres" { "postgresql" } else { &d })
        }
        (Some(url), None) => product_of(url),
        (None, None) => product_of(&args.server),
    };
    let scripts = scripts(&args.files, cwd, product, args.follow_external_links)?;
    let opts = args.options();
    // An error a signal caused: let the signal thread finish its cleanup
    // and exit instead of racing it with a report.
    let interrupted = |e: VerifyError| {
        signals::settle_if_interrupted();
        e.0
    };
    let (run, source) = match (&args.database_url, &args.observed) {
        (_, Some(rec)) => {
            let recorded = read_recording(&cwd.join(rec))?;
            (
                against_recording(&recorded, &scripts)?,
                format!("recorded in {}", rec.display()),
            )
        }
        (Some(url), None) => {
            let run = live(url, &scripts, &opts).map_err(interrupted)?;
            let where_ = if args.in_place {
                "in place, rolled back"
            } else {
                "scratch database, dropped"
            };
            (run, where_.to_string())
        }
        (None, None) => {
            let kind = Kind::parse(&args.server).unwrap_or(Kind::Postgres);
            let bin = args.engine_bin.as_ref().map(|b| cwd.join(b));
            let run = ephemeral(kind, bin.as_deref(), &scripts, &opts).map_err(interrupted)?;
            (run, "throwaway server, removed".to_string())
        }
    };
    // A signal that arrived as the last statement ended.
    signals::settle_if_interrupted();
    if let Some(save) = &args.save {
        let path = cwd.join(save);
        crate::read::write::write_file(
            &path,
            &render::json(&run),
            crate::read::write::Replace::Output,
        )?;
    }
    let text = match format {
        Format::Json => render::json(&run),
        _ => render::human(&run, &source),
    };
    Ok(GateRun {
        text,
        hits: run.disagreements() + run.withheld(),
        warnings: run.notes.clone(),
        errors: Vec::new(),
    })
}
