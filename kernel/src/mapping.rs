//! Local mapping of a cloud's leases onto its servers (gandhimathi2013 Sec. 2.3 and 3.1.3,
//! Algorithms 4-5 as corrected in E24), with first-fit and worst-fit as the
//! baselines.
//!
//! A cloud has `n` identical servers of `C` VMs each. A task asks for `wl` VMs, which may be
//! spread over several servers; a server is **active** while it hosts at least one VM and
//! **idle** otherwise (an idle server draws much less power). The energy-aware mapping packs
//! tasks so that few servers are active.
//!
//! # Placements ([`Fit`])
//! - [`Fit::EnergyAware`], Algorithm 5 (best effort) as read in E24, for a batch of tasks that
//!   start together. With `wlm = wl mod C` (Eq. 4):
//!   1. each task's `wl - wlm` VMs fill whole idle servers (lowest index first); if idle
//!      servers run out, the VMs left over join the task's remainder;
//!   2. repeatedly take the task with the largest remainder (ties: earlier in the batch). If a
//!      partly used server (active, with free VMs) has exactly that many free, the task goes
//!      there and the loop continues (the printed lines 14-16 fall through and would place it
//!      twice). Otherwise it goes to the partly used server with the most free VMs if it fits,
//!      else to an idle server, and that server is then filled with the smallest remainders
//!      while they fit (line 19: stop at the first that does not). If neither exists (no idle
//!      server left: the fallback E24 adds), the remainder is split over the servers with the
//!      most free VMs first.
//! - Algorithm 4 (advance reservations) is the same with the VMs of the best-effort leases the
//!   reservation preempts counted free: [`Servers::place_preempting`] releases the victims'
//!   VMs and places the batch.
//! - [`Fit::FirstFit`]: each task in turn takes VMs from the servers in index order, VM by
//!   VM: a task fills the free VMs of the first partly used server before opening the next, so
//!   it may be split over servers.
//! - [`Fit::FirstFitTask`]: first-fit over tasks: each task in turn goes whole to the first
//!   server with at least its VMs free; a task no server can hold whole (wider than `C`, or no
//!   server has that many free) is placed VM by VM as [`Fit::FirstFit`] does.
//! - [`Fit::WorstFit`]: each VM goes to the server with the most free VMs (ties: lowest
//!   index), which spreads tasks over many servers. Computed per task in `O(n log C)` as a
//!   water level, not VM by VM.
//!
//! Ties between servers always go to the lowest index. Every placement is reported through the
//! `out` callback as [`Part`]s (batch index, server, VMs), at most one per (task, server).
//!
//! # Invariants
//! - `0 <= free(s) <= C` for every server; `active` counts the servers with `free < C`, and
//!   `free_total` is the sum of `free`.
//! - A successful call places exactly `wl` VMs for every task of the batch and never more VMs
//!   on a server than it has free. A refused call changes nothing (the batch is checked whole
//!   before the first VM is placed; with enough free VMs in total, every placement above
//!   completes).
//!
//! # Units, memory and cost
//! VMs and servers are counts; `C` is `1 ..= 255`. `size_of::<Servers<S>>()` is `S + 24`
//! bytes on x86-64 (1,048 for the 1,024 servers of the benchmarks). With `n` servers and a batch of
//! `T <= BATCH` tasks: energy-aware is `O(n + T (n + T) + n C)` (the last term only for a
//! split), first-fit (either form) `O(T n)`, worst-fit `O(T n log C)`. No recursion, no
//! allocation; a call uses about `3 BATCH` words of stack.

use core::num::{NonZeroU8, NonZeroU32};

use heapless::Vec;

use crate::error::{Error, Param};

/// The most tasks one call maps together.
pub const BATCH: usize = 64;

/// How a batch is placed on the servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Fit {
    /// Algorithm 5 (and 4), as read in E24: few active servers.
    EnergyAware,
    /// Servers in index order, VM by VM (a task may be split).
    FirstFit,
    /// Each task whole on the first server with room for it; split VM by VM only when none has.
    FirstFitTask,
    /// Each VM to the server with the most free VMs.
    WorstFit,
}

/// `vms` VMs of task `item` (its index in the batch) on `server`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Part {
    /// The task's index in the batch.
    pub item: usize,
    /// The server, `0 .. n`.
    pub server: u32,
    /// VMs, `1 ..= C`.
    pub vms: u32,
}

/// The servers of one cloud (at most `S`) and their free VMs.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Servers<const S: usize> {
    free: Vec<u8, S>,
    per_server: NonZeroU8,
    active: u32,
    free_total: u32,
}

impl<const S: usize> Servers<S> {
    /// `servers` idle servers of `per_server` VMs each.
    ///
    /// Errors: `InvalidParameter(Capacity)` if `servers` is zero or above `S` (or `u32::MAX`),
    /// or `per_server` is zero.
    pub fn new(servers: usize, per_server: u8) -> Result<Self, Error> {
        let bad = Error::InvalidParameter(Param::Capacity);
        let per_server = NonZeroU8::new(per_server).ok_or(bad)?;
        if servers == 0 {
            return Err(bad);
        }
        let mut free = Vec::new();
        free.resize(servers, per_server.get()).map_err(|_| bad)?;
        let total = u32::try_from(servers)
            .ok()
            .and_then(|n| n.checked_mul(u32::from(per_server.get())))
            .ok_or(bad)?;
        Ok(Self {
            free,
            per_server,
            active: 0,
            free_total: total,
        })
    }

    /// The number of servers.
    pub fn len(&self) -> usize {
        self.free.len()
    }

    /// Whether there is no server (never: see [`Servers::new`]).
    pub fn is_empty(&self) -> bool {
        self.free.is_empty()
    }

    /// `C`, the VMs of one server.
    pub fn per_server(&self) -> u8 {
        self.per_server.get()
    }

    /// Free VMs on `server`, if it exists.
    pub fn free(&self, server: u32) -> Option<u8> {
        self.free.get(server as usize).copied()
    }

    /// Free VMs over all servers.
    pub fn free_vms(&self) -> u32 {
        self.free_total
    }

    /// Servers hosting at least one VM.
    pub fn active(&self) -> u32 {
        self.active
    }

    /// Places `demands[i]` VMs for each task `i` of the batch under `fit`, reporting each part
    /// through `out`. See the module's documentation for each fit and its cost.
    ///
    /// Errors (nothing placed): [`Error::Full`] if the batch has more than [`BATCH`] tasks;
    /// `InvalidParameter(Capacity)` for a demand of zero VMs; [`Error::NotFree`] if the
    /// demands exceed the free VMs.
    pub fn place(
        &mut self,
        fit: Fit,
        demands: &[u32],
        out: &mut impl FnMut(Part),
    ) -> Result<(), Error> {
        self.check(demands)?;
        match fit {
            Fit::EnergyAware => self.energy_aware(demands, out),
            Fit::FirstFit => {
                for (item, &wl) in demands.iter().enumerate() {
                    self.first_fit(item, wl, out);
                }
            }
            Fit::FirstFitTask => {
                let per_server = u32::from(self.per_server.get());
                for (item, &wl) in demands.iter().enumerate() {
                    // A task wider than a server fits on none whole: no search.
                    let whole = if wl <= per_server {
                        self.find(0, |f| u32::from(f) >= wl)
                    } else {
                        None
                    };
                    match whole {
                        Some(s) => self.put(item, s, wl, out),
                        None => self.first_fit(item, wl, out),
                    }
                }
            }
            Fit::WorstFit => {
                for (item, &wl) in demands.iter().enumerate() {
                    self.worst_fit(item, wl, out);
                }
            }
        }
        Ok(())
    }

    /// Algorithm 4: a batch of advance reservations that preempt the best-effort parts
    /// `victims` (their `item` is not read). The victims' VMs are released, then the batch is
    /// placed as [`Servers::place`] does.
    ///
    /// Errors (nothing released or placed): those of [`Servers::release`] for a victim, and
    /// of [`Servers::place`] with the victims' VMs counted free.
    pub fn place_preempting(
        &mut self,
        fit: Fit,
        demands: &[u32],
        victims: &[Part],
        out: &mut impl FnMut(Part),
    ) -> Result<(), Error> {
        for (i, victim) in victims.iter().enumerate() {
            if let Err(e) = self.release(victim.server, victim.vms) {
                self.retake(victims.get(..i).unwrap_or(&[]));
                return Err(e);
            }
        }
        if let Err(e) = self.check(demands) {
            self.retake(victims);
            return Err(e);
        }
        self.place(fit, demands, out)
    }

    /// Gives back `vms` VMs on `server` (a task's part ends or is suspended). `O(1)`.
    ///
    /// Errors (nothing changed): [`Error::Unknown`] for a server that does not exist;
    /// `InvalidParameter(Capacity)` for zero VMs; [`Error::NotReserved`] if the server hosts
    /// fewer than `vms` VMs.
    pub fn release(&mut self, server: u32, vms: u32) -> Result<(), Error> {
        let c = self.per_server.get();
        let free = self.free.get_mut(server as usize).ok_or(Error::Unknown)?;
        if vms == 0 {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        let used = c.saturating_sub(*free);
        let vms = u8::try_from(vms)
            .ok()
            .filter(|&v| v <= used)
            .ok_or(Error::NotReserved)?;
        *free = free.saturating_add(vms);
        if *free == c {
            self.active = self.active.saturating_sub(1);
        }
        self.free_total = self.free_total.saturating_add(u32::from(vms));
        Ok(())
    }

    /// Re-takes parts just released (always fits: their VMs are free).
    fn retake(&mut self, parts: &[Part]) {
        for p in parts {
            self.take(p.server as usize, p.vms);
        }
    }

    /// The batch is at most [`BATCH`] tasks of at least one VM each and fits in the free VMs.
    fn check(&self, demands: &[u32]) -> Result<(), Error> {
        if demands.len() > BATCH {
            return Err(Error::Full);
        }
        if demands.contains(&0) {
            return Err(Error::InvalidParameter(Param::Capacity));
        }
        let total: u64 = demands.iter().map(|&d| u64::from(d)).sum();
        if total > u64::from(self.free_total) {
            return Err(Error::NotFree);
        }
        Ok(())
    }

    /// Takes `vms` VMs on server `s`, which has them free.
    fn take(&mut self, s: usize, vms: u32) {
        let c = self.per_server.get();
        if let Some(free) = self.free.get_mut(s) {
            let vms = u8::try_from(vms).unwrap_or(u8::MAX).min(*free);
            if *free == c && vms > 0 {
                self.active = self.active.saturating_add(1);
            }
            *free -= vms;
            self.free_total = self.free_total.saturating_sub(u32::from(vms));
        }
    }

    /// Takes `vms` (free) VMs on server `s` for `item` and reports the part.
    fn put(&mut self, item: usize, s: usize, vms: u32, out: &mut impl FnMut(Part)) {
        if vms > 0 {
            self.take(s, vms);
            out(Part {
                item,
                server: s as u32,
                vms,
            });
        }
    }

    /// The lowest-index server from `from` on whose free count satisfies `keep`.
    fn find(&self, from: usize, keep: impl Fn(u8) -> bool) -> Option<usize> {
        let rest = self.free.get(from..)?;
        rest.iter().position(|&f| keep(f)).map(|i| from + i)
    }

    /// The partly used server (`0 < free < C`) with the most free VMs, lowest index first.
    fn most_free_partly_used(&self) -> Option<usize> {
        let c = self.per_server.get();
        let mut best: Option<(usize, u8)> = None;
        for (s, &f) in self.free.iter().enumerate() {
            if f > 0 && f < c && best.is_none_or(|(_, b)| f > b) {
                best = Some((s, f));
            }
        }
        best.map(|(s, _)| s)
    }

    /// Algorithm 5 with E24's corrections (see the module's documentation).
    fn energy_aware(&mut self, demands: &[u32], out: &mut impl FnMut(Part)) {
        let c = NonZeroU32::from(self.per_server);
        let mut rem: Vec<u32, BATCH> = Vec::new();
        // Stage 1: whole servers, from a cursor that only moves forward (servers only fill).
        let mut cursor = 0;
        for (item, &wl) in demands.iter().enumerate() {
            let mut whole = wl / c;
            while whole > 0 {
                let Some(s) = self.find(cursor, |f| u32::from(f) == c.get()) else {
                    break;
                };
                self.put(item, s, c.get(), out);
                cursor = s + 1;
                whole -= 1;
            }
            // The batch has at most BATCH tasks.
            let _ = rem.push((wl % c).saturating_add(whole.saturating_mul(c.get())));
        }
        // Stage 2: remainders, largest first; fills from the smallest.
        let mut descending: Vec<usize, BATCH> = (0..rem.len()).collect();
        descending.sort_unstable_by_key(|&i| (core::cmp::Reverse(rem.get(i).copied()), i));
        let mut ascending: Vec<usize, BATCH> = (0..rem.len()).collect();
        ascending.sort_unstable_by_key(|&i| (rem.get(i).copied(), i));
        let c = c.get();
        for &ta in &descending {
            let need = rem.get(ta).copied().unwrap_or(0);
            if need == 0 {
                continue;
            }
            if let Some(slot) = rem.get_mut(ta) {
                *slot = 0;
            }
            if let Some(s) = self.find(0, |f| f > 0 && u32::from(f) < c && u32::from(f) == need) {
                self.put(ta, s, need, out);
                continue;
            }
            let sa = match self.most_free_partly_used() {
                Some(s) if self.free_at(s) >= need => Some(s),
                _ if need <= c => self.find(0, |f| u32::from(f) == c),
                _ => None,
            };
            let Some(sa) = sa else {
                self.split(ta, need, out);
                continue;
            };
            self.put(ta, sa, need, out);
            for &tk in &ascending {
                let want = rem.get(tk).copied().unwrap_or(0);
                if want == 0 {
                    continue;
                }
                let free = self.free_at(sa);
                if free > 0 && free >= want {
                    self.put(tk, sa, want, out);
                    if let Some(slot) = rem.get_mut(tk) {
                        *slot = 0;
                    }
                } else {
                    break;
                }
            }
        }
    }

    /// Free VMs of server `s` as a `u32` (zero if it does not exist).
    fn free_at(&self, s: usize) -> u32 {
        self.free.get(s).map_or(0, |&f| u32::from(f))
    }

    /// The fallback: `need` VMs of `item` over the servers with the most free VMs first
    /// (ties: lowest index). `O(n C)`.
    fn split(&mut self, item: usize, mut need: u32, out: &mut impl FnMut(Part)) {
        for level in (1..=self.per_server.get()).rev() {
            let mut s = 0;
            while need > 0 {
                let Some(found) = self.find(s, |f| f == level) else {
                    break;
                };
                let vms = need.min(u32::from(level));
                self.put(item, found, vms, out);
                need -= vms;
                s = found + 1;
            }
        }
    }

    /// Each VM of `item` in turn on the first server with a free VM.
    fn first_fit(&mut self, item: usize, mut need: u32, out: &mut impl FnMut(Part)) {
        let mut s = 0;
        while need > 0 {
            let Some(found) = self.find(s, |f| f > 0) else {
                break;
            };
            let vms = need.min(self.free_at(found));
            self.put(item, found, vms, out);
            need -= vms;
            s = found + 1;
        }
    }

    /// Each VM of `item` in turn on the server with the most free VMs, lowest index first:
    /// every server above a level `L` comes down to `L`, and the `r` lowest-index servers at
    /// `L` give one more.
    fn worst_fit(&mut self, item: usize, need: u32, out: &mut impl FnMut(Part)) {
        // above(L): VMs taken to bring every server down to at most L (decreasing in L).
        let above = |servers: &Self, level: u32| -> u64 {
            servers
                .free
                .iter()
                .map(|&f| u64::from(u32::from(f).saturating_sub(level)))
                .sum()
        };
        // The smallest level with above(level) <= need (above(C) = 0).
        let (mut lo, mut hi) = (0u32, u32::from(self.per_server.get()));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if above(self, mid) <= u64::from(need) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let level = lo;
        let mut extra = u64::from(need).saturating_sub(above(self, level));
        for s in 0..self.free.len() {
            let f = self.free_at(s);
            if f < level {
                continue;
            }
            let mut vms = f - level;
            if extra > 0 && level > 0 {
                vms += 1;
                extra -= 1;
            }
            self.put(item, s, vms, out);
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec as StdVec;

    fn placed<const S: usize>(
        servers: &mut Servers<S>,
        fit: Fit,
        demands: &[u32],
    ) -> StdVec<(usize, u32, u32)> {
        let mut parts = StdVec::new();
        servers
            .place(fit, demands, &mut |p| parts.push((p.item, p.server, p.vms)))
            .unwrap();
        parts
    }

    #[test]
    fn an_exact_fit_places_a_task_once() {
        // 3 servers of 4 VMs; server 0 has 3 free, server 1 has 2 free.
        let mut s = Servers::<3>::new(3, 4).unwrap();
        s.take(0, 1);
        s.take(1, 2);
        // Remainder 2 fits server 1 exactly: placed there and nowhere else.
        assert_eq!(placed(&mut s, Fit::EnergyAware, &[2]), [(0, 1, 2)]);
        assert_eq!(s.free_vms(), 3 + 4);
    }

    #[test]
    fn whole_servers_first_then_largest_remainder_with_fill() {
        let mut s = Servers::<4>::new(4, 4).unwrap();
        // Task 0: one whole server and 3; task 1: 1 VM fills the gap.
        let parts = placed(&mut s, Fit::EnergyAware, &[7, 1]);
        assert_eq!(parts, [(0, 0, 4), (0, 1, 3), (1, 1, 1)]);
        assert_eq!(s.active(), 2);
    }

    #[test]
    fn worst_fit_spreads_and_first_fit_packs() {
        let mut w = Servers::<4>::new(4, 4).unwrap();
        assert_eq!(
            placed(&mut w, Fit::WorstFit, &[6]),
            [(0, 0, 2), (0, 1, 2), (0, 2, 1), (0, 3, 1)]
        );
        let mut f = Servers::<4>::new(4, 4).unwrap();
        assert_eq!(placed(&mut f, Fit::FirstFit, &[6]), [(0, 0, 4), (0, 1, 2)]);
        assert_eq!((w.active(), f.active()), (4, 2));
    }

    #[test]
    fn first_fit_by_task_keeps_a_task_whole_where_first_fit_by_vm_splits_it() {
        // Server 0 has 1 VM free, server 1 has 3: a task of 2 VMs.
        let start = || {
            let mut s = Servers::<3>::new(3, 4).unwrap();
            s.take(0, 3);
            s.take(1, 1);
            s
        };
        let mut vm = start();
        assert_eq!(placed(&mut vm, Fit::FirstFit, &[2]), [(0, 0, 1), (0, 1, 1)]);
        let mut task = start();
        assert_eq!(placed(&mut task, Fit::FirstFitTask, &[2]), [(0, 1, 2)]);
        // Wider than a server: VM by VM from the first free VM.
        let mut wide = start();
        assert_eq!(
            placed(&mut wide, Fit::FirstFitTask, &[6]),
            [(0, 0, 1), (0, 1, 3), (0, 2, 2)]
        );
    }

    #[test]
    fn no_idle_server_left_splits_the_remainder() {
        let mut s = Servers::<2>::new(2, 4).unwrap();
        s.take(0, 1);
        s.take(1, 2);
        // 5 VMs: no idle server for the whole part; split, most free first.
        assert_eq!(
            placed(&mut s, Fit::EnergyAware, &[5]),
            [(0, 0, 3), (0, 1, 2)]
        );
        assert_eq!(s.free_vms(), 0);
    }

    #[test]
    fn a_refused_batch_changes_nothing() {
        let mut s = Servers::<2>::new(2, 4).unwrap();
        let before = s.clone();
        let mut out = |_| {};
        assert_eq!(
            s.place(Fit::EnergyAware, &[9], &mut out),
            Err(Error::NotFree)
        );
        assert_eq!(
            s.place(Fit::FirstFit, &[1, 0], &mut out),
            Err(Error::InvalidParameter(Param::Capacity))
        );
        let victims = [Part {
            item: 0,
            server: 1,
            vms: 1,
        }];
        assert_eq!(
            s.place_preempting(Fit::EnergyAware, &[1], &victims, &mut out),
            Err(Error::NotReserved)
        );
        assert_eq!(s, before);
    }
}
