//! The registers of one wave: per-fiber general purpose registers (full and
//! half), the per-wave shared registers, the address registers and the
//! predicate register.
//!
//! Register numbers are the ISA's 8-bit `index << 2 | component`
//! (freedreno's ISA XML, `#reg-gpr`):
//! - r0.x..r47.w (0..=191): per-fiber registers;
//! - r48.x..r55.w (192..=223): shared registers, one value per wave
//!   (Mesa's ir3 keeps its shared file there; `ir3.h`: "Shared registers
//!   have the same value for all threads when read");
//! - a0.x (244) and a1.x (245, written by `mova1`): per-fiber address
//!   registers, 16 bits;
//! - p0.x..p0.w (248..=251): the per-fiber predicate register;
//! - r63 (252..=255): "no register" (Mesa's `regid(63, 0)`, what the
//!   register for an unused built-in holds): writes are dropped, reads are
//!   an error.
//!
//! Half registers with MERGEDREGS (what Turnip programs on a6xx and a7xx)
//! alias the full file: hr(n) is the low (n even) or high (n odd) half of
//! full component n/2, so hr0.x/hr0.y are the halves of r0.x and hr47.w is
//! the high half of r23.w (Mesa's ir3 register allocator models merged
//! registers this way: a full register takes two half slots). hr48..hr55
//! are the half shared registers; the model aliases them onto the full
//! shared registers in the same way, which is not publicly documented.
//! Without MERGEDREGS half registers are a file of their own.
//!
//! A predicate component holds one bit: the model keeps the low bit of
//! what is written. Mesa only writes 0 or 1 there, masking a value with
//! `and.b p0.x, x, 1` when it is not known to be a boolean.
//!
//! Registers start at zero; on hardware they hold what the previous wave
//! left, which no correct program reads.

use super::lanes::lanes;
use super::trap::{error, Trap};
use crate::shader_state::ShaderState;

/// Per-fiber general purpose components: r0.x..r47.w.
pub(crate) const GPR_COMPONENTS: usize = 48 * 4;
/// The first shared component, r48.x.
const SHARED_FIRST: u32 = 48 * 4;
/// Shared components: r48.x..r55.w.
const SHARED_COMPONENTS: usize = 8 * 4;
pub(crate) const A0_X: u32 = 61 * 4;
pub(crate) const A1_X: u32 = 61 * 4 + 1;
pub(crate) const P0_X: u32 = 62 * 4;
const R63_X: u32 = 63 * 4;

/// Where a register number points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    Full(usize),
    /// A half of full component `.0` (merged registers), the high half if `.1`.
    FullHalf(usize, bool),
    /// A separate half register (unmerged).
    Half(usize),
    Shared(usize),
    SharedHalf(usize, bool),
    /// a0.x (0) or a1.x (1).
    Addr(usize),
    Pred(usize),
    /// r63: writes vanish.
    Discard,
}

impl Loc {
    pub fn is_shared(self) -> bool {
        matches!(self, Loc::Shared(_) | Loc::SharedHalf(..))
    }
}

/// The text of register `num`, as the disassembler prints it.
pub(crate) fn reg_name(num: u32, half: bool) -> String {
    let comp = ['x', 'y', 'z', 'w'][(num & 3) as usize];
    let h = if half { "h" } else { "" };
    match num >> 2 {
        61 => format!("a{}.x", num & 3),
        62 => format!("p0.{comp}"),
        i => format!("{h}r{i}.{comp}"),
    }
}

/// The registers of one wave.
pub(crate) struct WaveRegisters {
    lanes: usize,
    merged: bool,
    full_regs: u32,
    half_regs: u32,
    full: Vec<u32>,
    half: Vec<u16>,
    shared: [u32; SHARED_COMPONENTS],
    addr: Vec<u16>,
    pred: Vec<u8>,
}

impl WaveRegisters {
    pub fn new(d: &ShaderState) -> WaveRegisters {
        let lanes = d.wave_size as usize;
        // Only the registers the footprint allows are ever reached (merged
        // half registers: those of either footprint, see `locate`).
        let full = (4 * d.full_regs as usize)
            .max(if d.merged_regs {
                2 * d.half_regs as usize
            } else {
                0
            })
            .min(GPR_COMPONENTS);
        let half = (4 * d.half_regs as usize).min(GPR_COMPONENTS);
        WaveRegisters {
            lanes,
            merged: d.merged_regs,
            full_regs: d.full_regs,
            half_regs: d.half_regs,
            full: vec![0; full * lanes],
            half: if d.merged_regs {
                Vec::new()
            } else {
                vec![0; half * lanes]
            },
            shared: [0; SHARED_COMPONENTS],
            addr: vec![0; 2 * lanes],
            pred: vec![0; 4 * lanes],
        }
    }

    /// Clears every register for a new wave.
    pub fn reset(&mut self) {
        self.full.fill(0);
        self.half.fill(0);
        self.shared = [0; SHARED_COMPONENTS];
        self.addr.fill(0);
        self.pred.fill(0);
    }

    /// Where register `num` (possibly computed by relative addressing, so
    /// wider than 8 bits) of the given precision lives. Registers outside
    /// the footprint the dispatch declares are an error: on hardware they
    /// belong to another wave.
    pub fn locate(&self, num: i64, half: bool) -> Result<Loc, Trap> {
        if !(0..=255).contains(&num) {
            return error(format!(
                "relative register access to register number {num}, outside the register file"
            ));
        }
        let n = num as u32;
        if n < SHARED_FIRST {
            let c = n as usize;
            return if !half {
                if n / 4 >= self.full_regs {
                    return self.outside_footprint(n, half);
                }
                Ok(Loc::Full(c))
            } else if self.merged {
                if (n / 2) / 4 >= self.full_regs && n / 4 >= self.half_regs {
                    return self.outside_footprint(n, half);
                }
                Ok(Loc::FullHalf(c / 2, c % 2 == 1))
            } else {
                if n / 4 >= self.half_regs {
                    return self.outside_footprint(n, half);
                }
                Ok(Loc::Half(c))
            };
        }
        if n < SHARED_FIRST + SHARED_COMPONENTS as u32 {
            let c = (n - SHARED_FIRST) as usize;
            return Ok(if half {
                Loc::SharedHalf(c / 2, c % 2 == 1)
            } else {
                Loc::Shared(c)
            });
        }
        match n {
            A0_X => Ok(Loc::Addr(0)),
            A1_X => Ok(Loc::Addr(1)),
            _ if (P0_X..P0_X + 4).contains(&n) => Ok(Loc::Pred((n - P0_X) as usize)),
            _ if n >= R63_X => Ok(Loc::Discard),
            _ => error(format!(
                "{} is not a register the shader core has",
                reg_name(n, half)
            )),
        }
    }

    fn outside_footprint(&self, n: u32, half: bool) -> Result<Loc, Trap> {
        error(format!(
            "{} is outside the register footprint the dispatch declares \
             (SP_CS_CTRL_REG0: FULLREGFOOTPRINT {}, HALFREGFOOTPRINT {}{})",
            reg_name(n, half),
            self.full_regs,
            self.half_regs,
            if self.merged { ", MERGEDREGS" } else { "" }
        ))
    }

    /// The value at `loc` for fiber `lane`: 32 bits, or 16 for halves, the
    /// address and predicate registers.
    #[inline]
    pub fn read(&self, loc: Loc, lane: usize) -> Result<u32, Trap> {
        let l = self.lanes;
        Ok(match loc {
            Loc::Full(c) => self.full[c * l + lane],
            Loc::FullHalf(c, hi) => half_of(self.full[c * l + lane], hi),
            Loc::Half(c) => u32::from(self.half[c * l + lane]),
            Loc::Shared(c) => self.shared[c],
            Loc::SharedHalf(c, hi) => half_of(self.shared[c], hi),
            Loc::Addr(i) => u32::from(self.addr[i * l + lane]),
            Loc::Pred(i) => u32::from(self.pred[i * l + lane]),
            Loc::Discard => return error("a read of r63, which is no register"),
        })
    }

    /// Writes `value` (its low 16 bits for halves and address registers,
    /// its low bit for the predicate) at `loc` for fiber `lane`.
    #[inline]
    pub fn write(&mut self, loc: Loc, lane: usize, value: u32) {
        let l = self.lanes;
        match loc {
            Loc::Full(c) => self.full[c * l + lane] = value,
            Loc::FullHalf(c, hi) => set_half(&mut self.full[c * l + lane], hi, value),
            Loc::Half(c) => self.half[c * l + lane] = value as u16,
            Loc::Shared(c) => self.shared[c] = value,
            Loc::SharedHalf(c, hi) => set_half(&mut self.shared[c], hi, value),
            Loc::Addr(i) => self.addr[i * l + lane] = value as u16,
            Loc::Pred(i) => self.pred[i * l + lane] = (value & 1) as u8,
            Loc::Discard => {}
        }
    }

    /// The value at `loc` for every fiber of the wave, into `out` (one
    /// match for the whole wave rather than one per fiber).
    pub fn read_lanes(&self, loc: Loc, out: &mut [u32]) -> Result<(), Trap> {
        let l = self.lanes;
        let out = &mut out[..l];
        match loc {
            Loc::Full(c) => out.copy_from_slice(&self.full[c * l..c * l + l]),
            Loc::FullHalf(c, hi) => {
                for (o, &v) in out.iter_mut().zip(&self.full[c * l..c * l + l]) {
                    *o = half_of(v, hi);
                }
            }
            Loc::Half(c) => {
                for (o, &v) in out.iter_mut().zip(&self.half[c * l..c * l + l]) {
                    *o = u32::from(v);
                }
            }
            Loc::Shared(c) => out.fill(self.shared[c]),
            Loc::SharedHalf(c, hi) => out.fill(half_of(self.shared[c], hi)),
            Loc::Addr(i) => {
                for (o, &v) in out.iter_mut().zip(&self.addr[i * l..i * l + l]) {
                    *o = u32::from(v);
                }
            }
            Loc::Pred(i) => {
                for (o, &v) in out.iter_mut().zip(&self.pred[i * l..i * l + l]) {
                    *o = u32::from(v);
                }
            }
            Loc::Discard => return error("a read of r63, which is no register"),
        }
        Ok(())
    }

    /// Writes `values[lane]` at `loc` for every fiber of `mask`.
    pub fn write_lanes(&mut self, loc: Loc, mask: u128, values: &[u32]) {
        let l = self.lanes;
        match loc {
            Loc::Full(c) => {
                let regs = &mut self.full[c * l..c * l + l];
                for lane in lanes(mask) {
                    regs[lane] = values[lane];
                }
            }
            _ => {
                for lane in lanes(mask) {
                    self.write(loc, lane, values[lane]);
                }
            }
        }
    }

    /// Writes a built-in input before the wave starts.
    pub fn write_input(&mut self, num: u32, lane: usize, value: u32) -> Result<(), Trap> {
        let loc = self.locate(i64::from(num), false).map_err(|_| {
            Trap::Error(format!(
                "the dispatch puts a built-in input in {}, outside the register footprint \
                 (SP_CS_CTRL_REG0.FULLREGFOOTPRINT {})",
                reg_name(num, false),
                self.full_regs
            ))
        })?;
        self.write(loc, lane, value);
        Ok(())
    }

    /// a0.x of fiber `lane`, sign-extended (`mova` writes it as s16).
    pub fn a0(&self, lane: usize) -> i64 {
        i64::from(self.addr[lane] as i16)
    }

    /// a1.x of fiber `lane` (`mova1` writes it as u16).
    pub fn a1(&self, lane: usize) -> u32 {
        u32::from(self.addr[self.lanes + lane])
    }

    /// Predicate component `comp` of fiber `lane`.
    pub fn predicate(&self, comp: usize, lane: usize) -> bool {
        self.pred[comp * self.lanes + lane] != 0
    }
}

fn half_of(v: u32, hi: bool) -> u32 {
    if hi {
        v >> 16
    } else {
        v & 0xffff
    }
}

fn set_half(slot: &mut u32, hi: bool, value: u32) {
    let v = value & 0xffff;
    *slot = if hi {
        (*slot & 0xffff) | v << 16
    } else {
        (*slot & 0xffff_0000) | v
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_state::DescriptorSource;

    fn dispatch(merged: bool) -> ShaderState {
        ShaderState {
            a7xx: false,
            gpu: parsnip_registers::gpu::by_name("a660").unwrap(),
            program_iova: 0,
            program_len: 0,
            wave_size: 64,
            full_regs: 4,
            half_regs: 2,
            merged_regs: merged,
            shared_consts: Default::default(),
            consts: vec![],
            private_iova: 0,
            private_per_fiber: 0,
            gmem_window: (0, 0),
            bindless: vec![],
            ubos: DescriptorSource::None,
            ibos: DescriptorSource::None,
            textures: DescriptorSource::None,
            samplers: DescriptorSource::None,
            instruction_budget: 1,
            time_budget: None,
        }
    }

    #[test]
    fn merged_half_registers_are_halves_of_full_ones() {
        let mut r = WaveRegisters::new(&dispatch(true));
        let r0x = r.locate(0, false).unwrap();
        r.write(r0x, 3, 0x1234_5678);
        // hr0.x is the low half of r0.x, hr0.y its high half.
        assert_eq!(r.read(r.locate(0, true).unwrap(), 3), Ok(0x5678));
        assert_eq!(r.read(r.locate(1, true).unwrap(), 3), Ok(0x1234));
        // hr1.w (7) is the high half of r0.w (3).
        r.write(r.locate(7, true).unwrap(), 3, 0xabcd);
        assert_eq!(r.read(r.locate(3, false).unwrap(), 3), Ok(0xabcd_0000));
        assert_eq!(r.read(r0x, 2), Ok(0), "another fiber");
    }

    #[test]
    fn unmerged_half_registers_are_separate() {
        let mut r = WaveRegisters::new(&dispatch(false));
        r.write(r.locate(0, false).unwrap(), 0, 0x1234_5678);
        assert_eq!(r.read(r.locate(0, true).unwrap(), 0), Ok(0));
    }

    #[test]
    fn footprint_and_special_registers() {
        let r = WaveRegisters::new(&dispatch(true));
        // FULLREGFOOTPRINT 4: r3.w is the last register.
        assert!(r.locate(15, false).is_ok());
        let Err(Trap::Error(e)) = r.locate(16, false) else {
            panic!("r4.x is outside")
        };
        assert!(
            e.starts_with("r4.x is outside the register footprint"),
            "{e}"
        );
        assert_eq!(r.locate(192, false), Ok(Loc::Shared(0)));
        assert_eq!(r.locate(244, true), Ok(Loc::Addr(0)));
        assert_eq!(r.locate(249, false), Ok(Loc::Pred(1)));
        assert_eq!(r.locate(252, false), Ok(Loc::Discard));
        assert!(r.locate(230, false).is_err());
        assert!(r.locate(-1, false).is_err());
        assert_eq!(reg_name(5, true), "hr1.y");
    }
}
