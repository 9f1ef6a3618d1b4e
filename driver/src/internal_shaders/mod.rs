//! Driver-owned GPU resources every device has: a scratch word that cache
//! flush events write (Turnip's global BO plays that part), and the
//! compute shaders behind `vkCmdCopyBuffer` and large `vkCmdFillBuffer`s.
//!
//! Why shaders, and why these: a copy may start and end at any byte, and
//! the CP can only move whole dwords (CP_MEM_TO_MEM, one per packet), so
//! copies need the shader core. The shaders are GLSL (`copy_buffer.comp`,
//! `fill_buffer.comp`), kept here as the SPIR-V glslang makes of them
//! (`spirv.rs`, checked against the GLSL by a test) and compiled with
//! Parsnip's own compiler the first time a device needs them: its
//! instruction selection, scheduling and legalisation (delay slots, sync
//! bits) are the ones every application shader goes through, where
//! hand-written ir3 would have to get them right a second time. The copy
//! writes whole destination dwords and merges back the bytes outside the
//! range, so no byte store is needed at any alignment.
//!
//! Their descriptors go in bindless base [`INTERNAL_SET`], which no
//! application pipeline layout can use, so an internal dispatch leaves the
//! application's descriptor sets bound.

pub(crate) mod spirv;

use std::sync::{Arc, OnceLock};

use ash::vk;
use parsnip_kernel_if::KernelDevice;
use parsnip_registers::pm4::Opcode;

use crate::cmd::buffer::Recording;
use crate::cmd::descriptor_bindings::BoundSet;
use crate::descriptor::encoding::{self, Descriptor};
use crate::descriptor::set_layout::{BindingDesc, DescriptorSetLayout};
use crate::device::Device;
use crate::device_bo::{BoKind, BoRegistry, DeviceBo};
use crate::error::VkResult;
use crate::gpu_info::GpuInfo;
use crate::limits::{DESCRIPTOR_SIZE, INTERNAL_SET, MAX_WORKGROUP_COUNT};
use crate::pipeline::compute::{ComputePipeline, ComputePipelineDesc};
use crate::pipeline_layout::{PipelineLayout, PushConstantRange};
use crate::shader_module::ShaderModule;

/// Invocations per workgroup of both shaders (their local_size_x).
const LOCAL_SIZE: u64 = 64;
/// Bytes one copy dispatch moves: few enough that the destination dwords
/// (plus one at each end) need at most 65535 workgroups.
const COPY_CHUNK: u64 = LOCAL_SIZE * 4 * (MAX_WORKGROUP_COUNT as u64 - 1);
/// Dwords one fill dispatch writes.
const FILL_CHUNK: u64 = LOCAL_SIZE * MAX_WORKGROUP_COUNT as u64;

type Built = Result<Arc<ComputePipeline>, vk::Result>;

pub struct InternalShaders {
    scratch: Arc<DeviceBo>,
    copy: OnceLock<Built>,
    fill: OnceLock<Built>,
}

impl InternalShaders {
    pub fn new(
        _gpu: &GpuInfo,
        kernel: &Arc<dyn KernelDevice>,
        bos: &Arc<BoRegistry>,
    ) -> VkResult<InternalShaders> {
        let scratch = bos.allocate(
            &**kernel,
            &parsnip_kernel_if::BoDesc::new(4096),
            BoKind::DriverData,
        )?;
        Ok(InternalShaders {
            scratch,
            copy: OnceLock::new(),
            fill: OnceLock::new(),
        })
    }

    /// An address _TS events may write (the values are never read).
    pub fn scratch_iova(&self) -> u64 {
        self.scratch.iova()
    }
}

/// The layout both shaders use: `buffers` storage buffers in the internal
/// set, and their parameters as push constants.
fn internal_layout(buffers: u32, params: u32) -> VkResult<Arc<PipelineLayout>> {
    let bindings: Vec<BindingDesc> = (0..buffers)
        .map(|binding| BindingDesc {
            binding,
            ty: vk::DescriptorType::STORAGE_BUFFER,
            count: 1,
            stages: vk::ShaderStageFlags::COMPUTE,
        })
        .collect();
    let mut sets = vec![None; INTERNAL_SET as usize + 1];
    sets[INTERNAL_SET as usize] = Some(DescriptorSetLayout::new(&bindings)?);
    // Made directly: application layouts may not reach the internal set.
    Ok(Arc::new(PipelineLayout {
        sets,
        push_constants: vec![PushConstantRange {
            stages: vk::ShaderStageFlags::COMPUTE,
            offset: 0,
            size: params * 4,
        }],
    }))
}

fn build(device: &Arc<Device>, spirv: &[u32], buffers: u32, params: u32) -> Built {
    let bytes: Vec<u8> = spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    let module = ShaderModule::new(&bytes)?;
    let desc = ComputePipelineDesc {
        module: &module,
        entry_point: "main",
        specialization: Vec::new(),
        layout: internal_layout(buffers, params)?,
        required_subgroup_size: None,
    };
    ComputePipeline::new(device, &desc, None)
}

fn pipeline(
    slot: &OnceLock<Built>,
    make: impl FnOnce() -> Built,
) -> VkResult<Arc<ComputePipeline>> {
    slot.get_or_init(make).clone()
}

/// The 64-byte-aligned address at or below `iova`, which descriptors can
/// hold, and `iova`'s offset from it.
fn descriptor_base(iova: u64) -> (u64, u32) {
    let base = iova & !(DESCRIPTOR_SIZE - 1);
    (base, (iova - base) as u32)
}

impl Recording {
    /// One dispatch of an internal shader: its descriptors in the internal
    /// set, `params` as push constants, `groups` workgroups; the
    /// application's pipeline and push constants are restored after.
    fn internal_dispatch(
        &mut self,
        pipeline: Arc<ComputePipeline>,
        descriptors: &[Descriptor],
        params: &[u32],
        groups: u32,
    ) -> VkResult<()> {
        let dwords: Vec<u32> = descriptors.iter().flatten().copied().collect();
        let set = self.upload.upload(&dwords, DESCRIPTOR_SIZE)?;
        self.internal_dispatch_with(pipeline, BoundSet { iova: set }, params, groups)
    }

    /// Fills `size` bytes (a multiple of 4) at `iova` with `value`.
    pub fn internal_fill(&mut self, iova: u64, size: u64, value: u32) -> VkResult<()> {
        let device = self.device.clone();
        let shader = pipeline(&device.internal.fill, || {
            build(&device, spirv::FILL_BUFFER, 1, 3)
        })?;
        let chip = device.gpu.chip();
        let mut done = 0;
        while done < size / 4 {
            let count = (size / 4 - done).min(FILL_CHUNK);
            let (base, offset) = descriptor_base(iova + done * 4);
            let first = offset / 4;
            let dst = encoding::storage_buffer(chip, base, u64::from(first) * 4 + count * 4)?;
            let groups = count.div_ceil(LOCAL_SIZE) as u32;
            self.internal_dispatch(
                shader.clone(),
                &[dst],
                &[first, count as u32, value],
                groups,
            )?;
            done += count;
        }
        Ok(())
    }

    /// Copies `size` bytes from `src` to `dst`, any alignment. Dispatches
    /// whose destinations may share a dword (the chunks of one copy, the
    /// regions of one command) are separated by a wait for idle, since each
    /// rewrites the dwords it touches whole.
    pub fn internal_copy(&mut self, src: u64, dst: u64, size: u64) -> VkResult<()> {
        let device = self.device.clone();
        let shader = pipeline(&device.internal.copy, || {
            build(&device, spirv::COPY_BUFFER, 2, 4)
        })?;
        let chip = device.gpu.chip();
        let mut done = 0;
        while done < size {
            let n = (size - done).min(COPY_CHUNK);
            let (dst_base, dst_first) = descriptor_base(dst + done);
            let (src_base, src_first) = descriptor_base(src + done);
            let dst_end = dst_first + n as u32;
            let src_end = src_first + n as u32;
            let descriptors = [
                encoding::storage_buffer(chip, src_base, u64::from(src_end))?,
                encoding::storage_buffer(chip, dst_base, u64::from(dst_end))?,
            ];
            let params = [dst_first, dst_end, src_first, (src_end - 1) / 4];
            let dwords = u64::from(dst_end.div_ceil(4) - dst_first / 4);
            let groups = dwords.div_ceil(LOCAL_SIZE) as u32;
            self.internal_dispatch(shader.clone(), &descriptors, &params, groups)?;
            self.cs.packet(Opcode::CP_WAIT_FOR_IDLE, &[])?;
            done += n;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text `spirv.rs` holds for these words.
    fn spirv_source(shaders: &[(&str, Vec<u32>)]) -> String {
        let mut out = String::from(
            "// SPIR-V of copy_buffer.comp and fill_buffer.comp, as glslangValidator -V\n\
             // (glslang 12) compiles them. Regenerate after editing a shader with\n\
             // `PARSNIP_REGENERATE_SPIRV=1 cargo test -p parsnip-driver internal_shaders`;\n\
             // that test otherwise checks these words still match the GLSL.\n\n",
        );
        for (name, words) in shaders {
            out.push_str(&format!(
                "#[rustfmt::skip]\npub static {name}: &[u32] = &[\n"
            ));
            for line in words.chunks(6) {
                let items: Vec<String> = line.iter().map(|w| format!("0x{w:08x},")).collect();
                out.push_str(&format!("    {}\n", items.join(" ")));
            }
            out.push_str("];\n\n");
        }
        out.pop();
        out
    }

    fn glslang(source: &std::path::Path) -> Vec<u32> {
        let out = std::env::temp_dir().join(format!(
            "parsnip-internal-{}-{}.spv",
            std::process::id(),
            source.file_stem().unwrap().to_string_lossy()
        ));
        let status = std::process::Command::new("glslangValidator")
            .arg("-V")
            .arg("-o")
            .arg(&out)
            .arg(source)
            .output()
            .expect("glslangValidator (Debian's glslang-tools; scripts/install-deps installs it)");
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stdout)
        );
        let bytes = std::fs::read(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn internal_shaders_are_the_spirv_of_their_glsl() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/internal_shaders");
        let expected = spirv_source(&[
            ("COPY_BUFFER", glslang(&dir.join("copy_buffer.comp"))),
            ("FILL_BUFFER", glslang(&dir.join("fill_buffer.comp"))),
        ]);
        let path = dir.join("spirv.rs");
        if std::env::var("PARSNIP_REGENERATE_SPIRV").is_ok_and(|v| v == "1") {
            std::fs::write(&path, &expected).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap();
        assert!(
            committed == expected,
            "spirv.rs does not match the GLSL: regenerate it (see its first lines)"
        );
    }

    #[test]
    fn both_shaders_compile_for_every_generation() {
        for name in ["a660", "a740"] {
            let device = crate::device::tests::null_device(name);
            let copy = build(&device, spirv::COPY_BUFFER, 2, 4).unwrap();
            let fill = build(&device, spirv::FILL_BUFFER, 1, 3).unwrap();
            assert_eq!(copy.binary.local_size, [64, 1, 1]);
            assert_eq!(fill.binary.local_size, [64, 1, 1]);
            assert_eq!(copy.binary.consts.push_constants.map(|p| p.0), Some(0));
        }
    }

    #[test]
    fn a_device_with_built_internal_pipelines_is_still_freed() {
        let device = crate::device::tests::null_device("a660");
        let weak = Arc::downgrade(&device);
        let pool =
            crate::cmd::pool::CommandPool::new(&device, 0, vk::CommandPoolCreateFlags::empty())
                .unwrap();
        let cmd = pool.allocate(crate::cmd::buffer::Level::Primary);
        cmd.begin(None).unwrap();
        cmd.record(|r| r.internal_copy(0x1_0000_0000, 0x1_0000_1003, 77));
        cmd.end().unwrap();
        assert!(device.internal.copy.get().is_some_and(|b| b.is_ok()));
        drop((cmd, pool, device));
        assert!(
            weak.upgrade().is_none(),
            "a reference cycle keeps the device alive"
        );
    }

    #[test]
    fn chunks_fit_the_workgroup_limit_at_any_alignment() {
        // The worst case: 63 bytes into a 64-byte block, a whole chunk.
        let dst_first = 63u64;
        let dwords = (dst_first + COPY_CHUNK).div_ceil(4) - dst_first / 4;
        assert!(dwords.div_ceil(LOCAL_SIZE) <= u64::from(MAX_WORKGROUP_COUNT));
        assert_eq!(descriptor_base(0x1_0000_0047), (0x1_0000_0040, 7));
    }
}
