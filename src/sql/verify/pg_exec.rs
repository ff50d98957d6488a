//! Sending one migration statement to PostgreSQL. The extended protocol
//! carries exactly one statement per Parse message — the server refuses a
//! second one ("cannot insert multiple commands into a prepared
//! statement") — so text the splitter read as one statement cannot run as
//! two, whatever a comment or a string setting makes the server see. The
//! statement runs under the client-side time limit.
use super::VerifyError;
use super::limits::{Limits, Stopper};
use super::pg::server_message;
use postgres::{CancelToken, Client, Config, NoTls};

/// Stops a statement from outside its session: the protocol's cancel
/// request, then `pg_terminate_backend` from the URL's user.
pub struct PgStopper {
    token: CancelToken,
    admin: Config,
    pid: i32,
}

impl Stopper for PgStopper {
    fn cancel(&self) {
        let _ = self.token.cancel_query(NoTls);
    }
    fn terminate(&self) {
        if let Ok(mut c) = self.admin.connect(NoTls) {
            let _ = c.execute("SELECT pg_terminate_backend($1)", &[&self.pid]);
        }
    }
}

/// A session verify sends migration statements on.
pub struct Session {
    pub client: Client,
    pub pid: i32,
}

impl Session {
    pub fn new(client: Client) -> Result<Session, VerifyError> {
        let mut client = client;
        let pid: i32 = client
            .query_one("SELECT pg_backend_pid()", &[])
            .map_err(|e| VerifyError(server_message(&e)))?
            .get(0);
        Ok(Session { client, pid })
    }

    pub fn stopper(&self, admin: &Config) -> PgStopper {
        PgStopper {
            token: self.client.cancel_token(),
            admin: admin.clone(),
            pid: self.pid,
        }
    }

    /// Runs one statement of the migration. Outer error: the replay cannot
    /// go on (the total limit, a lost connection); inner: the server's
    /// refusal of this statement.
    pub fn run(
        &mut self,
        sql: &str,
        limits: &Limits,
        admin: &Config,
    ) -> Result<Result<(), String>, VerifyError> {
        let armed = limits.arm(self.stopper(admin))?;
        let result = self.client.execute(sql, &[]);
        if let Some(fired) = armed.fired() {
            return fired.outcome(limits).map(Err);
        }
        drop(armed);
        match result {
            Ok(_) => Ok(Ok(())),
            Err(e) if lost(&e) || self.client.is_closed() => Err(VerifyError(format!(
                "the connection to the server was lost: {}",
                server_message(&e)
            ))),
            Err(e) => Ok(Err(server_message(&e))),
        }
    }
}

/// The session is gone: no server error at all (a broken socket), or a
/// FATAL one (the backend was terminated, the server shuts down).
fn lost(e: &postgres::Error) -> bool {
    match e.as_db_error() {
        Some(db) => matches!(db.severity(), "FATAL" | "PANIC"),
        None => {
            e.is_closed() || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
        }
    }
}
