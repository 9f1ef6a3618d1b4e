//! Typed registers of the A6XX domain (a6xx and a7xx), generated from
//! `db/a6xx.regs`, and what a command stream builder needs to emit them.
//!
//! ```
//! use parsnip_registers::regs::{self, ArrayRegister, Register};
//! use parsnip_registers::enums::{A6xxFormat, A6xxTileMode, A3xxColorSwap};
//! use parsnip_registers::Chip;
//!
//! // RB_MRT[i].BUF_INFO differs between a6xx and a7xx: one struct each.
//! let info = regs::a6xx::RbMrtBufInfo {
//!     color_format: A6xxFormat::FMT6_8_8_8_8_UNORM,
//!     color_tile_mode: A6xxTileMode::TILE6_3,
//!     color_swap: A3xxColorSwap::WZYX,
//!     ..Default::default()
//! };
//! let w = info.write(Chip::A6xx, 0).unwrap();
//! assert_eq!((w.offset, w.value), (0x8822, 0x330));
//!
//! // SP_WINDOW_OFFSET has one layout but moved on a7xx.
//! let off = regs::SpWindowOffset { x: 64, y: 32 };
//! assert_eq!(off.write(Chip::A6xx).unwrap().offset, 0xb4d1);
//! assert_eq!(off.write(Chip::A7xx).unwrap().offset, 0xab21);
//! assert_eq!(off.to_raw(), 32 << 16 | 64);
//! ```

use std::fmt;

use crate::chip::Chip;
use crate::encode::FieldError;

/// A register value ready to emit: one dword at `offset`, or two (low then
/// high) for a 64-bit register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegWrite {
    pub offset: u32,
    pub value: u64,
    pub is_64: bool,
}

impl RegWrite {
    /// The dwords a type-4 packet carries for this write.
    #[inline]
    pub fn dwords(&self) -> impl Iterator<Item = u32> {
        let lo = self.value as u32;
        let hi = (self.value >> 32) as u32;
        std::iter::once(lo).chain(self.is_64.then_some(hi))
    }
}

/// Why a register cannot be written.
#[derive(Clone, Debug, PartialEq)]
pub enum RegisterError {
    /// The register (in this layout) does not exist on the chip.
    NotOnChip { register: &'static str, chip: Chip },
    /// An array index past the array's end on the chip.
    IndexOutOfRange {
        register: &'static str,
        chip: Chip,
        index: u32,
        length: u32,
    },
    /// A field value that does not fit.
    Field(FieldError),
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::NotOnChip { register, chip } => {
                write!(f, "{register} (in this layout) does not exist on {chip}")
            }
            RegisterError::IndexOutOfRange {
                register,
                chip,
                index,
                length,
            } => {
                write!(
                    f,
                    "{register}: index {index} is past the {length} entries it has on {chip}"
                )
            }
            RegisterError::Field(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RegisterError {}

/// A register at one offset per chip.
pub trait Register {
    const NAME: &'static str;
    const IS_64: bool;
    /// The register's offset on `chip`, `None` where it does not exist.
    fn offset(chip: Chip) -> Option<u32>;
    /// The raw value; an out-of-range field is an error.
    fn try_raw(&self) -> Result<u64, FieldError>;
    /// The write that sets this register to this value on `chip`.
    #[inline]
    fn write(&self, chip: Chip) -> Result<RegWrite, RegisterError> {
        let offset = Self::offset(chip).ok_or(RegisterError::NotOnChip {
            register: Self::NAME,
            chip,
        })?;
        let value = self.try_raw().map_err(RegisterError::Field)?;
        Ok(RegWrite {
            offset,
            value,
            is_64: Self::IS_64,
        })
    }
}

/// A register repeated in an array (`RB_MRT[i].BUF_INFO`).
pub trait ArrayRegister {
    const NAME: &'static str;
    const IS_64: bool;
    /// `(offset of entry 0, stride, length)` on `chip`.
    fn layout(chip: Chip) -> Option<(u32, u32, u32)>;
    fn try_raw(&self) -> Result<u64, FieldError>;
    /// Entry `index`'s offset on `chip`.
    #[inline]
    fn offset(chip: Chip, index: u32) -> Result<u32, RegisterError> {
        let (base, stride, length) = Self::layout(chip).ok_or(RegisterError::NotOnChip {
            register: Self::NAME,
            chip,
        })?;
        if index >= length {
            return Err(RegisterError::IndexOutOfRange {
                register: Self::NAME,
                chip,
                index,
                length,
            });
        }
        Ok(base + index * stride)
    }
    /// The write that sets entry `index` to this value on `chip`.
    #[inline]
    fn write(&self, chip: Chip, index: u32) -> Result<RegWrite, RegisterError> {
        let offset = Self::offset(chip, index)?;
        let value = self.try_raw().map_err(RegisterError::Field)?;
        Ok(RegWrite {
            offset,
            value,
            is_64: Self::IS_64,
        })
    }
}

include!(concat!(env!("OUT_DIR"), "/regs.rs"));
