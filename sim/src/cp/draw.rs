//! The draw packets: CP_DRAW_INDX_OFFSET, CP_DRAW_INDIRECT,
//! CP_DRAW_INDX_INDIRECT, CP_DRAW_INDIRECT_MULTI and CP_DRAW_AUTO, and
//! CP_SET_VISIBILITY_OVERRIDE.
//!
//! Each decodes its draw initiator (adreno_pm4.xml's
//! vgt_draw_initiator_a4xx) and counts, runs the pending draw state groups
//! and hands the draw to the primitive controller. The indirect forms read
//! their Vulkan-layout commands from memory ({vertexCount, instanceCount,
//! firstVertex, firstInstance}; the indexed {indexCount, instanceCount,
//! firstIndex, vertexOffset, firstInstance}) and program
//! VFD_INDEX_OFFSET and VFD_INSTANCE_START_OFFSET from them, as the
//! firmware does: Turnip re-emits those registers after every indirect
//! draw (tu_cmd_buffer.cc, tu6_emit_empty_vs_params). CP_DRAW_INDIRECT_MULTI
//! with a non-zero DST_OFF also writes the draw's {draw index, vertex
//! offset, first instance, 0} to that vec4 of the vertex shader's consts,
//! which is where Turnip's direct draws load them (tu6_emit_vs_params),
//! and its INDIRECT_COUNT forms draw min(DRAW_COUNT, the count in memory).
//!
//! A draw in a binning pass is binned, not drawn, and bin rendering skips
//! the draws the visibility stream says a bin does not see (both in
//! `binning`); where the RB writes (memory or GMEM) is the RB's business.

use parsnip_registers::enums::{A6xxDrawIndirectOpcode as Op, PcDiSrcSel, PcDiVisCullMode};
use parsnip_registers::packets::{
    CpDrawIndirectMultiDw1, CpDrawIndxOffsetDw0, CpSetVisibilityOverrideDw0,
};
use parsnip_registers::regs::{self, Register};
use parsnip_registers::Chip;

use super::state_blocks::Stage;
use super::CommandProcessor;
use crate::draw_context::{DrawContext, DrawError};
use crate::pc::{run_draw, DrawCall, IndexSize, IndexSource};
use crate::report::{ErrorKind, GpuError, HangCause, ShaderFailure, StreamProblem};

/// Vulkan's indirect commands: dwords in VkDrawIndirectCommand and
/// VkDrawIndexedIndirectCommand.
const DRAW_COMMAND: usize = 4;
const INDEXED_COMMAND: usize = 5;

fn addr(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | u64::from(hi) << 32
}

impl CommandProcessor<'_> {
    pub(super) fn set_visibility_override(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        self.cp.visibility_override = CpSetVisibilityOverrideDw0::from_raw(payload[0]).r#override;
        Ok(())
    }

    /// The draw initiator's primitive type, index source and flags (the
    /// same dword leads every draw packet).
    fn initiator(
        &self,
        dw0: u32,
        first: u32,
        dma: Option<(u64, u32)>,
    ) -> Result<DrawCall, GpuError> {
        let d = CpDrawIndxOffsetDw0::from_raw(dw0);
        let source = match d.source_select {
            PcDiSrcSel::DI_SRC_SEL_AUTO_INDEX | PcDiSrcSel::DI_SRC_SEL_AUTO_XFB => {
                IndexSource::Auto { first }
            }
            PcDiSrcSel::DI_SRC_SEL_DMA => {
                let Some(size) = IndexSize::from_field(d.index_size) else {
                    return Err(self.bad_payload("an index size of 3, which names no size"));
                };
                let Some((base, max)) = dma else {
                    return Err(self.bad_payload("indices from memory without an index buffer"));
                };
                IndexSource::Dma {
                    base,
                    size,
                    first,
                    max,
                }
            }
            _ => {
                return Err(self.stream_error(StreamProblem::NotModelled {
                    what: "indices in the packet (DI_SRC_SEL_IMMEDIATE) are not modelled".into(),
                }))
            }
        };
        Ok(DrawCall {
            primitive: d.prim_type,
            source,
            count: 0,
            instances: 0,
            geometry: d.gs_enable,
            tessellation: d.tess_enable,
            uses_visibility: d.vis_cull == PcDiVisCullMode::USE_VISIBILITY,
        })
    }

    /// CP_DRAW_INDX_OFFSET: counts in the packet; indices from memory need
    /// the first index, the buffer and its length.
    pub(super) fn draw_indx_offset(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let dma =
            CpDrawIndxOffsetDw0::from_raw(payload[0]).source_select == PcDiSrcSel::DI_SRC_SEL_DMA;
        if dma {
            self.need(payload, 7)?;
        }
        let first = payload.get(3).copied().unwrap_or(0);
        let buffer = dma.then(|| (addr(payload[4], payload[5]), payload[6]));
        let mut call = self.initiator(payload[0], first, buffer)?;
        call.instances = payload[1];
        call.count = payload[2];
        self.draw(&call)
    }

    /// CP_DRAW_INDIRECT: one non-indexed draw from memory.
    pub(super) fn draw_indirect(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let cmd = addr(payload[1], payload[2]);
        let call = self.initiator(payload[0], 0, None)?;
        self.indirect_draw(call, cmd, false, 0, None)
    }

    /// CP_DRAW_INDX_INDIRECT: one indexed draw from memory.
    pub(super) fn draw_indx_indirect(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 6)?;
        let buffer = (addr(payload[1], payload[2]), payload[3]);
        let cmd = addr(payload[4], payload[5]);
        let call = self.initiator(payload[0], 0, Some(buffer))?;
        self.indirect_draw(call, cmd, true, 0, None)
    }

    /// CP_DRAW_INDIRECT_MULTI: DRAW_COUNT (or fewer) draws from memory.
    pub(super) fn draw_indirect_multi(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let dw1 = CpDrawIndirectMultiDw1::from_raw(payload[1]);
        let max_count = payload[2];
        let (indexed, counted) = match dw1.opcode {
            Op::INDIRECT_OP_NORMAL => (false, false),
            Op::INDIRECT_OP_INDEXED => (true, false),
            Op::INDIRECT_OP_INDIRECT_COUNT => (false, true),
            Op::INDIRECT_OP_INDIRECT_COUNT_INDEXED => (true, true),
            other => {
                return Err(self.bad_payload(format!(
                    "CP_DRAW_INDIRECT_MULTI opcode {:#x} is not one the CP has",
                    other.0
                )))
            }
        };
        // The layout per opcode (adreno_pm4.xml): [index base, max
        // indices,] indirect, [count address,] stride.
        let mut at = 3;
        let mut take = |n: usize| -> Result<&[u32], GpuError> {
            let s = payload
                .get(at..at + n)
                .ok_or_else(|| self.bad_payload("CP_DRAW_INDIRECT_MULTI payload too short"))?;
            at += n;
            Ok(s)
        };
        let buffer = if indexed {
            let b = take(3)?;
            Some((addr(b[0], b[1]), b[2]))
        } else {
            None
        };
        let i = take(2)?;
        let cmds = addr(i[0], i[1]);
        let count_addr = if counted {
            let c = take(2)?;
            Some(addr(c[0], c[1]))
        } else {
            None
        };
        let stride = u64::from(take(1)?[0]);
        let count = match count_addr {
            Some(a) => self.read_u32(a)?.min(max_count),
            None => max_count,
        };
        let template = self.initiator(payload[0], 0, buffer)?;
        for draw in 0..count {
            let params = (dw1.dst_off != 0).then_some(dw1.dst_off);
            self.indirect_draw(
                template,
                cmds + u64::from(draw) * stride,
                indexed,
                draw,
                params,
            )?;
        }
        Ok(())
    }

    /// One draw from the Vulkan indirect command at `cmd`.
    fn indirect_draw(
        &mut self,
        mut call: DrawCall,
        cmd: u64,
        indexed: bool,
        draw: u32,
        params: Option<u32>,
    ) -> Result<(), GpuError> {
        let c = self.read_dwords(
            cmd,
            if indexed {
                INDEXED_COMMAND
            } else {
                DRAW_COMMAND
            },
        )?;
        let (vertex_offset, first_instance) = if indexed {
            call.count = c[0];
            call.instances = c[1];
            if let IndexSource::Dma { first, .. } = &mut call.source {
                *first = c[2];
            }
            (c[3], c[4])
        } else {
            call.count = c[0];
            call.instances = c[1];
            (c[2], c[3])
        };
        self.write_typed(regs::VfdIndexOffset(vertex_offset))?;
        self.write_typed(regs::VfdInstanceStartOffset(first_instance))?;
        if let Some(vec4) = params {
            let consts = &mut self.cp.state.stages[Stage::Vs as usize].consts;
            let at = vec4 as usize * 4;
            if at + 4 > consts.len() {
                return Err(self.bad_payload(format!(
                    "CP_DRAW_INDIRECT_MULTI DST_OFF {vec4} is past the const file"
                )));
            }
            consts[at..at + 4].copy_from_slice(&[draw, vertex_offset, first_instance, 0]);
        }
        self.draw(&call)
    }

    /// CP_DRAW_AUTO: a transform feedback draw, its vertex count the
    /// stream's byte counter in memory less an offset, over the vertex
    /// stride. On a7xx counter and offset are in dwords ("the counter value
    /// and offset are shifted right by 2", Turnip's
    /// tu_CmdDrawIndirectByteCountEXT), and so is the stride.
    pub(super) fn draw_auto(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 6)?;
        let mut call = self.initiator(payload[0], 0, None)?;
        let counter = self.read_u32(addr(payload[2], payload[3]))?;
        let (value, offset) = match self.chip() {
            Chip::A6xx => (counter, payload[4]),
            Chip::A7xx => (counter >> 2, payload[4] >> 2),
        };
        let stride = payload[5];
        if stride == 0 {
            return Err(self.bad_payload("CP_DRAW_AUTO with a stride of 0"));
        }
        call.instances = payload[1];
        call.count = value.saturating_sub(offset) / stride;
        self.draw(&call)
    }

    /// A register write the CP itself makes.
    fn write_typed<R: Register>(&mut self, r: R) -> Result<(), GpuError> {
        let w = r
            .write(self.chip())
            .map_err(|e| self.bad_payload(e.to_string()))?;
        for (i, d) in w.dwords().enumerate() {
            self.write_register(w.offset + i as u32, d);
        }
        Ok(())
    }

    /// Runs the pending draw state, then the draw.
    fn draw(&mut self, call: &DrawCall) -> Result<(), GpuError> {
        self.run_pending_draw_state()?;
        if self.in_binning_pass() {
            return self.binning_draw(call);
        }
        if call.uses_visibility && !self.cp.visibility_override && !self.bin_sees_draw()? {
            self.stats.skipped_draws += 1;
            return Ok(());
        }
        let index = self.stats.draws;
        self.stats.draws += 1;
        let ctx = self.draw_context(index);
        match run_draw(&ctx, call) {
            Ok(stats) => {
                self.cp.counters.add_draw(&stats);
                self.stats.fragments_shaded += stats.fragment_invocations;
                self.stats.lrz_rejected += stats.lrz_rejected;
                self.observe(crate::capture::Work::Draw(index));
                Ok(())
            }
            Err(e) => Err(self.draw_error(e)),
        }
    }

    /// What the pipeline's units see of draw number `draw`.
    pub(super) fn draw_context(&self, draw: u32) -> DrawContext<'_> {
        let gpu = self.gpu;
        DrawContext {
            regs: self.regs,
            state: &self.cp.state,
            memory: gpu.unit_memory(),
            gmem: &gpu.gmem,
            ccu: gpu.ccu.as_ref(),
            info: gpu.info,
            options: &gpu.options,
            draw,
        }
    }

    pub(super) fn draw_error(&self, e: DrawError) -> GpuError {
        match e {
            DrawError::Unit { unit, problem } => self.error(ErrorKind::Unit { unit, problem }),
            DrawError::Shader(ShaderFailure::Fault { fault, at }) => self.error(ErrorKind::Fault {
                fault,
                shader: Some(Box::new(at)),
            }),
            DrawError::Shader(ShaderFailure::Hang { executed, at }) => {
                self.error(ErrorKind::Hang(HangCause::Shader { executed, at }))
            }
            DrawError::Shader(ShaderFailure::Error { message, at }) => {
                self.error(ErrorKind::Shader {
                    message,
                    at: at.map(Box::new),
                })
            }
        }
    }
}
