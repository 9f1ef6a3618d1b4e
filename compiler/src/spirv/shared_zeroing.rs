//! Workgroup variables with a null initializer (VK_KHR_zero_initialize_workgroup_memory):
//! shared memory starts undefined on the hardware, so before the entry point's body the
//! invocations of the work group zero it together, each the dwords `index, index + n,
//! index + 2n, ...` of the shared range (n the work group's invocations), and meet at a
//! barrier that makes the zeroes visible to all before any of them reads. The whole
//! range is zeroed, as Mesa's nir_zero_initialize_shared_memory does: the variables
//! without an initializer are undefined, so zeroes there are as good as anything.

use super::function::Translator;
use super::module::Id;
use crate::error::{CompileError, Result};
use crate::ir::*;
use rspirv::spirv::{Op as SpvOp, StorageClass};

impl Translator<'_> {
    /// Whether a Workgroup variable has an initializer; an error unless every such
    /// initializer is an OpConstantNull, the only one Vulkan allows there.
    pub(super) fn shared_memory_initialized(&self) -> Result<bool> {
        let mut any = false;
        for (id, g) in &self.m.globals {
            let (StorageClass::Workgroup, Some(init)) = (g.class, g.initializer) else {
                continue;
            };
            if !self.is_constant_null(init) {
                return Err(CompileError::new(format!(
                    "OpVariable {}: a Workgroup variable's initializer must be \
                     OpConstantNull (VK_KHR_zero_initialize_workgroup_memory)",
                    self.m.name(*id)
                )));
            }
            any = true;
        }
        Ok(any)
    }

    fn is_constant_null(&self, id: Id) -> bool {
        self.m
            .dr
            .types_global_values
            .iter()
            .any(|i| i.result_id == Some(id) && i.class.opcode == SpvOp::ConstantNull)
    }

    /// Zeroes `[0, shared_bytes)` with a loop over the invocation's dwords, then waits
    /// for the work group.
    pub(super) fn zero_shared_memory(&mut self) -> Result<()> {
        let dwords = u64::from(self.shader.shared_bytes.div_ceil(4));
        let [x, y, z] = self.shader.local_size;
        let step = u64::from(x) * u64::from(y) * u64::from(z);
        let first = self.value(Op::SysVal(SysVal::LocalInvocationIndex), BitSize::B32)?;
        self.counted_loop(first, Src::Imm(dwords), Src::Imm(step), |t, i| {
            let offset = t.alu(AluOp::Shl, BitSize::B32, &[i, Src::Imm(2)])?;
            t.emit(
                Op::Store(Store {
                    space: Space::Shared,
                    offset,
                    value: Src::Imm(0),
                    size: BitSize::B32,
                }),
                None,
            )?;
            Ok(())
        })?;
        self.emit(
            Op::Barrier(Barrier {
                execution: true,
                buffer_memory: false,
                shared_memory: true,
                device_scope: false,
                acquire: true,
            }),
            None,
        )?;
        Ok(())
    }
}
