//! The HTML report in a real browser: headless Chromium renders the page for
//! examples/violations to a screenshot and dumps its DOM. The DOM must hold
//! every contract with the statuses the model computed, and Chromium's own
//! network log must show no request made on the page's behalf (a control
//! page with an external image proves the detector sees such requests).
//!
//! Chromium is required: the test fails when it is missing, unless
//! PLATCHECK_BROWSER_TESTS=0 is set (`.ci/browser.sh` installs it).
mod common;
use platcheck::engine;
use platcheck::report::model::{self, Status};
use platcheck::settings::Overrides;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PLATCHECK_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// Runs Chromium on a file with the flags of the CI, a resolver that
/// resolves nothing and a network log; returns stdout.
fn browse(bin: &Path, page: &Path, work: &Path, extra: &[&str], netlog: &Path) -> String {
    let profile = tempfile::tempdir_in(work).unwrap();
    let out = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--log-net-log={}", netlog.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// URLs that Chromium requested on behalf of a page loaded from a file:
/// their network isolation key names the file:// site (the browser's own
/// background requests carry none).
fn page_requests(netlog: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(netlog).expect("chromium wrote its network log");
    let log: Value = serde_json::from_str(&text).expect("the network log is JSON");
    let types = log["constants"]["logEventTypes"].as_object().unwrap();
    let start = types["URL_REQUEST_START_JOB"].as_u64().unwrap();
    log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"].as_u64() == Some(start))
        .filter(|e| {
            e["params"]["network_isolation_key"]
                .as_str()
                .is_some_and(|k| k.contains("file://"))
        })
        .filter_map(|e| e["params"]["url"].as_str().map(String::from))
        .collect()
}

#[test]
fn html_report_renders_in_chromium_without_network() {
    if std::env::var("PLATCHECK_BROWSER_TESTS").as_deref() == Ok("0") {
        eprintln!("PLATCHECK_BROWSER_TESTS=0: the Chromium rendering test is turned off");
        return;
    }
    let bin = chromium().expect(
        "chromium is not installed: `apt-get install -y chromium` (or run .ci/browser.sh), \
         set PLATCHECK_CHROMIUM to its path, or PLATCHECK_BROWSER_TESTS=0 to turn this test off",
    );
    let work = tempfile::tempdir().unwrap();
    let page = work.path().join("report.html");
    let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["report", "examples/violations", "--format", "html", "-o"])
        .arg(&page)
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let netlog = work.path().join("net.json");
    let dom = browse(&bin, &page, work.path(), &["--dump-dom"], &netlog);
    assert!(
        dom.contains("<h1>Launch checklist report</h1>"),
        "{dom:.400}"
    );
    let requests = page_requests(&netlog);
    assert!(requests.is_empty(), "the page made requests: {requests:?}");
    assert!(!dom.contains("<script") && !dom.contains("<link") && !dom.contains(" src="));
    assert!(dom.contains("content=\"default-src 'none'; style-src 'unsafe-inline'"));

    // Every contract, in order, with the statuses the model computed.
    let outcome = engine::run(
        &[PathBuf::from("examples/violations")],
        &common::root(),
        &Overrides::default(),
    )
    .unwrap();
    let expected = model::build(&outcome);
    let sections: Vec<&str> = dom.split("<section class=\"contract\"").skip(1).collect();
    assert_eq!(sections.len(), expected.contracts.len());
    for (section, c) in sections.iter().zip(&expected.contracts) {
        assert!(
            section.contains(&format!("<h2>{}</h2>", c.name)),
            "{}",
            c.name
        );
        let statuses: Vec<&str> = section
            .split("data-status=\"")
            .skip(1)
            .map(|s| &s[..s.find('"').unwrap()])
            .collect();
        let want: Vec<&str> = c.items.iter().map(|i| i.status.slug()).collect();
        assert_eq!(statuses, want, "{}", c.name);
        for i in &c.items {
            assert!(section.contains(&format!("</span> {}</span>", i.status.label())));
        }
    }
    for s in [Status::NotMet, Status::Met, Status::NotApplicable] {
        assert!(
            dom.contains(&format!("data-status=\"{}\"", s.slug())),
            "{s:?}"
        );
    }

    // The screenshot a reviewer looks at.
    let png = work.path().join("report.png");
    browse(
        &bin,
        &page,
        work.path(),
        &[
            "--window-size=1280,2000",
            &format!("--screenshot={}", png.display()),
        ],
        &work.path().join("net2.json"),
    );
    let bytes = std::fs::read(&png).expect("chromium wrote the screenshot");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (1280, 2000));
    assert!(bytes.len() > 50_000, "an almost empty screenshot");
    assert!(page_requests(&work.path().join("net2.json")).is_empty());

    // The detector is real: a page with external resources is caught.
    let control = work.path().join("control.html");
    std::fs::write(
        &control,
        "<!DOCTYPE html><html><head><title>c</title></head><body><img src=\"https://img.example.test/x.png\" alt=\"\"></body></html>",
    )
    .unwrap();
    let control_log = work.path().join("net3.json");
    browse(&bin, &control, work.path(), &["--dump-dom"], &control_log);
    assert_eq!(
        page_requests(&control_log),
        ["https://img.example.test/x.png"]
    );
}
