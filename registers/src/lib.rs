//! Adreno a6xx/a7xx register database and PM4 packets, generated at build
//! time from the declarative source in `db/*.regs` (derived from Mesa's
//! freedreno XML; see `README.md`).
//!
//! - [`regs`]: typed registers, written by naming fields, with per-chip
//!   offsets; [`packets`]: typed PM4 payload dwords; [`descriptors`]:
//!   texture, sampler, UBO and storage descriptors; [`enums`]: the enums.
//! - [`pm4`]: packet headers (`pkt4`, `pkt7`, parsing with parity checks).
//! - [`table`] and [`lookup`]: the runtime table (offset to register and
//!   fields, per chip), and [`format`]: freedreno-style text.
//! - [`gpu`]: the GPUs Parsnip targets and their facts.

pub mod chip;
pub mod descriptors;
pub mod encode;
pub mod enums;
pub mod format;
pub mod gpu;
pub mod lookup;
pub mod packets;
pub mod pm4;
pub mod regs;
pub mod table;

pub use chip::{Chip, ChipSet};
pub use regs::{ArrayRegister, RegWrite, Register, RegisterError};
