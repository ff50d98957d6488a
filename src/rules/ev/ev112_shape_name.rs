//! EV112: events are named for a fact (past tense), commands for a request
//! (imperative); a name that says the opposite confuses ownership.
use super::common::text;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let (Some(shape), Some(name)) = (text(c, "/spec/shape"), text(c, "/spec/event_type"))
        else {
            continue;
        };
        let words = words(name);
        let variant = match shape {
            "event" if !words.iter().any(|w| is_past(w)) => words
                .iter()
                .find(|w| is_imperative(w))
                .map(|verb| ("event_imperative", verb.clone())),
            "command" => words
                .iter()
                .find(|w| is_past(w))
                .map(|w| ("command_past", w.clone())),
            _ => None,
        };
        if let Some((variant, word)) = variant {
            sink.push(
                c.report(RuleId::EV112, "/spec/event_type")
                    .variant(variant)
                    .var("event_type", name)
                    .var("word", word),
            );
        }
    }
}

/// Lower-case words of a wire name: `order.confirmed`, `OrderConfirmed`,
/// `capture_payment` and `orders-v2.create` all split.
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for ch in name.chars() {
        if !ch.is_ascii_alphabetic() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = ch.is_ascii_lowercase();
        cur.push(ch.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Irregular past participles common in event names.
const IRREGULAR_PAST: &[&str] = &[
    "paid",
    "sent",
    "sold",
    "built",
    "made",
    "held",
    "lost",
    "won",
    "bought",
    "caught",
    "found",
    "left",
    "kept",
    "met",
    "spent",
    "begun",
    "done",
    "drawn",
    "given",
    "known",
    "seen",
    "shown",
    "taken",
    "thrown",
    "written",
    "chosen",
    "frozen",
    "broken",
    "withdrawn",
    "rebuilt",
    "undone",
];

/// Verbs commands are usually named with.
const COMMAND_VERBS: &[&str] = &[
    "create",
    "update",
    "delete",
    "remove",
    "cancel",
    "confirm",
    "capture",
    "charge",
    "refund",
    "send",
    "ship",
    "approve",
    "reject",
    "reserve",
    "release",
    "register",
    "submit",
    "process",
    "start",
    "stop",
    "pay",
    "issue",
    "notify",
    "sync",
    "import",
    "export",
    "publish",
    "schedule",
    "assign",
    "close",
    "open",
    "archive",
    "restore",
    "reset",
    "activate",
    "deactivate",
    "enable",
    "disable",
    "retry",
    "apply",
    "authorize",
    "authorise",
    "settle",
    "transfer",
    "book",
    "allocate",
    "calculate",
    "generate",
    "validate",
    "verify",
    "rebuild",
    "reindex",
    "invalidate",
    "place",
    "add",
    "request",
    "execute",
    "run",
    "trigger",
    "provision",
];

pub fn is_past(word: &str) -> bool {
    (word.len() > 3 && word.ends_with("ed") && !word.ends_with("eed"))
        || IRREGULAR_PAST.contains(&word)
}

pub fn is_imperative(word: &str) -> bool {
    COMMAND_VERBS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_every_naming_style() {
        assert_eq!(words("order.confirmed"), ["order", "confirmed"]);
        assert_eq!(words("OrderConfirmed"), ["order", "confirmed"]);
        assert_eq!(words("capture_payment-v2"), ["capture", "payment", "v"]);
        assert_eq!(words("ext.PSPWebhook"), ["ext", "pspwebhook"]);
    }

    #[test]
    fn tense_heuristics() {
        assert!(is_past("confirmed") && is_past("paid") && is_past("shipped"));
        assert!(!is_past("feed") && !is_past("red") && !is_past("capture"));
        assert!(is_imperative("capture") && !is_imperative("order"));
    }
}
