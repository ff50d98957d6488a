//! Eight bytes tested at once (one `u64` word): the printers' scans for
//! bytes to escape skip plain text a word at a time. Exact tests, from
//! "haszero" and "hasless" of Sean Anderson's bit twiddling hacks. Imports
//! nothing, so every layer may use it.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The word at `b[i..i + 8]` (little-endian), if there are eight bytes.
pub fn word(b: &[u8], i: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(i..i.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// Whether a byte of `w` is `byte`.
pub fn has_byte(w: u64, byte: u8) -> bool {
    let v = w ^ (ONES * u64::from(byte));
    v.wrapping_sub(ONES) & !v & HIGH != 0
}

/// Whether a byte of `w` is below `n` (`n` at most 0x80).
pub fn has_below(w: u64, n: u8) -> bool {
    w.wrapping_sub(ONES * u64::from(n)) & !w & HIGH != 0
}

/// Whether a byte of `w` is 0x80 or above (not ASCII).
pub fn has_high(w: u64) -> bool {
    w & HIGH != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_test_agrees_with_a_byte_loop_at_every_position() {
        for pos in 0..8 {
            for b in 0..=255u8 {
                let mut bytes = *b"abcdefgh";
                bytes[pos] = b;
                let w = word(&bytes, 0).unwrap();
                assert_eq!(has_byte(w, b'"'), bytes.contains(&b'"'), "{bytes:?}");
                assert_eq!(
                    has_below(w, 0x20),
                    bytes.iter().any(|&c| c < 0x20),
                    "{bytes:?}"
                );
                assert_eq!(has_high(w), bytes.iter().any(|&c| c >= 0x80), "{bytes:?}");
            }
        }
        assert_eq!(word(b"1234567", 0), None);
        assert_eq!(word(b"12345678", 1), None);
    }
}
