#!/usr/bin/env python3
"""Generates a synthetic platform monorepo for the platcheck benchmarks.

At scale 1 the repository holds 5,000 contracts (2,000 Cluster, 3,000
EventBoundary), 500 migration files with 100,000 SQL statements in all, and
100 pairs of mirrored architecture docs; `--scale N` multiplies every count.

Contracts and docs are clones of examples/clean (the fictional shop): each
"shop unit" i copies the three cluster and four event-boundary contracts and
suffixes every identifier that other contracts refer to (names, services,
topics, groups, clusters) with -NNNN, so cross-contract references still
resolve and the sizes stay those of hand-written contracts. Migrations are
PostgreSQL in the Alembic style: a revision header, then DDL (tables,
concurrent indexes, columns, constraints, functions) mixed with batched DML.

Output is a pure function of (--seed, --scale): run twice, get the same bytes.
Python 3 standard library only.
"""
import argparse
import random
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLEAN = REPO / "examples" / "clean"

CLUSTERS = 2000
BOUNDARIES = 3000
MIGRATION_FILES = 500
STATEMENTS = 100_000
DOC_PAIRS = 100
# Clusters that own a migrations directory (each gets an equal share of files).
MIGRATING_CLUSTERS = 100

# Keys whose scalar values are identifiers other contracts refer to.
ID_KEYS = (
    "name", "service", "topic", "group", "destination", "event_type",
    "cluster", "public_alias", "downstream", "owner",
)
ID_LINE = re.compile(
    r"^(?P<lead>\s*(?:- )?)(?P<key>" + "|".join(ID_KEYS) + r"): (?P<val>[A-Za-z0-9_.-]+)(?P<rest>.*)$"
)


def suffix_ids(text, sfx):
    """Suffixes identifier values (see ID_KEYS) and migration paths."""
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        m = ID_LINE.match(body)
        if m:
            body = f"{m['lead']}{m['key']}: {m['val']}{sfx}{m['rest']}"
        elif body.strip().startswith("path: migrations/"):
            body = body + sfx
        out.append(body + ("\n" if line.endswith("\n") else ""))
    return "".join(out)


def templates(kind):
    return sorted((CLEAN / "contracts" / kind).glob("*.yaml"))


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def gen_contracts(out, clusters, boundaries, rng):
    ctpl = [(p.stem, p.read_text()) for p in templates("clusters")]
    btpl = [(p.stem, p.read_text()) for p in templates("events")]
    units_c = -(-clusters // len(ctpl))
    made = 0
    migrating = []
    for unit in range(units_c):
        for stem, text in ctpl:
            if made == clusters:
                break
            sfx = f"-{unit:04d}"
            body = suffix_ids(text, sfx)
            # Vary the numbers a little so files are not byte-identical.
            body = body.replace("instances: 12", f"instances: {rng.randint(4, 16)}")
            write(out / "contracts" / "clusters" / f"{stem}{sfx}.yaml", body)
            if "path: migrations/" in body:
                migrating.append(f"{stem}{sfx}")
            made += 1
    made = 0
    unit = 0
    while made < boundaries:
        for stem, text in btpl:
            if made == boundaries:
                break
            sfx = f"-{unit:04d}"
            body = suffix_ids(text, sfx)
            # Boundaries beyond the last cluster unit lean on earlier clusters.
            cunit = unit % units_c
            body = re.sub(
                r"(cluster|service): ([a-z-]+)-\d{4}",
                lambda m: f"{m[1]}: {m[2]}-{cunit:04d}",
                body,
            )
            write(out / "contracts" / "events" / f"{stem}{sfx}.yaml", body)
            made += 1
        unit += 1
    return migrating


# Column roles and the types a column of that role plausibly has.
ROLES = [
    ("amount", ["numeric(12, 2)", "bigint"]),
    ("status", ["text", "varchar(200)"]),
    ("ref", ["uuid", "bigint"]),
    ("note", ["text", "varchar(200)"]),
    ("payload", ["jsonb"]),
    ("count", ["integer", "bigint"]),
    ("due", ["date", "timestamptz"]),
    ("active", ["boolean"]),
]


def default_for(t):
    return {
        "bigint": "0", "integer": "0", "text": "''", "varchar(200)": "''",
        "numeric(12, 2)": "0", "boolean": "false", "timestamptz": "now()",
        "jsonb": "'{}'", "uuid": "gen_random_uuid()", "date": "current_date",
    }[t]


def literal(t, rng):
    if t in ("bigint", "integer"):
        return str(rng.randint(1, 10**6))
    if t == "numeric(12, 2)":
        return f"{rng.randint(0, 99999)}.{rng.randint(0, 99):02d}"
    if t == "boolean":
        return rng.choice(["true", "false"])
    if t == "timestamptz":
        return f"'2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d} 10:00:00+00'"
    if t == "jsonb":
        return "'{\"source\": \"backfill\"}'"
    if t == "uuid":
        return "gen_random_uuid()"
    if t == "date":
        return f"'2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}'"
    return "'" + rng.choice(["new", "paid", "shipped", "o''brien", "eu-west-1"]) + "'"


class Sql:
    """Statements for one migration file, counted as they are written."""

    def __init__(self, rng, prefix):
        self.rng = rng
        self.prefix = prefix
        self.parts = []
        self.count = 0
        self.tables = []
        self.pending = []

    def stmt(self, text):
        self.parts.append(text.rstrip() + ";\n")
        self.count += 1

    def create_table(self):
        rng = self.rng
        name = f"{self.prefix}_{rng.choice(['orders', 'items', 'ledger', 'events', 'accounts', 'shipments'])}_{len(self.tables)}"
        cols = []
        for _ in range(rng.randint(4, 9)):
            role, types = rng.choice(ROLES)
            cols.append((f"{role}_{len(cols)}", rng.choice(types)))
        lines = ["    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"]
        for c, t in cols:
            extra = f" NOT NULL DEFAULT {default_for(t)}" if rng.random() < 0.4 else ""
            lines.append(f"    {c:<11} {t}{extra}")
        lines.append("    created_at  timestamptz NOT NULL DEFAULT now()")
        self.stmt(f"\nCREATE TABLE {name} (\n" + ",\n".join(lines) + "\n)")
        self.tables.append((name, cols))

    def ddl(self):
        rng = self.rng
        name, cols = rng.choice(self.tables)
        c, t = rng.choice(cols)
        pick = rng.randrange(6)
        if pick == 0:
            # Alembic's autocommit_block(), as its SQL export writes it: the
            # index is built between the COMMIT and the next BEGIN.
            self.stmt("COMMIT")
            self.stmt(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_{name}_{c}\n    ON {name} ({c})")
            self.stmt("BEGIN")
        elif pick == 1:
            role, types = rng.choice(ROLES)
            new = f"{role}_{len(cols)}"
            nt = rng.choice(types)
            self.stmt(f"ALTER TABLE {name}\n    ADD COLUMN {new} {nt} NOT NULL DEFAULT {default_for(nt)}")
            cols.append((new, nt))
        elif pick == 3 and self.pending:
            # VALIDATE in a later transaction than its NOT VALID add.
            self.stmt("COMMIT")
            self.stmt("BEGIN")
            self.stmt(f"ALTER TABLE {self.pending.pop()}")
        elif pick in (2, 3):
            # NOT VALID now, validated by a later statement (short locks).
            self.stmt(f"ALTER TABLE {name}\n    ADD CONSTRAINT {name}_{c}_chk{self.count} CHECK ({c} IS NOT NULL) NOT VALID")
            self.pending.append(f"{name} VALIDATE CONSTRAINT {name}_{c}_chk{self.count - 1}")
        elif pick == 4:
            self.stmt(f"COMMENT ON COLUMN {name}.{c} IS 'set by the {self.prefix} service; see the runbook'")
        else:
            self.stmt(
                f"CREATE OR REPLACE FUNCTION {name}_touch() RETURNS trigger\n"
                f"LANGUAGE plpgsql AS $$\nBEGIN\n    NEW.created_at := coalesce(NEW.created_at, now());\n"
                f"    RETURN NEW;\nEND;\n$$"
            )

    def dml(self):
        rng = self.rng
        name, cols = rng.choice(self.tables)
        pick = rng.randrange(3)
        if pick == 0:
            use = cols[: rng.randint(2, len(cols))]
            rows = ",\n    ".join(
                "(" + ", ".join(literal(t, rng) for _, t in use) + ")" for _ in range(rng.randint(1, 4))
            )
            self.stmt(f"INSERT INTO {name} ({', '.join(c for c, _ in use)})\nVALUES\n    {rows}")
        elif pick == 1:
            c, t = rng.choice(cols)
            lo = rng.randint(0, 10**6)
            self.stmt(
                f"UPDATE {name}\n   SET {c} = {literal(t, rng)}\n WHERE id BETWEEN {lo} AND {lo + 10000}"
            )
        else:
            self.stmt(f"DELETE FROM {name}\n WHERE created_at < now() - interval '{rng.randint(30, 400)} days'")


def gen_migrations(out, clusters, files, statements, rng):
    per_cluster = -(-files // len(clusters))
    per_file = statements // files
    made = 0
    for cluster in clusters:
        prev = None
        for k in range(1, per_cluster + 1):
            if made == files:
                return
            rev = f"{k:04d}_{rng.choice(['orders', 'ledger', 'backfill', 'indexes', 'audit'])}_{k}"
            sql = Sql(rng, cluster.replace("-", "_"))
            head = [f"-- Revision ID: {rev}"]
            if prev:
                head.append(f"-- Revises: {prev}")
            head.append(f"-- Create Date: 2026-{(k % 11) + 1:02d}-01 10:00:00")
            sql.parts.append("\n".join(head) + "\n")
            sql.stmt("SET lock_timeout = '2s'")
            sql.create_table()
            while sql.count < per_file:
                r = rng.random()
                if r < 0.08:
                    sql.create_table()
                elif r < 0.5:
                    sql.ddl()
                else:
                    sql.dml()
            write(out / "migrations" / cluster / f"{rev}.sql", "".join(sql.parts))
            prev = rev
            made += 1


def gen_docs(out, pairs):
    src = CLEAN / "docs" / "architecture"
    for stack in ("python", "go"):
        for tpl in sorted((src / stack).glob("*.md")):
            text = tpl.read_text()
            for i in range(pairs):
                name = f"{tpl.stem}-{i:03d}"
                write(out / "docs" / "architecture" / stack / f"{name}.md", text.replace(tpl.stem, name))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="directory to (re)create")
    ap.add_argument("--scale", type=int, default=1, help="multiply every count (1, 2, 4)")
    ap.add_argument("--seed", type=int, default=10)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if a.out.exists():
        shutil.rmtree(a.out)
    a.out.mkdir(parents=True)
    shutil.copy(CLEAN / "platcheck.yaml", a.out / "platcheck.yaml")
    shutil.copytree(CLEAN / "schemas", a.out / "schemas")
    shutil.copytree(CLEAN / "docs" / "runbooks", a.out / "docs" / "runbooks")
    s = a.scale
    migrating = gen_contracts(a.out, CLUSTERS * s, BOUNDARIES * s, rng)
    # Scaling adds migrating clusters, not longer histories, like a growing repo.
    migrating = migrating[: MIGRATING_CLUSTERS * s]
    gen_migrations(a.out, migrating, MIGRATION_FILES * s, STATEMENTS * s, rng)
    gen_docs(a.out, DOC_PAIRS * s)
    print(f"{a.out}: scale {s}")


if __name__ == "__main__":
    main()
