//! Deterministic inputs: the same on every run and every driver, so that
//! two runs' outputs can be compared byte for byte.

/// xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
/// generators, scrambled", 2016): small, fast and good enough for test inputs.
pub struct Sequence(u64);

impl Sequence {
    pub fn new(seed: u64) -> Sequence {
        // The state must not be zero.
        Sequence(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A value in `0..bound`.
    pub fn below(&mut self, bound: u32) -> u32 {
        ((u64::from(self.next_u32()) * u64::from(bound)) >> 32) as u32
    }

    pub fn u32s(&mut self, n: usize) -> Vec<u32> {
        (0..n).map(|_| self.next_u32()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_repeat_and_stay_in_bounds() {
        let (mut a, mut b) = (Sequence::new(7), Sequence::new(7));
        assert_eq!(a.u32s(8), b.u32s(8));
        let mut c = Sequence::new(8);
        assert_ne!(a.u32s(8), c.u32s(8));
        assert!((0..1000).all(|_| a.below(17) < 17));
    }
}
