//! Gives the driver a build identifier: a hash of the sources that decide
//! what the driver compiles and emits (the driver, the compiler, the ISA
//! and the register database). Pipeline caches and the device UUIDs carry
//! it, so a cache written by one build is never loaded by another, as Mesa
//! does with the build-id of its shared object.
//!
//! Reads only this workspace's crates, never anything outside it.

use std::path::{Path, PathBuf};

const SOURCES: [&str; 4] = [
    "src",
    "../compiler/src",
    "../compiler/isa/src",
    "../registers/db",
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// FNV-1a, 64 bits, with a chosen start: two of them make 128 bits.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut paths = Vec::new();
    for dir in SOURCES {
        let dir = manifest.join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        files(&dir, &mut paths);
    }
    paths.sort();
    let (mut lo, mut hi) = (0xcbf2_9ce4_8422_2325u64, 0x6c62_272e_07bb_0142u64);
    for path in &paths {
        let name = path.strip_prefix(&manifest).unwrap_or(path);
        let bytes = std::fs::read(path).unwrap_or_default();
        for part in [name.to_string_lossy().as_bytes(), &bytes[..]] {
            lo = fnv1a(lo, part);
            hi = fnv1a(hi, part);
        }
    }
    println!("cargo:rustc-env=PARSNIP_BUILD_ID={hi:016x}{lo:016x}");
}
