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
    /// Per file, whether the run reports on its contracts (`judge_only`);
    /// unset: on every contract.
    judged: std::sync::OnceLock<Vec<bool>>,
    /// Indexes into `files` of the SQL and Markdown inputs.
    pub sql: Vec<usize>,
    pub markdown: Vec<usize>,
}

impl Workspace {
    pub fn of_kind(&self, kind: Kind) -> impl Iterator<Item = &Contract> {
        self.contracts.iter().filter(move |c| c.kind == kind)
    }
    /// The contracts of `kind` whose findings the run reports: every one,
    /// or in a run limited to named files those the named files hold. A
    /// rule that judges each contract from that contract alone (and what
    /// `find` gives it) loops over these, so a one-file run does not walk
    /// 5,000 contracts only for their findings to be dropped; a rule that
    /// compares contracts with each other reads `of_kind`.
    pub fn judged(&self, kind: Kind) -> impl Iterator<Item = &Contract> {
        self.of_kind(kind).filter(|c| self.judges_file(c.file))
    }
    pub fn judged_clusters(&self) -> impl Iterator<Item = &Contract> {
        self.judged(Kind::Cluster)
    }
    pub fn judged_boundaries(&self) -> impl Iterator<Item = &Contract> {
        self.judged(Kind::EventBoundary)
    }
    /// Whether the run reports on file `file` (by index): every file, or
    /// in a run limited to named files those shown. A rule that judges each
    /// document from that document alone loops over these.
    pub fn judges_file(&self, file: usize) -> bool {
        self.judged
            .get()
            .is_none_or(|j| j.get(file).copied().unwrap_or(true))
    }
    /// Limits `judged` to the contracts of the `shown` files (by index).
    /// A shown file that is neither SQL, Markdown, a contract file nor the
    /// config (a payload schema EV053 reports on through its boundary, a
    /// YAML that failed to load) leaves every contract judged. Set once,
    /// before the rules run.
    pub fn judge_only(&self, shown: &[bool], config: Option<&str>) {
        if !self.shows_other_input(shown, config) {
            let _ = self.judged.set(shown.to_vec());
        }
    }
    /// Whether a shown file (by index) is neither SQL, Markdown, the config
    /// nor a contract file: a payload schema EV053 reports on through its
    /// boundary, a YAML that failed to load. Such a run cannot be narrowed.
    pub fn shows_other_input(&self, shown: &[bool], config: Option<&str>) -> bool {
        let mut holds = vec![false; self.files.len()];
        for c in &self.contracts {
            if let Some(h) = holds.get_mut(c.file) {
                *h = true;
            }
        }
        self.files.iter().enumerate().any(|(i, f)| {
            shown.get(i).copied().unwrap_or(true)
                && config != Some(f.display.as_str())
                && !matches!(self.classes[i], Some(FileClass::Sql | FileClass::Markdown))
                && !holds[i]
        })
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
