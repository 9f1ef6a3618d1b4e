//! Instruction selection for barriers, in the forms Mesa's ir3 gives them on a6xx and
//! a7xx (ir3_compiler_nir.c, emit_intrinsic_barrier and emit_control_barrier):
//!
//! - a memory barrier is `fence` with `.r` and `.w`; `.g` when it orders buffers or
//!   images, and `.l` too for those (on a6xx and later a barrier of shared memory alone
//!   sets neither);
//! - on a7xx, an acquire at a scope wider than the work group on buffers drops `.r` and
//!   `.l`, which do not make other work groups' writes visible, and is followed by
//!   `ccinv`, which does by invalidating the shader's cache of them;
//! - an execution barrier is `bar` with `.g`, after the memory barrier; legalisation
//!   gives it `(ss)(sy)`, so every access before it has completed.

use super::*;
use parsnip_isa::IsaGen;

impl Sel<'_> {
    pub(super) fn sel_barrier(&mut self, b: &ir::Barrier) {
        if b.buffer_memory || b.shared_memory {
            let invalidate = self.gen == IsaGen::A7xx && b.device_scope && b.acquire;
            let reads = !(invalidate && b.buffer_memory);
            self.emit(MOp::Barrier {
                op: Opcode::Fence,
                g: b.buffer_memory,
                l: b.buffer_memory && reads,
                r: reads,
                w: true,
            });
            if invalidate && b.buffer_memory {
                self.emit(MOp::Barrier {
                    op: Opcode::Ccinv,
                    g: false,
                    l: false,
                    r: false,
                    w: false,
                });
            }
        }
        if b.execution {
            self.emit(MOp::Barrier {
                op: Opcode::Bar,
                g: true,
                l: false,
                r: false,
                w: false,
            });
        }
    }
}
