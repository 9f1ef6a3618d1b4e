//! What the command processor hands the shader processor for one compute
//! dispatch (CP_EXEC_CS / CP_EXEC_CS_INDIRECT).
//!
//! On hardware the HLSQ reads the SP_CS_* / HLSQ_CS_* registers and the state
//! loaded by CP_LOAD_STATE6 and launches waves. In the model the command
//! processor gathers that state (checking in strict mode that each register it
//! reads was programmed) into this plain description, and the shader
//! processor executes it. Both halves are the model's own: no driver type
//! crosses here.

/// A register id as the hardware encodes it in SP_CS_CNTL_0 and friends:
/// `(n << 2) | component`, with r63.x (0xfc) meaning "not used".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegId(pub u8);

impl RegId {
    pub const UNUSED: RegId = RegId(0xfc);

    pub fn is_used(self) -> bool {
        self != Self::UNUSED
    }
}

/// Where a kind of descriptor comes from for this dispatch.
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

/// One bindless descriptor set base (SP_CS_BINDLESS_BASE[i].DESCRIPTOR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BindlessBase {
    pub iova: u64,
    /// Size of one descriptor in bytes (BINDLESS_DESCRIPTOR_16B or _64B).
    pub descriptor_size: u32,
}

/// Everything the shader processor needs to run one compute dispatch.
#[derive(Clone, Debug)]
pub struct ComputeDispatch {
    /// Generation of the GPU, which selects the ISA's encodings.
    pub a7xx: bool,
    /// SP_CS_OBJ_START plus SP_CS_OBJ_FIRST_EXEC_OFFSET.
    pub program_iova: u64,
    /// The instructions the hardware preloads, SP_CS_INSTRLEN x 16 (ir3
    /// pads programs to 16 instructions and counts INSTRLEN in those units).
    /// Not a bound: execution may run past it and the hardware fetches the
    /// rest from memory. Turnip's a740 compute shader has 17 instructions
    /// with INSTRLEN 1 (turnip/a740/compute.log). An instruction fetch from
    /// unmapped memory is a fault.
    pub program_len: u32,
    /// 64 or 128 threads per wave (SP_CS_CTRL_REG0.THREADSIZE).
    pub wave_size: u32,
    /// Register footprint (SP_CS_CTRL_REG0.FULLREGFOOTPRINT/HALFREGFOOTPRINT),
    /// in vec4 registers, and whether half registers alias full ones
    /// (MERGEDREGS).
    pub full_regs: u32,
    pub half_regs: u32,
    pub merged_regs: bool,
    /// Local size (HLSQ_CS_NDRANGE_0) and work group counts (CP_EXEC_CS or
    /// the indirect buffer).
    pub local_size: [u32; 3],
    pub group_count: [u32; 3],
    /// HLSQ_CS_NDRANGE_2/4/6 GLOBALOFF_X/Y/Z, the OpenCL global offset in
    /// invocations. Where the hardware adds it is not public; Turnip and
    /// freedreno always program 0 (Vulkan's base group goes in a const).
    pub group_offset: [u32; 3],
    /// Where the hardware writes the built-ins for each thread.
    pub work_group_id: RegId,
    pub local_id: RegId,
    pub local_size_reg: RegId,
    pub work_group_offset: RegId,
    pub linear_local_id: RegId,
    /// The CS const file (vec4 units, 4 dwords each), as loaded by
    /// CP_LOAD_STATE6 ST6_CONSTANTS; length HLSQ_CS_CNTL.CONSTLEN.
    pub consts: Vec<u32>,
    /// Shared (local) memory per work group, in bytes.
    pub shared_size: u32,
    /// Private memory (SP_CS_PVT_MEM_*): base and bytes per fiber.
    pub private_iova: u64,
    pub private_per_fiber: u32,
    /// Descriptor state.
    pub bindless: Vec<Option<BindlessBase>>,
    pub ubos: DescriptorSource,
    pub ibos: DescriptorSource,
    pub textures: DescriptorSource,
    pub samplers: DescriptorSource,
    /// Instruction budget for the whole dispatch; exhausting it is a hang.
    pub instruction_budget: u64,
    /// Wall-clock time the dispatch may run; running past it is a hang too,
    /// as the kernel's hangcheck is a timer, not an instruction count.
    pub time_budget: Option<std::time::Duration>,
}
