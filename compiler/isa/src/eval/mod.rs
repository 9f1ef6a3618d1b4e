//! The meaning of the ALU opcodes, as pure functions on raw bits.

pub mod float;
