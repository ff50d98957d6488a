//! Protobuf compatibility, judged on the wire: fields are identified by
//! number, so a number that changes type, a removed field whose number is
//! not `reserved` (a later field may reuse it and misread old data), a
//! proto2 `required` that appears or disappears, and a removed message
//! break; a rename only changes JSON and generated code (a note).
use super::proto::{File, Label, Message};
use super::{Break, Diff};
use crate::source::Span;

/// Types that share a wire encoding, so a change between them keeps old
/// bytes readable (protobuf language guide, "Updating A Message Type").
fn wire_class(ty: &str, file: &File) -> String {
    let is_enum = file.enums.iter().any(|e| ty == format!(".{}", e.full));
    match ty {
        "int32" | "uint32" | "int64" | "uint64" | "bool" => "varint".into(),
        _ if is_enum => "varint".into(),
        "sint32" | "sint64" => "zigzag".into(),
        "fixed32" | "sfixed32" => "fixed32".into(),
        "fixed64" | "sfixed64" => "fixed64".into(),
        "string" | "bytes" => "bytes".into(),
        other => other.to_string(),
    }
}

fn short(ty: &str) -> &str {
    ty.rsplit('.').next().unwrap_or(ty)
}

pub fn compare(old: &File, new: &File) -> Diff {
    let mut d = Diff::default();
    let both = |path: String, change: String, span: Span| Break {
        path,
        change,
        span,
        backward: true,
        forward: true,
    };
    for om in &old.messages {
        let Some(nm) = new.messages.iter().find(|m| m.full == om.full) else {
            let span = enclosing(new, old, om.parent);
            let path = om.full.clone();
            d.breaks.push(both(path, "message removed".into(), span));
            continue;
        };
        fields(old, new, om, nm, &mut d);
    }
    for oe in &old.enums {
        let Some(ne) = new.enums.iter().find(|e| e.full == oe.full) else {
            let span = enclosing(new, old, oe.parent);
            d.breaks
                .push(both(oe.full.clone(), "enum removed".into(), span));
            continue;
        };
        for (name, n, _) in &oe.values {
            if !ne.values.iter().any(|v| v.1 == *n) && !ne.reserved.number(*n) {
                let change = format!("enum value `{name}` = {n} removed without `reserved {n}`");
                d.breaks.push(both(ne.full.clone(), change, ne.span));
            }
        }
    }
    d
}

/// The new file's span for something removed from inside `parent` (an old
/// message index): the same message in the new file, else the file head.
fn enclosing(new: &File, old: &File, parent: Option<usize>) -> Span {
    parent
        .and_then(|p| new.messages.iter().find(|m| m.full == old.messages[p].full))
        .map_or(new.head, |m| m.span)
}

fn fields(old: &File, new: &File, om: &Message, nm: &Message, d: &mut Diff) {
    let path = |name: &str| format!("{}.{name}", nm.full);
    let mut push = |path: String, change: String, span: Span, backward: bool, forward: bool| {
        d.breaks.push(Break {
            path,
            change,
            span,
            backward,
            forward,
        })
    };
    let mut notes = Vec::new();
    for of in &om.fields {
        let Some(nf) = nm.fields.iter().find(|f| f.number == of.number) else {
            if of.label == Label::Required {
                let change = format!("required field `{}` = {} removed", of.name, of.number);
                push(path(&of.name), change, nm.span, false, true);
            } else if !nm.reserved.number(of.number) {
                let change = format!(
                    "field `{}` = {} removed without `reserved {}` (a later field could reuse the number and misread old data)",
                    of.name, of.number, of.number
                );
                push(path(&of.name), change, nm.span, true, true);
            }
            continue;
        };
        let n = of.number;
        if wire_class(&of.ty, old) != wire_class(&nf.ty, new) {
            let change = if of.name == nf.name {
                format!(
                    "type of field {n} changed from {} to {}",
                    short(&of.ty),
                    short(&nf.ty)
                )
            } else {
                format!(
                    "field number {n} reused: was `{} {}`, now `{} {}`",
                    short(&of.ty),
                    of.name,
                    short(&nf.ty),
                    nf.name
                )
            };
            push(path(&nf.name), change, nf.ty_span, true, true);
        } else if of.name != nf.name {
            notes.push(format!(
                "{}: field {n} renamed from `{}` to `{}` (binary-compatible; JSON payloads and generated code change)",
                path(&nf.name),
                of.name,
                nf.name
            ));
        }
        if of.label != nf.label {
            let repeated = of.label == Label::Repeated || nf.label == Label::Repeated;
            let backward = repeated || nf.label == Label::Required;
            let forward = repeated || of.label == Label::Required;
            let change = format!(
                "label of field {n} changed from {} to {}",
                of.label.as_str(),
                nf.label.as_str()
            );
            push(path(&nf.name), change, nf.span, backward, forward);
        }
        if of.oneof != nf.oneof
            && let Some(group) = &nf.oneof
            && nm.fields.iter().any(|x| {
                x.oneof.as_ref() == Some(group)
                    && x.number != n
                    && om.fields.iter().any(|y| y.number == x.number)
            })
        {
            let change = format!("field {n} moved into the existing oneof `{group}`");
            push(path(&nf.name), change, nf.span, true, true);
        }
    }
    for nf in &nm.fields {
        if om.fields.iter().any(|f| f.number == nf.number) {
            continue;
        }
        let n = nf.number;
        if om.reserved.number(n) || om.reserved.names.contains(&nf.name) {
            let change = format!("field `{}` = {n} reuses a reserved number or name", nf.name);
            push(path(&nf.name), change, nf.span, true, true);
        } else if nf.label == Label::Required {
            let change = format!("required field `{}` = {n} added", nf.name);
            push(path(&nf.name), change, nf.span, true, false);
        }
    }
    d.notes.extend(notes);
}

#[cfg(test)]
mod tests {
    use super::super::proto_parse::parse;
    use super::*;

    fn diff(old: &str, new: &str) -> Diff {
        compare(&parse(old).unwrap(), &parse(new).unwrap())
    }

    #[test]
    fn number_reuse_and_type_change_break_both_ways() {
        let d = diff(
            "message A { string email = 1; int32 n = 2; }",
            "message A { int64 phone = 1; int64 n = 2; }",
        );
        assert_eq!(d.breaks.len(), 1, "{:?}", d.breaks);
        assert_eq!(d.breaks[0].path, "A.phone");
        assert_eq!(
            d.breaks[0].change,
            "field number 1 reused: was `string email`, now `int64 phone`"
        );
        assert!(d.breaks[0].backward && d.breaks[0].forward);
    }

    #[test]
    fn removal_needs_reserved_and_rename_is_a_note() {
        let d = diff(
            "message A { string a = 1; string b = 2; }",
            "message A { string c = 1; }",
        );
        assert_eq!(d.breaks.len(), 1);
        assert!(
            d.breaks[0]
                .change
                .starts_with("field `b` = 2 removed without `reserved 2`")
        );
        assert_eq!(d.notes.len(), 1);
        assert!(d.notes[0].contains("renamed from `a` to `c`"));
        let ok = diff(
            "message A { string a = 1; string b = 2; }",
            "message A { string a = 1; reserved 2; }",
        );
        assert!(ok.breaks.is_empty());
        let reuse = diff("message A { reserved 2; }", "message A { bool b = 2; }");
        assert!(reuse.breaks[0].change.contains("reuses a reserved number"));
    }

    #[test]
    fn proto2_required_and_removed_messages() {
        let d = diff(
            "syntax = \"proto2\"; message A { optional string a = 1; message B {} } message C {}",
            "syntax = \"proto2\"; message A { required string a = 1; required int32 x = 2; }",
        );
        let got: Vec<(&str, bool, bool)> = d
            .breaks
            .iter()
            .map(|b| (b.change.as_str(), b.backward, b.forward))
            .collect();
        assert!(got.contains(&(
            "label of field 1 changed from optional to required",
            true,
            false
        )));
        assert!(got.contains(&("required field `x` = 2 added", true, false)));
        assert!(got.contains(&("message removed", true, true)));
        assert_eq!(
            d.breaks
                .iter()
                .filter(|b| b.change == "message removed")
                .count(),
            2
        );
    }
}
