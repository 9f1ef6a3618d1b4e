//! What the shader processor needs to run one stage's program, whatever
//! the stage: the program, its register footprint and wave size, the const
//! file and the descriptors it may use, and the budgets that turn a runaway
//! shader into a hang report.
//!
//! The command processor gathers it from SP_CS_* for a dispatch
//! ([`crate::compute_dispatch`]); the HLSQ gathers it from SP_VS_* and
//! SP_FS_* for the stages of a draw ([`crate::hlsq`]). Both halves are the
//! model's own: no driver type crosses here.

use parsnip_registers::gpu::GpuInfo;

/// A register id as the hardware encodes it in SP_CS_CNTL_0,
/// HLSQ_CONTROL_*_REG, VFD_DEST_CNTL and friends: `(n << 2) | component`,
/// with r63.x (0xfc) meaning "not used".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegId(pub u8);

impl RegId {
    pub const UNUSED: RegId = RegId(0xfc);

    pub fn is_used(self) -> bool {
        // Every regid in r63 is "no register" (Mesa's regid(63, c)).
        self.0 < 0xfc
    }
}

/// Where a kind of descriptor comes from for this launch.
#[derive(Clone, Debug, Default)]
pub enum DescriptorSource {
    /// Not programmed: an access is an error.
    #[default]
    None,
    /// Descriptors in memory at this iova (e.g. SP_CS_IBO, SP_CS_TEX_CONST, or
    /// a CP_LOAD_STATE6 with an indirect source), `count` of them.
    Memory { iova: u64, count: u32 },
    /// Descriptors loaded into the state block by CP_LOAD_STATE6 (from the
    /// packet or from memory when it ran), as raw dwords, one entry per
    /// slot; an empty entry is a slot nothing loaded.
    Loaded(Vec<Vec<u32>>),
}

/// One bindless descriptor set base (SP_CS_BINDLESS_BASE[i].DESCRIPTOR, or
/// SP_BINDLESS_BASE[i] for the graphics stages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BindlessBase {
    pub iova: u64,
    /// Size of one descriptor in bytes (BINDLESS_DESCRIPTOR_16B or _64B).
    pub descriptor_size: u32,
}

/// Constants shared by the stages, for Vulkan push constants, outside the
/// const file that CP_LOAD_STATE6 ST6_CONSTANTS loads (a6xx.xml's
/// HLSQ_SHARED_CONSTS and HLSQ_SHARED_CONSTS_IMM). One entry per dword;
/// `None` was never loaded.
#[derive(Clone, Debug, Default)]
pub struct SharedConsts {
    /// a6xx with HLSQ_SHARED_CONSTS.ENABLE: the stage's pool, which the
    /// shader reads as c504..c511.
    pub mapped: Option<Vec<Option<u32>>>,
    /// a7xx: HLSQ_SHARED_CONSTS_IMM, which `stsc` copies into the const
    /// file.
    pub imm: Vec<Option<u32>>,
}

/// The vec4 at which a6xx maps the shared consts into every stage's const
/// file (a6xx.xml: "mapped to c504-c511 in each stage").
pub const SHARED_CONSTS_VEC4: usize = 504;

/// One stage's program and the state it runs with.
#[derive(Clone, Debug)]
pub struct ShaderState {
    /// Generation of the GPU, which selects the ISA's encodings.
    pub a7xx: bool,
    /// The GPU: the texture processor lays tiled images out by its bank
    /// setup.
    pub gpu: &'static GpuInfo,
    /// SP_xS_OBJ_START plus SP_xS_OBJ_FIRST_EXEC_OFFSET.
    pub program_iova: u64,
    /// The instructions the hardware preloads, SP_xS_INSTRLEN x 16 (ir3
    /// pads programs to 16 instructions and counts INSTRLEN in those units).
    /// Not a bound: execution may run past it and the hardware fetches the
    /// rest from memory. Turnip's a740 compute shader has 17 instructions
    /// with INSTRLEN 1 (turnip/a740/compute.log). An instruction fetch from
    /// unmapped memory is a fault.
    pub program_len: u32,
    /// 64 or 128 threads per wave (SP_xS_CTRL_REG0.THREADSIZE).
    pub wave_size: u32,
    /// Register footprint (SP_xS_CTRL_REG0.FULLREGFOOTPRINT/HALFREGFOOTPRINT),
    /// in vec4 registers, and whether half registers alias full ones
    /// (MERGEDREGS).
    pub full_regs: u32,
    pub half_regs: u32,
    pub merged_regs: bool,
    /// The stage's const file (vec4 units, 4 dwords each), as loaded by
    /// CP_LOAD_STATE6 ST6_CONSTANTS; length HLSQ_xS_CNTL.CONSTLEN.
    pub consts: Vec<u32>,
    pub shared_consts: SharedConsts,
    /// Private memory (SP_xS_PVT_MEM_*): base and bytes per fiber.
    pub private_iova: u64,
    pub private_per_fiber: u32,
    /// Descriptor state.
    pub bindless: Vec<Option<BindlessBase>>,
    pub ubos: DescriptorSource,
    pub ibos: DescriptorSource,
    pub textures: DescriptorSource,
    pub samplers: DescriptorSource,
    /// SP_TP_WINDOW_OFFSET, the origin of the bin being rendered: texel
    /// fetches from an image in GMEM (TILE6_2) take framebuffer
    /// coordinates, and the texture unit subtracts it to find the texel in
    /// the bin (Turnip programs it with the other window offsets for each
    /// bin, and its GMEM input attachments fetch at gl_FragCoord).
    pub gmem_window: (u32, u32),
    /// Instruction budget for the whole launch; exhausting it is a hang.
    pub instruction_budget: u64,
    /// CPU time the model may spend running the launch; running past it is
    /// a hang too, as the kernel's hangcheck is a timer, not an instruction
    /// count. The model's own thread time, not the wall clock, so that a
    /// loaded machine does not turn a long dispatch into a hang.
    pub time_budget: Option<std::time::Duration>,
}
