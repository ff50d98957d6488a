//! The HTML report in a real browser: headless Chromium renders the page for
//! examples/violations to a screenshot and dumps its DOM. The DOM must hold
//! every contract with the statuses the model computed, each status with
//! what it shows (reason, missing fields, unchecked inputs, findings) and
//! every waiver with its reason, `until` and author; a second page, committed
//! by a known author, shows the waiver details git gives. Chromium's own
//! network log must show no request made on the page's behalf (a control
//! page with an external image proves the detector sees such requests).
//!
//! Chromium is required: the test fails when it is missing, unless
//! PLATCHECK_BROWSER_TESTS=0 is set (`.ci/browser.sh` installs it).
mod common;
use platcheck::engine;
use platcheck::report::model::{self, ItemResult, Status, Waiver};
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
    let facts = platcheck::cli::report_facts::gather(
        &outcome,
        &[PathBuf::from("examples/violations")],
        &common::root(),
    );
    let expected = model::build(&outcome, facts);
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
            let li = item_html(section, i.item.number);
            assert!(
                li.contains(&format!("</span> {}</span>", i.status.label())),
                "{} item {}: the status word is on the page",
                c.name,
                i.item.number
            );
            status_details(li, i);
        }
    }
    for s in Status::ALL {
        assert!(
            dom.contains(&format!("data-status=\"{}\"", s.slug())),
            "{s:?} is rendered"
        );
    }
    // The header: revision, version, the date and config used, --base.
    let rev = expected
        .facts
        .revision
        .as_ref()
        .expect("the repository is a git checkout");
    assert!(dom.contains(&format!("title=\"{}\">{}</code>", rev.commit, rev.short())));
    assert!(dom.contains(&format!(
        "<dd id=\"version\">{}</dd>",
        env!("CARGO_PKG_VERSION")
    )));
    assert!(dom.contains("<dd id=\"config\">examples/violations/platcheck.yaml</dd>"));
    assert!(dom.contains("<time datetime=\"2026-11-30\">2026-11-30</time>"));
    assert!(dom.contains("<code>--base</code> was not given"));
    let t = expected.totals();
    assert!(dom.contains(&format!(
        "<span class=\"num\">{} <small>of {}</small></span>",
        t.get(Status::Met),
        t.applicable()
    )));
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

/// The `<li>` of item `n` in a contract's section.
fn item_html(section: &str, n: u32) -> &str {
    let start = section
        .find(&format!("data-item=\"{n}\""))
        .unwrap_or_else(|| panic!("item {n} is on the page"));
    let rest = &section[start..];
    &rest[..rest.find("</div></li>").unwrap()]
}

/// Text as Chromium serialises it in a text node.
fn text_node(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// What each status shows besides its word: the reason, the missing
/// fields, what was not checked, the findings and the waivers.
fn status_details(li: &str, i: &ItemResult) {
    let at = format!("item {}", i.item.number);
    match i.status {
        Status::NotApplicable => {
            let reason = i.reason.as_deref().unwrap();
            assert!(
                li.contains(&format!("<p class=\"reason\">{}</p>", text_node(reason))),
                "{at}"
            );
        }
        Status::Missing => {
            for m in &i.missing {
                assert!(
                    li.contains(&format!(
                        "data-field=\"{}\">missing evidence: <code>{}</code>",
                        m.pointer,
                        text_node(&m.label)
                    )),
                    "{at}: {}",
                    m.label
                );
            }
        }
        Status::NotChecked => {
            for u in &i.unchecked {
                assert!(
                    li.contains(&format!("<span class=\"how\">{}</span>", text_node(&u.how))),
                    "{at}"
                );
            }
        }
        Status::NotMet => {
            assert!(
                li.contains("class=\"finding ") || li.contains("class=\"short\""),
                "{at}: a not-met item shows why"
            );
        }
        Status::Waived | Status::Met => {}
    }
    for w in &i.waivers {
        waiver_details(li, w, &at);
    }
}

fn waiver_details(li: &str, w: &Waiver, at: &str) {
    let class = if w.expired {
        format!("finding waiver sev-{} expired", w.finding.severity.as_str())
    } else {
        format!("finding waiver sev-{}", w.finding.severity.as_str())
    };
    let open = format!("<li class=\"{class}\" data-waiver=\"{}\">", w.kind.as_str());
    let start = li.find(&open).unwrap_or_else(|| panic!("{at}: no {open}"));
    let el = &li[start..start + li[start..].find("</li>").unwrap()];
    assert!(el.contains(if w.expired {
        ">waiver expired</span>"
    } else {
        ">waived</span>"
    }));
    assert!(el.contains(&format!(">{}</a>", w.finding.rule)), "{at}");
    assert!(
        el.contains(&format!(
            "<dd class=\"w-reason\">{}</dd>",
            text_node(&w.reason)
        )),
        "{at}: reason"
    );
    match &w.until {
        Some(u) => assert!(
            el.contains(&format!(
                "<dd class=\"w-until\"><time datetime=\"{u}\">{u}</time>"
            )),
            "{at}"
        ),
        None => assert!(
            el.contains("<dd class=\"w-until\">no expiry date</dd>"),
            "{at}"
        ),
    }
    let author = w
        .author
        .as_deref()
        .map_or_else(|| "not known".to_string(), text_node);
    assert!(
        el.contains(&format!("<dd class=\"w-author\">{author}</dd>")),
        "{at}: author {author}: {el}"
    );
}

#[test]
fn waiver_details_render_in_chromium_with_their_author() {
    if std::env::var("PLATCHECK_BROWSER_TESTS").as_deref() == Ok("0") {
        eprintln!("PLATCHECK_BROWSER_TESTS=0: the Chromium rendering test is turned off");
        return;
    }
    let bin = chromium()
        .expect("chromium is not installed (see html_report_renders_in_chromium_without_network)");
    // The waived fixture, committed by a known author on a known day.
    let repo = common::waived_repo();
    let work = tempfile::tempdir().unwrap();
    let page = work.path().join("waived.html");
    let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["report", "--format", "html", "-o"])
        .arg(&page)
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dom = browse(
        &bin,
        &page,
        work.path(),
        &["--dump-dom"],
        &work.path().join("net.json"),
    );
    let inline = "<li class=\"finding waiver sev-warning\" data-waiver=\"inline\">";
    let at = dom.find(inline).expect("the inline waiver is on the page");
    let el = &dom[at..at + dom[at..].find("</li>").unwrap()];
    for want in [
        ">CL110</a>",
        "<dd class=\"w-where\">inline at <a href=",
        "<dd class=\"w-reason\">the cost review moved to the quarterly close on 2026-12-15</dd>",
        "<dd class=\"w-until\"><time datetime=\"2026-12-31\">2026-12-31</time></dd>",
        "<dd class=\"w-author\">Dana Reviewer &lt;dana@example.test&gt;, 2026-11-02</dd>",
    ] {
        assert!(el.contains(want), "{want} in {el}");
    }
    let baseline = "data-waiver=\"baseline\"";
    let at = dom
        .find(baseline)
        .expect("the baseline waiver is on the page");
    let el = &dom[at..at + dom[at..].find("</li>").unwrap()];
    assert!(
        el.contains(">CL013</a>") && el.contains("baseline.json:5</a>"),
        "{el}"
    );
    assert!(el.contains(
        "<dd class=\"w-author\">Dana Reviewer &lt;dana@example.test&gt;, 2026-11-02</dd>"
    ));
    let items: Vec<&str> = dom
        .split("data-status=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(
        items.iter().filter(|s| **s == "waived").count(),
        2,
        "{items:?}"
    );
    assert!(page_requests(&work.path().join("net.json")).is_empty());
}
