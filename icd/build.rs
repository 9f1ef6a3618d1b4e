//! Writes the ICD manifest next to the library the build makes:
//! `target/<profile>/parsnip_icd.x86_64.json`, naming
//! `./libvulkan_parsnip.so` relative to itself. The profile directory is
//! the third ancestor of OUT_DIR (`<profile>/build/<crate>-<hash>/out`);
//! where the layout differs the manifest is not written and a warning says
//! so (`scripts/demo` writes one in any case).

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
    let text = manifest_json(&format!("./{LIBRARY_NAME}"));
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        if let Err(e) = std::fs::write(&path, text) {
            println!("cargo:warning=cannot write {}: {e}", path.display());
        }
    }
}
