//! 64-bit integer division and remainder. ir3 divides nothing, and the method
//! `lower_int_ops` uses for 32 bits (a float reciprocal refined to 32 bits of quotient)
//! does not reach 64, so each of these becomes a loop of 64 steps of restoring binary
//! long division on 64-bit values, which `lower_int64` then splits into 32-bit halves.
//!
//! Step k moves the dividend's top bit into the partial remainder (shifting both left
//! by one), subtracts the divisor when the remainder reaches it, and shifts that outcome
//! into the quotient. The remainder can momentarily need 65 bits (when the divisor is
//! above 2^63): the bit shifted out of it then says the subtraction is due, and the
//! wrapped difference is the right remainder. Signed forms divide the magnitudes and fix
//! the signs: the quotient is negative when the operands' signs differ, SRem takes the
//! dividend's sign and SMod the divisor's (SPIR-V's OpSRem and OpSMod).
//!
//! The loop's two blocks are placed right after the block it was split from, so that the
//! program keeps its layout order.

use crate::ir::cfg::reorder_blocks;
use crate::ir::*;

/// The 64-bit division or remainder at `instrs[i]` of a block, if there is one.
fn division(block: &Block) -> Option<usize> {
    block.instrs.iter().position(|instr| {
        matches!(&instr.op, Op::Alu(a) if a.size == BitSize::B64
            && matches!(a.op, AluOp::UDiv | AluOp::UMod | AluOp::SDiv | AluOp::SRem | AluOp::SMod))
            && instr.dst.is_some()
    })
}

struct Emit<'a> {
    shader: &'a mut Shader,
    block: BlockId,
}

impl Emit<'_> {
    fn op(&mut self, op: Op, size: BitSize) -> Src {
        let d = self.shader.new_value(size);
        self.shader
            .block_mut(self.block)
            .instrs
            .push(Instr { dst: Some(d), op });
        d.into()
    }
    fn alu(&mut self, op: AluOp, size: BitSize, srcs: &[Src]) -> Src {
        self.op(Op::alu(op, size, srcs), op.result_size(size))
    }
    fn a64(&mut self, op: AluOp, srcs: &[Src]) -> Src {
        self.alu(op, BitSize::B64, srcs)
    }
    /// `c ? -x : x` on 64 bits.
    fn negate_if(&mut self, c: Src, x: Src) -> Src {
        let n = self.a64(AluOp::INeg, &[x]);
        self.a64(AluOp::Select, &[c, n, x])
    }
}

/// Splits the block at its first 64-bit division, if any, into the block up to it, the
/// loop, and the block after it; returns the two new blocks.
fn lower_one(shader: &mut Shader, b: BlockId) -> Option<(BlockId, BlockId)> {
    let i = division(shader.block(b))?;
    let mut rest = shader.block_mut(b).instrs.split_off(i);
    let instr = rest.remove(0);
    let (Some(dst), Op::Alu(a)) = (instr.dst, instr.op) else {
        unreachable!("division() found an ALU instruction with a result")
    };
    let signed = matches!(a.op, AluOp::SDiv | AluOp::SRem | AluOp::SMod);
    let (n, d) = (a.srcs[0], a.srcs[1]);

    // Before the loop: the magnitudes.
    let mut e = Emit { shader, block: b };
    let (n_neg, d_neg, n_mag, d_mag) = if signed {
        let n_neg = e.a64(AluOp::SLt, &[n, Src::Imm(0)]);
        let d_neg = e.a64(AluOp::SLt, &[d, Src::Imm(0)]);
        let n_mag = e.a64(AluOp::IAbs, &[n]);
        let d_mag = e.a64(AluOp::IAbs, &[d]);
        (n_neg, d_neg, n_mag, d_mag)
    } else {
        (Src::Imm(0), Src::Imm(0), n, d)
    };

    let head = shader.new_block();
    let exit = shader.new_block();
    let old = shader.block_mut(b);
    let term = std::mem::replace(&mut old.term, Terminator::Jump(head));
    let merge = old.merge.take();

    // The loop: count, quotient, remainder and the dividend's bits still to bring down.
    let count = shader.new_value(BitSize::B32);
    let quot = shader.new_value(BitSize::B64);
    let rem = shader.new_value(BitSize::B64);
    let bits = shader.new_value(BitSize::B64);
    let mut e = Emit {
        shader,
        block: head,
    };
    let top = e.a64(AluOp::UShr, &[bits.into(), Src::Imm(63)]);
    let spill = e.a64(AluOp::UShr, &[rem.into(), Src::Imm(63)]);
    let shifted = e.a64(AluOp::Shl, &[rem.into(), Src::Imm(1)]);
    let partial = e.a64(AluOp::Or, &[shifted, top]);
    let next_bits = e.a64(AluOp::Shl, &[bits.into(), Src::Imm(1)]);
    let reaches = e.a64(AluOp::ULe, &[d_mag, partial]);
    let overflowed = e.a64(AluOp::INe, &[spill, Src::Imm(0)]);
    let take = e.alu(AluOp::Or, BitSize::B1, &[reaches, overflowed]);
    let reduced = e.a64(AluOp::ISub, &[partial, d_mag]);
    let next_rem = e.a64(AluOp::Select, &[take, reduced, partial]);
    let quot_shifted = e.a64(AluOp::Shl, &[quot.into(), Src::Imm(1)]);
    let bit = e.op(
        Op::Convert(Convert {
            kind: ConvKind::Bool,
            from: BitSize::B1,
            to: BitSize::B64,
            src: take,
        }),
        BitSize::B64,
    );
    let next_quot = e.a64(AluOp::Or, &[quot_shifted, bit]);
    let next_count = e.alu(AluOp::ISub, BitSize::B32, &[count.into(), Src::Imm(1)]);
    let more = e.alu(AluOp::INe, BitSize::B32, &[next_count, Src::Imm(0)]);
    let h = shader.block_mut(head);
    h.phis = vec![
        Phi {
            dst: count,
            srcs: vec![(b, Src::Imm(64)), (head, next_count)],
        },
        Phi {
            dst: quot,
            srcs: vec![(b, Src::Imm(0)), (head, next_quot)],
        },
        Phi {
            dst: rem,
            srcs: vec![(b, Src::Imm(0)), (head, next_rem)],
        },
        Phi {
            dst: bits,
            srcs: vec![(b, n_mag), (head, next_bits)],
        },
    ];
    h.term = Terminator::Branch {
        cond: more,
        then_block: head,
        else_block: exit,
    };
    h.merge = Some(Merge::Loop {
        merge: exit,
        cont: head,
    });

    // After the loop: the result with its sign, then the rest of the block.
    let mut e = Emit {
        shader,
        block: exit,
    };
    let result = match a.op {
        AluOp::UDiv => next_quot,
        AluOp::UMod => next_rem,
        AluOp::SDiv => {
            let neg = e.alu(AluOp::Xor, BitSize::B1, &[n_neg, d_neg]);
            e.negate_if(neg, next_quot)
        }
        AluOp::SRem => e.negate_if(n_neg, next_rem),
        _ => {
            // SMod: the remainder with the dividend's sign, plus the divisor when that
            // sign is not the divisor's and the remainder is not zero.
            let srem = e.negate_if(n_neg, next_rem);
            let differ = e.alu(AluOp::Xor, BitSize::B1, &[n_neg, d_neg]);
            let nonzero = e.a64(AluOp::INe, &[srem, Src::Imm(0)]);
            let fix = e.alu(AluOp::And, BitSize::B1, &[differ, nonzero]);
            let sum = e.a64(AluOp::IAdd, &[srem, d]);
            e.a64(AluOp::Select, &[fix, sum, srem])
        }
    };
    let x = shader.block_mut(exit);
    x.instrs.push(Instr {
        dst: Some(dst),
        op: Op::alu(AluOp::Mov, BitSize::B64, &[result]),
    });
    x.instrs.extend(rest);
    x.term = term;
    x.merge = merge;
    // The old block's successors are now reached from the exit block.
    for s in shader.block(exit).term.successors() {
        for phi in &mut shader.block_mut(s).phis {
            for (p, _) in &mut phi.srcs {
                if *p == b {
                    *p = exit;
                }
            }
        }
    }
    Some((head, exit))
}

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let original = shader.blocks.len();
    // Where each block goes in the final order: after its block, each loop's head and
    // exit, the exit then split again if the rest holds another division.
    let mut order: Vec<BlockId> = Vec::with_capacity(original);
    for b in (0..original as u32).map(BlockId) {
        order.push(b);
        let mut at = b;
        while let Some((head, exit)) = lower_one(shader, at) {
            order.push(head);
            order.push(exit);
            at = exit;
        }
    }
    if order.len() == original {
        return false;
    }
    reorder_blocks(shader, &order);
    true
}
