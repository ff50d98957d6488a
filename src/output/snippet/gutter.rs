//! The gutter and label lines of a snippet: where multi-line spans start,
//! pass and end beside the source, and the underlines with their label text
//! hanging from them, each as miette drew it.
use super::super::theme;
use super::{Fancy, Line, Mode, hbars, spaces, visual_offset};

/// What the gutter of a snippet is drawn from.
pub(super) struct Gutter<'g, 'a> {
    pub(super) max: usize,
    /// Width of the line numbers.
    pub(super) lw: usize,
    pub(super) labels: &'g [&'g Fancy<'a>],
}

impl Gutter<'_, '_> {
    pub(super) fn no_linum(&self, out: &mut String) {
        out.push(' ');
        spaces(out, self.lw);
        out.push(' ');
        out.push(theme::VBAR_BREAK);
        out.push(' ');
    }

    /// The gutter beside a source line: where multi-line spans start,
    /// end or pass.
    pub(super) fn line(&self, out: &mut String, line: &Line) {
        if self.max == 0 {
            return;
        }
        let start = out.len();
        let mut arrow = false;
        for (i, l) in self
            .labels
            .iter()
            .filter(|l| line.applies_gutter(l))
            .enumerate()
        {
            let corner = if line.starts(l) {
                theme::LTOP
            } else if line.ends(l) {
                theme::LCROSS
            } else if line.flyby(l) {
                l.paint.char(out, theme::VBAR);
                continue;
            } else {
                out.push(' ');
                continue;
            };
            l.paint.char(out, corner);
            l.paint.repeat(out, theme::HBAR, self.max.saturating_sub(i));
            l.paint.char(out, theme::RARROW);
            arrow = true;
            break;
        }
        // miette counts the characters of the styled gutter, escapes too.
        let drawn = out[start..].chars().count();
        spaces(
            out,
            if arrow { 1 } else { 3 } + self.max.saturating_sub(drawn),
        );
    }

    /// The gutter beside an underline or label line.
    pub(super) fn highlight(&self, out: &mut String, line: &Line, mode: Mode) {
        if self.max == 0 {
            return;
        }
        let mut cols = 0;
        for (i, l) in self
            .labels
            .iter()
            .filter(|l| line.applies_gutter(l))
            .enumerate()
        {
            if !line.only(l) && line.ends(l) {
                let n = self.max.saturating_sub(i) + 2;
                if mode == Mode::Rest {
                    spaces(out, n);
                } else {
                    l.paint.char(out, theme::LBOT);
                    l.paint
                        .repeat(out, theme::HBAR, n - usize::from(mode == Mode::First));
                }
                cols += n + 1;
                break;
            }
            l.paint.char(out, theme::VBAR);
            cols += 1;
        }
        spaces(out, (self.max + 3).saturating_sub(cols));
    }

    /// Underlines of the labels on one line, then their texts, the last
    /// label's first, each hanging from its underline.
    pub(super) fn single_line(&self, out: &mut String, line: &Line, single: &[&Fancy]) {
        let mut highest = 0;
        let mut vbars: Vec<(&Fancy, usize)> = Vec::with_capacity(single.len());
        for l in single {
            let start = visual_offset(line, l.offset, true).max(highest);
            let end = if l.len == 0 {
                start + 1
            } else {
                visual_offset(line, l.end(), false).max(start + 1)
            };
            let vbar = (start + end) / 2;
            l.paint.open(out);
            spaces(out, start.saturating_sub(highest));
            hbars(out, vbar - start);
            out.push(if l.len == 0 {
                theme::UARROW
            } else {
                theme::UNDERBAR
            });
            hbars(out, end - vbar - 1);
            l.paint.close(out);
            highest = highest.max(end);
            vbars.push((l, vbar));
        }
        out.push('\n');
        for l in single.iter().rev() {
            let many = l.parts.len() > 1;
            for (k, part) in l.parts.iter().enumerate() {
                let mode = match (many, k) {
                    (false, _) => Mode::Single,
                    (true, 0) => Mode::First,
                    _ => Mode::Rest,
                };
                self.label_text(out, line, &vbars, l, part, mode);
            }
        }
    }

    fn label_text(
        &self,
        out: &mut String,
        line: &Line,
        vbars: &[(&Fancy, usize)],
        l: &Fancy,
        part: &str,
        mode: Mode,
    ) {
        self.no_linum(out);
        self.highlight(out, line, Mode::Single);
        let mut at = 1;
        for (o, vbar) in vbars {
            while at < vbar + 1 {
                out.push(' ');
                at += 1;
            }
            if !o.same(l) {
                o.paint.char(out, theme::VBAR);
                at += 1;
                continue;
            }
            l.paint.open(out);
            match mode {
                Mode::Single => {
                    out.push(theme::LBOT);
                    out.push(theme::HBAR);
                    out.push(theme::HBAR);
                }
                Mode::First => {
                    out.push(theme::LBOT);
                    out.push(theme::HBAR);
                    out.push(theme::RCROSS);
                }
                Mode::Rest => {
                    out.push_str("  ");
                    out.push(theme::VBAR);
                }
            }
            out.push(' ');
            out.push_str(part);
            l.paint.close(out);
            out.push('\n');
            break;
        }
    }

    /// The label of a multi-line span, at the line it ends on.
    pub(super) fn multi_line_end(&self, out: &mut String, line: &Line, l: &Fancy) {
        self.no_linum(out);
        let Some((first, rest)) = l.parts.split_first() else {
            return;
        };
        if rest.is_empty() {
            self.highlight(out, line, Mode::Single);
            l.paint.char(out, theme::HBAR);
        } else {
            self.highlight(out, line, Mode::First);
            l.paint.char(out, theme::RCROSS);
        }
        out.push(' ');
        out.push_str(first);
        out.push('\n');
        for part in rest {
            self.no_linum(out);
            self.highlight(out, line, Mode::Rest);
            l.paint.char(out, theme::VBAR);
            out.push(' ');
            out.push_str(part);
            out.push('\n');
        }
    }
}
