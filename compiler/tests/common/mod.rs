//! Test support: GLSL compute shaders compiled with glslangValidator at test time, and
//! buffers to run them with.

#![allow(dead_code)]

pub mod dispatch;
pub mod draw;
pub mod mad_chain;
pub mod textures;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The SPIR-V of `tests/shaders/<name>.comp`, compiled now by glslangValidator (from
/// glslang-tools; `scripts/install-deps` installs it). Panics with a clear message when the
/// tool is missing or the shader does not compile.
pub fn spirv(name: &str) -> Vec<u32> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shaders")
        .join(format!("{name}.comp"));
    compile_glsl(&src, name, "vulkan1.2")
}

/// The SPIR-V of `tests/shaders/<file>` (a `.vert` or `.frag`), as [`spirv`] compiles it.
pub fn spirv_file(file: &str) -> Vec<u32> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shaders")
        .join(file);
    compile_glsl(&src, file, "vulkan1.2")
}

/// The SPIR-V of a GLSL file anywhere, or glslangValidator's complaint (for corpora
/// holding shaders that are not Vulkan GLSL).
pub fn try_spirv_path(src: &Path) -> Result<Vec<u32>, String> {
    let out = std::env::temp_dir().join(format!(
        "parsnip-compiler-{}-{}-corpus.spv",
        std::process::id(),
        next_call()
    ));
    let status = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.2", "-o"])
        .arg(&out)
        .arg(src)
        .output()
        .map_err(|e| format!("glslangValidator could not be run ({e})"))?;
    if !status.status.success() {
        return Err(String::from_utf8_lossy(&status.stdout).into_owned());
    }
    let bytes = std::fs::read(&out).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&out);
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The SPIR-V of a compute shader given as GLSL text, as [`spirv`] compiles it.
pub fn spirv_of(name: &str, source: &str) -> Vec<u32> {
    spirv_for(name, source, "vulkan1.2")
}

/// The SPIR-V of a compute shader given as GLSL text, for glslangValidator's target
/// environment `env` ("vulkan1.0" gives SPIR-V 1.0, whose entry points list no resource
/// variables and whose storage buffers are BufferBlock uniforms).
pub fn spirv_for(name: &str, source: &str, env: &str) -> Vec<u32> {
    let src = std::env::temp_dir().join(format!(
        "parsnip-compiler-{}-{}-{name}.comp",
        std::process::id(),
        next_call()
    ));
    std::fs::write(&src, source).expect("write the GLSL");
    let words = compile_glsl(&src, name, env);
    let _ = std::fs::remove_file(&src);
    words
}

/// A number unique to each call in this process: tests running in parallel may compile
/// the same shader.
fn next_call() -> usize {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

fn compile_glsl(src: &Path, name: &str, env: &str) -> Vec<u32> {
    let out = std::env::temp_dir().join(format!(
        "parsnip-compiler-{}-{}-{name}.spv",
        std::process::id(),
        next_call()
    ));
    let status = Command::new("glslangValidator")
        .args(["-V", "--target-env", env, "-o"])
        .arg(&out)
        .arg(src)
        .output()
        .unwrap_or_else(|e| {
            panic!("glslangValidator could not be run ({e}); install glslang-tools (scripts/install-deps)")
        });
    assert!(
        status.status.success(),
        "glslangValidator failed on {}:\n{}{}",
        src.display(),
        String::from_utf8_lossy(&status.stdout),
        String::from_utf8_lossy(&status.stderr)
    );
    let bytes = std::fs::read(&out).expect("read compiled SPIR-V");
    let _ = std::fs::remove_file(&out);
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn u32s_to_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn bytes_to_u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn f32s_to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn bytes_to_f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
