//! 16-bit loads from storage and uniform buffers and 16-bit stores to storage buffers,
//! as the 32-bit accesses the back end selects (`ldib`/`stib`/`atomic.b` on 32-bit
//! elements, `ldc` of dwords).
//!
//! A load reads the dword holding the value and takes its low or high half. A store
//! may not write the dword back whole: another invocation may be storing the other
//! half at the same time, which Vulkan allows. It clears its half with an atomic `and`
//! and sets it with an atomic `or`, so each half is only ever changed by its own
//! writer.

use crate::ir::*;

fn is_buffer(space: &Space) -> bool {
    matches!(space, Space::Ssbo(_) | Space::Ubo(_))
}

/// New instructions, appended to a block being rebuilt.
struct Builder<'a> {
    shader: &'a mut Shader,
    out: Vec<Instr>,
}

impl Builder<'_> {
    fn value(&mut self, op: Op, size: BitSize) -> Src {
        let d = self.shader.new_value(size);
        self.out.push(Instr { dst: Some(d), op });
        d.into()
    }

    fn u32op(&mut self, op: AluOp, srcs: &[Src]) -> Src {
        self.value(
            Op::alu(op, BitSize::B32, srcs),
            op.result_size(BitSize::B32),
        )
    }

    fn load(&mut self, dst: Option<Value>, l: &Load) {
        let aligned = self.u32op(AluOp::And, &[l.offset, Src::Imm(!3u32 as u64)]);
        let word = self.value(
            Op::Load(Load {
                space: l.space,
                offset: aligned,
                size: BitSize::B32,
            }),
            BitSize::B32,
        );
        let lo = self.value(
            Op::alu(AluOp::Unpack32Lo, BitSize::B32, &[word]),
            BitSize::B16,
        );
        let hi = self.value(
            Op::alu(AluOp::Unpack32Hi, BitSize::B32, &[word]),
            BitSize::B16,
        );
        let half = self.u32op(AluOp::And, &[l.offset, Src::Imm(2)]);
        let upper = self.u32op(AluOp::INe, &[half, Src::Imm(0)]);
        self.out.push(Instr {
            dst,
            op: Op::alu(AluOp::Select, BitSize::B16, &[upper, hi, lo]),
        });
    }

    fn store(&mut self, s: &Store) {
        let aligned = self.u32op(AluOp::And, &[s.offset, Src::Imm(!3u32 as u64)]);
        let half = self.u32op(AluOp::And, &[s.offset, Src::Imm(2)]);
        let shift = self.u32op(AluOp::Shl, &[half, Src::Imm(3)]);
        let wide = self.value(
            Op::Convert(Convert {
                kind: ConvKind::I2I { signed: false },
                from: BitSize::B16,
                to: BitSize::B32,
                src: s.value,
            }),
            BitSize::B32,
        );
        let bits = self.u32op(AluOp::Shl, &[wide, shift]);
        let ours = self.u32op(AluOp::Shl, &[Src::Imm(0xffff), shift]);
        let keep = self.u32op(AluOp::Not, &[ours]);
        for (op, data) in [(AtomicOp::And, keep), (AtomicOp::Or, bits)] {
            self.out.push(Instr {
                dst: None,
                op: Op::Atomic(Atomic {
                    op,
                    space: s.space,
                    offset: aligned,
                    data,
                    compare: None,
                    size: BitSize::B32,
                }),
            });
        }
    }
}

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let mut changed = false;
    for b in shader.block_ids().collect::<Vec<_>>() {
        let old = std::mem::take(&mut shader.block_mut(b).instrs);
        let mut build = Builder {
            shader,
            out: Vec::with_capacity(old.len()),
        };
        for instr in old {
            match &instr.op {
                Op::Load(l) if l.size == BitSize::B16 && is_buffer(&l.space) => {
                    build.load(instr.dst, l);
                    changed = true;
                }
                Op::Store(s) if s.size == BitSize::B16 && matches!(s.space, Space::Ssbo(_)) => {
                    build.store(s);
                    changed = true;
                }
                _ => build.out.push(instr),
            }
        }
        let out = build.out;
        shader.block_mut(b).instrs = out;
    }
    changed
}
