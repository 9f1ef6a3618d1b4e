//! `GpuInfo`: the facts about one GPU that select code paths, built once when
//! the physical device is opened and consulted everywhere else, so no code
//! tests chip ids (wgpu-hal's `PrivateCapabilities`, in spirit).
//!
//! The catalogue (`parsnip_registers::gpu`) holds what is known per GPU; this
//! adds what the driver derives from it: which generation's packets and
//! registers to emit, the Vulkan-visible limits that follow from the
//! hardware, and the name the device reports.

use parsnip_kernel_if::DeviceInfo;
use parsnip_registers::gpu::{self, GpuInfo as CatalogueEntry};
use parsnip_registers::Chip;

/// Vendor id of Qualcomm in the PCI-SIG registry, which Vulkan drivers for
/// Adreno report (Turnip and Qualcomm's own driver both use it).
pub const QUALCOMM_VENDOR_ID: u32 = 0x5143;

#[derive(Clone, Debug)]
pub struct GpuInfo {
    /// The catalogue entry.
    pub entry: &'static CatalogueEntry,
    /// The chip id the device reported (the kernel's, or the catalogue's for
    /// software back ends).
    pub chip_id: u64,
    /// The name `VkPhysicalDeviceProperties::deviceName` carries.
    pub device_name: String,
    /// Ticks per second of the counter CP timestamps write.
    pub timestamp_frequency: u64,
}

/// A GPU the catalogue does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedGpu(pub String);

impl std::fmt::Display for UnsupportedGpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl GpuInfo {
    /// The facts for the device kernel-if opened: looked up by chip id, or by
    /// the legacy GPU id where the kernel gave no chip id.
    pub fn from_device(info: &DeviceInfo) -> Result<GpuInfo, UnsupportedGpu> {
        let facts = &info.gpu;
        let entry = gpu::by_chip_id(facts.chip_id)
            .or_else(|e| {
                if facts.gpu_id != 0 {
                    gpu::by_gpu_id(facts.gpu_id)
                } else {
                    Err(e)
                }
            })
            .map_err(|e| UnsupportedGpu(e.to_string()))?;
        let chip_id = if facts.chip_id != 0 {
            facts.chip_id
        } else {
            u64::from(entry.kernel_chip_id)
        };
        Ok(GpuInfo::new(entry, chip_id, info.timestamp_frequency))
    }

    /// The facts for a catalogue entry (tests, and back ends that pose as a
    /// catalogue GPU).
    pub fn new(entry: &'static CatalogueEntry, chip_id: u64, timestamp_frequency: u64) -> GpuInfo {
        GpuInfo {
            entry,
            chip_id,
            device_name: format!("Parsnip {}", entry.marketing_name),
            timestamp_frequency,
        }
    }

    /// The register-database generation.
    #[inline]
    pub fn chip(&self) -> Chip {
        self.entry.chip
    }

    pub fn is_a7xx(&self) -> bool {
        self.entry.chip == Chip::A7xx
    }

    /// `VkPhysicalDeviceProperties::deviceID`: the chip id, as the kernel
    /// reports it (core, major, minor, patch from the top byte; a7xx parts
    /// report their 0x43xxxxxx form). Chip ids fit 32 bits on every part.
    pub fn device_id(&self) -> u32 {
        self.chip_id as u32
    }

    /// Nanoseconds per timestamp tick (`timestampPeriod`).
    pub fn timestamp_period_ns(&self) -> f32 {
        (1e9 / self.timestamp_frequency as f64) as f32
    }

    /// The wave size compute shaders are compiled for: the base size, as
    /// Turnip uses for compute unless a shader asks for more (freedreno's
    /// `threadsize_base`).
    pub fn wave_size(&self) -> u32 {
        self.entry.threadsize_base
    }

    /// The wave sizes a compute shader can be compiled for, smallest first:
    /// the base size and, where the GPU has double-size waves
    /// (`supports_double_threadsize`), twice it.
    pub fn wave_sizes(&self) -> (u32, u32) {
        let base = self.entry.threadsize_base;
        let double = if self.entry.supports_double_threadsize {
            2 * base
        } else {
            base
        };
        (base, double)
    }

    /// Bytes of shared memory one workgroup may use.
    pub fn shared_memory_bytes(&self) -> u32 {
        self.entry.cs_shared_mem_bytes
    }

    /// Instructions per unit of SP_CS_INSTRLEN and of a shader
    /// CP_LOAD_STATE6. Turnip's compute captures program 1 for an
    /// 11-instruction shader on a660 and for a 17-instruction one on a740,
    /// with the code padded to 128 bytes: 16 instructions per unit on a6xx,
    /// and more than 16 on a7xx, where 32 is assumed. A length that
    /// overestimates only preloads more of the instruction cache.
    pub fn instructions_per_instrlen_unit(&self) -> u32 {
        if self.is_a7xx() {
            32
        } else {
            16
        }
    }

    /// SP_CS_INSTRLEN for a shader of `instructions` instructions.
    pub fn instrlen(&self, instructions: u32) -> u32 {
        instructions
            .div_ceil(self.instructions_per_instrlen_unit())
            .max(1)
    }

    /// The most invocations a workgroup may have. HLSQ_CS_NDRANGE_0 holds
    /// each local size minus one in 10 bits (a6xx.xml), and Turnip reports
    /// 1024 invocations on every a6xx/a7xx part: 16 waves of 64.
    pub fn max_workgroup_invocations(&self) -> u32 {
        self.entry.max_waves * self.entry.threadsize_base
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_kernel_if::{Backend, GpuFacts};

    fn device(gpu_id: u32, chip_id: u64) -> DeviceInfo {
        DeviceInfo::software(
            GpuFacts {
                gpu_id,
                chip_id,
                gmem_size: 0,
                gmem_base: 0,
            },
            Backend::Null,
        )
    }

    #[test]
    fn devices_are_found_by_chip_id_or_gpu_id() {
        let a660 = GpuInfo::from_device(&device(660, 0x0606_0001)).unwrap();
        assert_eq!(a660.entry.name, "a660");
        assert_eq!(a660.device_id(), 0x0606_0001);
        assert_eq!(a660.device_name, "Parsnip Adreno 660");
        assert_eq!(a660.chip(), Chip::A6xx);

        let a740 = GpuInfo::from_device(&device(0, 0x4305_0a01)).unwrap();
        assert!(a740.is_a7xx());
        assert_eq!(a740.device_id(), 0x4305_0a01);

        // No chip id: the legacy id finds it, and the kernel's chip id for
        // that GPU is reported.
        let a630 = GpuInfo::from_device(&device(630, 0)).unwrap();
        assert_eq!(a630.device_id(), 0x0603_0001);

        let err = GpuInfo::from_device(&device(999, 0x0909_0909)).unwrap_err();
        assert!(err.0.contains("a660"), "{err}");
    }

    #[test]
    fn the_timestamp_period_follows_the_always_on_counter() {
        let g = GpuInfo::new(gpu::by_name("a618").unwrap(), 0x0601_0800, 19_200_000);
        assert!((g.timestamp_period_ns() - 52.083_332).abs() < 1e-4);
    }
}
