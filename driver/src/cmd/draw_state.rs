//! Draw-state groups (CP_SET_DRAW_STATE): state built once, when its
//! object is created, into a BO that a command stream points a group at,
//! instead of emitting the state again each time it is used (Turnip's
//! `tu_draw_state`). A compute pipeline's program is one; graphics will
//! add the rest (vertex input, rasteriser, blend, ...), one group each.
//!
//! The CP keeps a table of 32 groups; an entry names the group's IB and
//! the render modes it applies in (adreno_pm4.xml, CP_SET_DRAW_STATE).
//! Groups normally run at the next draw or dispatch; LOAD_IMMED runs one
//! where it is set, which is what compute needs: the program's IB
//! invalidates the SP's compute state (HLSQ_INVALIDATE_CMD.CS_STATE), so
//! it must run before the dispatch's own constants are loaded, exactly
//! where an IB2 call of it would.

use parsnip_registers::packets::{CpSetDrawStateDw0, CpSetDrawStateDw1, CpSetDrawStateDw2};
use parsnip_registers::pm4::Opcode;

use super::packets::{field, PacketSink};
use crate::error::VkResult;

/// The groups the driver uses (CP_SET_DRAW_STATE's GROUP_ID, 0-31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateGroup {
    /// A compute pipeline's program state.
    ComputeProgram = 0,
    /// A graphics pipeline's state (`pipeline::graphics`).
    GraphicsPipeline = 1,
    /// The dynamic state's groups (`cmd::dynamic_state`), from 16 so that
    /// the pipeline's own groups can grow below them.
    DynamicRasterization = 16,
    DynamicDepthStencil = 17,
    DynamicPrimitive = 18,
    DynamicBlendConstants = 19,
}

/// An IB of state built once: where it is and how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateIb {
    pub iova: u64,
    pub dwords: u32,
}

/// Dwords [`set_group`] writes.
pub const SET_GROUP_DWORDS: usize = 4;

/// Points `group` at `ib`, for every render mode; `immediate` runs it at
/// once (LOAD_IMMED) rather than at the next draw or dispatch.
pub fn set_group(
    w: &mut impl PacketSink,
    group: StateGroup,
    ib: StateIb,
    immediate: bool,
) -> VkResult<()> {
    let what = "CP_SET_DRAW_STATE";
    let dw0 = CpSetDrawStateDw0 {
        count: ib.dwords,
        load_immed: immediate,
        binning: true,
        gmem: true,
        sysmem: true,
        group_id: group as u32,
        ..Default::default()
    };
    let lo = CpSetDrawStateDw1 {
        addr_lo: ib.iova as u32,
    };
    let hi = CpSetDrawStateDw2 {
        addr_hi: (ib.iova >> 32) as u32,
    };
    w.packet(
        Opcode::CP_SET_DRAW_STATE,
        &[
            field(what, dw0.try_to_raw())?,
            field(what, lo.try_to_raw())?,
            field(what, hi.try_to_raw())?,
        ],
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::packets::PacketWriter;
    use parsnip_registers::Chip;

    #[test]
    fn a_group_names_its_ib_for_every_mode() {
        let mut w = PacketWriter::new(Chip::A6xx);
        let ib = StateIb {
            iova: 0x1_0000_5700,
            dwords: 0x26,
        };
        set_group(&mut w, StateGroup::ComputeProgram, ib, true).unwrap();
        // adreno_pm4.xml: COUNT bits 0-15, LOAD_IMMED bit 19, BINNING,
        // GMEM and SYSMEM bits 20-22, GROUP_ID bits 24-28; the header is
        // that of the a660 trace's CP_SET_DRAW_STATE of 3 dwords.
        assert_eq!(
            w.dwords,
            vec![0x7043_8003, 0x26 | 1 << 19 | 7 << 20, 0x0000_5700, 1]
        );
        assert_eq!(w.dwords.len(), SET_GROUP_DWORDS);
    }
}
