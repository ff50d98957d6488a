//! A small local runner for the composite action: it reads action.yml,
//! evaluates the `${{ … }}` expressions the way the runner would (inputs,
//! github.action_path, step outputs), runs each step with bash and real
//! GITHUB_OUTPUT / GITHUB_STEP_SUMMARY / GITHUB_PATH files, and checks the
//! annotations, the outputs and the summary on examples/violations. `uses:`
//! steps (the cache of `version: source`) are checked, not run.
mod common;
#[path = "support/release_server.rs"]
mod release_server;
use platcheck::contracts::yaml::{self, Node};
use platcheck::source::SourceFile;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn action() -> Node {
    let path = common::root().join("action.yml");
    let text = std::fs::read_to_string(&path).unwrap();
    let src = SourceFile::new("action.yml", &path, &text);
    yaml::parse_documents(&src).unwrap().remove(0)
}

/// Replaces `${{ expr }}` using `lookup`; panics on an unknown expression so
/// the runner never silently diverges from GitHub's.
fn eval(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("${{") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("}}").expect("closed expression") + i;
        let expr = rest[i + 3..end].trim();
        out.push_str(&lookup(expr).unwrap_or_else(|| panic!("unknown expression {expr}")));
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

fn read_kv(path: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            l.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect()
}

struct RunResult {
    stdout: String,
    failed: bool,
    outputs: BTreeMap<String, String>,
    summary: String,
}

fn run_action(workspace: &Path, inputs: &[(&str, &str)]) -> RunResult {
    run_action_with(workspace, inputs, &[])
}

/// The step-level `if:` of a `uses:` step, which this runner does not run:
/// it must be pinned to a commit and only run for `version: source`.
fn check_uses_step(step: &Node) {
    let uses = step.get("uses").and_then(Node::as_str).unwrap();
    let (_, pin) = uses.split_once('@').expect("uses: owner/repo@ref");
    assert!(
        pin.len() == 40 && pin.chars().all(|c| c.is_ascii_hexdigit()),
        "{uses}: pin actions to a commit"
    );
    let condition = step.get("if").and_then(Node::as_str).unwrap_or_default();
    assert_eq!(condition, "steps.plan.outputs.mode == 'source'", "{uses}");
}

fn run_action_with(workspace: &Path, inputs: &[(&str, &str)], env: &[(&str, &str)]) -> RunResult {
    let a = action();
    let mut values: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in a.get("inputs").unwrap().entries() {
        let default = v
            .get("default")
            .and_then(Node::scalar_text)
            .unwrap_or_default();
        values.insert(k.name.clone(), default);
    }
    let tmp = tempfile::tempdir().unwrap();
    // The default SARIF path is relative to the workspace, which here is the
    // repository itself: keep the report out of the source tree.
    let sarif = tmp.path().join("platcheck.sarif");
    values.insert("sarif-file".into(), sarif.display().to_string());
    for (k, v) in inputs {
        assert!(values.contains_key(*k), "unknown input {k}");
        values.insert(k.to_string(), v.to_string());
    }
    let summary = tmp.path().join("summary.md");
    let path_file = tmp.path().join("path");
    std::fs::write(&summary, "").unwrap();
    std::fs::write(&path_file, "").unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_platcheck"))
        .parent()
        .unwrap()
        .to_path_buf();
    let mut step_outputs: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut stdout = String::new();
    let mut failed = false;
    let mut extra_path: Vec<String> = Vec::new();
    for step in a.pointer("/runs/steps").unwrap().as_seq() {
        if step.get("uses").is_some() {
            check_uses_step(step);
            continue;
        }
        let id = step.get("id").and_then(Node::as_str).unwrap().to_string();
        let run = step.get("run").and_then(Node::as_str).unwrap();
        assert!(
            !run.contains("${{"),
            "step {id}: expressions must reach the shell only through env:"
        );
        let output_file = tmp.path().join(format!("output-{id}"));
        std::fs::write(&output_file, "").unwrap();
        let lookup = |expr: &str| -> Option<String> {
            if let Some(name) = expr.strip_prefix("inputs.") {
                return values.get(name).cloned();
            }
            match expr {
                "github.action_path" => Some(common::root().display().to_string()),
                // A local action (`uses: ./`) has neither; the token is the
                // job's and never reaches anything here.
                "github.action_ref" | "github.action_repository" | "github.token" => {
                    Some(String::new())
                }
                _ => None,
            }
        };
        let mut cmd = Command::new("bash");
        cmd.arg("-c").arg(run).current_dir(workspace);
        let mut path = std::env::var("PATH").unwrap_or_default();
        for p in extra_path
            .iter()
            .chain(std::iter::once(&bin_dir.display().to_string()))
        {
            path = format!("{p}:{path}");
        }
        cmd.env("PATH", path)
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_PATH", &path_file)
            .env("RUNNER_TEMP", tmp.path())
            .env("GITHUB_SERVER_URL", "https://github.com")
            .env("GITHUB_REPOSITORY", "platcheck/example")
            .env("GITHUB_SHA", "0123abc")
            .env("GITHUB_ACTIONS", "true");
        for (k, v) in step.get("env").map(Node::entries).unwrap_or_default() {
            cmd.env(&k.name, eval(&v.scalar_text().unwrap(), &lookup));
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        let o = cmd.output().unwrap();
        stdout.push_str(&String::from_utf8_lossy(&o.stdout));
        step_outputs.insert(id, read_kv(&output_file));
        extra_path = std::fs::read_to_string(&path_file)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        if !o.status.success() {
            failed = true;
            break;
        }
    }
    let mut outputs = BTreeMap::new();
    for (k, v) in a.get("outputs").unwrap().entries() {
        let expr = v.get("value").and_then(Node::as_str).unwrap();
        let value = eval(expr, &|e: &str| {
            let rest = e.strip_prefix("steps.")?;
            let (step, name) = rest.split_once(".outputs.")?;
            // A step that did not run has empty outputs, as on GitHub.
            Some(
                step_outputs
                    .get(step)
                    .and_then(|o| o.get(name))
                    .cloned()
                    .unwrap_or_default(),
            )
        });
        outputs.insert(k.name.clone(), value);
    }
    RunResult {
        stdout,
        failed,
        outputs,
        summary: std::fs::read_to_string(&summary).unwrap(),
    }
}

#[test]
fn action_annotates_writes_sarif_summary_and_outputs() {
    let ws = tempfile::tempdir().unwrap();
    let sarif = ws.path().join("out.sarif");
    let r = run_action(
        &common::root(),
        &[
            ("version", "preinstalled"),
            ("paths", "examples/violations"),
            ("sarif-file", sarif.to_str().unwrap()),
        ],
    );
    assert!(r.failed, "violations fail the step");
    assert!(
        r.stdout.contains("::error file=examples/violations/"),
        "{}",
        r.stdout
    );
    let errors = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error "))
        .count();
    assert!((1..=10).contains(&errors));
    let findings: usize = r.outputs["findings"].parse().unwrap();
    let expected = common::check(&[Path::new("examples/violations")])
        .findings
        .len();
    assert_eq!(findings, expected, "findings output counts every finding");
    assert_eq!(r.outputs["sarif-file"], sarif.display().to_string());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(
        doc["runs"][0]["results"].as_array().unwrap().len(),
        expected
    );
    assert!(r.summary.starts_with("## platcheck"), "{}", r.summary);
    assert!(
        !r.summary.contains("Launch checklist report"),
        "the report is opt-in"
    );
}

#[test]
fn action_appends_the_compact_report_to_the_step_summary() {
    let r = run_action(
        &common::root(),
        &[
            ("version", "preinstalled"),
            ("paths", "examples/violations"),
            ("report", "true"),
        ],
    );
    assert!(r.failed, "the report does not change the check's result");
    let (check, report) = r
        .summary
        .split_once("# Launch checklist report")
        .unwrap_or_else(|| panic!("no report in the summary: {}", r.summary));
    assert!(check.starts_with("## platcheck"));
    assert!(report.contains("- **Date used:** 2026-11-30 (from platcheck.yaml)"));
    let outcome = common::check(&[Path::new("examples/violations")]);
    for c in outcome.contracts.iter() {
        assert!(report.contains(&format!("[{}](", c.name)), "{}", c.name);
    }
    assert!(
        report.contains(
            "](https://github.com/platcheck/example/blob/0123abc/examples/violations/contracts/"
        ),
        "links point at the commit"
    );
    assert!(!report.contains("**1. "), "compact: no item details");
    let r = run_action(
        &common::root(),
        &[
            ("version", "preinstalled"),
            ("paths", "examples/clean"),
            ("report", "yes please"),
        ],
    );
    assert!(!r.failed);
    assert!(
        r.stdout
            .contains("::warning title=platcheck::report must be true or false")
    );
    assert!(!r.summary.contains("Launch checklist report"));
}

#[test]
fn action_passes_on_clean_and_honours_fail_on_and_config() {
    let r = run_action(
        &common::root(),
        &[("version", "preinstalled"), ("paths", "examples/clean")],
    );
    assert!(!r.failed, "{}", r.stdout);
    assert_eq!(r.outputs["findings"], "0");
    let r = run_action(
        &common::root(),
        &[
            ("version", "preinstalled"),
            ("paths", "examples/violations"),
            ("fail-on", "never"),
            ("config", "examples/violations/platcheck.yaml"),
            ("args", "--quiet"),
        ],
    );
    assert!(!r.failed, "fail-on never passes");
    assert_ne!(r.outputs["findings"], "0");
}

#[test]
fn action_rejects_an_unknown_version() {
    let r = run_action(&common::root(), &[("version", "latest-please")]);
    assert!(r.failed);
    assert!(
        r.stdout
            .contains("::error title=platcheck::version must be"),
        "{}",
        r.stdout
    );
}

#[test]
fn action_installs_the_release_of_its_own_version_by_default() {
    let (_dir, release) = release_server::pack("x86_64-unknown-linux-musl");
    let server = release_server::Server::start(release_server::release_files(&release));
    let url = server.releases_url();
    let r = run_action_with(
        &common::root(),
        &[("paths", "examples/violations")],
        &[
            ("PLATCHECK_RELEASES", url.as_str()),
            ("PLATCHECK_GH", "/nonexistent/gh"),
            ("RUNNER_OS", "Linux"),
            ("RUNNER_ARCH", "X64"),
        ],
    );
    assert!(
        r.stdout.contains(&format!(
            "installed platcheck {} in ",
            release_server::VERSION
        )),
        "{}",
        r.stdout
    );
    assert_eq!(server.requests().len(), 2, "SHA256SUMS and the archive");
    assert!(r.failed, "violations fail the step");
    assert!(r.stdout.contains("::error file=examples/violations/"));
    assert_ne!(r.outputs["findings"], "0");
}

/// Paths come from pull requests: a changed file named like an option is a
/// file, and a `*` is a character, not a glob.
#[test]
fn action_paths_can_never_become_flags_or_globs() {
    let ws = tempfile::tempdir().unwrap();
    let trap = "--output=gcc=platcheck.yaml";
    std::fs::copy(
        common::root().join("tests/fixtures/pc/PC004/bad.yaml"),
        ws.path().join(trap),
    )
    .unwrap();
    std::fs::write(ws.path().join("other.yaml"), "not: [a contract\n").unwrap();
    let r = run_action(ws.path(), &[("version", "preinstalled"), ("paths", trap)]);
    assert!(r.failed);
    assert!(
        r.stdout.contains(&format!("::error file={trap},line=3,")),
        "the file is checked: {}",
        r.stdout
    );
    assert!(
        !ws.path().join("platcheck.yaml").exists(),
        "no gcc output was written"
    );
    let r = run_action(
        ws.path(),
        &[("version", "preinstalled"), ("paths", "*.yaml")],
    );
    assert!(
        r.stdout.contains("::error file=*.yaml,") && r.stdout.contains("PC001"),
        "the literal path reaches platcheck: {}",
        r.stdout
    );
    assert!(!r.stdout.contains("file=other.yaml"), "{}", r.stdout);
}

/// `paths:` names files, but the whole repository is the context: a
/// migration named alone is judged with the Cluster that marks its table hot.
#[test]
fn action_paths_are_checked_with_the_whole_repository() {
    let ws = tempfile::tempdir().unwrap();
    common::copy_tree(&common::root().join("examples/clean"), ws.path(), None);
    let risky = "migrations/orders-db/0008_index_status.sql";
    std::fs::write(
        ws.path().join(risky),
        "CREATE INDEX idx_orders_status ON orders (status);\n",
    )
    .unwrap();
    let r = run_action(ws.path(), &[("version", "preinstalled"), ("paths", risky)]);
    assert!(r.failed, "{}", r.stdout);
    assert!(
        r.stdout.contains(&format!("::error file={risky},line=1,")) && r.stdout.contains("MG001"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("orders (hot table)"), "{}", r.stdout);
    assert!(!r.stdout.contains("file=contracts/"), "{}", r.stdout);
}
