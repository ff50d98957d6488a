//! Everything the rules see: every input file, and the contracts by kind and
//! name, so cross-file rules can follow references.
use crate::contracts::{Contract, Kind};
use crate::source::FileClass;
use crate::source::SourceFile;

type ContractIndex = std::collections::HashMap<(Kind, String), usize>;

#[derive(Debug, Default)]
pub struct Workspace {
    pub files: Vec<SourceFile>,
    /// The class of each file in `files` (`None` for the config file).
    pub classes: Vec<Option<FileClass>>,
    /// The first index in `files` of each path, so that looking a file up
    /// by path stays O(1) on monorepos with thousands of files.
    by_path: std::collections::HashMap<std::path::PathBuf, usize>,
    /// The first index in `contracts` of each (kind, name), and how many
    /// contracts there were when it was built: `find` is called per
    /// reference by cross-file rules (EV034, XR001, XR002).
    by_name: std::sync::OnceLock<(usize, ContractIndex)>,
    pub contracts: Vec<Contract>,
    /// Indexes into `files` of the SQL and Markdown inputs.
    pub sql: Vec<usize>,
    pub markdown: Vec<usize>,
}

impl Workspace {
    pub fn of_kind(&self, kind: Kind) -> impl Iterator<Item = &Contract> {
        self.contracts.iter().filter(move |c| c.kind == kind)
    }
    pub fn clusters(&self) -> impl Iterator<Item = &Contract> {
        self.of_kind(Kind::Cluster)
    }
    pub fn boundaries(&self) -> impl Iterator<Item = &Contract> {
        self.of_kind(Kind::EventBoundary)
    }
    /// The first contract of `kind` named `name`. The index is built on the
    /// first lookup, once every contract is loaded (rules only read the
    /// workspace); a hit is checked against the contract it points at, and
    /// anything the index cannot answer falls back to the scan, so a
    /// workspace changed after the first lookup is still read correctly.
    pub fn find(&self, kind: Kind, name: &str) -> Option<&Contract> {
        let index = self.by_name.get_or_init(|| {
            let mut index = ContractIndex::new();
            for (i, c) in self.contracts.iter().enumerate() {
                index.entry((c.kind, c.name.clone())).or_insert(i);
            }
            (self.contracts.len(), index)
        });
        let (indexed, index) = index;
        let scan = || self.of_kind(kind).find(|c| c.name == name);
        if *indexed != self.contracts.len() {
            return scan();
        }
        // `(Kind, String)` keys are not looked up by `&str`: one small
        // allocation per lookup.
        match index.get(&(kind, name.to_string())) {
            Some(&i) => match self.contracts.get(i) {
                Some(c) if c.kind == kind && c.name == name => Some(c),
                _ => scan(),
            },
            None => None,
        }
    }
    pub fn add_file(&mut self, src: SourceFile, class: Option<FileClass>) -> usize {
        let index = self.files.len();
        self.by_path.entry(src.path.clone()).or_insert(index);
        self.files.push(src);
        self.classes.push(class);
        index
    }
    /// The files, their classes and the contracts, for the outcome.
    pub fn into_parts(self) -> (Vec<SourceFile>, Vec<Option<FileClass>>, Vec<Contract>) {
        (self.files, self.classes, self.contracts)
    }
    /// The index of the first file read from `path`.
    pub fn file_at(&self, path: &std::path::Path) -> Option<usize> {
        self.by_path.get(path).copied()
    }
}
