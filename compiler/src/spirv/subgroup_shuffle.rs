//! Subgroup shuffles (OpGroupNonUniformShuffle, ShuffleXor, ShuffleUp, ShuffleDown):
//! each invocation reads the value of an invocation it names, which need not be the
//! same for all. The hardware's `shfl` takes one distance for the whole wave (Mesa's
//! ir3 uses it where the distance is uniform), so a shuffle is written as a loop
//! over the subgroup's invocations: at each one, a broadcast of that invocation's
//! value (the lane is the loop counter, the same for every invocation), which each
//! invocation keeps when it is the one it named. An invocation naming an inactive or
//! missing invocation gets an undefined value, as SPIR-V allows.

use super::function::Translator;
use crate::error::Result;
use crate::ir::*;

impl Translator<'_> {
    /// The value `x` (of `size`) of the invocation `lane` names.
    pub(super) fn shuffle(&mut self, x: Src, size: BitSize, lane: Src) -> Result<Src> {
        let result = self.new_local_slot(size);
        self.store_slot(result, x, size)?;
        let invocations = self.value(Op::SysVal(SysVal::SubgroupSize), BitSize::B32)?;
        self.counted_loop(Src::Imm(0), invocations, Src::Imm(1), |t, l| {
            let v = t.subgroup_value(SubgroupOp::Broadcast, size, &[x, l], size)?;
            let named = t.alu(AluOp::IEq, BitSize::B32, &[lane, l])?;
            let old = t.load_slot(result, size)?;
            let new = t.alu(AluOp::Select, size, &[named, v, old])?;
            t.store_slot(result, new, size)
        })?;
        self.load_slot(result, size)
    }
}
