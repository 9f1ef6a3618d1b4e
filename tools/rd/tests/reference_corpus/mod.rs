//! The reference traces, found through `parsnip-reference`, and their bytes
//! decompressed by flate2 directly (not through the reader under test).

// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};

/// Every `.rd.gz` of the reference: Mesa's CI traces and the Turnip ones.
pub fn traces(reference: &Path) -> Vec<PathBuf> {
    let mut traces = Vec::new();
    for dir in ["traces", "turnip/a660", "turnip/a740"] {
        let entries = std::fs::read_dir(reference.join(dir))
            .unwrap_or_else(|e| panic!("listing {dir} in the reference: {e}"));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.to_string_lossy().ends_with(".rd.gz") {
                traces.push(path);
            }
        }
    }
    traces.sort();
    assert_eq!(
        traces.len(),
        81,
        "the reference holds 7 Mesa CI traces and 74 Turnip traces (37 per GPU: the \
         triangle in three modes, compute, 9 newref compute workloads and 8 newref \
         graphics workloads in three modes)"
    );
    traces
}

/// The uncompressed stream of a `.rd.gz`, all gzip members.
pub fn decompressed(path: &Path) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap();
    let mut bytes = Vec::new();
    flate2::read::MultiGzDecoder::new(file)
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("decompressing {}: {e}", path.display()));
    bytes
}

/// A short name for figures: `traces/fd-clouds` or `a660/compute`.
pub fn short_name(path: &Path) -> String {
    let name = path.file_name().unwrap().to_string_lossy();
    let parent = path
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy();
    format!("{parent}/{}", name.trim_end_matches(".rd.gz"))
}
