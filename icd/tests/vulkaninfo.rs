//! The ICD through the real Khronos loader: `vulkaninfo` finds the device,
//! lists its properties and exits 0, for an a6xx and an a7xx part. The
//! null back end (`PARSNIP_NULL`) stands in for a GPU here; the cts runs
//! the same with the simulator.

mod common;

use std::process::Command;

use common::{manifest, null_facts};

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
        out.contains(
            "queueFlags                  = QUEUE_GRAPHICS | QUEUE_COMPUTE | QUEUE_TRANSFER"
        ),
        "{out}"
    );
}
