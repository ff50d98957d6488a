//! `platcheck init`: a config, one example contract per kind and the
//! placeholder runbooks they name, written only where nothing exists yet
//! (it never overwrites). Dates are today's, the migration directory and
//! tool are detected from the repository's shape (or given), so the first
//! `platcheck check` is green; `--baseline` then records what an existing
//! repository already has, so only new work is judged.
use crate::sql::history::Tool;
use jiff::civil::Date;
use std::fmt::Write as _;
use std::path::Path;

mod detect;
mod runbooks;
pub use detect::{Detected, migrations};
pub use runbooks::PLACEHOLDER;

const CONFIG: &str = include_str!("platcheck.yaml");
const CLUSTER: &str = include_str!("example-db.yaml");
const BOUNDARY: &str = include_str!("example-created.yaml");
const SCHEMA: &str = include_str!("example-created.schema.json");

/// What the command line asked for.
#[derive(Debug, Clone)]
pub struct Options {
    pub today: Date,
    /// `--tool`: the migration tool, when detection should not decide.
    pub tool: Option<Tool>,
}

/// The files to write (path relative to the directory, text) and what the
/// scaffold found, for the summary `main` prints.
pub struct Plan {
    pub files: Vec<(String, String)>,
    pub found: Vec<Detected>,
    pub tool: Option<Tool>,
    pub migrations: String,
}

pub fn plan(dir: &Path, opts: &Options) -> Plan {
    let found = migrations(dir);
    let primary = found.first();
    let migrations = primary.map_or_else(|| "migrations/example-db".to_string(), |d| d.dir.clone());
    // With no migrations yet, the example names the tool it was written for.
    let tool = opts
        .tool
        .or_else(|| primary.map_or(Some(Tool::Alembic), |d| d.tool));
    let tool_line = match tool {
        Some(t) => format!("    tool: {}\n", t.as_str()),
        None => String::new(),
    };
    let mut include = vec!["contracts/**".to_string(), "docs/**".to_string()];
    // No `migrations/**` before they exist: a pattern that matches no file
    // is reported (PC008), since it would check nothing.
    for d in &found {
        include.push(if d.dir == "." {
            "**/*.sql".into()
        } else {
            format!("{}/**", d.dir)
        });
    }
    let include: Vec<String> = include.iter().map(|g| yaml_quote(g)).collect();
    let today = opts.today.to_string();
    let schemas = format!("{}/schemas", crate::catalog::DOCS_BASE);
    let fill = |t: &str| {
        t.replace("@SCHEMAS@", &schemas)
            .replace("@TODAY@", &today)
            .replace("@MIGRATIONS@", &yaml_quote(&migrations))
            .replace("@TOOL@", &tool_line)
            .replace("@INCLUDE@", &include.join(", "))
    };
    let mut files = vec![
        ("platcheck.yaml".to_string(), fill(CONFIG)),
        ("contracts/clusters/example-db.yaml".into(), fill(CLUSTER)),
        (
            "contracts/events/example-created.yaml".into(),
            fill(BOUNDARY),
        ),
        (
            "schemas/example-created.schema.json".into(),
            SCHEMA.to_string(),
        ),
    ];
    files.extend(runbooks::all());
    Plan {
        files,
        found,
        tool,
        migrations,
    }
}

fn yaml_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/_-.".contains(c))
    {
        s.to_string()
    } else {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Writes the plan; refuses when any of its files exists, and when the
/// migrations it found do not say which tool runs them (`--tool` does).
pub fn scaffold(dir: &Path, opts: &Options) -> Result<String, String> {
    let p = plan(dir, opts);
    if p.tool.is_none() {
        let names = crate::sql::history::tool_names().join(", ");
        return Err(format!(
            "found migrations in {}, but not which tool runs them (it decides their transactions): pass --tool ({names})",
            p.migrations
        ));
    }
    let existing: Vec<&str> = p
        .files
        .iter()
        .map(|(f, _)| f.as_str())
        // `symlink_metadata`: a dangling link exists too, and is never written through.
        .filter(|f| std::fs::symlink_metadata(dir.join(f)).is_ok())
        .collect();
    if !existing.is_empty() {
        return Err(format!(
            "refusing to overwrite existing files in {}: {}",
            dir.display(),
            existing.join(", ")
        ));
    }
    // Every refusal before the first write: a refused init leaves nothing
    // half-written behind.
    refuse_unusable_dir(dir)?;
    for (path, _) in &p.files {
        if let Some(parent) = dir.join(path).parent() {
            refuse_linked_dirs(dir, parent)?;
        }
    }
    let mut out = String::new();
    for (path, text) in &p.files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        crate::read::write::write_file(&target, text, crate::read::write::Replace::Nothing)?;
        let _ = writeln!(out, "created {path}");
    }
    match (p.found.first(), opts.tool) {
        (Some(d), Some(t)) => {
            let _ = writeln!(out, "migrations: {} (tool {}, as given)", d.dir, t.as_str());
        }
        (Some(d), None) => {
            let tool = d.tool.map_or("", Tool::as_str);
            let _ = writeln!(out, "migrations: {} (detected, tool {tool})", d.dir);
        }
        (None, _) => {
            let _ = writeln!(
                out,
                "migrations: none found; the example cluster expects them in {}",
                p.migrations
            );
        }
    }
    for d in p.found.iter().skip(1) {
        let tool = d.tool.map_or("tool not detected", Tool::as_str);
        let _ = writeln!(
            out,
            "also found migrations in {} ({tool}): give them a Cluster contract of their own",
            d.dir
        );
    }
    let _ = writeln!(
        out,
        "placeholder runbooks in docs/runbooks/ start with a TODO line: the launch report lists them as missing evidence until you fill them in"
    );
    out.push_str("next: edit the contracts, then run `platcheck check`\n");
    Ok(out)
}

/// A directory `init` would write into that is a symlink (`contracts` → a
/// directory elsewhere) is refused: init writes inside the target only.
fn refuse_linked_dirs(base: &Path, parent: &Path) -> Result<(), String> {
    let Ok(rel) = parent.strip_prefix(base) else {
        return Ok(());
    };
    let mut at = base.to_path_buf();
    for c in rel.components() {
        at.push(c);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "refusing to write into {}: it is a symlink (init writes only inside {})",
                at.display(),
                base.display()
            ));
        }
    }
    Ok(())
}

/// The target directory, or the nearest of its ancestors that exists, must
/// be a directory: through a dangling symlink `create_dir_all` fails with a
/// bare "File exists", which names neither the link nor where it points.
fn refuse_unusable_dir(dir: &Path) -> Result<(), String> {
    for at in dir.ancestors() {
        let Ok(meta) = std::fs::symlink_metadata(at) else {
            continue;
        };
        let points =
            || std::fs::read_link(at).map_or_else(|_| "?".into(), |t| t.display().to_string());
        return match std::fs::metadata(at) {
            Ok(m) if m.is_dir() => Ok(()),
            Err(_) if meta.file_type().is_symlink() => Err(format!(
                "cannot create {}: {} is a symlink to {}, which does not exist (create the directory it points to, or remove the link)",
                dir.display(),
                at.display(),
                points()
            )),
            _ => Err(format!(
                "cannot create {}: {} exists and is not a directory",
                dir.display(),
                at.display()
            )),
        };
    }
    Ok(())
}
