//! PM4 packet headers of a5xx and later: type 4 (register writes) and
//! type 7 (opcodes), each with odd-parity bits over its count and its
//! offset or opcode.
//!
//! Layout (freedreno's `adreno_pm4.xml` packet types and its pm4 helpers;
//! the msm kernel's `PKT4`/`PKT7` builders agree):
//!
//! ```text
//! type 4: [31:28]=4 [27]=parity(offset) [25:8]=offset [7]=parity(count) [6:0]=count
//! type 7: [31:28]=7 [23]=parity(opcode) [22:16]=opcode [15]=parity(count) [13:0]=count
//! ```
//!
//! A parity bit is set when its value has an even number of set bits, so
//! that value plus parity bit always has an odd number.
//!
//! ```
//! use parsnip_registers::pm4::{pkt4, pkt7, Pm4Header};
//! use parsnip_registers::enums::AdrenoPm4Type3Packets as Op;
//! assert_eq!(pkt4(0xbb08, 1), 0x40bb0801);
//! assert_eq!(pkt7(Op::CP_EVENT_WRITE.0, 1), 0x70460001);
//! assert_eq!(Pm4Header::parse(0x70268000), Ok(Pm4Header::Type7 { opcode: 0x26, count: 0 }));
//! ```

use std::fmt;

use crate::chip::Chip;
use crate::enums::AdrenoPm4Type3Packets;

/// The type 7 opcodes (`adreno_pm4_type3_packets` in adreno_pm4.xml).
pub type Opcode = AdrenoPm4Type3Packets;

/// The name older freedreno and the kernel used for `CP_SET_AMBLE` (0x55),
/// the packet that points the CP at context save/restore IBs.
pub const CP_SET_CTXSWITCH_IB: Opcode = Opcode::CP_SET_AMBLE;

/// The largest register offset a type 4 header holds.
pub const PKT4_MAX_OFFSET: u32 = 0x3ffff;
/// The largest payload a type 4 header counts.
pub const PKT4_MAX_COUNT: u32 = 0x7f;
/// The largest opcode.
pub const PKT7_MAX_OPCODE: u32 = 0x7f;
/// The largest payload a type 7 header counts.
pub const PKT7_MAX_COUNT: u32 = 0x3fff;

/// 1 when `v` has an even number of set bits (odd parity).
#[inline]
pub fn odd_parity_bit(v: u32) -> u32 {
    (v.count_ones() + 1) & 1
}

/// A type 4 header writing `count` dwords to consecutive registers from
/// `offset`. Out-of-range arguments are a debug assertion (and truncated).
#[inline]
pub fn pkt4(offset: u32, count: u32) -> u32 {
    debug_assert!(
        offset <= PKT4_MAX_OFFSET,
        "pkt4 offset {offset:#x} too large"
    );
    debug_assert!(count <= PKT4_MAX_COUNT, "pkt4 count {count} too large");
    let (offset, count) = (offset & PKT4_MAX_OFFSET, count & PKT4_MAX_COUNT);
    0x4000_0000 | odd_parity_bit(offset) << 27 | offset << 8 | odd_parity_bit(count) << 7 | count
}

/// A type 7 header for `opcode` with a `count`-dword payload.
#[inline]
pub fn pkt7(opcode: u32, count: u32) -> u32 {
    debug_assert!(
        opcode <= PKT7_MAX_OPCODE,
        "pkt7 opcode {opcode:#x} too large"
    );
    debug_assert!(count <= PKT7_MAX_COUNT, "pkt7 count {count} too large");
    let (opcode, count) = (opcode & PKT7_MAX_OPCODE, count & PKT7_MAX_COUNT);
    0x7000_0000 | odd_parity_bit(opcode) << 23 | opcode << 16 | odd_parity_bit(count) << 15 | count
}

/// A parsed packet header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pm4Header {
    /// Writes `count` registers from `offset`.
    Type4 { offset: u32, count: u32 },
    /// Runs `opcode` with a `count`-dword payload.
    Type7 { opcode: u32, count: u32 },
}

/// Why a dword is not a valid header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// The top nibble is neither 4 nor 7.
    UnknownType { header: u32 },
    /// A parity bit does not match what it covers.
    BadParity { header: u32, what: &'static str },
    /// Bits the format keeps zero are set.
    ReservedBits { header: u32 },
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::UnknownType { header } => {
                write!(f, "{header:08x}: not a type 4 or type 7 packet header")
            }
            HeaderError::BadParity { header, what } => {
                write!(f, "{header:08x}: wrong parity bit for the {what}")
            }
            HeaderError::ReservedBits { header } => {
                write!(f, "{header:08x}: reserved header bits set")
            }
        }
    }
}

impl std::error::Error for HeaderError {}

impl Pm4Header {
    /// Parses a header, checking its type and both parity bits.
    pub fn parse(header: u32) -> Result<Pm4Header, HeaderError> {
        match header >> 28 {
            4 => {
                let offset = header >> 8 & PKT4_MAX_OFFSET;
                let count = header & PKT4_MAX_COUNT;
                if header & (1 << 26) != 0 {
                    return Err(HeaderError::ReservedBits { header });
                }
                if header >> 27 & 1 != odd_parity_bit(offset) {
                    return Err(HeaderError::BadParity {
                        header,
                        what: "register offset",
                    });
                }
                if header >> 7 & 1 != odd_parity_bit(count) {
                    return Err(HeaderError::BadParity {
                        header,
                        what: "count",
                    });
                }
                Ok(Pm4Header::Type4 { offset, count })
            }
            7 => {
                let opcode = header >> 16 & PKT7_MAX_OPCODE;
                let count = header & PKT7_MAX_COUNT;
                if header & (0xf << 24 | 1 << 14) != 0 {
                    return Err(HeaderError::ReservedBits { header });
                }
                if header >> 23 & 1 != odd_parity_bit(opcode) {
                    return Err(HeaderError::BadParity {
                        header,
                        what: "opcode",
                    });
                }
                if header >> 15 & 1 != odd_parity_bit(count) {
                    return Err(HeaderError::BadParity {
                        header,
                        what: "count",
                    });
                }
                Ok(Pm4Header::Type7 { opcode, count })
            }
            _ => Err(HeaderError::UnknownType { header }),
        }
    }

    /// The header word that encodes this header.
    pub fn encode(self) -> u32 {
        match self {
            Pm4Header::Type4 { offset, count } => pkt4(offset, count),
            Pm4Header::Type7 { opcode, count } => pkt7(opcode, count),
        }
    }

    /// The number of payload dwords after the header.
    pub fn payload_dwords(self) -> u32 {
        match self {
            Pm4Header::Type4 { count, .. } | Pm4Header::Type7 { count, .. } => count,
        }
    }
}

/// The opcode's name on `chip` (opcodes were reused between generations:
/// 0x46 is `CP_EVENT_WRITE` on a6xx and `CP_EVENT_WRITE7` on a7xx).
pub fn opcode_name(chip: Chip, opcode: u32) -> Option<&'static str> {
    AdrenoPm4Type3Packets(opcode).name(chip)
}

/// The opcode called `name` on `chip`.
pub fn opcode_by_name(chip: Chip, name: &str) -> Option<u32> {
    Opcode::info().value_of(chip, name).map(|v| v as u32)
}
