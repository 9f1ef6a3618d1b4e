//! The files the shim shows for its device: `/dev/dri`'s listing and the
//! sysfs tree libdrm's `drmGetDevices2` walks (`/sys/dev/char/226:<minor>`
//! with `device/subsystem`, `device/uevent` and `device/drm`), as a real
//! directory tree under the temporary directory that [`crate::paths`]
//! redirects those paths to. A platform device, as an Adreno is: the GPU's
//! device-tree node, `qcom,adreno-<id>` compatible.

use std::io;
use std::os::unix::fs::symlink;
use std::path::Path;

use parsnip_registers::gpu::GpuInfo;

/// DRM's character device major number.
pub const DRM_MAJOR: u32 = 226;
/// The render node's minor number (renderD128) and the primary node's (card0).
pub const RENDER_MINOR: u32 = 128;
pub const PRIMARY_MINOR: u32 = 0;
/// kgsl's major is allocated at boot; this is the one the shim reports.
pub const KGSL_MAJOR: u32 = 508;

/// The device-tree compatible of `gpu`, as its DT node names it:
/// `qcom,adreno-660.1` for chip id 0x06060001, `qcom,adreno-43050a01` for
/// the new-style ids.
pub fn compatible(gpu: &GpuInfo) -> String {
    let id = gpu.kernel_chip_id;
    if id >> 24 == gpu.chip.generation() {
        let (core, major, minor, patch) =
            (id >> 24, (id >> 16) & 0xff, (id >> 8) & 0xff, id & 0xff);
        format!("qcom,adreno-{core}{major}{minor}.{patch}")
    } else {
        format!("qcom,adreno-{id:08x}")
    }
}

/// Builds the tree at `root` (replacing one left there).
pub fn build(root: &Path, gpu: &GpuInfo) -> io::Result<()> {
    if root.exists() {
        std::fs::remove_dir_all(root)?;
    }
    let dri = root.join("dev/dri");
    std::fs::create_dir_all(&dri)?;
    for node in ["card0", "renderD128"] {
        std::fs::write(dri.join(node), b"")?;
    }
    let platform = root.join("sys/bus/platform");
    std::fs::create_dir_all(platform.join("drivers/msm"))?;
    let gpu_dir = root.join("sys/devices/platform/soc@0/3d00000.gpu");
    std::fs::create_dir_all(&gpu_dir)?;
    let compatible = compatible(gpu);
    std::fs::write(
        gpu_dir.join("uevent"),
        format!(
            "DRIVER=msm\nOF_NAME=gpu\nOF_FULLNAME=/soc@0/gpu@3d00000\nOF_COMPATIBLE_0={compatible}\n\
             OF_COMPATIBLE_1=qcom,adreno\nOF_COMPATIBLE_N=2\n\
             MODALIAS=of:NgpuT(null)C{compatible}Cqcom,adreno\n"
        ),
    )?;
    symlink("../../../../bus/platform", gpu_dir.join("subsystem"))?;
    symlink(
        "../../../../bus/platform/drivers/msm",
        gpu_dir.join("driver"),
    )?;
    std::fs::create_dir_all(root.join("sys/dev/char"))?;
    std::fs::create_dir_all(root.join("sys/class/drm"))?;
    std::fs::create_dir_all(root.join("sys/class/devcoredump"))?;
    for (name, minor) in [("card0", PRIMARY_MINOR), ("renderD128", RENDER_MINOR)] {
        let node = gpu_dir.join("drm").join(name);
        std::fs::create_dir_all(&node)?;
        std::fs::write(node.join("dev"), format!("{DRM_MAJOR}:{minor}\n"))?;
        std::fs::write(
            node.join("uevent"),
            format!("MAJOR={DRM_MAJOR}\nMINOR={minor}\nDEVNAME=dri/{name}\nDEVTYPE=drm_minor\n"),
        )?;
        symlink("../..", node.join("device"))?;
        let target = format!("../../devices/platform/soc@0/3d00000.gpu/drm/{name}");
        symlink(
            &target,
            root.join(format!("sys/dev/char/{DRM_MAJOR}:{minor}")),
        )?;
        symlink(&target, root.join(format!("sys/class/drm/{name}")))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatibles_follow_the_chip_id_form() {
        let gpu = |n| parsnip_registers::gpu::by_name(n).unwrap();
        assert_eq!(compatible(gpu("a660")), "qcom,adreno-660.1");
        assert_eq!(compatible(gpu("a740")), "qcom,adreno-43050a01");
    }

    #[test]
    fn the_tree_has_what_libdrm_reads() {
        let root = std::env::temp_dir().join(format!("parsnip-sysfs-test-{}", std::process::id()));
        build(&root, parsnip_registers::gpu::by_name("a660").unwrap()).unwrap();
        let dev = root.join("sys/dev/char/226:128/device");
        assert!(dev.join("drm").is_dir());
        let subsystem = std::fs::canonicalize(dev.join("subsystem")).unwrap();
        assert!(
            subsystem.ends_with("bus/platform"),
            "{}",
            subsystem.display()
        );
        let uevent = std::fs::read_to_string(dev.join("uevent")).unwrap();
        assert!(
            uevent.contains("OF_FULLNAME=/soc@0/gpu@3d00000"),
            "{uevent}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
