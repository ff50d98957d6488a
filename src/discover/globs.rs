//! Compiling the config's `include` / `exclude` globs. A glob that does not
//! compile stops the run (exit 2), with where it is written in the config
//! and what the glob syntax expected there.
use crate::settings::Settings;
use globset::{Glob, GlobSet, GlobSetBuilder};

/// The set, and for each of its globs the pattern it came from. `key` is
/// the config key the patterns come from (for the error).
pub(super) fn compile(
    patterns: &[String],
    key: &str,
    settings: &Settings,
) -> Result<(GlobSet, Vec<usize>), String> {
    let mut b = GlobSetBuilder::new();
    let mut owner = Vec::new();
    for (i, p) in patterns.iter().enumerate() {
        b.add(Glob::new(p).map_err(|e| invalid(settings, key, p, &e))?);
        owner.push(i);
        // `dir/**` should also match the directory's own files when written `dir`.
        if !p.contains('*')
            && let Ok(g) = Glob::new(&format!("{}/**", p.trim_end_matches('/')))
        {
            b.add(g);
            owner.push(i);
        }
    }
    Ok((b.build().map_err(|e| e.to_string())?, owner))
}

/// `platcheck.yaml:L:C: invalid glob …: what is wrong; what was expected`.
fn invalid(settings: &Settings, key: &str, pattern: &str, e: &globset::Error) -> String {
    let at = settings.config.as_ref().and_then(|cfg| {
        let node = settings
            .config_root
            .as_ref()?
            .get(key)?
            .as_seq()
            .iter()
            .find(|n| n.as_str() == Some(pattern))?;
        let lc = cfg.line_col(node.span.start);
        Some(format!("{}:{}:{}: ", cfg.display, lc.line, lc.column))
    });
    format!(
        "{}invalid `{key}` glob `{}`: {}",
        at.unwrap_or_default(),
        pattern.escape_debug(),
        expected(e.kind())
    )
}

/// What is wrong with the glob, and what the syntax expected instead.
fn expected(kind: &globset::ErrorKind) -> String {
    use globset::ErrorKind as K;
    match kind {
        K::UnclosedClass => {
            "a character class `[` is never closed; expected a `]` after it (write `[[]` for a literal `[`)".into()
        }
        K::InvalidRange(a, b) => format!(
            "the range `{}-{}` runs backwards; expected the lower character first (`{}-{}`)",
            a.escape_debug(),
            b.escape_debug(),
            b.escape_debug(),
            a.escape_debug()
        ),
        K::UnopenedAlternates => {
            "a `}` closes alternatives that were never opened; expected a `{` before it (write `[}]` for a literal `}`)".into()
        }
        K::UnclosedAlternates => {
            "alternatives `{` are never closed; expected a `}` after them (write `[{]` for a literal `{`)".into()
        }
        K::NestedAlternates => {
            "alternatives `{…}` cannot be nested; expected a `}` before the next `{`".into()
        }
        K::DanglingEscape => "it ends in `\\`, which escapes nothing; expected a character after it".into(),
        K::InvalidRecursive => {
            "`**` must be a whole path component; expected `**/`, `/**` or `/**/` (a `*` inside a name matches within one component)".into()
        }
        other => format!("{other}; expected a glob such as `migrations/**/*.sql`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(config: &str) -> Settings {
        Settings::from_source(crate::source::SourceFile::new(
            "platcheck.yaml",
            "platcheck.yaml",
            config,
        ))
    }

    #[test]
    fn an_invalid_glob_is_located_in_the_config_and_says_what_was_expected() {
        let s = settings("version: 1\ninclude:\n  - migrations/**\n  - \"docs/[a-\"\n");
        let e = compile(&s.include, "include", &s).unwrap_err();
        assert!(
            e.starts_with("platcheck.yaml:4:5: invalid `include` glob `docs/[a-`: "),
            "{e}"
        );
        assert!(e.contains("expected a `]`"), "{e}");
        let s = settings("version: 1\nexclude: [\"a/{b,c\"]\n");
        let e = compile(&s.exclude, "exclude", &s).unwrap_err();
        assert!(e.starts_with("platcheck.yaml:2:11: "), "{e}");
        assert!(e.contains("expected a `}`"), "{e}");
    }

    #[test]
    fn every_glob_error_names_what_was_expected() {
        for bad in ["[b-a]", "a}", "{a", "a\\", "[x"] {
            let e = Glob::new(bad).expect_err(bad);
            assert!(expected(e.kind()).contains("expected"), "{bad}");
        }
    }
}
