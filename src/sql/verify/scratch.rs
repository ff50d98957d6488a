//! The scratch database's life: a unique name, and a drop that happens on
//! every way out — normal end, error (the guard's `Drop`), panic unwinding,
//! and Ctrl-C (a handler that drops every registered scratch database from
//! a fresh connection, then exits 130).
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// `platcheck_verify_<pid>_<n>`: unique per process and per replay, and
/// recognisable when someone finds one left by a `kill -9`.
pub fn unique_name() -> String {
    format!(
        "platcheck_verify_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// How to drop one scratch database from a new connection.
#[derive(Clone, Debug)]
pub enum Scratch {
    Pg { admin_url: String, name: String },
    My { url: String, name: String },
}

impl Scratch {
    fn name(&self) -> &str {
        match self {
            Scratch::Pg { name, .. } | Scratch::My { name, .. } => name,
        }
    }
    /// Best effort: called on the way out, when there is nobody left to
    /// report an error to but stderr.
    pub fn drop_now(&self) -> Result<(), String> {
        match self {
            Scratch::Pg { admin_url, name } => {
                let mut c = postgres::Client::connect(admin_url, postgres::NoTls)
                    .map_err(|e| super::pg::server_message(&e))?;
                // FORCE ends the replay's own sessions, which may still be
                // inside a statement when Ctrl-C arrives.
                c.batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .map_err(|e| super::pg::server_message(&e))
            }
            Scratch::My { url, name } => {
                use mysql::prelude::Queryable;
                let opts = mysql::Opts::from_url(url).map_err(|e| e.to_string())?;
                let mut c = mysql::Conn::new(opts).map_err(|e| e.to_string())?;
                // Sessions still using the schema hold metadata locks that
                // would make the DROP wait.
                let ids: Vec<u64> = c
                    .query(format!(
                        "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = '{name}' AND ID <> CONNECTION_ID()"
                    ))
                    .unwrap_or_default();
                for id in ids {
                    let _ = c.query_drop(format!("KILL {id}"));
                }
                c.query_drop(format!("DROP DATABASE IF EXISTS `{name}`"))
                    .map_err(|e| e.to_string())
            }
        }
    }
}

static LIVE: Mutex<Vec<Scratch>> = Mutex::new(Vec::new());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C arrived: the handler is dropping the scratch databases (which
/// ends the replay's sessions) and will exit 130. An error the replay sees
/// now is that, not something to report.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Called on an error: if it was caused by Ctrl-C, give the handler the
/// time to finish its cleanup and exit with 130 instead of racing it.
pub fn settle_if_interrupted() {
    let start = std::time::Instant::now();
    while interrupted() && start.elapsed() < std::time::Duration::from_secs(15) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
static HANDLER: Once = Once::new();

/// Drops the scratch database when it goes out of scope.
pub struct Guard {
    scratch: Scratch,
}

impl Guard {
    pub fn register(scratch: Scratch) -> Guard {
        HANDLER.call_once(|| {
            // Another handler may already be installed by an embedding
            // program; then its own shutdown path is responsible.
            let _ = ctrlc::set_handler(|| {
                INTERRUPTED.store(true, Ordering::SeqCst);
                let live = LIVE.lock().map(|l| l.clone()).unwrap_or_default();
                for s in &live {
                    if let Err(e) = s.drop_now() {
                        eprintln!(
                            "platcheck: could not drop scratch database {}: {e}",
                            s.name()
                        );
                    }
                }
                std::process::exit(130);
            });
        });
        if let Ok(mut l) = LIVE.lock() {
            l.push(scratch.clone());
        }
        Guard { scratch }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Err(e) = self.scratch.drop_now() {
            eprintln!(
                "platcheck: could not drop scratch database {}: {e}",
                self.scratch.name()
            );
        }
        if let Ok(mut l) = LIVE.lock() {
            l.retain(|s| s.name() != self.scratch.name());
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_unique_and_identifiable() {
        let a = super::unique_name();
        let b = super::unique_name();
        assert_ne!(a, b);
        assert!(a.starts_with(&format!("platcheck_verify_{}_", std::process::id())));
    }
}
