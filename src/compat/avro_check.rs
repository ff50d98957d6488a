//! Avro schema resolution (the spec's "Schema Resolution" section): can a
//! reader schema read data written with a writer schema? Backward runs it
//! with the new schema as reader, forward with the old one; every message is
//! worded old-to-new and located in the new file.
use super::Break;
use super::avro::{Schema, T, Ty, simple};
use crate::source::Span;
use std::collections::HashSet;

pub fn compare(old: &Schema, new: &Schema) -> Vec<Break> {
    let mut out: Vec<Break> = Vec::new();
    for new_is_reader in [true, false] {
        let (reader, writer) = if new_is_reader {
            (new, old)
        } else {
            (old, new)
        };
        let mut c = Checker {
            r: reader,
            w: writer,
            new_is_reader,
            seen: HashSet::new(),
            out: Vec::new(),
        };
        let root = root_path(new);
        c.check(&reader.root, &writer.root, &root);
        for b in c.out {
            match out
                .iter_mut()
                .find(|o| o.path == b.path && o.change == b.change)
            {
                Some(o) => {
                    o.backward |= b.backward;
                    o.forward |= b.forward;
                }
                None => out.push(b),
            }
        }
    }
    out
}

fn root_path(s: &Schema) -> String {
    match s.root.ty {
        Ty::Record(i) => simple(&s.records[i].name).to_string(),
        _ => "(root)".into(),
    }
}

struct Checker<'a> {
    r: &'a Schema,
    w: &'a Schema,
    new_is_reader: bool,
    /// Record pairs already compared: recursive types end here.
    seen: HashSet<(usize, usize)>,
    out: Vec<Break>,
}

/// Writer type -> reader types it may be promoted to.
fn promotes(w: &Ty, r: &Ty) -> bool {
    matches!(
        (w, r),
        (Ty::Int, Ty::Long | Ty::Float | Ty::Double)
            | (Ty::Long, Ty::Float | Ty::Double)
            | (Ty::Float, Ty::Double)
            | (Ty::String, Ty::Bytes)
            | (Ty::Bytes, Ty::String)
    )
}

impl Checker<'_> {
    fn push(&mut self, path: &str, change: String, r_span: Span, w_span: Span) {
        self.out.push(Break {
            path: path.to_string(),
            change,
            span: if self.new_is_reader { r_span } else { w_span },
            backward: self.new_is_reader,
            forward: !self.new_is_reader,
        });
    }

    /// (old, new) display of a reader/writer pair.
    fn old_new(&self, r: &T, w: &T) -> (String, String) {
        let (rs, ws) = (self.r.show(r), self.w.show(w));
        if self.new_is_reader {
            (ws, rs)
        } else {
            (rs, ws)
        }
    }

    fn name_of(&self, reader: bool, t: &Ty) -> Option<(&str, &[String])> {
        let s = if reader { self.r } else { self.w };
        match t {
            Ty::Record(i) => Some((&s.records[*i].name, &s.records[*i].aliases)),
            Ty::Enum(i) => Some((&s.enums[*i].name, &s.enums[*i].aliases)),
            Ty::Fixed(i) => Some((&s.fixeds[*i].name, &s.fixeds[*i].aliases)),
            _ => None,
        }
    }

    /// Whether a reader type is the one resolution would pick for a writer
    /// type (same kind and, for named types, same name or an alias).
    fn matches(&self, r: &Ty, w: &Ty) -> bool {
        let same_kind = std::mem::discriminant(r) == std::mem::discriminant(w);
        match (self.name_of(true, r), self.name_of(false, w)) {
            (Some((rn, ra)), Some((wn, _))) => {
                same_kind
                    && (simple(rn) == simple(wn) || ra.iter().any(|a| simple(a) == simple(wn)))
            }
            _ => same_kind || promotes(w, r),
        }
    }

    fn check(&mut self, r: &T, w: &T, path: &str) {
        match (&r.ty, &w.ty) {
            (_, Ty::Union(wb)) => {
                for b in wb {
                    match &r.ty {
                        Ty::Union(rb) => match rb.iter().find(|x| self.matches(&x.ty, &b.ty)) {
                            Some(x) => self.check(x, b, path),
                            None => {
                                let what = if self.new_is_reader {
                                    "removed"
                                } else {
                                    "added"
                                };
                                let branch = self.w.show(b);
                                self.push(
                                    path,
                                    format!("union branch `{branch}` {what}"),
                                    r.span,
                                    w.span,
                                );
                            }
                        },
                        _ => {
                            if self.matches(&r.ty, &b.ty) {
                                self.check(r, b, path);
                            } else {
                                self.type_changed(r, w, path);
                                return;
                            }
                        }
                    }
                }
            }
            (Ty::Union(rb), _) => match rb.iter().find(|x| self.matches(&x.ty, &w.ty)) {
                Some(x) => self.check(x, w, path),
                None => self.type_changed(r, w, path),
            },
            (Ty::Record(ri), Ty::Record(wi)) => self.records(*ri, *wi, r, w, path),
            (Ty::Enum(ri), Ty::Enum(wi)) => self.enums(*ri, *wi, r, w, path),
            (Ty::Fixed(ri), Ty::Fixed(wi)) => {
                let (rs, ws) = (self.r.fixeds[*ri].size, self.w.fixeds[*wi].size);
                if !self.matches(&r.ty, &w.ty) {
                    self.renamed(r, w, path);
                } else if rs != ws {
                    let (o, n) = if self.new_is_reader {
                        (ws, rs)
                    } else {
                        (rs, ws)
                    };
                    self.push(
                        path,
                        format!("fixed size changed from {o} to {n}"),
                        r.span,
                        w.span,
                    );
                }
            }
            (Ty::Array(ri), Ty::Array(wi)) => self.check(ri, wi, &format!("{path}[]")),
            (Ty::Map(ri), Ty::Map(wi)) => self.check(ri, wi, &format!("{path}.<values>")),
            (a, b) if a == b || promotes(b, a) => {}
            _ => self.type_changed(r, w, path),
        }
    }

    fn type_changed(&mut self, r: &T, w: &T, path: &str) {
        let (o, n) = self.old_new(r, w);
        let change = format!("type changed from {o} to {n}");
        self.push(path, change, r.span, w.span);
    }

    fn renamed(&mut self, r: &T, w: &T, path: &str) {
        let (o, n) = self.old_new(r, w);
        let change = format!("named type renamed from `{o}` to `{n}` without an alias");
        self.push(path, change, r.span, w.span);
    }

    fn records(&mut self, ri: usize, wi: usize, r: &T, w: &T, path: &str) {
        if !self.seen.insert((ri, wi)) {
            return;
        }
        if !self.matches(&r.ty, &w.ty) {
            self.renamed(r, w, path);
            return;
        }
        let (rr, wr) = (&self.r.records[ri], &self.w.records[wi]);
        for rf in &rr.fields {
            let found = wr
                .fields
                .iter()
                .find(|wf| wf.name == rf.name || rf.aliases.contains(&wf.name));
            let fpath = format!("{path}.{}", rf.name);
            match found {
                Some(wf) => self.check(&rf.ty, &wf.ty, &fpath),
                None if rf.has_default => {}
                None => {
                    let change = if self.new_is_reader {
                        "field added without a default".to_string()
                    } else {
                        "field removed, and the old schema has no default for it".to_string()
                    };
                    self.push(&fpath, change, rf.span, wr.fields_span);
                }
            }
        }
    }

    fn enums(&mut self, ri: usize, wi: usize, r: &T, w: &T, path: &str) {
        if !self.matches(&r.ty, &w.ty) {
            self.renamed(r, w, path);
            return;
        }
        let (re, we) = (&self.r.enums[ri], &self.w.enums[wi]);
        if re.default.as_ref().is_some_and(|d| re.symbols.contains(d)) {
            return;
        }
        let missing: Vec<&str> = we
            .symbols
            .iter()
            .filter(|s| !re.symbols.contains(s))
            .map(String::as_str)
            .collect();
        if missing.is_empty() {
            return;
        }
        let list = format!("`{}`", missing.join("`, `"));
        let change = if self.new_is_reader {
            format!("enum symbol {list} removed and the new enum declares no default")
        } else {
            format!("enum symbol {list} added and the old enum declares no default")
        };
        self.push(path, change, re.symbols_span, we.symbols_span);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::avro::parse;

    fn record(fields: &str) -> String {
        format!(r#"{{"type":"record","name":"Order","fields":[{fields}]}}"#)
    }
    fn diff(old: &str, new: &str) -> Vec<(String, String, bool, bool)> {
        compare(&parse(old).unwrap(), &parse(new).unwrap())
            .into_iter()
            .map(|b| (b.path, b.change, b.backward, b.forward))
            .collect()
    }
    const ID: &str = r#"{"name":"id","type":"string"}"#;

    #[test]
    fn added_field_without_default_breaks_backward_only() {
        let new = record(&format!(r#"{ID},{{"name":"qty","type":"int"}}"#));
        let d = diff(&record(ID), &new);
        assert_eq!(
            d,
            [(
                "Order.qty".into(),
                "field added without a default".into(),
                true,
                false
            )]
        );
        let with_default = record(&format!(
            r#"{ID},{{"name":"qty","type":"int","default":0}}"#
        ));
        assert!(diff(&record(ID), &with_default).is_empty());
    }

    #[test]
    fn removed_field_without_default_breaks_forward_and_points_at_fields() {
        let old = record(&format!(r#"{ID},{{"name":"qty","type":"int"}}"#));
        let new = record(ID);
        let b = compare(&parse(&old).unwrap(), &parse(&new).unwrap());
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].path, "Order.qty");
        assert!(b[0].forward && !b[0].backward);
        assert_eq!(&new[b[0].span.start..b[0].span.end], "\"fields\"");
    }

    #[test]
    fn promotions_are_one_way() {
        let int = record(r#"{"name":"n","type":"int"}"#);
        let long = record(r#"{"name":"n","type":"long"}"#);
        assert_eq!(
            diff(&int, &long),
            [(
                "Order.n".into(),
                "type changed from int to long".into(),
                false,
                true
            )]
        );
        let s = record(r#"{"name":"n","type":"string"}"#);
        let b = record(r#"{"name":"n","type":"bytes"}"#);
        assert!(diff(&s, &b).is_empty());
        let d = diff(&int, &s);
        assert_eq!(d[0].1, "type changed from int to string");
        assert!(d[0].2 && d[0].3);
    }

    #[test]
    fn enum_symbols_and_defaults() {
        let e = |syms: &str, def: &str| {
            record(&format!(
                r#"{{"name":"s","type":{{"type":"enum","name":"S","symbols":[{syms}]{def}}}}}"#
            ))
        };
        let d = diff(&e(r#""A","B""#, ""), &e(r#""A""#, ""));
        assert_eq!(
            d,
            [(
                "Order.s".into(),
                "enum symbol `B` removed and the new enum declares no default".into(),
                true,
                false
            )]
        );
        assert!(diff(&e(r#""A","B""#, ""), &e(r#""A""#, r#","default":"A""#)).is_empty());
        assert!(
            diff(&e(r#""A""#, ""), &e(r#""A","B""#, ""))
                .iter()
                .all(|x| x.3 && !x.2)
        );
    }

    #[test]
    fn unions_nested_records_and_recursion() {
        let old = record(
            r#"{"name":"c","type":{"type":"record","name":"C","fields":[{"name":"email","type":["null","string"]}]}},
               {"name":"next","type":["null","Order"],"default":null}"#,
        );
        let new = record(
            r#"{"name":"c","type":{"type":"record","name":"C","fields":[{"name":"email","type":"string"}]}},
               {"name":"next","type":["null","Order"],"default":null}"#,
        );
        let d = diff(&old, &new);
        assert_eq!(
            d,
            [(
                "Order.c.email".into(),
                "type changed from [null, string] to string".into(),
                true,
                false
            )]
        );
        let added = record(r#"{"name":"x","type":["null","string","int"]}"#);
        let base = record(r#"{"name":"x","type":["null","string"]}"#);
        assert_eq!(diff(&base, &added)[0].1, "union branch `int` added");
    }
}
