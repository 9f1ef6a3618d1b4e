//! A loop the front end writes itself (not from the module's blocks): a counter from
//! `start` while below `end`, by `step`, in the structured form the rest of the
//! compiler expects of SPIR-V loops (a header with a loop merge, a body, a continue
//! block, a merge block), its counter a local variable that lower_vars_to_ssa turns
//! into a phi.

use super::function::Translator;
use crate::error::Result;
use crate::ir::*;

impl Translator<'_> {
    /// Runs `body` with the counter's value once per iteration; code after the call
    /// goes to the loop's merge block.
    pub(super) fn counted_loop(
        &mut self,
        start: Src,
        end: Src,
        step: Src,
        mut body: impl FnMut(&mut Self, Src) -> Result<()>,
    ) -> Result<()> {
        let counter = self.new_local_slot(BitSize::B32);
        self.store_slot(counter, start, BitSize::B32)?;
        let header = self.shader.new_block();
        let first = self.shader.new_block();
        let cont = self.shader.new_block();
        let merge = self.shader.new_block();
        self.finish_block(Terminator::Jump(header), None);

        self.cur = header;
        let i = self.load_slot(counter, BitSize::B32)?;
        let more = self.alu(AluOp::ULt, BitSize::B32, &[i, end])?;
        self.finish_block(
            Terminator::Branch {
                cond: more,
                then_block: first,
                else_block: merge,
            },
            Some(Merge::Loop { merge, cont }),
        );

        self.cur = first;
        let i = self.load_slot(counter, BitSize::B32)?;
        body(self, i)?;
        self.finish_block(Terminator::Jump(cont), None);

        self.cur = cont;
        let i = self.load_slot(counter, BitSize::B32)?;
        let next = self.alu(AluOp::IAdd, BitSize::B32, &[i, step])?;
        self.store_slot(counter, next, BitSize::B32)?;
        self.finish_block(Terminator::Jump(header), None);

        self.cur = merge;
        Ok(())
    }

    /// A new local variable of one slot of `size`.
    pub(super) fn new_local_slot(&mut self, size: BitSize) -> Space {
        self.shader.locals.push(LocalVar { slots: vec![size] });
        Space::Local(self.shader.locals.len() as u32 - 1)
    }

    pub(super) fn load_slot(&mut self, space: Space, size: BitSize) -> Result<Src> {
        self.value(
            Op::Load(Load {
                space,
                offset: Src::Imm(0),
                size,
            }),
            size,
        )
    }

    pub(super) fn store_slot(&mut self, space: Space, value: Src, size: BitSize) -> Result<()> {
        self.emit(
            Op::Store(Store {
                space,
                offset: Src::Imm(0),
                value,
                size,
            }),
            None,
        )?;
        Ok(())
    }
}
