//! glibc's allocator, set for a long-running server (`docs/operations.md`,
//! "Memory"): its arenas and mapping threshold fixed at start, and its free
//! memory handed back to the system after a burst (a wave of closed
//! connections, large pages, a feed read and compared). Crate-level, so the
//! parser and the server reach it without depending on each other.

/// Blocks from this size up get a mapping of their own from glibc, given
/// back to the system when freed: a feed's text, a hostile page's data.
/// glibc's own threshold starts at 128 KB but rises with every such block
/// freed (up to 32 MB), after which a burst of large blocks stays in the
/// arenas until trimmed. A page's own blocks (its 150-230 KB of HTML, its
/// data, the brotli encoder's buffers) stay under it: at 64 KB each of them
/// was a fresh mapping, faulted in page by page and unmapped again (every
/// unmapping stops the other cores to flush their address caches), a
/// tenth of a cold page's time on the request's thread (perf; 1 ms of 9 at
/// 10,000 cars, `bench/README.md` "Cold pages").
pub const MMAP_THRESHOLD_BYTES: usize = 1024 * 1024;

/// Free memory at the top of an arena kept for the next page rather than
/// handed back at once (glibc's default is 128 KB, less than one page
/// takes: every page faulted its memory in again). Bursts are trimmed
/// after they end (`give_memory_back`, `src/server.rs`).
pub const TRIM_THRESHOLD_BYTES: usize = 4 * 1024 * 1024;

/// Caps glibc's arenas at one a core (at least two; its default is eight a
/// core, 16 on two cores) and fixes its mapping threshold at
/// [`MMAP_THRESHOLD_BYTES`] and its trimming at [`TRIM_THRESHOLD_BYTES`];
/// called before the server's threads start
/// (glibc only). Each thread that allocates gets an arena of its own up to
/// the cap, and memory freed in one arena serves only that arena's threads:
/// with the catalogue read on a blocking thread, the SQLite pool's threads,
/// the rendering threads and the workers each in their own, the release
/// build sat 2 MB higher at rest and under the benchmark, the debug build
/// 6-10 MB (`docs/operations.md`, "Memory").
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let arenas = i32::try_from(cores.max(2)).unwrap_or(i32::MAX);
        let threshold = i32::try_from(MMAP_THRESHOLD_BYTES).unwrap_or(i32::MAX);
        let trim = i32::try_from(TRIM_THRESHOLD_BYTES).unwrap_or(i32::MAX);
        #[allow(unsafe_code)]
        // SAFETY: mallopt takes two integers and only sets the allocator's
        // own parameters, under its own lock (glibc: MT-Safe).
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
            libc::mallopt(libc::M_MMAP_THRESHOLD, threshold);
            libc::mallopt(libc::M_TRIM_THRESHOLD, trim);
        }
    }
}

/// Returns the allocator's free memory to the system (glibc only; other
/// allocators return it themselves or not at all).
pub fn give_memory_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: malloc_trim takes no pointer and only works on the
    // allocator's own free lists, under its own locks; glibc documents it
    // as thread-safe (MT-Safe).
    unsafe {
        libc::malloc_trim(0);
    }
}
