//! The units of the contract format: durations, dates, sizes, row counts.
//!
//! A duration keeps calendar months apart from exact time: `3mo` has no fixed
//! length, so it can be added to a date (by calendar arithmetic) but cannot be
//! compared with `90d`; comparing such a pair is the caller's PC005.
use jiff::civil::Date;
use std::cmp::Ordering;
use std::fmt;

/// A parsed duration: whole calendar months plus an exact number of milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Duration {
    pub months: i64,
    pub millis: i64,
    /// The text the user wrote, for messages.
    text: Text,
}

/// Inline copy of the original spelling (durations are short).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Text {
    buf: [u8; 24],
    len: u8,
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Text {
    fn new(s: &str) -> Text {
        let mut buf = [0u8; 24];
        let mut len = s.len().min(24);
        while !s.is_char_boundary(len) {
            len -= 1;
        }
        buf[..len].copy_from_slice(&s.as_bytes()[..len]);
        Text {
            buf,
            len: len as u8,
        }
    }
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }
}

const SECOND: i64 = 1000;
const MINUTE: i64 = 60 * SECOND;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

impl Duration {
    pub const ZERO: Duration = Duration {
        months: 0,
        millis: 0,
        text: Text {
            buf: [b'0'; 24],
            len: 1,
        },
    };

    /// Parses `<n><unit>` (unit ms|s|m|h|d|w|mo|y), an ISO-8601 duration, or `0`.
    pub fn parse(text: &str) -> Result<Duration, String> {
        let t = text.trim();
        if t == "0" {
            return Ok(Duration {
                text: Text::new(t),
                ..Duration::ZERO
            });
        }
        if t.starts_with('P') {
            return parse_iso(t).map(|(months, millis)| Duration {
                months,
                millis,
                text: Text::new(t),
            });
        }
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(expected_duration(text));
        }
        let n: i64 = t[..digits].parse().map_err(|_| expected_duration(text))?;
        let (months, unit) = match &t[digits..] {
            "ms" => (0, 1),
            "s" => (0, SECOND),
            "m" => (0, MINUTE),
            "h" => (0, HOUR),
            "d" => (0, DAY),
            "w" => (0, 7 * DAY),
            "mo" => (1, 0),
            "y" => (12, 0),
            _ => return Err(expected_duration(text)),
        };
        let overflow = || format!("duration `{text}` is too large");
        Ok(Duration {
            months: n.checked_mul(months).ok_or_else(overflow)?,
            millis: n.checked_mul(unit).ok_or_else(overflow)?,
            text: Text::new(t),
        })
    }

    pub fn is_calendar(&self) -> bool {
        self.months != 0
    }

    pub fn is_zero(&self) -> bool {
        self.months == 0 && self.millis == 0
    }

    /// Compares two durations; `None` when a calendar unit makes the answer
    /// depend on the date (then the caller reports PC005).
    pub fn compare(&self, other: &Duration) -> Option<Ordering> {
        if self.months == other.months {
            return Some(self.millis.cmp(&other.millis));
        }
        if self.is_calendar() || other.is_calendar() {
            return None;
        }
        Some(self.millis.cmp(&other.millis))
    }

    /// The exact length in milliseconds, when there is no calendar part.
    pub fn exact_millis(&self) -> Option<i64> {
        (!self.is_calendar()).then_some(self.millis)
    }

    /// `date + self` by calendar arithmetic (2026-08-31 + 1mo = 2026-09-30);
    /// the exact part is rounded up to whole days.
    pub fn add_to(&self, date: Date) -> Option<Date> {
        let span = jiff::Span::new().try_months(self.months).ok()?;
        let with_months = date.checked_add(span).ok()?;
        let days = self.millis.div_euclid(DAY) + i64::from(self.millis.rem_euclid(DAY) != 0);
        with_months
            .checked_add(jiff::Span::new().try_days(days).ok()?)
            .ok()
    }

    /// `self + other`, written as its canonical text (`4d`, `1mo2d`).
    pub fn plus(&self, other: &Duration) -> Duration {
        let months = self.months.saturating_add(other.months);
        let millis = self.millis.saturating_add(other.millis);
        let text = canonical(months, millis);
        Duration {
            months,
            millis,
            text: Text::new(&text),
        }
    }

    /// The canonical text: months, then the largest exact unit that divides
    /// the rest (`36h` stays `36h`, `48h` is `2d`).
    pub fn exact_text(&self) -> String {
        canonical(self.months, self.millis)
    }

    /// The text as the user wrote it.
    pub fn as_written(&self) -> &str {
        self.text.as_str()
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_written())
    }
}

fn canonical(months: i64, millis: i64) -> String {
    let mut out = String::new();
    if months != 0 {
        out = format!("{months}mo");
    }
    if millis != 0 || months == 0 {
        let units = [(DAY, "d"), (HOUR, "h"), (MINUTE, "m"), (SECOND, "s")];
        let (n, unit) = units
            .iter()
            .find(|(u, _)| millis % u == 0)
            .map_or((millis, "ms"), |(u, name)| (millis / u, *name));
        if !(months != 0 && n == 0) {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    out
}

fn expected_duration(text: &str) -> String {
    format!(
        "`{text}` is not a duration: expected <n><unit> with unit ms|s|m|h|d|w|mo|y (30s, 5m, 35d), an ISO-8601 duration (PT5M, P35D), or 0"
    )
}

fn parse_iso(t: &str) -> Result<(i64, i64), String> {
    let span: jiff::Span = t.parse().map_err(|_| expected_duration(t))?;
    if span.is_negative() {
        return Err(format!("duration `{t}` is negative"));
    }
    let months = i64::from(span.get_years()) * 12 + i64::from(span.get_months());
    let millis = i64::from(span.get_weeks()) * 7 * DAY
        + i64::from(span.get_days()) * DAY
        + i64::from(span.get_hours()) * HOUR
        + span.get_minutes() * MINUTE
        + span.get_seconds() * SECOND
        + span.get_milliseconds();
    Ok((months, millis))
}

/// Parses an ISO-8601 calendar date.
pub fn parse_date(text: &str) -> Result<Date, String> {
    let t = text.trim();
    let ok = t.len() == 10 && t.as_bytes()[4] == b'-' && t.as_bytes()[7] == b'-';
    ok.then(|| t.parse::<Date>().ok())
        .flatten()
        .ok_or_else(|| format!("`{text}` is not a calendar date: expected YYYY-MM-DD (2026-10-02)"))
}

/// Parses a size (`2TiB`, `512MiB`, `1000`) into bytes.
pub fn parse_size(text: &str) -> Result<u128, String> {
    let t = text.trim();
    let err = || format!("`{text}` is not a size: expected <n> or <n><KiB|MiB|GiB|TiB> (2TiB)");
    let (num, mult) = [
        ("TiB", 1u128 << 40),
        ("GiB", 1 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
    ]
    .iter()
    .find_map(|(suf, m)| t.strip_suffix(suf).map(|n| (n, *m)))
    .unwrap_or((t, 1));
    scaled(num, mult).ok_or_else(err)
}

/// Parses a row count (`120M`, `40k`, `3B`, `1500`).
pub fn parse_rows(text: &str) -> Result<u128, String> {
    let t = text.trim();
    let err = || format!("`{text}` is not a row count: expected <n> or <n><k|M|B> (120M)");
    let (num, mult) = match t.chars().last() {
        Some('k') => (&t[..t.len() - 1], 1_000u128),
        Some('M') => (&t[..t.len() - 1], 1_000_000),
        Some('B') => (&t[..t.len() - 1], 1_000_000_000),
        _ => (t, 1),
    };
    scaled(num, mult).ok_or_else(err)
}

/// `1.5` × 1024 without floating point (a fraction of a unit rounds down).
fn scaled(num: &str, mult: u128) -> Option<u128> {
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    if num.contains('.') && frac.is_empty() {
        return None;
    }
    let digits: u128 = format!("{int}{frac}").parse().ok()?;
    let scale = 10u128.checked_pow(u32::try_from(frac.len()).ok()?)?;
    Some(digits.checked_mul(mult)? / scale)
}

/// Formats an integer with thousands separators (1,140).
pub fn thousands(n: i128) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sums_are_written_in_their_largest_exact_unit() {
        let d = |s| super::Duration::parse(s).unwrap();
        assert_eq!(d("1d").plus(&d("3d")).to_string(), "4d");
        assert_eq!(d("12h").plus(&d("1d")).to_string(), "36h");
        assert_eq!(d("1mo").plus(&d("2d")).to_string(), "1mo2d");
        assert_eq!(d("1mo").plus(&d("0")).to_string(), "1mo");
        assert_eq!(d("90s").plus(&d("500ms")).to_string(), "90500ms");
        assert_eq!(
            d("1d").plus(&d("3d")).compare(&d("96h")),
            Some(std::cmp::Ordering::Equal)
        );
    }

    use super::*;

    #[test]
    fn durations_compare_across_units() {
        let a = Duration::parse("90d").unwrap();
        let b = Duration::parse("P90D").unwrap();
        let c = Duration::parse("12w").unwrap();
        assert_eq!(a.compare(&b), Some(Ordering::Equal));
        assert_eq!(c.compare(&a), Some(Ordering::Less));
        assert_eq!(
            Duration::parse("PT5M")
                .unwrap()
                .compare(&Duration::parse("300s").unwrap()),
            Some(Ordering::Equal)
        );
        assert_eq!(Duration::parse("3mo").unwrap().compare(&a), None);
        assert_eq!(
            Duration::parse("1y")
                .unwrap()
                .compare(&Duration::parse("P1Y").unwrap()),
            Some(Ordering::Equal)
        );
        assert!(Duration::parse("0").unwrap().is_zero());
        assert!(Duration::parse("0s").unwrap().is_zero());
    }

    #[test]
    fn calendar_addition_clamps_to_month_end() {
        let d = parse_date("2026-08-31").unwrap();
        let m = Duration::parse("1mo").unwrap();
        assert_eq!(m.add_to(d).unwrap().to_string(), "2026-09-30");
        assert_eq!(
            Duration::parse("P3M")
                .unwrap()
                .add_to(d)
                .unwrap()
                .to_string(),
            "2026-11-30"
        );
        assert_eq!(
            Duration::parse("36h")
                .unwrap()
                .add_to(d)
                .unwrap()
                .to_string(),
            "2026-09-02"
        );
    }

    #[test]
    fn bad_units_are_errors() {
        for bad in ["5 minutes", "5min", "-3d", "P", "PT", "d", "1.5h", ""] {
            assert!(Duration::parse(bad).is_err(), "{bad}");
        }
        assert!(parse_date("2026-02-30").is_err());
        assert!(parse_date("2026-2-3").is_err());
        assert_eq!(parse_size("2TiB").unwrap(), 2 << 40);
        assert_eq!(parse_size("1.5KiB").unwrap(), 1536);
        assert!(parse_size("2TB").is_err());
        assert_eq!(parse_rows("120M").unwrap(), 120_000_000);
        assert_eq!(parse_rows("1.5k").unwrap(), 1500);
        assert!(parse_rows("12x").is_err());
        assert_eq!(thousands(1140), "1,140");
        assert_eq!(thousands(400_000_000), "400,000,000");
    }
}
