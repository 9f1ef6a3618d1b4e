//! Disassembly of a program: one instruction per line, with labels on branch
//! targets.

use crate::encoding::decode;
use crate::gen::IsaGen;
use crate::instr::{Instr, Op};
use crate::opcode::flags;
use crate::text::print_instr;

/// The instruction index a branch at `index` jumps to, when it lies inside a
/// program of `len` instructions.
fn branch_target(instr: &Instr, index: usize, len: usize) -> Option<usize> {
    match &instr.op {
        Op::Flow(f) if f.op.info().has(flags::TARGET) => {
            let t = index as i64 + f.target as i64;
            (0..len as i64).contains(&t).then_some(t as usize)
        }
        _ => None,
    }
}

/// The lines of a program's text: each instruction in freedreno's syntax, a
/// label line `lN:` before every instruction a branch targets (branches then
/// name it, `#lN`, as freedreno's disassembler does), and `raw 0x...` for a
/// word that is not an instruction of `generation`.
pub fn disassemble_lines(words: &[u64], generation: IsaGen) -> Vec<String> {
    let decoded: Vec<Option<Instr>> = words.iter().map(|&w| decode(w, generation).ok()).collect();
    let mut targets = vec![false; words.len()];
    for (i, instr) in decoded.iter().enumerate() {
        if let Some(t) = instr
            .as_ref()
            .and_then(|x| branch_target(x, i, words.len()))
        {
            targets[t] = true;
        }
    }
    let mut lines = Vec::with_capacity(words.len());
    for (i, (word, instr)) in words.iter().zip(&decoded).enumerate() {
        if targets[i] {
            lines.push(format!("l{i}:"));
        }
        lines.push(match instr {
            Some(x) => {
                let label = branch_target(x, i, words.len()).map(|t| format!("l{t}"));
                print_instr(x, label.as_deref())
            }
            None => format!("raw 0x{word:016X}"),
        });
    }
    lines
}

/// [`disassemble_lines`] joined, each line ending in a newline.
pub fn disassemble(words: &[u64], generation: IsaGen) -> String {
    let mut out = String::new();
    for line in disassemble_lines(words, generation) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
