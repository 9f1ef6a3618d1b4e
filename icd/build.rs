//! Writes the ICD manifest into the profile directory of the build:
//! `target/<profile>/parsnip_icd.x86_64.json`, the profile directory being
//! the third ancestor of OUT_DIR (`<profile>/build/<crate>-<hash>/out`).
//!
//! It names the library as `./deps/libvulkan_parsnip.so`, relative to
//! itself: that is where cargo links the cdylib whenever it compiles this
//! crate, for `cargo build` (which also copies it to
//! `<profile>/libvulkan_parsnip.so`) and for `cargo test` alike (which does
//! not copy it), so the manifest works after either. Where the layout
//! differs the manifest is not written and a warning says so.

use std::path::PathBuf;

include!("src/manifest_json.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/manifest_json.rs");
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
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
