//! The number encodings texel fields use besides plain integers and IEEE
//! halves and singles: normalized integers, 16.16 fixed point, the unsigned
//! small floats of 11:11:10, the shared exponent of 9:9:9:5, and the sRGB
//! transfer function.
//!
//! Conversions are Vulkan's ("Fixed-Point Data Conversions", "Unsigned
//! 11-Bit/10-Bit Floating-Point Numbers", "Shared Exponent", and the sRGB
//! EOTF of the Khronos Data Format specification): UNORM/SNORM to float
//! divide by 2^b - 1 or 2^(b-1) - 1 (SNORM clamped at -1), float to
//! UNORM/SNORM clamp and round to nearest even, NaN becoming 0.

pub(super) fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `x`.
pub(super) fn sign_extend(x: u64, bits: u32) -> i64 {
    ((x << (64 - bits)) as i64) >> (64 - bits)
}

pub(super) fn unorm_to_f32(x: u64, bits: u32) -> f32 {
    (x as f64 / ones(bits) as f64) as f32
}

pub(super) fn snorm_to_f32(x: u64, bits: u32) -> f32 {
    (sign_extend(x, bits) as f64 / ones(bits - 1) as f64).max(-1.0) as f32
}

pub(super) fn f32_to_unorm(v: f32, bits: u32) -> u64 {
    let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    (f64::from(v) * ones(bits) as f64).round_ties_even() as u64
}

pub(super) fn f32_to_snorm(v: f32, bits: u32) -> u64 {
    let v = if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) };
    let s = (f64::from(v) * ones(bits - 1) as f64).round_ties_even() as i64;
    s as u64 & ones(bits)
}

/// 16.16 signed fixed point (`FMT6_*_FIXED`, GL's GL_FIXED).
pub(super) fn fixed_to_f32(x: u64) -> f32 {
    (sign_extend(x, 32) as f64 / 65536.0) as f32
}

pub(super) fn f32_to_fixed(v: f32) -> u64 {
    let v = if v.is_nan() {
        0.0
    } else {
        f64::from(v) * 65536.0
    };
    (v.round_ties_even()
        .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i64) as u64
        & ones(32)
}

/// An unsigned float with a 5-bit exponent (bias 15) above `mantissa` bits.
pub(super) fn ufloat_to_f32(x: u64, mantissa: u32) -> f32 {
    let exp = (x >> mantissa) as i32;
    let m = (x & ones(mantissa)) as f64 / (1u64 << mantissa) as f64;
    match exp {
        0 => (m * 2f64.powi(-14)) as f32,
        31 if m == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => ((1.0 + m) * 2f64.powi(e - 15)) as f32,
    }
}

/// The nearest unsigned float with a 5-bit exponent and `mantissa` bits
/// (ties to even); negative values and -0 become 0, values past the largest
/// finite one infinity, NaN a NaN (Vulkan: "negative values are converted
/// to zero", "positive values too large ... to infinity").
pub(super) fn f32_to_ufloat(v: f32, mantissa: u32) -> u64 {
    let exp_mask = 31u64 << mantissa;
    if v.is_nan() {
        return exp_mask | 1;
    }
    if v <= 0.0 {
        return 0;
    }
    if v.is_infinite() {
        return exp_mask;
    }
    // The binade from the single's own exponent field (exact, unlike a
    // logarithm); denormals have the step of the smallest normal exponent.
    let binade = ((v.to_bits() >> 23) & 0xff) as i32 - 127;
    let step_exp = binade.max(-14);
    let v = f64::from(v);
    let step = 2f64.powi(step_exp - mantissa as i32);
    let q = (v / step).round_ties_even();
    let mut exp = step_exp + 15;
    let mut m = q as u64;
    if step_exp == -14 && m < 1 << mantissa {
        // A denormal (exponent field 0).
        return m;
    }
    if m >= 2 << mantissa {
        // Rounding carried into the next binade.
        m >>= 1;
        exp += 1;
    }
    if exp >= 31 {
        return exp_mask;
    }
    (exp as u64) << mantissa | (m & ones(mantissa))
}

/// The three components of a 9:9:9:5 shared-exponent value (Vulkan's
/// "Shared Exponent" decode: mantissa * 2^(exponent - 15 - 9)).
pub(super) fn rgb9e5_to_f32(x: u64) -> [f32; 3] {
    let exp = ((x >> 27) & 31) as i32;
    let scale = 2f64.powi(exp - 15 - 9);
    [0, 9, 18].map(|s| (((x >> s) & 0x1ff) as f64 * scale) as f32)
}

/// Vulkan's "Shared Exponent" encode (N = 9 mantissa bits, B = 15, E_max =
/// 31), rounding to nearest.
pub(super) fn f32_to_rgb9e5(rgb: [f32; 3]) -> u64 {
    const N: i32 = 9;
    const B: i32 = 15;
    let max = (f64::from((1u32 << N) - 1) / f64::from(1u32 << N)) * 2f64.powi(31 - B);
    let c = rgb.map(|v| {
        if v.is_nan() {
            0.0
        } else {
            f64::from(v).clamp(0.0, max)
        }
    });
    let m = c[0].max(c[1]).max(c[2]);
    let mut exp = if m > 0.0 {
        (m.log2().floor() as i32).max(-B - 1) + 1 + B
    } else {
        0
    };
    let mut scale = 2f64.powi(exp - B - N);
    if (m / scale).round_ties_even() as i64 == 1 << N {
        exp += 1;
        scale *= 2.0;
    }
    let parts = c.map(|v| ((v / scale).round_ties_even() as u64).min(0x1ff));
    parts[0] | parts[1] << 9 | parts[2] << 18 | (exp.clamp(0, 31) as u64) << 27
}

/// The sRGB EOTF: an encoded value in [0, 1] to linear.
pub fn srgb_to_linear(c: f32) -> f32 {
    let c = f64::from(c);
    let l = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    l as f32
}

/// The inverse of [`srgb_to_linear`].
pub fn linear_to_srgb(l: f32) -> f32 {
    if l.is_nan() {
        return 0.0;
    }
    let l = f64::from(l).clamp(0.0, 1.0);
    let c = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    c as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_floats_round_to_nearest() {
        // 11-bit: 1.0 is exponent 15, mantissa 0; 2^-14 * 3/64 a denormal.
        assert_eq!(f32_to_ufloat(1.0, 6), 15 << 6);
        assert_eq!(f32_to_ufloat(3.0 / 64.0 * 2f32.powi(-14), 6), 3);
        assert_eq!(f32_to_ufloat(-2.0, 6), 0);
        // The largest finite 11-bit value is 65024 (exponent 30, mantissa
        // 63); past it, infinity.
        assert_eq!(f32_to_ufloat(65024.0, 6), 30 << 6 | 63);
        assert_eq!(f32_to_ufloat(1.0e6, 6), 31 << 6);
        // 1 + 1/128 lies halfway between 1 and 1 + 1/64: ties to even.
        assert_eq!(f32_to_ufloat(1.0 + 1.0 / 128.0, 6), 15 << 6);
        // 1 + 63.5/64 rounds up into 2.0.
        assert_eq!(f32_to_ufloat(1.0 + 63.5 / 64.0, 6), 16 << 6);
        for x in 0..(31u64 << 6) {
            assert_eq!(f32_to_ufloat(ufloat_to_f32(x, 6), 6), x, "{x:#x}");
        }
        for x in 0..(31u64 << 5) {
            assert_eq!(f32_to_ufloat(ufloat_to_f32(x, 5), 5), x, "{x:#x}");
        }
    }

    #[test]
    fn shared_exponent_follows_the_spec() {
        // 1.0 = 256 * 2^(16 - 24): exponent 16, mantissa 256.
        assert_eq!(f32_to_rgb9e5([1.0, 0.0, 0.0]), 256 | 16 << 27);
        assert_eq!(rgb9e5_to_f32(256 | 128 << 9 | 16 << 27), [1.0, 0.5, 0.0]);
        // 511/512 * 2^16 is the largest value.
        let max = 511.0 / 512.0 * 65536.0;
        assert_eq!(f32_to_rgb9e5([1.0e9, 0.0, 0.0]), 511 | 31 << 27);
        assert_eq!(rgb9e5_to_f32(511 | 31 << 27)[0], max);
    }

    #[test]
    fn srgb_round_trips_every_8_bit_value() {
        for v in 0..=255u64 {
            let linear = srgb_to_linear(unorm_to_f32(v, 8));
            assert_eq!(f32_to_unorm(linear_to_srgb(linear), 8), v);
        }
        // The spec's breakpoints: 0.5 encoded is about 0.214 linear.
        assert!((srgb_to_linear(0.5) - 0.214_041).abs() < 1e-5);
    }

    #[test]
    fn fixed_point_is_16_16() {
        assert_eq!(fixed_to_f32(0x0001_8000), 1.5);
        assert_eq!(fixed_to_f32(0xffff_0000), -1.0);
        assert_eq!(f32_to_fixed(-1.0), 0xffff_0000);
    }
}
