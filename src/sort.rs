//! Floor 1 (a leaf): the one sort of the crate, a stable radix sort of (key, value) pairs:
//! `parse` orders the token index, `compile` the rule sets and `lint` the findings with it (one
//! copy of sorting code in the wasm build). Imports nothing of the crate.

use alloc::vec::Vec;

/// Sorts (key, value) pairs by key, stably. Least-significant-digit radix sort on the octets
/// of the key that vary (usually two or three), so it is linear and has no comparison-sort
/// worst case. The one sort of the parser (one copy of sorting code in the wasm build).
pub(crate) fn radix_sort(items: &mut [(u64, u64)], scratch: &mut Vec<(u64, u64)>) {
    if items.len() <= 32 {
        // Few items: insertion sort costs less than the radix sort's counters.
        for i in 1..items.len() {
            let mut j = i;
            while j > 0 && items[j - 1].0 > items[j].0 {
                items.swap(j - 1, j);
                j -= 1;
            }
        }
        return;
    }
    let (all, any) = items
        .iter()
        .fold((u64::MAX, 0), |(all, any), &(k, _)| (all & k, any | k));
    let varying = all ^ any;
    scratch.clear();
    scratch.resize(items.len(), (0, 0));
    for shift in (0..64).step_by(8) {
        if (varying >> shift) & 0xFF == 0 {
            continue; // every key has the same octet here
        }
        let mut starts = [0u32; 256];
        for &(k, _) in items.iter() {
            starts[((k >> shift) & 0xFF) as usize] += 1;
        }
        let mut sum = 0;
        for s in starts.iter_mut() {
            let count = *s;
            *s = sum;
            sum += count;
        }
        for &item in items.iter() {
            let digit = ((item.0 >> shift) & 0xFF) as usize;
            if let Some(slot) = scratch.get_mut(starts[digit] as usize) {
                *slot = item;
            }
            starts[digit] += 1;
        }
        items.copy_from_slice(scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_is_stable() {
        let mut items: Vec<(u64, u64)> = [3u64, 1, 3, 0, 256, 1, 70_000, 1 << 45, 2]
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i as u64))
            .collect();
        // Long enough for the radix path, then the insertion-sort path.
        let mut long: Vec<(u64, u64)> = (0..100).map(|i| ((i * 7919) % 13, i)).collect();
        radix_sort(&mut long, &mut Vec::new());
        assert!(long
            .windows(2)
            .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
        radix_sort(&mut items, &mut Vec::new());
        let positions: Vec<u64> = items.iter().map(|&(_, i)| i).collect();
        assert_eq!(positions, [3, 1, 5, 8, 0, 2, 4, 6, 7]);
    }
}
