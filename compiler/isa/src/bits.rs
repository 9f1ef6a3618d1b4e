//! Named bit ranges of the 64-bit instruction word.
//!
//! Every encoder and decoder in this crate reads and writes the word through
//! [`Field`] constants named after the fields of freedreno's ISA XML, and checks
//! fixed bit patterns through [`Fixed`], so the bit positions are written once.

use crate::error::EncodeError;

/// An inclusive range of bits `lo..=hi` with the name the ISA XML gives it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    pub name: &'static str,
    pub lo: u8,
    pub hi: u8,
}

/// A field `lo..=hi`.
pub(crate) const fn field(name: &'static str, lo: u8, hi: u8) -> Field {
    Field { name, lo, hi }
}

/// A one-bit field.
pub(crate) const fn flag(name: &'static str, pos: u8) -> Field {
    Field {
        name,
        lo: pos,
        hi: pos,
    }
}

impl Field {
    pub const fn width(self) -> u32 {
        (self.hi - self.lo + 1) as u32
    }

    /// The field's bits in place within the word.
    pub const fn mask(self) -> u64 {
        (u64::MAX >> (64 - self.width())) << self.lo
    }

    pub const fn get(self, word: u64) -> u64 {
        (word & self.mask()) >> self.lo
    }

    pub const fn get_bool(self, word: u64) -> bool {
        self.get(word) != 0
    }

    /// The field read as a two's complement number.
    pub const fn get_signed(self, word: u64) -> i64 {
        let shift = 64 - self.width();
        ((self.get(word) << shift) as i64) >> shift
    }

    /// Writes `value`, which must fit the field unsigned.
    pub fn set(self, word: &mut u64, value: u64) -> Result<(), EncodeError> {
        if self.width() < 64 && value >> self.width() != 0 {
            return Err(EncodeError::new(format!(
                "{} = {} does not fit its {} bits",
                self.name,
                value,
                self.width()
            )));
        }
        *word = (*word & !self.mask()) | (value << self.lo);
        Ok(())
    }

    pub fn set_bool(self, word: &mut u64, value: bool) {
        *word = (*word & !self.mask()) | ((value as u64) << self.lo);
    }

    /// Writes `value`, which must fit the field as a two's complement number.
    pub fn set_signed(self, word: &mut u64, value: i64) -> Result<(), EncodeError> {
        let width = self.width();
        let min = -(1i64 << (width - 1));
        let max = (1i64 << (width - 1)) - 1;
        if value < min || value > max {
            return Err(EncodeError::new(format!(
                "{} = {} does not fit its {} signed bits ({}..={})",
                self.name, value, width, min, max
            )));
        }
        let bits = (value as u64) & (u64::MAX >> (64 - width));
        *word = (*word & !self.mask()) | (bits << self.lo);
        Ok(())
    }
}

/// A range of bits that holds a fixed value in some encoding (an opcode, a
/// sub-encoding selector). Pattern bits marked `x` (don't care) in the XML are
/// not listed: the encoder leaves them zero and decoding a word with them set
/// is refused as non-canonical.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixed {
    pub bits: Field,
    pub value: u64,
}

pub(crate) const fn fixed(lo: u8, hi: u8, value: u64) -> Fixed {
    Fixed {
        bits: field("pattern", lo, hi),
        value,
    }
}

/// True when every range in `patterns` holds its value.
pub(crate) fn matches(word: u64, patterns: &[Fixed]) -> bool {
    patterns.iter().all(|p| p.bits.get(word) == p.value)
}

/// Writes every range in `patterns`.
pub(crate) fn apply(word: &mut u64, patterns: &[Fixed]) {
    for p in patterns {
        *word = (*word & !p.bits.mask()) | (p.value << p.bits.lo);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_and_write_their_bits() {
        let f = field("F", 9, 13);
        let mut w = 0u64;
        f.set(&mut w, 0x1f).unwrap();
        assert_eq!(w, 0x1f << 9);
        assert_eq!(f.get(w), 0x1f);
        assert_eq!(f.get_signed(w), -1);
        assert!(f.set(&mut w, 0x20).is_err());
        f.set_signed(&mut w, -16).unwrap();
        assert_eq!(f.get(w), 0x10);
        assert!(f.set_signed(&mut w, 16).is_err());
        let whole = field("W", 0, 63);
        whole.set(&mut w, u64::MAX).unwrap();
        assert_eq!(w, u64::MAX);
    }

    #[test]
    fn patterns_match_and_apply() {
        let p = [fixed(61, 63, 0b110), fixed(0, 0, 1)];
        let mut w = 0;
        apply(&mut w, &p);
        assert_eq!(w, 0xc000_0000_0000_0001);
        assert!(matches(w, &p));
        assert!(!matches(w ^ 1, &p));
    }
}
