//! Compute state and dispatches: binding pipelines, descriptor sets and push
//! constants, and the packets of a dispatch (after Turnip's compute
//! streams, compute.log for a660 and a740):
//!
//! - the pipeline's program state, called as an IB2 when the pipeline
//!   changes;
//! - the const file: driver parameters (work group count and base), push
//!   constants and the shader's immediates, loaded with CP_LOAD_STATE6
//!   (for an indirect dispatch the count comes straight from the indirect
//!   buffer, with an indirect-source load);
//! - SP_CS_BINDLESS_BASE[set] (and HLSQ_CS_BINDLESS_BASE on a6xx) for each
//!   bound set, 64-byte descriptors, then HLSQ_INVALIDATE_CMD of those
//!   bases;
//! - CP_SET_MARKER RM6_COMPUTE, HLSQ_CS_NDRANGE_* (and
//!   HLSQ_CS_LAST_LOCAL_SIZE on a7xx), CP_EXEC_CS / CP_EXEC_CS_INDIRECT.

use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::{
    A6xxBindlessDescriptorSize, A6xxMarker, A6xxStateType, SetMarkerMode,
};
use parsnip_registers::packets::CpExecCsIndirectDw3;
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs::{self};
use parsnip_registers::Chip;

use super::buffer::Recording;
use super::load_state::{load_consts, load_cs_state, Source};
use super::packets::{call_ib, copy_memory, field, PacketWriter};
use crate::buffer::Buffer;
use crate::descriptor::set::DescriptorSet;
use crate::error::VkResult;
use crate::limits::{MAX_PUSH_CONSTANTS_SIZE, MAX_SETS, MAX_WORKGROUP_COUNT};
use crate::pipeline::binary::{ConstLayout, DriverParam};
use crate::pipeline::compute::ComputePipeline;
use crate::pipeline_layout::PipelineLayout;

/// A bound descriptor set: the address its descriptors are read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoundSet {
    pub iova: u64,
}

#[derive(Default)]
pub struct ComputeState {
    pub pipeline: Option<Arc<ComputePipeline>>,
    /// The pipeline whose program state the stream last called.
    emitted_program: Option<u64>,
    /// The application's sets, then the driver's internal one.
    pub sets: [Option<BoundSet>; MAX_SETS as usize + 1],
    pub push_constants: Vec<u8>,
}

impl ComputeState {
    /// Forgets what the stream has programmed (after secondaries ran).
    pub fn invalidate(&mut self) {
        self.emitted_program = None;
    }
}

/// Where a dispatch's work group count comes from.
enum Groups {
    Direct { base: [u32; 3], count: [u32; 3] },
    Indirect { iova: u64 },
}

impl Recording {
    /// Loads the const file: push constants and driver parameters where the
    /// compiler placed them. For an indirect dispatch the work group count
    /// is copied from the indirect buffer into the const image by the CP
    /// (CP_MEM_TO_MEM), and the image is then loaded from memory.
    fn emit_consts(
        &mut self,
        w: &mut PacketWriter,
        consts: &ConstLayout,
        groups: &Groups,
    ) -> VkResult<()> {
        if consts.dwords == 0 {
            return Ok(());
        }
        let mut image = vec![0u32; consts.dwords.next_multiple_of(4) as usize];
        if let Some((at, n)) = consts.push_constants {
            for (i, slot) in image
                .iter_mut()
                .skip(at as usize)
                .take(n as usize)
                .enumerate()
            {
                let mut bytes = [0u8; 4];
                for (j, b) in bytes.iter_mut().enumerate() {
                    *b = self
                        .compute
                        .push_constants
                        .get(i * 4 + j)
                        .copied()
                        .unwrap_or(0);
                }
                *slot = u32::from_le_bytes(bytes);
            }
        }
        for (param, dword) in &consts.driver_params {
            let value = match (param, groups) {
                (DriverParam::NumWorkgroups(c), Groups::Direct { count, .. }) => {
                    count[usize::from(*c)]
                }
                (DriverParam::BaseWorkgroup(c), Groups::Direct { base, .. }) => {
                    base[usize::from(*c)]
                }
                // Filled from the indirect buffer below; an indirect
                // dispatch has no base.
                (_, Groups::Indirect { .. }) => 0,
            };
            if let Some(slot) = image.get_mut(*dword as usize) {
                *slot = value;
            }
        }
        match groups {
            Groups::Direct { .. } => load_consts(w, 0, &image),
            Groups::Indirect { iova } => {
                let at = self.upload.upload(&image, 16)?;
                for (param, dword) in &consts.driver_params {
                    if let DriverParam::NumWorkgroups(c) = param {
                        copy_memory(
                            w,
                            at + u64::from(*dword) * 4,
                            iova + u64::from(*c) * 4,
                            false,
                        )?;
                    }
                }
                w.packet(Opcode::CP_WAIT_FOR_ME, &[]);
                let units = (image.len() / 4) as u32;
                load_cs_state(
                    w,
                    A6xxStateType::ST6_CONSTANTS,
                    0,
                    units,
                    Source::Indirect(at),
                )
            }
        }
    }

    /// `vkCmdBindPipeline` (compute).
    pub fn bind_compute_pipeline(&mut self, pipeline: Arc<ComputePipeline>) -> VkResult<()> {
        self.compute.pipeline = Some(pipeline);
        Ok(())
    }

    /// `vkCmdBindDescriptorSets` (compute): sets with dynamic buffers are
    /// copied with their offsets applied, since one set may be bound with
    /// different offsets in different places.
    pub fn bind_descriptor_sets(
        &mut self,
        layout: &PipelineLayout,
        first_set: u32,
        sets: &[Arc<DescriptorSet>],
        dynamic_offsets: &[u32],
    ) -> VkResult<()> {
        let end = first_set as usize + sets.len();
        if end > layout.sets.len() || end > MAX_SETS as usize {
            eprintln!(
                "parsnip: vkCmdBindDescriptorSets: sets {first_set}..{end} are not all in the \
                 pipeline layout's {} sets",
                layout.sets.len()
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let wanted: u32 = sets.iter().map(|s| s.layout.dynamic_count).sum();
        if wanted as usize != dynamic_offsets.len() {
            eprintln!(
                "parsnip: vkCmdBindDescriptorSets: {} dynamic offsets for {wanted} dynamic descriptors",
                dynamic_offsets.len()
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let mut offsets = dynamic_offsets;
        for (i, set) in sets.iter().enumerate() {
            let index = first_set as usize + i;
            let n = set.layout.dynamic_count as usize;
            let iova = if n == 0 {
                set.iova()
            } else {
                let (mine, rest) = offsets.split_at(n);
                offsets = rest;
                let dwords = set.with_dynamic_offsets(mine)?;
                self.upload
                    .upload(&dwords, crate::limits::DESCRIPTOR_SIZE)?
            };
            self.compute.sets[index] = Some(BoundSet { iova });
            self.keep(set.clone());
        }
        Ok(())
    }

    /// `vkCmdPushConstants`.
    pub fn push_constants(&mut self, offset: u32, bytes: &[u8]) -> VkResult<()> {
        let end = offset as usize + bytes.len();
        if end > MAX_PUSH_CONSTANTS_SIZE as usize {
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        if self.compute.push_constants.len() < end {
            self.compute.push_constants.resize(end, 0);
        }
        self.compute.push_constants[offset as usize..end].copy_from_slice(bytes);
        Ok(())
    }

    /// `vkCmdDispatchBase` (`vkCmdDispatch` has a zero base).
    pub fn dispatch(&mut self, base: [u32; 3], count: [u32; 3]) -> VkResult<()> {
        if count.contains(&0) {
            return Ok(());
        }
        if count.iter().any(|&c| c > MAX_WORKGROUP_COUNT) {
            eprintln!("parsnip: vkCmdDispatch: {count:?} work groups exceed the limit");
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        self.emit_dispatch(Groups::Direct { base, count })
    }

    /// `vkCmdDispatchIndirect`.
    pub fn dispatch_indirect(&mut self, buffer: &Arc<Buffer>, offset: u64) -> VkResult<()> {
        self.keep(buffer.clone());
        let iova = buffer.iova(offset);
        self.emit_dispatch(Groups::Indirect { iova })
    }

    fn emit_dispatch(&mut self, groups: Groups) -> VkResult<()> {
        let Some(pipeline) = self.compute.pipeline.clone() else {
            eprintln!("parsnip: dispatch with no compute pipeline bound");
            return Err(vk::Result::ERROR_UNKNOWN);
        };
        self.flush_pending()?;
        let chip = self.device.gpu.chip();
        let mut w = PacketWriter::new(chip);
        if self.compute.emitted_program != Some(pipeline.program_iova) {
            call_ib(&mut w, pipeline.program_iova, pipeline.program_dwords)?;
            self.compute.emitted_program = Some(pipeline.program_iova);
            self.keep(pipeline.clone());
        }
        let binary = &pipeline.binary;
        self.emit_consts(&mut w, &binary.consts, &groups)?;
        let mut bases = 0u32;
        for (i, set) in self.compute.sets.iter().enumerate() {
            let Some(set) = set else { continue };
            let descriptor = regs::SpCsBindlessBaseDescriptor {
                desc_size: A6xxBindlessDescriptorSize::BINDLESS_DESCRIPTOR_64B,
                addr: set.iova,
            };
            w.array_reg(&descriptor, i as u32)?;
            if chip == Chip::A6xx {
                w.array_reg(
                    &regs::HlsqCsBindlessBaseDescriptor {
                        desc_size: A6xxBindlessDescriptorSize::BINDLESS_DESCRIPTOR_64B,
                        addr: set.iova,
                    },
                    i as u32,
                )?;
            }
            bases |= 1 << i;
        }
        if bases != 0 {
            let all = super::init_state::all_bindless_bases(chip);
            super::init_state::hlsq_invalidate_bindless(&mut w, all)?;
        }
        let marker = match chip {
            Chip::A6xx => field(
                "CP_SET_MARKER",
                parsnip_registers::packets::a6xx::CpSetMarkerDw0 {
                    marker_mode: SetMarkerMode::SET_RENDER_MODE,
                    mode: A6xxMarker::RM6_COMPUTE,
                    ..Default::default()
                }
                .try_to_raw(),
            )?,
            Chip::A7xx => field(
                "CP_SET_MARKER",
                parsnip_registers::packets::a7xx::CpSetMarkerDw0 {
                    marker_mode: SetMarkerMode::SET_RENDER_MODE,
                    mode: A6xxMarker::RM6_COMPUTE,
                    ..Default::default()
                }
                .try_to_raw(),
            )?,
        };
        w.packet(Opcode::CP_SET_MARKER, &[marker]);

        // The base work group of vkCmdDispatchBase reaches the shader as a
        // driver parameter the shader adds (as ir3 does for Turnip), so the
        // NDRANGE global offsets stay 0. An indirect dispatch's size is the
        // CP's to fill in.
        let local = binary.local_size;
        let global = match groups {
            Groups::Direct { count, .. } => [0, 1, 2].map(|i| local[i] * count[i]),
            Groups::Indirect { .. } => [0; 3],
        };
        let offset = [0u32; 3];
        w.reg(&regs::HlsqCsNdrange0 {
            kerneldim: 3,
            localsizex: local[0] - 1,
            localsizey: local[1] - 1,
            localsizez: local[2] - 1,
        })?;
        w.reg(&regs::HlsqCsNdrange1 {
            globalsize_x: global[0],
        })?;
        w.reg(&regs::HlsqCsNdrange2 {
            globaloff_x: offset[0],
        })?;
        w.reg(&regs::HlsqCsNdrange3 {
            globalsize_y: global[1],
        })?;
        w.reg(&regs::HlsqCsNdrange4 {
            globaloff_y: offset[1],
        })?;
        w.reg(&regs::HlsqCsNdrange5 {
            globalsize_z: global[2],
        })?;
        w.reg(&regs::HlsqCsNdrange6 {
            globaloff_z: offset[2],
        })?;
        if chip == Chip::A7xx {
            w.reg(&regs::HlsqCsLastLocalSize {
                localsizex: local[0] - 1,
                localsizey: local[1] - 1,
                localsizez: local[2] - 1,
            })?;
        }
        match groups {
            Groups::Direct { count, .. } => {
                w.packet(Opcode::CP_EXEC_CS, &[0, count[0], count[1], count[2]]);
            }
            Groups::Indirect { iova } => {
                let [lo, hi] = PacketWriter::split(iova);
                let sizes = field(
                    "CP_EXEC_CS_INDIRECT",
                    CpExecCsIndirectDw3 {
                        localsizex: local[0] - 1,
                        localsizey: local[1] - 1,
                        localsizez: local[2] - 1,
                    }
                    .try_to_raw(),
                )?;
                w.packet(Opcode::CP_EXEC_CS_INDIRECT, &[0, lo, hi, sizes]);
            }
        }
        self.cs.append(&w)?;
        if self.device.debug.syncdispatch {
            self.emit_cache_ops(super::cache::CacheOps::all())?;
        }
        Ok(())
    }
}
