//! Type-change judgements: which PostgreSQL `ALTER COLUMN TYPE` changes are
//! binary-coercible (no rewrite), and which MySQL MODIFY/CHANGE forms the
//! server can only do with a table copy.
use super::ops::{ColumnDef, TypeName};

/// `Some(true)` when `old → new` keeps the stored bytes (PostgreSQL skips the
/// rewrite), `Some(false)` when it rewrites, `None` when `old` is unknown.
pub fn pg_coercible(old: Option<&TypeName>, new: &TypeName) -> Option<bool> {
    let old = old.filter(|o| !o.base.is_empty())?;
    if old.array != new.array {
        return Some(false);
    }
    let (o, n) = (old.base.as_str(), new.base.as_str());
    let widening = |o: &TypeName, n: &TypeName| match (o.args.first(), n.args.first()) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(a), Some(b)) => b >= a,
    };
    Some(match (o, n) {
        _ if o == n && old.args == new.args => true,
        ("varchar", "varchar") | ("varbit", "varbit") | ("bit varying", "bit varying") => {
            widening(old, new)
        }
        ("varchar", "text") | ("text", "varchar") if new.args.is_empty() => true,
        ("numeric", "numeric") => match (old.args.as_slice(), new.args.as_slice()) {
            (_, []) => true,
            ([p, s], [p2, s2]) => s2 == s && p2 >= p,
            ([p], [p2]) => p2 >= p,
            ([p], [p2, 0]) => p2 >= p,
            _ => false,
        },
        ("cidr", "inet") => true,
        _ => false,
    })
}

/// As `pg_coercible`, with the session's time zone: `timestamp` and
/// `timestamptz` store the same bytes, and PostgreSQL (12+) skips the
/// rewrite between them when the session's TimeZone is UTC. Precision of
/// the time types may grow or be dropped (the default is 6) without one.
pub fn pg_coercible_in(old: Option<&TypeName>, new: &TypeName, utc: bool) -> Option<bool> {
    let o = old.filter(|o| !o.base.is_empty())?;
    let time = |b: &str| {
        matches!(
            b,
            "timestamp" | "timestamptz" | "time" | "timetz" | "interval"
        )
    };
    if time(&o.base) && time(&new.base) && o.array == new.array {
        let same = o.base == new.base
            || utc
                && matches!(
                    (o.base.as_str(), new.base.as_str()),
                    ("timestamp", "timestamptz") | ("timestamptz", "timestamp")
                );
        let p = |t: &TypeName| t.args.first().copied().unwrap_or(6);
        return Some(same && p(new) >= p(o));
    }
    pg_coercible(old, new)
}

/// Target types of the binary-coercible changes: with an unknown old type a
/// change to one of these is not claimed to be a rewrite.
pub fn pg_plausibly_coercible_target(new: &TypeName) -> bool {
    matches!(
        new.base.as_str(),
        "text" | "varchar" | "numeric" | "inet" | "varbit" | "bit varying" | "citext"
    )
}

/// Bytes per character of a MySQL charset (utf8mb4 by default).
pub fn charset_bytes(cs: Option<&str>) -> i64 {
    match cs.map(str::to_ascii_lowercase).as_deref() {
        Some("latin1" | "ascii" | "binary" | "latin2" | "cp1252") => 1,
        Some("utf8" | "utf8mb3") => 3,
        Some("ucs2") => 2,
        _ => 4,
    }
}

/// The mysql.csv key for restating a column with MODIFY/CHANGE, judged
/// against its previous definition.
pub fn mysql_modify_key(
    old: Option<&ColumnDef>,
    new: &ColumnDef,
    renamed: bool,
    table_charset: Option<&str>,
    mariadb: bool,
) -> (&'static str, String) {
    let Some(old) = old.filter(|o| !o.ty.base.is_empty()) else {
        // Without the earlier definition the change may be anything: judged
        // as a type change (COPY), as PostgreSQL judges an unknown old type.
        return (
            "modify_unknown_type",
            format!(
                "to {}; the history does not show its earlier type, so it is judged as a type change",
                new.ty.raw
            ),
        );
    };
    let detail = format!("{} → {}", old.ty.raw, new.ty.raw);
    let (o, n) = (&old.ty, &new.ty);
    let key = if o.base != n.base || o.base.contains("unsigned") != n.base.contains("unsigned") {
        "type_change"
    } else if matches!(o.base.as_str(), "enum" | "set") {
        let appended = n.members.len() >= o.members.len() && n.members.starts_with(&o.members);
        if n.members == o.members {
            nullability(old, new, renamed)
        } else if appended && (o.members.len() > 255) == (n.members.len() > 255) {
            "enum_append"
        } else {
            "enum_reorder"
        }
    } else if o.base == "varchar" || o.base == "char" || o.base == "varbinary" {
        let cs = charset_bytes(new.charset.as_deref().or(table_charset));
        let (a, b) = (
            o.args.first().copied().unwrap_or(0),
            n.args.first().copied().unwrap_or(0),
        );
        // The length prefix grows from 1 to 2 bytes past 255 bytes; MariaDB
        // stores values of a column up to 127 bytes with 1 byte in any case,
        // so only a column of 128-255 bytes crosses (observed on 10.11).
        let crosses = if mariadb {
            (128..=255).contains(&(a * cs)) && b * cs > 255
        } else {
            (a * cs > 255) != (b * cs > 255)
        };
        if b < a {
            "varchar_shrink"
        } else if b > a {
            if crosses {
                "varchar_extend_cross"
            } else if o.base == "char" {
                "type_change"
            } else {
                "varchar_extend_same_bucket"
            }
        } else {
            nullability(old, new, renamed)
        }
    } else if o.args != n.args {
        "type_change"
    } else {
        nullability(old, new, renamed)
    };
    (key, detail)
}

fn nullability(old: &ColumnDef, new: &ColumnDef, renamed: bool) -> &'static str {
    if old.not_null != new.not_null {
        if new.not_null {
            "make_not_null"
        } else {
            "make_null"
        }
    } else if renamed {
        "rename_column"
    } else {
        "set_default"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(base: &str, args: &[i64]) -> TypeName {
        TypeName {
            base: base.into(),
            args: args.to_vec(),
            ..TypeName::default()
        }
    }

    #[test]
    fn coercible_changes() {
        let v50 = ty("varchar", &[50]);
        assert_eq!(pg_coercible(Some(&v50), &ty("varchar", &[100])), Some(true));
        assert_eq!(pg_coercible(Some(&v50), &ty("text", &[])), Some(true));
        assert_eq!(pg_coercible(Some(&v50), &ty("varchar", &[20])), Some(false));
        assert_eq!(
            pg_coercible(Some(&ty("integer", &[])), &ty("bigint", &[])),
            Some(false)
        );
        assert_eq!(
            pg_coercible(Some(&ty("numeric", &[10, 2])), &ty("numeric", &[12, 2])),
            Some(true)
        );
        assert_eq!(pg_coercible(None, &ty("bigint", &[])), None);
    }

    #[test]
    fn time_types_follow_precision_and_the_session_time_zone() {
        let ts = |a: &[i64]| ty("timestamp", a);
        assert_eq!(
            pg_coercible_in(Some(&ts(&[3])), &ts(&[6]), false),
            Some(true)
        );
        assert_eq!(
            pg_coercible_in(Some(&ts(&[3])), &ts(&[]), false),
            Some(true)
        );
        assert_eq!(
            pg_coercible_in(Some(&ts(&[])), &ts(&[3]), false),
            Some(false)
        );
        let tz = ty("timestamptz", &[]);
        assert_eq!(pg_coercible_in(Some(&ts(&[])), &tz, false), Some(false));
        assert_eq!(pg_coercible_in(Some(&ts(&[])), &tz, true), Some(true));
    }

    #[test]
    fn mysql_varchar_buckets() {
        let col = |n: i64| ColumnDef {
            ty: TypeName {
                raw: format!("varchar({n})"),
                ..ty("varchar", &[n])
            },
            ..ColumnDef::default()
        };
        assert_eq!(
            mysql_modify_key(Some(&col(50)), &col(60), false, None, false).0,
            "varchar_extend_same_bucket"
        );
        assert_eq!(
            mysql_modify_key(Some(&col(50)), &col(100), false, None, false).0,
            "varchar_extend_cross"
        );
        assert_eq!(
            mysql_modify_key(Some(&col(50)), &col(100), false, Some("latin1"), false).0,
            "varchar_extend_same_bucket"
        );
        // MariaDB: up to 127 bytes the prefix is one byte whatever the maximum.
        assert_eq!(
            mysql_modify_key(Some(&col(10)), &col(100), false, None, true).0,
            "varchar_extend_same_bucket"
        );
        assert_eq!(
            mysql_modify_key(Some(&col(60)), &col(100), false, None, true).0,
            "varchar_extend_cross"
        );
        assert_eq!(
            mysql_modify_key(Some(&col(64)), &col(100), false, None, true).0,
            "varchar_extend_same_bucket"
        );
    }
}
