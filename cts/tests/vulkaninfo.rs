//! `vulkaninfo` (Debian's vulkan-tools) through the loader lists the device
//! and exits 0.

mod drivers;

use drivers::{lavapipe, parsnip};
use std::path::Path;
use std::process::Command;

/// Runs the full `vulkaninfo` on `driver`; returns its standard output.
fn vulkaninfo(driver: &Path, env: &[(&str, &str)]) -> String {
    let mut command = Command::new("vulkaninfo");
    command
        .env("VK_DRIVER_FILES", driver)
        .env_remove("VK_ICD_FILENAMES");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command
        .output()
        .expect("run vulkaninfo (Debian's vulkan-tools; scripts/install-deps installs it)");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "vulkaninfo exited with {}:\n{}\n{}",
        output.status,
        stdout.lines().rev().take(20).collect::<Vec<_>>().join("\n"),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The value of the first `key = value` line for `key`.
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == key).then(|| v.trim())
    })
}

#[test]
fn vulkaninfo_lists_lavapipe() {
    let out = vulkaninfo(&lavapipe(), &[]);
    let name = field(&out, "deviceName").expect("a deviceName line");
    assert!(name.starts_with("llvmpipe"), "deviceName = {name}");
    // Mesa's software rasterizer vendor id (VK_VENDOR_ID_MESA, vulkan_core.h).
    assert_eq!(field(&out, "vendorID"), Some("0x10005"));
}

fn lists_parsnip(gpu: &str) {
    let out = vulkaninfo(&parsnip(), &[("PARSNIP_SIM", gpu)]);
    let name = field(&out, "deviceName").expect("a deviceName line");
    let number = gpu.trim_start_matches('a');
    assert!(
        name.contains("Adreno") && name.contains(number),
        "deviceName = {name}, expected an Adreno {number}"
    );
    // Qualcomm's Vulkan vendor id, as Adreno drivers report it.
    assert_eq!(field(&out, "vendorID"), Some("0x5143"));
    // Vulkan 1.3, whatever the patch level.
    let api = field(&out, "apiVersion").expect("an apiVersion line");
    assert!(api.starts_with("1.3."), "apiVersion = {api}, expected 1.3");
    // Headless presentation is listed: the instance extensions, and the
    // device's swapchain.
    for extension in [
        "VK_KHR_surface",
        "VK_EXT_headless_surface",
        "VK_KHR_get_surface_capabilities2",
        "VK_KHR_swapchain",
    ] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{extension} "))),
            "vulkaninfo does not list {extension}"
        );
    }
}

#[test]
fn vulkaninfo_lists_parsnip_a660() {
    lists_parsnip("a660");
}

#[test]
fn vulkaninfo_lists_parsnip_a740() {
    lists_parsnip("a740");
}
