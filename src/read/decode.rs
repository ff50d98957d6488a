//! Turning a file's bytes into text: UTF-8 with or without a BOM, UTF-16 and
//! UTF-32 by their BOM; anything else is refused with a reason, never
//! skipped, since a gate that cannot read a file has not checked it.

/// Decodes an input file. The BOM is dropped, so column 1 is the first
/// character a person sees.
pub fn decode(bytes: Vec<u8>) -> Result<String, String> {
    // UTF-32 LE starts like UTF-16 LE (FF FE): test the longer BOMs first.
    if bytes.starts_with(&[0xFF, 0xFE, 0, 0]) {
        return utf32(&bytes[4..], u32::from_le_bytes, "UTF-32LE");
    }
    if bytes.starts_with(&[0, 0, 0xFE, 0xFF]) {
        return utf32(&bytes[4..], u32::from_be_bytes, "UTF-32BE");
    }
    if bytes.starts_with(&[0xFF, 0xFE]) {
        return utf16(&bytes[2..], u16::from_le_bytes, "UTF-16LE");
    }
    if bytes.starts_with(&[0xFE, 0xFF]) {
        return utf16(&bytes[2..], u16::from_be_bytes, "UTF-16BE");
    }
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&bytes);
    if let Some(guess) = bomless_wide(body) {
        return Err(format!(
            "the text looks like {guess} without a byte-order mark; save it as UTF-8 (or add the BOM)"
        ));
    }
    let bom = bytes.len() - body.len();
    if let Err(e) = std::str::from_utf8(body) {
        return Err(format!(
            "not valid UTF-8 (first invalid byte at offset {})",
            e.valid_up_to() + bom
        ));
    }
    // The bytes become the text without a copy: a run reads every SQL
    // file of the repository (14 MB on the bench repo), and a copy per file
    // is pages faulted in and freed again.
    let mut bytes = bytes;
    bytes.drain(..bom);
    Ok(String::from_utf8(bytes).expect("checked above"))
}

fn utf16(body: &[u8], unit: fn([u8; 2]) -> u16, name: &str) -> Result<String, String> {
    if !body.len().is_multiple_of(2) {
        return Err(format!(
            "not valid {name}: the text has an odd number of bytes"
        ));
    }
    let units = body.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    char::decode_utf16(units)
        .enumerate()
        .map(|(i, c)| {
            c.map_err(|_| {
                format!(
                    "not valid {name} (unpaired surrogate at byte offset {})",
                    2 + i * 2
                )
            })
        })
        .collect()
}

fn utf32(body: &[u8], unit: fn([u8; 4]) -> u32, name: &str) -> Result<String, String> {
    if !body.len().is_multiple_of(4) {
        return Err(format!(
            "not valid {name}: the length is not a multiple of 4 bytes"
        ));
    }
    body.chunks_exact(4)
        .enumerate()
        .map(|(i, c)| {
            char::from_u32(unit([c[0], c[1], c[2], c[3]])).ok_or_else(|| {
                format!(
                    "not valid {name} (no character at byte offset {})",
                    4 + i * 4
                )
            })
        })
        .collect()
}

/// UTF-16 or UTF-32 without a BOM: ASCII text in them has NUL bytes in fixed
/// columns, which UTF-8 text never has. Judged on the first bytes only.
fn bomless_wide(body: &[u8]) -> Option<&'static str> {
    let head = &body[..body.len().min(512)];
    if head.len() < 4 {
        return None;
    }
    let nul_at = |rem: usize, step: usize| {
        let (mut nul, mut all) = (0, 0);
        for (i, b) in head.iter().enumerate() {
            if i % step == rem {
                all += 1;
                nul += usize::from(*b == 0);
            }
        }
        all > 0 && nul * 10 >= all * 9
    };
    let none_at = |rem: usize, step: usize| {
        head.iter()
            .enumerate()
            .all(|(i, b)| i % step != rem || *b != 0)
    };
    if nul_at(1, 4) && nul_at(2, 4) && nul_at(3, 4) && none_at(0, 4) {
        return Some("UTF-32LE");
    }
    if nul_at(0, 4) && nul_at(1, 4) && nul_at(2, 4) && none_at(3, 4) {
        return Some("UTF-32BE");
    }
    if nul_at(1, 2) && none_at(0, 2) {
        return Some("UTF-16LE");
    }
    if nul_at(0, 2) && none_at(1, 2) {
        return Some("UTF-16BE");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::decode;

    fn utf16le(s: &str, bom: bool) -> Vec<u8> {
        let mut v = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
        v.extend(s.encode_utf16().flat_map(u16::to_le_bytes));
        v
    }

    #[test]
    fn utf8_with_and_without_bom() {
        assert_eq!(decode(b"a: 1\n".to_vec()).unwrap(), "a: 1\n");
        assert_eq!(decode(b"\xEF\xBB\xBFa: 1\n".to_vec()).unwrap(), "a: 1\n");
    }

    #[test]
    fn wide_encodings_with_a_bom_are_decoded() {
        assert_eq!(decode(utf16le("kind: é\n", true)).unwrap(), "kind: é\n");
        let mut be = vec![0xFE, 0xFF];
        be.extend("k: 1".encode_utf16().flat_map(u16::to_be_bytes));
        assert_eq!(decode(be).unwrap(), "k: 1");
        let mut le32 = vec![0xFF, 0xFE, 0, 0];
        le32.extend("k: 1".chars().flat_map(|c| (c as u32).to_le_bytes()));
        assert_eq!(decode(le32).unwrap(), "k: 1");
        let mut be32 = vec![0, 0, 0xFE, 0xFF];
        be32.extend("k: 1".chars().flat_map(|c| (c as u32).to_be_bytes()));
        assert_eq!(decode(be32).unwrap(), "k: 1");
    }

    #[test]
    fn wide_encodings_without_a_bom_are_refused_by_name() {
        let e = decode(utf16le("apiVersion: platcheck/v1\n", false)).unwrap_err();
        assert!(e.contains("UTF-16LE without a byte-order mark"), "{e}");
        let le32: Vec<u8> = "apiVersion: x"
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        assert!(decode(le32).unwrap_err().contains("UTF-32LE"));
    }

    #[test]
    fn broken_input_is_refused_with_an_offset() {
        assert!(decode(b"ok\xFF".to_vec()).unwrap_err().contains("offset 2"));
        assert!(decode(vec![0xFF, 0xFE, 0x41]).unwrap_err().contains("odd"));
        let lone = vec![0xFF, 0xFE, 0x00, 0xD8];
        assert!(decode(lone).unwrap_err().contains("surrogate"));
    }
}
