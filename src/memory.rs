//! Handing the memory a phase freed back to the system before the next
//! phase allocates. The SQL analysis is built on the thread that runs the
//! first MG rule, so with glibc's per-thread arenas the pages it frees stay
//! with that thread's arena, and the findings rendered on the main thread
//! come from fresh pages: peak RSS was the analysis and the findings added
//! together, although they are never alive at once (issue 21). Called by
//! the replay once the analysis is built, by the rules' join and by the
//! engine before rendering; it imports nothing, so every layer may.

/// Returns the freed pages of every allocator arena to the system.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only walks glibc's own arenas under their locks;
    // it frees nothing that is in use and may be called from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
