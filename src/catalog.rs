//! The rule catalogue: metadata and docs of every rule, loaded from the data
//! files under `rules/` that are embedded in the binary.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/rule_ids.rs"));

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl RuleId {
    pub fn parse(s: &str) -> Option<RuleId> {
        RuleId::ALL.iter().copied().find(|r| r.as_str() == s)
    }
    pub fn meta(self) -> &'static RuleMeta {
        &catalog()[&self]
    }
    /// Where the rule's doc is published.
    pub fn url(self) -> String {
        format!("{DOCS_BASE}/{}", self.doc_path())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Notice,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Notice => "notice",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "notice" => Some(Severity::Notice),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// How far a rule's fix can be trusted. `Safe`: applying it keeps what the
/// file means and only removes what the rule flags (`platcheck fix` applies
/// it by default). `Unsafe`: it moves a statement, guesses a value or writes
/// a placeholder, so a person reads it first (`--unsafe-fixes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FixSafety {
    None,
    Safe,
    Unsafe,
}

impl FixSafety {
    pub fn as_str(self) -> &'static str {
        match self {
            FixSafety::None => "none",
            FixSafety::Safe => "safe",
            FixSafety::Unsafe => "unsafe",
        }
    }
    pub fn parse(s: &str) -> Option<FixSafety> {
        match s {
            "none" => Some(FixSafety::None),
            "safe" => Some(FixSafety::Safe),
            "unsafe" => Some(FixSafety::Unsafe),
            _ => None,
        }
    }
}

/// Where this version's files are published: `docs_url` from Cargo.toml's
/// `[package.metadata.platcheck]` (read by build.rs) and `/v<version>`, the
/// release tag. Rule docs (the links in every output format) and the JSON
/// Schemas (`init`'s `$schema`) sit under it at their repository paths.
pub const DOCS_BASE: &str = concat!(env!("PLATCHECK_DOCS_URL"), "/v", env!("CARGO_PKG_VERSION"));

/// The closed list of headings a rule doc may use, in this order.
pub const DOC_HEADINGS: &[&str] = &[
    "What it flags",
    "Why it matters",
    "Example",
    "Use instead",
    "Suppressing",
    "References",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    id: String,
    name: String,
    severity: String,
    message: String,
    #[serde(default)]
    messages: BTreeMap<String, String>,
    help: String,
    input: String,
    source: String,
    #[serde(default)]
    fix: Option<String>,
}

/// A rule's metadata, from the front matter of its data file.
#[derive(Debug)]
pub struct RuleMeta {
    pub id: RuleId,
    pub name: String,
    pub severity: Severity,
    /// The default message template; `{name}` placeholders are filled by the rule.
    pub message: String,
    /// Alternative templates for rules that flag several distinct situations.
    pub messages: BTreeMap<String, String>,
    pub help: String,
    pub input: String,
    pub source: String,
    /// Whether `platcheck fix` can rewrite what the rule flags, and how
    /// safely (front matter `fix:`, default `none`).
    pub fix: FixSafety,
    /// The Markdown body (the fixed headings).
    pub body: String,
}

fn catalog() -> &'static BTreeMap<RuleId, RuleMeta> {
    static CATALOG: OnceLock<BTreeMap<RuleId, RuleMeta>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        RuleId::ALL
            .iter()
            .map(|&id| match embedded_doc(id) {
                Ok(meta) => (id, meta),
                // The data files are embedded at build time and checked by
                // tests/catalog.rs, so a bad one is a build defect.
                Err(e) => panic!("rule data file {} is invalid: {e}", id.doc_path()),
            })
            .collect()
    })
}

/// An embedded rule's metadata, from the JSON build.rs made of its front
/// matter: parsing every rule's YAML was half of a one-file run. Falls back
/// to the YAML when build.rs left the file to it (or the JSON does not fit
/// the struct), so the errors stay the YAML parser's.
fn embedded_doc(id: RuleId) -> Result<RuleMeta, String> {
    let text = id.doc_source();
    let prepared = id
        .front_matter_json()
        .and_then(|json| serde_json::from_str::<FrontMatter>(json).ok());
    match prepared {
        Some(fm) => from_front_matter(id, fm, split_doc(text)?.1),
        None => parse_doc(id, text),
    }
}

/// A data file's front matter (with its last newline) and body.
fn split_doc(text: &str) -> Result<(&str, &str), String> {
    let rest = text
        .strip_prefix("---\n")
        .ok_or("missing front matter opening `---`")?;
    let end = rest
        .find("\n---\n")
        .ok_or("missing front matter closing `---`")?;
    Ok((&rest[..end + 1], &rest[end + 5..]))
}

/// Parses one rule data file.
pub fn parse_doc(id: RuleId, text: &str) -> Result<RuleMeta, String> {
    let (front, body) = split_doc(text)?;
    let fm: FrontMatter =
        serde_saphyr::from_str(front).map_err(|e| format!("front matter: {e}"))?;
    from_front_matter(id, fm, body)
}

fn from_front_matter(id: RuleId, fm: FrontMatter, body: &str) -> Result<RuleMeta, String> {
    if fm.id != id.as_str() {
        return Err(format!("id {} does not match {}", fm.id, id));
    }
    let severity = Severity::parse(&fm.severity)
        .ok_or_else(|| format!("severity `{}` is not error|warning|notice", fm.severity))?;
    let fix = match fm.fix.as_deref() {
        None => FixSafety::None,
        Some(f) => {
            FixSafety::parse(f).ok_or_else(|| format!("fix `{f}` is not safe|unsafe|none"))?
        }
    };
    Ok(RuleMeta {
        id,
        name: fm.name,
        severity,
        message: fm.message,
        messages: fm.messages,
        help: fm.help,
        input: fm.input,
        source: fm.source,
        fix,
        body: body.trim_start_matches('\n').to_string(),
    })
}

/// Looks a rule up by id (`CL011`, case-insensitive) or name.
pub fn lookup(key: &str) -> Option<RuleId> {
    let upper = key.to_ascii_uppercase();
    RuleId::parse(&upper).or_else(|| RuleId::ALL.iter().copied().find(|r| r.meta().name == key))
}

/// The rules a selector names, as the config's `rules:`/`select:`/
/// `ignore:`/`overrides:`, `--select`/`--ignore`, suppressions and
/// `platcheck rule` accept it (like ruff and buf): an id (`MG001`), a rule
/// name (`create-index-without-concurrently`), a family (`MG`), an id
/// prefix (`MG03`, or `MG03*`: MG030–MG039) or `ALL`. With how specific it
/// is (0 ALL, 1 family, 2 prefix, 3 one rule): a more specific entry wins.
/// A bare prefix selects like ruff's: a mistyped id that happens to be a
/// prefix (`CL12` for CL012) selects CL120–CL129, so `platcheck rules`
/// and the finding list show what was selected.
pub fn select(key: &str) -> Option<(u8, Vec<RuleId>)> {
    if let Some(id) = lookup(key) {
        return Some((3, vec![id]));
    }
    let upper = key.to_ascii_uppercase();
    if upper == "ALL" || upper == "*" {
        return Some((0, RuleId::ALL.to_vec()));
    }
    let prefix = upper.strip_suffix('*').unwrap_or(&upper);
    let shaped = prefix.len() >= 2
        && prefix.len() < 5
        && prefix[..2].chars().all(|c| c.is_ascii_uppercase())
        && prefix[2..].chars().all(|c| c.is_ascii_digit());
    if !shaped {
        return None;
    }
    let rules: Vec<RuleId> = RuleId::ALL
        .iter()
        .copied()
        .filter(|r| r.as_str().starts_with(prefix))
        .collect();
    let rank = if prefix.len() == 2 { 1 } else { 2 };
    (!rules.is_empty()).then_some((rank, rules))
}

/// Whether `key` (a selector) names `rule`.
pub fn selects(key: &str, rule: RuleId) -> bool {
    select(key).is_some_and(|(_, rules)| rules.contains(&rule))
}

/// Fills `{name}` placeholders of a template. A placeholder without a value
/// stays visible, so a missing argument shows in snapshots instead of hiding.
/// `{count?statement|statements}` picks the word by the number in `count`
/// (one, or any other), so messages say "1 statement" and "3 statements"
/// instead of "statement(s)".
pub fn render_template(template: &str, vars: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let inner = after.find('}').map(|close| (close, &after[..close]));
        match inner.and_then(|(close, body)| Some((close, placeholder(body)?))) {
            Some((close, (key, forms))) => {
                match (vars.iter().find(|(k, _)| *k == key), forms) {
                    (Some((_, v)), None) => out.push_str(v),
                    (Some((_, v)), Some((one, many))) => {
                        out.push_str(if v.trim() == "1" { one } else { many });
                    }
                    (None, _) => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Longest value a finding's message quotes whole. A message is one line
/// that every output format repeats (and a terminal wraps); a hostile or
/// merely huge value — a 100 KB enum value, a statement of a megabyte — is
/// quoted by its head and its size, and the help keeps the whole of it.
pub const MAX_QUOTED: usize = 240;

/// The message of a finding: the template with each value longer than
/// [`MAX_QUOTED`] bytes cut at a character boundary, marked `… [N bytes]`.
pub fn render_message(template: &str, vars: &[(&str, String)]) -> String {
    if vars.iter().all(|(_, v)| v.len() <= MAX_QUOTED) {
        return render_template(template, vars);
    }
    let short: Vec<(&str, String)> = vars
        .iter()
        .map(|(k, v)| (*k, bounded(v, MAX_QUOTED)))
        .collect();
    render_template(template, &short)
}

/// `v` itself when it fits in `max` bytes, else its head, an ellipsis and
/// its size.
pub fn bounded(v: &str, max: usize) -> String {
    if v.len() <= max {
        return v.to_string();
    }
    let mut cut = max;
    while !v.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… [{} bytes]", &v[..cut], v.len())
}

/// `1 cluster`, `2 clusters`: a count with its noun in the right number
/// (the same choice a template's `{n?one|many}` makes).
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `name`, or `name?one|many`: the variable and, for the plural form, the
/// two words.
fn placeholder(body: &str) -> Option<(&str, Option<(&str, &str)>)> {
    match body.split_once('?') {
        None => is_ident(body).then_some((body, None)),
        Some((key, forms)) => {
            let (one, many) = forms.split_once('|')?;
            let word = |w: &str| !w.contains(['{', '|', '?']);
            (is_ident(key) && word(one) && word(many)).then_some((key, Some((one, many))))
        }
    }
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Names of the placeholders a template uses.
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after
            .find('}')
            .and_then(|close| Some((close, placeholder(&after[..close])?)))
        {
            Some((close, (key, _))) => {
                out.push(key);
                rest = &after[close + 1..];
            }
            None => rest = after,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON build.rs prepares reads exactly as the YAML it came from,
    /// and it exists for every rule (a file outside the subset would be
    /// parsed as YAML on every run: correct, but the slow path).
    #[test]
    fn prepared_front_matter_matches_the_yaml() {
        for &id in RuleId::ALL {
            assert!(
                id.front_matter_json().is_some(),
                "{}: build.rs left the front matter to the YAML parser",
                id.doc_path()
            );
            let fast = embedded_doc(id).unwrap();
            let yaml = parse_doc(id, id.doc_source()).unwrap();
            assert_eq!(
                format!("{fast:?}"),
                format!("{yaml:?}"),
                "{}",
                id.doc_path()
            );
        }
    }

    #[test]
    fn template_fills_and_keeps_unknown() {
        let s = render_template("a {x} b {y} {not ident}", &[("x", "1".into())]);
        assert_eq!(s, "a 1 b {y} {not ident}");
        assert_eq!(placeholders("{a} and {b_c}"), vec!["a", "b_c"]);
    }

    #[test]
    fn template_pluralises_by_the_count() {
        let t = "{n} {n?statement|statements} {n?takes|take} locks {m?x|y}";
        let one = render_template(t, &[("n", "1".into())]);
        assert_eq!(one, "1 statement takes locks {m?x|y}");
        let three = render_template(t, &[("n", "3".into())]);
        assert_eq!(three, "3 statements take locks {m?x|y}");
        assert_eq!(
            render_template(t, &[("n", "0".into())]),
            "0 statements take locks {m?x|y}"
        );
        assert_eq!(placeholders(t), vec!["n", "n", "n", "m"]);
        // Not the plural form: left as written.
        assert_eq!(render_template("{n?a}", &[("n", "1".into())]), "{n?a}");
    }
}
