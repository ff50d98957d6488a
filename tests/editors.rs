//! The editor setups under `editors/` launch `platcheck lsp` and stay in
//! step with the crate (the Neovim one is exercised for real by
//! tests/lsp_nvim.rs; VS Code and Helix cannot run here, so their shape is
//! checked).
use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn vscode_extension_launches_the_server_of_this_version() {
    let pkg: serde_json::Value =
        serde_json::from_str(&read("editors/vscode/package.json")).unwrap();
    assert_eq!(
        pkg["version"],
        env!("CARGO_PKG_VERSION"),
        "editors/vscode/package.json version"
    );
    assert_eq!(pkg["main"], "./extension.js");
    assert!(pkg["dependencies"]["vscode-languageclient"].is_string());
    let ext = read("editors/vscode/extension.js");
    assert!(
        ext.contains(r#""lsp"]"#),
        "extension.js runs `platcheck lsp`"
    );
    assert!(ext.contains("module.exports = { activate, deactivate }"));
}

#[test]
fn helix_and_neovim_setups_run_platcheck_lsp() {
    let helix = read("editors/helix/languages.toml");
    assert!(
        helix.contains("[language-server.platcheck]\ncommand = \"platcheck\"\nargs = [\"lsp\"]")
    );
    for lang in ["sql", "yaml", "markdown"] {
        assert!(
            helix.contains(&format!("name = \"{lang}\"")),
            "helix: {lang}"
        );
    }
    let nvim = read("editors/neovim/platcheck.lua");
    assert_eq!(nvim.matches(r#"cmd = { "platcheck", "lsp" }"#).count(), 2);
}
