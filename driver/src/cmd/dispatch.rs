//! Compute state and dispatches: binding pipelines, descriptor sets and push
//! constants, and the packets of a dispatch (after Turnip's compute
//! streams, compute.log for a660 and a740):
//!
//! - the pipeline's program state, built once at pipeline creation, as
//!   the compute program's draw-state group when the pipeline changes;
//! - the const file: driver parameters (work group count and base), push
//!   constants and the shader's immediates, loaded with CP_LOAD_STATE6
//!   (for an indirect dispatch the count comes straight from the indirect
//!   buffer, with an indirect-source load);
//! - SP_CS_BINDLESS_BASE[set] (and HLSQ_CS_BINDLESS_BASE on a6xx) for each
//!   bound set, 64-byte descriptors, then HLSQ_INVALIDATE_CMD of those
//!   bases;
//! - CP_SET_MARKER RM6_COMPUTE, HLSQ_CS_NDRANGE_* (and
//!   HLSQ_CS_LAST_LOCAL_SIZE on a7xx), CP_EXEC_CS / CP_EXEC_CS_INDIRECT.
//!
//! The recording remembers what the stream has programmed and emits only
//! what changed; everything is written straight into the stream's chunk.
//! Binds and push constants only record state: dispatches emit it.

use parsnip_hw_state::descriptors::BindPoint;
use parsnip_hw_state::PacketSink as _;
use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::{A6xxMarker, A6xxStateType, SetMarkerMode};
use parsnip_registers::packets::CpExecCsIndirectDw3;
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs::{self, Register};
use parsnip_registers::Chip;

use super::buffer::Recording;
use super::descriptor_bindings::{BoundSet, DescriptorBindings, EMIT_DWORDS as DESCRIPTOR_DWORDS};
use super::draw_state::{set_group, StateGroup, StateIb, SET_GROUP_DWORDS};
use super::load_state::{load_cs_state, load_cs_state_header, Source, LOAD_STATE_DWORDS};
use super::packets::{copy_memory, field, PacketSink, PacketWriter};
use super::stream::Reserved;
use crate::buffer::Buffer;
use crate::error::{internal, VkResult};
use crate::limits::{MAX_PUSH_CONSTANTS_SIZE, MAX_WORKGROUP_COUNT};
use crate::pipeline::binary::{ConstLayout, DriverParam};
use crate::pipeline::compute::ComputePipeline;

const PUSH_DWORDS: usize = MAX_PUSH_CONSTANTS_SIZE as usize / 4;

/// What the stream has programmed since the recording began, so that a
/// dispatch emits only what differs. `None` is "unknown": emit it.
#[derive(Clone, Default)]
struct Programmed {
    /// The program group's IB, and what dispatches derive from the
    /// pipeline, worked out once when it is first emitted.
    program: Option<StateIb>,
    facts: ProgramFacts,
    /// CP_SET_MARKER RM6_COMPUTE is the render mode.
    compute_mode: bool,
    /// HLSQ_CS_NDRANGE_0..6's values.
    ndrange: Option<[u32; 7]>,
    /// The const file as the last direct dispatch loaded it: the program
    /// and the work groups it was for (push constants changing clears it).
    consts: Option<(StateIb, [u32; 3], [u32; 3])>,
}

/// What each dispatch of a pipeline writes the same.
#[derive(Clone, Copy, Default)]
struct ProgramFacts {
    /// The CP_LOAD_STATE6 header of a direct load of the const image.
    load_consts: [u32; LOAD_STATE_DWORDS],
    /// HLSQ_CS_NDRANGE_0 (and HLSQ_CS_LAST_LOCAL_SIZE) for the local size.
    ndrange0: u32,
    last_local_size: u32,
}

impl ProgramFacts {
    fn of(local: &[u32; 3], image_dwords: usize) -> VkResult<ProgramFacts> {
        let units = (image_dwords / 4) as u32;
        let load_consts = load_cs_state_header(
            A6xxStateType::ST6_CONSTANTS,
            0,
            units,
            &Source::Inline(image_dwords),
        )?;
        let size = |what, e| internal(what, e);
        let ndrange0 = regs::HlsqCsNdrange0 {
            kerneldim: 3,
            localsizex: local[0] - 1,
            localsizey: local[1] - 1,
            localsizez: local[2] - 1,
        }
        .try_to_raw()
        .map_err(|e| size("encoding HLSQ_CS_NDRANGE_0", e))?;
        let last_local_size = regs::HlsqCsLastLocalSize {
            localsizex: local[0] - 1,
            localsizey: local[1] - 1,
            localsizez: local[2] - 1,
        }
        .try_to_raw()
        .map_err(|e| size("encoding HLSQ_CS_LAST_LOCAL_SIZE", e))?;
        Ok(ProgramFacts {
            load_consts,
            ndrange0,
            last_local_size,
        })
    }
}

pub struct ComputeState {
    pub pipeline: Option<Arc<ComputePipeline>>,
    /// The descriptor sets of the compute bind point.
    pub descriptors: DescriptorBindings,
    /// Push constants as the const file holds them (the spec keeps
    /// offsets and sizes multiples of 4).
    pub push_constants: [u32; PUSH_DWORDS],
    programmed: Programmed,
    /// The pipelines dispatched, kept alive while the recorded commands
    /// are. Each once: a command buffer uses few, and rebinding one must
    /// cost nothing.
    pipelines: Vec<Arc<ComputePipeline>>,
}

/// Adds `object` to `list` unless it is there.
fn keep_once<T>(list: &mut Vec<Arc<T>>, object: &Arc<T>) {
    if !list.iter().any(|o| Arc::ptr_eq(o, object)) {
        list.push(object.clone());
    }
}

impl Default for ComputeState {
    fn default() -> Self {
        ComputeState {
            pipeline: None,
            descriptors: DescriptorBindings::default(),
            push_constants: [0; PUSH_DWORDS],
            programmed: Programmed::default(),
            pipelines: Vec::new(),
        }
    }
}

impl ComputeState {
    /// Forgets what the stream has programmed (after secondaries ran).
    pub fn invalidate(&mut self) {
        self.programmed = Programmed::default();
        self.descriptors.invalidate();
    }

    /// Back to a new command buffer's state, keeping the lists' memory.
    pub fn reset(&mut self) {
        self.pipeline = None;
        self.descriptors.reset();
        self.push_constants = [0; PUSH_DWORDS];
        self.programmed = Programmed::default();
        self.pipelines.clear();
    }
}

/// Where a dispatch's work group count comes from.
#[derive(Clone, Copy)]
enum Groups {
    Direct { base: [u32; 3], count: [u32; 3] },
    Indirect { iova: u64 },
}

/// Fills the const image: push constants and driver parameters where the
/// compiler placed them, zeros elsewhere.
fn fill_consts(image: &mut [u32], consts: &ConstLayout, push: &[u32], groups: Groups) {
    image.fill(0);
    copy_push_constants(image, consts, push);
    for (param, dword) in &consts.driver_params {
        let value = match (param, groups) {
            (DriverParam::NumWorkgroups(c), Groups::Direct { count, .. }) => count[usize::from(*c)],
            (DriverParam::BaseWorkgroup(c), Groups::Direct { base, .. }) => base[usize::from(*c)],
            // A compute shader reads no draw parameters.
            (DriverParam::BaseVertex | DriverParam::BaseInstance | DriverParam::ViewIndex, _) => 0,
            // Filled from the indirect buffer by the CP; an indirect
            // dispatch has no base.
            (_, Groups::Indirect { .. }) => 0,
        };
        if let Some(slot) = image.get_mut(*dword as usize) {
            *slot = value;
        }
    }
}

/// Copies the push constants into a const image where the compiler
/// placed them (any stage's).
pub(crate) fn copy_push_constants(image: &mut [u32], consts: &ConstLayout, push: &[u32]) {
    if let Some((at, n)) = consts.push_constants {
        let at = (at as usize).min(image.len());
        let n = (n as usize).min(image.len() - at).min(push.len());
        image[at..at + n].copy_from_slice(&push[..n]);
    }
}

/// CP_SET_MARKER RM6_COMPUTE's payload on `chip`.
fn compute_marker(chip: Chip) -> VkResult<u32> {
    let raw = match chip {
        Chip::A6xx => parsnip_registers::packets::a6xx::CpSetMarkerDw0 {
            marker_mode: SetMarkerMode::SET_RENDER_MODE,
            mode: A6xxMarker::RM6_COMPUTE,
            ..Default::default()
        }
        .try_to_raw(),
        Chip::A7xx => parsnip_registers::packets::a7xx::CpSetMarkerDw0 {
            marker_mode: SetMarkerMode::SET_RENDER_MODE,
            mode: A6xxMarker::RM6_COMPUTE,
            ..Default::default()
        }
        .try_to_raw(),
    };
    field("CP_SET_MARKER", raw)
}

/// HLSQ_CS_NDRANGE_0..6 for `local`-sized groups making `global`
/// invocations, as one packet (the registers are consecutive).
fn ndrange(w: &mut impl PacketSink, values: &[u32; 7]) -> VkResult<()> {
    let chip = w.chip();
    let what = |e| internal("encoding HLSQ_CS_NDRANGE", e);
    let [r0, r1, r2, r3, r4, r5, r6] = *values;
    let writes = [
        regs::HlsqCsNdrange0::from_raw(r0).write(chip),
        regs::HlsqCsNdrange1 { globalsize_x: r1 }.write(chip),
        regs::HlsqCsNdrange2 { globaloff_x: r2 }.write(chip),
        regs::HlsqCsNdrange3 { globalsize_y: r3 }.write(chip),
        regs::HlsqCsNdrange4 { globaloff_y: r4 }.write(chip),
        regs::HlsqCsNdrange5 { globalsize_z: r5 }.write(chip),
        regs::HlsqCsNdrange6 { globaloff_z: r6 }.write(chip),
    ];
    let mut out = [regs::RegWrite {
        offset: 0,
        value: 0,
        is_64: false,
    }; 7];
    for (o, w) in out.iter_mut().zip(writes) {
        *o = w.map_err(what)?;
    }
    w.writes(&out);
    Ok(())
}

impl Recording {
    /// `vkCmdBindPipeline` (compute).
    pub fn bind_compute_pipeline(&mut self, pipeline: Arc<ComputePipeline>) -> VkResult<()> {
        // Kept once dispatched: binding alone programs nothing.
        self.compute.pipeline = Some(pipeline);
        Ok(())
    }

    /// `vkCmdPushConstants` (offset and size are multiples of 4).
    pub fn push_constants(&mut self, offset: u32, bytes: &[u8]) -> VkResult<()> {
        let first = offset as usize / 4;
        let words = self
            .compute
            .push_constants
            .get_mut(first..first + bytes.len() / 4)
            .filter(|_| offset.is_multiple_of(4) && bytes.len().is_multiple_of(4))
            .ok_or(vk::Result::ERROR_UNKNOWN)?;
        for (w, b) in words.iter_mut().zip(bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        self.compute.programmed.consts = None;
        self.graphics.push_constants_changed();
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

    /// A dispatch of the driver's own `pipeline`, reading `set` and
    /// `params` as its push constants, with the application's bound state
    /// put back afterwards (and emitted again at its next dispatch).
    pub fn internal_dispatch_with(
        &mut self,
        pipeline: Arc<ComputePipeline>,
        set: BoundSet,
        params: &[u32],
        groups: u32,
    ) -> VkResult<()> {
        let internal = crate::limits::INTERNAL_SET as usize;
        let mut push = [0u32; PUSH_DWORDS];
        let n = params.len().min(PUSH_DWORDS);
        push[..n].copy_from_slice(&params[..n]);
        let saved_pipeline = self.compute.pipeline.replace(pipeline);
        let saved_push = std::mem::replace(&mut self.compute.push_constants, push);
        self.compute.descriptors.bind(internal, set);
        self.compute.programmed.consts = None;
        let result = self.dispatch([0; 3], [groups, 1, 1]);
        self.compute.descriptors.unbind(internal);
        self.compute.pipeline = saved_pipeline;
        self.compute.push_constants = saved_push;
        self.compute.programmed.consts = None;
        result
    }

    fn emit_dispatch(&mut self, groups: Groups) -> VkResult<()> {
        self.flush_pending()?;
        let Recording {
            compute: state,
            cs,
            upload,
            ..
        } = self;
        let Some(pipeline) = &state.pipeline else {
            eprintln!("parsnip: dispatch with no compute pipeline bound");
            return Err(vk::Result::ERROR_UNKNOWN);
        };
        let consts = &pipeline.binary.consts;
        let image_dwords = consts.dwords.next_multiple_of(4) as usize;
        // An indirect dispatch's const image goes through memory the CP
        // fills in first.
        let indirect_image = match groups {
            Groups::Indirect { iova } if image_dwords > 0 => {
                let (at, image) = upload.alloc(image_dwords, 16)?;
                fill_consts(image, consts, &state.push_constants, groups);
                Some((at, iova))
            }
            _ => None,
        };
        // Everything below, at its largest: the program group, the const
        // load (inline image, or a CP_MEM_TO_MEM per work group count and
        // a CP_WAIT_FOR_ME), the bindless bases and their invalidation, the marker, NDRANGE, LAST_LOCAL_SIZE, CP_EXEC_CS.
        let reserve = SET_GROUP_DWORDS
            + LOAD_STATE_DWORDS
            + image_dwords
            + consts.driver_params.len() * 6
            + 1
            + DESCRIPTOR_DWORDS
            + 2
            + 8
            + 2
            + 5;
        let chip = cs.chip();
        let program = StateIb {
            iova: pipeline.program_iova,
            dwords: pipeline.program_dwords,
        };
        let local = pipeline.binary.local_size;
        // A pipeline is kept alive once its program is first emitted.
        let keep = (state.programmed.program != Some(program)).then(|| pipeline.clone());
        cs.emit(reserve, |w| {
            if state.programmed.program != Some(program) {
                set_group(w, StateGroup::ComputeProgram, program, true)?;
                state.programmed.facts = ProgramFacts::of(&local, image_dwords)?;
                state.programmed.program = Some(program);
            }
            emit_consts(w, state, program, image_dwords, groups, indirect_image)?;
            state.descriptors.emit(w, BindPoint::Compute)?;
            if !state.programmed.compute_mode {
                w.packet(Opcode::CP_SET_MARKER, &[compute_marker(chip)?]);
                state.programmed.compute_mode = true;
            }
            emit_grid(w, state, &local, groups)
        })?;
        if let Some(pipeline) = keep {
            keep_once(&mut self.compute.pipelines, &pipeline);
        }
        if self.device.debug.syncdispatch {
            self.emit_cache_ops(super::cache::CacheOps::all())?;
        }
        Ok(())
    }
}

/// Loads the const file, when the shader reads one and what it holds
/// changed. For an indirect dispatch the work group count is copied from
/// the indirect buffer into the const image by the CP (CP_MEM_TO_MEM), and
/// the image is then loaded from memory.
fn emit_consts(
    w: &mut Reserved<'_>,
    state: &mut ComputeState,
    program: StateIb,
    image_dwords: usize,
    groups: Groups,
    indirect_image: Option<(u64, u64)>,
) -> VkResult<()> {
    let Some(pipeline) = &state.pipeline else {
        return Ok(());
    };
    let consts = &pipeline.binary.consts;
    if image_dwords == 0 {
        return Ok(());
    }
    let units = (image_dwords / 4) as u32;
    match (groups, indirect_image) {
        (Groups::Direct { base, count }, _) => {
            let key = (program, base, count);
            if state.programmed.consts == Some(key) {
                return Ok(());
            }
            w.push_all(&state.programmed.facts.load_consts);
            let image = w.take(image_dwords);
            fill_consts(image, consts, &state.push_constants, groups);
            state.programmed.consts = Some(key);
        }
        (Groups::Indirect { .. }, Some((at, iova))) => {
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
            load_cs_state(
                w,
                A6xxStateType::ST6_CONSTANTS,
                0,
                units,
                Source::Indirect(at),
            )?;
            state.programmed.consts = None;
        }
        (Groups::Indirect { .. }, None) => {}
    }
    Ok(())
}

/// HLSQ_CS_NDRANGE (when it changed), HLSQ_CS_LAST_LOCAL_SIZE on a7xx, and
/// CP_EXEC_CS.
///
/// The base work group of vkCmdDispatchBase reaches the shader as a driver
/// parameter the shader adds (as ir3 does for Turnip), so the NDRANGE
/// global offsets stay 0. An indirect dispatch's size is the CP's to fill
/// in.
fn emit_grid(
    w: &mut impl PacketSink,
    state: &mut ComputeState,
    local: &[u32; 3],
    groups: Groups,
) -> VkResult<()> {
    let global = match groups {
        Groups::Direct { count, .. } => [0, 1, 2].map(|i| local[i] * count[i]),
        Groups::Indirect { .. } => [0; 3],
    };
    let facts = state.programmed.facts;
    let values = [facts.ndrange0, global[0], 0, global[1], 0, global[2], 0];
    if state.programmed.ndrange != Some(values) {
        ndrange(w, &values)?;
        if w.chip() == Chip::A7xx {
            w.reg(&regs::HlsqCsLastLocalSize::from_raw(facts.last_local_size))?;
        }
        state.programmed.ndrange = Some(values);
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
            // The CP wrote NDRANGE's sizes: not what is remembered.
            state.programmed.ndrange = None;
        }
    }
    Ok(())
}
