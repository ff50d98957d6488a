//! Fixture rows for the proof: every table the history created gets rows
//! made from its column types, so a statement that scans reads them.
use super::{FIXTURE_ROWS, message};
use postgres::Client;

/// Fills every table with rows made from its column types; returns the
/// tables it could not fill.
pub fn fixture_rows(c: &mut Client) -> Result<Vec<String>, String> {
    let tables: Vec<String> = c
        .query(
            "SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') \
             AND n.nspname NOT LIKE 'pg\\_%' ORDER BY c.oid",
            &[],
        )
        .map_err(|e| message(&e))?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let mut skipped = Vec::new();
    for t in tables {
        let cols = c
            .query(
                "SELECT quote_ident(attname), CASE \
                   WHEN atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'numeric'::regtype, 'float4'::regtype, 'float8'::regtype) THEN 'g' \
                   WHEN atttypid IN ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype) THEN 'g::text' \
                   WHEN atttypid = 'uuid'::regtype THEN 'md5(g::text)::uuid' \
                   WHEN atttypid = 'bool'::regtype THEN 'false' \
                   WHEN atttypid IN ('timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype) THEN 'now()' \
                   WHEN atttypid IN ('jsonb'::regtype, 'json'::regtype) THEN '''{}''' \
                   ELSE NULL END \
                 FROM pg_attribute WHERE attrelid = $1::text::regclass AND attnum > 0 AND NOT attisdropped \
                 AND attgenerated = '' AND attidentity = '' ORDER BY attnum",
                &[&t],
            )
            .map_err(|e| message(&e))?;
        let (names, values): (Vec<String>, Vec<String>) = cols
            .iter()
            .filter_map(|r| Some((r.get::<_, String>(0), r.get::<_, Option<String>>(1)?)))
            .unzip();
        let sql = format!(
            "INSERT INTO {t} ({}) SELECT {} FROM generate_series(1, {FIXTURE_ROWS}) g; ANALYZE {t}",
            names.join(", "),
            values.join(", ")
        );
        if names.is_empty() || c.batch_execute(&sql).is_err() {
            skipped.push(t);
        }
    }
    Ok(skipped)
}
