//! Reading platcheck.yaml into the settings: schema problems become PC003 /
//! PC008 findings against the config, every valid value is taken, an
//! invalid one keeps its default.
use super::{MAX_GLOB_BYTES, Settings, describe_issue};
use crate::catalog::RuleId;
use crate::contracts::schema::{self, SchemaKind};
use crate::contracts::units;
use crate::contracts::yaml::{self, Node};
use crate::emit::Report;
use crate::finding::Severity;
use crate::outcome::{FailOn, TodaySource};
use crate::source::SourceFile;

impl Settings {
    pub(super) fn apply_file(&mut self, src: &SourceFile) {
        let docs = match yaml::parse_documents(src) {
            Ok(d) => d,
            Err(e) => {
                self.problem(
                    RuleId::PC008,
                    e.span,
                    "",
                    format!("YAML error: {}", e.message),
                );
                return;
            }
        };
        let mut docs = docs.into_iter();
        let Some(root) = docs.next() else {
            let span = crate::source::Span::empty(0);
            self.problem(
                RuleId::PC008,
                span,
                "",
                "the file is empty; expected at least `version: 1`".into(),
            );
            return;
        };
        if let Some(extra) = docs.next() {
            self.problem(
                RuleId::PC008,
                extra.span,
                "",
                "expected one YAML document, found several".into(),
            );
        }
        for issue in schema::validate(SchemaKind::Config, &root) {
            // Rule ids under `rules:` are checked below, with a did-you-mean.
            if issue.pointer == "/rules" && issue.variant == "other" {
                continue;
            }
            if issue.rule == RuleId::PC003 {
                let mut r = Report::new(RuleId::PC003, 0, issue.span).pointer(issue.pointer);
                r.vars = issue.vars;
                self.problems.push(r);
            } else {
                let detail = describe_issue(&issue);
                self.problem(RuleId::PC008, issue.span, &issue.pointer, detail);
            }
        }
        self.read_values(&root);
        self.config_root = Some(root);
    }

    /// A glob longer than any path is refused where it is written: the glob
    /// compiler's literal matchers are quadratic in the length of periodic
    /// text (a 100 KB `aaa…` took minutes), and such a glob matches nothing.
    fn drop_huge_globs(&mut self, root: &Node) {
        for key in ["include", "exclude"] {
            let Some(list) = root.get(key) else { continue };
            for (i, n) in list.as_seq().iter().enumerate() {
                let Some(g) = n.as_str().filter(|g| g.len() > MAX_GLOB_BYTES) else {
                    continue;
                };
                let detail = format!(
                    "`{key}` glob {} is {} bytes, longer than the {MAX_GLOB_BYTES} bytes a glob may have (no path is that long; split it into several entries)",
                    i + 1,
                    g.len()
                );
                self.problem(RuleId::PC008, n.span, &format!("/{key}/{i}"), detail);
            }
        }
        // `include_at` runs beside `include`: drop the same entries from both,
        // or a later PC008 would point at the wrong line.
        let (include, at): (Vec<_>, Vec<_>) = std::mem::take(&mut self.include)
            .into_iter()
            .zip(std::mem::take(&mut self.include_at))
            .filter(|(g, _)| g.len() <= MAX_GLOB_BYTES)
            .unzip();
        self.include = include;
        self.include_at = at;
        self.exclude.retain(|g| g.len() <= MAX_GLOB_BYTES);
    }

    /// Takes every valid value; invalid ones were reported and keep their default.
    fn read_values(&mut self, root: &Node) {
        if let Some(d) = root
            .get("today")
            .and_then(Node::as_str)
            .and_then(|t| units::parse_date(t).ok())
        {
            self.today = d;
            self.today_source = TodaySource::Config;
        }
        if let Some(f) = root
            .get("fail_on")
            .and_then(Node::as_str)
            .and_then(FailOn::parse)
        {
            self.fail_on = f;
        }
        let strings = |n: Option<&Node>| -> Vec<String> {
            n.map(|n| {
                n.as_seq()
                    .iter()
                    .filter_map(|i| i.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
        };
        self.include.clear();
        self.include_at.clear();
        for (i, n) in root
            .get("include")
            .map(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let Some(p) = n.as_str() else { continue };
            let pointer = format!("/include/{i}");
            if crate::read::Scope::pattern_leaves_root(p) {
                self.problem(
                    RuleId::PC008,
                    n.span,
                    &pointer,
                    format!("include pattern `{p}` points outside the repository; patterns are relative to the directory of platcheck.yaml, and nothing outside it is checked"),
                );
            }
            self.include.push(p.to_string());
            self.include_at.push((pointer, n.span));
        }
        self.exclude = strings(root.get("exclude"));
        self.drop_huge_globs(root);
        if let Some(b) = root.get("baseline").and_then(Node::as_str) {
            self.baseline = Some(self.root.join(b));
        }
        if let Some(n) = root.get("max_file_size") {
            let text = n.scalar_text().unwrap_or_default();
            if let Ok(v) = units::parse_size(&text) {
                self.max_file_size = u64::try_from(v).unwrap_or(u64::MAX);
            }
        }
        if let Some(sql) = root.get("sql") {
            if let Some(d) = sql.get("dialect").and_then(Node::as_str) {
                self.sql.dialect = d.to_string();
            }
            if let Some(v) = sql.get("version").and_then(Node::scalar_text) {
                self.sql.version = v;
            }
            if let Some(r) = sql.get("large_table_rows").and_then(Node::scalar_text)
                && let Ok(r) = units::parse_rows(&r)
            {
                self.sql.large_table_rows = r;
            }
            if let Some(u) = sql.get("unknown_table_size").and_then(Node::as_str) {
                self.sql.unknown_small = u == "small";
            }
            if let Some(b) = sql.get("assume_in_transaction").and_then(Node::as_bool) {
                self.sql.assume_in_transaction = b;
            }
            if let Some(l) = sql.get("layout").and_then(Node::as_str) {
                self.sql.layout = Some(l.to_string());
            }
            if let Some(t) = sql.get("tool").and_then(Node::as_str) {
                self.sql.tool = Some(t.to_string());
            }
            if let Some(b) = sql.get("lint_down").and_then(Node::as_bool) {
                self.sql.lint_down = b;
            }
        }
        if let Some(probe) = root.get("probe") {
            if let Some(ms) = probe
                .get("timeout")
                .and_then(Node::scalar_text)
                .and_then(|t| units::Duration::parse(&t).ok())
                .and_then(|d| d.exact_millis())
                .filter(|&ms| ms > 0)
            {
                self.probe_config.1 = std::time::Duration::from_millis(ms.unsigned_abs());
            }
            if let Some(targets) = probe.get("targets") {
                for (k, v) in targets.entries() {
                    if let Some(env) = v.as_str() {
                        self.probe_config.0.insert(k.name.clone(), env.to_string());
                    }
                }
            }
        }
        if let Some(rules) = root.get("rules") {
            let mut entries = Vec::new();
            for (key, value) in rules.entries() {
                let pointer = format!("/rules/{}", key.name);
                match self.selector(&key.name, key.span, &pointer) {
                    Some((rank, ids)) => entries.push((rank, ids, value.as_str())),
                    None => continue,
                }
            }
            // `MG: warning` then `MG001: error`: the more specific wins.
            entries.sort_by_key(|(rank, _, _)| *rank);
            for (_, ids, value) in entries {
                for id in ids {
                    match value {
                        Some("off") => self.turn_off(id),
                        Some(s) => {
                            if let Some(sev) = Severity::parse(s) {
                                self.severities.insert(id, Some(sev));
                            }
                        }
                        None => {}
                    }
                }
            }
        }
        if let Some(sel) = root.get("select") {
            let mut keep = Vec::new();
            for (i, n) in sel.as_seq().iter().enumerate() {
                if let Some(k) = n.as_str()
                    && let Some((_, ids)) = self.selector(k, n.span, &format!("/select/{i}"))
                {
                    keep.extend(ids);
                }
            }
            self.config_select = Some(keep);
        }
        if let Some(ign) = root.get("ignore") {
            for (i, n) in ign.as_seq().iter().enumerate() {
                if let Some(k) = n.as_str()
                    && let Some((_, ids)) = self.selector(k, n.span, &format!("/ignore/{i}"))
                {
                    ids.into_iter().for_each(|r| self.turn_off(r));
                }
            }
        }
        if let Some(ovs) = root.get("overrides") {
            for (i, o) in ovs.as_seq().iter().enumerate() {
                self.file_override(o, i);
            }
        }
    }
}
