#!/bin/sh
# Regenerates volatility.csv from a PostgreSQL server's own catalogue:
# every built-in function name (schema pg_catalog) with the most volatile
# provolatile of its overloads (v > s > i), so a default calling it is
# judged as the server would in the worst overload.
#   src/sql/pg_proc/generate.sh [psql connection args…]
# e.g. src/sql/pg_proc/generate.sh -h 127.0.0.1 -U root -d test
set -eu
out="$(dirname "$0")/volatility.csv"
{
  echo "name,volatility"
  psql -X -A -t -F, "$@" -c "
    SELECT proname,
           CASE WHEN bool_or(provolatile = 'v') THEN 'v'
                WHEN bool_or(provolatile = 's') THEN 's'
                ELSE 'i' END
    FROM pg_proc
    WHERE pronamespace = 'pg_catalog'::regnamespace
    GROUP BY proname
    ORDER BY proname"
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out ($(($(wc -l < "$out") - 1)) functions, $(psql -X -A -t "$@" -c 'SHOW server_version'))"
