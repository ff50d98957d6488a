//! `platcheck verify`: its arguments, and turning a replay into what `main`
//! prints. The replay itself is `sql::verify`.
use crate::mirror::gate_cmd::GateRun;
use crate::output::Format;
use crate::sql::verify::command::{against_recording, live, read_recording, scripts};
use crate::sql::verify::{render, scratch};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// postgres://… or mysql://… / mariadb://… ; a scratch database is created and dropped there.
    #[arg(long, value_name = "URL", required_unless_present = "observed")]
    pub database_url: Option<String>,
    /// Compare with a recorded run (from --save) instead of a live server.
    #[arg(long, value_name = "FILE", conflicts_with = "database_url")]
    pub observed: Option<PathBuf>,
    /// Also write the run as a recording (JSON), for `--observed` or an `observed.json`.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// PostgreSQL only: replay in the URL's own database, inside one transaction that is rolled back.
    #[arg(long)]
    pub in_place: bool,
    /// Migration files, or directories of *.sql files, replayed in the order given (directories sorted by name).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

pub fn run(format: Format, args: &VerifyArgs, cwd: &Path) -> Result<GateRun, String> {
    let scripts = scripts(&args.files, cwd)?;
    let (run, source) = match (&args.database_url, &args.observed) {
        (_, Some(rec)) => {
            let recorded = read_recording(&cwd.join(rec))?;
            (
                against_recording(&recorded, &scripts)?,
                format!("recorded in {}", rec.display()),
            )
        }
        (Some(url), None) => {
            let run = live(url, &scripts, args.in_place).map_err(|e| {
                scratch::settle_if_interrupted();
                e.0
            })?;
            let where_ = if args.in_place {
                "in place, rolled back"
            } else {
                "scratch database, dropped"
            };
            (run, where_.to_string())
        }
        (None, None) => return Err("give --database-url URL or --observed FILE".into()),
    };
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
        hits: run.disagreements(),
        warnings: Vec::new(),
        errors: Vec::new(),
    })
}
