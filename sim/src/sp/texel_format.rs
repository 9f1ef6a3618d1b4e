//! Texel formats of storage images and textures, as the shader processor
//! sees them: the model's one source of texel formats,
//! [`crate::surface::format`], with its errors as traps.

use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat as F};

use super::trap::{error, Trap};
use crate::surface::format;

pub(crate) use crate::surface::format::Texel;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TexelFormat {
    pub bytes: u32,
    format: format::TexelFormat,
}

/// The layout of `format`, or an error for one the model does not read.
pub(crate) fn texel_format(format: F, swap: A3xxColorSwap) -> Result<TexelFormat, Trap> {
    match format::TexelFormat::new(format, swap) {
        Ok(format) => Ok(TexelFormat {
            bytes: format.bytes,
            format,
        }),
        Err(e) => error(e.0),
    }
}

impl TexelFormat {
    pub fn is_integer(&self) -> bool {
        self.format.is_integer()
    }

    /// The components of the texel in `bytes` (little endian).
    pub fn decode(&self, bytes: &[u8]) -> Texel {
        self.format.decode(bytes)
    }

    /// The bytes of a texel with these components.
    pub fn encode(&self, texel: Texel) -> Result<Vec<u8>, Trap> {
        let mut out = vec![0u8; self.bytes as usize];
        self.format.encode(texel, &mut out);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_the_model_does_not_read_are_traps() {
        assert!(matches!(
            texel_format(F::FMT6_DXT1, A3xxColorSwap::WZYX),
            Err(Trap::Error(_))
        ));
        assert!(texel_format(F::FMT6_32_UINT, A3xxColorSwap::XYZW).is_err());
        let f = texel_format(F::FMT6_16_16_SINT, A3xxColorSwap::WZYX).unwrap();
        assert_eq!(f.bytes, 4);
        assert_eq!(
            f.encode(Texel::Int([(-2i32) as u32, 5, 0, 0])).unwrap(),
            [0xfe, 0xff, 5, 0]
        );
    }
}
