//! The transposition table: results of earlier searches of a position
//! (bound, depth, best move), shared by every iteration and every move of
//! a game, so that iterative deepening re-searches cheaply and tries the
//! best move first.

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// A stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Best move found, as a square index.
    pub mv: Option<usize>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const NO_MOVE: u16 = u16::MAX;

/// One slot: 16 bytes.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    mv: u16,
    depth: u8,
    /// Bound in the low 2 bits (0 = empty slot), search generation above.
    meta: u8,
}

impl Entry {
    fn bound(&self) -> Option<Bound> {
        match self.meta & 3 {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
    fn generation(&self) -> u8 {
        self.meta >> 2
    }
}

/// Slots per bucket: a probe looks at both, a store replaces the shallower
/// or older one.
const BUCKET: usize = 2;

/// A fixed-size table of two-slot buckets indexed by position key.
pub struct TranspositionTable {
    /// The allocation: the table proper starts at `start`, where the
    /// memory is aligned for huge pages.
    memory: Vec<Entry>,
    start: usize,
    buckets_mask: usize,
    generation: u8,
}

/// The size of a huge page (x86-64 Linux).
const HUGE_PAGE: usize = 2 << 20;

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket), rounded down
    /// to a power of two number of buckets.
    ///
    /// Probes land at random all over the table, so with 4 KB pages nearly
    /// every probe of a large table also misses the address-translation
    /// cache; on Linux the table asks for huge pages (which made the exact
    /// solver 6-8% faster where transparent huge pages are available on
    /// request, the default of most distributions).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let entry = std::mem::size_of::<Entry>();
        let buckets = (bytes / (BUCKET * entry)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let len = buckets * BUCKET;
        // Reserve (not yet touch) room to align the table, advise the
        // kernel, then write the empty entries.
        let mut memory: Vec<Entry> = Vec::with_capacity(len + HUGE_PAGE / entry);
        let address = memory.as_ptr() as usize;
        let start = address.next_multiple_of(HUGE_PAGE) - address;
        debug_assert_eq!(start % entry, 0);
        let start = start / entry;
        advise_huge_pages(memory.as_ptr().wrapping_add(start), len * entry);
        memory.resize(start + len, Entry::default());
        TranspositionTable {
            memory,
            start,
            buckets_mask: buckets - 1,
            generation: 0,
        }
    }

    /// The table's slots.
    #[inline]
    fn slots(&self) -> &[Entry] {
        &self.memory[self.start..]
    }

    #[inline]
    fn slots_mut(&mut self) -> &mut [Entry] {
        &mut self.memory[self.start..]
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.slots())
    }

    /// Forgets everything (a new game or a new board size).
    pub fn clear(&mut self) {
        self.slots_mut().fill(Entry::default());
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 20) as usize & self.buckets_mask) * BUCKET
    }

    /// Starts loading the bucket of `key` into the cache: a probe of a
    /// table far larger than the cache waits on memory, so the solver asks
    /// for its children's buckets while it orders its moves, and finds them
    /// loaded when it searches them.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let entry = &self.slots()[self.bucket(key)];
            // SAFETY: a prefetch only hints the cache; it reads nothing and
            // cannot fault, and the pointer is to a live slot anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((entry as *const Entry).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored result for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        self.slots()[b..b + BUCKET].iter().find_map(|e| {
            let bound = e.bound()?;
            (e.key == key).then(|| Hit {
                mv: (e.mv != NO_MOVE).then_some(e.mv as usize),
                score: e.score,
                depth: e.depth as i32,
                bound,
            })
        })
    }

    /// Stores a result, replacing the entry for the same key, else an empty
    /// slot, else the slot from an older search or with the shallower depth.
    #[inline]
    pub fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, mv: Option<usize>) {
        let b = self.bucket(key);
        let generation = self.generation;
        let bucket = &mut self.slots_mut()[b..b + BUCKET];
        let victim = match bucket
            .iter()
            .position(|e| e.key == key && e.bound().is_some())
        {
            Some(i) => i,
            None => (0..BUCKET)
                .min_by_key(|&i| {
                    let e = &bucket[i];
                    let fresh = e.bound().is_some() && e.generation() == generation;
                    (fresh, e.depth)
                })
                .unwrap_or(0),
        };
        let old = bucket[victim];
        // Keep the old move when the new result has none (a fail-low node).
        let mv = match mv {
            Some(m) => m as u16,
            None if old.key == key => old.mv,
            None => NO_MOVE,
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        bucket[victim] = Entry {
            key,
            score,
            mv,
            depth: depth.clamp(0, 255) as u8,
            meta: (generation << 2) | bound_bits,
        };
    }
}

/// Asks the kernel to back `bytes` bytes from `start` (aligned to
/// [`HUGE_PAGE`]) with huge pages; a refusal only costs speed.
fn advise_huge_pages(start: *const Entry, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: madvise only changes how the kernel backs the pages of
        // this process's own reserved (allocated, not yet used) range; on
        // error nothing changes.
        let failed =
            unsafe { libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) } != 0;
        if failed {
            log::debug!("no huge pages for the transposition table");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_results() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42), None);
        tt.store(42, 5, -30, Bound::Lower, Some(19));
        let hit = tt.probe(42).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (Some(19), -30, 5, Bound::Lower)
        );
        // A fail-low result keeps the known move.
        tt.store(42, 6, -50, Bound::Upper, None);
        assert_eq!(tt.probe(42).unwrap().mv, Some(19));
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn size_is_a_power_of_two_within_the_budget() {
        let tt = TranspositionTable::new(3);
        assert!(tt.bytes() <= 3 * 1024 * 1024 && tt.bytes() >= 1024 * 1024);
        assert!((tt.bytes() / 32).is_power_of_two());
    }
}
