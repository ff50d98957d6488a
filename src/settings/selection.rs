//! Rule selection in the settings: `rules:` by selector, `select:` /
//! `ignore:` (and `--select` / `--ignore`), per-file `overrides:`.
use super::{Overrides, Settings, SettingsError};
use crate::catalog::RuleId;
use crate::contracts::schema;
use crate::contracts::yaml::Node;
use crate::finding::Severity;
use std::path::Path;

/// `overrides:` in the config: severities for the files its globs match.
#[derive(Debug, Clone)]
pub struct FileOverride {
    pub files: globset::GlobSet,
    /// (selector rank, rules, severity or off), least specific first.
    pub rules: Vec<(u8, Vec<RuleId>, Option<Severity>)>,
}

impl Settings {
    /// The severity of a rule's finding in `path` (`overrides:` applied),
    /// and whether the config set it (a rule's own per-finding severity
    /// yields to the config). A rule off for the whole run never ran.
    pub fn severity_at(&self, rule: RuleId, path: &Path) -> (Option<Severity>, bool) {
        if self.flags_off.contains(&rule) {
            return (None, true);
        }
        let mut sev = self.severity(rule);
        let mut set = self.severities.contains_key(&rule);
        if self.file_overrides.is_empty() {
            return (sev, set);
        }
        let rel = path.strip_prefix(&self.root).unwrap_or(path);
        for o in self.file_overrides.iter().filter(|o| o.files.is_match(rel)) {
            for (_, rules, s) in &o.rules {
                if rules.contains(&rule) {
                    sev = *s;
                    set = true;
                }
            }
        }
        (sev, set)
    }

    /// Whether the rule runs at all: on for the run, or turned on for some
    /// files by `overrides:` (`MG030: off` run-wide, `MG030: error` for
    /// `legacy/**`). What `--select`/`--ignore` turn off stays off: the
    /// command line has the last word over the config.
    pub fn runs(&self, rule: RuleId) -> bool {
        if self.severity(rule).is_some() {
            return true;
        }
        !self.flags_off.contains(&rule)
            && self.file_overrides.iter().any(|o| {
                o.rules
                    .iter()
                    .any(|(_, rules, s)| s.is_some() && rules.contains(&rule))
            })
    }

    /// `--select` / `--ignore`: an unknown selector is a usage error.
    pub(super) fn select_from_flags(&mut self, ov: &Overrides) -> Result<(), SettingsError> {
        let parse = |keys: &[String]| -> Result<Vec<RuleId>, SettingsError> {
            let mut out = Vec::new();
            for k in keys {
                let (_, rules) = schema::select_rules(k)
                    .map_err(|e| SettingsError(format!("--select/--ignore: {e}")))?;
                out.extend(rules);
            }
            Ok(out)
        };
        let config_select = self.config_select.take();
        let from_flags = !ov.select.is_empty();
        let keep = if from_flags {
            Some(parse(&ov.select)?)
        } else {
            config_select
        };
        if let Some(keep) = keep {
            self.keep_only(&keep);
            if from_flags {
                let off = RuleId::ALL.iter().filter(|r| !keep.contains(r));
                self.flags_off.extend(off.filter(|&&r| r != RuleId::PC000));
            }
        }
        for r in parse(&ov.ignore)? {
            self.turn_off(r);
            if r != RuleId::PC000 {
                self.flags_off.insert(r);
            }
        }
        Ok(())
    }

    pub(super) fn keep_only(&mut self, keep: &[RuleId]) {
        for &r in RuleId::ALL {
            if !keep.contains(&r) {
                self.turn_off(r);
            }
        }
    }

    /// Internal errors (PC000) always report: the run was incomplete.
    pub(super) fn turn_off(&mut self, r: RuleId) {
        if r != RuleId::PC000 {
            self.severities.insert(r, None);
        }
    }

    /// A rule selector of the config; an unknown one is PC008 with a
    /// did-you-mean.
    pub(super) fn selector(
        &mut self,
        key: &str,
        span: crate::source::Span,
        pointer: &str,
    ) -> Option<(u8, Vec<RuleId>)> {
        match schema::select_rules(key) {
            Ok(found) => Some(found),
            Err(msg) => {
                self.problem(RuleId::PC008, span, pointer, msg);
                // `platcheck fix` renames a key only to its one close rule id.
                let ids: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
                if let Some(s) = schema::suggest_unique(key, &ids)
                    && let Some(r) = self.problems.last_mut()
                {
                    r.vars.push(("suggestion", s.to_string()));
                }
                None
            }
        }
    }

    pub(super) fn file_override(&mut self, o: &Node, i: usize) {
        let mut b = globset::GlobSetBuilder::new();
        let globs: Vec<&Node> = match o.get("files") {
            Some(f) if f.as_str().is_some() => vec![f],
            Some(f) => f.as_seq().iter().collect(),
            None => Vec::new(),
        };
        for g in globs {
            let Some(text) = g.as_str() else { continue };
            match globset::Glob::new(text) {
                Ok(glob) => {
                    b.add(glob);
                }
                Err(e) => {
                    self.problem(
                        RuleId::PC008,
                        g.span,
                        &format!("/overrides/{i}/files"),
                        format!("invalid glob `{text}`: {e}"),
                    );
                }
            }
        }
        let Ok(files) = b.build() else { return };
        let mut rules = Vec::new();
        if let Some(map) = o.get("rules") {
            for (key, value) in map.entries() {
                let pointer = format!("/overrides/{i}/rules/{}", key.name);
                let Some((rank, ids)) = self.selector(&key.name, key.span, &pointer) else {
                    continue;
                };
                let sev = match value.as_str() {
                    Some("off") => None,
                    Some(s) => match Severity::parse(s) {
                        Some(sev) => Some(sev),
                        None => continue,
                    },
                    None => continue,
                };
                rules.push((rank, ids, sev));
            }
        }
        rules.sort_by_key(|(rank, _, _)| *rank);
        self.file_overrides.push(FileOverride { files, rules });
    }
}
