//! A functional model of an Adreno a6xx/a7xx GPU.
//!
//! The model is hardware: it sees buffer objects in a GPU virtual address
//! space and the command streams handed to submit, nothing else (see
//! ARCHITECTURE.md). It runs streams Parsnip wrote and streams other drivers
//! wrote (Turnip's traces, real-hardware captures) alike.

pub mod compute_dispatch;
pub mod memory;
