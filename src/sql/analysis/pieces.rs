//! The statement pieces of a script, each tool block joined into one, with
//! the tokens the splitter lexed (so a file is lexed once).
use super::TOKEN_LIMIT;
use super::walk::Source;
use crate::sql::Dialect;
use crate::sql::lexer::{self, Token};
use crate::sql::split;

/// A statement piece and its significant tokens (offsets in the piece's
/// body), or a piece whose body must be lexed again.
struct Next {
    piece: split::Piece,
    toks: Vec<Token>,
    /// Lex `body` alone: the piece joins several (a tool block), or a
    /// custom delimiter may have cut tokens short.
    relex: bool,
}

/// `f` over the statement pieces in order, with each tool block
/// (`StatementBegin` … `End`) joined into one, and each statement's tokens:
/// the ones the splitter lexed, so a file is lexed once.
pub(super) fn statements(
    src: &Source,
    dialect: Dialect,
    mut f: impl FnMut(split::Piece, &[Token]),
) {
    let block_of = |at: usize| {
        src.blocks
            .iter()
            .position(|b| b.start <= src.base + at && src.base + at < b.end)
    };
    let text = src.text;
    // Gives the token list back, to be filled again: a list grown anew for
    // each statement was 2% of a 20k-statement run.
    let mut flush = |n: Next| {
        let body = &text[n.piece.body.start..n.piece.body.end];
        if n.relex {
            f(n.piece, &lexer::tokens(body, dialect, TOKEN_LIMIT));
        } else {
            f(n.piece, &n.toks);
        }
        n.toks
    };
    let mut spare = Vec::new();
    let mut splitter = split::Splitter::new(text, dialect);
    let mut cur: Option<Next> = None;
    let mut last_block = None;
    let mut toks = Vec::new();
    while let Some(p) = splitter.next_piece(Some(split::Tokens {
        out: &mut toks,
        limit: TOKEN_LIMIT,
    })) {
        if !p.is_statement() {
            continue;
        }
        let blk = block_of(p.body.start);
        if blk.is_some()
            && blk == last_block
            && let Some(prev) = cur.as_mut()
        {
            prev.piece.body.end = p.body.end;
            prev.piece.span.end = p.span.end;
            if prev.piece.error.is_none() {
                prev.piece.error = p.error;
            }
            prev.relex = true;
            continue;
        }
        last_block = blk;
        let at = p.body.start;
        for t in &mut toks {
            t.start -= at;
            t.end -= at;
        }
        let next = Next {
            piece: p,
            toks: std::mem::replace(&mut toks, std::mem::take(&mut spare)),
            relex: splitter.custom_delimiter(),
        };
        if let Some(done) = cur.replace(next) {
            spare = flush(done);
            spare.clear();
        }
    }
    if let Some(done) = cur {
        flush(done);
    }
}
