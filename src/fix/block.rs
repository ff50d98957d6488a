//! A block a rule needs and the contract lacks entirely (`spec.backup`,
//! `spec.engine.next_tier`, `spec.lifecycle`) is inserted from the rule's
//! own "Use instead" YAML example with every value `TODO` (unsafe: a person
//! must fill it in, and PC004/PC005 say where). Any rule whose data file
//! says `fix: unsafe` gets it when its finding names a missing key whose
//! parent mapping exists and the example holds that key as a block.
use super::{fix, line_start};
use crate::catalog::FixSafety;
use crate::emit::Report;
use crate::finding::{Edit, Fix};
use crate::registry::RuleCtx;

pub fn missing_block(ctx: &RuleCtx, r: &Report) -> Option<Fix> {
    let pointer = r.pointer.as_deref()?;
    let (parent_ptr, key) = pointer.rsplit_once('/')?;
    if parent_ptr.is_empty() || key.is_empty() || key.parse::<usize>().is_ok() {
        return None;
    }
    let contract = ctx
        .ws
        .contracts
        .iter()
        .find(|c| c.file == r.file && Some(&c.contract_ref()) == r.contract.as_deref())?;
    if contract.get(pointer).is_some() {
        return None;
    }
    let parent = contract.get(parent_ptr)?;
    let (first_key, _) = parent.entries().first()?;
    let src = &ctx.ws.files[r.file];
    let text = &*src.text;
    // The parent is a block mapping (or a list item's mapping): its first
    // key starts its line, after indentation and at most a `- `.
    let first_line = line_start(text, first_key.span.start);
    let lead = &text[first_line..first_key.span.start];
    if !lead
        .trim_start_matches(' ')
        .trim_end_matches(' ')
        .is_empty()
        && lead.trim() != "-"
    {
        return None;
    }
    let child_indent = src.line_col(first_key.span.start).column - 1;
    let parents: Vec<&str> = parent_ptr
        .split('/')
        .filter(|s| !s.is_empty() && s.parse::<usize>().is_err())
        .collect();
    let example = example_block(&r.rule.meta().body, &parents, key)?;
    // The end of the parent block: after its last line indented as deep as
    // its keys, before the first later line that is less indented (blank
    // lines and comments less indented belong to what follows).
    let mut at = text[first_line..]
        .find('\n')
        .map_or(text.len(), |i| first_line + i + 1);
    let mut end = at;
    while at < text.len() {
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
        let line = &text[at..line_end];
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if !trimmed.trim().is_empty() {
            if indent >= child_indent {
                end = line_end;
            } else if !trimmed.starts_with('#') {
                break;
            }
        }
        at = line_end;
    }
    let nl = super::eol(text);
    let pad = " ".repeat(child_indent);
    let mut block = String::new();
    if !text[..end].ends_with('\n') {
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
/// with every value replaced by `TODO`: the occurrence whose enclosing keys
/// end like `parents` (the example may start at any depth), and only when
/// it is a block (a scalar is not a missing block).
fn example_block(body: &str, parents: &[&str], key: &str) -> Option<Vec<(usize, String)>> {
    let start = body.find("## Use instead")?;
    let rest = &body[start..];
    let code = rest.find("```yaml\n")? + 8;
    let code_end = rest[code..].find("```")? + code;
    let lines: Vec<&str> = rest[code..code_end].lines().collect();
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    let head = (0..lines.len())
        .filter(|&i| lines[i].trim_start() == format!("{key}:"))
        .find(|&i| {
            // Enclosing keys, innermost first.
            let mut chain = Vec::new();
            let mut depth = indent_of(lines[i]);
            for l in lines[..i].iter().rev() {
                let d = indent_of(l);
                if !l.trim().is_empty() && d < depth {
                    chain.push(
                        l.trim()
                            .trim_start_matches("- ")
                            .split(':')
                            .next()
                            .unwrap_or(""),
                    );
                    depth = d;
                }
            }
            chain.iter().zip(parents.iter().rev()).all(|(a, b)| a == b)
        })?;
    let base = indent_of(lines[head]);
    let mut out = vec![(0, format!("{key}:"))];
    for l in &lines[head + 1..] {
        let indent = indent_of(l);
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
    (out.len() > 1).then_some(out)
}
