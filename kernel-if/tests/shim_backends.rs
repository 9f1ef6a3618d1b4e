//! The msm and kgsl back ends end to end, on the userspace device
//! `libparsnip_shim.so` gives a process that preloads it: device selection,
//! BOs and their mappings, submits that the model runs, fences, syncobjs,
//! and a faulting or hanging submit losing the device while a new context
//! works.
//!
//! Each test runs itself again as a child process with the shim preloaded
//! (the shim must be in the process from its start); the child does the
//! work and the parent checks that it succeeded.

use std::path::{Path, PathBuf};
use std::process::Command;

use parsnip_kernel_if::error::Errno;
use parsnip_kernel_if::{
    open_device, Backend, BoDesc, BoUse, Error, KernelDevice, SyncPoint, WaitMode,
};
use parsnip_registers::chip::Chip;
use parsnip_registers::enums::{CpCondFunction, PollMemoryType};
use parsnip_registers::packets::CpWaitRegMemDw0;

mod common;

use common::{mem_write, pkt, read_u32, soon, submit};

const CHILD_VAR: &str = "PARSNIP_SHIM_TEST_CHILD";

/// The shim the build leaves next to the test binaries' directory.
fn shim_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // Cargo leaves the cdylib next to the test binaries, in deps/.
    let lib = exe.parent().unwrap().join("libparsnip_shim.so");
    assert!(
        lib.is_file(),
        "{} does not exist: build the shim (cargo build -p parsnip-shim) first",
        lib.display()
    );
    lib
}

/// Runs `test` in a child with the shim preloaded as `shim` (a
/// PARSNIP_SHIM value); true when this process is that child. The parent
/// checks that the child's hang and fault left crash reports.
fn in_child(test: &str, shim: &str, fault_site: &str) -> bool {
    if std::env::var_os(CHILD_VAR).is_some() {
        return true;
    }
    let crashes = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("crashes_{test}"));
    let _ = std::fs::remove_dir_all(&crashes);
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD_VAR, "1")
        .env("LD_PRELOAD", shim_library())
        .env("PARSNIP_SHIM", shim)
        .env("PARSNIP_SIM_WAIT_MS", "100")
        .env("PARSNIP_SHIM_CRASH_DIR", &crashes)
        .env_remove("PARSNIP_SIM")
        .env_remove("PARSNIP_NULL")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "the child ({shim}) failed:\n{stdout}\n{stderr}"
    );
    println!("{stdout}\n{stderr}");
    // One report for the fault and one for the hang, devcoredump style.
    let reports: Vec<String> = (0..2)
        .map(|n| std::fs::read_to_string(crashes.join(format!("devcd{n}/data"))).unwrap())
        .collect();
    assert!(
        reports[0].contains("GPU fault:") && reports[0].contains(fault_site),
        "{}",
        reports[0]
    );
    assert!(
        reports[1].contains("GPU hang:") && reports[1].contains("CP_WAIT_REG_MEM"),
        "{}",
        reports[1]
    );
    false
}

/// What every back end must do: run a write, signal a syncobj, survive
/// reuse of the device, and lose only the guilty context on a fault.
fn exercise(dev: &dyn KernelDevice, chip: Chip) {
    let queue = dev.queue_new(0).unwrap();
    let cs = dev.bo_new(&BoDesc::new(4096)).unwrap();
    let data = dev.bo_new(&BoDesc::new(8192)).unwrap();
    data.write(0, &[0xff; 16]).unwrap();
    let done = dev.syncobj_create(false).unwrap();
    let mut stream = mem_write(chip, data.iova() + 4, 0x1234_5678);
    stream.extend(mem_write(chip, data.iova() + 4096, 0xcafe_f00d));
    let fence = submit(
        dev,
        queue,
        &cs,
        &stream,
        &[BoUse::write(&data)],
        &[SyncPoint::binary(done)],
    )
    .unwrap();
    dev.fence_wait(fence, soon()).unwrap();
    dev.syncobj_wait(&[SyncPoint::binary(done)], WaitMode::All, soon())
        .unwrap();
    // The two dwords the stream wrote, and the CPU's bytes around them.
    assert_eq!(read_u32(&data, 0), 0xffff_ffff);
    assert_eq!(read_u32(&data, 4), 0x1234_5678);
    assert_eq!(read_u32(&data, 8), 0xffff_ffff);
    assert_eq!(read_u32(&data, 4096), 0xcafe_f00d);
    dev.status().unwrap();

    // A write to an address nothing is mapped at faults; the device is lost
    // but a new context on the same GPU works.
    let unmapped = data.iova() + (1 << 30);
    let fence = submit(dev, queue, &cs, &mem_write(chip, unmapped, 1), &[], &[]).unwrap();
    let lost = dev
        .fence_wait(fence, soon())
        .and_then(|()| dev.status())
        .unwrap_err();
    assert!(lost.is_device_lost(), "{lost}");
    println!("after the fault: {lost}");

    let fresh = dev.open_context().unwrap();
    fresh.status().unwrap();
    let q = fresh.queue_new(0).unwrap();
    let cs2 = fresh.bo_new(&BoDesc::new(4096)).unwrap();
    let out = fresh.bo_new(&BoDesc::new(4096)).unwrap();
    let f = submit(
        fresh.as_ref(),
        q,
        &cs2,
        &mem_write(chip, out.iova(), 77),
        &[BoUse::write(&out)],
        &[],
    )
    .unwrap();
    fresh.fence_wait(f, soon()).unwrap();
    assert_eq!(read_u32(&out, 0), 77);

    // A wait on memory nobody writes hangs; recovery retires the submit and
    // the context is lost.
    let other = fresh.open_context().unwrap();
    let q = other.queue_new(0).unwrap();
    let cs3 = other.bo_new(&BoDesc::new(4096)).unwrap();
    let flag = other.bo_new(&BoDesc::new(4096)).unwrap();
    let wait = CpWaitRegMemDw0 {
        function: CpCondFunction::WRITE_EQ,
        poll: PollMemoryType::POLL_MEMORY,
        ..Default::default()
    };
    let fl = flag.iova();
    let hang = pkt(
        chip,
        "CP_WAIT_REG_MEM",
        &[wait.to_raw(), fl as u32, (fl >> 32) as u32, 1, !0, 16],
    );
    let f = submit(other.as_ref(), q, &cs3, &hang, &[BoUse::read(&flag)], &[]).unwrap();
    let hung = other
        .fence_wait(f, soon())
        .and_then(|()| other.status())
        .unwrap_err();
    assert!(hung.is_device_lost(), "{hung}");
    fresh.status().unwrap();
}

#[test]
fn the_msm_back_end_runs_on_the_shims_a660() {
    if !in_child(
        "the_msm_back_end_runs_on_the_shims_a660",
        "a660",
        "CP_MEM_WRITE",
    ) {
        return;
    }
    let dev = open_device().unwrap();
    assert_eq!(
        dev.info().backend,
        Backend::Msm {
            node: PathBuf::from("/dev/dri/renderD128"),
            version: (1, 9, 0)
        }
    );
    // What the kernel reports for an a660 (adreno_gpu.c, a6xx_catalog.c):
    // gpu id 660, chip id 6.6.0.1, 1.5 MiB of GMEM at 0; per-process VA
    // from 4 GiB, 16 GiB long; userspace may place BOs.
    let info = dev.info();
    assert_eq!((info.gpu.gpu_id, info.gpu.chip_id), (660, 0x0606_0001));
    assert_eq!((info.gpu.gmem_size, info.gpu.gmem_base), (1536 * 1024, 0));
    assert_eq!((info.va_start, info.va_size), (1 << 32, 16 << 30));
    assert!(info.userspace_iova && info.timeline_syncobjs && info.cached_coherent);
    assert_eq!(info.priorities, 3);

    // A BO at a chosen address, and another on top of it refused by the
    // kernel (the range is in use: ENOSPC from SET_IOVA).
    let at = info.va_start + (8 << 30);
    let placed = dev
        .bo_new(&BoDesc {
            fixed_iova: Some(at),
            ..BoDesc::new(8192)
        })
        .unwrap();
    assert_eq!(placed.iova(), at);
    let clash = dev
        .bo_new(&BoDesc {
            fixed_iova: Some(at + 4096),
            ..BoDesc::new(4096)
        })
        .unwrap_err();
    assert!(
        matches!(clash, Error::InvalidArgument(_) | Error::Ioctl { .. }),
        "{clash}"
    );
    exercise(dev.as_ref(), Chip::A6xx);
}

#[test]
fn the_msm_back_end_runs_on_the_shims_a740() {
    if !in_child(
        "the_msm_back_end_runs_on_the_shims_a740",
        "a740",
        "CP_MEM_WRITE",
    ) {
        return;
    }
    let dev = open_device().unwrap();
    // The kernel has no legacy gpu id for the a740: chip id only.
    assert_eq!(
        (dev.info().gpu.gpu_id, dev.info().gpu.chip_id),
        (0, 0x4305_0a01)
    );
    exercise(dev.as_ref(), Chip::A7xx);
}

#[test]
fn the_kgsl_back_end_runs_on_the_shims_kgsl_device() {
    if !in_child(
        "the_kgsl_back_end_runs_on_the_shims_kgsl_device",
        "a660:kgsl",
        "CP_MEM_WRITE",
    ) {
        return;
    }
    let dev = open_device().unwrap();
    assert_eq!(
        dev.info().backend,
        Backend::Kgsl {
            node: PathBuf::from("/dev/kgsl-3d0")
        }
    );
    assert_eq!(
        (dev.info().gpu.gpu_id, dev.info().gpu.chip_id),
        (660, 0x0606_0001)
    );
    assert!(!dev.info().userspace_iova);
    exercise(dev.as_ref(), Chip::A6xx);
}

fn errno_of(r: parsnip_kernel_if::Result<()>) -> Option<Errno> {
    match r {
        Ok(()) => None,
        Err(Error::Ioctl { errno, .. }) => Some(errno),
        Err(e) => panic!("not an ioctl error: {e}"),
    }
}

#[test]
fn kgsl_answers_bad_arguments_and_invalidates_a_guilty_context() {
    use parsnip_kernel_if::ioctl_file::IoctlFile;
    use parsnip_kernel_if::kgsl::uapi::{self, *};
    if !in_child(
        "kgsl_answers_bad_arguments_and_invalidates_a_guilty_context",
        "a740:kgsl",
        "iova=0x00000000dead0000",
    ) {
        return;
    }
    let kgsl = IoctlFile::open(Path::new(KGSL_DEVICE_NODE)).unwrap();
    let ctx = |kgsl: &IoctlFile| {
        let mut c = KgslDrawctxtCreate {
            flags: KGSL_CONTEXT_PREAMBLE | KGSL_CONTEXT_NO_GMEM_ALLOC,
            drawctxt_id: 0,
        };
        kgsl.ioctl_rw("DRAWCTXT_CREATE", uapi::kgsl_drawctxt_create, &mut c)
            .unwrap();
        c.drawctxt_id
    };
    let command = |kgsl: &IoctlFile, context_id: u32, ib: &KgslCommandObject| {
        let mut g = KgslGpuCommand {
            cmdlist: ib as *const _ as u64,
            cmdsize: std::mem::size_of::<KgslCommandObject>() as u32,
            numcmds: 1,
            context_id,
            ..Default::default()
        };
        kgsl.ioctl_rw("GPU_COMMAND", uapi::kgsl_gpu_command, &mut g)
            .map(|()| g.timestamp)
    };
    let wait = |kgsl: &IoctlFile, context_id: u32, timestamp: u32| {
        let w = KgslDeviceWaittimestampCtxtid {
            context_id,
            timestamp,
            timeout: 5000,
        };
        kgsl.ioctl_w("WAIT", uapi::kgsl_device_waittimestamp_ctxtid, &w)
    };

    // kgsl.c and adreno's getproperty: unknown ids, types and sizes are
    // EINVAL.
    let mut free = KgslGpuobjFree {
        id: 999,
        ..Default::default()
    };
    assert_eq!(
        errno_of(kgsl.ioctl_w("FREE", uapi::kgsl_gpuobj_free, &free)),
        Some(Errno::EINVAL)
    );
    let mut info = KgslGpuobjInfo {
        id: 999,
        ..Default::default()
    };
    assert_eq!(
        errno_of(kgsl.ioctl_rw("INFO", uapi::kgsl_gpuobj_info, &mut info)),
        Some(Errno::EINVAL)
    );
    let mut devinfo = KgslDevinfo::default();
    let mut prop = KgslDeviceGetproperty {
        r#type: KGSL_PROP_DEVICE_INFO,
        value: &mut devinfo as *mut _ as u64,
        sizebytes: 8,
    };
    assert_eq!(
        errno_of(kgsl.ioctl_rw("PROP", uapi::kgsl_device_getproperty, &mut prop)),
        Some(Errno::EINVAL)
    );
    prop.r#type = 0x77;
    prop.sizebytes = std::mem::size_of::<KgslDevinfo>() as u64;
    assert_eq!(
        errno_of(kgsl.ioctl_rw("PROP", uapi::kgsl_device_getproperty, &mut prop)),
        Some(Errno::EINVAL)
    );
    let destroy = KgslDrawctxtDestroy { drawctxt_id: 4242 };
    assert_eq!(
        errno_of(kgsl.ioctl_w("DESTROY", uapi::kgsl_drawctxt_destroy, &destroy)),
        Some(Errno::EINVAL)
    );
    let unmapped = KgslCommandObject {
        gpuaddr: 0xdead_0000,
        size: 16,
        flags: KGSL_CMDLIST_IB,
        ..Default::default()
    };
    assert_eq!(
        errno_of(command(&kgsl, 4242, &unmapped).map(|_| ())),
        Some(Errno::EINVAL)
    );
    let guilty = ctx(&kgsl);
    assert_eq!(
        errno_of(wait(&kgsl, guilty, 5)),
        Some(Errno::EINVAL),
        "a timestamp never issued"
    );

    // An IB at an address nothing is mapped at faults; the kernel retires
    // it, reports the context guilty and refuses it further work, while a
    // new context works.
    let ts = command(&kgsl, guilty, &unmapped).unwrap();
    wait(&kgsl, guilty, ts).unwrap();
    let mut status = guilty;
    let mut prop = KgslDeviceGetproperty {
        r#type: KGSL_PROP_GPU_RESET_STAT,
        value: &mut status as *mut u32 as u64,
        sizebytes: 4,
    };
    kgsl.ioctl_rw("PROP", uapi::kgsl_device_getproperty, &mut prop)
        .unwrap();
    assert_eq!(status, KGSL_CTX_STAT_GUILTY_CONTEXT_RESET_EXT);
    assert_eq!(
        errno_of(command(&kgsl, guilty, &unmapped).map(|_| ())),
        Some(Errno::EDEADLK)
    );

    let mut alloc = KgslGpuobjAlloc {
        size: 4096,
        ..Default::default()
    };
    kgsl.ioctl_rw("ALLOC", uapi::kgsl_gpuobj_alloc, &mut alloc)
        .unwrap();
    let mut info = KgslGpuobjInfo {
        id: alloc.id,
        ..Default::default()
    };
    kgsl.ioctl_rw("INFO", uapi::kgsl_gpuobj_info, &mut info)
        .unwrap();
    let map = memmap2::MmapOptions::new()
        .offset(u64::from(alloc.id) << 12)
        .len(4096)
        .map_raw(kgsl.file())
        .unwrap();
    let stream = mem_write(Chip::A7xx, info.gpuaddr + 64, 0x600d);
    for (i, d) in stream.iter().enumerate() {
        // SAFETY: the mapping is 4096 bytes; the stream is 4 dwords.
        unsafe { map.as_mut_ptr().cast::<u32>().add(i).write_volatile(*d) };
    }
    let innocent = ctx(&kgsl);
    let ib = KgslCommandObject {
        gpuaddr: info.gpuaddr,
        size: stream.len() as u64 * 4,
        flags: KGSL_CMDLIST_IB,
        ..Default::default()
    };
    let ts = command(&kgsl, innocent, &ib).unwrap();
    wait(&kgsl, innocent, ts).unwrap();
    // SAFETY: offset 64 is inside the 4096-byte mapping.
    assert_eq!(
        unsafe { map.as_ptr().cast::<u32>().add(16).read_volatile() },
        0x600d
    );
    free.id = alloc.id;
    drop(map);
    kgsl.ioctl_w("FREE", uapi::kgsl_gpuobj_free, &free).unwrap();
    // A wait on memory nobody writes hangs (the hang budget is short
    // here): retired, and the context refused further work too.
    let hang = {
        let mut a = KgslGpuobjAlloc {
            size: 4096,
            ..Default::default()
        };
        kgsl.ioctl_rw("ALLOC", uapi::kgsl_gpuobj_alloc, &mut a)
            .unwrap();
        let mut i = KgslGpuobjInfo {
            id: a.id,
            ..Default::default()
        };
        kgsl.ioctl_rw("INFO", uapi::kgsl_gpuobj_info, &mut i)
            .unwrap();
        let m = memmap2::MmapOptions::new()
            .offset(u64::from(a.id) << 12)
            .len(4096)
            .map_raw(kgsl.file())
            .unwrap();
        let wait_dw = CpWaitRegMemDw0 {
            function: CpCondFunction::WRITE_EQ,
            poll: PollMemoryType::POLL_MEMORY,
            ..Default::default()
        };
        let f = i.gpuaddr + 2048;
        let s = pkt(
            Chip::A7xx,
            "CP_WAIT_REG_MEM",
            &[wait_dw.to_raw(), f as u32, (f >> 32) as u32, 1, !0, 16],
        );
        for (k, d) in s.iter().enumerate() {
            // SAFETY: the stream fits the 4096-byte mapping.
            unsafe { m.as_mut_ptr().cast::<u32>().add(k).write_volatile(*d) };
        }
        KgslCommandObject {
            gpuaddr: i.gpuaddr,
            size: s.len() as u64 * 4,
            flags: KGSL_CMDLIST_IB,
            ..Default::default()
        }
    };
    let third = ctx(&kgsl);
    let ts = command(&kgsl, third, &hang).unwrap();
    wait(&kgsl, third, ts).unwrap();
    assert_eq!(
        errno_of(command(&kgsl, third, &hang).map(|_| ())),
        Some(Errno::EDEADLK)
    );
}
