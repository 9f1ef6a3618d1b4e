//! The small enumerations the ISA XML defines once and many instructions use:
//! data types, comparison conditions, rounding modes, write masks.

/// A data type field (`#type` in the ISA XML, 3 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Type {
    F16 = 0,
    #[default]
    F32 = 1,
    U16 = 2,
    U32 = 3,
    S16 = 4,
    S32 = 5,
    U8 = 6,
    /// Displayed `u8_32`; cat1 treats it as an 8-bit type in a half register
    /// (the XML's cat1 `HALF` rule calls it `s8`).
    U8_32 = 7,
}

pub const TYPES: [Type; 8] = [
    Type::F16,
    Type::F32,
    Type::U16,
    Type::U32,
    Type::S16,
    Type::S32,
    Type::U8,
    Type::U8_32,
];

impl Type {
    pub fn from_bits(bits: u64) -> Type {
        TYPES[(bits & 7) as usize]
    }

    pub fn name(self) -> &'static str {
        match self {
            Type::F16 => "f16",
            Type::F32 => "f32",
            Type::U16 => "u16",
            Type::U32 => "u32",
            Type::S16 => "s16",
            Type::S32 => "s32",
            Type::U8 => "u8",
            Type::U8_32 => "u8_32",
        }
    }

    /// `#type-half` of the XML: the 16-bit and 8-bit types, which live in half
    /// registers. (`u8_32` is not one of them outside cat1.)
    pub fn is_half(self) -> bool {
        matches!(self, Type::F16 | Type::U16 | Type::S16 | Type::U8)
    }

    /// cat1's rule for half registers, which also counts type 7.
    pub fn is_half_cat1(self) -> bool {
        self.is_half() || self == Type::U8_32
    }

    pub fn is_float(self) -> bool {
        matches!(self, Type::F16 | Type::F32)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Type::S16 | Type::S32)
    }

    /// The width of a value of this type in bits.
    pub fn bits(self) -> u32 {
        match self {
            Type::F16 | Type::U16 | Type::S16 => 16,
            Type::F32 | Type::U32 | Type::S32 => 32,
            Type::U8 | Type::U8_32 => 8,
        }
    }

    /// log2 of the size in bytes of one element, as `ldg.a`/`stg.a` scale their
    /// index (`#cat6-type-shift`): 0 for the 8-bit types, 1 for 16-bit, 2 for 32.
    pub fn shift(self) -> u32 {
        match self {
            Type::U8 | Type::U8_32 => 0,
            t if t.is_half() => 1,
            _ => 2,
        }
    }
}

/// A comparison condition of `cmps.*`/`cmpv.*` (`#cond`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Cond {
    #[default]
    Lt = 0,
    Le = 1,
    Gt = 2,
    Ge = 3,
    Eq = 4,
    Ne = 5,
}

pub const CONDS: [Cond; 6] = [Cond::Lt, Cond::Le, Cond::Gt, Cond::Ge, Cond::Eq, Cond::Ne];

impl Cond {
    pub fn from_bits(bits: u64) -> Option<Cond> {
        CONDS.get(bits as usize).copied()
    }

    pub fn name(self) -> &'static str {
        match self {
            Cond::Lt => "lt",
            Cond::Le => "le",
            Cond::Gt => "gt",
            Cond::Ge => "ge",
            Cond::Eq => "eq",
            Cond::Ne => "ne",
        }
    }
}

/// The rounding mode of a cat1 conversion (`#round`). Mesa's ir3 emits the
/// unmarked value 0 for round-toward-zero conversions (`nir_op_f2f16_rtz` in
/// `ir3_compiler_nir.c` sets `ROUND_ZERO`) and 1 for round-to-nearest-even.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Round {
    #[default]
    Zero = 0,
    Even = 1,
    PosInf = 2,
    NegInf = 3,
}

pub const ROUNDS: [Round; 4] = [Round::Zero, Round::Even, Round::PosInf, Round::NegInf];

impl Round {
    pub fn from_bits(bits: u64) -> Round {
        ROUNDS[(bits & 3) as usize]
    }

    /// The prefix printed before the destination (empty for the default).
    pub fn prefix(self) -> &'static str {
        match self {
            Round::Zero => "",
            Round::Even => "(even)",
            Round::PosInf => "(pos_infinity)",
            Round::NegInf => "(neg_infinity)",
        }
    }
}

/// A component of a register or const, `x` to `w`.
pub const SWIZZLE: [char; 4] = ['x', 'y', 'z', 'w'];

/// A write mask as printed (`#wrmask`): the enabled components in order.
pub fn wrmask_name(mask: u8) -> String {
    SWIZZLE
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, c)| *c)
        .collect()
}
