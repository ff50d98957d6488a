//! `platcheck verify`: arguments, reading the files, choosing the server
//! kind from the URL, and the offline replay of a recording.
use super::ephemeral::Server;
use super::ephemeral_bins::Kind;
use super::{
    Options, Run, Script, StmtReport, VerifyError, compare, dialect_from_name, my, pg, render,
    signals,
};
use crate::mirror::gate_cmd::GateRun;
use crate::output::Format;
use crate::sql::Version;
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// postgres://… or mysql://… / mariadb://… ; a scratch database is created and dropped there. Without it, verify starts its own throwaway server (see --server).
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
    /// Compare with a recorded run (from --save) instead of a live server.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["database_url", "server"])]
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
    #[arg(long, value_name = "N", default_value_t = super::DEFAULT_WATCH_CONNECTIONS, value_parser = clap::value_parser!(usize))]
    pub watch_connections: usize,
    /// Migration files, or directories of *.sql files, replayed in the order given (directories sorted by name).
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

fn sql_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sql_files(&p, out)?;
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sql")) {
            out.push(p);
        }
    }
    Ok(())
}

pub fn scripts(files: &[PathBuf], cwd: &Path) -> Result<Vec<Script>, String> {
    let mut paths = Vec::new();
    for f in files {
        let abs = cwd.join(f);
        if abs.is_dir() {
            let mut found = Vec::new();
            sql_files(&abs, &mut found).map_err(|e| format!("{}: {e}", f.display()))?;
            paths.extend(found.into_iter().map(|p| {
                let shown = p
                    .strip_prefix(cwd)
                    .map(Path::to_path_buf)
                    .unwrap_or(p.clone());
                (p, shown)
            }));
        } else {
            paths.push((abs, f.clone()));
        }
    }
    paths
        .into_iter()
        .map(|(abs, shown)| {
            let text = std::fs::read(&abs).map_err(|e| format!("{}: {e}", shown.display()))?;
            Ok(Script {
                name: shown.display().to_string(),
                text: String::from_utf8_lossy(&text).into_owned(),
            })
        })
        .collect()
}

/// Replays against the server the URL names.
pub fn live(url: &str, scripts: &[Script], opts: &Options) -> Result<Run, VerifyError> {
    let scheme = url.split("://").next().unwrap_or("").to_ascii_lowercase();
    match scheme.as_str() {
        "postgres" | "postgresql" => pg::PgVerifier::connect_with(url, opts)?.replay(scripts),
        "mysql" | "mariadb" => my::MyVerifier::connect_with(url, opts)?.replay(scripts),
        _ => Err(VerifyError(format!(
            "--database-url must start with postgres://, postgresql://, mysql:// or mariadb:// (got `{scheme}://…`)"
        ))),
    }
}

/// Replays on a throwaway server verify starts and removes itself.
pub fn ephemeral(
    kind: Kind,
    engine_bin: Option<&Path>,
    scripts: &[Script],
    opts: &Options,
) -> Result<Run, VerifyError> {
    let server = Server::start(kind, engine_bin)?;
    let run = match kind {
        Kind::Postgres => pg::PgVerifier::connect_with(server.url(), opts)?.replay(scripts),
        _ => my::MyVerifier::connect_with(server.url(), opts)?.replay(scripts),
    };
    drop(server);
    run
}

fn base(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// Today's prediction for every recorded statement, compared with what was
/// recorded. Statements are matched by file name and position.
pub fn against_recording(recorded: &Run, scripts: &[Script]) -> Result<Run, String> {
    let dialect = dialect_from_name(&recorded.dialect)
        .ok_or_else(|| format!("unknown dialect `{}` in the recording", recorded.dialect))?;
    let version = Version::parse(&recorded.server_version).unwrap_or(Version(15, 0, 0));
    let analyses = super::analyse(scripts, dialect, version);
    let mut out = Vec::new();
    for (fa, script) in analyses.iter().zip(scripts) {
        for st in &fa.stmts {
            let Some(rec) = recorded
                .statements
                .iter()
                .find(|r| base(&r.file) == base(&script.name) && r.index == st.index)
            else {
                continue;
            };
            let text = &script.text[st.span.start..st.span.end];
            let predicted = super::predict(st);
            out.push(StmtReport {
                file: script.name.clone(),
                line: super::line_of(&script.text, st.span.start),
                index: st.index,
                statement: super::head(text),
                disagreements: compare::compare(&predicted, &rec.observed),
                predicted,
                observed: rec.observed.clone(),
            });
        }
    }
    Ok(Run {
        dialect: recorded.dialect.clone(),
        server_version: recorded.server_version.clone(),
        statements: out,
        notes: Vec::new(),
    })
}

pub fn read_recording(path: &Path) -> Result<Run, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a verify recording: {e}", path.display()))
}

pub fn run(format: Format, args: &VerifyArgs, cwd: &Path) -> Result<GateRun, String> {
    let scripts = scripts(&args.files, cwd)?;
    let opts = args.options();
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
    // A signal that arrived as the last statement ended: its cleanup runs
    // on the signal thread, which exits; do not race it with a report.
    signals::settle_if_interrupted();
    if let Some(save) = &args.save {
        let path = cwd.join(save);
        std::fs::write(&path, render::json(&run))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
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
