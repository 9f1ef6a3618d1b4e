//! The shim's msm device as C userspace sees it: libdrm's own device
//! enumeration and version query, and bad arguments to the msm and DRM
//! ioctls answered with the kernel's error codes.
//!
//! Each program in `tests/c/` is built with the C compiler against libdrm
//! (Debian's libdrm-dev) and the kernel's UAPI headers, and run with the
//! shim preloaded.

use std::path::{Path, PathBuf};
use std::process::Command;

fn shim_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // Cargo leaves the cdylib next to the test binaries, in deps/.
    let lib = exe.parent().unwrap().join("libparsnip_shim.so");
    assert!(
        lib.is_file(),
        "{} does not exist: build the shim first",
        lib.display()
    );
    lib
}

/// The kernel's UAPI DRM headers (msm_drm.h and its drm.h), as Debian's
/// kernel headers package installs them (scripts/install-deps).
fn kernel_uapi_drm() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/src")
        .expect("/usr/src (scripts/install-deps installs the kernel headers)")
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("include/uapi/drm"))
        .filter(|p| p.join("msm_drm.h").is_file())
        .collect();
    found.sort();
    found
        .pop()
        .expect("no kernel msm_drm.h under /usr/src (scripts/install-deps installs linux-headers)")
}

/// Builds `tests/c/<name>.c` and runs it with the shim as `PARSNIP_SHIM=gpu`.
fn run(name: &str, gpu: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("shim_c_programs");
    std::fs::create_dir_all(&dir).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c"));
    let program = dir.join(name);
    // The kernel's UAPI directory first, so msm_drm.h and xf86drm.h agree
    // on drm.h; `__user` is what `make headers_install` would strip.
    let cc = Command::new("cc")
        .args(["-std=gnu11", "-Wall", "-D__user=", "-o"])
        .arg(&program)
        .arg("-I")
        .arg(kernel_uapi_drm())
        .args(["-I", "/usr/include/libdrm"])
        .arg(&source)
        .arg("-ldrm")
        .output()
        .expect("running cc (scripts/install-deps installs gcc)");
    assert!(
        cc.status.success(),
        "building {name}.c (needs libdrm-dev):\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let out = Command::new(&program)
        .env("LD_PRELOAD", shim_library())
        .env("PARSNIP_SHIM", gpu)
        .env(
            "PARSNIP_SHIM_CRASH_DIR",
            dir.join(format!("{name}_{gpu}_crashes")),
        )
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn libdrm_enumerates_the_shims_msm_device() {
    for (gpu, compatible) in [
        ("a660", "qcom,adreno-660.1"),
        ("a740", "qcom,adreno-43050a01"),
    ] {
        let out = run("drm_enumerate", gpu);
        // One platform device with a primary and a render node (libdrm's
        // DRM_NODE_PRIMARY 0, DRM_NODE_RENDER 2), the GPU's device-tree
        // node, the msm driver of Linux 6.1 (1.9.0) with timeline syncobjs.
        let expected = format!(
            "devices 1\nbustype platform\nnode 0 /dev/dri/card0\nnode 2 /dev/dri/renderD128\n\
             fullname /soc@0/gpu@3d00000\ncompatible {compatible}\ncompatible qcom,adreno\n\
             driver msm 1.9.0\ndesc MSM Snapdragon DRM\nname-from-fd /dev/dri/renderD128\n\
             timeline-syncobj-cap 0 1\n"
        );
        assert_eq!(out, expected, "on {gpu}");
    }
}

#[test]
fn bad_ioctl_arguments_get_the_kernels_error_codes() {
    let out = run("msm_errors", "a660");
    // What Linux's msm driver and DRM core answer (msm_drv.c,
    // msm_gem_submit.c, msm_submitqueue.c, drm_gem.c, drm_prime.c,
    // drm_syncobj.c, drm_mm.c's range insert for SET_IOVA).
    let expected = [
        ("get_param_unknown", "EINVAL"),
        ("get_param_bad_pipe", "EINVAL"),
        ("gem_new_bad_flags", "EINVAL"),
        ("gem_new_no_cache_mode", "EINVAL"),
        ("gem_new_size_zero", "EINVAL"),
        ("info_unknown_handle", "ENOENT"),
        ("info_bad_request", "EINVAL"),
        ("info_pad", "EINVAL"),
        ("set_iova", "OK"),
        ("set_iova_same_again", "OK"),
        ("set_iova_moving", "EBUSY"),
        ("set_iova_overlapping", "ENOSPC"),
        ("set_iova_misaligned", "ENOSPC"),
        ("set_iova_below_the_range", "ENOSPC"),
        ("get_offset", "OK"),
        ("mmap_rounded_size", "OK"),
        ("mmap_past_the_end", "EINVAL"),
        ("mmap_unknown_offset", "EACCES"),
        ("cpu_prep_bad_op", "EINVAL"),
        ("cpu_prep_unknown_handle", "ENOENT"),
        ("gem_close_unknown", "EINVAL"),
        ("queue_new_bad_priority", "EINVAL"),
        ("queue_new", "OK"),
        ("queue_close_default", "ENOENT"),
        ("queue_close_unknown", "ENOENT"),
        ("submit_unknown_queue", "ENOENT"),
        ("submit_bad_pipe", "EINVAL"),
        ("submit_bad_flags", "EINVAL"),
        ("submit_pad", "EINVAL"),
        ("submit_duplicate_bo", "EINVAL"),
        ("submit_bad_bo_pointer", "EFAULT"),
        ("submit_bo_without_read_or_write", "EINVAL"),
        ("submit_misaligned_size", "EINVAL"),
        ("submit_empty_cmd", "EINVAL"),
        ("submit_cmd_past_the_bo", "EINVAL"),
        ("submit_bad_bo_index", "EINVAL"),
        ("submit_bad_cmd_type", "EINVAL"),
        ("submit_unknown_in_syncobj", "ENOENT"),
        ("submit_in_syncobj_with_no_fence", "EINVAL"),
        ("gem_close", "OK"),
        ("submit_naming_a_freed_bo", "EINVAL"),
        ("wait_fence_never_submitted", "EINVAL"),
        ("wait_fence_unknown_queue", "ENOENT"),
        ("syncobj_wait_unknown", "ENOENT"),
        ("syncobj_wait_no_fence", "EINVAL"),
        ("syncobj_wait_for_submit_expires", "ETIME"),
        ("syncobj_signal", "OK"),
        ("syncobj_wait_signalled", "OK"),
        ("syncobj_destroy_unknown", "EINVAL"),
        ("prime_export", "OK"),
        // The dma-buf is the object: two pages.
        ("dmabuf_size", "8192"),
        ("prime_import_in_another_file", "OK"),
        ("prime_import_again", "OK"),
        ("same_handle", "yes"),
        ("prime_import_not_a_dmabuf", "EINVAL"),
        ("prime_import_closed_fd", "EBADF"),
        ("prime_export_unknown", "ENOENT"),
        ("sync_file_export", "OK"),
        // poll(2)'s count of ready descriptors.
        ("sync_file_readable", "1"),
        ("submit_with_fence_fds", "OK"),
        ("out_fence_readable", "1"),
        // recover_worker's counts: this file's address space and queue,
        // not another file's.
        ("faults", "1"),
        ("queue_query", "OK"),
        ("queue_faults", "1"),
        ("new_file_faults", "0"),
    ];
    let got: Vec<(&str, &str)> = out
        .lines()
        .map(|l| l.split_once(' ').unwrap_or((l, "")))
        .collect();
    let wrong: Vec<String> = expected
        .iter()
        .zip(got.iter().map(Some).chain(std::iter::repeat(None)))
        .filter(|(want, got)| got.map(|g| g != *want).unwrap_or(true))
        .map(|(want, got)| format!("{}: want {}, got {got:?}", want.0, want.1))
        .collect();
    assert!(
        wrong.is_empty() && got.len() == expected.len(),
        "{}\n{out}",
        wrong.join("\n")
    );
    println!("{} ioctl cases answered as the kernel does", expected.len());
}
