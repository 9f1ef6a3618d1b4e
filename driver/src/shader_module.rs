//! `VkShaderModule`: the SPIR-V words, kept until pipelines compile them.

use std::sync::Arc;

use ash::vk;

use crate::error::VkResult;

/// SPIR-V's magic number (the SPIR-V specification, 3.1 "Magic Number").
const SPIRV_MAGIC: u32 = 0x0723_0203;

pub struct ShaderModule {
    pub words: Vec<u32>,
}

impl ShaderModule {
    /// A module from `bytes` of SPIR-V. Something that is not SPIR-V at
    /// all is refused here with `VK_ERROR_UNKNOWN` (the result any command
    /// may return for invalid input; `VK_ERROR_INVALID_SHADER_NV` belongs to
    /// an extension); whether the compiler can take it is decided when a
    /// pipeline is created.
    pub fn new(bytes: &[u8]) -> VkResult<Arc<ShaderModule>> {
        if !bytes.len().is_multiple_of(4) || bytes.len() < 20 {
            eprintln!(
                "parsnip: vkCreateShaderModule: {} bytes is not a whole SPIR-V module",
                bytes.len()
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if words[0] != SPIRV_MAGIC {
            eprintln!(
                "parsnip: vkCreateShaderModule: magic number {:#010x} is not SPIR-V's",
                words[0]
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        Ok(Arc::new(ShaderModule { words }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_spirv_is_taken() {
        let mut bytes = Vec::new();
        for w in [SPIRV_MAGIC, 0x0001_0000, 0, 1, 0] {
            bytes.extend_from_slice(&u32::to_le_bytes(w));
        }
        assert_eq!(ShaderModule::new(&bytes).unwrap().words.len(), 5);
        assert!(ShaderModule::new(&bytes[..18]).is_err());
        bytes[0] = 0;
        assert!(ShaderModule::new(&bytes).is_err());
    }
}
