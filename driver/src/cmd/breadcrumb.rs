//! The packets of one breadcrumb (see [`crate::breadcrumbs`]): after a
//! command, its serial is written once the command's work is done, and at
//! the break point the GPU then stops until the CPU releases it.

use ash::vk;
use parsnip_registers::pm4::Opcode;

use super::buffer::Recording;
use super::buffer_marker::marker_packets;
use super::packets::{wait_memory_equal, PacketWriter};
use crate::breadcrumbs::Crumb;
use crate::error::VkResult;
use parsnip_hw_state::PacketSink as _;

/// Whether a command leaves a breadcrumb: those that do work or order it,
/// not those that only set state for later ones.
pub fn leaves_breadcrumb(name: &str) -> bool {
    let sets_state = name.starts_with("vkCmdBind")
        || name.starts_with("vkCmdPush")
        || (name.starts_with("vkCmdSet") && !name.starts_with("vkCmdSetEvent"));
    !sets_state
}

impl Recording {
    /// The breadcrumb after command `name`, when breadcrumbs are on.
    pub fn breadcrumb(&mut self, name: &'static str) -> VkResult<()> {
        if self.device.breadcrumbs.is_none() {
            return Ok(());
        }
        let device = self.device.clone();
        let Some(crumbs) = &device.breadcrumbs else {
            return Ok(());
        };
        let crumb = Crumb {
            serial: crumbs.next_serial(),
            ordinal: self.own_crumbs + 1,
            name,
        };
        self.crumbs.push(crumb);
        self.own_crumbs += 1;
        let mut w = PacketWriter::new(device.gpu.chip());
        marker_packets(
            &mut w,
            vk::PipelineStageFlags2::ALL_COMMANDS,
            crumbs.crumb_iova(),
            crumb.serial,
        )?;
        if crumbs.breaks_at(crumb.ordinal) {
            // Idle first, so the breadcrumb has landed when the CPU sees
            // the release word cleared.
            w.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);
            let [lo, hi] = PacketWriter::split(crumbs.release_iova());
            w.packet(Opcode::CP_MEM_WRITE, &[lo, hi, 0]);
            wait_memory_equal(&mut w, crumbs.release_iova(), 1)?;
        }
        self.cs.append(&w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_and_ordering_leave_breadcrumbs_and_state_does_not() {
        for name in [
            "vkCmdDispatch",
            "vkCmdCopyBuffer",
            "vkCmdPipelineBarrier2",
            "vkCmdSetEvent",
            "vkCmdWriteTimestamp",
            "vkCmdExecuteCommands",
        ] {
            assert!(leaves_breadcrumb(name), "{name}");
        }
        for name in [
            "vkCmdBindPipeline",
            "vkCmdPushConstants",
            "vkCmdSetViewport",
        ] {
            assert!(!leaves_breadcrumb(name), "{name}");
        }
    }
}
