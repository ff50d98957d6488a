//! `platcheck verify`'s execution: reading the files, choosing the server
//! kind from the URL (or starting a throwaway one), and the offline replay
//! of a recording. Its arguments and output glue live in `cli/verify.rs`.
use super::ephemeral::Server;
use super::ephemeral_bins::Kind;
use super::{Options, Run, Script, StmtReport, VerifyError, compare, dialect_from_name, my, pg};
use crate::sql::Version;
use std::path::{Path, PathBuf};

/// The scripts to replay: a file as it is; a directory as the migration
/// tool runs it (`history_scripts`: forward steps in the tool's order).
/// `product` is the server's (`postgresql`, `mysql`, `mariadb`);
/// `follow_external`: `--follow-external-links`, which the scope's refusal
/// names.
pub fn scripts(
    files: &[PathBuf],
    cwd: &Path,
    product: &str,
    follow_external: bool,
) -> Result<Vec<Script>, String> {
    let mut out = Vec::new();
    // A named file is read through the scope, like every input.
    let mut scope = crate::read::Scope::new(cwd, follow_external);
    scope.admit(files, cwd);
    for f in files {
        let abs = cwd.join(f);
        if abs.is_dir() {
            out.extend(super::history_scripts::up_scripts(
                &abs, f, product, &scope,
            )?);
        } else {
            let text = crate::read::read_text(&abs, crate::settings::DEFAULT_MAX_FILE_SIZE, &scope)
                .map_err(|e| format!("{}: {e}", f.display()))?;
            out.push(Script {
                name: f.display().to_string(),
                text,
            });
        }
    }
    Ok(out)
}

/// The product a URL's scheme or `--server` names, for reading histories.
pub fn product_of(url_or_kind: &str) -> &'static str {
    let scheme = url_or_kind
        .split("://")
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    match scheme.as_str() {
        "mysql" => "mysql",
        "mariadb" => "mariadb",
        _ => "postgresql",
    }
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
        let lines = super::Lines::new(script);
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
                line: lines.line_col(st.span.start).0,
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
    // Bounded like every input: a FIFO or `/dev/zero` named by `--observed`
    // must neither hang nor exhaust memory.
    let text = crate::read::read_input(path, crate::settings::DEFAULT_MAX_FILE_SIZE)
        .and_then(crate::read::decode)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a verify recording: {e}", path.display()))
}
