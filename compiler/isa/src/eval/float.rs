//! Half-precision floats as bits, and rounding to them.
//!
//! The conversions follow IEEE 754 binary16 with the rounding mode the
//! instruction asks for ([`Round`]): ties-to-even, toward zero, or toward an
//! infinity. A NaN keeps its sign and the high bits of its payload and comes
//! out quiet.

use crate::types::Round;

/// The f32 value of f16 bits (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let mant = (h & 0x3ff) as f32;
    match exp {
        0 => sign * mant * (2.0f32).powi(-24),
        0x1f if h & 0x3ff == 0 => sign * f32::INFINITY,
        0x1f => {
            f32::from_bits(((h as u32 & 0x8000) << 16) | 0x7fc0_0000 | ((h as u32 & 0x1ff) << 13))
        }
        _ => sign * (1.0 + mant / 1024.0) * (2.0f32).powi(exp as i32 - 15),
    }
}

/// Rounds a magnitude `m >= 0` to an integer in `mode`, for a value of sign
/// `negative`.
fn round_magnitude(m: f64, negative: bool, mode: Round) -> f64 {
    match mode {
        Round::Zero => m.floor(),
        Round::Even => {
            let f = m.floor();
            let frac = m - f;
            if frac > 0.5 || (frac == 0.5 && f % 2.0 != 0.0) {
                f + 1.0
            } else {
                f
            }
        }
        Round::PosInf => {
            if negative {
                m.floor()
            } else {
                m.ceil()
            }
        }
        Round::NegInf => {
            if negative {
                m.ceil()
            } else {
                m.floor()
            }
        }
    }
}

/// f16 bits of `x` rounded in `mode`. A magnitude past the largest finite
/// half (65504) becomes infinity when rounding away from zero in its
/// direction (or to nearest), and 65504 otherwise.
pub fn f64_to_f16(x: f64, mode: Round) -> u16 {
    let negative = x.is_sign_negative();
    let sign: u16 = if negative { 0x8000 } else { 0 };
    if x.is_nan() {
        let bits = x.to_bits();
        return sign | 0x7e00 | ((bits >> 42) & 0x1ff) as u16;
    }
    if x.is_infinite() {
        return sign | 0x7c00;
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    let exp = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let ulp_exp = if exp < -14 { -24 } else { exp - 10 };
    let m = round_magnitude(a * 2f64.powi(-ulp_exp), negative, mode);
    let value = m * 2f64.powi(ulp_exp);
    if value > 65504.0 {
        let to_inf = match mode {
            Round::Even => true,
            Round::Zero => false,
            Round::PosInf => !negative,
            Round::NegInf => negative,
        };
        return sign | if to_inf { 0x7c00 } else { 0x7bff };
    }
    if value == 0.0 {
        return sign;
    }
    if value < 2f64.powi(-14) {
        return sign | (value * 2f64.powi(24)) as u16;
    }
    let e = ((value.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mant = (value * 2f64.powi(10 - e)) as u32 - 1024;
    sign | (((e + 15) as u16) << 10) | mant as u16
}

/// f16 bits of an f32 rounded in `mode`.
pub fn f32_to_f16(x: f32, mode: Round) -> u16 {
    if x.is_nan() {
        let bits = x.to_bits();
        return ((bits >> 16) & 0x8000) as u16 | 0x7e00 | ((bits >> 13) & 0x1ff) as u16;
    }
    f64_to_f16(x as f64, mode)
}

/// f32 of an f64 rounded in `mode` (NaNs keep the high payload bits).
pub fn f64_to_f32(x: f64, mode: Round) -> f32 {
    if x.is_nan() || x.is_infinite() {
        return x as f32;
    }
    let nearest = x as f32; // ties to even
    if mode == Round::Even || nearest as f64 == x {
        return nearest;
    }
    // The neighbours of `nearest` toward zero and away from it.
    let (below, above) = if (nearest as f64) < x {
        (nearest, next_up(nearest))
    } else {
        (next_down(nearest), nearest)
    };
    match mode {
        Round::Zero => {
            if x > 0.0 {
                below
            } else {
                above
            }
        }
        Round::PosInf => above,
        Round::NegInf => below,
        Round::Even => nearest,
    }
}

fn next_up(x: f32) -> f32 {
    if x.is_infinite() && x > 0.0 {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let bits = x.to_bits();
    f32::from_bits(if x > 0.0 { bits + 1 } else { bits - 1 })
}

fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_round_trips_and_rounds() {
        for h in 0..=0xffffu16 {
            let f = f16_to_f32(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16(f, Round::Even), h, "{h:#x}");
            assert_eq!(f32_to_f16(f, Round::Zero), h, "{h:#x}");
        }
        // 1 + 2^-11 is halfway between 1.0 and the next half: ties go to even.
        let half_way = 1.0 + 2f32.powi(-11);
        assert_eq!(f32_to_f16(half_way, Round::Even), 0x3c00);
        assert_eq!(f32_to_f16(half_way, Round::PosInf), 0x3c01);
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11), Round::Even), 0x3c02);
        assert_eq!(f32_to_f16(70000.0, Round::Even), 0x7c00);
        assert_eq!(f32_to_f16(70000.0, Round::Zero), 0x7bff);
        assert_eq!(f32_to_f16(-70000.0, Round::PosInf), 0xfbff);
        assert_eq!(f32_to_f16(2f32.powi(-25), Round::Even), 0);
        assert_eq!(f32_to_f16(2f32.powi(-25) * 1.5, Round::Even), 1);
        assert_eq!(f32_to_f16(-0.0, Round::Even), 0x8000);
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
    }

    #[test]
    fn f32_rounding_modes() {
        let x = 1.0f64 + 2f64.powi(-30);
        assert_eq!(f64_to_f32(x, Round::Even), 1.0);
        assert_eq!(f64_to_f32(x, Round::Zero), 1.0);
        assert_eq!(f64_to_f32(x, Round::PosInf), next_up(1.0));
        assert_eq!(f64_to_f32(-x, Round::NegInf), -next_up(1.0));
        assert_eq!(f64_to_f32(-x, Round::Zero), -1.0);
    }
}
