//! What the CL rules share: reading values at a pointer, naming missing keys,
//! staleness by calendar arithmetic, exact duration comparison (PC005 when a
//! calendar unit makes it undecidable), majorities and connection budgets.
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::units::{self, Duration, thousands};
use crate::contracts::yaml::Node;
use crate::emit::{Report, Sink};
use jiff::civil::Date;
use std::cmp::Ordering;

/// The node at `pointer`, treating an explicit `null` as absent (`rto:`
/// with no value declares nothing).
pub fn node<'a>(c: &'a Contract, pointer: &str) -> Option<&'a Node> {
    c.get(pointer).filter(|n| !n.is_null())
}

pub fn str_at<'a>(c: &'a Contract, pointer: &str) -> Option<&'a str> {
    node(c, pointer).and_then(Node::as_str)
}

pub fn int_at(c: &Contract, pointer: &str) -> Option<i64> {
    node(c, pointer).and_then(Node::as_i64)
}

pub fn bool_at(c: &Contract, pointer: &str) -> Option<bool> {
    node(c, pointer).and_then(Node::as_bool)
}

/// A duration value; `None` when absent or unparseable (the loader already
/// reported the latter as PC005, so rules stay silent about it).
pub fn duration_at(c: &Contract, pointer: &str) -> Option<Duration> {
    let n = node(c, pointer)?;
    match (n.as_str(), n.as_i64()) {
        (Some(s), _) => Duration::parse(s).ok(),
        (None, Some(0)) => Duration::parse("0").ok(),
        _ => None,
    }
}

pub fn date_at(c: &Contract, pointer: &str) -> Option<Date> {
    units::parse_date(str_at(c, pointer)?).ok()
}

/// `/spec/ha/rto` -> `ha.rto`: how messages name a field.
pub fn field(pointer: &str) -> String {
    pointer
        .strip_prefix("/spec/")
        .unwrap_or(pointer.trim_start_matches('/'))
        .replace('/', ".")
}

/// The findings for required fields that are absent: one per place the
/// reader must edit. Missing fields are grouped under the deepest mapping
/// that exists (`ha:`, or `spec:` when the whole block is absent), and a
/// missing block is named once (`capacity`) instead of by every leaf. The
/// pointer is the missing field when there is exactly one, else the mapping.
/// The rule's template receives `{missing}` (`ha.rpo`, `ha.rto`).
pub fn missing(c: &Contract, rule: RuleId, required: &[String]) -> Vec<Report> {
    // (anchor pointer, missing pointers) in first-seen order.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for pointer in required {
        if node(c, pointer).is_some() {
            continue;
        }
        let first_missing = shallowest_missing(c, pointer);
        let anchor = first_missing
            .rfind('/')
            .map_or(String::new(), |i| first_missing[..i].to_string());
        match groups.iter_mut().find(|(a, _)| *a == anchor) {
            Some((_, names)) if !names.contains(&first_missing) => names.push(first_missing),
            Some(_) => {}
            None => groups.push((anchor, vec![first_missing])),
        }
    }
    groups
        .into_iter()
        .map(|(anchor, names)| {
            let pointer = if names.len() == 1 {
                names[0].clone()
            } else {
                anchor
            };
            let list: Vec<String> = names.iter().map(|n| format!("`{}`", field(n))).collect();
            c.report(rule, &pointer).var("missing", list.join(", "))
        })
        .collect()
}

/// The shortest prefix of `pointer` that is absent (or null).
fn shallowest_missing(c: &Contract, pointer: &str) -> String {
    for (i, ch) in pointer.char_indices().skip(1) {
        if ch == '/' && node(c, &pointer[..i]).is_none() {
            return pointer[..i].to_string();
        }
    }
    pointer.to_string()
}

/// `base` joined with each key: `req("/spec/ha", &["rpo"])` -> `/spec/ha/rpo`.
pub fn under(base: &str, keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| format!("{base}/{k}")).collect()
}

/// A dated activity that must recur: `last` + `cadence` must not be before today.
#[derive(Debug, PartialEq, Eq)]
pub struct Overdue {
    /// When the next run was due (`last` + `cadence`, calendar arithmetic).
    pub due: Date,
    /// Whole days from `last` to today.
    pub age_days: i64,
}

/// `Some` when `last + cadence < today`. A calendar cadence (`3mo`) is added
/// by calendar arithmetic, so 2026-08-31 + 3mo is due on 2026-11-30.
pub fn overdue(last: Date, cadence: &Duration, today: Date) -> Option<Overdue> {
    let due = cadence.add_to(last)?;
    if due >= today {
        return None;
    }
    let age_days = i64::from(last.until(today).ok()?.get_days());
    Some(Overdue { due, age_days })
}

/// Reports a dated activity overdue against its cadence (the default when
/// the contract declares none). The template receives `{last}`, `{age}`,
/// `{today}`, `{cadence}` and `{due}`.
pub fn report_overdue(
    c: &Contract,
    rule: RuleId,
    today: Date,
    last_ptr: &str,
    cadence_ptr: &str,
    default_cadence: &str,
) -> Option<Report> {
    let last = date_at(c, last_ptr)?;
    let (cadence, text) = match node(c, cadence_ptr) {
        Some(_) => {
            let d = duration_at(c, cadence_ptr)?;
            (d, d.to_string())
        }
        None => (
            Duration::parse(default_cadence).ok()?,
            format!(
                "{default_cadence} (the default; set `{}`)",
                field(cadence_ptr)
            ),
        ),
    };
    let o = overdue(last, &cadence, today)?;
    Some(
        c.report(rule, last_ptr)
            .var("last", last)
            .var("age", thousands(i128::from(o.age_days)))
            .var("today", today)
            .var("cadence", text)
            .var("due", o.due),
    )
}

/// Compares the durations at two pointers. When one is in calendar units the
/// answer depends on the date, so this reports PC005 ("calendar") at that
/// value and returns `None`; absent or unparseable values also give `None`.
pub fn compare_at(
    c: &Contract,
    sink: &mut Sink,
    left: &str,
    right: &str,
) -> Option<(Duration, Duration, Ordering)> {
    let (a, b) = (duration_at(c, left)?, duration_at(c, right)?);
    match a.compare(&b) {
        Some(ord) => Some((a, b, ord)),
        None => {
            let (at, cal) = if a.is_calendar() {
                (left, a)
            } else {
                (right, b)
            };
            sink.push(
                c.report(RuleId::PC005, at)
                    .variant("calendar")
                    .var("left", format!("`{}: {a}`", field(left)))
                    .var("right", format!("`{}: {b}`", field(right)))
                    .var("calendar", cal),
            );
            None
        }
    }
}

/// Milliseconds written with the largest unit that divides them (4000 -> 4s).
pub fn fmt_millis(ms: i64) -> String {
    const UNITS: [(i64, &str); 5] = [
        (86_400_000, "d"),
        (3_600_000, "h"),
        (60_000, "m"),
        (1000, "s"),
        (1, "ms"),
    ];
    if ms == 0 {
        return "0s".into();
    }
    let (size, unit) = UNITS
        .iter()
        .find(|(size, _)| ms % size == 0)
        .copied()
        .unwrap_or((1, "ms"));
    format!("{}{unit}", ms / size)
}

/// The smallest number of replicas that is a strict majority of `n`.
pub fn majority(n: i64) -> i64 {
    n / 2 + 1
}

/// A sequence of strings (`[snapshot, wal-archive]`) as `Vec<&str>`.
pub fn strings<'a>(c: &'a Contract, pointer: &str) -> Vec<&'a str> {
    node(c, pointer)
        .map(|n| n.as_seq().iter().filter_map(Node::as_str).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> Date {
        s.parse().unwrap()
    }
    fn dur(s: &str) -> Duration {
        Duration::parse(s).unwrap()
    }

    #[test]
    fn calendar_cadence_is_added_by_calendar() {
        // 2026-08-31 + 3mo = 2026-11-30: due today, not yet overdue.
        assert_eq!(
            overdue(date("2026-08-31"), &dur("3mo"), date("2026-11-30")),
            None
        );
        let o = overdue(date("2026-08-31"), &dur("P3M"), date("2026-12-01")).unwrap();
        assert_eq!(o.due, date("2026-11-30"));
        assert_eq!(o.age_days, 92);
        // 1mo from the end of January is the end of February, not March 3rd.
        let o = overdue(date("2026-01-31"), &dur("1mo"), date("2026-03-01")).unwrap();
        assert_eq!(o.due, date("2026-02-28"));
        assert!(overdue(date("2025-11-30"), &dur("1y"), date("2026-11-30")).is_none());
    }

    #[test]
    fn exact_cadence_counts_days() {
        let o = overdue(date("2026-05-02"), &dur("90d"), date("2026-11-30")).unwrap();
        assert_eq!((o.due, o.age_days), (date("2026-07-31"), 212));
        assert!(overdue(date("2026-09-01"), &dur("P90D"), date("2026-11-30")).is_none());
        // 13w = 91d: 2026-09-01 + 91d = 2026-12-01, still in time.
        assert!(overdue(date("2026-09-01"), &dur("13w"), date("2026-11-30")).is_none());
    }

    fn cluster(spec: &str) -> Contract {
        let text = format!(
            "apiVersion: platcheck/v1\nkind: Cluster\nmetadata: {{name: t, owner: o}}\nspec:\n{spec}"
        );
        let src = crate::source::SourceFile::new("t.yaml", "t.yaml", &text);
        let mut sink = Sink::default();
        let mut contracts = crate::contracts::load::load_file(0, &src, &mut sink).unwrap();
        contracts.remove(0)
    }

    #[test]
    fn comparing_a_calendar_duration_reports_pc005() {
        let c = cluster("  ha: {rto: 1mo}\n  restore_drill: {duration: 3h}\n");
        let mut sink = Sink::default();
        let got = compare_at(
            &c,
            &mut sink,
            "/spec/restore_drill/duration",
            "/spec/ha/rto",
        );
        assert!(got.is_none());
        assert_eq!(sink.reports.len(), 1);
        let r = &sink.reports[0];
        assert_eq!((r.rule, r.variant), (RuleId::PC005, Some("calendar")));
        assert_eq!(r.pointer.as_deref(), Some("/spec/ha/rto"));
        assert!(
            r.vars.contains(&("calendar", "1mo".to_string())),
            "{:?}",
            r.vars
        );
    }

    #[test]
    fn exact_durations_compare_across_units_without_findings() {
        let c = cluster("  ha: {rto: PT1H}\n  restore_drill: {duration: 60m}\n");
        let mut sink = Sink::default();
        let (_, _, ord) = compare_at(
            &c,
            &mut sink,
            "/spec/restore_drill/duration",
            "/spec/ha/rto",
        )
        .unwrap();
        assert_eq!(ord, Ordering::Equal);
        assert!(sink.reports.is_empty());
    }

    #[test]
    fn missing_fields_group_under_the_deepest_existing_mapping() {
        let c = cluster("  ha: {topology: consensus}\n");
        let req = under("/spec/ha", &["topology", "rpo", "rto"]);
        let reports = missing(&c, RuleId::CL010, &req);
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].pointer.as_deref(), Some("/spec/ha"));
        assert!(
            reports[0]
                .vars
                .contains(&("missing", "`ha.rpo`, `ha.rto`".to_string()))
        );
        // A whole missing block is named once, at `spec:`.
        let reports = missing(&c, RuleId::CL050, &under("/spec/backup", &["types", "rpo"]));
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].pointer.as_deref(), Some("/spec/backup"));
        assert!(
            reports[0]
                .vars
                .contains(&("missing", "`backup`".to_string()))
        );
    }

    #[test]
    fn majorities() {
        assert_eq!(majority(1), 1);
        assert_eq!(majority(3), 2);
        assert_eq!(majority(4), 3);
        assert_eq!(majority(5), 3);
    }

    #[test]
    fn millis_use_the_largest_exact_unit() {
        assert_eq!(fmt_millis(4000), "4s");
        assert_eq!(fmt_millis(4500), "4500ms");
        assert_eq!(fmt_millis(90_000), "90s");
        assert_eq!(fmt_millis(7_200_000), "2h");
        assert_eq!(fmt_millis(0), "0s");
    }

    #[test]
    fn fields_are_named_from_spec() {
        assert_eq!(field("/spec/ha/rto"), "ha.rto");
        assert_eq!(
            field("/spec/read_replicas/query_classes/0"),
            "read_replicas.query_classes.0"
        );
    }
}
