//! Texel coordinates and filter footprints along one axis (Vulkan's
//! "Texel Coordinate Operations" and "Wrapping Operation"):
//!
//! - nearest: texel ⌊u⌋ (plus the instruction's offset);
//! - linear: texels ⌊u - ½⌋ and the next, the second weighted by the
//!   fraction of u - ½, which the hardware keeps to 8 bits (Turnip reports
//!   subTexelPrecisionBits = 8; the model truncates);
//! - then each texel index wraps: REPEAT modulo the size, MIRROR_REPEAT
//!   reflected every other repeat, CLAMP_TO_EDGE clamped, MIRROR_CLAMP
//!   (mirror clamp to edge) reflected once about 0 then clamped, and
//!   CLAMP_TO_BORDER outside the image reads the border colour.

use parsnip_registers::enums::A6xxTexClamp;

use super::sampler::Filter;

/// Where one texel index lands after wrapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wrapped {
    Texel(u32),
    /// Outside the image with CLAMP_TO_BORDER.
    Border,
}

/// Texel index `i` of an axis of `n` texels under `mode`.
pub(crate) fn wrap(mode: A6xxTexClamp, i: i64, n: u32) -> Wrapped {
    let n = i64::from(n.max(1));
    let index = match mode {
        A6xxTexClamp::A6XX_TEX_REPEAT => i.rem_euclid(n),
        A6xxTexClamp::A6XX_TEX_MIRROR_REPEAT => {
            let t = i.rem_euclid(2 * n);
            if t < n {
                t
            } else {
                2 * n - 1 - t
            }
        }
        A6xxTexClamp::A6XX_TEX_MIRROR_CLAMP => {
            let m = if i >= 0 { i } else { -(1 + i) };
            m.min(n - 1)
        }
        A6xxTexClamp::A6XX_TEX_CLAMP_TO_BORDER if i < 0 || i >= n => return Wrapped::Border,
        _ => i.clamp(0, n - 1),
    };
    Wrapped::Texel(index as u32)
}

/// The texels along one axis a filter reads at texel-space coordinate `u`
/// (before wrapping), and the weight of the second; nearest reads one.
pub(crate) fn footprint(filter: Filter, u: f32, offset: i32) -> ([i64; 2], f32) {
    let floor = |x: f32| {
        if x.is_nan() {
            0
        } else {
            x.floor() as i64
        }
    };
    match filter {
        Filter::Nearest => {
            let i = floor(u) + i64::from(offset);
            ([i, i], 0.0)
        }
        Filter::Linear => {
            let v = u - 0.5;
            let i = floor(v);
            let frac = if v.is_finite() { v - i as f32 } else { 0.0 };
            let weight = (frac * 256.0).floor() / 256.0;
            let i = i + i64::from(offset);
            ([i, i + 1], weight)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_modes_fold_indices_as_vulkan_says() {
        use A6xxTexClamp as C;
        let all = |mode, from: i64, to: i64| -> Vec<Wrapped> {
            (from..to).map(|i| wrap(mode, i, 4)).collect()
        };
        let t = |v: &[u32]| v.iter().map(|&i| Wrapped::Texel(i)).collect::<Vec<_>>();
        assert_eq!(all(C::A6XX_TEX_REPEAT, -2, 6), t(&[2, 3, 0, 1, 2, 3, 0, 1]));
        assert_eq!(
            all(C::A6XX_TEX_MIRROR_REPEAT, -2, 10),
            t(&[1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0, 1])
        );
        assert_eq!(
            all(C::A6XX_TEX_CLAMP_TO_EDGE, -2, 6),
            t(&[0, 0, 0, 1, 2, 3, 3, 3])
        );
        assert_eq!(
            all(C::A6XX_TEX_MIRROR_CLAMP, -6, 6),
            t(&[3, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3])
        );
        assert_eq!(wrap(C::A6XX_TEX_CLAMP_TO_BORDER, -1, 4), Wrapped::Border);
        assert_eq!(wrap(C::A6XX_TEX_CLAMP_TO_BORDER, 3, 4), Wrapped::Texel(3));
        assert_eq!(wrap(C::A6XX_TEX_CLAMP_TO_BORDER, 4, 4), Wrapped::Border);
    }

    #[test]
    fn footprints_centre_on_texel_centres() {
        // u = 2.5 is texel 2's centre: nearest reads it, linear reads 2
        // and 3 with all the weight on 2.
        assert_eq!(footprint(Filter::Nearest, 2.5, 0), ([2, 2], 0.0));
        assert_eq!(footprint(Filter::Linear, 2.5, 0), ([2, 3], 0.0));
        // A quarter of the way from texel 0's centre to texel 1's.
        assert_eq!(footprint(Filter::Linear, 0.75, 0), ([0, 1], 0.25));
        // Left of texel 0's centre: texels -1 and 0.
        assert_eq!(footprint(Filter::Linear, 0.25, 0), ([-1, 0], 0.75));
        // The weight keeps 8 bits: 1/3 -> 85/256.
        assert_eq!(
            footprint(Filter::Linear, 0.5 + 1.0 / 3.0, 0).1,
            85.0 / 256.0
        );
        // Offsets move the footprint.
        assert_eq!(footprint(Filter::Nearest, 2.5, -3), ([-1, -1], 0.0));
    }
}
