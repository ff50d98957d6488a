//! Scale and hardening: output independent of scheduling, and one crashing
//! file isolated from the rest of the run.
mod common;
use platcheck::RuleId;
use std::path::Path;
use std::process::Command;

fn json_with_threads(threads: usize, path: &Path) -> String {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| common::json(&common::check(&[path])))
}

#[test]
fn output_is_byte_identical_across_thread_counts() {
    for dir in ["examples/violations", "examples/clean", "tests/fixtures"] {
        let one = json_with_threads(1, Path::new(dir));
        let many = json_with_threads(8, Path::new(dir));
        assert_eq!(one, many, "{dir}: output depends on scheduling");
    }
}

#[test]
fn a_panicking_file_becomes_pc000_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("platcheck.yaml"), "version: 1\ntoday: 2026-11-30\n").unwrap();
    for name in ["a", "b", "c"] {
        let text = format!(
            "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: {name}-db\n  owner: t\nspec:\n  unknown_key: 1\n"
        );
        std::fs::write(d.join(format!("{name}.yaml")), text).unwrap();
    }
    let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["check", "--format", "json"])
        .current_dir(d)
        .env("PLATCHECK_INJECT_PANIC", "b.yaml")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "an internal error makes the result incomplete"
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    let pairs: Vec<(&str, &str)> = findings
        .iter()
        .map(|f| (f["file"].as_str().unwrap(), f["rule"].as_str().unwrap()))
        .collect();
    assert!(
        pairs.contains(&("b.yaml", RuleId::PC000.as_str())),
        "{pairs:?}"
    );
    assert!(
        pairs.contains(&("a.yaml", "PC003")) && pairs.contains(&("c.yaml", "PC003")),
        "{pairs:?}"
    );
    let pc000 = findings.iter().find(|f| f["rule"] == "PC000").unwrap();
    assert!(
        pc000["message"]
            .as_str()
            .unwrap()
            .contains("internal error, please report")
    );
}

/// Runs `platcheck check --format json .` on a temporary repository:
/// the exit code (a signal is a failure) and the findings.
fn check_dir(files: &[(&str, String)]) -> (i32, Vec<serde_json::Value>) {
    let tmp = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = tmp.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["check", "--format", "json", "."])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let code = o
        .status
        .code()
        .expect("killed by a signal (stack overflow?)");
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    (code, doc["findings"].as_array().unwrap().clone())
}

fn at(f: &[serde_json::Value], rule: &str) -> Vec<(String, u64, u64)> {
    f.iter()
        .filter(|f| f["rule"] == rule)
        .map(|f| {
            let n = |k: &str| f[k].as_u64().unwrap();
            (
                f["file"].as_str().unwrap().to_string(),
                n("line"),
                n("column"),
            )
        })
        .collect()
}

fn nested(n: usize, inner: &str) -> String {
    format!("{}{inner}{}", "(".repeat(n), ")".repeat(n))
}

#[test]
fn a_deeply_nested_gate_pattern_is_a_located_mr003() {
    let pat = nested(50_000, "asyncio");
    let doc = format!(
        "# P (Python)\n\n## A\n\nx\n\n## Python-specific implementation patterns\n\n### Mirrored-section grep gate\n\n- **Runtime** — `{pat}`.\n\nRun:\n\n```\nawk '/^## Python-specific implementation patterns/{{exit}} 1' d.md | grep -nE '({pat})'\n```\n"
    );
    let (code, f) = check_dir(&[("d.md", doc)]);
    let mr003 = at(&f, "MR003");
    assert!(mr003.contains(&("d.md".to_string(), 16, 79)), "{mr003:?}");
    let msg = f.iter().find(|f| f["rule"] == "MR003").unwrap()["message"]
        .as_str()
        .unwrap();
    assert!(msg.contains("nested more than 100 deep"), "{msg}");
    // The 100 KB token is quoted by its head and its size, not whole.
    assert!(msg.contains(&format!("… [{} bytes]", pat.len())), "{msg}");
    for f in f.iter().filter(|f| f["rule"] == "MR003") {
        let m = f["message"].as_str().unwrap();
        assert!(m.len() < 1000, "{} bytes: {}", m.len(), &m[..200]);
    }
    assert_eq!(code, 1);
}

#[test]
fn deeply_nested_config_tokens_are_a_located_mr003() {
    let cfg = format!(
        "version: 1\ntoday: 2026-11-30\nmirror_gates:\n  - name: g\n    files: \"*.md\"\n    tokens: [\"{}\"]\n",
        nested(50_000, "a")
    );
    let doc = "# T\n\nx a\n\n## Python-specific implementation patterns\n".to_string();
    let (code, f) = check_dir(&[("platcheck.yaml", cfg), ("e.md", doc)]);
    assert_eq!(
        at(&f, "MR003"),
        vec![("platcheck.yaml".to_string(), 6, 14)],
        "{f:?}"
    );
    assert_eq!(code, 1);
}

#[test]
fn deeply_nested_sql_is_a_located_pc009_and_the_file_goes_on() {
    let sql = format!(
        "SELECT {};\nCREATE INDEX i ON t (a);\n",
        nested(50_000, "1")
    );
    let (code, f) = check_dir(&[("m.sql", sql)]);
    // "SELECT" is token 1, so the 20,001st token (the first the analysis
    // did not keep) is the 20,000th `(`, at column 7 + 20,000.
    assert_eq!(at(&f, "PC009"), vec![("m.sql".to_string(), 1, 20_007)]);
    let pc009 = f.iter().find(|f| f["rule"] == "PC009").unwrap();
    // A limit hit fails closed: the statement was not read to its end.
    assert_eq!(pc009["severity"], "error");
    assert_eq!(at(&f, "MG001"), vec![("m.sql".to_string(), 2, 1)]);
    assert_eq!(code, 1);
}

/// The clean example's Python/Go pair with `extra` lines added to the start
/// of one section of each.
fn sibling_pair(python_extra: &str, go_extra: &str) -> Vec<(&'static str, String)> {
    let root = common::root().join("examples/clean/docs/architecture");
    let mut out = Vec::new();
    for (stack, extra, name) in [
        ("python", python_extra, "docs/python/read-model-sync.md"),
        ("go", go_extra, "docs/go/read-model-sync.md"),
    ] {
        let text = std::fs::read_to_string(root.join(stack).join("read-model-sync.md")).unwrap();
        let anchor = "## Projection ownership\n";
        assert!(text.contains(anchor));
        out.push((
            name,
            text.replacen(anchor, &format!("{anchor}\n{extra}"), 1),
        ));
    }
    out
}

#[test]
fn sibling_sections_too_different_to_diff_are_reported_where_they_start() {
    let lines = |tag: &str| {
        (0..3000)
            .map(|i| format!("{tag} line {i}\n"))
            .collect::<String>()
    };
    let (code, f) = check_dir(&sibling_pair(&lines("py"), &lines("go")));
    let mr004: Vec<_> = f.iter().filter(|f| f["rule"] == "MR004").collect();
    assert_eq!(mr004.len(), 1, "{f:?}");
    let m = mr004[0]["message"].as_str().unwrap();
    assert!(
        m.contains("3000 lines here against 3000 there, more than the 4000"),
        "{m}"
    );
    assert_eq!(mr004[0]["line"], 17, "the first differing line");
    assert_eq!(code, 1);
}

#[test]
fn a_small_drift_in_a_large_section_is_diffed() {
    let same: String = (0..20_000).map(|i| format!("shared line {i}\n")).collect();
    let (code, f) = check_dir(&sibling_pair(
        &format!("{same}python only\n"),
        &format!("{same}go only\n"),
    ));
    let mr004: Vec<_> = f.iter().filter(|f| f["rule"] == "MR004").collect();
    assert_eq!(mr004.len(), 1, "{f:?}");
    assert!(
        mr004[0]["message"]
            .as_str()
            .unwrap()
            .contains("(1 diff hunk)")
    );
    let help = mr004[0]["help"].as_str().unwrap();
    assert!(
        help.contains("python only") && help.contains("go only"),
        "{help}"
    );
    assert_eq!(code, 1);
}
