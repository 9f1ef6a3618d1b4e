//! The null back end through the device trait, as the driver uses it.

use std::sync::Arc;
use std::time::Duration;

use parsnip_kernel_if::device::{SOFTWARE_VA_SIZE, SOFTWARE_VA_START};
use parsnip_kernel_if::null::NullDevice;
use parsnip_kernel_if::*;

fn a660_facts() -> GpuFacts {
    // What the msm kernel reports for an a660 (gpu_id 660, chip id
    // 6.6.0.1, 1.5 MiB of GMEM); the null device only passes them on.
    GpuFacts {
        gpu_id: 660,
        chip_id: 0x0606_0001,
        gmem_size: 0x18_0000,
        gmem_base: 0x10_0000,
    }
}

fn device() -> Arc<dyn KernelDevice> {
    Arc::new(NullDevice::new(a660_facts()).unwrap())
}

fn soon() -> Deadline {
    Deadline::after(Duration::from_secs(10))
}

#[test]
fn it_reports_the_facts_it_was_given_and_a_software_address_space() {
    let dev = device();
    let info = dev.info();
    assert_eq!(info.gpu, a660_facts());
    assert_eq!(info.backend, Backend::Null);
    assert_eq!(
        (info.va_start, info.va_size),
        (SOFTWARE_VA_START, SOFTWARE_VA_SIZE)
    );
    assert!(info.userspace_iova && info.timeline_syncobjs);
    let t0 = dev.timestamp().unwrap();
    std::thread::sleep(Duration::from_millis(2));
    assert!(dev.timestamp().unwrap() > t0, "the timestamp counter runs");
    dev.status().unwrap();
}

#[test]
fn bos_get_distinct_iovas_inside_the_range_and_keep_what_is_written() {
    let dev = device();
    let a = dev.bo_new(&BoDesc::new(100)).unwrap();
    let b = dev.bo_new(&BoDesc::new(0x3000)).unwrap();
    assert_eq!(a.size(), 0x1000, "rounded to a page");
    assert!(a.iova() >= SOFTWARE_VA_START && b.iova() >= a.iova() + a.size());
    b.write(0x2ffc, &[1, 2, 3, 4]).unwrap();
    let mut back = [0u8; 4];
    b.read(0x2ffc, &mut back).unwrap();
    assert_eq!(back, [1, 2, 3, 4]);

    let fixed = dev
        .bo_new(&BoDesc {
            fixed_iova: Some(SOFTWARE_VA_START + 0x10_0000),
            ..BoDesc::new(0x1000)
        })
        .unwrap();
    assert_eq!(fixed.iova(), SOFTWARE_VA_START + 0x10_0000);
    let clash = dev.bo_new(&BoDesc {
        fixed_iova: Some(SOFTWARE_VA_START + 0x10_0000),
        ..BoDesc::new(0x1000)
    });
    assert!(clash.is_err(), "the range is taken");
    let freed_at = fixed.iova();
    fixed.free().unwrap();
    let again = dev
        .bo_new(&BoDesc {
            fixed_iova: Some(freed_at),
            ..BoDesc::new(0x1000)
        })
        .unwrap();
    assert_eq!(again.iova(), freed_at, "a freed range is free again");
    assert!(dev.bo_new(&BoDesc::new(0)).is_err());
}

#[test]
fn a_submit_signals_its_out_points_and_its_fence_passes() {
    let dev = device();
    let queue = dev.queue_new(0).unwrap();
    let cs = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let data = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let binary = dev.syncobj_create(false).unwrap();
    let timeline = dev.syncobj_create(false).unwrap();
    let fence = dev
        .submit(&Submit {
            queue,
            commands: &[CommandBuffer {
                bo: &cs,
                offset: 64,
                dwords: 16,
            }],
            bos: &[BoUse::write(&data)],
            waits: &[],
            signals: &[SyncPoint::binary(binary), SyncPoint::timeline(timeline, 7)],
        })
        .unwrap();
    dev.fence_wait(fence, soon()).unwrap();
    dev.syncobj_wait(
        &[SyncPoint::binary(binary), SyncPoint::timeline(timeline, 7)],
        WaitMode::All,
        Deadline::now(),
    )
    .unwrap();
    assert_eq!(dev.syncobj_query(timeline).unwrap(), 7);
    dev.bo_cpu_prep(&data, CpuAccess::Read, Deadline::now())
        .unwrap();
    dev.bo_cpu_fini(&data).unwrap();
    dev.queue_close(queue).unwrap();
}

#[test]
fn a_submit_waits_for_a_point_signalled_later_from_another_queue() {
    let dev = device();
    let (q0, q1) = (dev.queue_new(0).unwrap(), dev.queue_new(2).unwrap());
    let cs = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let cmd = [CommandBuffer {
        bo: &cs,
        offset: 0,
        dwords: 4,
    }];
    let link = dev.syncobj_create(false).unwrap();
    let done = dev.syncobj_create(false).unwrap();
    // Wait-before-signal: q0's submit waits on point 1 no one has signalled.
    let waiting = dev
        .submit(&Submit {
            queue: q0,
            commands: &cmd,
            bos: &[],
            waits: &[SyncPoint::timeline(link, 1)],
            signals: &[SyncPoint::timeline(done, 1)],
        })
        .unwrap();
    let short = Deadline::after(Duration::from_millis(20));
    assert!(matches!(
        dev.fence_wait(waiting, short),
        Err(Error::Timeout { .. })
    ));
    let signaller = dev
        .submit(&Submit {
            queue: q1,
            commands: &cmd,
            bos: &[],
            waits: &[],
            signals: &[SyncPoint::timeline(link, 1)],
        })
        .unwrap();
    dev.fence_wait(signaller, soon()).unwrap();
    dev.fence_wait(waiting, soon()).unwrap();
    assert_eq!(dev.syncobj_query(done).unwrap(), 1);
}

#[test]
fn cpu_signals_wake_waiters_and_wait_any_returns_on_one() {
    let dev = device();
    let a = dev.syncobj_create(false).unwrap();
    let b = dev.syncobj_create(false).unwrap();
    let signaller = {
        let dev = dev.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(5));
            dev.syncobj_signal(&[SyncPoint::timeline(b, 3)]).unwrap();
        })
    };
    let points = [SyncPoint::binary(a), SyncPoint::timeline(b, 3)];
    dev.syncobj_wait(&points, WaitMode::Any, soon()).unwrap();
    signaller.join().unwrap();
    let err = dev
        .syncobj_wait(
            &points,
            WaitMode::All,
            Deadline::after(Duration::from_millis(10)),
        )
        .unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err}");
    dev.syncobj_signal(&[SyncPoint::binary(a)]).unwrap();
    dev.syncobj_wait(&points, WaitMode::All, Deadline::now())
        .unwrap();
    dev.syncobj_reset(&[a]).unwrap();
    assert!(dev
        .syncobj_wait(&[SyncPoint::binary(a)], WaitMode::All, Deadline::now())
        .is_err());
    dev.syncobj_destroy(a).unwrap();
    assert!(dev.syncobj_query(a).is_err());
}

#[test]
fn bad_submits_are_refused_with_a_reason() {
    let dev = device();
    let queue = dev.queue_new(1).unwrap();
    let cs = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let submit = |commands: &[CommandBuffer], waits: &[SyncPoint], queue| {
        dev.submit(&Submit {
            queue,
            commands,
            bos: &[],
            waits,
            signals: &[],
        })
    };
    let past_end = [CommandBuffer {
        bo: &cs,
        offset: 4092,
        dwords: 2,
    }];
    let err = submit(&past_end, &[], queue).unwrap_err();
    assert!(err.to_string().contains("outside the BO"), "{err}");
    let ok = [CommandBuffer {
        bo: &cs,
        offset: 0,
        dwords: 1,
    }];
    let err = submit(&ok, &[SyncPoint::binary(SyncObj(999))], queue).unwrap_err();
    assert!(err.to_string().contains("syncobj 999"), "{err}");
    let err = submit(&ok, &[], QueueId(77)).unwrap_err();
    assert!(err.to_string().contains("queue 77"), "{err}");
    let err = dev.queue_new(3).unwrap_err();
    assert!(err.to_string().contains("priority 3"), "{err}");
}
