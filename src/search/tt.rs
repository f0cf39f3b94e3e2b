//! The transposition table: results of earlier searches of a position
//! (bound, depth, best move), shared by every iteration and every move of
//! a game, so that iterative deepening re-searches cheaply and tries the
//! best move first.

use super::score::WIN;
use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};

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

impl Bound {
    /// What a fail-soft search's `best` score says about the true value,
    /// given the window (`alpha`, `beta`) it was searched with.
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// A stored result: what the searches of a position to `depth` proved
/// about its value. A position searched with different windows (a
/// null-window probe, then its re-search, or the same node reached from
/// two root moves) can have proved both a lower and an upper bound, and
/// both are kept: either one may cut the next visit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Best move found, as a square index.
    pub mv: Option<usize>,
    /// The true value is at least this.
    pub lower: Option<i32>,
    /// The true value is at most this.
    pub upper: Option<i32>,
    pub depth: i32,
}

impl Hit {
    /// The stored value if it cuts a search of window (`alpha`, `beta`):
    /// the exact value, or a bound outside the window.
    #[inline]
    pub fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        match (self.lower, self.upper) {
            (Some(l), _) if l >= beta => Some(l),
            (_, Some(u)) if u <= alpha => Some(u),
            (Some(l), Some(u)) if l == u => Some(l),
            _ => None,
        }
    }
}

const NO_MOVE: u16 = u16::MAX;

/// A slot's content, as read from or written to a [`Slot`].
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    /// The bounds, coded by [`code`] ([`NO_LOWER`], [`NO_UPPER`]: none).
    lower: i16,
    upper: i16,
    mv: u16,
    depth: u8,
    /// 1 in the low 2 bits for a used slot (0 = empty), search generation
    /// above.
    meta: u8,
}

impl Entry {
    /// Everything but the key, in one word.
    fn data(&self) -> u64 {
        (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.mv as u64) << 32
            | (self.depth as u64) << 48
            | (self.meta as u64) << 56
    }

    fn from_data(key: u64, data: u64) -> Entry {
        Entry {
            key,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            mv: (data >> 32) as u16,
            depth: (data >> 48) as u8,
            meta: (data >> 56) as u8,
        }
    }

    fn used(&self) -> bool {
        self.meta & 3 != 0
    }
    fn generation(&self) -> u8 {
        self.meta >> 2
    }
}

/// One slot: 16 bytes, read and written by any number of search threads
/// without a lock. It holds the data and the key XOR the data: a slot that
/// two threads wrote at once (one's data, the other's check) reads back
/// with a key that matches neither position, so it is never taken for
/// either. Relaxed atomic loads and stores are plain moves on x86-64: one
/// thread pays nothing for this.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline]
    fn load(&self) -> Entry {
        let data = self.data.load(Relaxed);
        Entry::from_data(self.check.load(Relaxed) ^ data, data)
    }

    #[inline]
    fn save(&self, entry: Entry) {
        let data = entry.data();
        self.data.store(data, Relaxed);
        self.check.store(entry.key ^ data, Relaxed);
    }
}

const NO_LOWER: i16 = i16::MIN;
const NO_UPPER: i16 = i16::MAX;
/// Heuristic scores are stored as they are below this size; a finished
/// game's score (`WIN` plus the disc margin in `DISC` units) is stored as
/// this plus the margin. Every score the searches store fits; a bound
/// that would not is dropped rather than stored wrong.
const PROVEN_CODE: i32 = 20_000;

/// The 16-bit code of `score`, if it has one.
fn code(score: i32) -> Option<i16> {
    let size = score.abs();
    let coded = if size < PROVEN_CODE {
        size
    } else {
        let margin = size.checked_sub(WIN)?;
        if !(0..i16::MAX as i32 - PROVEN_CODE).contains(&margin) {
            return None;
        }
        PROVEN_CODE + margin
    };
    Some((score.signum() * coded) as i16)
}

/// The score a [`code`] stands for.
fn decode(coded: i16) -> i32 {
    let size = (coded as i32).abs();
    let size = if size < PROVEN_CODE {
        size
    } else {
        size - PROVEN_CODE + WIN
    };
    (coded as i32).signum() * size
}

/// Slots per bucket: a probe looks at both, a store replaces the shallower
/// or older one.
const BUCKET: usize = 2;

/// A fixed-size table of two-slot buckets indexed by position key,
/// shared by reference: probes and stores take `&self`, so several search
/// threads can use one table (see [`Slot`]).
pub struct TranspositionTable {
    /// The allocation: the table proper starts at `start`, where the
    /// memory is aligned for huge pages.
    memory: Vec<Slot>,
    start: usize,
    len: usize,
    /// Slots from `start` that [`TranspositionTable::map_until`] wrote.
    mapped: usize,
    /// Slots from `start` for which huge pages were asked.
    advised: usize,
    /// Buckets in use, less one: probes and stores stay in that many. It
    /// never shrinks, so it also bounds every slot ever written.
    buckets_mask: usize,
    generation: AtomicU8,
    /// Whether anything was stored since the table was made or cleared
    /// (clearing an unused table would touch all of its pages).
    dirty: AtomicBool,
}

/// The size of a huge page (x86-64 Linux).
const HUGE_PAGE: usize = 2 << 20;

/// How much of the table [`TranspositionTable::map_until`] maps between
/// two looks at its `stop`: 16 small pages.
const MAP_STEP: usize = 64 << 10;

impl TranspositionTable {
    /// A table of about `megabytes` MB, all in use from the start (its
    /// pages are mapped as searches first touch them).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut table = TranspositionTable::on_demand(megabytes);
        table.buckets_mask = table.len / BUCKET - 1;
        table.advise_all();
        table
    }

    /// Asks for huge pages for the whole table: for a table mapped with no
    /// clock running (see [`TranspositionTable::map_until`]).
    fn advise_all(&mut self) {
        let entry = std::mem::size_of::<Slot>();
        let from = self.memory.as_ptr().wrapping_add(self.start + self.advised);
        advise_huge_pages(from, (self.len - self.advised) * entry);
        self.advised = self.len;
    }

    /// A table of about `megabytes` MB (at least one bucket), rounded down
    /// to a power of two number of buckets, of which one is in use until
    /// [`TranspositionTable::map_until`] puts more in use.
    ///
    /// Probes land at random all over the table, so with 4 KB pages nearly
    /// every probe of a large table also misses the address-translation
    /// cache; on Linux the table asks for huge pages as it is mapped
    /// (docs/research/endgame.md, "Cutoffs").
    ///
    /// The memory comes zeroed from the allocator (an empty slot is all
    /// zeros) and is mapped only when written: writing it takes long enough
    /// to make a first move late, so a player maps it within its clock
    /// instead (docs/research/time.md).
    pub fn on_demand(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let entry = std::mem::size_of::<Slot>();
        let buckets = floor_power_of_two((bytes / (BUCKET * entry)).max(1));
        let len = buckets * BUCKET;
        // Room to align the table proper to a huge page.
        let capacity = len + HUGE_PAGE / entry;
        let layout = Layout::array::<Slot>(capacity).expect("a table of at most a few GB");
        // SAFETY: the layout has a non-zero size; the pointer, if not null,
        // is a fresh allocation of the global allocator with exactly the
        // layout `Vec<Slot>` uses for `capacity` slots, so the vector
        // may own (and free) it; all-zero bytes are a valid `Slot` (two
        // atomic integers), so all `capacity` slots are initialised.
        let memory = unsafe {
            let ptr = alloc_zeroed(layout).cast::<Slot>();
            if ptr.is_null() {
                handle_alloc_error(layout);
            }
            Vec::from_raw_parts(ptr, capacity, capacity)
        };
        let address = memory.as_ptr() as usize;
        let start = address.next_multiple_of(HUGE_PAGE) - address;
        debug_assert_eq!(start % entry, 0);
        let start = start / entry;
        TranspositionTable {
            memory,
            start,
            len,
            mapped: 0,
            advised: 0,
            buckets_mask: 0,
            generation: AtomicU8::new(0),
            dirty: AtomicBool::new(false),
        }
    }

    /// The table's slots.
    #[inline]
    fn slots(&self) -> &[Slot] {
        &self.memory[self.start..self.start + self.len]
    }

    #[inline]
    fn slots_mut(&mut self) -> &mut [Slot] {
        &mut self.memory[self.start..self.start + self.len]
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.slots())
    }

    /// Forgets everything (a new game or a new board size).
    pub fn clear(&mut self) {
        if *self.dirty.get_mut() {
            self.wipe();
        }
        *self.generation.get_mut() = 0;
    }

    /// Maps every page and puts the whole table in use, so that memory is
    /// mapped now rather than on first use: benchmarks call it so that
    /// page faults (0.5 s for a 256 MB table here) are not counted in
    /// their first search.
    pub fn commit(&mut self) {
        self.advise_all();
        self.map_until(|| false);
    }

    /// Maps more of the table, [`MAP_STEP`] bytes at a time, until all of
    /// it is mapped or `stop` says so, and puts in use the largest power of
    /// two of buckets already mapped (always at least the first step;
    /// never fewer than were in use).
    ///
    /// A search that maps the table as it stores pays the page faults
    /// between two looks at its clock, and ran past its hard limit so.
    /// Mapped here, the cost is bounded by `stop`, and the search touches
    /// only mapped pages. Entries stored while fewer buckets were in use
    /// stay where they are: a probe checks the whole key, so at worst one
    /// is not found.
    ///
    /// The pages are mapped as small pages, a few microseconds each: a
    /// huge page asked for before it is mapped can stall its first write
    /// for milliseconds while the kernel compacts memory, the whole of a
    /// short move. Each whole huge page mapped is then offered to the
    /// kernel to merge in its own time.
    pub fn map_until(&mut self, mut stop: impl FnMut() -> bool) {
        let entry = std::mem::size_of::<Slot>();
        let (step, small_page) = (MAP_STEP / entry, 4096 / entry);
        while self.mapped < self.len && (self.mapped == 0 || !stop()) {
            let end = (self.mapped + step).min(self.len);
            let (start, mapped) = (self.start, self.mapped);
            // One write in every small page maps the page whichever size
            // the kernel backs it with; the slot was empty and stays so.
            for slot in self.memory[start + mapped..start + end]
                .iter_mut()
                .step_by(small_page)
            {
                *slot.check.get_mut() = 0;
            }
            self.mapped = end;
        }
        let whole = self.mapped - self.mapped % (HUGE_PAGE / entry);
        if whole > self.advised {
            let from = self.memory.as_ptr().wrapping_add(self.start + self.advised);
            advise_huge_pages(from, (whole - self.advised) * entry);
            self.advised = whole;
        }
        let buckets = floor_power_of_two(self.mapped / BUCKET);
        self.buckets_mask = self.buckets_mask.max(buckets - 1);
    }

    /// Empties every slot a search may have written (plain stores: no
    /// search holds the table).
    fn wipe(&mut self) {
        let in_use = (self.buckets_mask + 1) * BUCKET;
        for slot in &mut self.slots_mut()[..in_use] {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        *self.dirty.get_mut() = false;
    }

    /// Marks the start of a new search: older entries are replaced first.
    pub fn new_search(&self) {
        let next = (self.generation.load(Relaxed) + 1) & 0x3F;
        self.generation.store(next, Relaxed);
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
            let slot = &self.slots()[self.bucket(key)];
            // SAFETY: a prefetch only hints the cache; it reads nothing and
            // cannot fault, and the pointer is to a live slot anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((slot as *const Slot).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored result for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        self.slots()[b..b + BUCKET].iter().find_map(|slot| {
            let e = slot.load();
            (e.used() && e.key == key).then(|| Hit {
                mv: (e.mv != NO_MOVE).then_some(e.mv as usize),
                lower: (e.lower != NO_LOWER).then(|| decode(e.lower)),
                upper: (e.upper != NO_UPPER).then(|| decode(e.upper)),
                depth: e.depth as i32,
            })
        })
    }

    /// Stores a result, replacing the entry for the same key, else an empty
    /// slot, else the slot from an older search or with the shallower depth.
    /// A bound for the same key and depth joins the bound already there.
    #[inline]
    pub fn store(&self, key: u64, depth: i32, score: i32, bound: Bound, mv: Option<usize>) {
        let b = self.bucket(key);
        // Read before written: the flag's cache line stays shared.
        if !self.dirty.load(Relaxed) {
            self.dirty.store(true, Relaxed);
        }
        let generation = self.generation.load(Relaxed);
        let depth = depth.clamp(0, 255) as u8;
        let slots = &self.slots()[b..b + BUCKET];
        let bucket: [Entry; BUCKET] = std::array::from_fn(|i| slots[i].load());
        let same = bucket.iter().position(|e| e.key == key && e.used());
        let victim = same.unwrap_or_else(|| {
            (0..BUCKET)
                .min_by_key(|&i| {
                    let e = &bucket[i];
                    (e.used() && e.generation() == generation, e.depth)
                })
                .unwrap_or(0)
        });
        let old = bucket[victim];
        // Keep the old move when the new result has none (a fail-low node).
        let mv = match mv {
            Some(m) => m as u16,
            None if same.is_some() => old.mv,
            None => NO_MOVE,
        };
        let (old_lower, old_upper) = match same {
            Some(_) if old.depth == depth => (old.lower, old.upper),
            _ => (NO_LOWER, NO_UPPER),
        };
        let (lower, upper) = match (bound, code(score)) {
            (Bound::Exact, Some(c)) => (c, c),
            (Bound::Lower, Some(c)) if c <= old_upper => (c.max(old_lower), old_upper),
            (Bound::Upper, Some(c)) if c >= old_lower => (old_lower, c.min(old_upper)),
            // A bound that contradicts the other one (a midgame search is
            // not always consistent across windows): the new one alone.
            (Bound::Lower, Some(c)) => (c, NO_UPPER),
            (Bound::Upper, Some(c)) => (NO_LOWER, c),
            (_, None) => (NO_LOWER, NO_UPPER),
        };
        slots[victim].save(Entry {
            key,
            lower,
            upper,
            mv,
            depth,
            meta: (generation << 2) | 1,
        });
    }
}

/// The largest power of two not above `x` (at least 1).
fn floor_power_of_two(x: usize) -> usize {
    1 << (usize::BITS - 1 - x.max(1).leading_zeros())
}

/// Asks the kernel to back `bytes` bytes from `start` (aligned to
/// [`HUGE_PAGE`]) with huge pages; a refusal only costs speed.
fn advise_huge_pages(start: *const Slot, bytes: usize) {
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
            (hit.mv, hit.lower, hit.upper, hit.depth),
            (Some(19), Some(-30), None, 5)
        );
        // A fail-low result keeps the known move.
        tt.store(42, 6, -50, Bound::Upper, None);
        assert_eq!(tt.probe(42).unwrap().mv, Some(19));
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn bounds_of_one_depth_are_kept_together() {
        let tt = TranspositionTable::new(1);
        let win = WIN + 6 * 100;
        tt.store(7, 20, -win, Bound::Lower, None);
        tt.store(7, 20, win, Bound::Upper, None);
        let hit = tt.probe(7).unwrap();
        assert_eq!((hit.lower, hit.upper), (Some(-win), Some(win)));
        assert_eq!(hit.cutoff(win, win + 1), Some(win));
        assert_eq!(hit.cutoff(-win - 1, -win), Some(-win));
        assert_eq!(hit.cutoff(0, 1), None);
        // A tighter bound replaces a looser one; equal bounds are exact.
        tt.store(7, 20, 0, Bound::Upper, None);
        tt.store(7, 20, 0, Bound::Lower, None);
        assert_eq!(tt.probe(7).unwrap().cutoff(-1, 1), Some(0));
        // A deeper result starts afresh.
        tt.store(7, 21, 300, Bound::Lower, None);
        let hit = tt.probe(7).unwrap();
        assert_eq!((hit.lower, hit.upper, hit.depth), (Some(300), None, 21));
        // A bound that contradicts the other one replaces it.
        tt.store(7, 21, 200, Bound::Upper, None);
        let hit = tt.probe(7).unwrap();
        assert_eq!((hit.lower, hit.upper), (None, Some(200)));
    }

    #[test]
    fn scores_keep_their_value_in_the_table() {
        for score in [0, 1, -1, 6400, -19_999, WIN + 100, -WIN - 6400, WIN] {
            assert_eq!(code(score).map(decode), Some(score), "{score}");
        }
        assert_eq!(code(2 * WIN), None);
        assert_eq!(code(WIN / 2), None);
        let tt = TranspositionTable::new(1);
        tt.store(9, 3, 2 * WIN, Bound::Lower, Some(4));
        let hit = tt.probe(9).unwrap();
        assert_eq!((hit.lower, hit.upper, hit.mv), (None, None, Some(4)));
    }

    /// Threads storing different positions into the same bucket at once
    /// never read back another position's result as their own: a slot
    /// torn between two writers fails its check.
    #[test]
    fn threads_sharing_a_bucket_never_read_a_wrong_result() {
        let tt = TranspositionTable::new(1);
        // Keys that differ only below the bucket bits share one bucket.
        let keys: Vec<u64> = (1..=4).map(|i| (0xABCD << 20) | (i * 0x1111)).collect();
        let expected = |key: u64| {
            (
                (key % 1000) as i32,
                (key % 50) as i32 + 1,
                key as usize % 64,
            )
        };
        std::thread::scope(|scope| {
            for &key in &keys {
                let (tt, keys) = (&tt, &keys);
                scope.spawn(move || {
                    let (score, depth, mv) = expected(key);
                    for _ in 0..200_000 {
                        tt.store(key, depth, score, Bound::Exact, Some(mv));
                        for &other in keys {
                            if let Some(hit) = tt.probe(other) {
                                let (s, d, m) = expected(other);
                                assert_eq!(hit.lower, Some(s));
                                assert_eq!(hit.upper, Some(s));
                                assert_eq!((hit.depth, hit.mv), (d, Some(m)));
                            }
                        }
                    }
                });
            }
        });
    }

    /// A table made on demand grows a step at a time and forgets nothing
    /// it holds while it grows; cleared, it is empty everywhere.
    #[test]
    fn a_table_on_demand_puts_in_use_what_is_mapped() {
        let page = MAP_STEP / std::mem::size_of::<Slot>();
        let mut tt = TranspositionTable::on_demand(8);
        assert_eq!(tt.buckets_mask, 0);
        // Asked to stop at once, it still maps its first step, and asks
        // for no huge page: none is whole.
        tt.map_until(|| true);
        assert_eq!((tt.mapped, tt.buckets_mask + 1), (page, page / BUCKET));
        assert_eq!(tt.advised, 0);
        // Keys with no bucket bits beyond the first step's land in the
        // same bucket before and after the table grows.
        let keys: Vec<u64> = (1..=1000).map(|i| (i << 20) | i).collect();
        for &key in &keys {
            tt.store(key, 3, 7, Bound::Exact, Some(5));
        }
        let mut looks = 0;
        tt.map_until(|| {
            looks += 1;
            looks > 1
        });
        assert_eq!(
            (tt.mapped, tt.buckets_mask + 1),
            (2 * page, 2 * page / BUCKET)
        );
        tt.map_until(|| false);
        assert_eq!(tt.mapped, tt.len);
        assert_eq!(tt.advised, tt.len);
        assert_eq!(tt.buckets_mask + 1, tt.len / BUCKET);
        assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
        tt.store(u64::MAX, 3, 7, Bound::Exact, Some(5));
        tt.clear();
        assert!(
            keys.iter()
                .chain(&[u64::MAX])
                .all(|&k| tt.probe(k).is_none())
        );
    }

    #[test]
    fn size_is_a_power_of_two_within_the_budget() {
        let tt = TranspositionTable::new(3);
        assert!(tt.bytes() <= 3 * 1024 * 1024 && tt.bytes() >= 1024 * 1024);
        assert!((tt.bytes() / 32).is_power_of_two());
    }
}
