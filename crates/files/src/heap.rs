//! Giving freed memory back to the system between the stages of a build.
//!
//! glibc's allocator keeps what is freed in the arena of the thread that allocated it: the
//! models are read and the files analyzed on the worker threads, the pages rendered and
//! indexed on the main thread, so the memory of a model dropped after its pages is not
//! reused by what comes later and the process keeps it. Measured on 48 models assembled:
//! peak RSS 495 MB without these calls, 323 MB with them (BENCHMARKS.md, "Scale").

/// Returns the allocator's free memory to the system (a no-op outside glibc).
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory; it takes no pointer and may be called
    // at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
