//! freedreno's `.rd` trace format: a reader, a writer, and a model of what a
//! trace holds (the device, the submits, and the GPU memory each submit's
//! command streams see).
//!
//! An `.rd` file is a stream of sections, `u32 type, u32 length, payload`,
//! little-endian, with no file header; freedreno's tools gzip it to `.rd.gz`.
//! The section types and their payloads are described in the reference
//! README (from Mesa's `redump.h` and its readers).
//!
//! - [`SectionReader`] streams sections from any `Read`, plain or gzip.
//! - [`Writer`] writes them back byte for byte, or new ones as a driver
//!   submits, to a plain or gzip output.
//! - [`Trace`] reads a whole trace and groups it into [`Submit`]s;
//!   [`Trace::memory`] gives a [`Memory`] that resolves GPU addresses to the
//!   captured bytes.
//!
//! Errors name the offset (in the uncompressed stream) of the bad section
//! and what is wrong with it. No input makes the library panic: `tools/rd/fuzz`
//! holds a cargo-fuzz target for that (`cargo +nightly fuzz run read_trace`
//! from `tools/rd`).
//!
//! ```
//! use parsnip_rd::{Compression, DeviceId, Trace, Writer};
//!
//! // What a driver's dump hook writes for one submit.
//! let mut writer = Writer::new(Vec::new(), Compression::Gzip(6));
//! writer.chip_id(0x0606_00ff)?;
//! writer.cmd("parsnip: submit 0")?;
//! let ib = [0x7026_8000u32, 0x7026_8000]; // two CP_WAIT_FOR_IDLE
//! let ib_bytes: Vec<u8> = ib.iter().flat_map(|d| d.to_le_bytes()).collect();
//! writer.buffer(0x1_0000_0000, &ib_bytes)?;
//! writer.cmdstream_addr(0x1_0000_0000, 2)?;
//! writer.checkpoint()?;
//! let file = writer.finish()?;
//!
//! // What a decoder or a replay reads.
//! let trace = Trace::read(&file[..])?;
//! assert_eq!(trace.device().unwrap().id, DeviceId::ChipId(0x0606_00ff));
//! for (submit, cmdstream) in trace.cmdstreams() {
//!     let memory = trace.memory(submit).unwrap();
//!     let dwords = memory.dwords(cmdstream.iova, cmdstream.dwords)?;
//!     assert_eq!(dwords, ib);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod contents_pairing;
pub mod error;
pub mod memory;
pub mod reader;
pub mod section;
pub mod trace;
pub mod writer;

pub use error::{Error, ErrorKind};
pub use memory::{Memory, MemoryError, MemoryErrorKind, Uncaptured};
pub use reader::SectionReader;
pub use section::{text_until_nul, Address, Param, Record, Section, SectionType, WrBuffer};
pub use trace::{Buffer, Cmdstream, Device, DeviceId, Submit, Trace};
pub use writer::{Compression, Writer};
