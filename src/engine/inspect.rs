//! A run's inputs and shared analyses without the rules.
use super::assemble::add_loaded;
use super::loading::{Loaded, isolated, load_candidate};
use super::{RunError, search_start};
use crate::discover;
use crate::emit::Sink;
use crate::registry::{Analyses, RuleCtx};
use crate::settings::{Overrides, Settings};
use crate::workspace::Workspace;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// The inputs and shared analyses of a run, without running the rules:
/// for commands that need more than findings (`fix --verify` plans its
/// replay from the migration history).
pub fn inspect<R>(
    paths: &[PathBuf],
    cwd: &Path,
    overrides: &Overrides,
    f: impl FnOnce(&RuleCtx) -> R,
) -> Result<R, RunError> {
    let paths: Vec<PathBuf> = if paths.is_empty() {
        vec![cwd.to_path_buf()]
    } else {
        paths.to_vec()
    };
    let mut settings = Settings::load(&search_start(&paths, cwd), cwd, overrides)?;
    let found = discover::discover(&paths, cwd, &settings).map_err(RunError::Usage)?;
    let loaded: Vec<Loaded> = found
        .files
        .par_iter()
        .map(|cand| isolated(cand, || load_candidate(cand, &settings, None)))
        .collect();
    let mut ws = Workspace::default();
    if let Some(cfg) = settings.config.take() {
        ws.add_file(cfg, None);
    }
    add_loaded(&mut ws, &mut Sink::default(), loaded);
    let analyses = Analyses::default();
    let ctx = RuleCtx {
        ws: &ws,
        settings: &settings,
        analyses: &analyses,
    };
    Ok(f(&ctx))
}
