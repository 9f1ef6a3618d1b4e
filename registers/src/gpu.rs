//! The GPUs Parsnip targets and the facts about each that the driver and
//! the simulator consult (a `GpuInfo` built once from the chip id, rather
//! than `gpu_id >= 650` tests spread through the code).
//!
//! Sources: Mesa's `src/freedreno/common/freedreno_devices.py` (Mesa
//! 25.1: chip ids, sub-generation, CCUs, tile alignment and limits, VSC
//! pipes, shared memory, wave granularity, fibers per SP, register file,
//! instruction cache, CCU cache sizes, highest bank bit, the magic register
//! values of [`magic_regs`]) and the Linux msm
//! driver's `a6xx_catalog.c` (chip ids the kernel reports, GMEM sizes,
//! families).
//!
//! ```
//! use parsnip_registers::gpu;
//! let a660 = gpu::by_name("a660").unwrap();
//! assert_eq!(a660.gmem_bytes, 1536 * 1024);
//! assert_eq!(gpu::by_chip_id(0x0606_00ff).unwrap().name, "a660");
//! assert_eq!(gpu::by_chip_id(0x4305_0a01).unwrap().name, "a740");
//! assert!(gpu::by_name("a999").unwrap_err().to_string().contains("a618"));
//! ```

use std::fmt;

use crate::chip::Chip;

pub mod magic_regs;

pub use magic_regs::{MagicReg, MagicRegister, MagicRegs};

/// Everything Parsnip knows about one GPU.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuInfo {
    /// Short name (`a660`).
    pub name: &'static str,
    /// Marketing name.
    pub marketing_name: &'static str,
    /// Freedreno's numeric GPU id (`660`).
    pub gpu_id: u32,
    /// The chip ids freedreno's device table matches this GPU with. A low
    /// byte of `0xff` matches any patch level, a speed bin (bits 32-47) of
    /// `0xffff` any speed bin.
    pub chip_ids: &'static [u64],
    /// The chip id the msm kernel reports for it.
    pub kernel_chip_id: u32,
    pub chip: Chip,
    /// Sub-generation within the chip: a6xx gen 1-4, a7xx gen 1-3.
    pub gen: u32,
    /// GMEM (on-chip tile memory) size.
    pub gmem_bytes: u32,
    /// Colour/depth cache units; freedreno takes the SP count to be the same.
    pub num_ccu: u32,
    pub num_sp_cores: u32,
    /// GMEM surfaces are aligned to this many pixels.
    pub gmem_align_w: u32,
    pub gmem_align_h: u32,
    /// Bin sizes are multiples of these.
    pub tile_align_w: u32,
    pub tile_align_h: u32,
    /// Largest bin.
    pub tile_max_w: u32,
    pub tile_max_h: u32,
    pub num_vsc_pipes: u32,
    /// Compute shared memory per workgroup.
    pub cs_shared_mem_bytes: u32,
    pub wave_granularity: u32,
    /// Waves of private memory (fibers) each SP holds.
    pub fibers_per_sp: u32,
    /// Base wave size; a double-size wave is available when
    /// `supports_double_threadsize`.
    pub threadsize_base: u32,
    pub supports_double_threadsize: bool,
    pub max_waves: u32,
    /// Register file per wave slot, in vec4s.
    pub reg_size_vec4: u32,
    /// Instruction cache, in 128-byte lines.
    pub instr_cache_size: u32,
    /// CCU cache sizes when rendering to system memory.
    pub sysmem_ccu_depth_cache_bytes: u32,
    pub sysmem_ccu_color_cache_bytes: u32,
    /// In GMEM rendering the colour cache takes 1 / 2^this of the CCU.
    pub gmem_ccu_color_cache_fraction_log2: u32,
    /// Highest DDR bank bit, for UBWC.
    pub highest_bank_bit: u32,
    /// The macrotile mode the kernel programs (RBBM_NC_MODE_CNTL): the
    /// newer 8-channel bank swizzle of TILE6_3 rather than the 4-channel one
    /// (the msm driver's `a6xx_calc_ubwc_config`: a650, a660, a690 and the
    /// a7xx parts use 8 channels).
    pub ubwc_macrotile_8_channel: bool,
    /// Which bank swizzle levels the kernel enables, bit 0 for level 1 (the
    /// msm driver's `ubwc_swizzle`: 0x6, levels 2 and 3, on every GPU here;
    /// level 1 is UBWC 1.0's).
    pub ubwc_bank_swizzle_levels: u32,
    /// The debug/eco/chicken register values written at the start of every
    /// command buffer (see [`magic_regs`]).
    pub magic_regs: &'static MagicRegs,
    /// What the GPU's UBWC and surface formats allow.
    pub ubwc: UbwcFacts,
    /// What the GPU's LRZ unit does beyond the a6xx basics.
    pub lrz: LrzFacts,
}

/// The LRZ features of a GPU (freedreno_devices.py: `enable_lrz_fast_clear`,
/// `has_lrz_dir_tracking`; both from a6xx gen 3 on, and on every a7xx).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LrzFacts {
    /// The fast-clear buffer (GRAS_LRZ_FAST_CLEAR_BUFFER_BASE) works.
    pub fast_clear: bool,
    /// The GPU keeps the direction of the draws since the last LRZ_CLEAR
    /// in memory after the fast-clear bits and disables LRZ itself on a
    /// change of direction.
    pub direction_tracking: bool,
}

const LRZ_BASIC: LrzFacts = LrzFacts {
    fast_clear: false,
    direction_tracking: false,
};

const LRZ_TRACKED: LrzFacts = LrzFacts {
    fast_clear: true,
    direction_tracking: true,
};

/// The per-GPU limits of UBWC compression and depth/stencil formats
/// (freedreno_devices.py: `has_8bpp_ubwc`, `has_ubwc_linear_mipmap_fallback`,
/// `has_z24uint_s8uint`, `supports_ibo_ubwc`,
/// `ubwc_unorm_snorm_int_compatible`, `broken_ds_ubwc_quirk`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UbwcFacts {
    /// Single-plane 8-bit formats may be compressed.
    pub eight_bit: bool,
    /// Mip levels narrower than a UBWC block fall back to linear; without
    /// it every level of a UBWC image stays tiled.
    pub linear_mipmap_fallback: bool,
    /// FMT6_Z24_UINT_S8_UINT exists (stencil of D24S8 sampled as uint).
    pub z24uint_s8uint: bool,
    /// Storage images (IBOs) may be compressed.
    pub storage: bool,
    /// UNORM and SNORM views of one UBWC image agree on special values.
    pub unorm_snorm_compatible: bool,
    /// Depth/stencil UBWC is broken (needs flushes nothing can place).
    pub broken_depth_stencil: bool,
}

/// a6xx gen 1 (`a6xx_base` + `a6xx_gen1`).
const UBWC_A6XX_GEN1: UbwcFacts = UbwcFacts {
    eight_bit: true,
    linear_mipmap_fallback: false,
    z24uint_s8uint: false,
    storage: false,
    unorm_snorm_compatible: false,
    broken_depth_stencil: false,
};

/// a6xx gen 2 and 3: no 8-bit UBWC, Z24_UINT_S8_UINT.
const UBWC_A6XX_GEN2: UbwcFacts = UbwcFacts {
    eight_bit: false,
    z24uint_s8uint: true,
    ..UBWC_A6XX_GEN1
};

/// a6xx gen 4: the linear mipmap fallback.
const UBWC_A6XX_GEN4: UbwcFacts = UbwcFacts {
    linear_mipmap_fallback: true,
    ..UBWC_A6XX_GEN2
};

/// a7xx gen 1 (`a7xx_base` + `a7xx_gen1`): storage images compress.
const UBWC_A7XX_GEN1: UbwcFacts = UbwcFacts {
    storage: true,
    ..UBWC_A6XX_GEN4
};

/// a7xx gen 2 and 3: UNORM/SNORM/integer views agree.
const UBWC_A7XX_GEN2: UbwcFacts = UbwcFacts {
    unorm_snorm_compatible: true,
    ..UBWC_A7XX_GEN1
};

const KIB: u32 = 1024;
const MIB: u32 = 1024 * 1024;

/// Common a6xx values (freedreno_devices.py's `A6xxGPUInfo` defaults and
/// `a6xx_base`); each GPU below overrides what differs.
const A6XX_BASE: GpuInfo = GpuInfo {
    name: "",
    marketing_name: "",
    gpu_id: 0,
    chip_ids: &[],
    kernel_chip_id: 0,
    chip: Chip::A6xx,
    gen: 0,
    gmem_bytes: 0,
    num_ccu: 0,
    num_sp_cores: 0,
    gmem_align_w: 16,
    gmem_align_h: 4,
    tile_align_w: 32,
    tile_align_h: 16,
    tile_max_w: 1024,
    tile_max_h: 1008,
    num_vsc_pipes: 32,
    cs_shared_mem_bytes: 32 * KIB,
    wave_granularity: 2,
    fibers_per_sp: 128 * 2 * 16,
    threadsize_base: 64,
    supports_double_threadsize: true,
    max_waves: 16,
    reg_size_vec4: 96,
    instr_cache_size: 64,
    sysmem_ccu_depth_cache_bytes: 64 * KIB,
    sysmem_ccu_color_cache_bytes: 64 * KIB,
    gmem_ccu_color_cache_fraction_log2: 2,
    highest_bank_bit: 15,
    ubwc_macrotile_8_channel: false,
    ubwc_bank_swizzle_levels: 0x6,
    magic_regs: &magic_regs::UNSET,
    ubwc: UBWC_A6XX_GEN1,
    lrz: LRZ_BASIC,
};

/// a6xx gen 3 and gen 4 (the `a6xx_gen3` and `a6xx_gen4` templates): a
/// smaller register file and a larger instruction cache than gen 1 and 2.
const A6XX_GEN3_BASE: GpuInfo = GpuInfo {
    reg_size_vec4: 64,
    instr_cache_size: 127,
    ubwc: UBWC_A6XX_GEN2,
    lrz: LRZ_TRACKED,
    ..A6XX_BASE
};

/// Common a7xx values (`a7xx_base`).
const A7XX_BASE: GpuInfo = GpuInfo {
    chip: Chip::A7xx,
    tile_align_w: 96,
    tile_align_h: 32,
    tile_max_w: 1728,
    tile_max_h: 1728,
    reg_size_vec4: 96,
    instr_cache_size: 127,
    sysmem_ccu_depth_cache_bytes: 256 * KIB,
    sysmem_ccu_color_cache_bytes: 64 * KIB,
    gmem_ccu_color_cache_fraction_log2: 3,
    highest_bank_bit: 16,
    ubwc_macrotile_8_channel: true,
    ubwc: UBWC_A7XX_GEN2,
    lrz: LRZ_TRACKED,
    ..A6XX_BASE
};

/// The GPUs Parsnip targets.
pub static GPUS: &[GpuInfo] = &[
    GpuInfo {
        name: "a618",
        marketing_name: "Adreno 618",
        gpu_id: 618,
        chip_ids: &[0x0601_08ff],
        kernel_chip_id: 0x0601_0800,
        gen: 1,
        gmem_bytes: 512 * KIB,
        num_ccu: 1,
        num_sp_cores: 1,
        tile_align_h: 32,
        fibers_per_sp: 128 * 16,
        highest_bank_bit: 14,
        magic_regs: &magic_regs::A618,
        ..A6XX_BASE
    },
    GpuInfo {
        name: "a630",
        marketing_name: "Adreno 630",
        gpu_id: 630,
        chip_ids: &[0x0603_00ff],
        kernel_chip_id: 0x0603_0001,
        gen: 1,
        gmem_bytes: MIB,
        num_ccu: 2,
        num_sp_cores: 2,
        fibers_per_sp: 128 * 16,
        magic_regs: &magic_regs::A630,
        ..A6XX_BASE
    },
    GpuInfo {
        name: "a640",
        marketing_name: "Adreno 640",
        gpu_id: 640,
        chip_ids: &[0x0604_00ff],
        kernel_chip_id: 0x0604_0001,
        gen: 2,
        gmem_bytes: MIB,
        num_ccu: 2,
        num_sp_cores: 2,
        fibers_per_sp: 128 * 4 * 16,
        magic_regs: &magic_regs::A640,
        ubwc: UBWC_A6XX_GEN2,
        ..A6XX_BASE
    },
    GpuInfo {
        name: "a650",
        marketing_name: "Adreno 650",
        gpu_id: 650,
        chip_ids: &[0x0605_00ff],
        kernel_chip_id: 0x0605_0002,
        gen: 3,
        gmem_bytes: MIB + 128 * KIB,
        num_ccu: 3,
        num_sp_cores: 3,
        tile_align_w: 96,
        highest_bank_bit: 16,
        ubwc_macrotile_8_channel: true,
        magic_regs: &magic_regs::A650,
        ..A6XX_GEN3_BASE
    },
    GpuInfo {
        name: "a660",
        marketing_name: "Adreno 660",
        gpu_id: 660,
        chip_ids: &[0x0606_00ff],
        kernel_chip_id: 0x0606_0001,
        gen: 4,
        gmem_bytes: MIB + 512 * KIB,
        num_ccu: 3,
        num_sp_cores: 3,
        tile_align_w: 96,
        highest_bank_bit: 16,
        ubwc_macrotile_8_channel: true,
        magic_regs: &magic_regs::A660,
        ubwc: UBWC_A6XX_GEN4,
        ..A6XX_GEN3_BASE
    },
    GpuInfo {
        name: "a690",
        marketing_name: "Adreno 690",
        gpu_id: 690,
        chip_ids: &[0x0609_00ff, 0xffff_0609_0000],
        kernel_chip_id: 0x0609_0000,
        gen: 4,
        gmem_bytes: 4 * MIB,
        num_ccu: 8,
        num_sp_cores: 8,
        tile_align_w: 64,
        tile_align_h: 32,
        highest_bank_bit: 16,
        ubwc_macrotile_8_channel: true,
        magic_regs: &magic_regs::A690,
        ubwc: UbwcFacts {
            broken_depth_stencil: true,
            ..UBWC_A6XX_GEN4
        },
        ..A6XX_GEN3_BASE
    },
    GpuInfo {
        name: "a730",
        marketing_name: "Adreno 730",
        gpu_id: 730,
        chip_ids: &[0x0703_0001, 0xffff_0703_0001],
        kernel_chip_id: 0x0703_0001,
        gen: 1,
        gmem_bytes: 2 * MIB,
        num_ccu: 4,
        num_sp_cores: 4,
        tile_align_w: 64,
        magic_regs: &magic_regs::A730,
        ubwc: UBWC_A7XX_GEN1,
        ..A7XX_BASE
    },
    GpuInfo {
        name: "a740",
        marketing_name: "Adreno 740",
        gpu_id: 740,
        chip_ids: &[0x0704_00ff, 0x4305_0a01, 0xffff_4305_0a01],
        kernel_chip_id: 0x4305_0a01,
        gen: 2,
        gmem_bytes: 3 * MIB,
        num_ccu: 6,
        num_sp_cores: 6,
        magic_regs: &magic_regs::A740,
        ..A7XX_BASE
    },
    GpuInfo {
        name: "a750",
        marketing_name: "Adreno 750",
        gpu_id: 750,
        chip_ids: &[0x4305_1401, 0xffff_4305_1401],
        kernel_chip_id: 0x4305_1401,
        gen: 3,
        gmem_bytes: 3 * MIB,
        num_ccu: 6,
        num_sp_cores: 6,
        magic_regs: &magic_regs::A750,
        ..A7XX_BASE
    },
];

/// A GPU the catalogue does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGpu {
    pub asked: String,
}

impl fmt::Display for UnknownGpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = GPUS.iter().map(|g| g.name).collect();
        write!(
            f,
            "unsupported GPU {}; Parsnip supports {}",
            self.asked,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownGpu {}

/// By short name (`a660`, case-insensitive; `adreno660`/`660` also work).
pub fn by_name(name: &str) -> Result<&'static GpuInfo, UnknownGpu> {
    let lower = name.trim().to_ascii_lowercase();
    let short = lower
        .trim_start_matches("adreno")
        .trim_start_matches(' ')
        .trim_start_matches('a');
    GPUS.iter()
        .find(|g| g.name.trim_start_matches('a') == short)
        .ok_or_else(|| UnknownGpu {
            asked: format!("`{name}`"),
        })
}

/// By freedreno gpu id (`660`).
pub fn by_gpu_id(gpu_id: u32) -> Result<&'static GpuInfo, UnknownGpu> {
    GPUS.iter()
        .find(|g| g.gpu_id == gpu_id)
        .ok_or_else(|| UnknownGpu {
            asked: format!("gpu_id {gpu_id}"),
        })
}

/// Whether freedreno's device-table entry `pattern` matches `chip_id`:
/// exactly, with a `0xff` patch level matching any patch, and with a
/// `0xffff` speed bin (bits 32-47) matching any speed bin.
pub fn chip_id_matches(pattern: u64, chip_id: u64) -> bool {
    let (pattern, chip_id) = if pattern >> 32 & 0xffff == 0xffff {
        (pattern & 0xffff_ffff, chip_id & 0xffff_ffff)
    } else {
        (pattern, chip_id)
    };
    pattern == chip_id || (pattern & 0xff == 0xff && pattern & !0xff == chip_id & !0xff)
}

/// By chip id, as the kernel (`0x06060001`) or an `.rd` trace
/// (`0x060600ff`) gives it.
pub fn by_chip_id(chip_id: u64) -> Result<&'static GpuInfo, UnknownGpu> {
    GPUS.iter()
        .find(|g| {
            g.chip_ids.iter().any(|p| chip_id_matches(*p, chip_id))
                || u64::from(g.kernel_chip_id) == chip_id
        })
        .ok_or_else(|| UnknownGpu {
            asked: format!("chip_id {chip_id:#x}"),
        })
}
