//! The sqitch changes `platcheck fix` writes, run by the real sqitch
//! (Debian's, `.ci/sqitch.sh` installs it) on a scratch database of the
//! local PostgreSQL: the plan deploys with every verify script passing, the
//! moved work is really there (the index built, the foreign key validated),
//! and the new changes revert back to the flagged one and then to nothing;
//! the flagged change's own revert, as fix edits it, undoes what its deploy
//! now does (no drop of what moved out, the CHECK it now adds dropped), so
//! the plan deploys again after a full revert.
//! A plan line or script that sqitch reads differently from platcheck fails
//! here, not in a user's pipeline. Fails loudly without the server or
//! sqitch; PLATCHECK_DB_TESTS=0 skips with a printed reason.
#[path = "verify_oracle/servers.rs"]
mod servers;
use std::path::Path;
use std::process::Command;

const PG: &str = "version: 1\ntoday: 2026-11-30\nsql:\n  dialect: postgresql\n  version: \"15\"\n";
const PLAN: &str = "%syntax-version=1.0.0\n%project=shop\n\nbase 2026-01-01T00:00:00Z A <a@example.com> # base\nidx [base] 2026-01-02T00:00:00Z Ann Lee <ann@example.com> # idx\n";
const FILES: &[(&str, &str)] = &[
    ("platcheck.yaml", PG),
    ("sqitch.plan", PLAN),
    (
        "deploy/base.sql",
        "BEGIN;\nCREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, public_id uuid);\nCREATE TABLE customers (id bigint PRIMARY KEY);\nCOMMIT;\n",
    ),
    (
        "revert/base.sql",
        "BEGIN;\nDROP TABLE orders;\nDROP TABLE customers;\nCOMMIT;\n",
    ),
    ("verify/base.sql", "SELECT id FROM orders WHERE false;\n"),
    (
        "deploy/idx.sql",
        "-- Deploy shop:idx\nBEGIN;\nSET lock_timeout = '2s';\nSET statement_timeout = '15min';\nALTER TABLE customers ADD COLUMN note text;\nALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL;\nCREATE INDEX idx_c ON orders (customer_id);\nALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id);\nALTER TABLE orders ADD CONSTRAINT orders_public_id_key UNIQUE (public_id);\nCOMMIT;\n",
    ),
    (
        "revert/idx.sql",
        "BEGIN;\nALTER TABLE orders DROP CONSTRAINT orders_public_id_key;\nALTER TABLE orders DROP CONSTRAINT orders_customer_id_fkey;\nDROP INDEX idx_c;\nALTER TABLE orders ALTER COLUMN customer_id DROP NOT NULL;\nALTER TABLE customers DROP COLUMN note;\nCOMMIT;\n",
    ),
    ("verify/idx.sql", "SELECT id FROM customers WHERE false;\n"),
];

/// A database of this test's own on the server, dropped however the test ends.
struct Scratch {
    admin: String,
    name: String,
}

impl Scratch {
    fn create(admin: &str) -> Scratch {
        let name = format!("pc_fix_sqitch_{}", std::process::id());
        let mut c = postgres::Client::connect(admin, postgres::NoTls).expect("connect");
        // Two queries: a multi-statement query is one implicit transaction,
        // which CREATE DATABASE refuses.
        c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .expect("drop a scratch database left by a killed run");
        c.batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create the scratch database");
        Scratch {
            admin: admin.to_string(),
            name,
        }
    }

    /// The same server and user, this database: as a postgres URL and as
    /// sqitch's `db:pg:` target.
    fn urls(&self) -> (String, String) {
        let rest = self
            .admin
            .split_once("://")
            .map_or(self.admin.as_str(), |(_, r)| r);
        let rest = rest.split('?').next().unwrap_or(rest);
        let authority = rest.split('/').next().unwrap_or(rest);
        (
            format!("postgres://{authority}/{}", self.name),
            format!("db:pg://{authority}/{}", self.name),
        )
    }

    fn query(&self, sql: &str) -> Vec<String> {
        let mut c = postgres::Client::connect(&self.urls().0, postgres::NoTls).expect("connect");
        c.query(sql, &[])
            .expect(sql)
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

fn sqitch(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("sqitch")
        .args(args)
        .current_dir(dir)
        // No user or system sqitch.conf of this machine: only the project.
        .env("HOME", dir)
        .env("SQITCH_USER_CONFIG", dir.join("no-user.conf"))
        .env("SQITCH_SYSTEM_CONFIG", dir.join("no-system.conf"))
        .env("SQITCH_FULLNAME", "platcheck test")
        .env("SQITCH_EMAIL", "test@example.com")
        .output()
        .expect("the sqitch command (`bash .ci/sqitch.sh` installs it with DBD::Pg)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "sqitch {args:?}:\n{text}");
    text
}

const INDEXES: &str =
    "SELECT indexname::text FROM pg_indexes WHERE tablename = 'orders' ORDER BY 1";
const NOT_NULL: &str = "SELECT attnotnull::text FROM pg_attribute \
     WHERE attrelid = 'orders'::regclass AND attname = 'customer_id'";
const CONSTRAINTS: &str = "SELECT conname || ':' || convalidated FROM pg_constraint \
     WHERE conrelid = 'orders'::regclass ORDER BY 1";

#[test]
fn sqitch_deploys_verifies_and_reverts_the_changes_fix_writes() {
    let admin = match servers::postgres() {
        servers::Server::Url(u) => u,
        servers::Server::Skip(why) => {
            println!("{why}");
            return;
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (path, text) in FILES {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["fix", "--unsafe-fixes", "."])
        .current_dir(dir)
        .output()
        .unwrap();
    let fixed = String::from_utf8_lossy(&out.stdout);
    assert!(fixed.contains("fixed sqitch.plan"), "{fixed}");
    let plan = std::fs::read_to_string(dir.join("sqitch.plan")).unwrap();
    let added: Vec<&str> = plan
        .lines()
        .filter(|l| l.contains("(written by `platcheck fix`)"))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        added,
        [
            "idx_orders_customer_id_not_null",
            "idx_orders_customer_id_drop_check",
            "idx_index_idx_c",
            "idx_validate_orders_customer_id_fkey",
            "idx_alter_orders"
        ],
        "{plan}"
    );

    let revert = std::fs::read_to_string(dir.join("revert/idx.sql")).unwrap();
    assert!(!revert.contains("DROP INDEX idx_c"), "{revert}");
    assert!(
        !revert.contains("DROP CONSTRAINT orders_public_id_key"),
        "{revert}"
    );
    assert!(
        revert.contains("DROP CONSTRAINT IF EXISTS orders_customer_id_not_null"),
        "{revert}"
    );

    let db = Scratch::create(&admin);
    let target = db.urls().1;
    // Twice: a full revert leaves nothing the second deploy trips over.
    for round in 1..=2 {
        deploy_and_revert(dir, &db, &target, &added, round);
    }
}

fn deploy_and_revert(dir: &Path, db: &Scratch, target: &str, added: &[&str], round: u32) {
    let deployed = sqitch(dir, &["deploy", "--verify", target]);
    for change in ["base", "idx"].iter().chain(added) {
        assert!(
            deployed.contains(&format!("+ {change} ")),
            "round {round}: {change} not deployed:\n{deployed}"
        );
    }
    assert!(sqitch(dir, &["verify", target]).contains("Verify successful"));
    assert_eq!(
        db.query(INDEXES),
        ["idx_c", "orders_pkey", "orders_public_id_key"]
    );
    assert_eq!(
        db.query(CONSTRAINTS),
        [
            "orders_customer_id_fkey:true",
            "orders_pkey:true",
            "orders_public_id_key:true"
        ]
    );
    assert_eq!(db.query(NOT_NULL), ["true"]);

    // Back to the flagged change: the index and the unique constraint fix
    // moved out are gone, the column nullable again with the CHECK the
    // flagged change adds back in place (NOT VALID); the foreign key it
    // adds NOT VALID stays, still validated: no statement un-validates a
    // constraint, and a validated one is only stricter.
    sqitch(dir, &["revert", "-y", "--to", "idx", target]);
    assert_eq!(db.query(INDEXES), ["orders_pkey"]);
    assert_eq!(
        db.query(CONSTRAINTS),
        [
            "orders_customer_id_fkey:true",
            "orders_customer_id_not_null:false",
            "orders_pkey:true"
        ]
    );
    assert_eq!(db.query(NOT_NULL), ["false"]);
    sqitch(dir, &["revert", "-y", target]);
    assert_eq!(
        db.query("SELECT tablename::text FROM pg_tables WHERE schemaname = 'public'"),
        Vec::<String>::new()
    );
}
