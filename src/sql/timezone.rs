//! TimeZone settings as the rewrite rules need them: shared by the static
//! analysis (a `SET TIME ZONE` earlier in the file) and verify (the
//! server's own setting), so neither imports the other.

/// A TimeZone setting whose offset is zero all year: PostgreSQL then
/// stores timestamp and timestamptz alike and skips the rewrite between them.
pub fn is_utc(tz: &str) -> bool {
    let tz = tz.trim().trim_matches(['\'', '"']).to_ascii_lowercase();
    let tz = tz.strip_prefix("etc/").unwrap_or(&tz);
    matches!(
        tz,
        "utc" | "gmt" | "uct" | "zulu" | "universal" | "gmt0" | "gmt+0" | "gmt-0" | "z"
    )
}

#[cfg(test)]
mod tests {
    use super::is_utc;

    #[test]
    fn zero_offset_names_only() {
        for tz in ["UTC", "'Etc/UTC'", "\"gmt\"", "Zulu", "etc/gmt0"] {
            assert!(is_utc(tz), "{tz}");
        }
        for tz in ["Europe/Berlin", "EST", "utc+1", "local"] {
            assert!(!is_utc(tz), "{tz}");
        }
    }
}
