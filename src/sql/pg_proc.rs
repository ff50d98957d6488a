//! PostgreSQL's built-in functions and their volatility, as the server's
//! own catalogue says (`pg_proc/volatility.csv`, written by
//! `pg_proc/generate.sh` from `pg_proc` of PostgreSQL 15). A column
//! default that calls a VOLATILE function is evaluated per row, so adding
//! the column rewrites the table.
use std::collections::HashMap;
use std::sync::OnceLock;

const CSV: &str = include_str!("pg_proc/volatility.csv");

fn table() -> &'static HashMap<String, char> {
    static T: OnceLock<HashMap<String, char>> = OnceLock::new();
    T.get_or_init(|| {
        CSV.lines()
            .skip(1)
            .filter_map(|l| {
                let (name, v) = l.rsplit_once(',')?;
                Some((name.to_ascii_lowercase(), v.chars().next()?))
            })
            .collect()
    })
}

/// `i`, `s` or `v` for a built-in function name; `None`: not built in.
pub fn builtin(name: &str) -> Option<char> {
    table().get(&name.to_ascii_lowercase()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_knows_the_usual_defaults() {
        assert_eq!(builtin("now"), Some('s'));
        assert_eq!(builtin("random"), Some('v'));
        assert_eq!(builtin("gen_random_uuid"), Some('v'));
        assert_eq!(builtin("lower"), Some('i'));
        assert_eq!(builtin("uuid_generate_v4"), None);
    }
}
