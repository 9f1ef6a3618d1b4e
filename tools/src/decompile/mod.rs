//! A trace as editable text, and that text assembled back into the trace:
//! the library behind `parsnip-decompile` and `parsnip-replay --override`.
//!
//! The text keeps every section of the `.rd` file, in order, as a `record`
//! line (its type and the padding pairs before it) and a body:
//!
//! ```text
//! parsnip-decompile 1
//! chip a6xx
//! record 0x9 padding 0            # BUFFER_CONTENTS at 0x100000000
//!   ib 0x100000000 dwords 3       # an IB the trace submits starts here
//!   pkt7 CP_WAIT_FOR_IDLE
//!   pkt4
//!     SP_CS_INSTRLEN 0x00000001
//!   dwords
//!     0xdeadbeef 0x00000000
//!   shader 0x100005680            # ir3 assembly, 2 instructions
//!     | (rpt2)nop
//!     | end
//!   tail 0a0b
//! record 0x8 padding 0            # CMD
//!   hex 70617273
//! trailing_padding 0
//! ```
//!
//! - Buffer contents holding the start of an IB a `CMDSTREAM_ADDR` names
//!   are written as PM4 packets from there for the IB's length: `pkt7`
//!   with the opcode's name and the payload dwords on the lines after it,
//!   `pkt4` with one `REGISTER VALUE` line per dword written, registers
//!   named through the register database of the trace's chip. Anything
//!   that is not a well-formed packet, and the bytes outside IBs, are
//!   plain `dwords`; a length that is not a multiple of 4 ends in `tail`.
//!   `chip` says whose names these are (none for a GPU not modelled: then
//!   IBs are plain dwords too). The streams IBs run in turn
//!   (CP_INDIRECT_BUFFER*, CP_SET_DRAW_STATE groups, to the third level)
//!   are packets as well.
//! - Where a stream sets a shader's start (`SP_xS_OBJ_START`), the buffer
//!   holds ir3 assembly from there to the next start or its end, one `|`
//!   line per instruction in the disassembler's syntax, when the listing
//!   assembles back to the same words; otherwise each word is `| raw`.
//! - Every other section is `hex`, its payload's bytes, with a comment
//!   saying what it is.
//!
//! Assembling re-encodes each packet header from its name (or a hex opcode
//! or register offset) and the number of dwords that follow, and each
//! shader with the ir3 assembler, so an
//! unedited text gives the trace byte for byte, and an edited value, a
//! packet added or removed (with its IB's `CMDSTREAM_ADDR` length edited
//! to match) or an instruction changed changes exactly what was edited.
//! `#` starts a comment, but in ir3 lines, whose comments start with `;`.

mod assemble;
mod write;

pub use assemble::{assemble, number, AssembleError};
pub use write::decompile;

/// The first line of the text, naming the format's version.
const MAGIC: &str = "parsnip-decompile 1";
