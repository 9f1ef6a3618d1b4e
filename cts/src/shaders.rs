//! The cases' compute shaders: GLSL in `cts/shaders/`, compiled to SPIR-V by
//! `glslangValidator` when the crate is built (see `build.rs`).

/// A compiled shader and the name of its source, `shaders/<name>.comp`.
#[derive(Clone, Copy, Debug)]
pub struct Shader {
    pub name: &'static str,
    pub spirv: &'static [u8],
}

impl Shader {
    /// The SPIR-V words, in the host's byte order as Vulkan takes them.
    pub fn words(&self) -> Result<Vec<u32>, String> {
        ash::util::read_spv(&mut std::io::Cursor::new(self.spirv))
            .map_err(|e| format!("shaders/{}.comp: bad SPIR-V: {e}", self.name))
    }
}

include!(concat!(env!("OUT_DIR"), "/shaders.rs"));
