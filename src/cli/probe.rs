//! `platcheck probe` and `check --probe`: the `--target NAME=URL` flags.
//! The probing is the `probe` analysis; its findings go through `check`'s
//! engine and printers.
use super::{CheckArgs, CliError};
use crate::settings::ProbeRequest;

/// `--target NAME=URL` flags; the value is never echoed (it may hold a password).
pub(super) fn probe_request(
    args: &CheckArgs,
    only_probe_rules: bool,
) -> Result<Option<ProbeRequest>, CliError> {
    if !args.probe {
        if !args.target.is_empty() {
            return Err(CliError(
                "--target needs `platcheck probe` or `check --probe`".into(),
            ));
        }
        return Ok(None);
    }
    let mut targets = Vec::new();
    for (i, t) in args.target.iter().enumerate() {
        match t.split_once('=') {
            Some((name, url)) if !name.is_empty() && url.contains("://") => {
                targets.push((name.to_string(), url.to_string()));
            }
            _ => {
                return Err(CliError(format!(
                    "--target #{}: expected NAME=URL (a contract name, `=`, then a URL such as postgres://host/db)",
                    i + 1
                )));
            }
        }
    }
    Ok(Some(ProbeRequest {
        targets,
        only_probe_rules,
    }))
}
