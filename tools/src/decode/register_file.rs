//! The register state a decoder tracks while it walks command streams: each
//! register's value, whether it was ever written, whether it was written
//! since the last draw, and its value at the last draw (so a draw's summary
//! can mark what changed).

use parsnip_registers::{lookup, Chip};

/// Register offsets a type 4 header can reach (18 bits).
pub(crate) const REGISTER_SPACE: u32 = 0x40000;

#[derive(Clone, Debug)]
struct BitSet(Vec<u64>);

impl BitSet {
    fn new(bits: u32) -> Self {
        Self(vec![0; bits.div_ceil(64) as usize])
    }

    fn get(&self, i: u32) -> bool {
        self.0[(i / 64) as usize] >> (i % 64) & 1 != 0
    }

    /// Sets bit `i`; true when it was clear.
    fn set(&mut self, i: u32) -> bool {
        let word = &mut self.0[(i / 64) as usize];
        let was = *word >> (i % 64) & 1 != 0;
        *word |= 1 << (i % 64);
        !was
    }

    fn clear(&mut self, i: u32) {
        self.0[(i / 64) as usize] &= !(1 << (i % 64));
    }
}

#[derive(Clone, Debug)]
pub(crate) struct RegisterFile {
    values: Vec<u32>,
    /// Values shown in the previous draw's summary.
    last: Vec<u32>,
    written: BitSet,
    rewritten: BitSet,
    /// The offsets set in `rewritten`, in the order first written.
    rewritten_list: Vec<u32>,
    /// Every offset ever written, in the order first written.
    written_list: Vec<u32>,
}

impl RegisterFile {
    pub(crate) fn new() -> Self {
        Self {
            values: vec![0; REGISTER_SPACE as usize],
            last: vec![0; REGISTER_SPACE as usize],
            written: BitSet::new(REGISTER_SPACE),
            rewritten: BitSet::new(REGISTER_SPACE),
            rewritten_list: Vec::new(),
            written_list: Vec::new(),
        }
    }

    /// Records a write; false (and nothing recorded) for an offset outside
    /// the register space.
    pub(crate) fn set(&mut self, offset: u32, value: u32) -> bool {
        if offset >= REGISTER_SPACE {
            return false;
        }
        self.values[offset as usize] = value;
        if self.written.set(offset) {
            self.written_list.push(offset);
        }
        if self.rewritten.set(offset) {
            self.rewritten_list.push(offset);
        }
        true
    }

    /// The value last written (0 for a register never written or outside
    /// the register space).
    pub(crate) fn value(&self, offset: u32) -> u32 {
        self.values.get(offset as usize).copied().unwrap_or(0)
    }

    pub(crate) fn rewritten(&self, offset: u32) -> bool {
        offset < REGISTER_SPACE && self.rewritten.get(offset)
    }

    /// The value shown at the previous draw, replaced by the current one;
    /// returns whether they differ.
    pub(crate) fn note_shown(&mut self, offset: u32) -> bool {
        let i = offset as usize;
        let changed = self.values[i] != self.last[i];
        self.last[i] = self.values[i];
        changed
    }

    /// The registers a draw's summary lists, in offset order: those written
    /// since the previous draw, or with `all`, every register ever written.
    pub(crate) fn summary_offsets(&self, all: bool) -> Vec<u32> {
        let mut offsets = if all {
            self.written_list.clone()
        } else {
            self.rewritten_list.clone()
        };
        offsets.sort_unstable();
        offsets
    }

    /// Starts a new "since the last draw" period.
    pub(crate) fn clear_rewritten(&mut self) {
        for offset in self.rewritten_list.drain(..) {
            self.rewritten.clear(offset);
        }
    }
}

/// What pushing one dword into a [`RegAccumulator`] gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Accumulated {
    /// The low half of a 64-bit register; its high half should come next.
    Pending,
    /// A whole register value (both halves of a 64-bit one).
    Complete { offset: u32, value: u64 },
    /// A 64-bit register's low half was followed by another register: the
    /// low half is given alone, and the dword just pushed is dropped
    /// (freedreno's decoder warns and does the same).
    Discontinuity { offset: u32, value: u64, got: u32 },
    /// The high half of an address came without its low half; it is given
    /// alone, with a warning, as freedreno does.
    HighHalfAlone { offset: u32, value: u64 },
}

/// Joins the two dwords of 64-bit registers written one after the other.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RegAccumulator {
    low: Option<(u32, u32)>,
}

impl RegAccumulator {
    pub(crate) fn push(&mut self, chip: Chip, offset: u32, dword: u32) -> Accumulated {
        if let Some((low_offset, low)) = self.low.take() {
            return if offset == low_offset.wrapping_add(1) {
                Accumulated::Complete {
                    offset: low_offset,
                    value: u64::from(low) | u64::from(dword) << 32,
                }
            } else {
                Accumulated::Discontinuity {
                    offset: low_offset,
                    value: u64::from(low),
                    got: offset,
                }
            };
        }
        let entry = lookup::chip_table(chip).register(offset);
        match entry {
            Some(e) if e.width == 64 && e.name.ends_with("_HI") => Accumulated::HighHalfAlone {
                offset,
                value: u64::from(dword),
            },
            Some(e) if e.width == 64 => {
                self.low = Some((offset, dword));
                Accumulated::Pending
            }
            _ => Accumulated::Complete {
                offset,
                value: u64::from(dword),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_halves_of_a_64_bit_register() {
        // RB_2D_DST (0x8c18) is a 64-bit address in a6xx.xml.
        let mut acc = RegAccumulator::default();
        assert_eq!(
            acc.push(Chip::A6xx, 0x8c18, 0x0101_3000),
            Accumulated::Pending
        );
        assert_eq!(
            acc.push(Chip::A6xx, 0x8c19, 1),
            Accumulated::Complete {
                offset: 0x8c18,
                value: 0x1_0101_3000
            }
        );
        assert_eq!(
            acc.push(Chip::A6xx, 0x8c1a, 0x10),
            Accumulated::Complete {
                offset: 0x8c1a,
                value: 0x10
            }
        );
        assert_eq!(acc.push(Chip::A6xx, 0x8c18, 5), Accumulated::Pending);
        assert_eq!(
            acc.push(Chip::A6xx, 0x8c1a, 7),
            Accumulated::Discontinuity {
                offset: 0x8c18,
                value: 5,
                got: 0x8c1a
            }
        );
        assert_eq!(
            acc.push(Chip::A6xx, 0x8c19, 7),
            Accumulated::HighHalfAlone {
                offset: 0x8c19,
                value: 7
            }
        );
    }

    #[test]
    fn tracks_writes_since_the_last_draw() {
        let mut regs = RegisterFile::new();
        assert!(regs.set(0x8800, 1));
        assert!(regs.set(0x80a1, 2));
        assert!(!regs.set(REGISTER_SPACE, 3));
        assert_eq!(regs.summary_offsets(false), vec![0x80a1, 0x8800]);
        assert!(regs.note_shown(0x8800));
        assert!(!regs.note_shown(0x8800));
        regs.clear_rewritten();
        assert!(regs.summary_offsets(false).is_empty());
        assert!(!regs.rewritten(0x8800));
        assert_eq!(regs.summary_offsets(true), vec![0x80a1, 0x8800]);
        regs.set(0x8800, 1);
        assert_eq!(regs.summary_offsets(true), vec![0x80a1, 0x8800]);
        assert!(!regs.note_shown(0x8800));
    }
}
