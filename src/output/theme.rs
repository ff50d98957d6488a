//! The look of the human report: the box-drawing characters and ANSI styles
//! of miette's `GraphicalTheme::unicode()` (colour) and
//! `unicode_nocolor()`, which the report used to be drawn with. The bytes
//! are kept exactly, escape for escape, so the output did not change when
//! the printer stopped going through miette.
use crate::finding::Severity;

pub const HBAR: char = '─';
pub const VBAR: char = '│';
pub const VBAR_BREAK: char = '·';
pub const UARROW: char = '▲';
pub const RARROW: char = '▶';
pub const LTOP: char = '╭';
pub const LBOT: char = '╰';
pub const LCROSS: char = '├';
pub const RCROSS: char = '┤';
pub const UNDERBAR: char = '┬';
pub const UNDERLINE: char = '─';

const RESET: &str = "\x1b[0m";

/// An ANSI style as owo-colors writes it: its prefix, and a reset after
/// the text unless the style is plain. An empty text still gets both, as
/// with owo-colors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint(&'static str);

impl Paint {
    pub const PLAIN: Paint = Paint("");

    pub fn open(self, out: &mut String) {
        out.push_str(self.0);
    }
    pub fn close(self, out: &mut String) {
        if !self.0.is_empty() {
            out.push_str(RESET);
        }
    }
    pub fn str(self, out: &mut String, s: &str) {
        self.open(out);
        out.push_str(s);
        self.close(out);
    }
    pub fn char(self, out: &mut String, c: char) {
        self.open(out);
        out.push(c);
        self.close(out);
    }
    /// `c` repeated `n` times as one styled run.
    pub fn repeat(self, out: &mut String, c: char, n: usize) {
        self.open(out);
        out.extend(std::iter::repeat_n(c, n));
        self.close(out);
    }
    /// The text with the style around it, as a string of its own.
    pub fn wrap(self, s: &str) -> String {
        let mut out = String::with_capacity(s.len() + self.0.len() + RESET.len());
        self.str(&mut out, s);
        out
    }
}

/// miette's `ThemeStyles::ansi()` (owo-colors prefixes) or `none()`.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub error: Paint,
    pub warning: Paint,
    pub advice: Paint,
    pub help: Paint,
    pub link: Paint,
    pub linum: Paint,
    /// Cycled through, one per label in offset order.
    pub highlights: &'static [Paint],
}

impl Theme {
    pub fn new(color: bool) -> Theme {
        if !color {
            return Theme {
                error: Paint::PLAIN,
                warning: Paint::PLAIN,
                advice: Paint::PLAIN,
                help: Paint::PLAIN,
                link: Paint::PLAIN,
                linum: Paint::PLAIN,
                highlights: &[Paint::PLAIN],
            };
        }
        Theme {
            error: Paint("\x1b[31m"),
            warning: Paint("\x1b[33m"),
            advice: Paint("\x1b[36m"),
            help: Paint("\x1b[36m"),
            // cyan, bold, underline: owo-colors writes the colour, then
            // bold, then the other effects.
            link: Paint("\x1b[36;1;4m"),
            linum: Paint("\x1b[2m"),
            highlights: &[
                Paint("\x1b[35;1m"),
                Paint("\x1b[33;1m"),
                Paint("\x1b[32;1m"),
            ],
        }
    }

    /// The style and icon of a report of this (worst) severity.
    pub fn severity(&self, s: Severity) -> (Paint, &'static str) {
        match s {
            Severity::Error => (self.error, "×"),
            Severity::Warning => (self.warning, "⚠"),
            Severity::Notice => (self.advice, "☞"),
        }
    }
}
