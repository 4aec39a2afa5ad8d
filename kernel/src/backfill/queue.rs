//! The backfilling queue ([`crate::backfill`]): waiting jobs in `(submit, id)` order at stable
//! positions, and a search index over them for EASY's backfilling pass.
//!
//! # Positions
//! A job keeps its position in an array of `QUEUE` slots from the moment it joins the queue until
//! it leaves: leaving marks its slot vacant instead of shifting the jobs behind it, so that
//! removing a job from anywhere is `O(log Q)` and the index stays valid. The live slots are in
//! `(submit, id)` order, ties in insertion order. A job that sorts after every waiting job (the
//! usual arrival) is appended; when the array is full, or when at least [`SPARSE`] more of
//! its slots are vacant than live, the live slots are first moved to the front (a compaction,
//! `O(len)`). A job that sorts between waiting jobs (an interrupted job going back to its
//! place) compacts and shifts, `O(Q)`. Trailing vacant slots are dropped at once, so the last
//! slot is always live.
//!
//! # Index
//! Only EASY's pass searches the queue for fits; FCFS, conservative and selective walk it in
//! order. A queue keeps an index only if it has room for one (`INDEX`, a const parameter:
//! `QUEUE` or 0), its owner searches it (a flag set at [`JobQueue::init`]), and its array has
//! more than `LINEAR` slots (a const parameter, [`SHORT`] = 128 by default): otherwise a search
//! scans the slots, and an insertion or removal writes no node, which is cheaper while the
//! queue stays that short (as it does at moderate load). A queue of at most `LINEAR` slots or
//! with no room (the C API's 64 jobs) carries no index code. The array builds its index whole
//! as it grows past `LINEAR`, keeps it up to date from there, and drops it when it is back to
//! `LINEAR` slots.
//!
//! An implicit binary tree in *in-order* layout over the positions: leaf `p` is the slot `p`;
//! the node stored at `index[j]` has level `h = tz(j + 1)` (the trailing ones of `j`) and covers
//! the positions `[j + 1 - 2^h, j + 1 + 2^h)`; its children are the nodes `j ∓ 2^(h-1)` (the
//! leaves `j` and `j + 1` at level 0). A node exists once its left half is complete, i.e. as
//! soon as the slot `j` does, so the index grows with the slots, one node per slot, and nothing
//! is written before it is needed. A node whose right half is not complete holds what is below
//! it so far; a node that does not exist yet reads as its left child. Nodes above the root's
//! level are not kept up to date: each is rebuilt when the root reaches it.
//!
//! A node holds the [`Stairs`] of the jobs below it: the jobs no other job there beats in both
//! nodes and estimate (the Pareto front of `(nodes, estimate)`), at most [`STAIRS`] of them. A
//! front with more points is thinned by replacing two neighbours by the corner they span (the
//! fewer nodes of one, the shorter estimate of the other), which beats both: a thinned front
//! still admits every query that one of its jobs admits, and a few more. EASY asks for the
//! first job with at most `free` nodes that ends within a window, or has at most `within`
//! nodes ([`Fit`]): a front answers whether one of its points does in `O(STAIRS)`, exactly
//! unless thinned. A point keeps its job's nodes (at most `u16::MAX`) and a 16-bit [`code`] of
//! its estimate, both rounded down, so that a node is 32 bytes: a front admits every query one
//! of its jobs admits, and a few more near the rounding. A search first asks the root's front,
//! which rules out the whole queue in one test (under overload, EASY's most common search finds
//! nothing); else [`JobQueue::next_fit`] climbs from a position to the first passing subtree
//! and descends into it; a subtree that passes with no fitting job below (a thinned front) is
//! left after its descent, and the search goes on behind it.
//!
//! # Invariants
//! - while the index is kept, `index.len() == slots.len()` and every existing node up to the
//!   root's level holds the stairs (as [`Stairs::join`] builds them) of the live slots in its
//!   range; otherwise the index is empty;
//! - `live` is the number of live slots, none before `front`, and the last slot is live (or
//!   there is none);
//! - the live slots are in `(submit, id)` order.
//!
//! # Cost and memory
//! `Q` slots in use. Appending or removing a job rebuilds the fronts on its path to the root,
//! stopping where one does not change: `O(log Q)` joins of `O(STAIRS^2)` at worst. The
//! compaction of a sparse array keeps `Q` below `2 live + SPARSE`, so the tree's height
//! follows the jobs waiting, not the jobs that passed through; it costs a join and a move per
//! slot, and comes at most once per `live + SPARSE` insertions and removals (each makes at
//! most one vacant slot), at most two of each per call, amortised. A search is
//! `O(log Q)` front tests when the fronts are exact; near the end of the array a node whose
//! right child does not exist yet reads down that child's left spine (`O(log² Q)` at worst).
//! `size_of::<JobQueue<Q, I>>()` is `56 Q + 32 I` bytes (a slot is a [`Waiting`] and a flag, a
//! node [`STAIRS`] points of two `u16`) plus five words (the two lengths, `live`, `front` and
//! `checked`) and the `searched` flag.

use core::iter::FusedIterator;

use core::mem::MaybeUninit;

use heapless::Vec;

use super::job::{Job, JobId, Waiting};
use crate::units::Ticks;

/// Points a node's front keeps at most.
pub(crate) const STAIRS: usize = 8;

/// The longest array that keeps no index (the default of `JobQueue`'s `LINEAR`): a search
/// scans it, at most this many slot tests, which is cheaper than the joins an index pays on
/// every insertion and removal while a queue stays this short (as it does at moderate load).
/// Under `cargo fuzz` (`cfg(fuzzing)`) it is 2, so that the fuzz targets' small queues build,
/// keep and drop the index as longer ones do.
pub(crate) const SHORT: usize = if cfg!(fuzzing) { 2 } else { 128 };

/// The vacant slots beyond the live ones at which an insertion first compacts the array: the
/// array stays under `2 live + SPARSE` slots. A queue of at most `SPARSE` slots (the C API's
/// 64) never compacts for it: the last slot is live, so `live` is at least 1 there.
const SPARSE: usize = 64;

/// One position of the queue: a waiting job, or the stale data of one that left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Slot {
    waiting: Waiting,
    live: bool,
}

/// A job as a front sees it: its nodes and the [`code`] of its estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Point {
    nodes: u16,
    length: u16,
}

/// The end of a front's points (no job has this code: [`code`] stops one below).
const NO_POINT: Point = Point {
    nodes: u16::MAX,
    length: u16::MAX,
};

/// A 16-bit code of a duration that never decreases when the duration grows: the duration
/// itself below `2^10` ticks, else its top 11 significant bits (rounded down, within 0.1 %)
/// and their place; at most `u16::MAX - 1`. `a <= b` implies `code(a) <= code(b)`, which is all the fronts need.
fn code(t: Ticks) -> u16 {
    let t = t.get();
    let top = 63 - t.leading_zeros().min(63);
    let c = if top < 10 {
        t
    } else {
        let shift = top - 10;
        // The place (1 to 54) above 10 bits of mantissa below the leading one.
        (u64::from(shift + 1) << 10) | ((t >> shift) & ((1 << 10) - 1))
    };
    u16::try_from(c).unwrap_or(u16::MAX).min(u16::MAX - 1)
}

/// A job's nodes as a point holds them: at most `u16::MAX` (rounded down, so a front still
/// admits every query its jobs do).
fn nodes_code(nodes: u32) -> u16 {
    u16::try_from(nodes).unwrap_or(u16::MAX)
}

/// `log2(x)` in sixteenths (`0` for `0`): the thinning's measure of a gap.
fn lg(x: u32) -> u32 {
    let top = 31u32.saturating_sub(x.leading_zeros());
    let frac = x.checked_shl(31 - top).unwrap_or(0) >> 27 & 15;
    if x == 0 { 0 } else { (top << 4) | frac }
}

/// What EASY's pass admits now (see [`crate::backfill`]): a job of at most `within` nodes, or
/// one of at most `free` nodes (`within <= free`) that ends within `window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fit {
    free: u32,
    within: u32,
    window: Ticks,
    window_code: u16,
}

impl Fit {
    /// `free` and `within` are clamped to `0 ..= u32::MAX` (no job has fewer than one node).
    pub(crate) fn new(free: i64, within: i64, window: Ticks) -> Self {
        let count = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
        Self {
            free: count(free),
            within: count(within.min(free)),
            window,
            window_code: code(window),
        }
    }

    /// Whether `job` fits.
    fn admits(&self, job: &Job) -> bool {
        job.nodes <= self.within || (job.nodes <= self.free && job.estimate <= self.window)
    }
}

/// The front of a set of jobs: up to [`STAIRS`] points by increasing nodes and decreasing
/// length, none beating another, then [`NO_POINT`]s. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct Stairs {
    points: [Point; STAIRS],
}

impl Stairs {
    const EMPTY: Self = Self {
        points: [NO_POINT; STAIRS],
    };

    fn of(job: &Job) -> Self {
        let mut points = [NO_POINT; STAIRS];
        if let Some(first) = points.first_mut() {
            *first = Point {
                nodes: nodes_code(job.nodes),
                length: code(job.estimate),
            };
        }
        Self { points }
    }

    #[cfg(test)]
    fn points(&self) -> impl Iterator<Item = &Point> {
        self.points.iter().take_while(|p| **p != NO_POINT)
    }

    /// Whether any job is below.
    fn any(&self) -> bool {
        self.points.first().is_some_and(|p| *p != NO_POINT)
    }

    /// Whether one of the points fits: true whenever one of the jobs does.
    #[inline]
    fn admits(&self, fit: &Fit) -> bool {
        for p in &self.points {
            // In order of nodes: past `free`, no point fits (nor does the end marker).
            if u32::from(p.nodes) > fit.free || *p == NO_POINT {
                return false;
            }
            if u32::from(p.nodes) <= fit.within || p.length <= fit.window_code {
                return true;
            }
        }
        false
    }

    /// The front of both sets, thinned to [`STAIRS`] points.
    fn join(&self, other: &Self) -> Self {
        if !other.any() {
            return *self;
        }
        if !self.any() {
            return *other;
        }
        let key = |p: Point| (u64::from(p.nodes) << 32) | u64::from(p.length);
        let mut all = [NO_POINT; 2 * STAIRS];
        let mut len = 0;
        // The length of the last point kept: every code is below the end marker's.
        let mut shortest = NO_POINT.length;
        let (mut i, mut j) = (0, 0);
        // Merge in order of (nodes, length); the end markers sort last.
        loop {
            let p = self.points.get(i).copied().unwrap_or(NO_POINT);
            let q = other.points.get(j).copied().unwrap_or(NO_POINT);
            let next = if key(q) < key(p) {
                j += 1;
                q
            } else {
                i += 1;
                p
            };
            if next == NO_POINT {
                break;
            }
            // In order of nodes, a point is on the front iff it is shorter than every one
            // before it, i.e. than the last one kept.
            if next.length < shortest
                && let Some(slot) = all.get_mut(len)
            {
                *slot = next;
                len += 1;
                shortest = next.length;
            }
        }
        if len > STAIRS {
            thin(&mut all, len);
        }
        let mut points = [NO_POINT; STAIRS];
        for (to, from) in points.iter_mut().zip(all) {
            *to = from;
        }
        Self { points }
    }
}

/// Thins the first `len` points of a front to [`STAIRS`]: repeatedly replaces the two
/// neighbours that span the smallest rectangle (in `lg` units, so that ratios count) by their
/// corner, which beats both.
fn thin(all: &mut [Point; 2 * STAIRS], mut len: usize) {
    let mut widths = [0u32; 2 * STAIRS];
    let mut lengths = [0u32; 2 * STAIRS];
    for ((p, w), l) in all.iter().zip(&mut widths).zip(&mut lengths) {
        (*w, *l) = (lg(p.nodes.into()), lg(p.length.into()));
    }
    while len > STAIRS {
        // The pair (i, i + 1) to merge: nodes grow and lengths shrink along the front.
        let mut best = (u32::MAX, 0);
        for i in 0..len - 1 {
            let (Some(w), Some(l)) = (widths.get(i..i + 2), lengths.get(i..i + 2)) else {
                break;
            };
            if let ([w0, w1], [l0, l1]) = (w, l) {
                let cost = (w1.saturating_sub(*w0) + 1) * (l0.saturating_sub(*l1) + 1);
                if cost < best.0 {
                    best = (cost, i);
                }
            }
        }
        let i = best.1;
        // Point i takes the length of point i + 1, which goes.
        if let (Some(&next), Some(&l)) = (all.get(i + 1), lengths.get(i + 1))
            && let (Some(p), Some(pl)) = (all.get_mut(i), lengths.get_mut(i))
        {
            p.length = next.length;
            *pl = l;
        }
        close_gap(&mut widths, i + 1, len, 0);
        close_gap(&mut lengths, i + 1, len, 0);
        close_gap(all, i + 1, len, NO_POINT);
        len -= 1;
    }
}

/// Removes `v[at]` from the first `len` items, moving the ones behind it forward and leaving
/// `fill` at `len - 1` (no panic path, unlike `rotate_left`).
fn close_gap<T: Copy>(v: &mut [T], at: usize, len: usize, fill: T) {
    for k in at..len {
        let next = v
            .get(k + 1)
            .copied()
            .filter(|_| k + 1 < len)
            .unwrap_or(fill);
        if let Some(x) = v.get_mut(k) {
            *x = next;
        }
    }
}

/// `2^h` (`0` past the word, which no position reaches).
fn pow2(h: u32) -> usize {
    1usize.checked_shl(h).unwrap_or(0)
}

/// Waiting jobs in `(submit, id)` order at stable positions, with the search index; see the
/// module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JobQueue<
    const QUEUE: usize,
    const INDEX: usize = QUEUE,
    const LINEAR: usize = SHORT,
> {
    slots: Vec<Slot, QUEUE>,
    /// The index's nodes: as many as the slots while [`indexed`](Self::indexed), else none.
    index: Vec<Stairs, INDEX>,
    /// Live slots.
    live: usize,
    /// No live slot before this position.
    front: usize,
    /// A position the owner keeps (FCFS and EASY: the jobs before it were checked by the last
    /// pass); compaction and insertion move it with the jobs.
    checked: usize,
    /// The owner searches the queue for fits (EASY): the index is kept past `LINEAR` slots.
    searched: bool,
}

impl<const QUEUE: usize, const INDEX: usize, const LINEAR: usize> JobQueue<QUEUE, INDEX, LINEAR> {
    const SIZES: () = assert!(
        INDEX == 0 || INDEX == QUEUE,
        "an index has a node per slot, or none"
    );

    /// Writes an empty queue into `slot`, in place (only its lengths); `searched` says whether
    /// its owner will search it for fits ([`next_fit`](Self::next_fit)), which only an index
    /// speeds up.
    #[allow(unsafe_code)]
    pub(crate) fn init(slot: &mut MaybeUninit<Self>, searched: bool) -> &mut Self {
        let () = Self::SIZES;
        let p = slot.as_mut_ptr();
        // SAFETY: `p` is `slot`'s, valid and aligned for writes of `Self`; each field is reached
        // as a raw place, and after the writes every field is initialised (the pattern names
        // them all).
        let queue = unsafe {
            (&raw mut (*p).slots).write(Vec::new());
            (&raw mut (*p).index).write(Vec::new());
            (&raw mut (*p).live).write(0);
            (&raw mut (*p).front).write(0);
            (&raw mut (*p).checked).write(0);
            (&raw mut (*p).searched).write(searched);
            slot.assume_init_mut()
        };
        let Self {
            slots: _,
            index: _,
            live: _,
            front: _,
            checked: _,
            searched: _,
        } = queue;
        queue
    }

    /// Empties the queue in place (only its lengths are written); `searched` as in
    /// [`init`](Self::init).
    pub(crate) fn clear(&mut self, searched: bool) {
        self.slots.clear();
        self.index.clear();
        self.live = 0;
        self.front = 0;
        self.checked = 0;
        self.searched = searched;
    }

    /// Waiting jobs.
    pub(crate) fn len(&self) -> usize {
        self.live
    }

    /// One past the last position in use.
    pub(crate) fn end(&self) -> usize {
        self.slots.len()
    }

    /// The first live position (the head), if any.
    pub(crate) fn head(&self) -> Option<usize> {
        (self.live > 0).then_some(self.front)
    }

    /// The owner's checked position (see the field).
    pub(crate) fn checked(&self) -> usize {
        self.checked
    }

    /// Sets the owner's checked position.
    pub(crate) fn set_checked(&mut self, checked: usize) {
        self.checked = checked;
    }

    /// The waiting job at position `p`, if it is live.
    pub(crate) fn get(&self, p: usize) -> Option<&Waiting> {
        self.slots.get(p).filter(|s| s.live).map(|s| &s.waiting)
    }

    /// The reservation of the waiting job at position `p`, if it is live (the index does not
    /// depend on it).
    pub(crate) fn reservation_mut(&mut self, p: usize) -> Option<&mut Option<Ticks>> {
        self.slots
            .get_mut(p)
            .filter(|s| s.live)
            .map(|s| &mut s.waiting.reservation)
    }

    /// The live jobs in order, each with its position.
    pub(crate) fn positions(&self) -> impl Iterator<Item = (usize, &Waiting)> + '_ {
        let from = self.front.min(self.slots.len());
        self.slots
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .zip(from..)
            .filter(|(s, _)| s.live)
            .map(|(s, p)| (p, &s.waiting))
    }

    /// A read-only view in queue order.
    pub(crate) fn view(&self) -> WaitingJobs<'_> {
        WaitingJobs {
            slots: self.slots.get(self.front..).unwrap_or(&[]),
            len: self.live,
        }
    }

    /// Whether `job` sorts after every waiting job (after equal keys), so that
    /// [`insert`](Self::insert) appends it behind them.
    pub(crate) fn appends(&self, job: &Job) -> bool {
        self.slots.last().is_none_or(|last| {
            let w = &last.waiting.job;
            (w.submit, w.id) <= (job.submit, job.id)
        })
    }

    /// Adds `waiting` at its place in `(submit, id)` order, after equal keys. Returns its
    /// position, or hands it back if all `QUEUE` slots hold live jobs.
    pub(crate) fn insert(&mut self, waiting: Waiting) -> Result<usize, Waiting> {
        let key = |w: &Waiting| (w.job.submit, w.job.id);
        let appends = self.appends(&waiting.job);
        let slot = Slot {
            waiting,
            live: true,
        };
        let vacant = self.slots.len().saturating_sub(self.live);
        if self.slots.len() == QUEUE || vacant >= self.live + SPARSE {
            self.compact();
        }
        if appends {
            let p = self.slots.len();
            self.slots.push(slot).map_err(|s| s.waiting)?;
            if self.live == 0 {
                self.front = p;
            }
            self.live += 1;
            if self.indexed() {
                if self.index.len() == p && self.index.push(Stairs::EMPTY).is_ok() {
                    self.update(p, Some(p));
                } else {
                    // Just past `LINEAR`: the index is built whole.
                    self.rebuild();
                }
            }
            return Ok(p);
        }
        // Between waiting jobs: close the gaps, then shift the jobs behind it by one.
        self.compact();
        let at = self
            .slots
            .partition_point(|s| key(&s.waiting) <= key(&waiting));
        crate::storage::vecops::insert(&mut self.slots, at, slot).map_err(|s| s.waiting)?;
        if self.checked > at {
            self.checked += 1;
        }
        self.live += 1;
        self.front = 0;
        self.rebuild();
        Ok(at)
    }

    /// Removes the live job at `p` and returns it (`None`, nothing changed, if `p` is not live).
    pub(crate) fn remove(&mut self, p: usize) -> Option<Waiting> {
        let slot = self.slots.get_mut(p).filter(|s| s.live)?;
        slot.live = false;
        let waiting = slot.waiting;
        self.live -= 1;
        self.update(p, None);
        // Trailing vacant slots go (their fronts are empty: no node changes), and with them the
        // index if the array is back to `LINEAR` slots.
        while self.slots.last().is_some_and(|s| !s.live) {
            self.slots.pop();
        }
        let end = self.slots.len();
        self.index.truncate(if self.indexed() { end } else { 0 });
        while self.front < end && self.slots.get(self.front).is_some_and(|s| !s.live) {
            self.front += 1;
        }
        if self.live == 0 {
            self.front = 0;
        }
        self.checked = self.checked.min(end);
        Some(waiting)
    }

    /// The first live position at or after `from`.
    pub(crate) fn next_live(&self, from: usize) -> Option<usize> {
        self.search(from, Stairs::any, |_| true)
    }

    /// EASY's search: the first live job at or after `from` that `fit` admits.
    pub(crate) fn next_fit(&self, from: usize, fit: &Fit) -> Option<usize> {
        self.search(from, |s| s.admits(fit), |w| fit.admits(&w.job))
    }

    /// The first live position at or after `from` whose job passes `job`; `node` must hold of a
    /// node's front whenever `job` holds of one of the jobs below it.
    fn search(
        &self,
        mut from: usize,
        node: impl Fn(&Stairs) -> bool,
        job: impl Fn(&Waiting) -> bool,
    ) -> Option<usize> {
        if !self.indexed() {
            let ahead = self.slots.get(from..)?;
            let k = ahead.iter().position(|s| s.live && job(&s.waiting))?;
            return Some(from + k);
        }
        // The root's front rules the whole queue out in one test: under overload most of EASY's
        // searches find nothing, and would otherwise test a node on every level.
        let top = self.root_level();
        if !node(self.value(pow2(top).saturating_sub(1), top)) {
            return None;
        }
        let leaf = |p: usize| self.get(p).is_some_and(&job);
        while from < self.slots.len() {
            match self.next_passing(from, &node, &leaf)? {
                Passing::Leaf(p) => return Some(p),
                Passing::Node(j, h) => match self.descend(j, h, &node, &leaf) {
                    Ok(p) => return Some(p),
                    // No job below passes (a thinned front): go on after the node.
                    Err(after) => from = after,
                },
            }
        }
        None
    }

    /// The first subtree in position order that lies at or after `from` and passes.
    fn next_passing(
        &self,
        from: usize,
        node: &impl Fn(&Stairs) -> bool,
        leaf: &impl Fn(usize) -> bool,
    ) -> Option<Passing> {
        if leaf(from) {
            return Some(Passing::Leaf(from));
        }
        // Climb from the level-0 node of `from`; a node's right half lies after `from` whenever
        // the climb comes from its left child.
        let mut j = from & !1;
        if from == j && leaf(j.saturating_add(1)) {
            return Some(Passing::Leaf(j.saturating_add(1)));
        }
        let len = self.slots.len();
        let top = self.root_level();
        let mut h = 0;
        while h < top {
            let step = pow2(h);
            if (j.saturating_add(1) >> h) & 3 == 1 {
                // `j` is a left child: its parent's right child starts just after the parent.
                let parent = j.saturating_add(step);
                let right = parent.saturating_add(step);
                if parent.saturating_add(1) < len && node(self.value(right, h)) {
                    return Some(Passing::Node(right, h));
                }
                j = parent;
            } else {
                j = j.saturating_sub(step);
            }
            h += 1;
        }
        None
    }

    /// Below the node at `j` (level `h`), which passes: the first job that passes, going down
    /// the first passing child at each level, or (`Err`) the position after the node where
    /// no child does.
    fn descend(
        &self,
        mut j: usize,
        mut h: u32,
        node: &impl Fn(&Stairs) -> bool,
        leaf: &impl Fn(usize) -> bool,
    ) -> Result<usize, usize> {
        loop {
            if h == 0 {
                let right = j.saturating_add(1);
                return [j, right]
                    .into_iter()
                    .find(|&p| leaf(p))
                    .ok_or(right.saturating_add(1));
            }
            let half = pow2(h - 1);
            let (left, right) = (j.saturating_sub(half), j.saturating_add(half));
            j = if node(self.value(left, h - 1)) {
                left
            } else if node(self.value(right, h - 1)) {
                right
            } else {
                return Err(j.saturating_add(1).saturating_add(pow2(h)));
            };
            h -= 1;
        }
    }

    /// Whether the queue keeps its index: it has room for one (`INDEX`), its owner searches it,
    /// and the array is longer than `LINEAR` (else no node is read or written, and a search
    /// scans the slots). Never for a queue of at most `LINEAR` slots or with no room, which the
    /// compiler sees: such a build (the C API's) carries no index code.
    pub(super) fn indexed(&self) -> bool {
        INDEX >= QUEUE && QUEUE > LINEAR && self.slots.len() > LINEAR && self.searched
    }

    /// The level of the root: the smallest `h` whose node at `2^h - 1` covers every slot.
    fn root_level(&self) -> u32 {
        let len = self.slots.len();
        (usize::BITS - len.saturating_sub(1).leading_zeros()).saturating_sub(1)
    }

    fn leaf(&self, p: usize) -> Stairs {
        self.get(p).map_or(Stairs::EMPTY, |w| Stairs::of(&w.job))
    }

    /// The front of the node at `j` (level `h`): stored if it exists; else its right half is
    /// past the end and it is its left child's (none at level 0: the leaf `j` is past the end
    /// too).
    fn value(&self, mut j: usize, mut h: u32) -> &Stairs {
        loop {
            if let Some(s) = self.index.get(j) {
                return s;
            }
            if h == 0 {
                return &Stairs::EMPTY;
            }
            h -= 1;
            j = j.saturating_sub(pow2(h));
        }
    }

    /// Recomputes the node at `j` (level `h`, existing) from its children; returns whether it
    /// changed.
    fn recompute(&mut self, j: usize, h: u32) -> bool {
        let right_start = j.saturating_add(1);
        let joined = if h == 0 {
            self.leaf(j).join(&self.leaf(right_start))
        } else {
            let half = pow2(h - 1);
            let left = self.value(j.saturating_sub(half), h - 1);
            if right_start < self.slots.len() {
                left.join(self.value(j.saturating_add(half), h - 1))
            } else {
                *left
            }
        };
        match self.index.get_mut(j) {
            Some(node) if *node != joined => {
                *node = joined;
                true
            }
            _ => false,
        }
    }

    /// Recomputes the nodes above leaf `p`, up to the root or the first existing one that does
    /// not change (nothing above it changes either), but not before the node `fresh` (just
    /// created, not yet computed).
    fn update(&mut self, p: usize, fresh: Option<usize>) {
        if !self.indexed() {
            return;
        }
        let top = self.root_level();
        let len = self.slots.len();
        let mut fresh = fresh;
        let mut j = p & !1;
        let mut h = 0;
        loop {
            if j < len && !self.recompute(j, h) && fresh.is_none() {
                break;
            }
            if fresh == Some(j) {
                fresh = None;
            }
            if h >= top {
                break;
            }
            let step = pow2(h);
            j = if (j.saturating_add(1) >> h) & 3 == 1 {
                j.saturating_add(step)
            } else {
                j.saturating_sub(step)
            };
            h += 1;
        }
    }

    /// Builds the index whole, level by level (`O(len)` joins), if the queue keeps one; else
    /// drops it.
    fn rebuild(&mut self) {
        self.index.clear();
        if !self.indexed() {
            return;
        }
        let len = self.slots.len();
        if self.index.resize(len, Stairs::EMPTY).is_err() {
            return;
        }
        for h in 0..=self.root_level() {
            let mut j = pow2(h).saturating_sub(1);
            while j < len {
                self.recompute(j, h);
                j = j.saturating_add(pow2(h + 1));
            }
        }
    }

    /// Moves the live slots to the front, in order, and rebuilds the index (`O(len)`).
    fn compact(&mut self) {
        if self.live == self.slots.len() {
            return;
        }
        let mut kept = 0;
        let mut checked = kept;
        for p in 0..self.slots.len() {
            if p == self.checked {
                checked = kept;
            }
            let Some(&slot) = self.slots.get(p) else {
                break;
            };
            if slot.live {
                if let Some(to) = self.slots.get_mut(kept) {
                    *to = slot;
                }
                kept += 1;
            }
        }
        if self.checked >= self.slots.len() {
            checked = kept;
        }
        self.slots.truncate(kept);
        self.checked = checked;
        self.front = 0;
        self.rebuild();
    }

    /// The first live job with id `id`, and its position.
    pub(crate) fn find(&self, id: JobId) -> Option<usize> {
        self.positions()
            .find(|(_, w)| w.job.id == id)
            .map(|(p, _)| p)
    }
}

/// A subtree that passes a search's test.
enum Passing {
    /// The leaf at this position.
    Leaf(usize),
    /// The node stored here, at this level.
    Node(usize, u32),
}

/// The waiting jobs of a [`Backfill`](crate::backfill::Backfill), in queue order: what
/// [`Backfill::waiting`](crate::backfill::Backfill::waiting) returns. It iterates like the
/// slice it replaces (`for w in b.waiting()`, `.iter()`, `.len()`, `.first()`, `.get(i)`).
#[derive(Clone, Copy, Debug)]
pub struct WaitingJobs<'a> {
    /// From the first live slot on.
    slots: &'a [Slot],
    len: usize,
}

impl<'a> WaitingJobs<'a> {
    /// The number of waiting jobs.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no job waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The waiting jobs, in queue order.
    pub fn iter(&self) -> WaitingIter<'a> {
        WaitingIter {
            slots: self.slots.iter(),
            left: self.len,
        }
    }

    /// The head of the queue.
    pub fn first(&self) -> Option<&'a Waiting> {
        self.iter().next()
    }

    /// The `i`-th waiting job in queue order (`O(Q)`).
    pub fn get(&self, i: usize) -> Option<&'a Waiting> {
        self.iter().nth(i)
    }
}

impl<'a> IntoIterator for WaitingJobs<'a> {
    type Item = &'a Waiting;
    type IntoIter = WaitingIter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &WaitingJobs<'a> {
    type Item = &'a Waiting;
    type IntoIter = WaitingIter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Iterator over [`WaitingJobs`], in queue order.
#[derive(Clone, Debug)]
pub struct WaitingIter<'a> {
    slots: core::slice::Iter<'a, Slot>,
    left: usize,
}

impl<'a> Iterator for WaitingIter<'a> {
    type Item = &'a Waiting;

    fn next(&mut self) -> Option<Self::Item> {
        let slot = self.slots.find(|s| s.live)?;
        self.left = self.left.saturating_sub(1);
        Some(&slot.waiting)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl DoubleEndedIterator for WaitingIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let slot = self.slots.rfind(|s| s.live)?;
        self.left = self.left.saturating_sub(1);
        Some(&slot.waiting)
    }
}

impl ExactSizeIterator for WaitingIter<'_> {}

impl FusedIterator for WaitingIter<'_> {}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::units::Nodes;

    fn waiting(id: u64, submit: u64, nodes: Nodes, estimate: u64) -> Waiting {
        Waiting {
            job: Job {
                id: JobId::new(id),
                submit: Ticks::new(submit),
                nodes,
                estimate: Ticks::new(estimate),
            },
            reservation: None,
        }
    }

    /// The first live position from `from` on that `fit` admits, by brute force.
    fn brute_fit<const L: usize>(q: &JobQueue<32, 32, L>, from: usize, fit: &Fit) -> Option<usize> {
        q.positions()
            .find(|&(p, w)| p >= from && fit.admits(&w.job))
            .map(|(p, _)| p)
    }

    /// The front of the live slots in `[lo, hi)`, joined one leaf at a time.
    fn brute_front<const L: usize>(q: &JobQueue<32, 32, L>, lo: usize, hi: usize) -> Stairs {
        (lo..hi).fold(Stairs::EMPTY, |a, p| a.join(&q.leaf(p)))
    }

    /// Every EASY search from every position, with bounds of every kind, after every insertion
    /// and removal of a scripted run, finds what a scan finds (fronts thinned or not); every
    /// node up to the root's level holds the front of the jobs below it, and no thinned front
    /// loses a job: each job is beaten or matched by a point of every front above it. Two runs:
    /// jobs whose nodes and estimates are anti-correlated (long fronts, thinned), and jobs drawn
    /// at random (many jobs beaten by their neighbour).
    #[test]
    fn the_index_finds_what_a_scan_finds() {
        let anti = |k: u64| {
            let nodes = (k * 7) % 29 + 1;
            (nodes as Nodes, 24 - nodes * 23 / 29 + k % 3)
        };
        let mut seed = 7u64;
        let mut random = move |_: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (((seed >> 33) % 29 + 1) as Nodes, (seed >> 13) % 23 + 1)
        };
        // Always indexed, and indexed only past 8 slots (the index built and dropped as the
        // array crosses 8), and never (every search a scan).
        check_searches::<0>(&mut |k| anti(k));
        check_searches::<0>(&mut random);
        check_searches::<8>(&mut |k| anti(k));
        check_searches::<8>(&mut random);
        check_searches::<SHORT>(&mut random);
    }

    /// The run of [`the_index_finds_what_a_scan_finds`] with the jobs `job(k)` gives.
    fn check_searches<const L: usize>(job: &mut dyn FnMut(u64) -> (Nodes, u64)) {
        let mut slot = MaybeUninit::uninit();
        let q = JobQueue::<32, 32, L>::init(&mut slot, true);
        let mut next = 0u64;
        for round in 0..160u64 {
            if (round % 3 != 2 && q.len() < 28) || q.len() == 0 {
                let (nodes, estimate) = job(next);
                q.insert(waiting(next, next, nodes, estimate)).unwrap();
                next += 1;
            } else {
                let p = q.positions().nth((round as usize * 5) % q.len()).unwrap().0;
                q.remove(p).unwrap();
            }
            for from in 0..=q.end() {
                for (free, within) in [(0, 0), (3, 1), (9, 9), (20, 2), (29, 29)] {
                    for window in [0, 5, 12, 30] {
                        let fit = Fit::new(free, within, Ticks::new(window));
                        let want = brute_fit(q, from, &fit);
                        assert_eq!(q.next_fit(from, &fit), want, "round {round} from {from}");
                    }
                }
                let live = q.positions().map(|(p, _)| p).find(|&p| p >= from);
                assert_eq!(q.next_live(from), live);
            }
            let nodes = (0..q.end()).filter(|j| (j + 1).trailing_zeros() <= q.root_level());
            for j in nodes.filter(|_| q.indexed()) {
                let h = (j + 1).trailing_zeros();
                let (lo, hi) = (j + 1 - (1 << h), (j + 1 + (1 << h)).min(q.end()));
                let front = q.index[j];
                for (_, w) in q.positions().filter(|&(p, _)| (lo..hi).contains(&p)) {
                    let job = Stairs::of(&w.job).points[0];
                    let beaten = front
                        .points()
                        .any(|p| p.nodes <= job.nodes && p.length <= job.length);
                    assert!(beaten, "node {j} loses job {} in round {round}", w.job.id);
                }
                if h <= 2 {
                    assert_eq!(front, brute_front(q, lo, hi), "node {j} in round {round}");
                }
            }
        }
    }

    /// A queue operation of the property test: add a job (its submit time, nodes and estimate),
    /// or remove the `k`-th waiting job (modulo the count).
    #[derive(Clone, Debug)]
    enum Op {
        Add(u64, Nodes, u64),
        Remove(usize),
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        prop_oneof![
            3 => (0u64..40, 1u32..=16, 1u64..=40).prop_map(|(s, n, e)| Op::Add(s, n, e)),
            2 => (0usize..64).prop_map(Op::Remove),
        ]
    }

    proptest::proptest! {
        /// Against a plain sorted list: after any sequence of additions (in and out of submit
        /// order, so that some go between waiting jobs and compact the array) and removals from
        /// anywhere, the queue holds the model's jobs in `(submit, id)` order, a full queue hands
        /// the job back, and every EASY search from every position finds the model's first
        /// admitted job: with the index always kept, kept past 6 slots, never (past 128 slots),
        /// never for an owner that does not search, and never with no room for one.
        #[test]
        fn the_queue_agrees_with_a_sorted_list(
            ops in proptest::collection::vec(op(), 1..120),
            fits in proptest::collection::vec((0i64..18, 0i64..18, 0u64..45), 1..6),
        ) {
            agrees_with_a_sorted_list::<24, 0>(&ops, &fits, true)?;
            agrees_with_a_sorted_list::<24, 6>(&ops, &fits, true)?;
            agrees_with_a_sorted_list::<24, SHORT>(&ops, &fits, true)?;
            agrees_with_a_sorted_list::<24, 0>(&ops, &fits, false)?;
            agrees_with_a_sorted_list::<0, 0>(&ops, &fits, true)?;
        }
    }

    /// The run of [`the_queue_agrees_with_a_sorted_list`] on a queue of 24 slots with room for
    /// an index of `I` nodes, kept past `L` slots if `searched`.
    fn agrees_with_a_sorted_list<const I: usize, const L: usize>(
        ops: &[Op],
        fits: &[(i64, i64, u64)],
        searched: bool,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let mut slot = MaybeUninit::uninit();
        let q = JobQueue::<24, I, L>::init(&mut slot, searched);
        let keeps = I == 24 && searched && L < 24;
        let mut model: std::vec::Vec<Waiting> = std::vec::Vec::new();
        for (id, op) in ops.iter().cloned().enumerate() {
            match op {
                Op::Add(submit, nodes, estimate) => {
                    let w = waiting(id as u64, submit, nodes, estimate);
                    let got = q.insert(w);
                    if model.len() == 24 {
                        proptest::prop_assert_eq!(got, Err(w));
                    } else {
                        proptest::prop_assert!(got.is_ok());
                        let at = model.partition_point(|m| {
                            (m.job.submit, m.job.id) <= (Ticks::new(submit), JobId::new(id as u64))
                        });
                        model.insert(at, w);
                    }
                }
                Op::Remove(k) if !model.is_empty() => {
                    let k = k % model.len();
                    let p = q.positions().nth(k).map(|(p, _)| p).unwrap();
                    proptest::prop_assert_eq!(q.remove(p), Some(model.remove(k)));
                }
                Op::Remove(_) => {}
            }
            let held: std::vec::Vec<Waiting> = q.view().iter().copied().collect();
            proptest::prop_assert_eq!(&held, &model);
            let kept = keeps && q.end() > L;
            proptest::prop_assert_eq!(q.indexed(), kept);
            proptest::prop_assert_eq!(q.index.len(), if kept { q.end() } else { 0 });
            let positions: std::vec::Vec<(usize, Waiting)> =
                q.positions().map(|(p, w)| (p, *w)).collect();
            for from in 0..=q.end() {
                for &(free, within, window) in fits {
                    let fit = Fit::new(free, within, Ticks::new(window));
                    let want = positions
                        .iter()
                        .find(|(p, w)| *p >= from && fit.admits(&w.job))
                        .map(|(p, _)| *p);
                    proptest::prop_assert_eq!(q.next_fit(from, &fit), want, "from {}", from);
                }
            }
        }
        Ok(())
    }

    /// A queue that holds few jobs while many pass through compacts its array: it stays under
    /// `2 live + SPARSE` slots after every insertion (so the tree's height follows the jobs
    /// waiting), keeps its jobs in order and the jobs before `checked` the same, and its
    /// searches find what a scan finds.
    #[test]
    fn a_sparse_array_compacts_and_keeps_its_jobs() {
        sparse_array_run::<0>();
        sparse_array_run::<SHORT>();
    }

    /// The run of [`a_sparse_array_compacts_and_keeps_its_jobs`] with the index kept past `L`.
    fn sparse_array_run<const L: usize>() {
        let mut slot = MaybeUninit::uninit();
        let q = JobQueue::<512, 512, L>::init(&mut slot, true);
        let mut model: std::vec::Vec<Waiting> = std::vec::Vec::new();
        let mut compactions = 0;
        for id in 0..3_000u64 {
            let before: std::vec::Vec<JobId> = q
                .positions()
                .filter(|&(p, _)| p < q.checked())
                .map(|(_, w)| w.job.id)
                .collect();
            let w = waiting(id, id, (id % 13 + 1) as Nodes, id % 17 + 1);
            let end = q.end();
            q.insert(w).unwrap();
            model.push(w);
            compactions += usize::from(q.end() <= end);
            assert!(
                q.end() < 2 * q.len() + SPARSE,
                "{} slots for {}",
                q.end(),
                q.len()
            );
            let after: std::vec::Vec<JobId> = q
                .positions()
                .filter(|&(p, _)| p < q.checked())
                .map(|(_, w)| w.job.id)
                .collect();
            assert_eq!(before, after, "job {id}");
            // Between 2 and 9 jobs wait: the oldest or one in the middle leaves.
            while model.len() > 2 + (id % 8) as usize {
                let k = if id % 3 == 0 { 0 } else { model.len() / 2 };
                let p = q.positions().nth(k).unwrap().0;
                assert_eq!(q.remove(p), Some(model.remove(k)));
            }
            if id % 5 == 0 {
                let p = q.positions().nth(model.len() / 2).unwrap().0;
                q.set_checked(p);
            }
            let held: std::vec::Vec<Waiting> = q.view().iter().copied().collect();
            assert_eq!(held, model);
            let positions: std::vec::Vec<(usize, Waiting)> =
                q.positions().map(|(p, w)| (p, *w)).collect();
            for from in 0..=q.end() {
                let fit = Fit::new(7, 2, Ticks::new(9));
                let want = positions
                    .iter()
                    .find(|(p, w)| *p >= from && fit.admits(&w.job))
                    .map(|(p, _)| *p);
                assert_eq!(q.next_fit(from, &fit), want, "job {id} from {from}");
            }
        }
        assert!(compactions > 30, "{compactions} compactions");
    }

    /// The code never decreases as a duration grows, and is exact below `2^10`.
    #[test]
    fn the_estimate_code_keeps_order() {
        let mut last = 0;
        for shift in 0..64 {
            let t0 = 1u64 << shift;
            for t in [t0, t0 + t0 / 2, t0 + t0 / 2 + 1] {
                let c = code(Ticks::new(t));
                assert!(c >= last, "{t}");
                last = c;
            }
        }
        assert_eq!(code(Ticks::new(1023)), 1023);
        assert!(code(Ticks::MAX) < NO_POINT.length);
        assert!(code(Ticks::new((1 << 40) + (1 << 31))) > code(Ticks::new(1 << 40)));
    }

    /// A job that sorts between waiting jobs goes to its place (after equal keys); the jobs
    /// keep their order through compactions; the view iterates them in order.
    #[test]
    fn insertion_keeps_submit_order() {
        let mut slot = MaybeUninit::uninit();
        let q = JobQueue::<4>::init(&mut slot, true);
        q.insert(waiting(1, 0, 1, 5)).unwrap();
        q.insert(waiting(3, 10, 1, 5)).unwrap();
        q.remove(0).unwrap();
        q.insert(waiting(4, 10, 1, 5)).unwrap();
        q.insert(waiting(2, 5, 1, 5)).unwrap();
        let ids: heapless::Vec<u64, 4> = q.view().iter().map(|w| w.job.id.get()).collect();
        assert_eq!(ids, [2, 3, 4]);
        q.insert(waiting(5, 20, 1, 5)).unwrap();
        assert_eq!(q.insert(waiting(6, 30, 1, 5)), Err(waiting(6, 30, 1, 5)));
        assert_eq!(q.view().len(), 4);
        assert_eq!(q.view().iter().next_back().map(|w| w.job.id.get()), Some(5));
    }
}
