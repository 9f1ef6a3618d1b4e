//! Generates the command table from the Vulkan registry (codegen/
//! dispatch.rs), and writes the ICD manifest into the profile directory of
//! the build:
//! `target/<profile>/parsnip_icd.x86_64.json`, the profile directory being
//! the third ancestor of OUT_DIR (`<profile>/build/<crate>-<hash>/out`).
//!
//! It names the library as `./deps/libvulkan_parsnip.so`, relative to
//! itself: that is where cargo links the cdylib whenever it compiles this
//! crate, for `cargo build` (which also copies it to
//! `<profile>/libvulkan_parsnip.so`) and for `cargo test` alike (which does
//! not copy it), so the manifest works after either. Where the layout
//! differs the manifest is not written and a warning says so.

#[path = "codegen/dispatch.rs"]
mod dispatch;

use std::path::{Path, PathBuf};

include!("src/manifest_json.rs");

/// Where Debian's libvulkan-dev puts the registry; `PARSNIP_VK_XML` names
/// another copy.
const VK_XML: &str = "/usr/share/vulkan/registry/vk.xml";

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-env-changed=PARSNIP_VK_XML");
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
    let vk_xml = std::env::var("PARSNIP_VK_XML").unwrap_or_else(|_| VK_XML.to_string());
    println!("cargo:rerun-if-changed={vk_xml}");
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    match dispatch::generate(Path::new(&vk_xml), &manifest_dir.join("src")) {
        Ok(table) => {
            if let Err(e) = std::fs::write(out.join("dispatch_table.rs"), table) {
                eprintln!("parsnip-icd build: writing the command table: {e}");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!(
                "parsnip-icd build: the command table is generated from the Vulkan registry: \
                 {e} (install Debian's libvulkan-dev, as scripts/install-deps does, or set \
                 PARSNIP_VK_XML to a vk.xml)"
            );
            std::process::exit(1);
        }
    }
    let Some(profile_dir) = out.ancestors().nth(3) else {
        println!(
            "cargo:warning=cannot find the profile directory above {}",
            out.display()
        );
        return;
    };
    if profile_dir.parent().and_then(|p| p.file_name()).is_none() {
        println!("cargo:warning=unexpected OUT_DIR layout {}", out.display());
        return;
    }
    let path = profile_dir.join(MANIFEST_NAME);
    let text = manifest_json(&format!("./deps/{LIBRARY_NAME}"));
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        if let Err(e) = std::fs::write(&path, text) {
            println!("cargo:warning=cannot write {}: {e}", path.display());
        }
    }
}
