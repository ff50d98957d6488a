//! Contract and config fixes: an unknown key (PC003) or rule id (PC008)
//! with one unambiguous did-you-mean is renamed; an enum value (PC004) with
//! a single close allowed value is replaced. Only the scalar's characters
//! change: its quotes, the comment after it and the line stay as written.
//! A block a rule needs and the contract lacks entirely (`spec.backup`) is
//! inserted from the rule's own "Use instead" example with every value
//! `TODO` (unsafe: a person must fill it in, and PC004/PC005 say where).
use super::fix;
use crate::catalog::{FixSafety, RuleId};
use crate::contracts::schema::suggest_unique;
use crate::emit::Report;
use crate::finding::{Edit, Fix};
use crate::registry::RuleCtx;

pub fn compute(ctx: &RuleCtx, r: &Report) -> Option<Fix> {
    let var = |name: &str| {
        r.vars
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    };
    let src = &ctx.ws.files[r.file];
    let (from, to, what) = match r.rule {
        RuleId::PC003 => (
            var("key")?,
            var("suggestion")?.to_string(),
            "rename the key",
        ),
        RuleId::PC008 => (
            src.text
                .get(r.span.start..r.span.end)?
                .trim_matches(['"', '\'']),
            var("suggestion")?.to_string(),
            "correct the rule id",
        ),
        RuleId::PC004 if r.variant == Some("enum") => {
            let value = var("value")?;
            let allowed: Vec<&str> = var("allowed")?.split(", ").collect();
            let to = suggest_unique(value, &allowed)?;
            (value, to.to_string(), "replace the value")
        }
        RuleId::CL010 | RuleId::CL050 | RuleId::CL060 => return missing_block(ctx, r),
        _ => return None,
    };
    let written = src.text.get(r.span.start..r.span.end)?;
    // The span covers the scalar as written: bare, or inside its quotes.
    let inner = written.find(from)?;
    if written.len() != from.len() && written.trim_matches(['"', '\'']) != from {
        return None;
    }
    if to.contains(['"', '\'', '\\', ':', '#', '\n']) {
        return None;
    }
    let start = r.span.start + inner;
    Some(fix(
        format!("{what}: `{from}` → `{to}`"),
        FixSafety::Safe,
        vec![Edit {
            path: src.path.clone(),
            start,
            end: start + from.len(),
            text: to,
            create: false,
        }],
    ))
}

fn missing_block(ctx: &RuleCtx, r: &Report) -> Option<Fix> {
    let pointer = r.pointer.as_deref()?;
    let key = pointer.strip_prefix("/spec/")?;
    if key.contains('/') {
        return None;
    }
    let contract = ctx
        .ws
        .contracts
        .iter()
        .find(|c| c.file == r.file && Some(&c.contract_ref()) == r.contract.as_ref())?;
    if contract.get(pointer).is_some() {
        return None;
    }
    let spec = contract.root.entry("spec")?;
    let (first_key, _) = spec.1.entries().first()?;
    let src = &ctx.ws.files[r.file];
    let text = &*src.text;
    let child_indent = src.line_col(first_key.span.start).column - 1;
    let spec_indent = src.line_col(spec.0.span.start).column - 1;
    if child_indent <= spec_indent {
        return None;
    }
    let example = example_block(&r.rule.meta().body, key)?;
    // The end of the `spec:` block: the first later line that is not blank,
    // not a comment and not indented deeper than `spec:` (or the end).
    let mut at = super::line_start(text, first_key.span.start);
    let mut end = text.len();
    while at < text.len() {
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
        let line = &text[at..line_end];
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if !trimmed.trim().is_empty() && !trimmed.starts_with('#') && indent <= spec_indent {
            end = at;
            break;
        }
        at = line_end;
    }
    let nl = super::eol(text);
    let pad = " ".repeat(child_indent);
    let mut block = String::new();
    if end == text.len() && !text.ends_with('\n') {
        block.push_str(nl);
    }
    for (depth, line) in &example {
        block.push_str(&pad);
        block.push_str(&"  ".repeat(*depth));
        block.push_str(line);
        block.push_str(nl);
    }
    Some(fix(
        format!("insert `{key}` from the rule's example, with TODO values"),
        FixSafety::Unsafe,
        vec![Edit {
            path: src.path.clone(),
            start: end,
            end,
            text: block,
            create: false,
        }],
    ))
}

/// The `key:` block of the rule doc's "Use instead" YAML, as (depth, line)
/// with every value replaced by `TODO`.
fn example_block(body: &str, key: &str) -> Option<Vec<(usize, String)>> {
    let start = body.find("## Use instead")?;
    let rest = &body[start..];
    let code = rest.find("```yaml\n")? + 8;
    let code_end = rest[code..].find("```")? + code;
    let lines: Vec<&str> = rest[code..code_end].lines().collect();
    let head = lines
        .iter()
        .position(|l| l.trim_start() == format!("{key}:"))?;
    let base = lines[head].len() - lines[head].trim_start().len();
    let mut out = vec![(0, format!("{key}:"))];
    for l in &lines[head + 1..] {
        let indent = l.len() - l.trim_start().len();
        if l.trim().is_empty() || indent <= base {
            break;
        }
        let (k, v) = l.trim().split_once(':')?;
        let value = match v.trim() {
            "" => String::new(),
            v if v.starts_with('{') => {
                let keys: Vec<String> = v
                    .trim_matches(['{', '}'])
                    .split(',')
                    .filter_map(|kv| {
                        kv.split_once(':')
                            .map(|(k, _)| format!("{}: TODO", k.trim()))
                    })
                    .collect();
                format!(" {{ {} }}", keys.join(", "))
            }
            v if v.starts_with('[') => " [TODO]".to_string(),
            _ => " TODO".to_string(),
        };
        out.push(((indent - base) / 2, format!("{k}:{value}")));
    }
    Some(out)
}
