//! Where a destination pixel of a 2D blit takes its value from.
//!
//! The source rectangle is stretched over the destination rectangle
//! (flipped as ROTATE says): destination pixel centre (x + 0.5, y + 0.5)
//! maps to source position src.x0 + (x - dst.x0 + 0.5) * src.width /
//! dst.width (likewise for y), so an unscaled copy reads pixel for pixel.
//! Nearest filtering takes the pixel that position falls in; FILTER blends
//! the four nearest pixel centres bilinearly (Vulkan's VK_FILTER_LINEAR,
//! as vkCmdBlitImage asks for). Positions outside the source surface
//! (SP_PS_2D_SRC_SIZE) clamp to its edge. A multisampled source is
//! averaged when SAMPLES_AVERAGE is set (a resolve), else sample 0 is read.

use crate::memory::AddressSpace;
use crate::surface::format::Texel;
use crate::surface::{Surface, SurfaceError};

use super::state::Rect;

/// A blit's source, as positioned over its destination.
pub(crate) struct Sampler<'a> {
    pub surface: &'a Surface,
    pub memory: &'a AddressSpace,
    pub src: Rect,
    pub dst: Rect,
    pub hflip: bool,
    pub vflip: bool,
    pub filter: bool,
    pub average: bool,
    /// The source's size, which positions clamp to.
    pub extent: (u32, u32),
}

impl Sampler<'_> {
    /// The source position destination pixel (x, y) maps to.
    fn position(&self, x: i64, y: i64) -> (f64, f64) {
        let map = |d: i64, d0: i64, dn: i64, s0: i64, sn: i64, flip: bool| {
            let mut u = (d - d0) as f64 + 0.5;
            if flip {
                u = dn as f64 - u;
            }
            s0 as f64 + u * sn as f64 / dn as f64
        };
        (
            map(
                x,
                self.dst.x0,
                self.dst.width(),
                self.src.x0,
                self.src.width(),
                self.hflip,
            ),
            map(
                y,
                self.dst.y0,
                self.dst.height(),
                self.src.y0,
                self.src.height(),
                self.vflip,
            ),
        )
    }

    fn clamp(&self, x: i64, y: i64) -> (u32, u32) {
        (
            x.clamp(0, i64::from(self.extent.0) - 1) as u32,
            y.clamp(0, i64::from(self.extent.1) - 1) as u32,
        )
    }

    /// The source pixel nearest filtering reads for destination (x, y).
    pub fn nearest(&self, x: i64, y: i64) -> (u32, u32) {
        let (sx, sy) = self.position(x, y);
        self.clamp(sx.floor() as i64, sy.floor() as i64)
    }

    /// Pixel (x, y) of the source: its samples averaged, or sample 0.
    fn pixel(&self, x: u32, y: u32) -> Result<Texel, SurfaceError> {
        let samples = self.surface.desc.samples;
        if !self.average || samples == 1 {
            return self.surface.read_texel(self.memory, x, y, 0);
        }
        let mut sum = [0f64; 4];
        for s in 0..samples {
            let Texel::Float(v) = self.surface.read_texel(self.memory, x, y, s)? else {
                return Err(SurfaceError::NotModelled(
                    "averaging the samples of an integer source: not public".into(),
                ));
            };
            for (acc, c) in sum.iter_mut().zip(v) {
                *acc += f64::from(c);
            }
        }
        Ok(Texel::Float(sum.map(|c| (c / f64::from(samples)) as f32)))
    }

    /// The value destination pixel (x, y) receives.
    pub fn sample(&self, x: i64, y: i64) -> Result<Texel, SurfaceError> {
        if !self.filter {
            let (sx, sy) = self.nearest(x, y);
            return self.pixel(sx, sy);
        }
        let (sx, sy) = self.position(x, y);
        let (fx, fy) = (sx - 0.5, sy - 0.5);
        let (x0, y0) = (fx.floor(), fy.floor());
        let (wx, wy) = (fx - x0, fy - y0);
        let mut sum = [0f64; 4];
        for (dy, weight_y) in [(0, 1.0 - wy), (1, wy)] {
            for (dx, weight_x) in [(0, 1.0 - wx), (1, wx)] {
                let weight = weight_x * weight_y;
                if weight == 0.0 {
                    continue;
                }
                let (px, py) = self.clamp(x0 as i64 + dx, y0 as i64 + dy);
                let Texel::Float(v) = self.pixel(px, py)? else {
                    return Err(SurfaceError::NotModelled(
                        "filtering an integer source: not public".into(),
                    ));
                };
                for (acc, c) in sum.iter_mut().zip(v) {
                    *acc += f64::from(c) * weight;
                }
            }
        }
        Ok(Texel::Float(sum.map(|c| c as f32)))
    }
}
