//! Near-miss suggestions (did-you-mean) for keys, enum values and rule names.
use crate::catalog::RuleId;

/// A rule selector's rules, or the message for one that names none (with a
/// did-you-mean among rule ids and names).
pub fn select_rules(key: &str) -> Result<(u8, Vec<RuleId>), String> {
    crate::catalog::select(key).ok_or_else(|| {
        let mut names: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        names.extend(RuleId::ALL.iter().map(|r| r.meta().name.as_str()));
        let hint = suggest(&key.to_ascii_uppercase(), &names)
            .or_else(|| suggest(key, &names))
            .map(|s| format!("; did you mean `{s}`?"))
            .unwrap_or_else(|| {
                "; `platcheck rules` lists them (ids, names, families like MG, prefixes like MG03)"
                    .into()
            });
        format!("unknown rule `{key}`{hint}")
    })
}

/// A near-miss suggestion: same name ignoring case and `-`/`_`, or within a
/// small edit distance.
pub fn suggest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let k = norm(key);
    if let Some(exact) = known.iter().find(|c| norm(c) == k) {
        return Some(exact);
    }
    // Long names (rule names) tolerate a typo more per word.
    let limit = match k.len() {
        0..=4 => 1,
        5..=15 => 2,
        _ => 3,
    };
    known
        .iter()
        .map(|c| (edit_distance(&k, &norm(c)), *c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// The one close match of `key` among `known`: `None` when none is close
/// or several are equally close.
pub fn suggest_unique<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let k = norm(key);
    let exact: Vec<&&str> = known.iter().filter(|c| norm(c) == k).collect();
    if let [one] = exact.as_slice() {
        return Some(one);
    }
    let limit = if k.len() <= 4 { 1 } else { 2 };
    let scored: Vec<(usize, &str)> = known
        .iter()
        .map(|c| (edit_distance(&k, &norm(c)), *c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    let best = scored.iter().map(|(d, _)| *d).min()?;
    let mut at_best = scored.iter().filter(|(d, _)| *d == best);
    let first = at_best.next()?.1;
    at_best.next().is_none().then_some(first)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let known = ["rpo", "rto", "topology", "failover_test"];
        assert_eq!(suggest("rpoo", &known), Some("rpo"));
        assert_eq!(suggest("Topology", &known), Some("topology"));
        assert_eq!(suggest("failover-test", &known), Some("failover_test"));
        assert_eq!(suggest("banana", &known), None);
    }
}
