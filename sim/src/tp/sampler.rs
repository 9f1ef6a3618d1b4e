//! Sampler state (`A6XX_TEX_SAMP`, four dwords) as the texture processor
//! uses it: filters, wrap modes, level-of-detail bias and clamps, depth
//! comparison and reduction.
//!
//! Turnip's encoding (tu_sampler.cc): MIPFILTER_LINEAR_NEAR for
//! VK_SAMPLER_MIPMAP_MODE_LINEAR (nearest mip otherwise), XY_MAG/XY_MIN
//! from the Vulkan filters (ANISO when anisotropy is on), COMPARE_FUNC only
//! with compareEnable (its CLAMPENABLE is not set by Turnip), BCOLOR the
//! border colour's index in the border colour table. Turnip never sets
//! MIPFILTER_LINEAR_FAR, which its source notes "disables mipmapping".

use parsnip_registers::descriptors::SamplerDescriptor;
use parsnip_registers::enums::{
    A6xxReductionMode, A6xxTexAniso, A6xxTexClamp, A6xxTexFilter, AdrenoCompareFunc,
};

use crate::sp::trap::{error, Trap};

/// How texels combine within a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filter {
    Nearest,
    Linear,
}

/// How the footprint's texels are reduced to one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reduction {
    WeightedAverage,
    Min,
    Max,
}

/// One sampler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sampler {
    pub mag: Filter,
    pub min: Filter,
    /// Linear between levels (Vulkan's MIPMAP_MODE_LINEAR).
    pub mip_linear: bool,
    pub wrap: [A6xxTexClamp; 3],
    pub lod_bias: f32,
    pub min_lod: f32,
    pub max_lod: f32,
    /// The comparison of shadow lookups (`.s`): reference OP texel.
    pub compare: AdrenoCompareFunc,
    pub unnormalized: bool,
    pub reduction: Reduction,
    pub seamless_cube: bool,
}

fn filter(f: A6xxTexFilter, which: &str) -> Result<Filter, Trap> {
    match f {
        A6xxTexFilter::A6XX_TEX_NEAREST => Ok(Filter::Nearest),
        A6xxTexFilter::A6XX_TEX_LINEAR => Ok(Filter::Linear),
        A6xxTexFilter::A6XX_TEX_ANISO => error(format!(
            "anisotropic {which} filtering: which texels the hardware takes is not public"
        )),
        _ => error(format!(
            "cubic {which} filtering (A6XX_TEX_SAMP {which} filter {})",
            f.0
        )),
    }
}

impl Sampler {
    /// The sampler in `raw`; an error for state whose behaviour the model
    /// does not know.
    pub fn decode(raw: &[u32; 4]) -> Result<Sampler, Trap> {
        let s = SamplerDescriptor::from_raw(raw);
        if s.mipfilter_linear_far {
            return error(
                "A6XX_TEX_SAMP MIPFILTER_LINEAR_FAR: what it does to level selection is not public",
            );
        }
        if s.aniso != A6xxTexAniso::A6XX_TEX_ANISO_1 {
            return error(
                "anisotropic filtering (A6XX_TEX_SAMP ANISO): which texels the hardware takes is \
                 not public",
            );
        }
        if s.chroma_linear {
            return error("A6XX_TEX_SAMP CHROMA_LINEAR: Y'CbCr sampling is not modelled");
        }
        let reduction = match s.reduction_mode {
            A6xxReductionMode::A6XX_REDUCTION_MODE_AVERAGE => Reduction::WeightedAverage,
            A6xxReductionMode::A6XX_REDUCTION_MODE_MIN => Reduction::Min,
            A6xxReductionMode::A6XX_REDUCTION_MODE_MAX => Reduction::Max,
            other => {
                return error(format!(
                    "A6XX_TEX_SAMP REDUCTION_MODE {}: no such reduction",
                    other.0
                ))
            }
        };
        Ok(Sampler {
            mag: filter(s.xy_mag, "magnification")?,
            min: filter(s.xy_min, "minification")?,
            mip_linear: s.mipfilter_linear_near,
            wrap: [s.wrap_s, s.wrap_t, s.wrap_r],
            lod_bias: s.lod_bias,
            min_lod: s.min_lod,
            max_lod: s.max_lod,
            compare: s.compare_func,
            unnormalized: s.unnorm_coords,
            reduction,
            seamless_cube: !s.cubemapseamlessfiltoff,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turnips_linear_repeat_sampler_decodes() {
        // What tu_CreateSampler writes for linear mag/min, linear mips,
        // REPEAT/CLAMP_TO_EDGE/MIRROR_REPEAT, bias 1.5, LOD 0.25..4: dword 0
        // MIPFILTER_LINEAR_NEAR | XY_MAG 1 << 1 | XY_MIN 1 << 3 | WRAP_T 1
        // << 8 | WRAP_R 2 << 11 | LOD_BIAS 1.5 * 256 << 19; dword 1 MAX_LOD
        // 4 * 256 << 8 | MIN_LOD 0.25 * 256 << 20.
        let raw = [
            1 | 1 << 1 | 1 << 3 | 1 << 8 | 2 << 11 | 384 << 19,
            1024 << 8 | 64 << 20,
            0,
            0,
        ];
        let s = Sampler::decode(&raw).unwrap();
        assert_eq!(
            (s.mag, s.min, s.mip_linear),
            (Filter::Linear, Filter::Linear, true)
        );
        assert_eq!(
            s.wrap,
            [
                A6xxTexClamp::A6XX_TEX_REPEAT,
                A6xxTexClamp::A6XX_TEX_CLAMP_TO_EDGE,
                A6xxTexClamp::A6XX_TEX_MIRROR_REPEAT
            ]
        );
        assert_eq!((s.lod_bias, s.min_lod, s.max_lod), (1.5, 0.25, 4.0));
        assert!(s.seamless_cube && !s.unnormalized);
        // A negative bias is two's complement in 13 bits: -2.0 = 0x1e00.
        let s = Sampler::decode(&[0x1e00 << 19, 0, 0, 0]).unwrap();
        assert_eq!(s.lod_bias, -2.0);
    }

    #[test]
    fn anisotropy_and_linear_far_are_errors() {
        assert!(Sampler::decode(&[1 << 14, 0, 0, 0]).is_err());
        assert!(Sampler::decode(&[0, 1 << 6, 0, 0]).is_err());
        assert!(Sampler::decode(&[2 << 1, 0, 0, 0]).is_err());
    }
}
