//! The level of detail and the levels it selects (Vulkan's "Level-of-Detail
//! Operation" and "Image Level(s) Selection"):
//!
//! - λ_base is the shader's explicit LOD, or log2 of the scale factor
//!   ρ_max = max(|∂(u,v,w)/∂x|, |∂(u,v,w)/∂y|), the derivatives of the
//!   coordinates scaled to level 0's texels (the isotropic form the
//!   specification allows);
//! - λ' = λ_base + clamp(sampler bias + shader bias, ±15.996) (Turnip's
//!   maxSamplerLodBias);
//! - λ = clamp(λ', minLod, maxLod), and at least the view's MIN_LOD_CLAMP;
//! - λ ≤ 0 magnifies, λ > 0 minifies;
//! - nearest mips take level ⌈λ + 0.5⌉ - 1 (λ clamped to the levels),
//!   linear mips blend ⌊λ⌋ and the next level by λ's fraction.
//!
//! The hardware computes λ in fixed point with 8 fractional bits (Turnip
//! reports mipmapPrecisionBits = 8), which the model rounds λ to.

use super::sampler::Sampler;

/// Where the level of detail comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Lod {
    /// `saml`: the shader's λ_base.
    Explicit(f32),
    /// Implicit (`sam`, `samb`) or explicit (`samgq`) derivatives of the
    /// normalized coordinates along x and y, and the shader's bias.
    Gradients {
        ddx: [f32; 3],
        ddy: [f32; 3],
        bias: f32,
    },
    /// Level 0, no LOD (gathers, unnormalized coordinates).
    Base,
}

/// The largest bias Turnip lets through, 4095 / 256.
const MAX_BIAS: f32 = 4095.0 / 256.0;

/// λ for `lod` on a texture whose level 0 is `size` texels (`dims` of its
/// components count), or `None` for [`Lod::Base`].
pub(crate) fn lambda(
    lod: Lod,
    size: [u32; 3],
    dims: usize,
    sampler: &Sampler,
    view_min: f32,
) -> Option<f32> {
    let base = match lod {
        Lod::Base => return None,
        Lod::Explicit(l) => l,
        Lod::Gradients { ddx, ddy, .. } => {
            let rho = |d: [f32; 3]| {
                (0..dims)
                    .map(|c| {
                        let v = f64::from(d[c]) * f64::from(size[c]);
                        v * v
                    })
                    .sum::<f64>()
                    .sqrt()
            };
            rho(ddx).max(rho(ddy)).log2() as f32
        }
    };
    let shader_bias = match lod {
        Lod::Gradients { bias, .. } => bias,
        _ => 0.0,
    };
    let biased = base + (sampler.lod_bias + shader_bias).clamp(-MAX_BIAS, MAX_BIAS);
    let clamped = biased
        .min(sampler.max_lod)
        .max(sampler.min_lod)
        .max(view_min);
    Some(quantize(clamped))
}

/// λ in the hardware's 8 fractional bits (round to nearest); ±infinity
/// (a zero or infinite derivative) stays as is.
fn quantize(l: f32) -> f32 {
    if l.is_finite() {
        (l * 256.0).round() / 256.0
    } else if l.is_nan() {
        0.0
    } else {
        l
    }
}

/// The levels a lookup reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Levels {
    One(u32),
    /// Two levels and the weight of the second.
    Two(u32, u32, f32),
}

/// The levels λ selects among `levels`, nearest or linear between them.
pub(crate) fn select(lambda: f32, levels: u32, mip_linear: bool) -> Levels {
    let q = (levels.max(1) - 1) as f32;
    let d = lambda.clamp(0.0, q);
    if !mip_linear || levels == 1 {
        // ⌈d + 0.5⌉ - 1: halves round down.
        return Levels::One(((d + 0.5).ceil() - 1.0).max(0.0) as u32);
    }
    let lo = d.floor();
    let frac = d - lo;
    if frac == 0.0 {
        Levels::One(lo as u32)
    } else {
        Levels::Two(lo as u32, (lo as u32 + 1).min(q as u32), frac)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tp::sampler::Sampler;

    fn sampler(bias: f32, min: f32, max: f32) -> Sampler {
        let mut s = Sampler::decode(&[0; 4]).unwrap();
        s.lod_bias = bias;
        s.min_lod = min;
        s.max_lod = max;
        s
    }

    #[test]
    fn the_scale_factor_is_the_longer_derivative_in_texels() {
        let s = sampler(0.0, 0.0, 15.0);
        // 64x32 texels, one pixel steps 1/16 in s and 1/32 in t along x:
        // (4, 1) texels, length sqrt(17); along y 8 texels of t: 8 wins.
        let l = lambda(
            Lod::Gradients {
                ddx: [1.0 / 16.0, 1.0 / 32.0, 0.0],
                ddy: [0.0, 0.25, 0.0],
                bias: 0.0,
            },
            [64, 32, 1],
            2,
            &s,
            0.0,
        );
        assert_eq!(l, Some(3.0));
        // Biases add, then the sampler's range clamps.
        let s = sampler(0.5, 0.0, 3.25);
        let l = lambda(
            Lod::Gradients {
                ddx: [0.25, 0.0, 0.0],
                ddy: [0.0; 3],
                bias: 0.5,
            },
            [64, 64, 1],
            2,
            &s,
            0.0,
        );
        assert_eq!(l, Some(3.25));
        assert_eq!(
            lambda(Lod::Explicit(-1.0), [8, 8, 1], 2, &s, 0.75),
            Some(0.75)
        );
    }

    #[test]
    fn levels_round_half_down_or_blend() {
        // Turnip's mip_lod workload: LOD 1.6 reads level 2, 0.4 level 0,
        // 2.6 and 3.0 level 3 (turnip/README.md).
        assert_eq!(select(1.6, 4, false), Levels::One(2));
        assert_eq!(select(0.4, 4, false), Levels::One(0));
        assert_eq!(select(2.6, 4, false), Levels::One(3));
        assert_eq!(select(0.5, 4, false), Levels::One(0));
        assert_eq!(select(9.0, 4, false), Levels::One(3));
        assert_eq!(select(1.25, 4, true), Levels::Two(1, 2, 0.25));
        assert_eq!(select(-3.0, 4, true), Levels::One(0));
    }
}
