//! The shared consts a stage sees (Vulkan push constants; a6xx.xml's
//! HLSQ_SHARED_CONSTS and HLSQ_SHARED_CONSTS_IMM), gathered for a dispatch
//! or a draw.
//!
//! - a6xx: with HLSQ_SHARED_CONSTS.ENABLE, the stage's pool (geometry,
//!   fragment or compute, loaded by CP_LOAD_STATE6 into SB6_IBO) is mapped
//!   at c504..c511. A stream that never wrote the register has them off
//!   (its reset value), so the register is read only once written.
//! - a7xx: the 64 HLSQ_SHARED_CONSTS_IMM registers, which `stsc` copies
//!   into the const file; each entry is taken only if it was written, and
//!   `stsc` of one that was not is the shader's error.

use parsnip_registers::lookup::chip_table;
use parsnip_registers::regs;
use parsnip_registers::Chip;

use crate::cp::{SharedPool, Stage, StateBlocks};
use crate::register_file::{RegisterFile, RegisterReadError};
use crate::shader_state::SharedConsts;

/// The array of a7xx's immediate shared consts, as the database names it.
const IMM_ARRAY: &str = "HLSQ_SHARED_CONSTS_IMM";

/// What `stage` sees of the shared consts.
pub(crate) fn shared_consts(
    regs: &RegisterFile,
    blocks: &StateBlocks,
    stage: Stage,
) -> Result<SharedConsts, RegisterReadError> {
    match regs.chip() {
        Chip::A6xx => {
            let enabled = regs.register_written_at::<regs::HlsqSharedConsts>() != 0
                && regs::HlsqSharedConsts::from_raw(
                    regs.programmed::<regs::HlsqSharedConsts>()? as u32
                )
                .enable;
            Ok(SharedConsts {
                mapped: enabled
                    .then(|| blocks.shared_consts[SharedPool::of(stage) as usize].clone()),
                imm: Vec::new(),
            })
        }
        Chip::A7xx => {
            let imm = chip_table(Chip::A7xx)
                .array_offsets(IMM_ARRAY)
                .into_iter()
                .map(|offset| regs.is_programmed(offset).then(|| regs.read(offset)))
                .collect();
            Ok(SharedConsts { mapped: None, imm })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::regs::Register;

    #[test]
    fn a7xx_has_64_immediate_shared_consts_from_0xab40() {
        // a6xx.xml: <array offset="0xab40" name="HLSQ_SHARED_CONSTS_IMM" length="64">.
        let mut regs = RegisterFile::new(Chip::A7xx, true);
        regs.write(0xab40 + 3, 7);
        let s = shared_consts(&regs, &StateBlocks::new(), Stage::Cs).unwrap();
        assert_eq!(s.imm.len(), 64);
        assert_eq!(s.imm[3], Some(7));
        assert_eq!(s.imm[0], None);
        assert!(s.mapped.is_none());
    }

    #[test]
    fn a6xx_maps_the_stage_pool_only_when_enabled() {
        let mut blocks = StateBlocks::new();
        blocks.shared_consts[SharedPool::Compute as usize][0] = Some(37);
        let mut regs = RegisterFile::new(Chip::A6xx, true);
        let off = shared_consts(&regs, &blocks, Stage::Cs).unwrap();
        assert!(off.mapped.is_none(), "never written: off");
        let offset = regs::HlsqSharedConsts::offset(Chip::A6xx).unwrap();
        regs.write(offset, regs::HlsqSharedConsts { enable: true }.to_raw());
        let on = shared_consts(&regs, &blocks, Stage::Cs).unwrap();
        assert_eq!(on.mapped.as_ref().unwrap()[0], Some(37));
        let fs = shared_consts(&regs, &blocks, Stage::Fs).unwrap();
        assert_eq!(fs.mapped.unwrap()[0], None, "the fragment pool is its own");
    }
}
