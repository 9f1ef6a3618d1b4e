//! What a recorded dispatch hands the GPU's shader processor, as the
//! model's command processor gathers it from the driver's command stream
//! (registers, CP_LOAD_STATE6 consts, bindless bases, CP_EXEC_CS), for
//! Turnip's own test shader `double.comp` (data[i] = 2 * i, 4 workgroups of
//! 64), on the simulated a660 and a740.
//!
//! The submit is dumped with PARSNIP_RD_DUMP and replayed on a model whose
//! shader core is this test's: it records the dispatch, and does what
//! double.comp does through the storage descriptor the driver wrote at the
//! bindless base, so the result also checks the descriptor's encoding.
//! Turnip's captures of the same program (reference/turnip/*/compute.log)
//! give the values the dispatch must carry.

mod common;

use std::path::Path;
use std::sync::{Arc, Mutex};

use ash::vk;
use common::simulated_device;
use parsnip_driver::buffer::Buffer;
use parsnip_driver::cmd::buffer::Level;
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::device_memory::DeviceMemory;
use parsnip_driver::pipeline_layout::PipelineLayout;
use parsnip_driver::sync::fence::Fence;
use parsnip_registers::descriptors::{a6xx, a7xx};
use parsnip_sim::compute_dispatch::ComputeDispatch;
use parsnip_sim::memory::AddressSpace;
use parsnip_sim::report::ShaderFailure;
use parsnip_sim::shader_core::ShaderCore;
use parsnip_sim::sp::SpStats;

/// Turnip's double.comp, compiled by glslang.
fn double_comp() -> Option<Vec<u8>> {
    let source = parsnip_reference::reference_file("dispatch_state", "turnip/apps/double.comp")?;
    // Compiled from a copy: the reference directory is not ours to write to.
    let copy = std::env::temp_dir().join(format!("parsnip-double-{}.comp", std::process::id()));
    std::fs::copy(&source, &copy).unwrap();
    let spirv = common::glslang(&copy);
    let _ = std::fs::remove_file(&copy);
    Some(spirv)
}

/// Records the dispatches it is handed and runs double.comp for each.
struct DoubleCore {
    a7xx: bool,
    seen: Arc<Mutex<Vec<ComputeDispatch>>>,
}

impl ShaderCore for DoubleCore {
    fn run_compute(
        &self,
        d: &ComputeDispatch,
        _index: u32,
        memory: &AddressSpace,
    ) -> Result<SpStats, ShaderFailure> {
        self.seen.lock().unwrap().push(d.clone());
        let fail = |message: String| ShaderFailure::Error { message, at: None };
        let base = d
            .bindless
            .first()
            .copied()
            .flatten()
            .ok_or_else(|| fail("no bindless base 0".into()))?;
        let words = memory
            .read_dwords(base.iova, 16)
            .map_err(|e| fail(format!("reading the descriptor: {e:?}")))?;
        let raw: [u32; 16] = words.try_into().unwrap();
        let (iova, elements) = if self.a7xx {
            let t = a7xx::TextureDescriptor::from_raw(&raw);
            (
                u64::from(t.base_lo) | u64::from(t.base_hi) << 32,
                t.width | t.height << 15,
            )
        } else {
            let t = a6xx::TextureDescriptor::from_raw(&raw);
            (
                u64::from(t.base_lo) | u64::from(t.base_hi) << 32,
                t.width | t.height << 15,
            )
        };
        let invocations = d.local_size[0] * d.group_count[0];
        for i in 0..invocations.min(elements) {
            memory
                .write_u32(iova + 4 * u64::from(i), 2 * i)
                .map_err(|e| fail(format!("writing element {i}: {e:?}")))?;
        }
        Ok(SpStats::default())
    }
}

/// Records and submits double.comp on `gpu` with the dump on; returns the
/// buffer's address.
fn record_and_submit(gpu: &'static str, spirv: &[u8], trace: &Path) -> u64 {
    std::env::set_var("PARSNIP_RD_DUMP", trace);
    let device = simulated_device(gpu);
    std::env::remove_var("PARSNIP_RD_DUMP");

    let memory = DeviceMemory::allocate(&device, 1024, 0).unwrap();
    let buffer = Buffer::new(1024, vk::BufferUsageFlags::STORAGE_BUFFER).unwrap();
    buffer.bind(memory.clone(), 0).unwrap();
    memory
        .bo
        .write(0, &0xdead_beefu32.to_le_bytes().repeat(256))
        .unwrap();
    let set_layout = common::one_storage_buffer();
    let layout = PipelineLayout::new(vec![Some(set_layout.clone())], Vec::new()).unwrap();
    let set = common::storage_buffer_set(&device, &set_layout, &buffer);
    let pipeline = common::compute_pipeline(&device, spirv, &layout);

    let cmd_pool = CommandPool::new(&device, 0, vk::CommandPoolCreateFlags::empty()).unwrap();
    let cmd = cmd_pool.allocate(Level::Primary);
    cmd.begin(None).unwrap();
    cmd.record(|r| r.bind_compute_pipeline(pipeline.clone()));
    cmd.record(|r| {
        r.bind_descriptor_sets(
            vk::PipelineBindPoint::COMPUTE,
            &layout,
            0,
            std::slice::from_ref(&set),
            &[],
        )
    });
    cmd.record(|r| r.dispatch([0; 3], [4, 1, 1]));
    cmd.end().unwrap();
    let fence = common::submit(&device, &cmd);
    // The model may or may not have a shader processor in this build; the
    // dump was written at submit time either way.
    let _ = Fence::wait(&[fence], true, u64::MAX);
    buffer.iova(0)
}

#[test]
fn the_dispatch_reaching_the_shader_processor_is_turnips() {
    let Some(spirv) = double_comp() else { return };
    for gpu in ["a660", "a740"] {
        let trace =
            std::env::temp_dir().join(format!("parsnip-dispatch-{}-{gpu}.rd", std::process::id()));
        let iova = record_and_submit(gpu, &spirv, &trace);

        let info = parsnip_registers::gpu::by_name(gpu).unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let core = DoubleCore {
            a7xx: info.chip == parsnip_registers::Chip::A7xx,
            seen: seen.clone(),
        };
        let model = parsnip_sim::Gpu::with_shader_core(
            info,
            parsnip_sim::SimOptions::default(),
            Arc::new(AddressSpace::new()),
            Box::new(core),
        );
        let trace = parsnip_rd::Trace::open(&trace).unwrap();
        let mut replay = parsnip_tools::replay::Replay::on(model, trace);
        replay.run_all().unwrap_or_else(|e| panic!("{gpu}: {e}"));

        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 1, "{gpu}: one dispatch");
        let d = &seen[0];
        // compute.log: HLSQ_CS_NDRANGE_0 LOCALSIZEX = 63, CP_EXEC_CS
        // NGROUPS_X = 4, a 64-wide wave, 64-byte bindless descriptors.
        assert_eq!(d.local_size, [64, 1, 1], "{gpu}");
        assert_eq!(d.group_count, [4, 1, 1], "{gpu}");
        assert_eq!(d.group_offset, [0, 0, 0], "{gpu}");
        assert_eq!(d.wave_size, 64, "{gpu}");
        assert_eq!(d.a7xx, gpu == "a740");
        assert_eq!(d.bindless[0].unwrap().descriptor_size, 64, "{gpu}");
        // Both built-ins double.comp reads are programmed (Turnip: r48.x and
        // r0.x; our compiler chooses the same).
        assert!(
            d.work_group_id.is_used() && d.local_id.is_used(),
            "{gpu}: {d:?}"
        );

        let result = replay.read(iova, 1024).unwrap();
        let values: Vec<u32> = result
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let expected: Vec<u32> = (0..256).map(|i| 2 * i).collect();
        assert_eq!(
            values, expected,
            "{gpu}: data[i] = 2 * i through the descriptor"
        );
    }
}
