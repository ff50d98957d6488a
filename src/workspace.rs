//! Everything the rules see: every input file, and the contracts by kind and
//! name, so cross-file rules can follow references.
use crate::contracts::{Contract, Kind};
use crate::source::FileClass;
use crate::source::SourceFile;

#[derive(Debug, Default)]
pub struct Workspace {
    pub files: Vec<SourceFile>,
    /// The class of each file in `files` (`None` for the config file).
    pub classes: Vec<Option<FileClass>>,
    /// The first index in `files` of each path, so that looking a file up
    /// by path stays O(1) on monorepos with thousands of files.
    by_path: std::collections::HashMap<std::path::PathBuf, usize>,
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
    pub fn find(&self, kind: Kind, name: &str) -> Option<&Contract> {
        self.of_kind(kind).find(|c| c.name == name)
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
