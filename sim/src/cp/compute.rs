//! CP_EXEC_CS and CP_EXEC_CS_INDIRECT: gathering a dispatch from the
//! registers and the loaded state, and launching it on the shader core.
//!
//! Every register read here is one the model consumes, read through strict
//! mode. Which registers, per generation (a6xx.xml):
//! - program: SP_CS_OBJ_START, SP_CS_OBJ_FIRST_EXEC_OFFSET, SP_CS_INSTRLEN;
//! - configuration: SP_CS_CTRL_REG0 (wave size, register footprint),
//!   SP_CS_CONFIG (enabled, bindless or not per descriptor kind, counts),
//!   HLSQ_CS_CNTL (const length, enabled), SP_CS_UNKNOWN_A9B1 (shared memory
//!   size), SP_CS_PVT_MEM_PARAM (and _ADDR when private memory is used);
//! - work groups: HLSQ_CS_NDRANGE_0 (local size), _2/_4/_6 (global offset),
//!   and on a7xx HLSQ_CS_LAST_LOCAL_SIZE;
//! - where the built-ins go: HLSQ_CS_CNTL_0/_1 on a6xx, SP_CS_CNTL_0/_1 on
//!   a6xx gen 4 ("new in a6xx gen4, matches HLSQ_CS_CNTL_0") and a7xx. Where
//!   both exist the two must agree, as must each THREADSIZE with
//!   SP_CS_CTRL_REG0's ("Must match SP_CS_CTRL");
//! - descriptors: SP_CS_BINDLESS_BASE[n] (those programmed), and for
//!   non-bindless descriptors either the state CP_LOAD_STATE6 loaded or
//!   SP_CS_IBO / SP_CS_TEX_CONST / SP_CS_TEX_SAMP, whichever was set last.

use parsnip_registers::enums::A6xxThreadsize;
use parsnip_registers::packets::{CpExecCsDw1, CpExecCsDw2, CpExecCsDw3};
use parsnip_registers::regs::{self, a6xx, a7xx, ArrayRegister, Register};
use parsnip_registers::Chip;

use super::state_blocks::{LoadedDescriptors, Stage};
use super::CommandProcessor;
use crate::compute_dispatch::{
    BindlessBase, ComputeDispatch, DescriptorSource, RegId, ShaderState,
};
use crate::report::{ErrorKind, GpuError, HangCause, ShaderFailure, StreamProblem};

/// Instructions per unit of SP_xS_INSTRLEN (ir3 pads programs to 16
/// instructions and counts their length in those units, on a6xx and a7xx).
const INSTRLEN_UNIT: u32 = 16;

/// The regids a dispatch's built-ins go to, and the wave size the register
/// says.
struct BuiltinRegs {
    work_group_id: u32,
    local_size: u32,
    work_group_offset: u32,
    local_id: u32,
    linear_local_id: u32,
    threadsize: A6xxThreadsize,
}

impl CommandProcessor<'_> {
    /// A register the dispatch consumes, strict-checked.
    fn reg<R: Register>(&self) -> Result<u64, GpuError> {
        self.regs
            .programmed::<R>()
            .map_err(|e| self.register_error(e))
    }

    fn bad_state(&self, why: String) -> GpuError {
        self.stream_error(StreamProblem::BadState { why })
    }

    pub(super) fn exec_cs(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 4)?;
        let groups = [
            CpExecCsDw1::from_raw(payload[1]).ngroups_x,
            CpExecCsDw2::from_raw(payload[2]).ngroups_y,
            CpExecCsDw3::from_raw(payload[3]).ngroups_z,
        ];
        self.dispatch(groups)
    }

    /// CP_EXEC_CS_INDIRECT: the group counts are three dwords in memory.
    /// Its LOCALSIZE dword lets the firmware compute the global size
    /// registers, which the model does not consume; the local size comes
    /// from HLSQ_CS_NDRANGE_0 as for CP_EXEC_CS.
    pub(super) fn exec_cs_indirect(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 4)?;
        let iova = u64::from(payload[1]) | u64::from(payload[2]) << 32;
        let counts = self.read_dwords(iova, 3)?;
        self.dispatch([counts[0], counts[1], counts[2]])
    }

    fn dispatch(&mut self, group_count: [u32; 3]) -> Result<(), GpuError> {
        self.run_pending_draw_state()?;
        if group_count.contains(&0) {
            return Ok(());
        }
        let dispatch = self.gather_dispatch(group_count)?;
        let index = self.stats.dispatches;
        self.stats.dispatches += 1;
        let gpu = self.gpu;
        let stats = gpu
            .shader_core
            .run_compute(&dispatch, index, gpu.unit_memory())
            .map_err(|failure| match failure {
                ShaderFailure::Fault { fault, at } => self.error(ErrorKind::Fault {
                    fault,
                    shader: Some(Box::new(at)),
                }),
                ShaderFailure::Hang { executed, at } => {
                    self.error(ErrorKind::Hang(HangCause::Shader { executed, at }))
                }
                ShaderFailure::Error { message, at } => self.error(ErrorKind::Shader {
                    message,
                    at: at.map(Box::new),
                }),
            })?;
        gpu.dispatch_stats
            .lock()
            .expect("never poisoned")
            .push(stats);
        Ok(())
    }

    /// The dispatch the registers and loaded state describe.
    pub(crate) fn gather_dispatch(
        &self,
        group_count: [u32; 3],
    ) -> Result<ComputeDispatch, GpuError> {
        let chip = self.chip();
        let info = self.gpu.info;

        let config = regs::SpCsConfig::from_raw(self.reg::<regs::SpCsConfig>()? as u32);
        let (constlen, cntl_enabled) = match chip {
            Chip::A6xx => {
                let c = a6xx::HlsqCsCntl::from_raw(self.reg::<a6xx::HlsqCsCntl>()? as u32);
                (c.constlen, c.enabled)
            }
            Chip::A7xx => {
                let c = a7xx::HlsqCsCntl::from_raw(self.reg::<a7xx::HlsqCsCntl>()? as u32);
                (c.constlen, c.enabled)
            }
        };
        if !config.enabled || !cntl_enabled {
            return Err(self.bad_state(format!(
                "dispatch with the compute stage disabled (SP_CS_CONFIG.ENABLED={}, \
                 HLSQ_CS_CNTL.ENABLED={})",
                u8::from(config.enabled),
                u8::from(cntl_enabled)
            )));
        }

        let ctrl = regs::SpCsCtrlReg0::from_raw(self.reg::<regs::SpCsCtrlReg0>()? as u32);
        let builtins = self.builtin_regs()?;
        if builtins.threadsize != ctrl.threadsize {
            return Err(self.bad_state(
                "the THREADSIZE of SP_CS_CTRL_REG0 and of the CS_CNTL_1 registers differ".into(),
            ));
        }
        let wave_size = match ctrl.threadsize {
            A6xxThreadsize::THREAD64 => info.threadsize_base,
            _ if info.supports_double_threadsize => info.threadsize_base * 2,
            _ => {
                return Err(self.bad_state(format!(
                    "THREAD128 waves on {}, which has {}-thread waves only",
                    info.name, info.threadsize_base
                )))
            }
        };

        let first_exec = self.reg::<regs::SpCsObjFirstExecOffset>()?;
        if first_exec != 0 {
            return Err(self.stream_error(StreamProblem::NotModelled {
                what: format!(
                    "SP_CS_OBJ_FIRST_EXEC_OFFSET={first_exec:#x}: a program not starting at \
                     SP_CS_OBJ_START is not modelled"
                ),
            }));
        }
        let program_iova = self.reg::<regs::SpCsObjStart>()?;
        let instrlen = self.reg::<regs::SpCsInstrlen>()? as u32;

        let ndrange = regs::HlsqCsNdrange0::from_raw(self.reg::<regs::HlsqCsNdrange0>()? as u32);
        let local_size = [
            ndrange.localsizex + 1,
            ndrange.localsizey + 1,
            ndrange.localsizez + 1,
        ];
        if chip == Chip::A7xx {
            let last = regs::HlsqCsLastLocalSize::from_raw(
                self.reg::<regs::HlsqCsLastLocalSize>()? as u32,
            );
            let last = [
                last.localsizex + 1,
                last.localsizey + 1,
                last.localsizez + 1,
            ];
            if last != local_size {
                return Err(self.stream_error(StreamProblem::NotModelled {
                    what: format!(
                        "HLSQ_CS_LAST_LOCAL_SIZE {last:?} differs from the local size \
                         {local_size:?}: non-uniform work groups are not modelled"
                    ),
                }));
            }
        }
        let group_offset = [
            self.reg::<regs::HlsqCsNdrange2>()? as u32,
            self.reg::<regs::HlsqCsNdrange4>()? as u32,
            self.reg::<regs::HlsqCsNdrange6>()? as u32,
        ];

        let shared = regs::SpCsUnknownA9b1::from_raw(self.reg::<regs::SpCsUnknownA9b1>()? as u32)
            .shared_size;
        // a6xx.xml: "If 0 - all 32k of shared storage is enabled, otherwise
        // (SHARED_SIZE + 1) * 1k is enabled."
        let shared_size = if shared == 0 {
            info.cs_shared_mem_bytes
        } else {
            (shared + 1) * 1024
        };

        let pvt = regs::SpCsPvtMemParam::from_raw(self.reg::<regs::SpCsPvtMemParam>()? as u32);
        let private_iova = if pvt.memsizeperitem != 0 {
            self.reg::<regs::SpCsPvtMemAddr>()?
        } else {
            0
        };

        let cs = self.cp.state.stage(Stage::Cs);
        let consts_len = (constlen as usize * 4).min(cs.consts.len());

        let shader = ShaderState {
            a7xx: chip == Chip::A7xx,
            gpu: self.gpu.info,
            program_iova,
            program_len: instrlen * INSTRLEN_UNIT,
            wave_size,
            full_regs: ctrl.fullregfootprint,
            half_regs: ctrl.halfregfootprint,
            merged_regs: ctrl.mergedregs,
            consts: cs.consts[..consts_len].to_vec(),
            shared_consts: crate::hlsq::shared_consts(self.regs, &self.cp.state, Stage::Cs)
                .map_err(|e| self.register_error(e))?,
            private_iova,
            private_per_fiber: pvt.memsizeperitem,
            // Compute runs outside any bin.
            gmem_window: (0, 0),
            bindless: self.bindless_bases(),
            ubos: loaded_or_none(&cs.ubos),
            // Each table is read only if something set it: whether a shader
            // reads a non-bindless descriptor is the instruction's to say
            // (Turnip's storage_image dispatch has NSAMP = 4 without
            // BINDLESS_SAMP, programs no sampler table and fetches with
            // bindless `isam`, which names a sampler it does not read), and
            // the shader processor reports a missing one where it is used.
            ibos: self.descriptors::<regs::SpCsIbo>(&cs.ibos, || {
                self.reg::<regs::SpCsIboCount>()
                    .map(|c| regs::SpCsIboCount::from_raw(c as u32).0)
            })?,
            textures: self.descriptors::<regs::SpCsTexConst>(&cs.textures, || {
                self.reg::<regs::SpCsTexCount>()
                    .map(|c| regs::SpCsTexCount::from_raw(c as u32).0)
            })?,
            samplers: self.descriptors::<regs::SpCsTexSamp>(&cs.samplers, || Ok(config.nsamp))?,
            instruction_budget: self.gpu.options.shader_budget,
            time_budget: Some(self.gpu.options.shader_timeout),
        };
        Ok(ComputeDispatch {
            shader,
            local_size,
            group_count,
            group_offset,
            work_group_id: RegId(builtins.work_group_id as u8),
            local_id: RegId(builtins.local_id as u8),
            local_size_reg: RegId(builtins.local_size as u8),
            work_group_offset: RegId(builtins.work_group_offset as u8),
            linear_local_id: RegId(builtins.linear_local_id as u8),
            shared_size,
        })
    }

    /// The built-in regids and the thread size of the CS_CNTL registers.
    fn builtin_regs(&self) -> Result<BuiltinRegs, GpuError> {
        let chip = self.chip();
        let sp = |this: &Self| -> Result<BuiltinRegs, GpuError> {
            let c0 = regs::SpCsCntl0::from_raw(this.reg::<regs::SpCsCntl0>()? as u32);
            let (linear, threadsize, scalar) = match chip {
                Chip::A6xx => {
                    let c1 = a6xx::SpCsCntl1::from_raw(this.reg::<a6xx::SpCsCntl1>()? as u32);
                    (c1.linearlocalidregid, c1.threadsize, c1.threadsize_scalar)
                }
                Chip::A7xx => {
                    let c1 = a7xx::SpCsCntl1::from_raw(this.reg::<a7xx::SpCsCntl1>()? as u32);
                    (c1.linearlocalidregid, c1.threadsize, c1.threadsize_scalar)
                }
            };
            if scalar {
                return Err(this.stream_error(StreamProblem::NotModelled {
                    what: "SP_CS_CNTL_1.THREADSIZE_SCALAR (one thread per wave) is not modelled"
                        .into(),
                }));
            }
            Ok(BuiltinRegs {
                work_group_id: c0.wgidconstid,
                local_size: c0.wgsizeconstid,
                work_group_offset: c0.wgoffsetconstid,
                local_id: c0.localidregid,
                linear_local_id: linear,
                threadsize,
            })
        };
        match chip {
            Chip::A7xx => sp(self),
            Chip::A6xx => {
                let c0 = regs::HlsqCsCntl0::from_raw(self.reg::<regs::HlsqCsCntl0>()? as u32);
                let c1 = a6xx::HlsqCsCntl1::from_raw(self.reg::<a6xx::HlsqCsCntl1>()? as u32);
                if c1.threadsize_scalar {
                    return Err(self.stream_error(StreamProblem::NotModelled {
                        what: "HLSQ_CS_CNTL_1.THREADSIZE_SCALAR (one thread per wave) is not \
                               modelled"
                            .into(),
                    }));
                }
                let hlsq = BuiltinRegs {
                    work_group_id: c0.wgidconstid,
                    local_size: c0.wgsizeconstid,
                    work_group_offset: c0.wgoffsetconstid,
                    local_id: c0.localidregid,
                    linear_local_id: c1.linearlocalidregid,
                    threadsize: c1.threadsize,
                };
                if self.gpu.info.gen >= 4 {
                    let sp = sp(self)?;
                    let same = (
                        sp.work_group_id,
                        sp.local_size,
                        sp.work_group_offset,
                        sp.local_id,
                        sp.linear_local_id,
                        sp.threadsize,
                    ) == (
                        hlsq.work_group_id,
                        hlsq.local_size,
                        hlsq.work_group_offset,
                        hlsq.local_id,
                        hlsq.linear_local_id,
                        hlsq.threadsize,
                    );
                    if !same {
                        return Err(self.bad_state(
                            "SP_CS_CNTL_0/1 and HLSQ_CS_CNTL_0/1 disagree (a6xx gen 4 needs \
                             them to match)"
                                .into(),
                        ));
                    }
                }
                Ok(hlsq)
            }
        }
    }

    /// The programmed SP_CS_BINDLESS_BASE entries. Bases a shader does not
    /// use need not be programmed, so these are not strict-checked here; the
    /// shader processor reports a use of a missing one.
    fn bindless_bases(&self) -> Vec<Option<BindlessBase>> {
        let count = regs::SpCsBindlessBaseDescriptor::layout(self.chip()).map_or(0, |l| l.2);
        (0..count)
            .map(|i| {
                if !self
                    .regs
                    .is_programmed_at::<regs::SpCsBindlessBaseDescriptor>(i)
                {
                    return None;
                }
                let offset = regs::SpCsBindlessBaseDescriptor::offset(self.chip(), i).ok()?;
                let raw =
                    u64::from(self.regs.read(offset)) | u64::from(self.regs.read(offset + 1)) << 32;
                let d = regs::SpCsBindlessBaseDescriptor::from_raw(raw);
                // a6xx.xml: the size "can alternatively be interpreted as a
                // pitch shift, ie, the descriptor size is 2 << N dwords".
                Some(BindlessBase {
                    iova: d.addr,
                    descriptor_size: (2u32 << d.desc_size.0) * 4,
                })
            })
            .collect()
    }

    /// Non-bindless descriptors of one kind: what CP_LOAD_STATE6 loaded, or
    /// the table at register `R` with `count()` entries, whichever was set
    /// last; neither: none.
    fn descriptors<R: Register>(
        &self,
        loaded: &LoadedDescriptors,
        count: impl FnOnce() -> Result<u32, GpuError>,
    ) -> Result<DescriptorSource, GpuError> {
        let register_serial = self.regs.register_written_at::<R>();
        if !loaded.entries.is_empty() && loaded.serial > register_serial {
            return Ok(DescriptorSource::Loaded(loaded.entries.clone()));
        }
        if register_serial != 0 {
            let iova = self.reg::<R>()?;
            return Ok(DescriptorSource::Memory {
                iova,
                count: count()?,
            });
        }
        Ok(DescriptorSource::None)
    }
}

fn loaded_or_none(loaded: &LoadedDescriptors) -> DescriptorSource {
    if loaded.entries.is_empty() {
        DescriptorSource::None
    } else {
        DescriptorSource::Loaded(loaded.entries.clone())
    }
}
