//! OpDPdx, OpDPdy, OpFwidth and their fine and coarse forms: screen-space derivatives of
//! a fragment shader's values across its 2x2 quad.

use super::function::{Comp, Translator};
use crate::error::{CompileError, Result};
use crate::ir::AluOp;
use crate::stage_info::Stage;
use rspirv::spirv::Op as SpvOp;

impl Translator<'_> {
    /// The derivative `op` of each component of `x`. Plain OpDPdx/OpDPdy/OpFwidth may be
    /// either kind (SPIR-V leaves it to the implementation); they are coarse, as ir3 makes
    /// them (`dsx`/`dsy`, one instruction where fine ones take two).
    pub(super) fn derivative(&mut self, op: SpvOp, x: &Comp) -> Result<Comp> {
        if self.m.stage != Stage::Fragment {
            return Err(CompileError::new(format!(
                "{op:?} is only valid in fragment shaders (compute shader quads are not \
                 supported)"
            )));
        }
        let (dx, dy) = match op {
            SpvOp::DPdxFine | SpvOp::DPdyFine | SpvOp::FwidthFine => {
                (AluOp::FDdxFine, AluOp::FDdyFine)
            }
            _ => (AluOp::FDdx, AluOp::FDdy),
        };
        match op {
            SpvOp::DPdx | SpvOp::DPdxFine | SpvOp::DPdxCoarse => self.map1(dx, x),
            SpvOp::DPdy | SpvOp::DPdyFine | SpvOp::DPdyCoarse => self.map1(dy, x),
            _ => {
                // fwidth = |dx| + |dy|.
                let ax = self.map1(dx, x)?;
                let ax = self.map1(AluOp::FAbs, &ax)?;
                let ay = self.map1(dy, x)?;
                let ay = self.map1(AluOp::FAbs, &ay)?;
                self.map2(AluOp::FAdd, &ax, &ay)
            }
        }
    }
}
