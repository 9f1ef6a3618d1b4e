//! Which samples a primitive covers, in 2x2-pixel quads.
//!
//! Every primitive the rasterizer fills is a convex polygon in window
//! coordinates: a triangle, a line's rectangle (Vulkan's "rectangular"
//! lines: the segment widened by the line width), a point's square, or a
//! RECTLIST rectangle. Vertices snap to the hardware's sub-pixel grid of
//! 1/256 pixel (Turnip reports subPixelPrecisionBits = 8) and coverage is
//! decided exactly on it with edge functions: a sample is inside when it
//! is on the inner side of every edge, and a sample exactly on an edge
//! counts only for a top or left edge (Vulkan's "Polygon Rasterization"
//! tie-break, framebuffer y pointing down).
//!
//! Quads are emitted row by row from the top, left to right, pixels within
//! a quad in the order top-left, top-right, bottom-left, bottom-right (the
//! fiber order `quad_shuffle` and the derivatives assume).

use super::samples::SamplePattern;

/// Fractional bits of the sub-pixel grid.
pub(crate) const SUBPIXEL_BITS: u32 = 8;
const ONE: f64 = (1 << SUBPIXEL_BITS) as f64;

/// Four pixels, 2x2, and the samples of each a primitive covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Quad {
    /// The top-left pixel; both even.
    pub x: i32,
    pub y: i32,
    /// Covered samples of the top-left, top-right, bottom-left and
    /// bottom-right pixel.
    pub coverage: [u32; 4],
}

impl Quad {
    pub fn pixel(&self, i: usize) -> (i32, i32) {
        (self.x + (i & 1) as i32, self.y + (i >> 1) as i32)
    }

    pub fn is_empty(&self) -> bool {
        self.coverage == [0; 4]
    }
}

/// The pixels a draw may touch: `x0..x1` by `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Bounds {
    pub fn intersect(self, o: Bounds) -> Bounds {
        Bounds {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }
}

/// `a x + b y + c` over sub-pixel coordinates, and whether a sample exactly
/// on the edge is inside.
#[derive(Clone, Copy, Debug)]
struct Edge {
    a: i64,
    b: i64,
    c: i64,
    top_left: bool,
}

impl Edge {
    #[inline]
    fn inside(&self, x: i64, y: i64) -> bool {
        let e = self.a * x + self.b * y + self.c;
        e > 0 || (e == 0 && self.top_left)
    }
}

/// Snaps a window coordinate to the sub-pixel grid, rounding to nearest.
pub(crate) fn snap(v: f64) -> i64 {
    (v * ONE).round() as i64
}

/// The samples of a convex polygon (vertices in either winding order)
/// inside `bounds`, a quad at a time. Degenerate polygons cover nothing.
pub(crate) fn rasterize_convex(
    vertices: &[(f64, f64)],
    bounds: Bounds,
    samples: &SamplePattern,
    mut emit: impl FnMut(Quad),
) {
    let n = vertices.len();
    let mut fixed = [(0i64, 0i64); 4];
    for (f, &(x, y)) in fixed.iter_mut().zip(vertices) {
        *f = (snap(x), snap(y));
    }
    let fixed = &fixed[..n];
    // Twice the signed area, to orient the edges with the inside positive.
    let mut area = 0i64;
    for k in 0..n {
        let (a, b) = (fixed[k], fixed[(k + 1) % n]);
        area += a.0 * b.1 - b.0 * a.1;
    }
    if area == 0 {
        return;
    }
    let mut edges = [Edge {
        a: 0,
        b: 0,
        c: 0,
        top_left: false,
    }; 4];
    for (k, edge) in edges.iter_mut().enumerate().take(n) {
        let (mut a, mut b) = (fixed[k], fixed[(k + 1) % n]);
        if area < 0 {
            std::mem::swap(&mut a, &mut b);
        }
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        // E(p) = dx (p.y - a.y) - dy (p.x - a.x): positive inside for this
        // orientation (framebuffer y down). A top edge runs in +x with the
        // inside below it; a left edge runs in -y.
        *edge = Edge {
            a: -dy,
            b: dx,
            c: dy * a.0 - dx * a.1,
            top_left: dy < 0 || (dy == 0 && dx > 0),
        };
    }
    let edges = &edges[..n];
    let min_x = fixed.iter().map(|p| p.0).min().unwrap();
    let max_x = fixed.iter().map(|p| p.0).max().unwrap();
    let min_y = fixed.iter().map(|p| p.1).min().unwrap();
    let max_y = fixed.iter().map(|p| p.1).max().unwrap();
    let to_pixel = |v: i64| (v >> SUBPIXEL_BITS).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    let area_box = Bounds {
        x0: to_pixel(min_x),
        y0: to_pixel(min_y),
        x1: to_pixel(max_x).saturating_add(1),
        y1: to_pixel(max_y).saturating_add(1),
    };
    let b = bounds.intersect(area_box);
    if b.is_empty() {
        return;
    }
    let offsets: Vec<(i64, i64)> = samples.positions[..samples.count]
        .iter()
        .map(|&(x, y)| (snap(f64::from(x)), snap(f64::from(y))))
        .collect();
    let mut y = b.y0 & !1;
    while y < b.y1 {
        let mut x = b.x0 & !1;
        while x < b.x1 {
            let mut q = Quad {
                x,
                y,
                coverage: [0; 4],
            };
            for i in 0..4 {
                let (px, py) = q.pixel(i);
                let cov = &mut q.coverage[i];
                if px < b.x0 || px >= b.x1 || py < b.y0 || py >= b.y1 {
                    continue;
                }
                let (fx, fy) = (
                    i64::from(px) << SUBPIXEL_BITS,
                    i64::from(py) << SUBPIXEL_BITS,
                );
                for (s, &(ox, oy)) in offsets.iter().enumerate() {
                    let (sx, sy) = (fx + ox, fy + oy);
                    if edges.iter().all(|e| e.inside(sx, sy)) {
                        *cov |= 1 << s;
                    }
                }
            }
            if !q.is_empty() {
                emit(q);
            }
            x += 2;
        }
        y += 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covered(vertices: &[(f64, f64)], bounds: Bounds) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        rasterize_convex(vertices, bounds, &SamplePattern::standard(1), |q| {
            for i in 0..4 {
                if q.coverage[i] != 0 {
                    out.push(q.pixel(i));
                }
            }
        });
        out.sort_by_key(|&(x, y)| (y, x));
        out
    }

    const ALL: Bounds = Bounds {
        x0: 0,
        y0: 0,
        x1: 16,
        y1: 16,
    };

    #[test]
    fn the_top_left_rule_shares_an_edge_between_two_triangles() {
        // A 4x4 square as two triangles along its diagonal: every pixel
        // centre is covered exactly once, whichever winding each has.
        let a = covered(&[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0)], ALL);
        let b = covered(&[(0.0, 0.0), (0.0, 4.0), (4.0, 4.0)], ALL);
        assert_eq!(a.len() + b.len(), 16);
        for p in &a {
            assert!(!b.contains(p), "{p:?} covered twice");
        }
        // The centres on the diagonal ((0.5, 0.5)...) go to the triangle
        // whose inside is to the diagonal's right, for which it is a left
        // edge: the upper-right one (a).
        assert!(a.contains(&(0, 0)) && a.contains(&(3, 3)));
        // Pixel centres on a right or bottom edge are out: a square from
        // (0.5, 0.5) to (2.5, 2.5) covers 2x2 pixels, (0,0) to (1,1).
        let sq = covered(&[(0.5, 0.5), (2.5, 0.5), (2.5, 2.5), (0.5, 2.5)], ALL);
        assert_eq!(sq, [(0, 0), (1, 0), (0, 1), (1, 1)]);
    }

    #[test]
    fn bounds_clip_and_quads_are_aligned() {
        let mut quads = Vec::new();
        let b = Bounds {
            x0: 1,
            y0: 1,
            x1: 3,
            y1: 2,
        };
        rasterize_convex(
            &[(0.0, 0.0), (8.0, 0.0), (8.0, 8.0), (0.0, 8.0)],
            b,
            &SamplePattern::standard(1),
            |q| quads.push(q),
        );
        assert_eq!(
            quads,
            [
                Quad {
                    x: 0,
                    y: 0,
                    coverage: [0, 0, 0, 1]
                },
                Quad {
                    x: 2,
                    y: 0,
                    coverage: [0, 0, 1, 0]
                }
            ]
        );
    }

    #[test]
    fn four_samples_cover_part_of_a_pixel() {
        // The left half of pixel (0, 0): the standard 4-sample pattern has
        // samples at x = 0.375 and 0.125 there (samples 0 and 2).
        let mut cov = 0;
        rasterize_convex(
            &[(0.0, 0.0), (0.5, 0.0), (0.5, 1.0), (0.0, 1.0)],
            ALL,
            &SamplePattern::standard(4),
            |q| cov = q.coverage[0],
        );
        assert_eq!(cov, 0b0101);
    }
}
