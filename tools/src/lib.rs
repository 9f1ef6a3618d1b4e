//! Trace decoder, replay, ir3 assembler/disassembler and other tools

pub mod bisect;
pub mod cli_help;
pub mod decode;
pub mod decompile;
pub mod replay;
