//! The command stream decoder behind `parsnip-decode`: freedreno-style text
//! for the command streams of an `.rd` trace.
//!
//! For each packet the decoder prints its GPU address and dwords, its
//! opcode name and payload fields, and for each register write the
//! register's name and bitfields (through `parsnip-registers`' formatter).
//! It follows IB1/IB2 calls and `CP_SET_DRAW_STATE` groups through the
//! captured memory, summarises the registers at each draw, dispatch and
//! blit, disassembles shaders (`parsnip-isa`) and dumps loaded state. The
//! layout is freedreno's decoder's (`cffdump`, Mesa 25.1), so that its logs,
//! and users' habits, carry over; the options too ([`DecodeOptions`]).
//!
//! Malformed input never stops the decoder and never makes it panic: what
//! it cannot decode is reported as a [`Note`] (with the command stream, GPU
//! address and file offset), and a trace that is corrupt from some point on
//! is decoded up to there ([`TraceDecode::read_error`]).
//!
//! Only a6xx and a7xx are decoded: the register database covers those. The
//! command streams of older GPUs are shown in hex.
//!
//! ```no_run
//! use parsnip_tools::decode::{decode_trace, DecodeOptions};
//!
//! let file = std::fs::File::open("trace.rd.gz")?;
//! let options = DecodeOptions { once: true, ..DecodeOptions::default() };
//! let result = decode_trace(file, options, std::io::stdout().lock())?;
//! for note in &result.notes {
//!     eprintln!("note: {note}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod decoder;
mod draw_state;
mod draws;
mod load_state;
mod memory;
mod note;
mod opcodes;
mod options;
mod packets;
mod printer;
mod register_file;
mod shader;
pub(crate) use shader::isa_gen;
mod trace;

pub use decoder::Decoder;
pub use draws::DrawRecord;
pub use memory::{BufferView, CapturedBuffers, GpuMemory};
pub use note::Note;
pub use options::DecodeOptions;
pub use packets::{Packet, PacketWalker, WalkError};
pub use trace::{decode_trace, DecodeError, TraceDecode, TraceGpu};
