//! The simulator back end through the device trait, as the driver uses it:
//! buffer objects the CPU and the model share, submits that run command
//! streams, sync objects, and a lost device after a fault or hang.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

mod common;

use common::{mem_write, pkt, read_u32, soon, submit};
use parsnip_kernel_if::msm::DRI_DIR;
use parsnip_kernel_if::select::SIM_VAR;
use parsnip_kernel_if::sim::SimDevice;
use parsnip_kernel_if::*;
use parsnip_registers::enums::{CpCondFunction, PollMemoryType};
use parsnip_registers::packets::CpWaitRegMemDw0;
use parsnip_registers::{gpu, Chip};
use parsnip_sim::SimOptions;

fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name| map.get(name).cloned()
}

fn device(name: &str) -> Arc<SimDevice> {
    let options = SimOptions {
        wait_budget: Duration::from_millis(100),
        ..SimOptions::default()
    };
    Arc::new(SimDevice::new(gpu::by_name(name).unwrap(), options).unwrap())
}

#[test]
fn a_submit_writes_a_bo_the_cpu_then_reads() {
    for name in ["a660", "a740"] {
        let dev = device(name);
        let chip = dev.gpu().info().chip;
        let queue = dev.queue_new(0).unwrap();
        let cs = dev.bo_new(&BoDesc::new(4096)).unwrap();
        let data = dev.bo_new(&BoDesc::new(4096)).unwrap();
        // The CPU writes a value through its mapping; the stream copies it
        // (CP_MEM_TO_MEM) and writes a constant next to it.
        data.write(0, &0x600d_f00du32.to_le_bytes()).unwrap();
        let d = data.iova();
        let (lo, hi) = (|a: u64| a as u32, |a: u64| (a >> 32) as u32);
        let mut stream = pkt(
            chip,
            "CP_MEM_TO_MEM",
            &[0, lo(d + 8), hi(d + 8), lo(d), hi(d)],
        );
        stream.extend(mem_write(chip, d + 4, 0x5eed));
        let done = dev.syncobj_create(false).unwrap();
        submit(
            dev.as_ref(),
            queue,
            &cs,
            &stream,
            &[BoUse::write(&data)],
            &[SyncPoint::binary(done)],
        )
        .unwrap();
        dev.syncobj_wait(&[SyncPoint::binary(done)], WaitMode::All, soon())
            .unwrap();
        dev.bo_cpu_prep(&data, CpuAccess::Read, soon()).unwrap();
        assert_eq!(read_u32(&data, 4), 0x5eed, "{name}");
        assert_eq!(read_u32(&data, 8), 0x600d_f00d, "{name}");
        dev.bo_cpu_fini(&data).unwrap();
        dev.status().unwrap();
        assert_eq!(dev.info().backend, Backend::Simulator);
    }
}

#[test]
fn a_faulting_submit_loses_the_device_with_the_report() {
    let dev = device("a660");
    let chip = Chip::A6xx;
    let queue = dev.queue_new(0).unwrap();
    let cs = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let data = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let unmapped = data.iova() + 0x10_0000;
    let mut stream = mem_write(chip, data.iova(), 1);
    stream.extend(mem_write(chip, unmapped, 2));
    let fence = submit(dev.as_ref(), queue, &cs, &stream, &[], &[]).unwrap();
    let err = dev.fence_wait(fence, soon()).unwrap_err();
    let Error::DeviceLost { report } = &err else {
        panic!("not a lost device: {err}");
    };
    assert!(
        report.starts_with(&format!(
            "*** gpu fault: iova={unmapped:#018x} dir=WRITE len=4 source=CP (CP_MEM_WRITE at IB1 \
             {:#x} dword 4",
            cs.iova()
        )),
        "{report}"
    );
    println!("{err}");
    assert_eq!(read_u32(&data, 0), 1, "what ran before the fault stays");
    assert!(dev.status().unwrap_err().is_device_lost());
    let again = submit(dev.as_ref(), queue, &cs, &stream, &[], &[]).unwrap_err();
    assert!(again.is_device_lost());
}

#[test]
fn a_wait_on_memory_nobody_writes_is_a_hang_and_loses_the_device() {
    let dev = device("a740");
    let queue = dev.queue_new(0).unwrap();
    let cs = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let flag = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let wait = CpWaitRegMemDw0 {
        function: CpCondFunction::WRITE_EQ,
        poll: PollMemoryType::POLL_MEMORY,
        ..Default::default()
    };
    let f = flag.iova();
    let stream = pkt(
        Chip::A7xx,
        "CP_WAIT_REG_MEM",
        &[wait.to_raw(), f as u32, (f >> 32) as u32, 1, !0, 16],
    );
    let fence = submit(
        dev.as_ref(),
        queue,
        &cs,
        &stream,
        &[BoUse::read(&flag)],
        &[],
    )
    .unwrap();
    let err = dev.fence_wait(fence, soon()).unwrap_err();
    assert!(
        err.to_string().contains(&format!(
            "hangcheck detected gpu lockup: CP_WAIT_REG_MEM at IB1 {:#x} dword 0",
            cs.iova()
        )),
        "{err}"
    );
    println!("{err}");
}

#[test]
fn a_bo_freed_while_a_submit_uses_it_stays_mapped_until_it_finishes() {
    let dev = Arc::new(
        SimDevice::new(
            gpu::by_name("a660").unwrap(),
            SimOptions {
                wait_budget: Duration::from_secs(10),
                ..SimOptions::default()
            },
        )
        .unwrap(),
    );
    let queue = dev.queue_new(0).unwrap();
    let cs = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let flag = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let target = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let target_iova = target.iova();
    // Wait for the CPU to write the flag, then write into `target`.
    let wait = CpWaitRegMemDw0 {
        function: CpCondFunction::WRITE_EQ,
        poll: PollMemoryType::POLL_MEMORY,
        ..Default::default()
    };
    let f = flag.iova();
    let mut stream = pkt(
        Chip::A6xx,
        "CP_WAIT_REG_MEM",
        &[wait.to_raw(), f as u32, (f >> 32) as u32, 1, !0, 16],
    );
    stream.extend(mem_write(Chip::A6xx, target_iova, 7));
    let fence = submit(
        dev.as_ref(),
        queue,
        &cs,
        &stream,
        &[BoUse::read(&flag), BoUse::write(&target)],
        &[],
    )
    .unwrap();
    target.free().unwrap();
    assert!(
        dev.gpu().memory().is_mapped(target_iova, 4096),
        "the running submit still holds it"
    );
    flag.write(0, &1u32.to_le_bytes()).unwrap();
    dev.fence_wait(fence, soon()).unwrap();
    dev.status().unwrap();
    assert!(!dev.gpu().memory().is_mapped(target_iova, 4),);
    // And its address is free again.
    let reuse = dev
        .bo_new(&BoDesc {
            fixed_iova: Some(target_iova),
            ..BoDesc::new(4096)
        })
        .unwrap();
    assert_eq!(read_u32(&reuse, 0), 0, "a new BO is zeroed");
}

#[test]
fn submits_on_two_queues_keep_their_own_order_and_sync() {
    let dev = device("a660");
    let (q0, q1) = (dev.queue_new(0).unwrap(), dev.queue_new(1).unwrap());
    let cs0 = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let cs1 = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let data = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let link = dev.syncobj_create(false).unwrap();
    // q0 waits for q1's point before writing over q1's value.
    let first = mem_write(Chip::A6xx, data.iova(), 2);
    cs0.write(
        0,
        &first
            .iter()
            .flat_map(|d| d.to_le_bytes())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let waiting = dev
        .submit(&Submit {
            queue: q0,
            commands: &[CommandBuffer {
                bo: &cs0,
                offset: 0,
                dwords: first.len() as u32,
            }],
            bos: &[BoUse::write(&data)],
            waits: &[SyncPoint::timeline(link, 1)],
            signals: &[],
        })
        .unwrap();
    let second = mem_write(Chip::A6xx, data.iova(), 1);
    let signaller = submit(
        dev.as_ref(),
        q1,
        &cs1,
        &second,
        &[BoUse::write(&data)],
        &[SyncPoint::timeline(link, 1)],
    )
    .unwrap();
    dev.fence_wait(signaller, soon()).unwrap();
    dev.fence_wait(waiting, soon()).unwrap();
    assert_eq!(read_u32(&data, 0), 2, "q0 ran after q1");
}

#[test]
fn the_timestamp_is_the_models_counter() {
    let dev = device("a660");
    let t0 = dev.timestamp().unwrap();
    let t1 = dev.timestamp().unwrap();
    assert!(t1 > t0);
    assert!(dev.gpu().timestamp() > t1);
    assert_eq!(dev.info().timestamp_frequency, 19_200_000);
}

#[test]
fn parsnip_sim_selects_the_simulator_for_any_catalogue_gpu() {
    for name in ["a660", "a740", "a618"] {
        let dev = open_from_env(env(&[(SIM_VAR, name)]), Path::new(DRI_DIR)).unwrap();
        assert_eq!(dev.info().backend, Backend::Simulator);
        let info = gpu::by_name(name).unwrap();
        assert_eq!(dev.info().gpu.chip_id, u64::from(info.kernel_chip_id));
        assert_eq!(dev.info().gpu.gmem_size, u64::from(info.gmem_bytes));
    }
}

#[test]
fn an_unknown_simulated_gpu_is_an_error_listing_the_supported_ones() {
    let err = open_from_env(env(&[(SIM_VAR, "a999")]), Path::new(DRI_DIR))
        .err()
        .unwrap();
    let text = err.to_string();
    assert!(
        text.starts_with("PARSNIP_SIM=a999: unsupported GPU `a999`"),
        "{text}"
    );
    for g in gpu::GPUS {
        assert!(text.contains(g.name), "{text} lacks {}", g.name);
    }
    let bad = open_from_env(
        env(&[(SIM_VAR, "a660"), ("PARSNIP_SIM_STRICT", "perhaps")]),
        Path::new(DRI_DIR),
    )
    .err()
    .unwrap();
    assert_eq!(
        bad.to_string(),
        "PARSNIP_SIM_STRICT=perhaps: expected 0 or 1"
    );
}

#[test]
fn a_fault_in_one_context_leaves_the_other_contexts_working() {
    let first = device("a660");
    let chip = Chip::A6xx;
    let second = first.open_context().unwrap();
    let (q1, q2) = (first.queue_new(0).unwrap(), second.queue_new(0).unwrap());
    let cs = first.bo_new(&BoDesc::new(4096)).unwrap();
    let data = first.bo_new(&BoDesc::new(4096)).unwrap();
    let unmapped = data.iova() + 0x10_0000;
    let fence = submit(
        first.as_ref(),
        q1,
        &cs,
        &mem_write(chip, unmapped, 1),
        &[],
        &[],
    )
    .unwrap();
    assert!(first
        .fence_wait(fence, soon())
        .unwrap_err()
        .is_device_lost());
    assert!(first.status().unwrap_err().is_device_lost());

    // The other context runs its own work in its own address space.
    second.status().unwrap();
    let cs2 = second.bo_new(&BoDesc::new(4096)).unwrap();
    let data2 = second.bo_new(&BoDesc::new(4096)).unwrap();
    let fence = submit(
        second.as_ref(),
        q2,
        &cs2,
        &mem_write(chip, data2.iova() + 8, 0xc0ffee),
        &[BoUse::write(&data2)],
        &[],
    )
    .unwrap();
    second.fence_wait(fence, soon()).unwrap();
    assert_eq!(read_u32(&data2, 8), 0xc0ffee);
    // So does one opened after the loss.
    let third = first.open_context().unwrap();
    third.status().unwrap();
    assert_eq!(third.info(), first.info());
}
