//! A hand-built compute dispatch on the simulated GPU: a test fixture standing in for the
//! part of a driver that runs a `CompiledShader`.
//!
//! It builds what Turnip builds for a compute dispatch (its streams for a660 and a740,
//! `turnip/<gpu>/compute.log`, are the model): buffer objects through the kernel interface's
//! simulator back end, the program in a BO, one 64-byte bindless descriptor per buffer
//! (storage buffers as a linear `FMT6_32_UINT` buffer texture, texel buffer views as a
//! linear buffer texture of their format, uniform buffers as an `A6XX_UBO`), the const
//! file (push constants and driver parameters where
//! `CompiledShader::consts` puts them), and one command stream, written with
//! `parsnip_registers` packets and typed registers only:
//!
//! - HLSQ_INVALIDATE_CMD of the CS state, SP_CS_CONFIG (bindless), HLSQ_CS_CNTL (const
//!   length), SP_CS_CTRL_REG0 (wave size, footprint), the program (SP_CS_INSTRLEN,
//!   SP_CS_OBJ_*, CP_LOAD_STATE6 of the code), private memory (SP_CS_PVT_MEM_*), shared
//!   memory (SP_CS_UNKNOWN_A9B1, and HLSQ_CS_UNKNOWN_B9D0 on a6xx), where the built-ins go
//!   (HLSQ_CS_CNTL_0/1 on a6xx, SP_CS_CNTL_0/1 on both);
//! - CP_LOAD_STATE6 of the constants, SP_CS_BINDLESS_BASE[set] (and HLSQ_CS_BINDLESS_BASE
//!   on a6xx) then HLSQ_INVALIDATE_CMD of the bindless bases;
//! - HLSQ_CS_NDRANGE_* (and HLSQ_CS_LAST_LOCAL_SIZE on a7xx), CP_EXEC_CS.
//!
//! The model runs in strict mode (its default), so a register this fixture forgot is a
//! test failure naming it. The fixture depends on no driver code (dependencies point from
//! the driver to the compiler).

use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::descriptor_layout::DescriptorKind;
use parsnip_compiler::ir::DriverParam;
use parsnip_compiler::stage_info::{ComputeInfo, RegId};
use parsnip_hw_state::descriptors::{bind_sets, BindPoint};
use parsnip_hw_state::sink::PacketSink;
use parsnip_kernel_if::sim::SimDevice;
use parsnip_kernel_if::{Bo, BoDesc, BoUse, CommandBuffer, Deadline, KernelDevice, Submit};
use parsnip_registers::descriptors::{a6xx as desc6, a7xx as desc7, UboDescriptor};
use parsnip_registers::enums::{
    A3xxColorSwap, A3xxThreadmode, A6xxFormat, A6xxStateBlock, A6xxStateSrc, A6xxStateType,
    A6xxTexSwiz, A6xxTexType, A6xxThreadsize, A6xxTileMode,
};
use parsnip_registers::gpu::{self, GpuInfo};
use parsnip_registers::packets::{
    CpExecCsDw0, CpExecCsDw1, CpExecCsDw2, CpExecCsDw3, CpLoadState6Dw0, CpLoadState6Dw1,
    CpLoadState6Dw2,
};
use parsnip_registers::pm4::{self, Opcode};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::{ArrayRegister, Chip, Register, RegisterError};
use parsnip_sim::SimOptions;
use rspirv::spirv::ImageFormat;

/// Dwords in one bindless descriptor (BINDLESS_DESCRIPTOR_64B, a6xx.xml).
const DESCRIPTOR_DWORDS: usize = 16;
/// "Not used" as a register id (r63.x, a3xx_regid).
const REGID_UNUSED: u32 = 63 << 2;
/// SP_CS_INSTRLEN counts 16-instruction units (ir3 pads programs to them).
const INSTRLEN_UNIT: u32 = 16;

/// One buffer the dispatch binds: `descriptor` is its 16-dword slot in descriptor set `set`
/// (from the compiler's `DescriptorLayout`); texel buffers have their view's format.
pub struct Binding<'a> {
    pub set: u32,
    pub descriptor: u32,
    pub kind: DescriptorKind,
    pub format: Option<ImageFormat>,
    pub data: &'a [u8],
}

/// What to run.
pub struct Dispatch<'a> {
    pub shader: &'a CompiledShader,
    pub groups: [u32; 3],
    pub base_group: [u32; 3],
    pub bindings: Vec<Binding<'a>>,
    pub push_constants: &'a [u8],
}

/// A simulated GPU opened through the kernel interface, as a driver would open it.
pub struct SimGpu {
    pub info: &'static GpuInfo,
    dev: SimDevice,
}

impl SimGpu {
    /// The model of `name` ("a660", "a740"), strict mode on.
    pub fn new(name: &str) -> SimGpu {
        let info = gpu::by_name(name).unwrap_or_else(|e| panic!("{e}"));
        let options = SimOptions::default();
        assert!(options.strict, "the model's strict mode must be on");
        let dev = SimDevice::new(info, options).unwrap_or_else(|e| panic!("{name}: {e}"));
        SimGpu { info, dev }
    }

    pub fn chip(&self) -> Chip {
        self.info.chip
    }

    /// A buffer object holding `bytes`.
    pub fn bo_with(&self, bytes: &[u8], what: &str) -> Result<Bo, String> {
        let bo = self
            .dev
            .bo_new(&BoDesc::new((bytes.len() as u64).max(4)))
            .map_err(|e| format!("allocating the {what}: {e}"))?;
        bo.write(0, bytes)
            .map_err(|e| format!("writing the {what}: {e}"))?;
        Ok(bo)
    }

    /// Runs `d` and returns the contents of its buffers afterwards, in binding order. A
    /// fault, hang or strict-mode error of the model is an `Err` with its report. The
    /// device is lost after such an error: open another `SimGpu` for the next dispatch.
    pub fn run(&self, d: &Dispatch) -> Result<Vec<Vec<u8>>, String> {
        let chip = self.chip();
        let s = d.shader;
        let program = self.bo_with(&words_to_bytes(&s.code), "program")?;
        let buffers = d
            .bindings
            .iter()
            .map(|b| self.bo_with(b.data, "buffer"))
            .collect::<Result<Vec<_>, _>>()?;

        // One descriptor set per set number used, each a packed array of 64-byte slots.
        let mut sets: Vec<Vec<u32>> = Vec::new();
        for (b, bo) in d.bindings.iter().zip(&buffers) {
            let set = b.set as usize;
            if sets.len() <= set {
                sets.resize(set + 1, Vec::new());
            }
            let at = b.descriptor as usize * DESCRIPTOR_DWORDS;
            if sets[set].len() < at + DESCRIPTOR_DWORDS {
                sets[set].resize(at + DESCRIPTOR_DWORDS, 0);
            }
            let descriptor = match b.kind {
                DescriptorKind::StorageBuffer => {
                    storage_descriptor(chip, bo.iova(), b.data.len() as u64)?
                }
                DescriptorKind::UniformBuffer => ubo_descriptor(bo.iova(), b.data.len() as u64)?,
                DescriptorKind::UniformTexelBuffer | DescriptorKind::StorageTexelBuffer => {
                    let format = b.format.ok_or("a texel buffer without a format")?;
                    texel_descriptor(chip, bo.iova(), format, b.data.len() as u64)?
                }
                other => return Err(format!("the harness makes no {other:?} descriptors")),
            };
            sets[set][at..at + DESCRIPTOR_DWORDS].copy_from_slice(&descriptor);
        }
        let set_bos = sets
            .iter()
            .map(|words| {
                if words.is_empty() {
                    Ok(None)
                } else {
                    self.bo_with(&words_to_bytes(words), "descriptor set")
                        .map(Some)
                }
            })
            .collect::<Result<Vec<_>, String>>()?;

        let private = PrivateMemory::new(self.info, s.private_bytes);
        let private_bo = if private.total > 0 {
            Some(
                self.dev
                    .bo_new(&BoDesc::new(private.total))
                    .map_err(|e| format!("allocating private memory: {e}"))?,
            )
        } else {
            None
        };

        let mut cs = Stream::new(chip);
        program_state(
            &mut cs,
            self.info,
            s,
            program.iova(),
            &private,
            private_bo.as_ref().map_or(0, Bo::iova),
            &d.bindings,
        )?;
        let consts = const_image(s, d);
        if !consts.is_empty() {
            cs.load_state(
                A6xxStateType::ST6_CONSTANTS,
                0,
                consts.len() as u32 / 4,
                Load::Direct(&consts),
            )?;
        }
        let bases: Vec<Option<u64>> = set_bos.iter().map(|bo| bo.as_ref().map(Bo::iova)).collect();
        bind_sets(&mut cs, BindPoint::Compute, &bases)?;
        dispatch_packets(&mut cs, chip, compute_info(s)?.local_size, d.groups)?;

        let stream = self.bo_with(&words_to_bytes(&cs.dwords), "command stream")?;
        let mut uses: Vec<BoUse> = vec![BoUse::read(&program)];
        uses.extend(buffers.iter().map(BoUse::write));
        uses.extend(set_bos.iter().flatten().map(BoUse::read));
        uses.extend(private_bo.iter().map(BoUse::write));
        self.submit(&stream, cs.dwords.len() as u32, &uses)?;
        buffers
            .iter()
            .zip(&d.bindings)
            .map(|(bo, b)| {
                let mut out = vec![0u8; b.data.len()];
                bo.read(0, &mut out)
                    .map_err(|e| format!("reading a buffer back: {e}"))?;
                Ok(out)
            })
            .collect()
    }
}

impl SimGpu {
    /// Runs the `dwords` of the stream in `stream` with the buffer objects `uses`, and
    /// waits for it; a fault, hang or strict-mode error of the model is an `Err`.
    pub fn submit(&self, stream: &Bo, dwords: u32, uses: &[BoUse]) -> Result<(), String> {
        let queue = self
            .dev
            .queue_new(0)
            .map_err(|e| format!("creating a queue: {e}"))?;
        let fence = self
            .dev
            .submit(&Submit {
                queue,
                commands: &[CommandBuffer {
                    bo: stream,
                    offset: 0,
                    dwords,
                }],
                bos: uses,
                waits: &[],
                signals: &[],
            })
            .map_err(|e| format!("submit: {e}"))?;
        self.dev
            .fence_wait(fence, Deadline::Never)
            .map_err(|e| format!("{e}"))?;
        self.dev.status().map_err(|e| format!("{e}"))?;
        let _ = self.dev.queue_close(queue);
        Ok(())
    }
}

pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// PM4 dwords for one chip.
struct Stream {
    chip: Chip,
    dwords: Vec<u32>,
}

/// The shared state emission (`parsnip_hw_state`) writes into the fixture's stream too.
impl PacketSink for Stream {
    type Error = String;

    fn chip(&self) -> Chip {
        self.chip
    }

    fn push(&mut self, dword: u32) {
        self.dwords.push(dword);
    }

    fn push_all(&mut self, dwords: &[u32]) {
        self.dwords.extend_from_slice(dwords);
    }

    fn encoding_error(error: RegisterError) -> String {
        error.to_string()
    }
}

enum Load<'a> {
    Direct(&'a [u32]),
    Indirect(u64),
}

impl Stream {
    fn new(chip: Chip) -> Stream {
        Stream {
            chip,
            dwords: Vec::new(),
        }
    }

    fn write(&mut self, w: regs::RegWrite) {
        let words: Vec<u32> = w.dwords().collect();
        self.dwords.push(pm4::pkt4(w.offset, words.len() as u32));
        self.dwords.extend(words);
    }

    fn reg<R: Register>(&mut self, r: &R) -> Result<(), String> {
        let w = r.write(self.chip).map_err(|e| e.to_string())?;
        self.write(w);
        Ok(())
    }

    fn array_reg<R: ArrayRegister>(&mut self, r: &R, index: u32) -> Result<(), String> {
        let w = r.write(self.chip, index).map_err(|e| e.to_string())?;
        self.write(w);
        Ok(())
    }

    fn packet(&mut self, op: Opcode, payload: &[u32]) {
        self.dwords.push(pm4::pkt7(op.0, payload.len() as u32));
        self.dwords.extend_from_slice(payload);
    }

    /// CP_LOAD_STATE6_FRAG into the compute stage (adreno_pm4.xml; Turnip loads CS state
    /// with the FRAG form).
    fn load_state(
        &mut self,
        ty: A6xxStateType,
        dst_off: u32,
        units: u32,
        source: Load,
    ) -> Result<(), String> {
        let (src, addr, data) = match source {
            Load::Direct(d) => (A6xxStateSrc::SS6_DIRECT, 0, d),
            Load::Indirect(a) => (A6xxStateSrc::SS6_INDIRECT, a, &[][..]),
        };
        let mut payload = vec![
            CpLoadState6Dw0 {
                dst_off,
                state_type: ty,
                state_src: src,
                state_block: A6xxStateBlock::SB6_CS_SHADER,
                num_unit: units,
            }
            .try_to_raw()
            .map_err(|e| e.to_string())?,
            CpLoadState6Dw1 {
                ext_src_addr: addr as u32,
            }
            .try_to_raw()
            .map_err(|e| e.to_string())?,
            CpLoadState6Dw2 {
                ext_src_addr_hi: (addr >> 32) as u32,
            }
            .try_to_raw()
            .map_err(|e| e.to_string())?,
        ];
        payload.extend_from_slice(data);
        self.packet(Opcode::CP_LOAD_STATE6_FRAG, &payload);
        Ok(())
    }
}

/// A linear buffer texture (`A6XX_TEX_BUFFER`) of `texels` texels of `fmt` at `iova`,
/// the count split over WIDTH (low 15 bits) and HEIGHT, as Turnip writes storage buffer
/// and texel buffer view descriptors (tu_descriptor_set.cc, fdl6_buffer_view_init).
/// Storage buffers read every component from X (the trace's swizzle fields are 0); views
/// have the identity swizzle.
fn buffer_texture(
    chip: Chip,
    iova: u64,
    fmt: A6xxFormat,
    swizzle: [A6xxTexSwiz; 4],
    texels: u64,
) -> Result<[u32; 16], String> {
    macro_rules! fill {
        ($t:ty) => {{
            let mut t = <$t>::default();
            t.tile_mode = A6xxTileMode::TILE6_LINEAR;
            [t.swiz_x, t.swiz_y, t.swiz_z, t.swiz_w] = swizzle;
            t.fmt = fmt;
            t.swap = A3xxColorSwap::WZYX;
            t.width = (texels & 0x7fff) as u32;
            t.height = (texels >> 15) as u32;
            t.structsizetexels = 1;
            t.r#type = A6xxTexType::A6XX_TEX_BUFFER;
            t.base_lo = iova as u32;
            t.base_hi = (iova >> 32) as u32;
            t.try_to_raw().map_err(|e| e.to_string())
        }};
    }
    match chip {
        Chip::A6xx => fill!(desc6::TextureDescriptor),
        Chip::A7xx => fill!(desc7::TextureDescriptor),
    }
}

/// A storage buffer: 32-bit texels (the format Turnip uses without 16-bit storage).
fn storage_descriptor(chip: Chip, iova: u64, bytes: u64) -> Result<[u32; 16], String> {
    let swizzle = [A6xxTexSwiz::A6XX_TEX_X; 4];
    buffer_texture(
        chip,
        iova,
        A6xxFormat::FMT6_32_UINT,
        swizzle,
        bytes.div_ceil(4),
    )
}

/// A texel buffer view of a whole buffer: the hardware format of a SPIR-V format
/// (a6xx.xml's `a6xx_format` names, the pairs Turnip's format table makes).
fn texel_descriptor(
    chip: Chip,
    iova: u64,
    format: ImageFormat,
    bytes: u64,
) -> Result<[u32; 16], String> {
    use A6xxFormat as H;
    use ImageFormat as I;
    let (fmt, texel_bytes) = match format {
        I::Rgba32f => (H::FMT6_32_32_32_32_FLOAT, 16),
        I::Rgba32ui => (H::FMT6_32_32_32_32_UINT, 16),
        I::Rgba32i => (H::FMT6_32_32_32_32_SINT, 16),
        I::Rgba16f => (H::FMT6_16_16_16_16_FLOAT, 8),
        I::Rgba16ui => (H::FMT6_16_16_16_16_UINT, 8),
        I::Rg32f => (H::FMT6_32_32_FLOAT, 8),
        I::R32f => (H::FMT6_32_FLOAT, 4),
        I::R32ui => (H::FMT6_32_UINT, 4),
        I::R32i => (H::FMT6_32_SINT, 4),
        I::Rgba8 => (H::FMT6_8_8_8_8_UNORM, 4),
        I::Rgba8Snorm => (H::FMT6_8_8_8_8_SNORM, 4),
        I::Rgba8ui => (H::FMT6_8_8_8_8_UINT, 4),
        I::Rgba8i => (H::FMT6_8_8_8_8_SINT, 4),
        I::Rg16i => (H::FMT6_16_16_SINT, 4),
        I::Rg16ui => (H::FMT6_16_16_UINT, 4),
        I::Rg16f => (H::FMT6_16_16_FLOAT, 4),
        I::R16ui => (H::FMT6_16_UINT, 2),
        I::R8i => (H::FMT6_8_SINT, 1),
        I::R8ui => (H::FMT6_8_UINT, 1),
        other => return Err(format!("the fixture has no hardware format for {other:?}")),
    };
    let identity = [
        A6xxTexSwiz::A6XX_TEX_X,
        A6xxTexSwiz::A6XX_TEX_Y,
        A6xxTexSwiz::A6XX_TEX_Z,
        A6xxTexSwiz::A6XX_TEX_W,
    ];
    buffer_texture(chip, iova, fmt, identity, bytes / texel_bytes)
}

/// A uniform buffer: `A6XX_UBO` (base, size in vec4s) in the first two dwords of its slot.
fn ubo_descriptor(iova: u64, bytes: u64) -> Result<[u32; 16], String> {
    let raw = UboDescriptor {
        base_lo: iova as u32,
        base_hi: (iova >> 32) as u32,
        size: bytes.div_ceil(16) as u32,
    }
    .try_to_raw()
    .map_err(|e| e.to_string())?;
    let mut out = [0u32; 16];
    out[..raw.len()].copy_from_slice(&raw);
    Ok(out)
}

/// Private memory as Turnip lays it out: MEMSIZEPERITEM bytes per fiber (512-byte units),
/// for every fiber of every SP (TOTALPVTMEMSIZE per SP, 4 KiB units; a6xx.xml).
/// Private memory for `bytes` per fiber: SP_xS_PVT_MEM_PARAM's MEMSIZEPERITEM
/// (`per_fiber`), SP_xS_PVT_MEM_SIZE's TOTALPVTMEMSIZE (`per_sp`) and the buffer for all
/// SPs (`total`), as Turnip sizes them.
pub struct PrivateMemory {
    pub per_fiber: u32,
    pub per_sp: u32,
    pub total: u64,
}

impl PrivateMemory {
    pub fn new(info: &GpuInfo, bytes: u32) -> PrivateMemory {
        if bytes == 0 {
            return PrivateMemory {
                per_fiber: 0,
                per_sp: 0,
                total: 0,
            };
        }
        let per_fiber = bytes.next_multiple_of(512);
        let per_sp = (per_fiber * info.fibers_per_sp).next_multiple_of(4096);
        PrivateMemory {
            per_fiber,
            per_sp,
            total: u64::from(per_sp) * u64::from(info.num_sp_cores),
        }
    }
}

/// The const file: push constants and driver parameters where the compiler put them,
/// padded to the 4-vec4 units HLSQ_CS_CNTL.CONSTLEN counts.
fn const_image(s: &CompiledShader, d: &Dispatch) -> Vec<u32> {
    let mut image = vec![0u32; (const_len(s) * 4) as usize];
    if let Some((at, n)) = s.consts.push_constants {
        for k in 0..n as usize {
            let mut b = [0u8; 4];
            for (j, byte) in b.iter_mut().enumerate() {
                *byte = d.push_constants.get(k * 4 + j).copied().unwrap_or(0);
            }
            image[at as usize + k] = u32::from_le_bytes(b);
        }
    }
    for (param, dword) in &s.consts.driver_params {
        image[*dword as usize] = match param {
            DriverParam::NumWorkgroups(c) => d.groups[usize::from(*c)],
            DriverParam::BaseWorkgroup(c) => d.base_group[usize::from(*c)],
            DriverParam::BaseVertex | DriverParam::BaseInstance | DriverParam::ViewIndex => 0,
        };
    }
    image
}

/// HLSQ_CS_CNTL.CONSTLEN: vec4s, a multiple of 4 (the field is stored >> 2, a6xx.xml).
fn const_len(s: &CompiledShader) -> u32 {
    s.const_vec4.next_multiple_of(4)
}

fn threadsize(wave_size: u32) -> A6xxThreadsize {
    if wave_size == 128 {
        A6xxThreadsize::THREAD128
    } else {
        A6xxThreadsize::THREAD64
    }
}

/// What a dispatch needs of the shader's stage.
fn compute_info(s: &CompiledShader) -> Result<&ComputeInfo, String> {
    s.stage
        .compute()
        .ok_or_else(|| format!("a {} shader cannot be dispatched", s.stage.stage()))
}

/// The shader's state, in the order Turnip's compute.log programs it.
fn program_state(
    cs: &mut Stream,
    info: &GpuInfo,
    s: &CompiledShader,
    code: u64,
    private: &PrivateMemory,
    private_iova: u64,
    bindings: &[Binding],
) -> Result<(), String> {
    let chip = info.chip;
    match chip {
        Chip::A6xx => cs.reg(&a6xx::HlsqInvalidateCmd {
            cs_state: true,
            cs_ibo: true,
            ..Default::default()
        })?,
        Chip::A7xx => cs.reg(&a7xx::HlsqInvalidateCmd {
            cs_state: true,
            cs_ibo: true,
            ..Default::default()
        })?,
    }
    let uses = |k| bindings.iter().any(|b| b.kind == k);
    cs.reg(&regs::SpCsConfig {
        enabled: true,
        bindless_tex: s.bindless_textures,
        bindless_samp: s.bindless_samplers,
        bindless_ibo: uses(DescriptorKind::StorageBuffer)
            || uses(DescriptorKind::StorageTexelBuffer),
        bindless_ubo: uses(DescriptorKind::UniformBuffer),
        ..Default::default()
    })?;
    match chip {
        Chip::A6xx => cs.reg(&a6xx::HlsqCsCntl {
            constlen: const_len(s),
            enabled: true,
        })?,
        Chip::A7xx => cs.reg(&a7xx::HlsqCsCntl {
            constlen: const_len(s),
            enabled: true,
            ..Default::default()
        })?,
    }
    let threads = threadsize(s.wave_size);
    cs.reg(&regs::SpCsCtrlReg0 {
        threadsize: threads,
        // The compiler allocates half registers inside the full file (hN is half of
        // r(N/2)), as on every a6xx/a7xx.
        mergedregs: true,
        threadmode: A3xxThreadmode::MULTI,
        fullregfootprint: s.full_regs,
        halfregfootprint: s.half_regs,
        ..Default::default()
    })?;
    let instrlen = s.instr_count.div_ceil(INSTRLEN_UNIT);
    cs.reg(&regs::SpCsInstrlen(instrlen))?;
    cs.reg(&regs::SpCsObjFirstExecOffset(0))?;
    cs.reg(&regs::SpCsObjStart(code))?;
    cs.reg(&regs::SpCsPvtMemParam {
        memsizeperitem: private.per_fiber,
        hwstacksizeperthread: 0,
    })?;
    cs.reg(&regs::SpCsPvtMemAddr(private_iova))?;
    cs.reg(&regs::SpCsPvtMemSize {
        totalpvtmemsize: private.per_sp,
        perwavememlayout: false,
    })?;
    cs.reg(&regs::SpCsPvtMemHwStackOffset { offset: 0 })?;
    // The SP fetches what is not preloaded as execution reaches it; Turnip preloads at
    // most the instruction cache on a6xx (tu_shader.cc; freedreno_devices.py's
    // instr_cache_size, in SP_CS_INSTRLEN's 16-instruction units).
    let preload = instrlen.min(info.instr_cache_size);
    cs.load_state(A6xxStateType::ST6_SHADER, 0, preload, Load::Indirect(code))?;

    // SHARED_SIZE: (n + 1) KiB; Turnip programs at least 1.
    let k = compute_info(s)?;
    let shared = k.shared_bytes.div_ceil(1024).saturating_sub(1).max(1);
    cs.reg(&regs::SpCsUnknownA9b1 {
        shared_size: shared,
        unk5: false,
        unk6: true,
    })?;
    if chip == Chip::A6xx {
        cs.reg(&regs::HlsqCsUnknownB9d0 {
            shared_size: shared,
            unk5: false,
            unk6: true,
        })?;
    }

    let regid = |r: Option<RegId>| r.map_or(REGID_UNUSED, |r| u32::from(r.0));
    let ids = regs::SpCsCntl0 {
        wgidconstid: regid(k.workgroup_id_reg),
        wgsizeconstid: REGID_UNUSED,
        wgoffsetconstid: REGID_UNUSED,
        localidregid: regid(k.local_id_reg),
    };
    match chip {
        Chip::A6xx => {
            cs.reg(&regs::HlsqCsCntl0 {
                wgidconstid: ids.wgidconstid,
                wgsizeconstid: ids.wgsizeconstid,
                wgoffsetconstid: ids.wgoffsetconstid,
                localidregid: ids.localidregid,
            })?;
            cs.reg(&a6xx::HlsqCsCntl1 {
                linearlocalidregid: REGID_UNUSED,
                threadsize: threads,
                ..Default::default()
            })?;
            cs.reg(&ids)?;
            cs.reg(&a6xx::SpCsCntl1 {
                linearlocalidregid: REGID_UNUSED,
                threadsize: threads,
                ..Default::default()
            })?;
        }
        Chip::A7xx => {
            cs.reg(&a7xx::HlsqCsCntl1 {
                linearlocalidregid: REGID_UNUSED,
                threadsize: threads,
                ..Default::default()
            })?;
            cs.reg(&ids)?;
            cs.reg(&a7xx::SpCsCntl1 {
                linearlocalidregid: REGID_UNUSED,
                threadsize: threads,
                ..Default::default()
            })?;
        }
    }
    Ok(())
}

/// The work group size and count, then the dispatch. Vulkan's base group is a driver
/// parameter in the const file, so the global offsets stay 0, as Turnip programs them.
fn dispatch_packets(
    cs: &mut Stream,
    chip: Chip,
    local: [u32; 3],
    groups: [u32; 3],
) -> Result<(), String> {
    cs.reg(&regs::HlsqCsNdrange0 {
        kerneldim: 3,
        localsizex: local[0] - 1,
        localsizey: local[1] - 1,
        localsizez: local[2] - 1,
    })?;
    cs.reg(&regs::HlsqCsNdrange1 {
        globalsize_x: local[0] * groups[0],
    })?;
    cs.reg(&regs::HlsqCsNdrange2 { globaloff_x: 0 })?;
    cs.reg(&regs::HlsqCsNdrange3 {
        globalsize_y: local[1] * groups[1],
    })?;
    cs.reg(&regs::HlsqCsNdrange4 { globaloff_y: 0 })?;
    cs.reg(&regs::HlsqCsNdrange5 {
        globalsize_z: local[2] * groups[2],
    })?;
    cs.reg(&regs::HlsqCsNdrange6 { globaloff_z: 0 })?;
    if chip == Chip::A7xx {
        cs.reg(&regs::HlsqCsLastLocalSize {
            localsizex: local[0] - 1,
            localsizey: local[1] - 1,
            localsizez: local[2] - 1,
        })?;
    }
    let raw = |r: Result<u32, parsnip_registers::encode::FieldError>| r.map_err(|e| e.to_string());
    let payload = [
        raw(CpExecCsDw0(0).try_to_raw())?,
        raw(CpExecCsDw1 {
            ngroups_x: groups[0],
        }
        .try_to_raw())?,
        raw(CpExecCsDw2 {
            ngroups_y: groups[1],
        }
        .try_to_raw())?,
        raw(CpExecCsDw3 {
            ngroups_z: groups[2],
        }
        .try_to_raw())?,
    ];
    cs.packet(Opcode::CP_EXEC_CS, &payload);
    Ok(())
}
