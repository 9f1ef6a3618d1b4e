//! Our msm ioctl structs, constants and request numbers against the kernel's
//! own UAPI header, as a C compiler reads it.
//!
//! A generated C program prints `sizeof`, `_Alignof` and `offsetof` of every
//! struct and field we define, and the value of every `DRM_IOCTL_MSM_*` and
//! `MSM_*` constant we use; each must equal what Rust computes for ours. The
//! header is the kernel's `drm/msm_drm.h`: under /usr/include/drm where the
//! distribution's libc headers carry the DRM UAPI, else in Debian's kernel
//! headers package (`linux-headers-<arch>`, which scripts/install-deps
//! installs; Debian's linux-libc-dev leaves the DRM headers out, and
//! libdrm-dev's copy predates syncobj submits).

use std::collections::BTreeMap;
use std::mem::{align_of, offset_of, size_of};
use std::path::{Path, PathBuf};
use std::process::Command;

use parsnip_kernel_if::msm::uapi::*;

struct Layout {
    c_name: &'static str,
    size: usize,
    align: usize,
    fields: Vec<(&'static str, usize)>,
}

macro_rules! layout {
    ($c:literal, $t:ty, [$($f:ident),* $(,)?]) => {
        Layout {
            c_name: $c,
            size: size_of::<$t>(),
            align: align_of::<$t>(),
            fields: vec![$((stringify!($f).trim_start_matches("r#"), offset_of!($t, $f))),*],
        }
    };
}

fn layouts() -> Vec<Layout> {
    vec![
        layout!("drm_msm_timespec", MsmTimespec, [tv_sec, tv_nsec]),
        layout!("drm_msm_param", MsmParam, [pipe, param, value, len, pad]),
        layout!("drm_msm_gem_new", MsmGemNew, [size, flags, handle]),
        layout!(
            "drm_msm_gem_info",
            MsmGemInfo,
            [handle, info, value, len, pad]
        ),
        layout!("drm_msm_gem_cpu_prep", MsmGemCpuPrep, [handle, op, timeout]),
        layout!("drm_msm_gem_cpu_fini", MsmGemCpuFini, [handle]),
        layout!(
            "drm_msm_gem_submit_cmd",
            MsmGemSubmitCmd,
            [
                r#type,
                submit_idx,
                submit_offset,
                size,
                pad,
                nr_relocs,
                relocs
            ]
        ),
        layout!(
            "drm_msm_gem_submit_bo",
            MsmGemSubmitBo,
            [flags, handle, presumed]
        ),
        layout!(
            "drm_msm_gem_submit_syncobj",
            MsmGemSubmitSyncobj,
            [handle, flags, point]
        ),
        layout!(
            "drm_msm_gem_submit",
            MsmGemSubmit,
            [
                flags,
                fence,
                nr_bos,
                nr_cmds,
                bos,
                cmds,
                fence_fd,
                queueid,
                in_syncobjs,
                out_syncobjs,
                nr_in_syncobjs,
                nr_out_syncobjs,
                syncobj_stride,
                pad
            ]
        ),
        layout!(
            "drm_msm_wait_fence",
            MsmWaitFence,
            [fence, pad, timeout, queueid]
        ),
        layout!("drm_msm_submitqueue", MsmSubmitqueue, [flags, prio, id]),
        layout!(
            "drm_msm_submitqueue_query",
            MsmSubmitqueueQuery,
            [data, id, param, len, pad]
        ),
        layout!(
            "drm_msm_gem_madvise",
            MsmGemMadvise,
            [handle, madv, retained]
        ),
    ]
}

fn values() -> Vec<(&'static str, u64)> {
    macro_rules! values {
        ($($name:ident),* $(,)?) => { vec![$((stringify!($name), $name as u64)),*] };
    }
    values![
        DRM_IOCTL_MSM_GET_PARAM,
        DRM_IOCTL_MSM_GEM_NEW,
        DRM_IOCTL_MSM_GEM_INFO,
        DRM_IOCTL_MSM_GEM_CPU_PREP,
        DRM_IOCTL_MSM_GEM_CPU_FINI,
        DRM_IOCTL_MSM_GEM_SUBMIT,
        DRM_IOCTL_MSM_WAIT_FENCE,
        DRM_IOCTL_MSM_SUBMITQUEUE_NEW,
        DRM_IOCTL_MSM_SUBMITQUEUE_CLOSE,
        DRM_IOCTL_MSM_SET_PARAM,
        DRM_IOCTL_MSM_GEM_MADVISE,
        DRM_IOCTL_MSM_SUBMITQUEUE_QUERY,
        DRM_MSM_GET_PARAM,
        DRM_MSM_SET_PARAM,
        DRM_MSM_GEM_NEW,
        DRM_MSM_GEM_INFO,
        DRM_MSM_GEM_CPU_PREP,
        DRM_MSM_GEM_CPU_FINI,
        DRM_MSM_GEM_SUBMIT,
        DRM_MSM_WAIT_FENCE,
        DRM_MSM_GEM_MADVISE,
        DRM_MSM_SUBMITQUEUE_NEW,
        DRM_MSM_SUBMITQUEUE_CLOSE,
        DRM_MSM_SUBMITQUEUE_QUERY,
        MSM_PIPE_3D0,
        MSM_PARAM_PP_PGTABLE,
        MSM_PARAM_SUSPENDS,
        MSM_PARAM_SYSPROF,
        MSM_PARAM_COMM,
        MSM_PARAM_CMDLINE,
        MSM_BO_SCANOUT,
        MSM_BO_CACHE_MASK,
        MSM_BO_UNCACHED,
        MSM_INFO_GET_NAME,
        MSM_SUBMIT_CMD_IB_TARGET_BUF,
        MSM_SUBMIT_CMD_CTX_RESTORE_BUF,
        MSM_SUBMIT_FENCE_FD_IN,
        MSM_SUBMIT_FENCE_FD_OUT,
        MSM_SUBMIT_SUDO,
        MSM_SUBMIT_FENCE_SN_IN,
        MSM_SUBMITQUEUE_PARAM_FAULTS,
        MSM_PARAM_GPU_ID,
        MSM_PARAM_GMEM_SIZE,
        MSM_PARAM_CHIP_ID,
        MSM_PARAM_MAX_FREQ,
        MSM_PARAM_TIMESTAMP,
        MSM_PARAM_GMEM_BASE,
        MSM_PARAM_PRIORITIES,
        MSM_PARAM_FAULTS,
        MSM_PARAM_VA_START,
        MSM_PARAM_VA_SIZE,
        MSM_BO_GPU_READONLY,
        MSM_BO_CACHED,
        MSM_BO_WC,
        MSM_BO_CACHED_COHERENT,
        MSM_INFO_GET_OFFSET,
        MSM_INFO_GET_IOVA,
        MSM_INFO_SET_NAME,
        MSM_INFO_SET_IOVA,
        MSM_PREP_READ,
        MSM_PREP_WRITE,
        MSM_PREP_NOSYNC,
        MSM_SUBMIT_CMD_BUF,
        MSM_SUBMIT_BO_READ,
        MSM_SUBMIT_BO_WRITE,
        MSM_SUBMIT_BO_DUMP,
        MSM_SUBMIT_NO_IMPLICIT,
        MSM_SUBMIT_SYNCOBJ_IN,
        MSM_SUBMIT_SYNCOBJ_OUT,
        MSM_SUBMIT_SYNCOBJ_RESET,
    ]
}

/// The kernel's msm_drm.h, or `None` if this machine has none.
fn find_header() -> Option<PathBuf> {
    let libc_uapi = PathBuf::from("/usr/include/drm/msm_drm.h");
    if libc_uapi.is_file() {
        return Some(libc_uapi);
    }
    // Debian: /usr/src/linux-headers-<version>-common/include/uapi/drm/; the
    // highest version if several are installed.
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/src")
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("include/uapi/drm/msm_drm.h"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found.pop()
}

fn c_program(layouts: &[Layout], values: &[(&str, u64)]) -> String {
    let mut c = String::from(
        "#include <stddef.h>\n#include <stdio.h>\n#include \"msm_drm.h\"\nint main(void) {\n",
    );
    for l in layouts {
        let s = l.c_name;
        c += &format!("  printf(\"size {s} %zu\\n\", sizeof(struct {s}));\n");
        c += &format!("  printf(\"align {s} %zu\\n\", _Alignof(struct {s}));\n");
        for (f, _) in &l.fields {
            c += &format!("  printf(\"offset {s}.{f} %zu\\n\", offsetof(struct {s}, {f}));\n");
        }
    }
    for (name, _) in values {
        c += &format!("  printf(\"value {name} %llu\\n\", (unsigned long long)({name}));\n");
    }
    c + "  return 0;\n}\n"
}

fn expected(layouts: &[Layout], values: &[(&str, u64)]) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for l in layouts {
        m.insert(format!("size {}", l.c_name), l.size as u64);
        m.insert(format!("align {}", l.c_name), l.align as u64);
        for (f, off) in &l.fields {
            m.insert(format!("offset {}.{f}", l.c_name), *off as u64);
        }
    }
    for (name, v) in values {
        m.insert(format!("value {name}"), *v);
    }
    m
}

fn compile_and_run(header: &Path, source: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("msm_uapi_layout");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("layout.c");
    let bin = dir.join("layout");
    std::fs::write(&src, source).unwrap();
    let include = header.parent().unwrap();
    // The kernel tree's uapi headers still carry the `__user` address-space
    // annotation that `make headers_install` strips; define it away.
    let cc = Command::new("cc")
        .args(["-std=c11", "-Wall", "-D__user=", "-o"])
        .arg(&bin)
        .arg("-I")
        .arg(include)
        .arg(&src)
        .output()
        .expect("running cc (scripts/install-deps installs gcc)");
    assert!(
        cc.status.success(),
        "cc failed on the generated program against {}:\n{}",
        header.display(),
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&bin).output().unwrap();
    assert!(run.status.success());
    String::from_utf8(run.stdout).unwrap()
}

#[test]
fn msm_structs_constants_and_ioctl_numbers_match_the_kernel_header() {
    let Some(header) = find_header() else {
        let required = std::env::var(parsnip_reference::REQUIRE_VAR).is_ok_and(|v| v == "1");
        assert!(
            !required,
            "msm_drm.h not found (/usr/include/drm, /usr/src/linux-headers-*), and {}=1",
            parsnip_reference::REQUIRE_VAR
        );
        eprintln!("SKIPPED msm uapi layout: no msm_drm.h (install linux-headers-$(dpkg --print-architecture))");
        return;
    };
    let layouts = layouts();
    let values = values();
    let want = expected(&layouts, &values);
    let output = compile_and_run(&header, &c_program(&layouts, &values));
    let mut got = BTreeMap::new();
    for line in output.lines() {
        let (key, value) = line.rsplit_once(' ').unwrap();
        got.insert(key.to_string(), value.parse::<u64>().unwrap());
    }
    let mismatches: Vec<String> = want
        .iter()
        .filter(|(k, v)| got.get(*k) != Some(v))
        .map(|(k, v)| {
            format!(
                "{k}: ours {v:#x}, header {:?}",
                got.get(k).map(|g| format!("{g:#x}"))
            )
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "differences from {}:\n{}",
        header.display(),
        mismatches.join("\n")
    );
    let count = |prefix: &str| want.keys().filter(|k| k.starts_with(prefix)).count();
    println!(
        "{}: {} structs (size and alignment), {} field offsets, {} ioctl numbers, {} constants match",
        header.display(),
        count("size "),
        count("offset "),
        count("value DRM_IOCTL_"),
        count("value MSM_") + count("value DRM_MSM_")
    );
}
