//! `vkCmdWriteBufferMarkerAMD` and `vkCmdWriteBufferMarker2AMD`
//! (VK_AMD_buffer_marker): a 32-bit value written once the work before it
//! has finished the given stage.
//!
//! - TOP_OF_PIPE (alone, or no stage): nothing has to finish, so the CP
//!   writes the value as it reaches the command (CP_MEM_WRITE).
//! - Any later stage: the value rides on an RB_DONE_TS event, which the
//!   hardware carries down the pipeline behind the work before it and whose
//!   memory write lands once that work is done. a6xx: CP_EVENT_WRITE without
//!   TIMESTAMP writes the packet's fourth dword ("when set, write back
//!   timestamp instead of value from packet", adreno_pm4.xml); a7xx:
//!   CP_EVENT_WRITE7 with WRITE_SRC = EV_WRITE_USER_32B writes PAYLOAD_0 to
//!   RAM. The event waits for every stage, which is at least as late as
//!   any stage asked for.
//!
//! Markers of the same kind land in the order they were recorded, as the
//! spec asks: CP_MEM_WRITEs run in stream order, and the events drain in
//! the order they were queued.

use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::{EventWriteDst, EventWriteSrc, VgtEventType};
use parsnip_registers::packets::{CpEventWrite7Dw0, CpEventWriteDw0};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::Chip;

use super::buffer::Recording;
use super::packets::{field, PacketSink, PacketWriter};
use crate::buffer::Buffer;
use crate::error::VkResult;

/// Whether a marker for `stage` waits for nothing: TOP_OF_PIPE alone, or
/// NONE (synchronization2's name for the same point).
pub fn is_top_of_pipe(stage: vk::PipelineStageFlags2) -> bool {
    (stage & !vk::PipelineStageFlags2::TOP_OF_PIPE).is_empty()
}

/// The packets writing `marker` to `iova` once the work before them has
/// finished `stage`.
pub fn marker_packets(
    w: &mut impl PacketSink,
    stage: vk::PipelineStageFlags2,
    iova: u64,
    marker: u32,
) -> VkResult<()> {
    let [lo, hi] = PacketWriter::split(iova);
    if is_top_of_pipe(stage) {
        w.packet(Opcode::CP_MEM_WRITE, &[lo, hi, marker]);
        return Ok(());
    }
    let dw0 = match w.chip() {
        Chip::A6xx => field(
            "CP_EVENT_WRITE",
            CpEventWriteDw0 {
                event: VgtEventType::RB_DONE_TS,
                timestamp: false,
                irq: false,
            }
            .try_to_raw(),
        )?,
        Chip::A7xx => field(
            "CP_EVENT_WRITE7",
            CpEventWrite7Dw0 {
                event: VgtEventType::RB_DONE_TS,
                write_src: EventWriteSrc::EV_WRITE_USER_32B,
                write_dst: EventWriteDst::EV_DST_RAM,
                write_enabled: true,
                ..Default::default()
            }
            .try_to_raw(),
        )?,
    };
    w.packet(Opcode::CP_EVENT_WRITE, &[dw0, lo, hi, marker]);
    Ok(())
}

impl Recording {
    /// `vkCmdWriteBufferMarker(2)AMD`.
    pub fn write_buffer_marker(
        &mut self,
        stage: vk::PipelineStageFlags2,
        dst: &Arc<Buffer>,
        offset: u64,
        marker: u32,
    ) -> VkResult<()> {
        if !offset.is_multiple_of(4) || offset.checked_add(4).is_none_or(|end| end > dst.size) {
            eprintln!(
                "parsnip: vkCmdWriteBufferMarkerAMD: offset {offset:#x} is misaligned or leaves \
                 no 4 bytes in a buffer of {:#x}",
                dst.size
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        self.keep(dst.clone());
        if !is_top_of_pipe(stage) {
            // Cache operations barriers owe belong before the work the
            // marker waits for is taken as done.
            self.flush_pending()?;
        }
        let mut w = PacketWriter::new(self.device.gpu.chip());
        marker_packets(&mut w, stage, dst.iova(offset), marker)?;
        self.cs.append(&w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::pm4::Pm4Header;

    const IOVA: u64 = 0x1_2345_6780;

    fn emitted(chip: Chip, stage: vk::PipelineStageFlags2) -> Vec<u32> {
        let mut w = PacketWriter::new(chip);
        marker_packets(&mut w, stage, IOVA, 0xcafe).unwrap();
        w.dwords
    }

    fn opcode_and_count(header: u32) -> (u32, u32) {
        match Pm4Header::parse(header) {
            Ok(Pm4Header::Type7 { opcode, count }) => (opcode, count),
            other => panic!("not a type 7 header: {other:?}"),
        }
    }

    #[test]
    fn top_of_pipe_markers_are_written_by_the_cp_at_once() {
        for chip in [Chip::A6xx, Chip::A7xx] {
            for stage in [
                vk::PipelineStageFlags2::TOP_OF_PIPE,
                vk::PipelineStageFlags2::NONE,
            ] {
                let d = emitted(chip, stage);
                // CP_MEM_WRITE is opcode 0x3d (adreno_pm4.xml): address, value.
                assert_eq!(opcode_and_count(d[0]), (0x3d, 3), "{chip:?} {stage:?}");
                assert_eq!(&d[1..], &[0x2345_6780, 1, 0xcafe]);
            }
        }
    }

    /// Every stage of synchronization2 but TOP_OF_PIPE (and NONE).
    fn later_stages() -> Vec<vk::PipelineStageFlags2> {
        use vk::PipelineStageFlags2 as S;
        vec![
            S::DRAW_INDIRECT,
            S::VERTEX_INPUT,
            S::VERTEX_SHADER,
            S::TESSELLATION_CONTROL_SHADER,
            S::TESSELLATION_EVALUATION_SHADER,
            S::GEOMETRY_SHADER,
            S::FRAGMENT_SHADER,
            S::EARLY_FRAGMENT_TESTS,
            S::LATE_FRAGMENT_TESTS,
            S::COLOR_ATTACHMENT_OUTPUT,
            S::COMPUTE_SHADER,
            S::ALL_TRANSFER,
            S::BOTTOM_OF_PIPE,
            S::HOST,
            S::ALL_GRAPHICS,
            S::ALL_COMMANDS,
            S::COPY,
            S::RESOLVE,
            S::BLIT,
            S::CLEAR,
            S::INDEX_INPUT,
            S::VERTEX_ATTRIBUTE_INPUT,
            S::PRE_RASTERIZATION_SHADERS,
        ]
    }

    #[test]
    fn later_stages_write_with_the_rb_done_event_on_a6xx() {
        for stage in later_stages() {
            let d = emitted(Chip::A6xx, stage);
            // CP_EVENT_WRITE is 0x46; RB_DONE_TS is event 0x16 and the
            // TIMESTAMP bit (30) is clear, so the fourth dword is written
            // (adreno_pm4.xml).
            assert_eq!(opcode_and_count(d[0]), (0x46, 4), "{stage:?}");
            assert_eq!(&d[1..], &[0x16, 0x2345_6780, 1, 0xcafe], "{stage:?}");
        }
    }

    #[test]
    fn later_stages_write_the_user_value_with_the_rb_done_event_on_a7xx() {
        for stage in later_stages() {
            let d = emitted(Chip::A7xx, stage);
            // CP_EVENT_WRITE7 (0x46 on a7xx): RB_DONE_TS (0x16),
            // WRITE_SRC EV_WRITE_USER_32B (0, bits 20-22), WRITE_DST RAM
            // (0, bit 24), WRITE_ENABLED (bit 27) (adreno_pm4.xml).
            assert_eq!(opcode_and_count(d[0]), (0x46, 4), "{stage:?}");
            assert_eq!(&d[1..], &[0x16 | 1 << 27, 0x2345_6780, 1, 0xcafe]);
        }
    }

    #[test]
    fn a_stage_set_with_top_of_pipe_and_more_waits() {
        let stage = vk::PipelineStageFlags2::TOP_OF_PIPE | vk::PipelineStageFlags2::COPY;
        assert!(!is_top_of_pipe(stage));
        assert_eq!(opcode_and_count(emitted(Chip::A6xx, stage)[0]).0, 0x46);
    }
}
