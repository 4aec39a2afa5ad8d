//! `heapless::Vec` operations that cannot panic: insertion and removal at an index, and dropping
//! a prefix, written so that the compiler can prove every access in range.
//!
//! `heapless::Vec::insert` and `remove` panic on an index out of range (and `insert` on a full
//! vector is an `Err`, but its index check is still a panic path). These take the index as data:
//! an out-of-range index or a full vector hands the item back (`insert`) or returns `None`
//! (`remove`), and nothing changes. They work on a [`VecView`], so one copy of the code serves
//! vectors of every capacity (a `&mut Vec<T, N>` coerces to `&mut VecView<T>`).
//!
//! # Cost and memory
//! `n` is the vector's length. [`insert`] and [`remove`] move the elements after the index once,
//! `O(n)`; [`drain_front`] is one forward copy, `O(n)`. No allocation, no recursion, no stack
//! beyond a few words; elements are `Copy` for the shifts (no drop can run mid-shift).
//!
//! The slot table ([`crate::slots`]) keeps its breakpoints sorted with these, and the
//! backfilling queue ([`crate::backfill`]) and the lease table ([`crate::lease`]) keep their
//! order of submission.

use core::cell::Cell;

use heapless::VecView;

/// `Vec::insert` that cannot panic: hands `item` back if `v` is full or `i > v.len()`.
/// One shift of the elements from `i` on.
pub(crate) fn insert<T: Copy>(v: &mut VecView<T>, i: usize, item: T) -> Result<(), T> {
    if i > v.len() {
        return Err(item);
    }
    v.push(item)?;
    if let Some(tail) = v.get_mut(i..) {
        // The elements from `i` on move up one place, over the pushed copy.
        shift_up(tail);
        if let Some(first) = tail.first_mut() {
            *first = item;
        }
    }
    Ok(())
}

/// `Vec::remove` that cannot panic: `None` (and `v` unchanged) if `i >= v.len()`. One shift of
/// the elements after `i`.
pub(crate) fn remove<T: Copy>(v: &mut VecView<T>, i: usize) -> Option<T> {
    let tail = v.get_mut(i..)?;
    let item = *tail.first()?;
    // The elements after `i` move down one place; the last, now copied, is dropped.
    shift_down(tail);
    v.pop();
    Some(item)
}

/// Removes the first `k` elements of `v` (every element if `k >= v.len()`), keeping the order of
/// the rest. One forward copy of the kept elements over the dropped ones, `O(len)` moves and no
/// index to check.
pub(crate) fn drain_front<T: Copy>(v: &mut VecView<T>, k: usize) {
    let kept = v.len().saturating_sub(k);
    if k > 0 {
        let cells = Cell::from_mut(v.as_mut_slice()).as_slice_of_cells();
        // `cells[j] = cells[j + k]`, from the start: each source is read before it is written.
        for (to, from) in cells.iter().zip(cells.get(k..).unwrap_or(&[])) {
            to.set(from.get());
        }
    }
    v.truncate(kept);
}

/// `s[j + 1] = s[j]` for every `j` but the last, from the end. Over pairs of cells, so that
/// there is no index to check: the compiler emits a plain copy loop, no bounds check.
fn shift_up<T: Copy>(s: &mut [T]) {
    for pair in Cell::from_mut(s).as_slice_of_cells().windows(2).rev() {
        if let [from, to] = pair {
            to.set(from.get());
        }
    }
}

/// `s[j] = s[j + 1]` for every `j` but the last, from the start (as [`shift_up`]).
fn shift_down<T: Copy>(s: &mut [T]) {
    for pair in Cell::from_mut(s).as_slice_of_cells().windows(2) {
        if let [to, from] = pair {
            to.set(from.get());
        }
    }
}

#[cfg(test)]
mod tests {
    use heapless::Vec;

    use super::*;

    /// Every index from 0 to past the end, on a vector with room for one more: each operation
    /// does what `heapless::Vec`'s own does where that one is defined, and refuses elsewhere.
    #[test]
    fn insert_remove_and_drain_match_the_vec_operations() {
        let full: Vec<u8, 5> = Vec::from_slice(&[1, 2, 3, 4]).unwrap();
        for i in 0..=5 {
            let (mut ours, mut theirs) = (full.clone(), full.clone());
            if i <= full.len() {
                assert_eq!(insert(&mut ours, i, 9), theirs.insert(i, 9));
            } else {
                assert_eq!(insert(&mut ours, i, 9), Err(9));
            }
            assert_eq!(ours, theirs);
            let (mut ours, mut theirs) = (full.clone(), full.clone());
            let expected = (i < full.len()).then(|| theirs.remove(i));
            assert_eq!(remove(&mut ours, i), expected);
            assert_eq!(ours, theirs);
            let mut drained = full.clone();
            drain_front(&mut drained, i);
            assert_eq!(drained.as_slice(), full.get(i..).unwrap_or(&[]));
        }
    }

    /// A full vector takes no insertion, anywhere, and stays as it was.
    #[test]
    fn a_full_vector_hands_the_item_back() {
        let mut at_capacity: Vec<u8, 4> = Vec::from_slice(&[1, 2, 3, 4]).unwrap();
        for i in 0..=4 {
            assert_eq!(insert(&mut at_capacity, i, 9), Err(9));
        }
        assert_eq!(at_capacity, [1, 2, 3, 4]);
    }

    /// An empty vector: insertion only at 0, nothing to remove, draining any count is a no-op.
    #[test]
    fn an_empty_vector() {
        let mut v: Vec<u8, 2> = Vec::new();
        assert_eq!(remove(&mut v, 0), None);
        drain_front(&mut v, 3);
        assert!(v.is_empty());
        assert_eq!(insert(&mut v, 1, 7), Err(7));
        assert_eq!(insert(&mut v, 0, 7), Ok(()));
        assert_eq!(v, [7]);
    }

    /// The shifts copy towards their direction and leave the far end as it was: `[a, b, c]`
    /// shifted up is `[a, a, b]`, shifted down `[b, c, c]`.
    #[test]
    fn shifts_move_every_element_one_place() {
        let mut up = [1u8, 2, 3];
        shift_up(&mut up);
        assert_eq!(up, [1, 1, 2]);
        let mut down = [1u8, 2, 3];
        shift_down(&mut down);
        assert_eq!(down, [2, 3, 3]);
        let mut one = [5u8];
        shift_up(&mut one);
        shift_down(&mut one);
        assert_eq!(one, [5]);
    }
}
