//! The ICD through the real Khronos loader: `vulkaninfo` finds the device,
//! lists its properties and exits 0, for an a6xx and an a7xx part. The
//! null back end (`PARSNIP_NULL`) stands in for a GPU here; the cts runs
//! the same with the simulator.

use std::path::PathBuf;
use std::process::Command;

use parsnip_registers::gpu;

/// A manifest naming, by absolute path as an installed one does, the
/// library cargo built for this test (in `target/<profile>/deps`, next to
/// the test executable: cargo puts it in the profile directory only for
/// `cargo build`).
fn manifest(gpu_name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let library = exe.with_file_name(vulkan_parsnip::manifest::LIBRARY_NAME);
    assert!(
        library.is_file(),
        "cargo did not build {}",
        library.display()
    );
    let dir = std::env::temp_dir().join(format!("parsnip-icd-{}-{gpu_name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(vulkan_parsnip::manifest::MANIFEST_NAME);
    let text = vulkan_parsnip::manifest::manifest_json(&library.to_string_lossy());
    std::fs::write(&path, text).expect("write the manifest");
    path
}

fn null_facts(name: &str) -> String {
    let g = gpu::by_name(name).unwrap();
    format!(
        "gpu_id={},chip_id={:#x},gmem_size={:#x},gmem_base=0x100000",
        g.gpu_id, g.kernel_chip_id, g.gmem_bytes
    )
}

fn vulkaninfo(gpu_name: &str) -> String {
    let output = Command::new("vulkaninfo")
        .env("VK_DRIVER_FILES", manifest(gpu_name))
        .env("PARSNIP_NULL", null_facts(gpu_name))
        .env_remove("PARSNIP_SIM")
        .env_remove("VK_ICD_FILENAMES")
        .output()
        .expect("vulkaninfo runs (Debian's vulkan-tools; scripts/install-deps installs it)");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "vulkaninfo failed ({}):\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[test]
fn vulkaninfo_lists_an_a660() {
    let out = vulkaninfo("a660");
    assert!(
        out.contains("deviceName        = Parsnip Adreno 660"),
        "{out}"
    );
    assert!(out.contains("vendorID          = 0x5143"), "{out}");
    assert!(out.contains("deviceID          = 0x6060001"), "{out}");
    assert!(out.contains("VK_KHR_timeline_semaphore"), "{out}");
    assert!(out.contains("maxComputeSharedMemorySize"), "{out}");
}

#[test]
fn vulkaninfo_lists_an_a740() {
    let out = vulkaninfo("a740");
    assert!(
        out.contains("deviceName        = Parsnip Adreno 740"),
        "{out}"
    );
    assert!(out.contains("deviceID          = 0x43050a01"), "{out}");
    assert!(
        out.contains("queueFlags                  = QUEUE_COMPUTE | QUEUE_TRANSFER"),
        "{out}"
    );
}
