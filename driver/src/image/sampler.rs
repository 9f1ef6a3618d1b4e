//! `VkSampler`: its `A6XX_TEX_SAMP` descriptor (see
//! `descriptor::encoding::sampler`).
//!
//! Border colours are indices into the device's border colour table
//! (SP_TP_BORDER_COLOR_BASE_ADDR), whose first six entries are Vulkan's
//! standard colours in `VkBorderColor` order, as Turnip lays its table
//! out. Custom border colours (VK_EXT_custom_border_color) are not offered.

use std::sync::Arc;

use ash::vk;

use crate::descriptor::encoding::{self, Descriptor, SamplerArgs};
use crate::error::VkResult;

pub struct Sampler {
    pub args: SamplerArgs,
    /// The descriptor a sampler binding holds.
    pub descriptor: Descriptor,
}

impl Sampler {
    /// `vkCreateSampler`.
    pub fn new(args: SamplerArgs) -> VkResult<Arc<Sampler>> {
        if args.border_color > vk::BorderColor::INT_OPAQUE_WHITE.as_raw() as u32 {
            eprintln!(
                "parsnip: vkCreateSampler: border colour {} is not one of Vulkan's standard six",
                args.border_color
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let descriptor = encoding::sampler(&args)?;
        Ok(Arc::new(Sampler { args, descriptor }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nearest_clamped(max_lod: f32) -> SamplerArgs {
        SamplerArgs {
            mag: vk::Filter::NEAREST,
            min: vk::Filter::NEAREST,
            mipmap: vk::SamplerMipmapMode::NEAREST,
            address: [vk::SamplerAddressMode::CLAMP_TO_EDGE; 3],
            lod_bias: 0.0,
            anisotropy: None,
            compare: None,
            min_lod: 0.0,
            max_lod,
            border_color: 0,
            unnormalized: false,
            reduction: vk::SamplerReductionMode::WEIGHTED_AVERAGE,
            seamless_cube: true,
        }
    }

    #[test]
    fn the_mip_lod_sampler_is_turnips() {
        // mip_lod_sysmem.rd.gz: the sampler after the texture in the
        // descriptor set (0x100038040): 00000920 00030000 00000000
        // 00000000, for nearest filtering and mipmapping, clamp to edge,
        // LOD 0 to 3.
        let s = Sampler::new(nearest_clamped(3.0)).unwrap();
        assert_eq!(&s.descriptor[..4], &[0x920, 0x0003_0000, 0, 0]);
        assert!(s.descriptor[4..].iter().all(|&w| w == 0));
    }

    #[test]
    fn every_state_reaches_its_field() {
        use parsnip_registers::descriptors::SamplerDescriptor;
        use parsnip_registers::enums::*;
        let args = SamplerArgs {
            mag: vk::Filter::LINEAR,
            min: vk::Filter::LINEAR,
            mipmap: vk::SamplerMipmapMode::LINEAR,
            address: [
                vk::SamplerAddressMode::REPEAT,
                vk::SamplerAddressMode::MIRRORED_REPEAT,
                vk::SamplerAddressMode::CLAMP_TO_BORDER,
            ],
            lod_bias: -1.5,
            anisotropy: Some(8.0),
            compare: Some(vk::CompareOp::GREATER_OR_EQUAL),
            min_lod: 0.5,
            max_lod: 1000.0,
            border_color: vk::BorderColor::INT_OPAQUE_WHITE.as_raw() as u32,
            unnormalized: true,
            reduction: vk::SamplerReductionMode::MAX,
            seamless_cube: false,
        };
        let s = Sampler::new(args).unwrap();
        let d = SamplerDescriptor::from_raw(&s.descriptor[..4].try_into().unwrap());
        assert!(d.mipfilter_linear_near);
        assert_eq!(
            (d.xy_mag, d.xy_min),
            (A6xxTexFilter::A6XX_TEX_ANISO, A6xxTexFilter::A6XX_TEX_ANISO)
        );
        assert_eq!(d.aniso, A6xxTexAniso::A6XX_TEX_ANISO_8);
        assert_eq!(
            [d.wrap_s, d.wrap_t, d.wrap_r],
            [
                A6xxTexClamp::A6XX_TEX_REPEAT,
                A6xxTexClamp::A6XX_TEX_MIRROR_REPEAT,
                A6xxTexClamp::A6XX_TEX_CLAMP_TO_BORDER
            ]
        );
        assert_eq!(d.lod_bias, -1.5);
        assert_eq!(d.compare_func, AdrenoCompareFunc::FUNC_GEQUAL);
        assert_eq!((d.min_lod, d.max_lod), (0.5, 4095.0 / 256.0));
        assert!(d.unnorm_coords && d.cubemapseamlessfiltoff);
        assert_eq!(d.reduction_mode, A6xxReductionMode::A6XX_REDUCTION_MODE_MAX);
        assert_eq!(d.bcolor, 5);
        let mut custom = nearest_clamped(1.0);
        custom.border_color = vk::BorderColor::FLOAT_CUSTOM_EXT.as_raw() as u32;
        assert!(Sampler::new(custom).is_err());
    }
}
