//! The ir3 instruction set: encoding, decoding, meaning of each opcode, assembler and disassembler
