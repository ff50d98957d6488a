//! Counts what platcheck's migration history sees in a tree: files, scripts
//! (up / down / dump) and statements. Usage: history-stats DIR
use platcheck::discover::{self, FileClass};
use platcheck::settings::{Overrides, Settings};
use platcheck::source::SourceFile;
use platcheck::sql::analysis::{self, Role};
use platcheck::sql::history;
use platcheck::workspace::Workspace;
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).expect("DIR"));
    let settings = Settings::load(&dir, &dir, &Overrides::default()).expect("settings");
    let found = discover::discover(&[dir.clone()], &dir, &settings).expect("discover");
    let mut ws = Workspace::default();
    for c in found.files.iter().filter(|c| c.class == FileClass::Sql) {
        let Ok(text) = std::fs::read_to_string(&c.path) else { continue };
        let i = ws.add_file(SourceFile::new(&c.display, &c.path, &text), Some(c.class));
        ws.sql.push(i);
    }
    let h = history::plan(&ws, &settings);
    let a = analysis::analyze(&ws, &settings);
    let dumps: usize = h.groups.iter().map(|g| g.baseline.len()).sum();
    let ups = a.files.iter().filter(|f| f.role == Role::Up).count();
    let up_st: usize = a.files.iter().filter(|f| f.role == Role::Up).map(|f| f.stmts.len()).sum();
    let down_st: usize = a.files.iter().filter(|f| f.role != Role::Up).map(|f| f.stmts.len()).sum();
    let mut layouts = std::collections::BTreeMap::new();
    for g in &h.groups {
        *layouts.entry(g.layout.as_str()).or_insert(0usize) += 1;
    }
    println!("sql inputs: {}; histories: {} {:?}; dumps: {dumps}", ws.sql.len(), h.groups.len(), layouts);
    println!("up scripts: {ups} ({up_st} statements); down scripts: {} ({down_st} statements)", a.files.len() - ups);
    for g in &h.groups {
        println!("  {} [{}] steps={} downs={} tool={:?}", g.name, g.layout.as_str(), g.steps.len(),
            g.steps.iter().map(|s| s.downs.len()).sum::<usize>(), g.tx.tool.map(|t| t.as_str()));
    }
}
