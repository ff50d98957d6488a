//! A run that names one file gives that file the findings the whole-repository
//! run gives it, on a generated repository whose findings cross files (an
//! event whose cluster is gone, two clusters with one name, a migration
//! judged by its cluster's hot tables, a consumer group two boundaries
//! own), with the contract cache cold, warm by content and warm by stat.
mod common;
use common::{about, checked_files, copy_tree, root, run_at as run};
use std::collections::BTreeSet;
use std::path::Path;

/// Suffixes the identifiers other contracts refer to, as `bench/gen.py` does,
/// so that a copied unit of the shop still resolves within itself.
fn suffixed(text: &str, sfx: &str) -> String {
    const KEYS: [&str; 10] = [
        "name",
        "service",
        "topic",
        "group",
        "destination",
        "event_type",
        "cluster",
        "public_alias",
        "downstream",
        "owner",
    ];
    let mut out = String::new();
    for line in text.lines() {
        let body = line.trim_start().trim_start_matches("- ");
        let lead = &line[..line.len() - body.len()];
        let id = KEYS.iter().find_map(|k| {
            let v = body.strip_prefix(k)?.strip_prefix(": ")?;
            let end = v
                .find(|c: char| !(c.is_ascii_alphanumeric() || "_.-".contains(c)))
                .unwrap_or(v.len());
            (end > 0).then(|| format!("{lead}{k}: {}{sfx}{}", &v[..end], &v[end..]))
        });
        out.push_str(&id.unwrap_or_else(|| line.to_string()));
        out.push('\n');
    }
    out
}

fn generate(dir: &Path) {
    let clean = root().join("examples/clean");
    copy_tree(&clean, dir, Some(".platcheck_cache"));
    for unit in 1..=3 {
        let sfx = format!("-{unit:04}");
        for kind in ["clusters", "events"] {
            for entry in std::fs::read_dir(clean.join("contracts").join(kind)).unwrap() {
                let p = entry.unwrap().path();
                let text = std::fs::read_to_string(&p).unwrap();
                let stem = p.file_stem().unwrap().to_string_lossy();
                let to = dir.join(format!("contracts/{kind}/{stem}{sfx}.yaml"));
                std::fs::write(to, suffixed(&text, &sfx)).unwrap();
            }
        }
    }
    // Unit 1's events lose their cluster; unit 2's payments cluster takes
    // the name of unit 0's.
    std::fs::remove_file(dir.join("contracts/clusters/orders-db-0001.yaml")).unwrap();
    let p = dir.join("contracts/clusters/payments-db-0002.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        text.replace("name: payments-db-0002", "name: payments-db"),
    )
    .unwrap();
    // Unit 3's webhook consumers join unit 0's fulfilment group under
    // another owner: EV111 compares boundaries across files.
    let p = dir.join("contracts/events/merchant-webhooks-0003.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    let joined = text.replace(
        "group: merchant-webhook-dispatcher-0003",
        "group: fulfilment-order-intake",
    );
    assert_ne!(joined, text);
    std::fs::write(&p, joined).unwrap();
    // A blocking index on a table that only the cluster contract calls hot.
    std::fs::write(
        dir.join("migrations/orders-db/0008_index_orders_note.sql"),
        "CREATE INDEX orders_note_idx ON orders (note);\n",
    )
    .unwrap();
}

#[test]
fn one_named_file_gets_what_the_whole_run_gives_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    generate(dir);
    // Old enough for the cache to record the files' stats (contracts::cache::stat).
    std::thread::sleep(std::time::Duration::from_millis(2_100));
    let whole = run(dir, ".");
    let rules: BTreeSet<&str> = whole.findings.iter().map(|f| f.rule.as_str()).collect();
    let files = checked_files(&whole);
    assert!(files.len() > 40, "{files:?}");
    let mut compared = 0;
    for f in &files {
        let expected = about(&whole, f);
        // Twice: by then every other file comes from the cache by stat.
        for pass in ["first", "again"] {
            assert_eq!(about(&run(dir, f), f), expected, "{f} ({pass})");
        }
        compared += usize::from(!expected.is_empty());
    }
    assert!(dir.join(".platcheck_cache/contracts.bin").is_file());
    assert!(
        compared >= 5,
        "only {compared} files had findings: {rules:?}"
    );
    // The findings that need another file: the lost cluster (EV034), the
    // shared name (PC007), the hot table's blocking index (an error).
    for rule in ["EV034", "PC007", "MG001"] {
        assert!(rules.contains(rule), "{rule} not in {rules:?}");
    }
    let index = about(&whole, "migrations/orders-db/0008_index_orders_note.sql");
    assert!(
        index.iter().any(|l| l.contains(" error MG001 ")),
        "{index:#?}"
    );
}
