//! The slot table ([`qosgate_kernel::slots::SlotTable`]) as a model that keeps the list of applied
//! intervals and evaluates the profile at an instant by summing the intervals that contain it.
//!
//! It shares no code or representation with the kernel (no breakpoint list, no merging): the
//! profile is piecewise constant between the ends of the intervals, so checking those instants
//! ("cuts") checks every instant. Refusals follow the order of checks the kernel documents:
//! an empty interval, zero nodes, more nodes than the table has, then the profile's own
//! reason; a mutation that would need more breakpoints than the table holds is `Full`.

use qosgate_kernel::slots::{Request, SlotTable, Span, Step};
use qosgate_kernel::units::{Nodes, Ticks};
use qosgate_kernel::{Error, Param, Refused};

use crate::LAST_INSTANT;

const MAX: Ticks = Ticks::MAX;

/// The four mutations of a slot table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Kind {
    /// `reserve`: takes free nodes.
    Reserve,
    /// `release`: gives reserved nodes back.
    Release,
    /// `node_down`: takes nodes out of service (may overcommit).
    Down,
    /// `node_up`: brings nodes back.
    Up,
}

impl Kind {
    /// The mutation that undoes this one.
    pub fn inverse(self) -> Self {
        match self {
            Kind::Reserve => Kind::Release,
            Kind::Release => Kind::Reserve,
            Kind::Down => Kind::Up,
            Kind::Up => Kind::Down,
        }
    }

    /// This mutation of `nodes` nodes over `[start, end)`, applied to `table` through its own
    /// method, with the result in [`Model::apply`]'s form.
    pub fn apply_to<const BREAKPOINTS: usize>(
        self,
        table: &mut SlotTable<BREAKPOINTS>,
        start: Ticks,
        end: Ticks,
        nodes: Nodes,
    ) -> Result<Option<Span>, Refused<Request>> {
        match self {
            Kind::Reserve => table.reserve(start, end, nodes).map(|()| None),
            Kind::Release => table.release(start, end, nodes).map(|()| None),
            Kind::Down => table.node_down(start, end, nodes),
            Kind::Up => table.node_up(start, end, nodes).map(|()| None),
        }
    }
}

/// One applied interval `[start, end)`: `delta` nodes down (`down`) or reserved, negative for
/// releases and repairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Applied {
    down: bool,
    start: Ticks,
    end: Ticks,
    delta: i64,
}

/// A table of `nodes` nodes holding at most `breakpoints` breakpoints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    nodes: Nodes,
    breakpoints: usize,
    applied: Vec<Applied>,
}

impl Model {
    /// An empty table (every node free at every instant).
    pub fn new(nodes: Nodes, breakpoints: usize) -> Self {
        Self {
            nodes,
            breakpoints,
            applied: Vec::new(),
        }
    }

    /// `(down, reserved)` at instant `t < MAX`.
    fn counts(&self, t: Ticks) -> (i64, i64) {
        let (mut down, mut reserved) = (0, 0);
        for a in self.applied.iter().filter(|a| a.start <= t && t < a.end) {
            if a.down {
                down += a.delta;
            } else {
                reserved += a.delta;
            }
        }
        (down, reserved)
    }

    fn free(&self, t: Ticks) -> i64 {
        let (d, r) = self.counts(t);
        i64::from(self.nodes) - d - r
    }

    /// Free nodes at `t`, negative when overcommitted, as `SlotTable::free_at` reports it: no
    /// interval contains the instant `Ticks::MAX`, so the table reports the step before it.
    pub fn free_at(&self, t: Ticks) -> i64 {
        self.free(t.min(LAST_INSTANT))
    }

    /// Every instant at which the profile may change, sorted, 0 included, `MAX` excluded.
    fn cuts(&self) -> Vec<Ticks> {
        let mut v: Vec<Ticks> = vec![Ticks::ZERO];
        for a in &self.applied {
            v.extend([a.start, a.end]);
        }
        v.retain(|&t| t < MAX);
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The minimal breakpoint list: one step wherever `(down, reserved)` changes.
    pub fn steps(&self) -> Vec<Step> {
        let mut prev = (0, 0);
        let mut out = vec![];
        for t in self.cuts() {
            let c = self.counts(t);
            if c != prev {
                // Within the table's range: the mutations keep 0 <= down, reserved <= u32::MAX.
                out.push(Step {
                    at: t,
                    down: c.0 as Nodes,
                    reserved: c.1 as Nodes,
                });
                prev = c;
            }
        }
        out
    }

    /// The instants at which the profile over `[start, end)` may take a new value, `start` first.
    fn instants(&self, start: Ticks, end: Ticks) -> Vec<Ticks> {
        let mut v = vec![start];
        v.extend(self.cuts().into_iter().filter(|&t| start < t && t < end));
        v
    }

    /// Applies a mutation of `nodes` nodes over `[start, end)`, or says why not (and changes
    /// nothing). `Ok(Some(span))` for `Down`: the first to the last overcommitted instant of
    /// `[start, end)`; `Ok(None)` otherwise.
    pub fn apply(
        &mut self,
        kind: Kind,
        start: Ticks,
        end: Ticks,
        nodes: Nodes,
    ) -> Result<Option<Span>, Error> {
        if start >= end {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        if nodes == 0 {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        if nodes > self.nodes {
            return Err(Error::TaskTooLarge);
        }
        let n = i64::from(nodes);
        let all = i64::from(self.nodes);
        for t in self.instants(start, end) {
            let (d, r) = self.counts(t);
            match kind {
                Kind::Reserve if all - d - r < n => return Err(Error::NotFree),
                Kind::Release if r < n => return Err(Error::NotReserved),
                Kind::Down if d + n > all => return Err(Error::InvalidParameter(Param::Capacity)),
                Kind::Up if d < n => return Err(Error::NotReserved),
                _ => {}
            }
        }
        let (down, delta) = match kind {
            Kind::Reserve => (false, n),
            Kind::Release => (false, -n),
            Kind::Down => (true, n),
            Kind::Up => (true, -n),
        };
        self.applied.push(Applied {
            down,
            start,
            end,
            delta,
        });
        if self.steps().len() > self.breakpoints {
            self.applied.pop();
            return Err(Error::Full);
        }
        if kind != Kind::Down {
            return Ok(None);
        }
        let cuts = self.instants(start, end);
        let mut span: Option<Span> = None;
        for (i, &t) in cuts.iter().enumerate() {
            if self.free(t) < 0 {
                let to = cuts.get(i + 1).copied().unwrap_or(end);
                span.get_or_insert(Span { start: t, end: to }).end = to;
            }
        }
        Ok(span)
    }

    /// The fewest free nodes over `[start, end)`.
    pub fn min_free(&self, start: Ticks, end: Ticks) -> Result<i64, Error> {
        if start >= end {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        Ok(self
            .instants(start, end)
            .into_iter()
            .map(|t| self.free(t))
            .min()
            .unwrap_or(i64::MIN))
    }

    /// The earliest start at or after `from` at which `nodes` nodes stay free for `duration`.
    pub fn earliest_fit(
        &self,
        from: Ticks,
        nodes: Nodes,
        duration: Ticks,
    ) -> Result<Option<Ticks>, Error> {
        if nodes == 0 {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        if duration == Ticks::ZERO {
            return Err(Error::InvalidParameter(Param::Delay));
        }
        if nodes > self.nodes {
            return Err(Error::TaskTooLarge);
        }
        if from.checked_add(duration).is_none() {
            return Err(Error::Overflow);
        }
        // The earliest feasible start is `from` or a step start after it.
        let mut starts = vec![from];
        starts.extend(self.cuts().into_iter().filter(|&t| t > from));
        Ok(starts.into_iter().find(|&s| {
            s.checked_add(duration)
                .is_some_and(|e| self.min_free(s, e).is_ok_and(|f| f >= i64::from(nodes)))
        }))
    }

    /// The first overcommitted run of instants at or after `from`.
    pub fn overcommitted(&self, from: Ticks) -> Option<Span> {
        let mut cuts = self.instants(from, MAX);
        cuts.push(MAX);
        let mut span: Option<Span> = None;
        for w in cuts.windows(2) {
            if self.free(w[0]) < 0 {
                span.get_or_insert(Span {
                    start: w[0],
                    end: w[1],
                })
                .end = w[1];
            } else if span.is_some() {
                break;
            }
        }
        span
    }

    /// Every instant before `at` takes the value at `at` (read as [`Model::free_at`] reads it);
    /// later ones keep theirs.
    pub fn forget_before(&mut self, at: Ticks) {
        let at = at.min(LAST_INSTANT);
        self.applied.retain(|a| a.end > at);
        for a in &mut self.applied {
            if a.start <= at {
                a.start = Ticks::ZERO;
            }
        }
    }
}
