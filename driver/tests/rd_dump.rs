//! `PARSNIP_RD_DUMP`: a submit dumped to an `.rd` trace and replayed on a
//! fresh model with parsnip-replay's library leaves the same bytes in
//! memory as the driver's own run: CP writes, and a compute dispatch (the
//! driver's copy shader, moving bytes at odd alignments). A device created
//! later, as after a hang, writes its own file and leaves the earlier one
//! whole. One test, as it sets the environment.

mod common;

use std::path::Path;

use ash::vk;
use common::{simulated_device, submit_and_wait};
use parsnip_driver::buffer::Buffer;
use parsnip_driver::cmd::barrier::Dependency;
use parsnip_driver::cmd::buffer::Level;
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::cmd::transfer::CopyRegion;
use parsnip_driver::device_memory::DeviceMemory;
use parsnip_driver::sync::fence::Fence;

/// Runs a command buffer writing `pattern` with vkCmdUpdateBuffer and a
/// fill after it, on `gpu`, dumping to `trace`; returns the buffer's
/// address and its contents after the run.
fn run(gpu: &'static str, trace: &Path) -> (u64, Vec<u8>) {
    std::env::set_var("PARSNIP_RD_DUMP", trace);
    let device = simulated_device(gpu);
    std::env::remove_var("PARSNIP_RD_DUMP");
    let memory = DeviceMemory::allocate(&device, 4096, 0).unwrap();
    let buffer = Buffer::new(1024, vk::BufferUsageFlags::TRANSFER_DST).unwrap();
    buffer.bind(memory.clone(), 0).unwrap();
    let pattern: Vec<u8> = (0..256u32)
        .flat_map(|i| i.wrapping_mul(2654435761).to_le_bytes())
        .take(512)
        .collect();

    let pool = CommandPool::new(&device, 0, vk::CommandPoolCreateFlags::empty()).unwrap();
    let cmd = pool.allocate(Level::Primary);
    cmd.begin(None).unwrap();
    cmd.record(|r| r.update_buffer(&buffer, 64, &pattern));
    cmd.record(|r| r.fill_buffer(&buffer, 768, 128, 0x5eed_5eed));
    cmd.record(|r| {
        r.pipeline_barrier(&[Dependency {
            src_stages: vk::PipelineStageFlags2::TRANSFER,
            src_access: vk::AccessFlags2::TRANSFER_WRITE,
            dst_stages: vk::PipelineStageFlags2::TRANSFER,
            dst_access: vk::AccessFlags2::TRANSFER_READ,
        }])
    });
    cmd.record(|r| {
        r.copy_buffer(
            &buffer,
            &buffer,
            &[CopyRegion {
                src_offset: 65,
                dst_offset: 603,
                size: 101,
            }],
        )
    });
    cmd.end().unwrap();
    let fence = common::submit(&device, &cmd);
    Fence::wait(&[fence], true, u64::MAX).unwrap();
    let mut out = vec![0u8; 1024];
    memory.bo.read(0, &mut out).unwrap();
    (buffer.iova(0), out)
}

#[test]
fn a_dumped_submit_replays_to_the_same_memory() {
    for gpu in ["a660", "a740"] {
        let trace =
            std::env::temp_dir().join(format!("parsnip-rd-dump-{}-{gpu}.rd", std::process::id()));
        let (iova, ran) = run(gpu, &trace);
        // What the commands wrote is there.
        assert_eq!(&ran[768..896], &[0xed, 0x5e, 0xed, 0x5e].repeat(32)[..]);
        assert_ne!(&ran[64..576], &[0u8; 512][..]);
        assert_eq!(&ran[603..704], &ran[65..166], "{gpu}: the copy ran");

        let trace = parsnip_rd::Trace::open(&trace).unwrap();
        let mut replay =
            parsnip_tools::replay::Replay::new(trace, parsnip_sim::SimOptions::default()).unwrap();
        assert_eq!(replay.submits(), 1, "{gpu}: one submit dumped");
        replay.run_all().unwrap();
        let replayed = replay.read(iova, 1024).unwrap();
        assert_eq!(
            replayed, ran,
            "{gpu}: the replay leaves what the driver's run left"
        );
    }
    a_device_created_after_a_hang_keeps_the_trace_of_the_submit_that_hung();
}

/// The submits a trace holds.
fn submits_in(trace: &Path) -> usize {
    let trace = parsnip_rd::Trace::open(trace).unwrap();
    parsnip_tools::replay::Replay::new(trace, parsnip_sim::SimOptions::default())
        .unwrap()
        .submits()
}

/// Run from the one test, after the replays: the environment is shared.
fn a_device_created_after_a_hang_keeps_the_trace_of_the_submit_that_hung() {
    let trace = std::env::temp_dir().join(format!(
        "parsnip-rd-dump-recovery-{}.rd",
        std::process::id()
    ));
    std::env::set_var("PARSNIP_RD_DUMP", &trace);
    let first = simulated_device("a660");
    let second = simulated_device("a660");
    let memory = DeviceMemory::allocate(&first, 4096, 0).unwrap();
    let buffer = Buffer::new(64, vk::BufferUsageFlags::TRANSFER_DST).unwrap();
    buffer.bind(memory, 0).unwrap();
    submit_and_wait(&first, |c| {
        c.record(|r| r.update_buffer(&buffer, 0, &[1; 4]))
    })
    .unwrap();
    submit_and_wait(&second, |_| {}).unwrap();
    // A buffer never bound is at address 0: the CP's write faults.
    let unbound = Buffer::new(64, vk::BufferUsageFlags::TRANSFER_DST).unwrap();
    assert_eq!(
        submit_and_wait(&first, |c| c
            .record(|r| r.update_buffer(&unbound, 0, &[2; 4]))),
        Err(vk::Result::ERROR_DEVICE_LOST)
    );
    drop(first);
    // The recovery: a new device, dumping to the same variable.
    let recovered = simulated_device("a660");
    std::env::remove_var("PARSNIP_RD_DUMP");
    submit_and_wait(&recovered, |_| {}).unwrap();
    let second_trace = Path::new(&parsnip_driver::rd_dump::device_trace_path(
        trace.to_str().unwrap(),
        1,
    ))
    .to_path_buf();
    let third_trace = Path::new(&parsnip_driver::rd_dump::device_trace_path(
        trace.to_str().unwrap(),
        2,
    ))
    .to_path_buf();
    assert_eq!(
        submits_in(&trace),
        2,
        "the first device's submits, the hung one last"
    );
    assert_eq!(submits_in(&second_trace), 1, "the second device's own file");
    drop((second, recovered));
    assert_eq!(
        submits_in(&third_trace),
        1,
        "the recovered device's own file"
    );
    for t in [&trace, &second_trace, &third_trace] {
        let _ = std::fs::remove_file(t);
    }
}
