//! Content hashes: the keys of the analysis cache and the names of the search shards.

use sha2::{Digest, Sha256};

/// A content hash.
pub type Hash = [u8; 32];

pub fn hash_bytes(bytes: &[u8]) -> Hash {
    Sha256::digest(bytes).into()
}

pub fn hex(hash: &Hash) -> String {
    hash.iter().map(|b| format!("{b:02x}")).collect()
}
