//! `platcheck gate` against the documents' own `awk … | grep -nE …` command.
//!
//! For every base document (the reference documents in
//! tests/fixtures/inputs/mirror and the example docs) and hundreds of
//! variants generated from them with a seeded PRNG (forbidden tokens and near
//! misses injected at random lines above the gate section: in prose, inline
//! code, headings, list items, fenced blocks, with CRLF endings, next to
//! non-ASCII letters), the document's own command runs through bash under
//! `LC_ALL=C.UTF-8` and its output must equal platcheck's byte for byte; the
//! lines of `platcheck check`'s MR001 findings must be the same line set.
mod common;
use platcheck::RuleId;
use platcheck::mirror::{config::Gate, doc::Doc, gate_cmd, section};
use platcheck::settings::Overrides;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const BASES: &[&str] = &[
    "tests/fixtures/inputs/mirror/python-service-architecture/references/event-driven-architecture.md",
    "tests/fixtures/inputs/mirror/python-service-architecture/references/data-platform-architecture.md",
    "tests/fixtures/inputs/mirror/go-microservice-architecture/references/event-driven-architecture.md",
    "examples/clean/docs/architecture/python/read-model-sync.md",
    "examples/clean/docs/architecture/go/read-model-sync.md",
    "examples/violations/docs/architecture/python/read-model-sync.md",
    "examples/violations/docs/architecture/go/read-model-sync.md",
];
const VARIANTS_PER_BASE: usize = 90;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// The document's own command and the file name it reads.
fn own_command(text: &str) -> (String, String) {
    let d = Doc::parse(text, &Gate::from_document().boundary);
    let s = section::find(&d).expect("base document has a gate section");
    let c = s.command.expect("gate section has a command");
    let file = c
        .parsed
        .and_then(|p| p.file)
        .expect("command names its file");
    (c.text, file)
}

/// A literal string a simple token matches (`\bsqlx\b` → `sqlx`), or None
/// for tokens too regex-like to sample.
fn sample(token: &str) -> Option<String> {
    let t = token
        .replace("(^|[^[:alnum:]_])", "")
        .replace(r"\*?", "*")
        .replace(r"\b", "");
    let mut out = String::new();
    let mut chars = t.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '[' | ']' | '(' | ')' | '|' | '?' | '*' | '+' | '{' | '^' | '$' | '.' => {
                if c == '*' && out.is_empty() {
                    out.push('*');
                } else {
                    return None;
                }
            }
            c => out.push(c),
        }
    }
    (!out.is_empty()).then_some(out)
}

fn tokens_of(text: &str) -> Vec<String> {
    let (cmd, _) = own_command(text);
    let parsed = platcheck::mirror::shell::gate_command(&cmd).unwrap();
    platcheck::mirror::shell::alternatives(&parsed.grep_pattern)
        .iter()
        .filter_map(|t| sample(t))
        .collect()
}

/// A string to inject: a token, or a near miss that tests word boundaries.
fn payload(rng: &mut Rng, samples: &[String]) -> String {
    let s = rng.pick(samples).clone();
    let before = ["", "", "x", "_", "é", "*", "(", "my", " ", "`", "9"];
    let after = ["", "", "s", "_x", "é", ")", ".", "()", "`", "2"];
    format!("{}{s}{}", rng.pick(&before), rng.pick(&after))
}

/// Inserts 1–4 injections at random lines above the gate section.
fn mutate(rng: &mut Rng, base: &str, samples: &[String], limit: usize) -> String {
    let mut lines: Vec<String> = base.split('\n').map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        let p = payload(rng, samples);
        let at = rng.below(limit.min(lines.len()));
        let crlf = if rng.below(10) == 0 { "\r" } else { "" };
        match rng.below(8) {
            // Splicing into a fence line or the boundary heading would break
            // the document itself (an unclosed fence, a missing boundary),
            // which MR002/MR003 report instead: not a parity case.
            0 if !spliceable(&lines[at]) => {}
            0 => {
                let line = &mut lines[at];
                let cut: Vec<usize> = line.char_indices().map(|(i, _)| i).collect();
                let pos = if cut.is_empty() { 0 } else { *rng.pick(&cut) };
                line.insert_str(pos, &p);
            }
            1 => lines.insert(at, format!("Inline `{p}` in prose.{crlf}")),
            2 => lines.insert(at, format!("## Using {p} here{crlf}")),
            3 => lines.insert(at, format!("### {p}{crlf}")),
            4 => {
                lines.insert(at, "```".into());
                lines.insert(at + 1, format!("    {p}{crlf}"));
                lines.insert(at + 2, "```".into());
            }
            5 => lines.insert(at, format!("- **{p}** — a bullet{crlf}")),
            6 => lines.insert(at, format!("| {p} | cell |{crlf}")),
            _ => lines.insert(at, format!("{p}{crlf}")),
        }
    }
    lines.join("\n")
}

fn spliceable(line: &str) -> bool {
    let t = line.trim_start();
    !(t.starts_with("```")
        || t.starts_with("~~~")
        || t.contains("-specific implementation patterns"))
}

fn grep_output(dir: &Path, cmd: &str) -> String {
    let out = Command::new("bash")
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .output()
        .expect("bash runs");
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "grep failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("grep prints UTF-8")
}

fn lines_of(grep: &str) -> BTreeSet<usize> {
    grep.lines()
        .map(|l| l.split(':').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn gate_prints_exactly_what_the_documents_pipeline_prints() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x005e_ed0f_9a7e);
    let (mut checked, mut with_hits, mut without) = (0, 0, 0);
    for base_path in BASES {
        let base = std::fs::read_to_string(common::root().join(base_path)).unwrap();
        let (cmd, file) = own_command(&base);
        let samples = tokens_of(&base);
        assert!(samples.len() >= 3, "{base_path}: too few samplable tokens");
        let gate_line = base
            .lines()
            .position(|l| l.contains("Mirrored-section grep gate") && l.starts_with('#'))
            .unwrap();
        for v in 0..=VARIANTS_PER_BASE {
            let text = if v == 0 {
                base.clone()
            } else {
                mutate(&mut rng, &base, &samples, gate_line)
            };
            let dir = tmp.path().join(format!("v{checked}"));
            std::fs::create_dir_all(&dir).unwrap();
            let path: PathBuf = dir.join(&file);
            std::fs::write(&path, &text).unwrap();

            let expected = grep_output(&dir, &cmd);
            let got =
                gate_cmd::run(std::slice::from_ref(&path), &dir, &Overrides::default()).unwrap();
            assert!(got.errors.is_empty(), "{base_path} v{v}: {:?}", got.errors);
            assert_eq!(
                got.text, expected,
                "{base_path} variant {v}: platcheck gate differs from the pipeline\n--- variant ---\n{text}"
            );
            assert_eq!(got.hits, expected.lines().count());
            if v % 6 == 0 {
                // `check` honours suppressions, grep does not: neutralise them
                // (same line count) before comparing the line sets.
                let unsuppressed = text.replace("platcheck-ignore", "platcheck-note");
                std::fs::write(&path, &unsuppressed).unwrap();
                let outcome = common::check(&[&path]);
                let mr001: BTreeSet<usize> = outcome
                    .findings
                    .iter()
                    .filter(|f| f.rule == RuleId::MR001)
                    .map(|f| f.line)
                    .collect();
                assert_eq!(mr001, lines_of(&expected), "{base_path} variant {v}: check");
            }
            checked += 1;
            if expected.is_empty() {
                without += 1;
            } else {
                with_hits += 1;
            }
        }
    }
    assert!(checked >= 500, "only {checked} variants");
    assert!(
        with_hits >= 300 && without >= 7,
        "variants must exercise both outcomes: {with_hits} with hits, {without} without"
    );
}

#[test]
fn gate_command_exit_codes_and_multi_file_headers() {
    let gate = |files: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_platcheck"))
            .arg("gate")
            .args(files)
            .current_dir(common::root())
            .env("NO_COLOR", "1")
            .output()
            .expect("binary runs")
    };
    let clean = gate(&["examples/clean/docs/architecture/python/read-model-sync.md"]);
    assert_eq!(clean.status.code(), Some(0));
    assert!(clean.stdout.is_empty());
    let two = gate(&[
        "examples/violations/docs/architecture/python/read-model-sync.md",
        "examples/violations/docs/architecture/go/read-model-sync.md",
    ]);
    assert_eq!(two.status.code(), Some(1));
    let out = String::from_utf8(two.stdout).unwrap();
    common::versionless(|| insta::assert_snapshot!("gate_two_files", out));
    // A README has no gate: naming it is a usage error, not a silent pass.
    assert_eq!(gate(&["CONTRIBUTING.md"]).status.code(), Some(2));
}

#[test]
fn markdown_suppression_silences_mr001_on_the_next_line() {
    let bad = Path::new("tests/fixtures/mr/MR001/bad/bad.md");
    let outcome = common::check(&[bad]);
    let lines: Vec<usize> = outcome
        .findings
        .iter()
        .filter(|f| f.rule == RuleId::MR001)
        .map(|f| f.line)
        .collect();
    // Line 11 (`goroutine`) follows `<!-- platcheck-ignore MR001: … -->`.
    assert_eq!(lines, vec![6]);
    assert_eq!(outcome.summary.suppressed, 1);
    assert!(outcome.findings.iter().all(|f| f.rule != RuleId::PC010));
    // The gate is the raw grep view: it still prints the suppressed line.
    let run = gate_cmd::run(
        &[common::root().join(bad)],
        &common::root(),
        &Overrides::default(),
    )
    .unwrap();
    assert_eq!(lines_of(&run.text), BTreeSet::from([6, 11]));
}

/// The translation itself, beyond the documents' tokens: random EREs over a
/// small alphabet against a fixed corpus, grep -E deciding.
#[test]
fn random_eres_match_the_lines_grep_matches() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = "ab\na.b\n(ab)\n[x]\nab{2}\né_a\nx ab y\nsql.DB\n*sql.DB\nmysql.DB\n\nA-B\na|b\n";
    std::fs::write(tmp.path().join("corpus.txt"), corpus).unwrap();
    let atoms = [
        "a",
        "b",
        ".",
        "\\.",
        "[ab]",
        "[^a]",
        "[[:alnum:]_]",
        "[[:punct:]]",
        "\\b",
        "\\<",
        "\\>",
        "\\w",
        "é",
        "sql",
        "-",
        "^",
        "$",
        "(a|b)",
        "(^|[^[:alnum:]_])",
        "{",
        "(",
        ")",
        "[",
        "\\2",
        "[[:nope:]]",
    ];
    let quants = ["*", "+", "?", "{2}", "{1,}", "{,2}", "{3,1}"];
    let mut rng = Rng(0x0bad_cafe_1234);
    let (mut compared, mut rejected) = (0, 0);
    for _ in 0..800 {
        let mut ere = String::new();
        for _ in 0..1 + rng.below(5) {
            ere.push_str(atoms[rng.below(atoms.len())]);
            if rng.below(3) == 0 {
                ere.push_str(quants[rng.below(quants.len())]);
            }
            if rng.below(8) == 0 {
                ere.push('|');
            }
        }
        let out = Command::new("grep")
            .args(["-nE", "--", &ere, "corpus.txt"])
            .current_dir(tmp.path())
            .env("LC_ALL", "C.UTF-8")
            .output()
            .unwrap();
        let ours = platcheck::mirror::ere::compile(&ere);
        if out.status.code() == Some(2) {
            assert!(
                ours.is_err(),
                "grep rejects `{ere}` but platcheck accepts it"
            );
            rejected += 1;
            continue;
        }
        // The documented refusals: quantifiers repeating nothing or an anchor.
        if ours.as_ref().is_err_and(|e| {
            ["after an anchor", "repeats nothing", "ambiguous"]
                .iter()
                .any(|r| e.contains(r))
        }) {
            continue;
        }
        let re = ours.unwrap_or_else(|e| panic!("grep accepts `{ere}`, platcheck: {e}"));
        let want = lines_of(&String::from_utf8(out.stdout).unwrap());
        let got: BTreeSet<usize> = corpus
            .split('\n')
            .enumerate()
            .take(corpus.lines().count())
            .filter(|(_, l)| re.is_match(l))
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(got, want, "ERE `{ere}`");
        compared += 1;
    }
    assert!(
        compared >= 300 && rejected >= 50,
        "{compared} compared, {rejected} rejected"
    );
}
