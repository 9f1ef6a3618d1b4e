//! Every enum of the database as a newtype over `u32` with one associated
//! constant per named value (`A6xxFormat::FMT6_8_8_8_8_UNORM`). Values read
//! from memory that the database does not name stay representable:
//! [`name`](A6xxFormat::name) returns `None` for them.

include!(concat!(env!("OUT_DIR"), "/enums.rs"));
