//! The language server driven by a real client: headless Neovim opens a
//! migration of a copy of `examples/violations`, receives the published
//! diagnostics (MG001 is an error there because the Cluster contract, a
//! different file, lists `orders` as hot), and applies the MG001 quick fix.
//! Without `nvim` this fails, saying how to install it (`.ci/neovim.sh`);
//! `PLATCHECK_EDITOR_TESTS=0` skips it with a printed reason.
mod common;
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn neovim_shows_diagnostics_and_applies_a_quick_fix() {
    if std::env::var("PLATCHECK_EDITOR_TESTS").as_deref() == Ok("0") {
        println!("PLATCHECK_EDITOR_TESTS=0: the Neovim client test is skipped");
        return;
    }
    let nvim = std::env::var("PLATCHECK_NVIM").unwrap_or_else(|_| "nvim".into());
    let version = Command::new(&nvim).arg("--version").output().unwrap_or_else(|e| {
        panic!(
            "`{nvim}` cannot run ({e}): install Neovim (`bash .ci/neovim.sh`, i.e. `apt-get install -y neovim`), \
             point PLATCHECK_NVIM at it, or set PLATCHECK_EDITOR_TESTS=0 to skip this test"
        )
    });
    assert!(version.status.success(), "`{nvim} --version` failed");
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    common::copy_tree(&common::root().join("examples/violations"), &root, None);
    let file = root.join("migrations/legacy-shop-db/V2__index_orders_customer.sql");
    let out = tmp.path().join("nvim.json");
    let script = common::root().join("tests/editor/nvim_client.lua");
    let mut child = Command::new(&nvim)
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("PLATCHECK_BIN", env!("CARGO_BIN_EXE_platcheck"))
        .env("PLATCHECK_ROOT", &root)
        .env("PLATCHECK_FILE", &file)
        .env("PLATCHECK_NVIM_OUT", &out)
        .env("XDG_CONFIG_HOME", tmp.path().join("config"))
        .env("XDG_DATA_HOME", tmp.path().join("data"))
        .env("XDG_STATE_HOME", tmp.path().join("state"))
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A guard against a hung editor, not a speed assertion.
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            panic!("nvim did not finish");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let stderr = {
        let mut s = String::new();
        use std::io::Read;
        child.stderr.take().unwrap().read_to_string(&mut s).unwrap();
        s
    };
    let text = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("nvim wrote no result ({e}); stderr: {stderr}"));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert!(
        v.get("error").is_none(),
        "the client script failed: {}\n{stderr}",
        v["error"]
    );
    // What Neovim received for the opened file.
    let uri = platcheck::lsp::path_to_uri(&file).unwrap();
    let diags: Vec<&Value> = v["published"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["uri"] == uri.as_str())
        .flat_map(|p| p["diagnostics"].as_array().unwrap())
        .collect();
    let mg001 = diags
        .iter()
        .find(|d| d["code"] == "MG001")
        .unwrap_or_else(|| panic!("no MG001 among {diags:?}"));
    assert_eq!(
        mg001["severity"], 1,
        "an error: orders is hot in the Cluster contract"
    );
    assert!(
        mg001["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("/rules/mg/MG001.md")
    );
    for rule in ["MG030", "MG031"] {
        assert!(
            diags.iter().any(|d| d["code"] == rule),
            "{rule} missing: {diags:?}"
        );
    }
    // Other files of the workspace were published too.
    assert!(
        v["published"].as_array().unwrap().iter().any(|p| p["uri"]
            .as_str()
            .unwrap()
            .ends_with("/contracts/legacy/search-db.yaml")),
        "no workspace diagnostics"
    );
    assert_eq!(v["applied"], true, "actions offered: {}", v["actions"]);
    let fixed = std::fs::read_to_string(&file).unwrap();
    assert!(
        fixed.contains(
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_orders_customer ON orders (customer_id);"
        ),
        "{fixed}"
    );
    assert!(
        fixed.starts_with("-- Speeds up the customer's order history page.\n"),
        "{fixed}"
    );
    let conf = std::fs::read_to_string(file.with_extension("sql.conf")).unwrap();
    // Neovim writes a created buffer with its own final newline after the
    // inserted one; the property is what matters.
    assert_eq!(conf.trim_end(), "executeInTransaction=false");
}
