//! How deep a statement nests, measured on platcheck's own tokens the way
//! sqlparser spends its recursion budget, so that PC009 knows a statement
//! was too deep for the parser without relying on the wording of its error
//! (a reworded message would otherwise turn the error into a warning).
//!
//! sqlparser spends one level on the statement, one on a query, one on a
//! select item and one per expression it descends into: a `(` or `[` of an
//! expression, a function's arguments, a subquery's `(SELECT` (two: the
//! query and its expression; one for a CTE's or a view's `AS (SELECT`, which
//! is a query without an expression around it). The estimate errs high (by at
//! most two levels on the shapes the tests compare with the parser), never
//! low, so a statement the parser gave up on for its depth is never missed.
use crate::sql::Dialect;
use crate::sql::analysis::TOKEN_LIMIT;
use crate::sql::lexer::{self, Tok, Token};

/// sqlparser's recursion budget (`DEFAULT_REMAINING_DEPTH`).
pub const PARSER_DEPTH: usize = 50;

/// Where a statement's nesting is deepest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nesting {
    /// The bracket at which the estimate passes [`PARSER_DEPTH`], if it does.
    pub past_limit: Option<usize>,
    /// The bracket that opens the deepest level (0: the statement has none).
    pub deepest: usize,
}

pub fn nesting(body: &str, dialect: Dialect) -> Nesting {
    let toks = lexer::tokens(body, dialect, TOKEN_LIMIT);
    let word = |t: Option<&Token>| {
        t.filter(|t| t.kind == Tok::Word)
            .map(|t| body[t.start..t.end].to_ascii_lowercase())
    };
    let query = |t: Option<&Token>| {
        word(t).is_some_and(|w| matches!(w.as_str(), "select" | "with" | "values"))
    };
    // The statement, then its top-level query (and select item) or its
    // top-level expression.
    let mut depth = 0usize;
    let mut top_query = false;
    for t in &toks {
        match (t.kind, &body[t.start..t.end]) {
            (Tok::Punct, "(" | "[") => depth += 1,
            (Tok::Punct, ")" | "]") => depth = depth.saturating_sub(1),
            _ => top_query |= depth == 0 && query(Some(t)),
        }
    }
    let mut used = if top_query { 4 } else { 3 };
    let mut open: Vec<usize> = Vec::new();
    let mut out = Nesting {
        past_limit: None,
        deepest: 0,
    };
    let mut deepest = used;
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Tok::Punct {
            continue;
        }
        match &body[t.start..t.end] {
            "(" | "[" => {
                // A query in brackets right after `AS` is a CTE's or a
                // view's body: the parser reads it as a query alone, without
                // the expression level a subquery costs.
                let body = i > 0 && word(toks.get(i - 1)).is_some_and(|w| w == "as");
                let cost = if body && query(toks.get(i + 1)) {
                    1
                } else {
                    1 + usize::from(query(toks.get(i + 1)))
                };
                used += cost;
                open.push(cost);
                if used > deepest {
                    deepest = used;
                    out.deepest = t.start;
                }
                if used > PARSER_DEPTH && out.past_limit.is_none() {
                    out.past_limit = Some(t.start);
                }
            }
            ")" | "]" => used -= open.pop().unwrap_or(0),
            _ => {}
        }
    }
    out
}

/// Whether sqlparser's message is its recursion-limit error, compared with
/// the text the library itself renders for it (not a copy of its wording).
pub fn is_recursion_error(message: &str) -> bool {
    let ours = sqlparser::parser::ParserError::RecursionLimitExceeded.to_string();
    !message.is_empty() && ours.ends_with(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::{MySqlDialect, PostgreSqlDialect};
    use sqlparser::parser::{Parser, ParserError};

    fn too_deep_for_parser(sql: &str, d: Dialect) -> bool {
        let r = match d {
            Dialect::Postgres => Parser::parse_sql(&PostgreSqlDialect {}, sql),
            _ => Parser::parse_sql(&MySqlDialect {}, sql),
        };
        matches!(r, Err(ParserError::RecursionLimitExceeded))
    }

    fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    }

    /// For each shape, the least nesting at which sqlparser gives up for
    /// its depth, and the least at which the estimate says it would: the
    /// estimate is never later, and at most two levels early.
    #[test]
    fn the_estimate_never_misses_a_statement_the_parser_finds_too_deep() {
        type Shape = (&'static str, fn(usize) -> String);
        let shapes: Vec<Shape> = vec![
            ("check", |n| {
                format!(
                    "ALTER TABLE t ADD CONSTRAINT c CHECK {}",
                    nested("(", "1", ")", n)
                )
            }),
            ("default", |n| {
                format!(
                    "ALTER TABLE t ADD COLUMN a int DEFAULT {}",
                    nested("(", "1", ")", n)
                )
            }),
            ("create", |n| {
                format!("CREATE TABLE t (a int CHECK {})", nested("(", "1", ")", n))
            }),
            ("select", |n| format!("SELECT {}", nested("(", "1", ")", n))),
            ("view", |n| {
                format!("CREATE VIEW v AS SELECT {}", nested("(", "1", ")", n))
            }),
            ("subquery", |n| {
                format!("SELECT {}", nested("(SELECT ", "1", ")", n))
            }),
            ("function", |n| {
                format!("SELECT {}", nested("f(", "1", ")", n))
            }),
            ("array", |n| {
                format!("SELECT {}", nested("ARRAY[", "1", "]", n))
            }),
            ("values", |n| {
                format!("INSERT INTO t VALUES ({})", nested("(", "1", ")", n))
            }),
            ("from", |n| {
                format!("SELECT * FROM {}", nested("(SELECT * FROM ", "t", ") s", n))
            }),
            ("in", |n| {
                format!(
                    "DELETE FROM t WHERE a IN {}",
                    nested("(SELECT a FROM t WHERE a IN ", "(1)", ")", n)
                )
            }),
            ("update", |n| {
                format!("UPDATE t SET a = {}", nested("(", "1", ")", n))
            }),
            ("view_body", |n| {
                format!(
                    "CREATE VIEW v AS {}",
                    nested("(SELECT * FROM ", "t", ") s", n)
                )
            }),
            ("cte_in_subquery", |n| {
                format!(
                    "SELECT {}",
                    nested("(WITH y AS (SELECT 1) SELECT ", "1", ")", n)
                )
            }),
            ("cte", |n| {
                format!(
                    "WITH x AS {} SELECT 1",
                    nested("(WITH y AS ", "(SELECT 1)", " SELECT 1)", n)
                )
            }),
        ];
        for d in [Dialect::Postgres, Dialect::MySql] {
            for (name, shape) in &shapes {
                let parser = (1..80).find(|&n| too_deep_for_parser(&shape(n), d));
                let ours = (1..80).find(|&n| nesting(&shape(n), d).past_limit.is_some());
                let (Some(parser), Some(ours)) = (parser, ours) else {
                    panic!("{d:?} {name}: parser {parser:?}, estimate {ours:?}");
                };
                assert!(
                    ours <= parser && parser - ours <= 2,
                    "{d:?} {name}: the parser gives up at {parser}, the estimate at {ours}"
                );
            }
        }
    }

    #[test]
    fn the_limit_is_located_at_its_bracket_and_shallow_statements_pass() {
        let head = "ALTER TABLE t ADD CONSTRAINT c CHECK ";
        let sql = format!("{head}{}", nested("(", "1", ")", 60));
        let n = nesting(&sql, Dialect::Postgres);
        // 3 levels for the statement and its expression, then one per `(`.
        assert_eq!(n.past_limit, Some(head.len() + PARSER_DEPTH - 3));
        assert_eq!(n.deepest, head.len() + 59);
        let n = nesting("SELECT (1) + (2)", Dialect::Postgres);
        assert_eq!(n.past_limit, None);
        assert_eq!(n.deepest, 7);
        // Brackets inside strings and comments are no nesting.
        let n = nesting(
            &format!("SELECT '{}' -- {}", "(".repeat(99), "(".repeat(99)),
            Dialect::Postgres,
        );
        assert_eq!(
            n,
            Nesting {
                past_limit: None,
                deepest: 0
            }
        );
    }

    #[test]
    fn the_recursion_error_is_recognised_by_the_parsers_own_text() {
        let sql = format!("SELECT {}", nested("(", "1", ")", 80));
        let Err(e) = Parser::parse_sql(&PostgreSqlDialect {}, &sql) else {
            panic!("parsed");
        };
        let message = e.to_string();
        assert!(is_recursion_error(&message));
        assert!(is_recursion_error(
            message.trim_start_matches("sql parser error: ")
        ));
        assert!(!is_recursion_error("Expected: an expression, found: )"));
        assert!(!is_recursion_error(""));
    }
}
