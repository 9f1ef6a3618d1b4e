//! Primitive setup: the planes over window coordinates that give a
//! fragment's barycentric coordinates, depth and 1/w, from the primitive's
//! vertices after the viewport transform.
//!
//! Barycentrics are the hardware's `ij` pair (HLSQ_CONTROL_3/4_REG): the
//! weights of vertices 1 and 2, vertex 0 having what is left, linear in
//! window space or perspective-correct (each weight divided by its
//! vertex's w, then normalized), which is what `bary.f` combines the
//! vertices' values with. For a line, i is the position along the segment
//! from vertex 0 to vertex 1 (Vulkan's "Basic Line Segment Rasterization":
//! t = ((p - a) . (b - a)) / |b - a|^2) and j is 0; a point has one vertex.
//! Depth is linear in window space (Vulkan: z is interpolated linearly),
//! with the depth bias of a polygon added once per primitive.

use super::super::pc::Shape;

/// A vertex after clipping, perspective division and the viewport
/// transform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct WindowVertex {
    pub x: f64,
    pub y: f64,
    pub z: f64,
    /// 1 / w_clip.
    pub rhw: f64,
}

/// A plane `a x + b y + c` over window coordinates.
pub(crate) type PlaneEq = [f64; 3];

fn eval(p: &PlaneEq, x: f64, y: f64) -> f64 {
    p[0] * x + p[1] * y + p[2]
}

/// A point sprite: its centre and size, for gl_PointCoord.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PointSprite {
    pub x: f64,
    pub y: f64,
    pub size: f64,
}

/// What a fragment's inputs are computed from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PrimitiveSetup {
    pub shape: Shape,
    pub front_facing: bool,
    /// gl_PrimitiveID.
    pub id: u32,
    /// The render target layer and the viewport the primitive goes to.
    pub layer: u32,
    pub viewport: usize,
    /// Vertex 1's and vertex 2's linear weights.
    pub i: PlaneEq,
    pub j: PlaneEq,
    /// 1/w of each vertex.
    pub rhw: [f64; 3],
    /// Window depth, bias included.
    pub z: PlaneEq,
    pub sprite: Option<PointSprite>,
    /// The viewport's depth clamp (GRAS_CL_Z_CLAMP), when enabled.
    pub z_clamp: Option<(f64, f64)>,
}

impl PrimitiveSetup {
    /// A primitive with constant inputs (a point or a rect): the values of
    /// vertex 0 everywhere.
    pub fn flat(shape: Shape, v: &WindowVertex) -> PrimitiveSetup {
        PrimitiveSetup {
            shape,
            front_facing: true,
            id: 0,
            layer: 0,
            viewport: 0,
            i: [0.0; 3],
            j: [0.0; 3],
            rhw: [v.rhw; 3],
            z: [0.0, 0.0, v.z],
            sprite: None,
            z_clamp: None,
        }
    }

    /// A triangle's planes. `None` for one of zero area.
    pub fn triangle(v: &[WindowVertex; 3]) -> Option<PrimitiveSetup> {
        let (x0, y0) = (v[0].x, v[0].y);
        let area = (v[1].x - x0) * (v[2].y - y0) - (v[2].x - x0) * (v[1].y - y0);
        if area == 0.0 {
            return None;
        }
        let plane = |a: f64, b: f64| [a, b, -(a * x0 + b * y0)];
        let i = plane((v[2].y - y0) / area, -(v[2].x - x0) / area);
        let j = plane(-(v[1].y - y0) / area, (v[1].x - x0) / area);
        let dz1 = v[1].z - v[0].z;
        let dz2 = v[2].z - v[0].z;
        let z = [
            i[0] * dz1 + j[0] * dz2,
            i[1] * dz1 + j[1] * dz2,
            i[2] * dz1 + j[2] * dz2 + v[0].z,
        ];
        Some(PrimitiveSetup {
            shape: Shape::Triangle,
            front_facing: true,
            id: 0,
            layer: 0,
            viewport: 0,
            i,
            j,
            rhw: [v[0].rhw, v[1].rhw, v[2].rhw],
            z,
            sprite: None,
            z_clamp: None,
        })
    }

    /// A line segment's planes: the position along it, and depth along it.
    pub fn line(a: &WindowVertex, b: &WindowVertex) -> PrimitiveSetup {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len2 = dx * dx + dy * dy;
        let t = if len2 == 0.0 {
            [0.0; 3]
        } else {
            [dx / len2, dy / len2, -(a.x * dx + a.y * dy) / len2]
        };
        let dz = b.z - a.z;
        PrimitiveSetup {
            shape: Shape::Line,
            front_facing: true,
            id: 0,
            layer: 0,
            viewport: 0,
            i: t,
            j: [0.0; 3],
            rhw: [a.rhw, b.rhw, b.rhw],
            z: [t[0] * dz, t[1] * dz, t[2] * dz + a.z],
            sprite: None,
            z_clamp: None,
        }
    }

    /// The linear weights of vertices 1 and 2 at `(x, y)`.
    pub fn linear(&self, x: f64, y: f64) -> (f64, f64) {
        (eval(&self.i, x, y), eval(&self.j, x, y))
    }

    /// The perspective-correct weights of vertices 1 and 2 at `(x, y)`.
    pub fn perspective(&self, x: f64, y: f64) -> (f64, f64) {
        let (i, j) = self.linear(x, y);
        let q0 = (1.0 - i - j) * self.rhw[0];
        let q1 = i * self.rhw[1];
        let q2 = j * self.rhw[2];
        let s = q0 + q1 + q2;
        if s == 0.0 {
            (i, j)
        } else {
            (q1 / s, q2 / s)
        }
    }

    /// 1/w at `(x, y)`, linear in window space (gl_FragCoord.w).
    pub fn rhw_at(&self, x: f64, y: f64) -> f64 {
        let (i, j) = self.linear(x, y);
        (1.0 - i - j) * self.rhw[0] + i * self.rhw[1] + j * self.rhw[2]
    }

    /// Window depth at `(x, y)`, clamped to the viewport's depth range
    /// when depth clamping is on.
    pub fn depth(&self, x: f64, y: f64) -> f64 {
        let z = eval(&self.z, x, y);
        match self.z_clamp {
            Some((lo, hi)) => z.clamp(lo, hi),
            None => z,
        }
    }

    /// The largest depth slope (max(|dz/dx|, |dz/dy|), which Vulkan allows
    /// for the depth bias's m).
    pub fn max_depth_slope(&self) -> f64 {
        self.z[0].abs().max(self.z[1].abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64, w: f64) -> WindowVertex {
        WindowVertex {
            x,
            y,
            z,
            rhw: 1.0 / w,
        }
    }

    #[test]
    fn weights_are_one_at_their_vertex_and_perspective_divides_by_w() {
        let t = [
            v(0.0, 0.0, 0.0, 1.0),
            v(8.0, 0.0, 0.5, 1.0),
            v(0.0, 8.0, 1.0, 4.0),
        ];
        let s = PrimitiveSetup::triangle(&t).unwrap();
        assert_eq!(s.linear(8.0, 0.0), (1.0, 0.0));
        assert_eq!(s.linear(0.0, 8.0), (0.0, 1.0));
        assert_eq!(s.linear(2.0, 4.0), (0.25, 0.5));
        assert_eq!(s.depth(2.0, 4.0), 0.25 * 0.5 + 0.5);
        // At (0, 4) the linear weights are (0, 0.5); vertex 2's w of 4
        // shrinks its perspective weight to 0.5/4 / (0.5 + 0.5/4) = 0.2.
        assert_eq!(s.perspective(0.0, 4.0), (0.0, 0.2));
        assert_eq!(s.rhw_at(0.0, 4.0), 0.5 + 0.5 * 0.25);
        assert!(PrimitiveSetup::triangle(&[t[0], t[1], t[1]]).is_none());
    }

    #[test]
    fn a_line_weighs_by_the_position_along_it() {
        let s = PrimitiveSetup::line(&v(1.0, 1.0, 0.0, 1.0), &v(5.0, 1.0, 1.0, 1.0));
        assert_eq!(s.linear(2.0, 7.0), (0.25, 0.0));
        assert_eq!(s.depth(4.0, 1.0), 0.75);
    }
}
