//! The subgroup macros written out as ir3, after register allocation, the way Mesa's
//! `ir3_lower_subgroups.c` expands its `*.macro` instructions:
//! - elect: `getone` makes every fiber but the first active one jump past the move of 1;
//! - any / all: `bany` / `ball` jump the whole wave when p0.x is true in any / all
//!   active fibers;
//! - ballot: the fibers whose condition holds branch into a `movmsk`, which writes their
//!   execution mask to a shared register, one value for the wave, that every fiber
//!   then reads;
//! - read first / read conditional: the elected fiber, or the one whose condition
//!   holds, moves its value to a shared register;
//! - reductions and scans: a loop in which `getone` elects a fiber, the elected fiber
//!   combines its value into a shared accumulator (reading it before for an exclusive
//!   scan, after for an inclusive one) and leaves, and the others loop to elect again.
//!
//! The last shared registers, r55.x..r55.w, are the macros' scratch: a macro writes and
//! reads them within its own instructions, and nothing else the compiler emits uses them
//! (the shared file is r48.x..r55.w, `ir3.h`; the work group id arrives in r48.xyz,
//! `isel::INPUT_REGS`). Every macro ends on a `(jp)` instruction where
//! the fibers that branched meet again, and carries the nops its own results need: the
//! legaliser sees it as one instruction reading its operands and writing its result.

use super::mir::{ScanKind, ScanOp, SubgroupMacro};
use crate::target::ShaderModel;
use parsnip_isa::{
    Alu, Alu3, Cond, DotMode, Flow, Mov, MovDst, MovMsk, Op, Opcode, Operand, Pred, Reg, Round,
    Type, P0_X,
};

/// r55.x, the last shared vec4.
const SHARED: u8 = parsnip_isa::SHARED_FIRST + 7 * 4;

/// One instruction of a written-out macro.
#[derive(Clone, Debug, PartialEq)]
pub struct MacroInstr {
    pub op: Op,
    pub jp: bool,
}

struct Out {
    instrs: Vec<MacroInstr>,
    alu: u32,
    non_alu: u32,
}

impl Out {
    fn push(&mut self, op: Op) -> usize {
        self.instrs.push(MacroInstr { op, jp: false });
        self.instrs.len() - 1
    }

    fn nops(&mut self, cycles: u32) {
        if cycles > 0 {
            let mut f = Flow::new(Opcode::Nop);
            f.repeat = (cycles - 1) as u8;
            self.push(Op::Flow(f));
        }
    }

    /// The wait between an ALU result and an ALU / a flow instruction reading it.
    fn after_alu(&mut self) {
        self.nops(self.alu);
    }

    fn after_alu_for_flow(&mut self) {
        self.nops(self.non_alu);
    }

    fn mov(&mut self, dst: u8, src: Operand) {
        self.push(Op::Mov(Mov {
            src_type: Type::U32,
            dst_type: Type::U32,
            dst: MovDst::Reg(dst),
            src,
            repeat: 0,
            ul: false,
            round: Round::Zero,
        }));
    }

    fn alu(&mut self, op: Opcode, dst: u8, a: Operand, b: Option<Operand>, cond: Cond) {
        self.push(Op::Alu(Alu {
            op,
            dst: Reg::full(dst),
            src1: a,
            src2: b,
            cond,
            repeat: 0,
            nop: 0,
            sat: false,
            ul: false,
            ei: false,
        }));
    }

    fn alu3(&mut self, op: Opcode, dst: u8, srcs: [Operand; 3]) {
        self.push(Op::Alu3(Alu3 {
            op,
            dst: Reg::full(dst),
            srcs,
            repeat: 0,
            nop: 0,
            sat: false,
            ul: false,
            dot: DotMode::default(),
        }));
    }

    /// `cmps.u.ne p0.x, cond, 0`, and the wait before a branch reads it.
    fn set_p0(&mut self, cond: u8) {
        self.alu(
            Opcode::CmpsU,
            P0_X,
            Operand::reg(cond),
            Some(Operand::imm(0)),
            Cond::Ne,
        );
        self.after_alu_for_flow();
    }

    /// A flow instruction whose target is patched by [`Out::land`].
    fn branch(&mut self, op: Opcode, pred: Option<Pred>) -> usize {
        let mut f = Flow::new(op);
        f.pred = pred;
        self.push(Op::Flow(f))
    }

    /// Points the branch at `from` to `to`.
    fn target(&mut self, from: usize, to: usize) {
        if let Op::Flow(f) = &mut self.instrs[from].op {
            f.target = to as i32 - from as i32;
        }
        self.instrs[to].jp = true;
    }

    /// Where the next instruction will be.
    fn here(&self) -> usize {
        self.instrs.len()
    }

    /// A `(jp)` nop as the landing of the branches at `from`, waiting `cycles` too.
    fn land(&mut self, from: &[usize], cycles: u32) {
        let at = self.here();
        self.nops(cycles.max(1));
        for &f in from {
            self.target(f, at);
        }
    }
}

const P0: Pred = Pred {
    comp: 0,
    inv: false,
};
const NOT_P0: Pred = Pred { comp: 0, inv: true };

fn imm(v: u32) -> Operand {
    Operand::imm(v as i32)
}

/// The value a reduction starts from (for floats, the bits).
fn identity(op: ScanOp) -> u32 {
    match op {
        ScanOp::AddU | ScanOp::MaxU | ScanOp::Or | ScanOp::Xor | ScanOp::AddF => 0,
        ScanOp::MulU => 1,
        ScanOp::MinU | ScanOp::And => u32::MAX,
        ScanOp::MinS => i32::MAX as u32,
        ScanOp::MaxS => i32::MIN as u32,
        ScanOp::MulF => 1.0f32.to_bits(),
        ScanOp::MinF => f32::INFINITY.to_bits(),
        ScanOp::MaxF => f32::NEG_INFINITY.to_bits(),
    }
}

/// `acc = acc op value` on full registers; `t` and `t + 1` are free scratch. Only one
/// fiber runs it, so shared registers serve as its scratch.
fn combine(o: &mut Out, op: ScanOp, acc: u8, value: u8, t: u8) {
    let (a, v) = (Operand::reg(acc), Operand::reg(value));
    let two = |o: &mut Out, opc: Opcode| o.alu(opc, acc, a, Some(v), Cond::Lt);
    match op {
        ScanOp::AddU => two(o, Opcode::AddU),
        ScanOp::MinU => two(o, Opcode::MinU),
        ScanOp::MaxU => two(o, Opcode::MaxU),
        ScanOp::MinS => two(o, Opcode::MinS),
        ScanOp::MaxS => two(o, Opcode::MaxS),
        ScanOp::And => two(o, Opcode::AndB),
        ScanOp::Or => two(o, Opcode::OrB),
        ScanOp::Xor => two(o, Opcode::XorB),
        ScanOp::AddF => two(o, Opcode::AddF),
        ScanOp::MulF => two(o, Opcode::MulF),
        ScanOp::MinF => two(o, Opcode::MinF),
        ScanOp::MaxF => two(o, Opcode::MaxF),
        ScanOp::MulU => {
            // The 32-bit product from 16-bit pieces, as the back end multiplies:
            // mull.u gives lo(a) * lo(b), each madsh.m16 adds a high half times a low
            // half, shifted up by 16.
            o.alu(Opcode::MullU, t, a, Some(v), Cond::Lt);
            o.after_alu();
            o.alu3(Opcode::MadshM16, t + 1, [a, v, Operand::reg(t)]);
            o.after_alu();
            o.alu3(Opcode::MadshM16, acc, [v, a, Operand::reg(t + 1)]);
        }
    }
}

/// The instructions of a macro writing full register `dst` from full register `src`
/// (for `ReadCond`, the value in `src` and the condition in `src + 1`).
pub fn expand(
    kind: SubgroupMacro,
    dst: u8,
    src: Option<u8>,
    model: &dyn ShaderModel,
) -> Vec<MacroInstr> {
    let mut o = Out {
        instrs: Vec::new(),
        alu: model.alu_to_alu_delay(),
        non_alu: model.alu_to_non_alu_delay(),
    };
    let src = src.unwrap_or(0);
    match kind {
        SubgroupMacro::Elect => {
            o.mov(dst, imm(0));
            let b = o.branch(Opcode::Getone, None);
            o.mov(dst, imm(1));
            o.land(&[b], 1);
        }
        SubgroupMacro::Vote { all } => {
            // Compare first: `dst` may be `src`'s register.
            o.alu(
                Opcode::CmpsU,
                P0_X,
                Operand::reg(src),
                Some(Operand::imm(0)),
                Cond::Ne,
            );
            o.mov(dst, imm(1));
            o.nops(o.non_alu.saturating_sub(1));
            let b = o.branch(if all { Opcode::Ball } else { Opcode::Bany }, Some(P0));
            o.mov(dst, imm(0));
            o.land(&[b], 1);
        }
        SubgroupMacro::Ballot { dword } => {
            // movmsk writes 32 fibers' bits per register, as many registers as the
            // wave has words up to the one asked (four for a double-size wave's last).
            let words = dword.max(1);
            for k in 0..=words {
                o.mov(SHARED + k, imm(0));
            }
            o.set_p0(src);
            let b = o.branch(Opcode::Br, Some(NOT_P0));
            o.push(Op::MovMsk(MovMsk {
                dst: MovDst::Reg(SHARED),
                repeat: words,
                ul: false,
            }));
            o.land(&[b], o.alu);
            o.mov(dst, Operand::reg(SHARED + dword));
        }
        SubgroupMacro::ReadFirst => {
            let b = o.branch(Opcode::Getone, None);
            o.mov(SHARED, Operand::reg(src));
            o.land(&[b], o.alu);
            o.mov(dst, Operand::reg(SHARED));
        }
        SubgroupMacro::ReadCond => {
            o.set_p0(src + 1);
            let b = o.branch(Opcode::Br, Some(NOT_P0));
            o.mov(SHARED, Operand::reg(src));
            o.land(&[b], o.alu);
            o.mov(dst, Operand::reg(SHARED));
        }
        SubgroupMacro::Scan { op, kind } => {
            let acc = SHARED;
            o.mov(acc, imm(identity(op)));
            o.after_alu();
            // loop: the elected fiber falls through, the others go to `again`.
            let top = o.here();
            let elect = o.branch(Opcode::Getone, None);
            if top > 0 {
                o.instrs[top].jp = true;
            }
            // `dst` may be `src`'s register: an exclusive scan's result waits in a
            // scratch register until `src` is read.
            let before = SHARED + 3;
            if kind == ScanKind::Exclusive {
                o.mov(before, Operand::reg(acc));
            }
            combine(&mut o, op, acc, src, SHARED + 1);
            o.after_alu();
            match kind {
                ScanKind::Inclusive => o.mov(dst, Operand::reg(acc)),
                ScanKind::Exclusive => o.mov(dst, Operand::reg(before)),
                ScanKind::Reduce => {}
            }
            let leave = o.branch(Opcode::Jump, None);
            let again = o.branch(Opcode::Jump, None);
            o.target(elect, again);
            o.target(again, top);
            o.land(&[leave], o.alu);
            if kind == ScanKind::Reduce {
                o.mov(dst, Operand::reg(acc));
            }
        }
    }
    o.instrs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::model;

    #[test]
    fn branches_land_inside_the_macro_on_jp_instructions() {
        let m = model("a660").unwrap();
        let kinds = [
            SubgroupMacro::Elect,
            SubgroupMacro::Vote { all: true },
            SubgroupMacro::Ballot { dword: 1 },
            SubgroupMacro::ReadFirst,
            SubgroupMacro::ReadCond,
            SubgroupMacro::Scan {
                op: ScanOp::MulU,
                kind: ScanKind::Exclusive,
            },
        ];
        for kind in kinds {
            let code = expand(kind, 0, Some(2), m.as_ref());
            for (i, ins) in code.iter().enumerate() {
                if let Op::Flow(f) = &ins.op {
                    if f.op != Opcode::Nop {
                        let t = i as i32 + f.target;
                        assert!(t >= 0 && (t as usize) < code.len(), "{kind:?}: {i} -> {t}");
                        assert!(code[t as usize].jp, "{kind:?}: target {t} has no (jp)");
                    }
                }
            }
        }
    }

    #[test]
    fn the_scan_loop_goes_back_to_its_getone() {
        let m = model("a740").unwrap();
        let code = expand(
            SubgroupMacro::Scan {
                op: ScanOp::AddU,
                kind: ScanKind::Reduce,
            },
            5,
            Some(6),
            m.as_ref(),
        );
        let back: Vec<usize> = code
            .iter()
            .enumerate()
            .filter_map(|(i, ins)| match &ins.op {
                Op::Flow(f) if f.op == Opcode::Jump && f.target < 0 => {
                    Some((i as i32 + f.target) as usize)
                }
                _ => None,
            })
            .collect();
        assert_eq!(back.len(), 1);
        assert!(matches!(&code[back[0]].op, Op::Flow(f) if f.op == Opcode::Getone));
    }
}
