//! CP_SET_DRAW_STATE: groups of state (an IB each) that the CP runs before
//! the next draw or dispatch, instead of where they are set.
//!
//! What the model does, from what is public about the firmware:
//! - Each entry sets group GROUP_ID (0-31) to an IB with an enable mask of
//!   render modes (BINNING, GMEM, SYSMEM); DISABLE clears the group,
//!   DISABLE_ALL_GROUPS clears them all (adreno_pm4.xml).
//! - A group set to the same IB and mask it had when it last ran is not run
//!   again unless DIRTY is set: Turnip's tu_cmd_buffer.c describes this
//!   firmware "optimization" and sets DIRTY where the IB's contents change.
//! - Groups run at the next CP_EXEC_CS (freedreno's fd6_emit_cs_state: state
//!   groups are "deferred until CP_EXEC_CS") or draw, if enabled for the
//!   current render mode, in group order.
//! - LOAD_IMMED runs the group at once. After CP_SET_MODE(1), groups enabled
//!   for GMEM or SYSMEM also run at once (adreno_pm4.xml on CP_SET_MODE:
//!   "ENABLE_MASK & 0x6 ... execute immediately"), and still run at the
//!   next draw they are enabled for, since that run was not a draw's.
//! - The render mode is CP_SET_MARKER's: RM6_BIN_VISIBILITY is BINNING,
//!   RM6_DIRECT_RENDER is SYSMEM, every other (RM6_COMPUTE included) is GMEM,
//!   as adreno_pm4.xml's CP_COND_REG_EXEC describes the same bits.

use parsnip_registers::enums::A6xxMarker;
use parsnip_registers::packets::CpSetDrawStateDw0;

use super::CommandProcessor;
use crate::report::{GpuError, IbLevel};

/// Enable-mask bits (CP_SET_DRAW_STATE[0] bits 20-22, shifted down).
const BINNING: u8 = 1;
const GMEM: u8 = 2;
const SYSMEM: u8 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Group {
    iova: u64,
    dwords: u32,
    modes: u8,
}

#[derive(Default)]
pub(crate) struct DrawStateGroups {
    groups: [Option<Group>; 32],
    /// What each group held when it last ran.
    last_run: [Option<Group>; 32],
    /// Groups to run at the next draw or dispatch.
    pending: u32,
}

/// The enable mask of the BINNING, GMEM and SYSMEM bits (the same three
/// bits in CP_SET_DRAW_STATE and CP_COND_REG_EXEC).
pub(super) fn mode_bits(binning: bool, gmem: bool, sysmem: bool) -> u8 {
    (u8::from(binning) * BINNING) | (u8::from(gmem) * GMEM) | (u8::from(sysmem) * SYSMEM)
}

/// The enable-mask bit of the render mode `marker` selects.
pub(super) fn mode_bit(marker: Option<A6xxMarker>) -> u8 {
    match marker {
        Some(A6xxMarker::RM6_BIN_VISIBILITY) => BINNING,
        Some(A6xxMarker::RM6_DIRECT_RENDER) => SYSMEM,
        _ => GMEM,
    }
}

impl CommandProcessor<'_> {
    pub(super) fn set_draw_state(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        let entries = payload.chunks_exact(3);
        if payload.is_empty() || !entries.remainder().is_empty() {
            return Err(self.bad_payload(format!(
                "CP_SET_DRAW_STATE payload of {} dwords is not whole 3-dword entries",
                payload.len()
            )));
        }
        for entry in entries {
            let dw = CpSetDrawStateDw0::from_raw(entry[0]);
            let id = dw.group_id as usize;
            let groups = &mut self.cp.draw_state;
            if dw.disable_all_groups {
                *groups = DrawStateGroups::default();
                continue;
            }
            if dw.disable {
                groups.groups[id] = None;
                groups.pending &= !(1 << id);
                continue;
            }
            let group = Group {
                iova: u64::from(entry[1]) | u64::from(entry[2]) << 32,
                dwords: dw.count,
                modes: mode_bits(dw.binning, dw.gmem, dw.sysmem),
            };
            let set_mode_run = self.cp.set_mode == 1 && group.modes & (GMEM | SYSMEM) != 0;
            let groups = &mut self.cp.draw_state;
            groups.groups[id] = Some(group);
            if dw.load_immed {
                groups.pending &= !(1 << id);
                groups.last_run[id] = Some(group);
                self.run_group(group)?;
                continue;
            }
            if dw.dirty || groups.last_run[id] != Some(group) {
                groups.pending |= 1 << id;
            }
            if set_mode_run {
                // Not a draw's run: the group stays pending for the next
                // draw of a mode it is enabled for. Turnip's binning pass
                // runs under CP_SET_MODE(1), and the GMEM groups it sets
                // there must still run for the bins after its
                // binning-only groups changed the same registers.
                self.run_group(group)?;
            }
        }
        Ok(())
    }

    /// Runs the pending groups enabled for the current render mode: what
    /// the CP does before a draw or dispatch.
    pub(crate) fn run_pending_draw_state(&mut self) -> Result<(), GpuError> {
        let mode = mode_bit(self.cp.marker);
        for id in 0..32 {
            let groups = &mut self.cp.draw_state;
            if groups.pending & (1 << id) == 0 {
                continue;
            }
            let Some(group) = groups.groups[id] else {
                continue;
            };
            if group.modes & mode == 0 {
                continue;
            }
            groups.pending &= !(1 << id);
            groups.last_run[id] = Some(group);
            self.run_group(group)?;
        }
        Ok(())
    }

    fn run_group(&mut self, group: Group) -> Result<(), GpuError> {
        if group.dwords == 0 {
            return Ok(());
        }
        self.run_ib(IbLevel::DrawState, group.iova, group.dwords)
    }
}
