//! How rules report: a `Report` names the rule, the place and the values for
//! the message template; the engine turns it into a `Finding` (renders the
//! template from the rule's data file, computes line/column, applies
//! severity overrides and suppressions).
use crate::catalog::RuleId;
use crate::finding::{ContractRef, Fix, Severity, SqlFacts};
use crate::source::Span;

#[derive(Clone, Debug)]
pub struct Report {
    pub rule: RuleId,
    /// Index into `Workspace::files`.
    pub file: usize,
    pub span: Span,
    pub vars: Vec<(&'static str, String)>,
    /// Which template of the rule to use (`messages.<variant>`), default `message`.
    pub variant: Option<&'static str>,
    /// Boxed, as `fix`: most reports have neither, and a run holds one
    /// report per finding beside the whole analysis.
    pub contract: Option<Box<ContractRef>>,
    pub pointer: Option<String>,
    pub sql: Option<SqlFacts>,
    /// Replaces the template-rendered help (rare: computed suggestions).
    pub help: Option<String>,
    /// This finding's severity when it differs from the rule's default (an
    /// E/W rule on a cold table); a `rules:` override in the config still wins.
    pub severity: Option<Severity>,
    /// Appended to the rendered message (a finding in a down script says
    /// which up step it was judged after).
    pub note: Option<String>,
    /// Filled by the engine's fixer (`fix::compute`), not by rules.
    pub fix: Option<Box<Fix>>,
    /// Secondary places: (file index, span, what is there).
    pub related: Vec<(usize, Span, String)>,
}

impl Report {
    pub fn new(rule: RuleId, file: usize, span: Span) -> Report {
        Report {
            rule,
            file,
            span,
            vars: Vec::new(),
            variant: None,
            contract: None,
            pointer: None,
            sql: None,
            help: None,
            severity: None,
            note: None,
            fix: None,
            related: Vec::new(),
        }
    }
    pub fn note(mut self, note: Option<&str>) -> Report {
        self.note = note.map(str::to_string);
        self
    }
    /// A value for the `{name}` placeholder of the message and help templates.
    pub fn var(mut self, name: &'static str, value: impl ToString) -> Report {
        self.vars.push((name, value.to_string()));
        self
    }
    pub fn variant(mut self, variant: &'static str) -> Report {
        self.variant = Some(variant);
        self
    }
    pub fn contract(mut self, c: ContractRef) -> Report {
        self.contract = Some(Box::new(c));
        self
    }
    pub fn pointer(mut self, p: impl Into<String>) -> Report {
        self.pointer = Some(p.into());
        self
    }
    pub fn sql(mut self, facts: SqlFacts) -> Report {
        self.sql = Some(facts);
        self
    }
    pub fn severity(mut self, severity: Severity) -> Report {
        self.severity = Some(severity);
        self
    }
    /// A secondary place the finding is about.
    pub fn related(mut self, file: usize, span: Span, what: impl Into<String>) -> Report {
        self.related.push((file, span, what.into()));
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Report {
        self.help = Some(help.into());
        self
    }
}

/// Where rules put their reports.
#[derive(Default, Debug)]
pub struct Sink {
    pub reports: Vec<Report>,
    /// Run-level remarks that are not findings (e.g. "compatibility was not
    /// checked"): printed once in the human header and as JSON `notes`.
    pub notes: Vec<String>,
}

impl Sink {
    /// The report's lists grew by pushing (room for four each): a run
    /// holds every report beside the SQL analysis until the fixes are
    /// computed, so the spare room goes back here.
    pub fn push(&mut self, mut report: Report) {
        report.vars.shrink_to_fit();
        report.related.shrink_to_fit();
        self.reports.push(report);
    }
}
