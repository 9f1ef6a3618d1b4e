//! Sets of fibers of a wave, as bit masks (bit n is fiber n; waves have at
//! most 128 fibers).

/// The fibers of `mask`, lowest first.
#[inline]
pub(crate) fn lanes(mask: u128) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(lane)
    })
}

/// The lowest fiber of `mask`.
#[inline]
pub(crate) fn first_lane(mask: u128) -> Option<usize> {
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

/// The mask of the first `n` fibers.
#[inline]
pub(crate) fn mask_of(n: u32) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_set_bits_in_order() {
        let v: Vec<usize> = lanes(0b1010_0001 | 1 << 127).collect();
        assert_eq!(v, [0, 5, 7, 127]);
        assert_eq!(first_lane(0b1000), Some(3));
        assert_eq!(first_lane(0), None);
        assert_eq!(mask_of(64), u64::MAX as u128);
        assert_eq!(mask_of(128), u128::MAX);
    }
}
