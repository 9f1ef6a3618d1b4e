//! What the ICD's loader tests share: a manifest for the library cargo
//! built for the test, and the null back end's facts for a catalogue GPU.
#![allow(dead_code)]

use std::path::PathBuf;

use parsnip_registers::gpu;

/// A manifest naming, by absolute path as an installed one does, the
/// library cargo built for this test (in `target/<profile>/deps`, next to
/// the test executable).
pub fn manifest(tag: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let library = exe.with_file_name(vulkan_parsnip::manifest::LIBRARY_NAME);
    assert!(
        library.is_file(),
        "cargo did not build {}",
        library.display()
    );
    let dir = std::env::temp_dir().join(format!("parsnip-icd-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(vulkan_parsnip::manifest::MANIFEST_NAME);
    let text = vulkan_parsnip::manifest::manifest_json(&library.to_string_lossy());
    std::fs::write(&path, text).expect("write the manifest");
    path
}

/// `PARSNIP_NULL`'s value for a catalogue GPU.
pub fn null_facts(name: &str) -> String {
    let g = gpu::by_name(name).unwrap();
    format!(
        "gpu_id={},chip_id={:#x},gmem_size={:#x},gmem_base=0x100000",
        g.gpu_id, g.kernel_chip_id, g.gmem_bytes
    )
}

/// The loader, an instance of Vulkan 1.1 and its one physical device, with
/// the loader pointed at this test's library and the null back end posing
/// as `gpu`. Call once per process: the loader reads the environment once.
pub fn null_instance(tag: &str, gpu: &str) -> (ash::Entry, ash::Instance, ash::vk::PhysicalDevice) {
    std::env::set_var("VK_DRIVER_FILES", manifest(tag));
    std::env::set_var("PARSNIP_NULL", null_facts(gpu));
    std::env::remove_var("PARSNIP_SIM");
    std::env::remove_var("VK_ICD_FILENAMES");
    // SAFETY: loading the system's loader; a create info referring to
    // locals alive for the call.
    unsafe {
        let entry = ash::Entry::load().expect("the Vulkan loader");
        let app = ash::vk::ApplicationInfo::default().api_version(ash::vk::API_VERSION_1_1);
        let instance = entry
            .create_instance(
                &ash::vk::InstanceCreateInfo::default().application_info(&app),
                None,
            )
            .unwrap();
        let physical = instance.enumerate_physical_devices().unwrap()[0];
        (entry, instance, physical)
    }
}

/// SPIR-V of the compute shader `glsl`, compiled by glslangValidator
/// (`tag` names the temporary files).
pub fn glslang(tag: &str, glsl: &str) -> Vec<u32> {
    glslang_stage(tag, "comp", glsl)
}

/// [`glslang`] of a shader of `stage` (glslang's file extension: `vert`,
/// `frag`, `comp`).
pub fn glslang_stage(tag: &str, stage: &str, glsl: &str) -> Vec<u32> {
    let dir = std::env::temp_dir().join(format!("parsnip-icd-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join(format!("shader.{stage}"));
    std::fs::write(&source, glsl).unwrap();
    let out = dir.join("shader.spv");
    let status = std::process::Command::new("glslangValidator")
        .arg("-V")
        .arg("-o")
        .arg(&out)
        .arg(&source)
        .output()
        .expect("glslangValidator (Debian's glslang-tools; scripts/install-deps installs it)");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
    let bytes = std::fs::read(&out).unwrap();
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
