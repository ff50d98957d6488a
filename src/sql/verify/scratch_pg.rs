//! PostgreSQL's scratch place: a database made from `template0`, marked
//! with its maker, and a sandbox role the replay logs in as — no
//! superuser, no CREATEDB/CREATEROLE, no membership in anything — which
//! owns the scratch database's `public` schema and nothing else. What the
//! statement gate cannot read in advance (SQL built at run time inside a
//! DO block) meets the server's own privilege checks as that role.
use super::pg::server_message;
use super::scratch::{self, Marker, PREFIX, literal};
use super::signals::{self, Registration};
use super::{Options, VerifyError};
use postgres::{Client, Config, NoTls};

fn err(e: postgres::Error) -> VerifyError {
    VerifyError(server_message(&e))
}

fn ident(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// The scratch database and its sandbox role; dropped on every way out.
pub struct Place {
    pub name: String,
    /// The sandbox role's login, when there is one.
    pub role: Option<(String, String)>,
    pub notes: Vec<String>,
    _cleanup: Registration,
}

/// Drops what one run made, from a fresh connection: the database first
/// (FORCE ends the replay's sessions, which may be inside a statement),
/// then the role.
pub fn drop_place(admin: &Config, name: &str, role: bool) -> Result<(), String> {
    let mut c = admin.connect(NoTls).map_err(|e| server_message(&e))?;
    c.batch_execute(&format!(
        "DROP DATABASE IF EXISTS {} WITH (FORCE)",
        ident(name)
    ))
    .map_err(|e| server_message(&e))?;
    if role {
        c.batch_execute(&format!("DROP ROLE IF EXISTS {}", ident(name)))
            .map_err(|e| server_message(&e))?;
    }
    Ok(())
}

/// Removes scratch databases and roles whose marker names a process that
/// is gone; returns what it did, for the run's notes.
pub fn sweep(admin: &mut Client) -> Vec<String> {
    let mut notes = Vec::new();
    let pattern = format!("{}%", PREFIX.replace('_', "\\_"));
    let queries = [
        (
            "database",
            "SELECT datname::text, shobj_description(oid, 'pg_database') FROM pg_database WHERE datname LIKE $1",
        ),
        (
            "role",
            "SELECT rolname::text, shobj_description(oid, 'pg_authid') FROM pg_roles WHERE rolname LIKE $1",
        ),
    ];
    for (kind, q) in queries {
        let Ok(rows) = admin.query(q, &[&pattern]) else {
            continue;
        };
        for r in rows {
            let (name, comment): (String, Option<String>) = (r.get(0), r.get(1));
            let Some(m) = comment.as_deref().and_then(Marker::parse) else {
                continue;
            };
            if !m.is_gone() {
                continue;
            }
            let sql = match kind {
                "database" => format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", ident(&name)),
                _ => format!("DROP ROLE IF EXISTS {}", ident(&name)),
            };
            match admin.batch_execute(&sql) {
                Ok(()) => notes.push(format!(
                    "removed the scratch {kind} {name} left by an earlier run (pid {} on {}, no longer running)",
                    m.pid, m.host
                )),
                Err(e) => notes.push(format!(
                    "could not remove the scratch {kind} {name} left by an earlier run: {}",
                    server_message(&e)
                )),
            }
        }
    }
    notes
}

/// Creates the scratch database (and, unless the input is trusted, the
/// sandbox role) through the URL's session `admin`.
pub fn create(admin: &mut Client, cfg: &Config, opts: &Options) -> Result<Place, VerifyError> {
    let mut notes = sweep(admin);
    let name = scratch::unique_name();
    let marker = literal(&Marker::ours().text());
    // template0: a fresh database whatever template1 holds, and one nobody
    // else can be connected to (CREATE DATABASE would fail then).
    admin
        .batch_execute(&format!(
            "CREATE DATABASE {} TEMPLATE template0",
            ident(&name)
        ))
        .map_err(err)?;
    let admin_cfg = cfg.clone();
    let sweep_name = name.clone();
    let cleanup = signals::register(move || {
        if let Err(e) = drop_place(&admin_cfg, &sweep_name, true) {
            eprintln!(
                "platcheck: could not drop scratch database {sweep_name}: {e} (the next verify run against this server removes it)"
            );
        }
    });
    admin
        .batch_execute(&format!("COMMENT ON DATABASE {} IS {marker}", ident(&name)))
        .map_err(err)?;
    let role = if opts.allow_cluster_wide {
        None
    } else {
        match sandbox(admin, cfg, &name, &marker, opts) {
            Ok(r) => Some(r),
            Err(why) => {
                notes.push(format!(
                    "no sandbox role ({why}): the replay runs as the URL's own user, behind the statement gate alone"
                ));
                None
            }
        }
    };
    Ok(Place {
        name,
        role,
        notes,
        _cleanup: cleanup,
    })
}

fn sandbox(
    admin: &mut Client,
    cfg: &Config,
    name: &str,
    marker: &str,
    opts: &Options,
) -> Result<(String, String), String> {
    let may: (bool, bool) = admin
        .query_one(
            "SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user",
            &[],
        )
        .map(|r| (r.get(0), r.get(1)))
        .map_err(|e| server_message(&e))?;
    if !may.0 && !may.1 {
        return Err("the URL's user may not create roles".into());
    }
    let password = scratch::secret();
    let role = ident(name);
    // The replay session, the watcher's pool and a margin for the limits'
    // cancel and cleanup.
    let limit = opts.watch_connections + 4;
    let setup = format!(
        "CREATE ROLE {role} LOGIN PASSWORD {} NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT CONNECTION LIMIT {limit}; \
         COMMENT ON ROLE {role} IS {marker}; \
         REVOKE ALL ON DATABASE {role} FROM PUBLIC; \
         GRANT CONNECT, CREATE, TEMPORARY ON DATABASE {role} TO {role}",
        literal(&password)
    );
    admin
        .batch_execute(&setup)
        .map_err(|e| server_message(&e))?;
    let mut on_scratch = cfg.clone();
    on_scratch.dbname(name);
    let mut c = on_scratch.connect(NoTls).map_err(|e| server_message(&e))?;
    // Owning `public` lets the migrations create, alter and drop there as
    // they would as a database owner; owning the database would also let
    // them rename, comment on or drop it.
    if c.batch_execute(&format!("ALTER SCHEMA public OWNER TO {role}"))
        .is_err()
    {
        c.batch_execute(&format!("GRANT ALL ON SCHEMA public TO {role}"))
            .map_err(|e| server_message(&e))?;
    }
    let mut login = on_scratch.clone();
    login.user(name).password(password.as_str());
    login.connect(NoTls).map_err(|e| {
        format!(
            "the server refused the sandbox role's login: {}",
            server_message(&e)
        )
    })?;
    Ok((name.to_string(), password))
}

impl Place {
    /// The configuration of a session on the scratch database: as the
    /// sandbox role when there is one, else as the URL's user.
    pub fn replay_cfg(&self, url_cfg: &Config) -> Config {
        let mut c = url_cfg.clone();
        c.dbname(&self.name);
        if let Some((user, password)) = &self.role {
            c.user(user).password(password.as_str());
        }
        c
    }
    /// The URL's user on the scratch database (extensions, resets, ending
    /// sessions).
    pub fn admin_cfg(&self, url_cfg: &Config) -> Config {
        let mut c = url_cfg.clone();
        c.dbname(&self.name);
        c
    }
}
