//! Cleanup on every way out. What verify creates (scratch databases, the
//! sandbox role, throwaway servers) registers a cleanup here; a guard's
//! `Drop` runs it on a normal end, an error or a panic, and the signal
//! thread runs every registered one on SIGINT, SIGTERM or SIGHUP before
//! exiting with 128 + the signal's number. What a `kill -9` leaves behind
//! is found by its marker on the next run (`scratch::Marker`).
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};

type Cleanup = Box<dyn Fn() + Send>;

static CLEANUPS: Mutex<Vec<(u64, Cleanup)>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(1);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static PIPE_WRITE: AtomicI32 = AtomicI32::new(-1);
static INSTALL: Once = Once::new();

fn cleanups() -> MutexGuard<'static, Vec<(u64, Cleanup)>> {
    CLEANUPS.lock().unwrap_or_else(|p| p.into_inner())
}

/// A registered cleanup: runs once, when dropped or on a signal.
pub struct Registration {
    id: u64,
}

/// Registers `f` to run on the way out; the signal handler is installed on
/// first use.
pub fn register(f: impl Fn() + Send + 'static) -> Registration {
    install();
    let id = NEXT.fetch_add(1, Ordering::SeqCst);
    cleanups().push((id, Box::new(f)));
    Registration { id }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut list = cleanups();
        let Some(pos) = list.iter().position(|(id, _)| *id == self.id) else {
            return;
        };
        let (_, f) = list.remove(pos);
        drop(list);
        f();
    }
}

/// A signal arrived: the signal thread is cleaning up and will exit. An
/// error the replay sees now is that cleanup ending its sessions.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Called on an error: if a signal caused it, wait for the signal thread
/// to finish its cleanup and exit, instead of racing it with a report.
pub fn settle_if_interrupted() {
    let start = Instant::now();
    while interrupted() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

extern "C" fn on_signal(sig: libc::c_int) {
    let fd = PIPE_WRITE.load(Ordering::SeqCst);
    if fd >= 0 {
        let b = sig as u8;
        // SAFETY: write(2) is async-signal-safe; the byte lives on the stack.
        unsafe {
            libc::write(fd, (&b as *const u8).cast(), 1);
        }
    }
}

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

fn install() {
    INSTALL.call_once(|| {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe(2) fills the two descriptors it is given.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            eprintln!("platcheck: cannot install signal handlers: no pipe");
            return;
        }
        PIPE_WRITE.store(fds[1], Ordering::SeqCst);
        let read = fds[0];
        std::thread::Builder::new()
            .name("platcheck-signals".into())
            .spawn(move || signal_thread(read))
            .ok();
        for sig in SIGNALS {
            // SAFETY: a zeroed sigaction with a plain handler and an empty
            // mask is valid; the handler only calls write(2).
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                sa.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(sig, &sa, std::ptr::null_mut());
            }
        }
    });
}

fn read_byte(fd: libc::c_int) -> Option<u8> {
    let mut b = 0u8;
    loop {
        // SAFETY: reads one byte into a stack variable.
        let n = unsafe { libc::read(fd, (&mut b as *mut u8).cast(), 1) };
        if n == 1 {
            return Some(b);
        }
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        return None;
    }
}

fn signal_thread(fd: libc::c_int) {
    let Some(sig) = read_byte(fd) else { return };
    INTERRUPTED.store(true, Ordering::SeqCst);
    // A second signal while cleaning up: leave now; the next run removes
    // what is left by its marker.
    std::thread::spawn(move || {
        if read_byte(fd).is_some() {
            eprintln!("platcheck: cleanup interrupted; the next verify run removes what is left");
            std::process::exit(128 + i32::from(sig));
        }
    });
    let all: Vec<(u64, Cleanup)> = std::mem::take(&mut *cleanups());
    // Newest first: scratch databases before the server they live on.
    for (_, f) in all.into_iter().rev() {
        f();
    }
    std::process::exit(128 + i32::from(sig));
}
