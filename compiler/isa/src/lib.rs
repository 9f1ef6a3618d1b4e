//! The ir3 instruction set of Adreno a6xx and a7xx: one definition that the
//! compiler, the simulator and the decoder share.
//!
//! - [`Instr`]: a typed instruction, one struct per encoding family;
//! - [`decode`]/[`encode`]: to and from the 64-bit instruction words;
//! - `Display for Instr`, [`disassemble`] and [`assemble`]: freedreno's
//!   assembly syntax;
//! - [`Opcode::info`]: each opcode's encoding and meaning (latency class, value
//!   kinds, sources), and [`eval`]: what the ALU opcodes compute.
//!
//! The encodings follow freedreno's ISA XML (Mesa `src/freedreno/isa/`), for
//! the generations [`IsaGen::A6xx`] and [`IsaGen::A7xx`].
//!
//! ```
//! use parsnip_isa::{assemble, decode, disassemble, IsaGen};
//! let words = assemble("add.f r0.x, r0.y, c1.x\nend\n", IsaGen::A6xx).unwrap();
//! assert_eq!(decode(words[1], IsaGen::A6xx).unwrap().to_string(), "end");
//! assert_eq!(disassemble(&words, IsaGen::A6xx), "add.f r0.x, r0.y, c1.x\nend\n");
//! ```

mod asm;
mod bits;
pub mod cli;
mod disasm;
mod encoding;
mod error;
pub mod eval;
mod gen;
mod instr;
mod opcode;
mod operand;
mod text;
mod types;

pub use asm::assemble;
pub use disasm::{disassemble, disassemble_lines};
pub use encoding::{decode, decode_permissive, encode};
pub use error::{AsmError, DecodeError, EncodeError};
pub use gen::{IsaGen, GPU_NAMES};
pub use instr::*;
pub use opcode::{flags, Latency, OpInfo, Opcode, Sat, ValueKind, OPCODES};
pub use operand::{Operand, Reg, SrcKind, A0_X, A1_X, FLUT, P0_X, SHARED_FIRST, SHARED_LAST};
pub use types::{wrmask_name, Cond, Round, Type, CONDS, ROUNDS, SWIZZLE, TYPES};
