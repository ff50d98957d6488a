//! A contract's positioned tree, either built by the loader or kept as the
//! cache's bytes and decoded on first use. A one-file run loads thousands
//! of contracts from the cache for context but reads the trees of a few:
//! decoding every one was most of its instructions and, through the
//! allocations, most of its system time. The bytes are framed (their
//! length is checked when the cache is read) but their content is checked
//! only here, when decoded.
use super::yaml::Node;
use std::sync::{Arc, OnceLock};

/// An encoded tree: a range of the cache file's bytes, and what it was
/// made from (the file's text, the contract's index in it and the
/// pointer of the node): the text completes the tree's scalars, and a tree
/// that does not decode is rebuilt from it by the loader, not misread.
pub struct Encoded {
    pub(crate) data: Arc<Vec<u8>>,
    pub(crate) range: (usize, usize),
    pub(crate) text: crate::source::Text,
    pub(crate) contract: usize,
    pub(crate) pointer: &'static str,
    pub(crate) decode: fn(&Encoded) -> Node,
}

pub struct Tree {
    node: OnceLock<Node>,
    encoded: Option<Encoded>,
}

impl Tree {
    /// A tree kept as bytes until it is first read.
    pub fn encoded(encoded: Encoded) -> Tree {
        Tree {
            node: OnceLock::new(),
            encoded: Some(encoded),
        }
    }

    /// Where the encoded bytes are in the cache file's data.
    #[cfg(test)]
    pub(crate) fn range(&self) -> Option<(usize, usize)> {
        self.encoded.as_ref().map(|e| e.range)
    }

    /// Whether the tree has been built (for the cache's tests and benches).
    pub fn is_decoded(&self) -> bool {
        self.node.get().is_some()
    }
}

impl From<Node> for Tree {
    fn from(node: Node) -> Tree {
        Tree {
            node: OnceLock::from(node),
            encoded: None,
        }
    }
}

impl std::ops::Deref for Tree {
    type Target = Node;
    fn deref(&self) -> &Node {
        self.node.get_or_init(|| {
            let e = self
                .encoded
                .as_ref()
                .expect("a tree is either built or encoded");
            (e.decode)(e)
        })
    }
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        **self == **other
    }
}
