//! Time limits held by the client. The server-side timeouts verify sets are
//! a first line only: a migration can lift them (`RESET ALL`, `SET STATEMENT
//! … FOR`, a function that sets its own). Every statement verify sends runs
//! under a timer on another thread that, at the limit, asks the server to
//! cancel it (PostgreSQL's cancel request, MySQL's `KILL QUERY`) and, if it
//! still runs after a grace period, ends its session.
use super::VerifyError;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long a cancelled statement may take to stop before its session is ended.
pub const GRACE: Duration = Duration::from_secs(10);

pub const DEFAULT_STATEMENT: Duration = Duration::from_secs(120);
pub const DEFAULT_TOTAL: Duration = Duration::from_secs(30 * 60);

/// How one running statement is stopped from outside its session.
pub trait Stopper: Send + 'static {
    /// Ask the server to cancel the running statement.
    fn cancel(&self);
    /// End the statement's session (the statement ignored the cancel).
    fn terminate(&self);
}

#[derive(Clone, Debug)]
pub struct Limits {
    pub statement: Duration,
    pub total: Duration,
    started: Instant,
}

const RUNNING: u8 = 0;
const STATEMENT: u8 = 1;
const TOTAL: u8 = 2;

/// A statement's timer; dropping it (the statement ended) disarms it.
pub struct Armed {
    _disarm: mpsc::Sender<()>,
    fired: Arc<AtomicU8>,
    statement: Duration,
    total: Duration,
}

impl Limits {
    pub fn new(statement: Duration, total: Duration) -> Limits {
        Limits {
            statement,
            total,
            started: Instant::now(),
        }
    }

    fn left(&self) -> Duration {
        self.total.saturating_sub(self.started.elapsed())
    }

    /// The run's time is up: nothing more may be sent.
    pub fn check_total(&self) -> Result<(), VerifyError> {
        if self.left().is_zero() {
            Err(self.total_error())
        } else {
            Ok(())
        }
    }

    pub fn total_error(&self) -> VerifyError {
        VerifyError(format!(
            "the replay ran past verify's total limit of {} s (--total-timeout): stopped, nothing after this point was replayed",
            self.total.as_secs()
        ))
    }

    /// Starts the timer for a statement about to be sent.
    pub fn arm(&self, stopper: impl Stopper) -> Result<Armed, VerifyError> {
        self.check_total()?;
        let left = self.left();
        let (limit, which) = if left < self.statement {
            (left, TOTAL)
        } else {
            (self.statement, STATEMENT)
        };
        let (tx, rx) = mpsc::channel::<()>();
        let fired = Arc::new(AtomicU8::new(RUNNING));
        let flag = fired.clone();
        std::thread::Builder::new()
            .name("platcheck-limit".into())
            .spawn(move || {
                if rx.recv_timeout(limit) != Err(RecvTimeoutError::Timeout) {
                    return;
                }
                flag.store(which, Ordering::SeqCst);
                stopper.cancel();
                if rx.recv_timeout(GRACE) == Err(RecvTimeoutError::Timeout) {
                    stopper.terminate();
                }
            })
            .map_err(|e| VerifyError(format!("cannot start the statement timer: {e}")))?;
        Ok(Armed {
            _disarm: tx,
            fired,
            statement: self.statement,
            total: self.total,
        })
    }
}

impl Armed {
    /// Why the statement was stopped, if the timer stopped it.
    pub fn fired(&self) -> Option<Fired> {
        match self.fired.load(Ordering::SeqCst) {
            STATEMENT => Some(Fired::Statement(self.statement)),
            TOTAL => Some(Fired::Total(self.total)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fired {
    Statement(Duration),
    Total(Duration),
}

impl Fired {
    /// The statement's error as reported (a statement-limit stop), or the
    /// run's end (the total limit).
    pub fn outcome(self, limits: &Limits) -> Result<String, VerifyError> {
        match self {
            Fired::Statement(d) => Ok(format!(
                "ran past verify's statement limit of {} s (--statement-timeout): cancelled by platcheck",
                d.as_secs()
            )),
            Fired::Total(_) => Err(limits.total_error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    struct Record(Arc<Mutex<Vec<&'static str>>>);
    impl Stopper for Record {
        fn cancel(&self) {
            self.0.lock().unwrap().push("cancel");
        }
        fn terminate(&self) {
            self.0.lock().unwrap().push("terminate");
        }
    }

    #[test]
    fn a_disarmed_timer_never_fires() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let l = Limits::new(Duration::from_millis(50), Duration::from_secs(60));
        let armed = l.arm(Record(log.clone())).unwrap();
        drop(armed);
        std::thread::sleep(Duration::from_millis(120));
        assert!(log.lock().unwrap().is_empty());
    }

    #[test]
    fn the_statement_limit_cancels_and_says_which_limit() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let l = Limits::new(Duration::from_millis(20), Duration::from_secs(60));
        let armed = l.arm(Record(log.clone())).unwrap();
        let start = Instant::now();
        while armed.fired().is_none() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            armed.fired(),
            Some(Fired::Statement(Duration::from_millis(20)))
        );
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(*log.lock().unwrap(), vec!["cancel"]);
        assert!(armed.fired().unwrap().outcome(&l).is_ok());
    }

    #[test]
    fn the_total_limit_ends_the_run() {
        let l = Limits::new(Duration::from_secs(60), Duration::from_millis(1));
        std::thread::sleep(Duration::from_millis(5));
        assert!(l.check_total().is_err());
        assert!(Fired::Total(l.total).outcome(&l).is_err());
    }
}
