//! Breadcrumbs on the simulated a660 and a740: a dispatch that never ends
//! leaves the last breadcrumb at the command before it and the receiver
//! names it as running when the device is lost; `break=2:1` stops the GPU
//! after the second command until the receiver releases it; and the same
//! commands leave the same results with breadcrumbs off and on.
//!
//! The receiver is [`Progress`] fed from a UDP socket of the test, as the
//! `parsnip-breadcrumbs` tool feeds it.

mod common;

use std::net::{SocketAddr, UdpSocket};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use ash::vk;
use common::{full_device, simulated_physical_with, submit};
use parsnip_driver::breadcrumbs::wire::{Message, Progress, RELEASE};
use parsnip_driver::breadcrumbs::BreadcrumbOptions;
use parsnip_driver::buffer::Buffer;
use parsnip_driver::cmd::barrier::Dependency;
use parsnip_driver::cmd::buffer::{CommandBuffer, Level};
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::cmd::transfer::CopyRegion;
use parsnip_driver::device::Device;
use parsnip_driver::device_memory::DeviceMemory;
use parsnip_driver::pipeline_layout::PipelineLayout;
use parsnip_driver::sync::fence::Fence;

/// Word 0 is the gate: the shader spins until it is non-zero, so with 0 it
/// never ends. Then each invocation writes 3 * i + 1 to word 1 + i.
const SPIN_COMP: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint gate; uint value[]; } data;
void main() {
    while (atomicAdd(data.gate, 0u) == 0u) {
    }
    data.value[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + 1u;
}
"#;

const INVOCATIONS: u64 = 128;
/// The storage buffer: the gate and a value per invocation.
const DATA_BYTES: u64 = 4 * (1 + INVOCATIONS);
/// The fill's value, before the dispatch overwrites it.
const FILL: u32 = 0x5eed_0001;
/// The model settings: a short hang timer for the never-ending dispatch,
/// a long wait budget for a GPU stopped at a break point.
const SETTINGS: &[(&str, &str)] = &[
    ("PARSNIP_SIM_SHADER_TIMEOUT_MS", "1500"),
    ("PARSNIP_SIM_WAIT_MS", "60000"),
];

/// SPIN_COMP's SPIR-V, compiled once for the tests of this binary.
fn spin_spirv() -> Vec<u8> {
    static SPIRV: OnceLock<Vec<u8>> = OnceLock::new();
    SPIRV
        .get_or_init(|| {
            let dir =
                std::env::temp_dir().join(format!("parsnip-breadcrumbs-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("spin.comp");
            std::fs::write(&path, SPIN_COMP).unwrap();
            let spirv = common::glslang(&path);
            let _ = std::fs::remove_dir_all(&dir);
            spirv
        })
        .clone()
}

/// A receiver on a free loopback port, and the options naming it.
fn receiver(break_point: &str) -> (UdpSocket, BreadcrumbOptions) {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    socket
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let port = socket.local_addr().unwrap().port();
    let options = BreadcrumbOptions::parse(&format!("127.0.0.1:{port}{break_point}")).unwrap();
    (socket, options)
}

/// Feeds `progress` from `socket` until `until` holds of a message (true)
/// or 60 s pass (false); returns the sender of that message.
fn receive_until(
    socket: &UdpSocket,
    progress: &mut Progress,
    until: impl Fn(&Message) -> bool,
) -> Option<SocketAddr> {
    let start = Instant::now();
    let mut buf = [0u8; 65536];
    while start.elapsed() < Duration::from_secs(60) {
        let Ok((n, from)) = socket.recv_from(&mut buf) else {
            continue;
        };
        for m in String::from_utf8_lossy(&buf[..n])
            .lines()
            .filter_map(Message::parse)
        {
            progress.apply(&m);
            if until(&m) {
                return Some(from);
            }
        }
    }
    None
}

/// What the commands work on, and the command buffer recording them.
struct Work {
    data_memory: Arc<DeviceMemory>,
    copy_memory: Arc<DeviceMemory>,
    cmd: Arc<CommandBuffer>,
}

/// Fills the values, a barrier, the dispatch (gated by `gate`), a barrier,
/// a copy of the values: breadcrumbs 1 to 5 (binds leave none).
fn record(device: &Arc<Device>, spirv: &[u8], gate: u32) -> Work {
    let data_memory = DeviceMemory::allocate(device, 4096, 0).unwrap();
    let data = Buffer::new(
        DATA_BYTES,
        vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::TRANSFER_SRC,
    )
    .unwrap();
    data.bind(data_memory.clone(), 0).unwrap();
    data_memory.bo.write(0, &gate.to_le_bytes()).unwrap();
    let copy_memory = DeviceMemory::allocate(device, 4096, 0).unwrap();
    let copy = Buffer::new(4 * INVOCATIONS, vk::BufferUsageFlags::TRANSFER_DST).unwrap();
    copy.bind(copy_memory.clone(), 0).unwrap();

    let set_layout = common::one_storage_buffer();
    let layout = PipelineLayout::new(vec![Some(set_layout.clone())], Vec::new()).unwrap();
    let set = common::storage_buffer_set(device, &set_layout, &data);
    let pipeline = common::compute_pipeline(device, spirv, &layout);

    let cmd_pool = CommandPool::new(device, 0, vk::CommandPoolCreateFlags::empty()).unwrap();
    let cmd = cmd_pool.allocate(Level::Primary);
    let all = [Dependency {
        src_stages: vk::PipelineStageFlags2::ALL_COMMANDS,
        src_access: vk::AccessFlags2::MEMORY_WRITE,
        dst_stages: vk::PipelineStageFlags2::ALL_COMMANDS,
        dst_access: vk::AccessFlags2::MEMORY_READ | vk::AccessFlags2::MEMORY_WRITE,
    }];
    cmd.begin(None).unwrap();
    cmd.record_command("vkCmdFillBuffer", |r| {
        r.fill_buffer(&data, 4, 4 * INVOCATIONS, FILL)
    });
    cmd.record_command("vkCmdPipelineBarrier", |r| r.pipeline_barrier(&all));
    cmd.record_command("vkCmdBindPipeline", |r| {
        r.bind_compute_pipeline(pipeline.clone())
    });
    cmd.record_command("vkCmdBindDescriptorSets", |r| {
        r.bind_descriptor_sets(
            vk::PipelineBindPoint::COMPUTE,
            &layout,
            0,
            std::slice::from_ref(&set),
            &[],
        )
    });
    cmd.record_command("vkCmdDispatch", |r| {
        r.dispatch([0; 3], [(INVOCATIONS / 64) as u32, 1, 1])
    });
    cmd.record_command("vkCmdPipelineBarrier", |r| r.pipeline_barrier(&all));
    cmd.record_command("vkCmdCopyBuffer", |r| {
        r.copy_buffer(
            &data,
            &copy,
            &[CopyRegion {
                src_offset: 4,
                dst_offset: 0,
                size: 4 * INVOCATIONS,
            }],
        )
    });
    cmd.end().unwrap();
    Work {
        data_memory,
        copy_memory,
        cmd,
    }
}

fn words(memory: &DeviceMemory, offset: u64, count: u64) -> Vec<u32> {
    let mut bytes = vec![0u8; 4 * count as usize];
    memory.bo.read(offset, &mut bytes).unwrap();
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// 3 * i + 1 for each invocation, as SPIN_COMP writes.
fn dispatched() -> Vec<u32> {
    (0..INVOCATIONS as u32).map(|i| 3 * i + 1).collect()
}

#[test]
fn a_never_ending_dispatch_is_named_by_the_last_breadcrumb() {
    let spirv = spin_spirv();
    for gpu in ["a660", "a740"] {
        let physical = simulated_physical_with(gpu, SETTINGS);
        let (socket, options) = receiver("");
        let device =
            Device::with_breadcrumbs(&physical, &full_device(&physical), Some(options)).unwrap();
        let work = record(&device, &spirv, 0);
        let fence = submit(&device, &work.cmd);
        assert_eq!(
            Fence::wait(&[fence], true, u64::MAX),
            Err(vk::Result::ERROR_DEVICE_LOST),
            "{gpu}: the model's hang timer ends the dispatch"
        );
        let mut progress = Progress::default();
        let lost = receive_until(&socket, &mut progress, |m| {
            matches!(m, Message::Lost { .. })
        });
        assert!(lost.is_some(), "{gpu}: no lost report: {progress:?}");
        let submit = &progress.submits[&1];
        assert_eq!(submit.commands.len(), 5, "{gpu}");
        // The fill and the barrier finished; the dispatch did not.
        assert_eq!(submit.last, Some(submit.commands[1].serial), "{gpu}");
        let running = submit.running().unwrap();
        assert_eq!(
            (running.ordinal, running.name.as_str()),
            (3, "vkCmdDispatch"),
            "{gpu}"
        );
    }
}

#[test]
fn a_break_point_stops_the_gpu_until_released() {
    let spirv = spin_spirv();
    for gpu in ["a660", "a740"] {
        let physical = simulated_physical_with(gpu, SETTINGS);
        let (socket, options) = receiver(",break=2:1");
        let device =
            Device::with_breadcrumbs(&physical, &full_device(&physical), Some(options)).unwrap();
        let work = record(&device, &spirv, 1);
        let fence = submit(&device, &work.cmd);
        let mut progress = Progress::default();
        let stopped = receive_until(&socket, &mut progress, |m| {
            matches!(m, Message::Break { .. })
        });
        let Some(driver) = stopped else {
            panic!("{gpu}: the GPU did not stop: {progress:?}");
        };
        let submit_progress = &progress.submits[&1];
        assert_eq!(
            submit_progress.last,
            Some(submit_progress.commands[1].serial),
            "{gpu}: stopped after the barrier"
        );
        assert_eq!(submit_progress.running().unwrap().name, "vkCmdDispatch");
        // Stopped: the fill landed, the dispatch has not run.
        assert_eq!(
            fence.status(),
            Ok(vk::Result::NOT_READY),
            "{gpu}: the submit waits at the break point"
        );
        assert_eq!(
            words(&work.data_memory, 4, INVOCATIONS),
            vec![FILL; INVOCATIONS as usize],
            "{gpu}"
        );
        socket.send_to(RELEASE.as_bytes(), driver).unwrap();
        Fence::wait(&[fence], true, u64::MAX).unwrap();
        assert_eq!(
            words(&work.copy_memory, 0, INVOCATIONS),
            dispatched(),
            "{gpu}"
        );
    }
}

#[test]
fn results_are_the_same_with_breadcrumbs_off_and_on() {
    let spirv = spin_spirv();
    for gpu in ["a660", "a740"] {
        let physical = simulated_physical_with(gpu, SETTINGS);
        let mut results = Vec::new();
        for on in [false, true] {
            let options = on.then(|| receiver("").1);
            let device =
                Device::with_breadcrumbs(&physical, &full_device(&physical), options).unwrap();
            let work = record(&device, &spirv, 1);
            Fence::wait(&[submit(&device, &work.cmd)], true, u64::MAX).unwrap();
            results.push((
                words(&work.data_memory, 0, 1 + INVOCATIONS),
                words(&work.copy_memory, 0, INVOCATIONS),
            ));
        }
        assert_eq!(results[0].1, dispatched(), "{gpu}");
        assert_eq!(results[0], results[1], "{gpu}");
    }
}
