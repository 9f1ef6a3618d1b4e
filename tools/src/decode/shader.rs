//! Shader binaries in a command stream, disassembled with `parsnip-isa` in
//! the layout of freedreno's decoder: each instruction as
//! `:<category>:<index>:<cycle>[<high dword>x_<low dword>x] <text>`, then the
//! shader's statistics (`Stats:` and four `- shaderdb:` lines).
//!
//! A shader is read to the end of its buffer (a register only says where it
//! starts), so, as freedreno's disassembler does, the listing stops after
//! the fourth `nop` that follows an `end`, or at a `chsh`.
//!
//! The statistics follow freedreno's definitions: instructions and cycles
//! (repeats and `(nopN)` count), nops, moves and conversions, instructions
//! per category, `(ss)`/`(sy)` and the cycles `(ss)` waits for the SFU. The
//! register footprint (`half`, `full`) and `constlen` count the registers and
//! consts of cat1-cat4 operands only.

use std::io::Write;

use parsnip_isa::{decode, disassemble_lines, Instr, IsaGen, Op, Opcode, Operand, Reg, SrcKind};
use parsnip_registers::Chip;

use super::decoder::Decoder;
use super::printer::tabs;

/// Cycles an SFU (cat4) result takes, as freedreno's statistics count them.
const SFU_DELAY: u32 = 10;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ShaderStats {
    /// Instructions plus the extra cycles of repeats and `(nopN)`.
    pub(crate) cycles: u32,
    pub(crate) nops: u32,
    pub(crate) movs: u32,
    pub(crate) covs: u32,
    pub(crate) per_category: [u32; 8],
    pub(crate) ss: u32,
    pub(crate) sy: u32,
    pub(crate) sstall: u32,
    /// Index of the last `bary.f`.
    pub(crate) last_baryf: u32,
    /// Highest half and full register components used (`index * 4 + comp`).
    pub(crate) half: u32,
    pub(crate) full: u32,
    /// Highest const component used.
    pub(crate) constlen: u32,
}

/// The ISA generation of a register-database chip.
pub(crate) fn isa_gen(chip: Chip) -> IsaGen {
    match chip {
        Chip::A6xx => IsaGen::A6xx,
        Chip::A7xx => IsaGen::A7xx,
    }
}

fn repeat_and_nop(instr: &Instr) -> (u32, u32) {
    let (repeat, nop) = match &instr.op {
        Op::Flow(f) => (f.repeat, 0),
        Op::Mov(m) => (m.repeat, 0),
        Op::MovMsk(m) => (m.repeat, 0),
        Op::Alu(a) => (a.repeat, a.nop),
        Op::Alu3(a) => (a.repeat, a.nop),
        Op::Sfu(s) => (s.repeat, 0),
        _ => (0, 0),
    };
    (u32::from(repeat), u32::from(nop))
}

/// Register and const components an instruction's cat1-cat4 operands use,
/// each with whether it steps with the repeat.
fn operands(instr: &Instr) -> Vec<(Operand, bool)> {
    let dst = |r: Reg| {
        (
            Operand {
                kind: SrcKind::Reg(r.num),
                half: r.half,
                ..Operand::default()
            },
            true,
        )
    };
    match &instr.op {
        Op::Mov(m) => {
            let mut v = vec![(m.src, m.src.r)];
            if let parsnip_isa::MovDst::Reg(n) = m.dst {
                v.push(dst(Reg {
                    num: n,
                    half: m.dst_type.is_half_cat1(),
                }));
            }
            v
        }
        Op::Alu(a) => {
            let mut v = vec![dst(a.dst), (a.src1, a.src1.r)];
            v.extend(a.src2.map(|s| (s, s.r)));
            v
        }
        Op::Alu3(a) => {
            let mut v = vec![dst(a.dst)];
            v.extend(a.srcs.iter().map(|s| (*s, s.r)));
            v
        }
        Op::Sfu(s) => vec![dst(s.dst), (s.src, s.src.r)],
        _ => Vec::new(),
    }
}

impl ShaderStats {
    fn count(&mut self, index: u32, word: u64, instr: Option<&Instr>) {
        let category = (word >> 61) as usize;
        self.per_category[category] += 1;
        // cat1 opcode 0 is mov/cov: a conversion when the types differ
        // (ir3-cat1.xml: src type bits 50-52, dst type bits 46-48).
        if category == 1 && word >> 57 & 0x3 == 0 {
            if word >> 50 & 0x7 == word >> 46 & 0x7 {
                self.movs += 1;
            } else {
                self.covs += 1;
            }
        }
        let Some(instr) = instr else {
            return;
        };
        let (repeat, nop) = repeat_and_nop(instr);
        self.per_category[category] += repeat;
        self.per_category[0] += nop;
        self.nops += nop;
        if instr.opcode() == Opcode::Nop {
            self.nops += 1 + repeat;
        }
        if instr.opcode() == Opcode::BaryF {
            self.last_baryf = index;
        }
        self.ss += u32::from(instr.ss);
        self.sy += u32::from(instr.sy);
        for (operand, steps) in operands(instr) {
            let step = if steps { repeat } else { 0 };
            match operand.kind {
                SrcKind::Const(n) => self.constlen = self.constlen.max(u32::from(n) + step),
                // r48 and above are shared or special registers.
                SrcKind::Reg(n) if n < 48 << 2 => {
                    let n = u32::from(n) + step;
                    if operand.half {
                        self.half = self.half.max(n);
                    } else {
                        self.full = self.full.max(n);
                    }
                }
                _ => {}
            }
        }
    }

    /// The four `- shaderdb:` lines' text.
    fn lines(&self) -> [String; 4] {
        // Merged register files: half registers take half a full one.
        let full = self.full.max(self.half.div_ceil(2));
        let c = &self.per_category;
        [
            format!(
                "- shaderdb: {} instr, {} nops, {} non-nops, {} mov, {} cov",
                self.cycles,
                self.nops,
                self.cycles.saturating_sub(self.nops),
                self.movs,
                self.covs
            ),
            format!(
                "- shaderdb: {} last-baryf, 0 half, {} full, {} constlen",
                self.last_baryf,
                full.div_ceil(4),
                self.constlen.div_ceil(4)
            ),
            format!(
                "- shaderdb: {} cat0, {} cat1, {} cat2, {} cat3, {} cat4, {} cat5, {} cat6, {} cat7",
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
            ),
            format!(
                "- shaderdb: {} sstall, {} (ss), {} (sy)",
                self.sstall, self.ss, self.sy
            ),
        ]
    }
}

/// How many of `words`' instructions a listing shows: up to and including
/// the fourth nop after an `end`, or a `chsh`.
fn listing_length(decoded: &[Option<Instr>]) -> usize {
    let mut seen_end = false;
    let mut nops_after_end = 0;
    for (i, instr) in decoded.iter().enumerate() {
        let opcode = instr.as_ref().map(Instr::opcode);
        match opcode {
            Some(Opcode::Nop) if seen_end => {
                nops_after_end += 1;
                if nops_after_end > 3 {
                    return i + 1;
                }
            }
            Some(Opcode::End) => {
                seen_end = true;
                nops_after_end = 0;
            }
            Some(Opcode::Chsh) => return i + 1,
            _ => nops_after_end = 0,
        }
    }
    decoded.len()
}

impl<W: Write> Decoder<W> {
    /// The listing and statistics of the shader in `dwords`, at `level`
    /// (counted in tabs from zero, as freedreno's disassembler does).
    pub(crate) fn disassemble(&mut self, dwords: &[u32], level: usize) {
        if self.quiet() {
            return;
        }
        let gen = isa_gen(self.chip);
        let words: Vec<u64> = dwords
            .chunks_exact(2)
            .map(|d| u64::from(d[1]) << 32 | u64::from(d[0]))
            .collect();
        let decoded: Vec<Option<Instr>> = words.iter().map(|&w| decode(w, gen).ok()).collect();
        let shown = listing_length(&decoded);
        let indent = tabs(level);
        let mut stats = ShaderStats::default();
        let mut extra = 0;
        let mut sfu_delay = 0;
        let mut lines = disassemble_lines(&words[..shown], gen).into_iter();
        for (i, (word, instr)) in words[..shown].iter().zip(&decoded).enumerate() {
            let i = i as u32;
            let prefix = format!(
                "{indent}:{}:{i:04}:{:04}[{:08x}x_{:08x}x] ",
                word >> 61,
                i + extra,
                word >> 32,
                *word as u32
            );
            // Branch targets get a label line first, with the same prefix.
            for line in lines.by_ref() {
                self.out.text(&prefix);
                self.out.line(&line);
                let is_label = line.strip_prefix('l').is_some_and(|l| {
                    l.strip_suffix(':')
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                });
                if !is_label {
                    break;
                }
            }
            stats.count(i, *word, instr.as_ref());
            let (repeat, nop) = instr.as_ref().map_or((0, 0), repeat_and_nop);
            extra += repeat + nop;
            // (ss) waits for what the SFU still has in flight.
            if instr.as_ref().is_some_and(|x| x.ss) {
                stats.sstall += sfu_delay;
                sfu_delay = 0;
            }
            if word >> 61 == 4 {
                sfu_delay = SFU_DELAY;
            } else {
                sfu_delay -= sfu_delay.min(1 + repeat + nop);
            }
        }
        stats.cycles = shown as u32 + extra;
        self.out.line(&format!("{indent}Stats:"));
        for line in stats.lines() {
            self.out.line(&format!("{indent}{line}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(pairs: &[(u32, u32)]) -> Vec<u32> {
        pairs.iter().flat_map(|&(hi, lo)| [lo, hi]).collect()
    }

    #[test]
    fn lists_and_counts_a660_compute_shader_as_freedreno() {
        // The compute shader of turnip/a660/compute.log, with its listing
        // and statistics as that log shows them.
        let shader = words(&[
            (0x421000c0, 0x100400c0),
            (0x46d000c0, 0x200600c0),
            (0x42181800, 0x000000c0),
            (0x46d80803, 0x20010000),
            (0x00000200, 0x00000000),
            (0xc0260003, 0x00674100),
            (0x03000000, 0x00000000),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
        ]);
        let mut decoder = Decoder::new(Chip::A6xx, Default::default(), Vec::new());
        decoder.disassemble(&shader, 4);
        let text = String::from_utf8(decoder.finish().unwrap()).unwrap();
        let expected = "\
\t\t\t\t:2:0000:0000[421000c0x_100400c0x] add.u r48.x, r48.x, c1.x
\t\t\t\t:2:0001:0001[46d000c0x_200600c0x] shl.b r48.x, r48.x, 6
\t\t\t\t:2:0002:0002[42181800x_000000c0x] (ss)(nop3) add.u r0.x, r48.x, r0.x
\t\t\t\t:2:0003:0006[46d80803x_20010000x] (nop3) shl.b r0.w, r0.x, 1
\t\t\t\t:0:0004:0010[00000200x_00000000x] (rpt2)nop
\t\t\t\t:6:0005:0013[c0260003x_00674100x] stib.b.untyped.1d.u32.1.imm.base0 r0.w, r0.x, 0
\t\t\t\t:0:0006:0014[03000000x_00000000x] end
\t\t\t\t:0:0007:0015[00000000x_00000000x] nop
\t\t\t\t:0:0008:0016[00000000x_00000000x] nop
\t\t\t\t:0:0009:0017[00000000x_00000000x] nop
\t\t\t\t:0:0010:0018[00000000x_00000000x] nop
\t\t\t\tStats:
\t\t\t\t- shaderdb: 19 instr, 13 nops, 6 non-nops, 0 mov, 0 cov
\t\t\t\t- shaderdb: 0 last-baryf, 0 half, 1 full, 1 constlen
\t\t\t\t- shaderdb: 14 cat0, 0 cat1, 4 cat2, 0 cat3, 0 cat4, 0 cat5, 1 cat6, 0 cat7
\t\t\t\t- shaderdb: 0 sstall, 1 (ss), 0 (sy)
";
        assert_eq!(text, expected);
    }
}
