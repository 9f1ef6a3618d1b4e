//! Registers and the sources of ALU instructions.
//!
//! A register field is 8 bits: `num = index << 2 | component`, so `r1.y` is 5.
//! freedreno's ISA XML (`#reg-gpr`) gives two indices special meaning: 61 is
//! the address register `a0` (`a0.x` = 0xf4; `a0.y` = 0xf5 is shown as `a1.x`
//! by `mova1`) and 62 the predicate register `p0`.

/// An 8-bit register number as the hardware encodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Reg {
    /// `index << 2 | component`.
    pub num: u8,
    /// A half (16-bit) register (`hr1.y`) rather than a full one.
    pub half: bool,
}

/// `a0.x`, the address register used for relative addressing.
pub const A0_X: u8 = 61 << 2;
/// `a0.y`, which the ISA XML calls `a1.x` in `mova1`; `a1.x` indexes bindless
/// descriptors and `ldc.k`/`stc` const destinations.
pub const A1_X: u8 = (61 << 2) | 1;
/// `p0.x`, the first predicate register.
pub const P0_X: u8 = 62 << 2;
/// The first of the shared (per-wave, uniform) registers, `r48.x`; they run
/// to `r55.w` (Mesa's `ir3.h`: "r48.x - r55.w are shared registers").
pub const SHARED_FIRST: u8 = 48 << 2;
pub const SHARED_LAST: u8 = (55 << 2) | 3;

impl Reg {
    pub const fn full(num: u8) -> Reg {
        Reg { num, half: false }
    }

    pub const fn half(num: u8) -> Reg {
        Reg { num, half: true }
    }

    /// The register index (`1` for `r1.y`).
    pub fn index(self) -> u8 {
        self.num >> 2
    }

    /// The component, 0 (`x`) to 3 (`w`).
    pub fn comp(self) -> u8 {
        self.num & 3
    }

    pub fn is_address(self) -> bool {
        self.index() == 61
    }

    pub fn is_predicate(self) -> bool {
        self.index() == 62
    }

    pub fn is_shared(self) -> bool {
        (SHARED_FIRST..=SHARED_LAST).contains(&self.num)
    }
}

/// Where an ALU source operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SrcKind {
    /// A register, `r1.y` or (with [`Operand::half`]) `hr1.y`.
    Reg(u8),
    /// A const, `c8.x`: `index << 2 | component`.
    Const(u16),
    /// `r<a0.x + off>`: a register addressed by `a0.x` plus an offset.
    RelReg(i16),
    /// `c<a0.x + off>`: a const addressed by `a0.x` plus an offset.
    RelConst(i16),
    /// An integer immediate. cat2/cat4 hold 11 bits, sign-extended here; cat3's
    /// alternative encoding holds 12 bits unsigned; cat1 holds the 32 raw bits
    /// of the value in the source type.
    Imm(i32),
    /// An index into the float lookup table of cat2/cat4 sources
    /// ([`FLUT`]); the value is read at the source's precision.
    FLut(u8),
}

impl Default for SrcKind {
    fn default() -> Self {
        SrcKind::Reg(0)
    }
}

/// A source operand of a cat1..cat4 instruction with its modifiers. Which
/// kinds and modifiers an instruction accepts depends on its encoding; the
/// encoder refuses the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Operand {
    pub kind: SrcKind,
    /// Read at half precision (`hr`, `hc`, `h(1)`).
    pub half: bool,
    /// `(neg)`: negate a float or integer, or invert the bits of a `.b` operation.
    pub neg: bool,
    /// `(abs)`: absolute value (cat2/cat4 only).
    pub abs: bool,
    /// `(r)`: under `(rptN)`, step this source by one register per repetition.
    pub r: bool,
    /// `(last)`: the last read of this register (an a7xx scheduling hint).
    pub last: bool,
}

impl Operand {
    pub fn reg(num: u8) -> Operand {
        Operand {
            kind: SrcKind::Reg(num),
            ..Operand::default()
        }
    }

    pub fn half_reg(num: u8) -> Operand {
        Operand {
            kind: SrcKind::Reg(num),
            half: true,
            ..Operand::default()
        }
    }

    pub fn konst(num: u16) -> Operand {
        Operand {
            kind: SrcKind::Const(num),
            ..Operand::default()
        }
    }

    pub fn imm(value: i32) -> Operand {
        Operand {
            kind: SrcKind::Imm(value),
            ..Operand::default()
        }
    }

    /// The bits of an immediate or lookup-table source at this operand's
    /// precision, or `None` for register and const sources.
    pub fn immediate_bits(&self) -> Option<u32> {
        let bits = match self.kind {
            SrcKind::Imm(v) => v as u32,
            SrcKind::FLut(i) => {
                let value = FLUT.get(i as usize)?.1;
                if self.half {
                    crate::eval::float::f32_to_f16(value, crate::types::Round::Even) as u32
                } else {
                    value.to_bits()
                }
            }
            _ => return None,
        };
        Some(if self.half { bits & 0xffff } else { bits })
    }
}

/// The float lookup table of cat2/cat4 immediate sources (`#flut` in the ISA
/// XML): the name printed between parentheses and the value.
pub const FLUT: [(&str, f32); 12] = [
    ("0.0", 0.0),
    ("0.5", 0.5),
    ("1.0", 1.0),
    ("2.0", 2.0),
    ("e", std::f32::consts::E),
    ("pi", std::f32::consts::PI),
    ("1/pi", std::f32::consts::FRAC_1_PI),
    ("1/log2(e)", std::f32::consts::LN_2),
    ("log2(e)", std::f32::consts::LOG2_E),
    ("1/log2(10)", std::f32::consts::LOG10_2),
    ("log2(10)", std::f32::consts::LOG2_10),
    ("4.0", 4.0),
];
