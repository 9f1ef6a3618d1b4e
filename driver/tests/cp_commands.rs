//! Commands the command processor carries out alone (no shader), run on
//! the simulated a660 and a740 through the driver: timestamp queries
//! (written, reset, copied), events set and waited on from both sides,
//! semaphores ordering submits, secondary command buffers, and a fault
//! losing the device.

mod common;

use std::sync::Arc;
use std::time::Duration;

use ash::vk;
use common::simulated_device;
use parsnip_driver::buffer::Buffer;
use parsnip_driver::cmd::buffer::{CommandBuffer, Level};
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::device::Device;
use parsnip_driver::device_memory::DeviceMemory;
use parsnip_driver::query_pool::QueryPool;
use parsnip_driver::queue::{SemaphoreOp, SubmitBatch};
use parsnip_driver::sync::event::Event;
use parsnip_driver::sync::fence::Fence;
use parsnip_driver::sync::semaphore::{Semaphore, SemaphoreKind};

fn recorded(device: &Arc<Device>, commands: impl FnOnce(&CommandBuffer)) -> Arc<CommandBuffer> {
    let pool = CommandPool::new(device, 0, vk::CommandPoolCreateFlags::empty()).unwrap();
    let cmd = pool.allocate(Level::Primary);
    cmd.begin(None).unwrap();
    commands(&cmd);
    cmd.end().unwrap();
    cmd
}

fn submit(device: &Arc<Device>, batch: SubmitBatch) -> Arc<Fence> {
    let fence = Fence::new(device, false).unwrap();
    device
        .queue(0, 0)
        .unwrap()
        .submit(&[batch], Some(&fence))
        .unwrap();
    fence
}

fn host_buffer(device: &Arc<Device>, size: u64) -> (Arc<DeviceMemory>, Arc<Buffer>) {
    let memory = DeviceMemory::allocate(device, size, 0).unwrap();
    let buffer = Buffer::new(size, vk::BufferUsageFlags::TRANSFER_DST).unwrap();
    buffer.bind(memory.clone(), 0).unwrap();
    (memory, buffer)
}

fn u64s(memory: &DeviceMemory, count: usize) -> Vec<u64> {
    let mut bytes = vec![0u8; count * 8];
    memory.bo.read(0, &mut bytes).unwrap();
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn timestamps(gpu: &'static str) {
    let device = simulated_device(gpu);
    let pool = QueryPool::new(&device, vk::QueryType::TIMESTAMP, 3).unwrap();
    let (memory, results) = host_buffer(&device, 64);
    let cmd = recorded(&device, |cmd| {
        cmd.record(|r| r.reset_queries(&pool, 0, 3));
        cmd.record(|r| r.write_timestamp(&pool, 0));
        cmd.record(|r| r.fill_buffer(&results, 32, 16, 7));
        cmd.record(|r| r.write_timestamp(&pool, 1));
        cmd.record(|r| {
            r.copy_query_results(
                &pool,
                0,
                3,
                &results,
                0,
                16,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY,
            )
        });
    });
    let fence = submit(
        &device,
        SubmitBatch {
            command_buffers: vec![cmd],
            ..Default::default()
        },
    );
    Fence::wait(&[fence], true, u64::MAX).unwrap();
    let copied = u64s(&memory, 6);
    // Query 0 and 1 written, in order; query 2 reset and never written, so
    // its value is not copied (the 7s of the fill stay) and it is
    // unavailable.
    assert!(copied[0] > 0, "{gpu}: {copied:x?}");
    assert!(copied[2] >= copied[0], "{gpu}: {copied:x?}");
    assert_eq!((copied[1], copied[3]), (1, 1), "{gpu}: availability");
    assert_eq!(
        copied[4], 0x0000_0007_0000_0007,
        "{gpu}: an unavailable value is not written"
    );
    assert_eq!(copied[5], 0, "{gpu}: query 2 is unavailable");
    // The host sees the same through vkGetQueryPoolResults.
    let mut host = vec![0u8; 16];
    let r = pool
        .results(0, 2, &mut host, 8, vk::QueryResultFlags::TYPE_64)
        .unwrap();
    assert_eq!(r, vk::Result::SUCCESS);
    assert_eq!(u64::from_le_bytes(host[..8].try_into().unwrap()), copied[0]);
}

fn events(gpu: &'static str) {
    let device = simulated_device(gpu);
    let host_set = Event::new(&device).unwrap();
    let device_set = Event::new(&device).unwrap();
    let (memory, marker) = host_buffer(&device, 64);
    // The GPU waits for an event only the host sets, then sets another.
    let cmd = recorded(&device, |cmd| {
        cmd.record(|r| r.wait_events(std::slice::from_ref(&host_set), &[]));
        cmd.record(|r| r.update_buffer(&marker, 0, &42u32.to_le_bytes()));
        cmd.record(|r| r.write_event(&device_set, true, vk::PipelineStageFlags2::ALL_COMMANDS));
    });
    let fence = submit(
        &device,
        SubmitBatch {
            command_buffers: vec![cmd],
            ..Default::default()
        },
    );
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(
        fence.status().unwrap(),
        vk::Result::NOT_READY,
        "{gpu}: the GPU waits"
    );
    assert!(!device_set.is_set().unwrap());
    host_set.set().unwrap();
    Fence::wait(std::slice::from_ref(&fence), true, u64::MAX).unwrap();
    assert!(device_set.is_set().unwrap(), "{gpu}: set by the GPU");
    let mut word = [0u8; 4];
    memory.bo.read(0, &mut word).unwrap();
    assert_eq!(u32::from_le_bytes(word), 42);
}

fn semaphores(gpu: &'static str) {
    let device = simulated_device(gpu);
    let timeline = Semaphore::new(&device, SemaphoreKind::Timeline, 0).unwrap();
    let binary = Semaphore::new(&device, SemaphoreKind::Binary, 0).unwrap();
    let (memory, out) = host_buffer(&device, 64);
    let first = recorded(&device, |c| {
        c.record(|r| r.update_buffer(&out, 0, &1u32.to_le_bytes()))
    });
    let second = recorded(&device, |c| {
        c.record(|r| r.update_buffer(&out, 4, &2u32.to_le_bytes()))
    });
    // The second submit waits for the binary semaphore the first signals
    // (signal before wait, as binary semaphores require) and for a
    // timeline value the host signals later.
    let op = |s: &Arc<Semaphore>, value| SemaphoreOp {
        semaphore: s.clone(),
        value,
    };
    let signalling = submit(
        &device,
        SubmitBatch {
            command_buffers: vec![first],
            signals: vec![op(&binary, 0)],
            ..Default::default()
        },
    );
    let waiting = submit(
        &device,
        SubmitBatch {
            waits: vec![op(&timeline, 5), op(&binary, 0)],
            command_buffers: vec![second],
            signals: vec![op(&timeline, 6)],
        },
    );
    Fence::wait(&[signalling], true, u64::MAX).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(
        waiting.status().unwrap(),
        vk::Result::NOT_READY,
        "{gpu}: waits for value 5"
    );
    timeline.signal(5).unwrap();
    Semaphore::wait(&[(timeline.clone(), 6)], false, u64::MAX).unwrap();
    Fence::wait(&[waiting], true, u64::MAX).unwrap();
    assert_eq!(timeline.counter_value().unwrap(), 6);
    let mut words = [0u8; 8];
    memory.bo.read(0, &mut words).unwrap();
    assert_eq!(words, [1, 0, 0, 0, 2, 0, 0, 0]);
}

fn secondaries(gpu: &'static str) {
    let device = simulated_device(gpu);
    let (memory, out) = host_buffer(&device, 64);
    let pool = CommandPool::new(&device, 0, vk::CommandPoolCreateFlags::empty()).unwrap();
    let secondary = pool.allocate(Level::Secondary);
    secondary.begin(None).unwrap();
    secondary.record(|r| r.update_buffer(&out, 4, &[7, 0, 0, 0, 8, 0, 0, 0]));
    secondary.end().unwrap();
    // Primary work before and after the secondary's, which runs in place.
    let primary = recorded(&device, |cmd| {
        cmd.record(|r| r.update_buffer(&out, 0, &[1, 0, 0, 0, 2, 0, 0, 0]));
        cmd.execute_commands(std::slice::from_ref(&secondary));
        cmd.record(|r| r.update_buffer(&out, 8, &[9, 0, 0, 0]));
    });
    let fence = submit(
        &device,
        SubmitBatch {
            command_buffers: vec![primary],
            ..Default::default()
        },
    );
    Fence::wait(&[fence], true, u64::MAX).unwrap();
    let mut words = [0u8; 12];
    memory.bo.read(0, &mut words).unwrap();
    assert_eq!(words, [1, 0, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0], "{gpu}");
}

fn faults(gpu: &'static str) {
    let device = simulated_device(gpu);
    // A buffer never bound to memory is at address 0, which no BO covers:
    // the CP's write faults and the device is lost.
    let unbound = Buffer::new(64, vk::BufferUsageFlags::TRANSFER_DST).unwrap();
    let cmd = recorded(&device, |c| {
        c.record(|r| r.update_buffer(&unbound, 0, &[1, 2, 3, 4]))
    });
    let fence = submit(
        &device,
        SubmitBatch {
            command_buffers: vec![cmd],
            ..Default::default()
        },
    );
    assert_eq!(
        Fence::wait(&[fence], true, u64::MAX),
        Err(vk::Result::ERROR_DEVICE_LOST),
        "{gpu}"
    );
    assert_eq!(
        device.wait_idle(),
        Err(vk::Result::ERROR_DEVICE_LOST),
        "{gpu}"
    );
    // Nothing more can be submitted.
    let again = recorded(&device, |_| {});
    let fence = Fence::new(&device, false).unwrap();
    let result = device.queue(0, 0).unwrap().submit(
        &[SubmitBatch {
            command_buffers: vec![again],
            ..Default::default()
        }],
        Some(&fence),
    );
    assert_eq!(result, Err(vk::Result::ERROR_DEVICE_LOST), "{gpu}");
}

#[test]
fn secondary_command_buffers_run_in_place() {
    secondaries("a660");
    secondaries("a740");
}

#[test]
fn a_gpu_fault_loses_the_device() {
    faults("a660");
    faults("a740");
}

#[test]
fn timestamps_are_written_in_order_and_copied_with_availability() {
    timestamps("a660");
    timestamps("a740");
}

#[test]
fn events_hold_the_gpu_until_set_and_are_set_by_it() {
    events("a660");
    events("a740");
}

#[test]
fn semaphores_order_submits() {
    semaphores("a660");
    semaphores("a740");
}
