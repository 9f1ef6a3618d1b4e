//! The HLSQ's part of a draw: gathering each graphics stage's program and
//! the state it runs with from the SP_xS_* and HLSQ_xS_* registers and what
//! CP_LOAD_STATE6 loaded, as the command processor does for a compute
//! dispatch (`cp/compute.rs`), and where the fragment shader's inputs go.
//!
//! Registers per stage (a6xx.xml): SP_xS_CTRL_REG0 (register footprint;
//! the fragment shader's wave size), SP_xS_OBJ_START, _OBJ_FIRST_EXEC_OFFSET
//! and _INSTRLEN, SP_xS_CONFIG (enabled, bindless or not per descriptor
//! kind, counts), HLSQ_xS_CNTL (const length, enabled), SP_xS_PVT_MEM_PARAM
//! and _ADDR, SP_xS_TEX_CONST / _TEX_SAMP / _TEX_COUNT; shared by the
//! graphics stages: SP_BINDLESS_BASE[n], SP_IBO and SP_IBO_COUNT. Vertex
//! shaders run in waves of the GPU's base size (their CTRL_REG0 has no
//! THREADSIZE); the fragment shader's SP_FS_CTRL_REG0.THREADSIZE must agree
//! with HLSQ_FS_CNTL_0's.

mod shared_consts;

pub(crate) use shared_consts::shared_consts;

use parsnip_registers::enums::{A6xxTexPrefetchCmd, A6xxThreadsize};
use parsnip_registers::regs::{self, a6xx, a7xx, ArrayRegister, Register};
use parsnip_registers::Chip;

use crate::cp::{LoadedDescriptors, Stage};
use crate::draw_context::{DrawContext, DrawError};
use crate::report::Unit;
use crate::shader_state::{BindlessBase, DescriptorSource, RegId, ShaderState};
use crate::sp::fragment::{Prefetch, PrefetchOp};
use crate::sp::FragmentInputRegs;

/// Instructions per unit of SP_xS_INSTRLEN.
const INSTRLEN_UNIT: u32 = 16;

const U: Unit = Unit::Hlsq;

/// What one stage's registers say, before descriptors.
struct StageRegs {
    enabled: bool,
    config: regs::SpVsConfig,
    constlen: u32,
    full_regs: u32,
    half_regs: u32,
    merged_regs: bool,
    wave_size: u32,
    program_iova: u64,
    instrlen: u32,
    private_iova: u64,
    private_per_fiber: u32,
}

/// The vertex shader's state.
pub(crate) fn vertex_shader(ctx: &DrawContext) -> Result<ShaderState, DrawError> {
    let config = regs::SpVsConfig::from_raw(ctx.reg32::<regs::SpVsConfig>(U)?);
    let (constlen, cntl_enabled) = match ctx.chip() {
        Chip::A6xx => {
            let c = a6xx::HlsqVsCntl::from_raw(ctx.reg32::<a6xx::HlsqVsCntl>(U)?);
            (c.constlen, c.enabled)
        }
        Chip::A7xx => {
            let c = a7xx::HlsqVsCntl::from_raw(ctx.reg32::<a7xx::HlsqVsCntl>(U)?);
            (c.constlen, c.enabled)
        }
    };
    let ctrl = regs::SpVsCtrlReg0::from_raw(ctx.reg32::<regs::SpVsCtrlReg0>(U)?);
    let pvt = regs::SpVsPvtMemParam::from_raw(ctx.reg32::<regs::SpVsPvtMemParam>(U)?);
    let r = StageRegs {
        enabled: config.enabled && cntl_enabled,
        config,
        constlen,
        full_regs: ctrl.fullregfootprint,
        half_regs: ctrl.halfregfootprint,
        merged_regs: ctrl.mergedregs,
        wave_size: ctx.info.threadsize_base,
        program_iova: program::<regs::SpVsObjStart, regs::SpVsObjFirstExecOffset>(ctx)?,
        instrlen: regs::SpVsInstrlen::from_raw(ctx.reg32::<regs::SpVsInstrlen>(U)?).0,
        private_iova: private::<regs::SpVsPvtMemAddr>(ctx, pvt.memsizeperitem)?,
        private_per_fiber: pvt.memsizeperitem,
    };
    if !r.enabled {
        return Err(DrawError::bad_state(
            U,
            format!(
                "a draw with the vertex stage disabled (SP_VS_CONFIG.ENABLED={}, \
                 HLSQ_VS_CNTL.ENABLED={})",
                u8::from(config.enabled),
                u8::from(cntl_enabled)
            ),
        ));
    }
    finish::<regs::SpVsTexConst, regs::SpVsTexSamp, regs::SpVsTexCount>(ctx, &r, Stage::Vs)
}

/// The fragment shader's state and where its inputs go, or `None` when the
/// stage is disabled (a draw that only tests and writes depth and stencil).
pub(crate) fn fragment_shader(
    ctx: &DrawContext,
) -> Result<Option<(ShaderState, FragmentInputRegs)>, DrawError> {
    let config = regs::SpFsConfig::from_raw(ctx.reg32::<regs::SpFsConfig>(U)?);
    let (constlen, cntl_enabled) = match ctx.chip() {
        Chip::A6xx => {
            let c = a6xx::HlsqFsCntl::from_raw(ctx.reg32::<a6xx::HlsqFsCntl>(U)?);
            (c.constlen, c.enabled)
        }
        Chip::A7xx => {
            let c = a7xx::HlsqFsCntl::from_raw(ctx.reg32::<a7xx::HlsqFsCntl>(U)?);
            (c.constlen, c.enabled)
        }
    };
    if !config.enabled && !cntl_enabled {
        return Ok(None);
    }
    if config.enabled != cntl_enabled {
        return Err(DrawError::bad_state(
            U,
            format!(
                "SP_FS_CONFIG.ENABLED={} and HLSQ_FS_CNTL.ENABLED={} disagree",
                u8::from(config.enabled),
                u8::from(cntl_enabled)
            ),
        ));
    }
    let ctrl = regs::SpFsCtrlReg0::from_raw(ctx.reg32::<regs::SpFsCtrlReg0>(U)?);
    let cntl0 = regs::HlsqFsCntl0::from_raw(ctx.reg32::<regs::HlsqFsCntl0>(U)?);
    if cntl0.threadsize != ctrl.threadsize {
        return Err(DrawError::bad_state(
            U,
            "the THREADSIZE of SP_FS_CTRL_REG0 and HLSQ_FS_CNTL_0 differ",
        ));
    }
    let wave_size = match ctrl.threadsize {
        A6xxThreadsize::THREAD64 => ctx.info.threadsize_base,
        _ if ctx.info.supports_double_threadsize => ctx.info.threadsize_base * 2,
        _ => {
            return Err(DrawError::bad_state(
                U,
                format!(
                    "THREAD128 fragment waves on {}, which has {}-thread waves only",
                    ctx.info.name, ctx.info.threadsize_base
                ),
            ))
        }
    };
    let pvt = regs::SpFsPvtMemParam::from_raw(ctx.reg32::<regs::SpFsPvtMemParam>(U)?);
    let r = StageRegs {
        enabled: true,
        config: regs::SpVsConfig::from_raw(config.to_raw()),
        constlen,
        full_regs: ctrl.fullregfootprint,
        half_regs: ctrl.halfregfootprint,
        merged_regs: ctrl.mergedregs,
        wave_size,
        program_iova: program::<regs::SpFsObjStart, regs::SpFsObjFirstExecOffset>(ctx)?,
        instrlen: regs::SpFsInstrlen::from_raw(ctx.reg32::<regs::SpFsInstrlen>(U)?).0,
        private_iova: private::<regs::SpFsPvtMemAddr>(ctx, pvt.memsizeperitem)?,
        private_per_fiber: pvt.memsizeperitem,
    };
    let shader =
        finish::<regs::SpFsTexConst, regs::SpFsTexSamp, regs::SpFsTexCount>(ctx, &r, Stage::Fs)?;
    Ok(Some((shader, fragment_inputs(ctx)?)))
}

/// Where the hardware writes the fragment shader's inputs
/// (HLSQ_CONTROL_2_REG..5_REG) and whether it prefetches textures.
fn fragment_inputs(ctx: &DrawContext) -> Result<FragmentInputRegs, DrawError> {
    let c2 = regs::HlsqControl2Reg::from_raw(ctx.reg32::<regs::HlsqControl2Reg>(U)?);
    let c3 = regs::HlsqControl3Reg::from_raw(ctx.reg32::<regs::HlsqControl3Reg>(U)?);
    let c4 = regs::HlsqControl4Reg::from_raw(ctx.reg32::<regs::HlsqControl4Reg>(U)?);
    let c5 = regs::HlsqControl5Reg::from_raw(ctx.reg32::<regs::HlsqControl5Reg>(U)?);
    let id = |r: u32| RegId(r as u8);
    if id(c5.linelengthregid).is_used() || id(c5.foveationqualityregid).is_used() {
        return Err(DrawError::not_modelled(
            U,
            "the line length and foveation quality inputs (HLSQ_CONTROL_5_REG)",
        ));
    }
    let prefetch = prefetches(ctx)?;
    // Where gl_FragCoord is taken: an RB setting (FRAGCOORDSAMPLEMODE) that
    // the hardware hands the HLSQ with the inputs.
    let c1 = regs::RbRenderControl1::from_raw(ctx.reg32::<regs::RbRenderControl1>(Unit::Rb)?);
    Ok(FragmentInputRegs {
        frag_coord_at_sample: c1.fragcoordsamplemode
            == parsnip_registers::enums::A6xxFragcoordSampleMode::FRAGCOORD_SAMPLE,
        ij_persp_pixel: id(c3.ij_persp_pixel),
        ij_linear_pixel: id(c3.ij_linear_pixel),
        ij_persp_centroid: id(c3.ij_persp_centroid),
        ij_linear_centroid: id(c3.ij_linear_centroid),
        ij_persp_sample: id(c4.ij_persp_sample),
        ij_linear_sample: id(c4.ij_linear_sample),
        xy: id(c4.xycoordregid),
        zw: id(c4.zwcoordregid),
        face: id(c2.faceregid),
        sample_id: id(c2.sampleid),
        sample_mask: id(c2.samplemask),
        center_rhw: id(c2.centerrhw),
        prefetch,
    })
}

/// The texture lookups the hardware makes before the fragment shader
/// starts (SP_FS_PREFETCH_CNTL, SP_FS_PREFETCH[i].CMD and, for bindless
/// ones, SP_FS_BINDLESS_PREFETCH[i].CMD): ir3 turns a `texture()` whose
/// coordinates are a perspective-interpolated varying into one (Mesa's
/// ir3_nir_lower_tex_prefetch.c). With BINDLESS, the command's TEX_ID and
/// SAMP_ID name the descriptor sets and the bindless command the indices.
fn prefetches(ctx: &DrawContext) -> Result<[Option<Prefetch>; 4], DrawError> {
    let (count, write_color, const_slots) = match ctx.chip() {
        Chip::A6xx => {
            let c = a6xx::SpFsPrefetchCntl::from_raw(ctx.reg32::<a6xx::SpFsPrefetchCntl>(U)?);
            (c.count, c.write_color_to_output, None)
        }
        Chip::A7xx => {
            let c = a7xx::SpFsPrefetchCntl::from_raw(ctx.reg32::<a7xx::SpFsPrefetchCntl>(U)?);
            (
                c.count,
                c.write_color_to_output,
                Some((c.constslotid, c.constslotid4coord)),
            )
        }
    };
    let mut out = [None; 4];
    if count == 0 {
        return Ok(out);
    }
    if count > 4 {
        return Err(DrawError::bad_state(
            U,
            format!("SP_FS_PREFETCH_CNTL.COUNT is {count}; the hardware has 4 prefetch commands"),
        ));
    }
    if write_color {
        return Err(DrawError::not_modelled(
            U,
            "SP_FS_PREFETCH_CNTL.WRITE_COLOR_TO_OUTPUT: a prefetch result going to the RB",
        ));
    }
    if const_slots.is_some_and(|(a, b)| a != 0x1ff || b != 0x1ff) {
        return Err(DrawError::not_modelled(
            U,
            "SP_FS_PREFETCH_CNTL.CONSTSLOTID/CONSTSLOTID4COORD: prefetch coordinates or \
             descriptors from consts",
        ));
    }
    for (i, slot) in out.iter_mut().enumerate().take(count as usize) {
        let i = i as u32;
        let (src, samp, tex, dst, wrmask, half, bindless, cmd) = match ctx.chip() {
            Chip::A6xx => {
                let c =
                    a6xx::SpFsPrefetchCmd::from_raw(ctx.reg32_at::<a6xx::SpFsPrefetchCmd>(U, i)?);
                (
                    c.src, c.samp_id, c.tex_id, c.dst, c.wrmask, c.half, c.bindless, c.cmd,
                )
            }
            Chip::A7xx => {
                let c =
                    a7xx::SpFsPrefetchCmd::from_raw(ctx.reg32_at::<a7xx::SpFsPrefetchCmd>(U, i)?);
                (
                    c.src, c.samp_id, c.tex_id, c.dst, c.wrmask, c.half, c.bindless, c.cmd,
                )
            }
        };
        let op = match cmd {
            A6xxTexPrefetchCmd::TEX_PREFETCH_SAM => PrefetchOp::Sample,
            A6xxTexPrefetchCmd::TEX_PREFETCH_GATHER4R => PrefetchOp::Gather(0),
            A6xxTexPrefetchCmd::TEX_PREFETCH_GATHER4G => PrefetchOp::Gather(1),
            A6xxTexPrefetchCmd::TEX_PREFETCH_GATHER4B => PrefetchOp::Gather(2),
            A6xxTexPrefetchCmd::TEX_PREFETCH_GATHER4A => PrefetchOp::Gather(3),
            other => {
                return Err(DrawError::not_modelled(
                    U,
                    format!(
                        "SP_FS_PREFETCH[{i}].CMD {}: what this prefetch command does is not public",
                        other.0
                    ),
                ))
            }
        };
        let (texture, sampler) = if bindless {
            let b = regs::SpFsBindlessPrefetchCmd::from_raw(
                ctx.reg32_at::<regs::SpFsBindlessPrefetchCmd>(U, i)?,
            );
            ((Some(tex as u8), b.tex_id), (Some(samp as u8), b.samp_id))
        } else {
            ((None, tex), (None, samp))
        };
        *slot = Some(Prefetch {
            location: src,
            texture,
            sampler,
            dst: RegId(dst as u8),
            wrmask: wrmask as u8,
            half,
            op,
        });
    }
    Ok(out)
}

/// SP_xS_OBJ_START; a program not starting there is not modelled.
fn program<Start: Register, First: Register>(ctx: &DrawContext) -> Result<u64, DrawError> {
    let first = ctx.reg::<First>(U)?;
    if first != 0 {
        return Err(DrawError::not_modelled(
            U,
            format!(
                "{}={first:#x}: a program not starting at its OBJ_START",
                First::NAME
            ),
        ));
    }
    ctx.reg::<Start>(U)
}

/// The private memory base, read only when the stage has private memory.
fn private<Addr: Register>(ctx: &DrawContext, per_fiber: u32) -> Result<u64, DrawError> {
    if per_fiber == 0 {
        Ok(0)
    } else {
        ctx.reg::<Addr>(U)
    }
}

/// SP_TP_WINDOW_OFFSET, (0, 0) where nothing programmed it (no bin pass).
fn gmem_window(ctx: &DrawContext) -> Result<(u32, u32), DrawError> {
    if ctx.regs.register_written_at::<regs::SpTpWindowOffset>() == 0 {
        return Ok((0, 0));
    }
    let w = regs::SpTpWindowOffset::from_raw(ctx.reg32::<regs::SpTpWindowOffset>(U)?);
    Ok((w.x, w.y))
}

/// The stage's state from its registers and its loaded consts and
/// descriptors.
fn finish<TexConst: Register, TexSamp: Register, TexCount: Register>(
    ctx: &DrawContext,
    r: &StageRegs,
    stage: Stage,
) -> Result<ShaderState, DrawError> {
    let loaded = ctx.state.stage(stage);
    let consts_len = (r.constlen as usize * 4).min(loaded.consts.len());
    let config = r.config;
    Ok(ShaderState {
        a7xx: ctx.chip() == Chip::A7xx,
        gpu: ctx.info,
        program_iova: r.program_iova,
        program_len: r.instrlen * INSTRLEN_UNIT,
        wave_size: r.wave_size,
        full_regs: r.full_regs,
        half_regs: r.half_regs,
        merged_regs: r.merged_regs,
        consts: loaded.consts[..consts_len].to_vec(),
        shared_consts: shared_consts(ctx.regs, ctx.state, stage).map_err(|e| DrawError::Unit {
            unit: U,
            problem: crate::report::UnitProblem::Register(e),
        })?,
        private_iova: r.private_iova,
        private_per_fiber: r.private_per_fiber,
        gmem_window: gmem_window(ctx)?,
        bindless: bindless_bases(ctx),
        ubos: if loaded.ubos.entries.is_empty() {
            DescriptorSource::None
        } else {
            DescriptorSource::Loaded(loaded.ubos.entries.clone())
        },
        ibos: descriptors::<regs::SpIbo>(
            ctx,
            &ctx.state.graphics_ibos,
            config.nibo > 0 && !config.bindless_ibo,
            || {
                ctx.reg32::<regs::SpIboCount>(U)
                    .map(|c| regs::SpIboCount::from_raw(c).0)
            },
        )?,
        textures: descriptors::<TexConst>(
            ctx,
            &loaded.textures,
            config.ntex > 0 && !config.bindless_tex,
            || ctx.reg32::<TexCount>(U).map(|c| c & 0xff),
        )?,
        // As for compute: texel fetches (`isam`, `isaml.a` of an input
        // attachment) name a sampler slot without reading it, so the
        // sampler table is needed only by an instruction that samples, and
        // the shader processor reports its absence there.
        samplers: descriptors::<TexSamp>(ctx, &loaded.samplers, false, || Ok(config.nsamp))?,
        instruction_budget: ctx.options.shader_budget,
        time_budget: Some(ctx.options.shader_timeout),
    })
}

/// The programmed SP_BINDLESS_BASE entries; a shader's use of one nothing
/// programmed is reported by the shader processor.
fn bindless_bases(ctx: &DrawContext) -> Vec<Option<BindlessBase>> {
    let count = regs::SpBindlessBaseDescriptor::layout(ctx.chip()).map_or(0, |l| l.2);
    (0..count)
        .map(|i| {
            if !ctx.is_programmed_at::<regs::SpBindlessBaseDescriptor>(i) {
                return None;
            }
            let raw = ctx
                .regs
                .programmed_at::<regs::SpBindlessBaseDescriptor>(i)
                .ok()?;
            let d = regs::SpBindlessBaseDescriptor::from_raw(raw);
            // a6xx.xml: the descriptor size is "2 << N dwords".
            Some(BindlessBase {
                iova: d.addr,
                descriptor_size: (2u32 << d.desc_size.0) * 4,
            })
        })
        .collect()
}

/// Non-bindless descriptors of one kind: what CP_LOAD_STATE6 loaded, or the
/// table at register `R` with `count()` entries, whichever was set last.
/// `needed`: the stage uses this kind without bindless.
fn descriptors<R: Register>(
    ctx: &DrawContext,
    loaded: &LoadedDescriptors,
    needed: bool,
    count: impl FnOnce() -> Result<u32, DrawError>,
) -> Result<DescriptorSource, DrawError> {
    let register_serial = ctx.regs.register_written_at::<R>();
    if !loaded.entries.is_empty() && loaded.serial > register_serial {
        return Ok(DescriptorSource::Loaded(loaded.entries.clone()));
    }
    if register_serial != 0 || needed {
        let iova = ctx.reg::<R>(U)?;
        return Ok(DescriptorSource::Memory {
            iova,
            count: count()?,
        });
    }
    Ok(DescriptorSource::None)
}
