//! Clipping in clip space: a primitive against the planes x, y and z
//! bounds and the user clip distances, as Vulkan's "Primitive Clipping"
//! describes. A clipped vertex's outputs (every VPC location, position and
//! clip distances included) are the linear interpolation of the two it
//! lies between, which makes the varyings perspective-correct once
//! rasterization divides by w again.
//!
//! Where the hardware really clips x and y (its guard band,
//! GRAS_CL_GUARDBAND_CLIP_ADJ) changes no covered pixel, only how
//! rounding behaves far outside the viewport; the model clips x and y at
//! the edge of the range its fixed-point rasterizer covers instead.

/// A clip plane: `dot(plane, (x, y, z, w))` for the position, or a clip
/// distance at a VPC location, must be >= 0 to be inside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Plane {
    Position([f32; 4]),
    Distance(usize),
}

/// The vertices of a primitive being clipped: `stride` dwords each, the
/// position at `position`.
pub(crate) struct Polygon {
    pub stride: usize,
    pub position: usize,
    pub data: Vec<u32>,
    pub len: usize,
}

impl Polygon {
    pub fn new(stride: usize, position: usize) -> Polygon {
        Polygon {
            stride,
            position,
            data: Vec::new(),
            len: 0,
        }
    }

    pub fn clear(&mut self) {
        self.data.clear();
        self.len = 0;
    }

    pub fn push(&mut self, vertex: &[u32]) {
        self.data.extend_from_slice(&vertex[..self.stride]);
        self.len += 1;
    }

    pub fn vertex(&self, i: usize) -> &[u32] {
        &self.data[i * self.stride..(i + 1) * self.stride]
    }

    fn distance(&self, i: usize, plane: Plane) -> f32 {
        let v = self.vertex(i);
        match plane {
            Plane::Position(p) => (0..4)
                .map(|c| p[c] * f32::from_bits(v[self.position + c]))
                .sum(),
            Plane::Distance(loc) => f32::from_bits(v[loc]),
        }
    }

    /// Whether every vertex is inside `plane`, and whether every vertex is
    /// outside it.
    pub fn classify(&self, plane: Plane) -> (bool, bool) {
        let mut all_in = true;
        let mut all_out = true;
        for i in 0..self.len {
            let d = self.distance(i, plane);
            all_in &= d >= 0.0;
            all_out &= d < 0.0;
        }
        (all_in, all_out)
    }

    /// Clips a closed polygon (a line when `closed` is false) against
    /// `plane` into `out`.
    pub fn clip(&self, plane: Plane, closed: bool, out: &mut Polygon) {
        out.clear();
        let n = self.len;
        let edges = if closed { n } else { n.saturating_sub(1) };
        if !closed && n == 2 {
            let (da, db) = (self.distance(0, plane), self.distance(1, plane));
            match (da >= 0.0, db >= 0.0) {
                (true, true) => {
                    out.push(self.vertex(0));
                    out.push(self.vertex(1));
                }
                (true, false) => {
                    out.push(self.vertex(0));
                    self.push_between(0, 1, da / (da - db), out);
                }
                (false, true) => {
                    self.push_between(0, 1, da / (da - db), out);
                    out.push(self.vertex(1));
                }
                (false, false) => {}
            }
            return;
        }
        for e in 0..edges {
            let (a, b) = (e, (e + 1) % n);
            let (da, db) = (self.distance(a, plane), self.distance(b, plane));
            if da >= 0.0 {
                out.push(self.vertex(a));
            }
            if (da >= 0.0) != (db >= 0.0) {
                self.push_between(a, b, da / (da - db), out);
            }
        }
    }

    /// Pushes the point `t` of the way from vertex `a` to vertex `b`.
    fn push_between(&self, a: usize, b: usize, t: f32, out: &mut Polygon) {
        let (va, vb) = (self.vertex(a), self.vertex(b));
        for c in 0..self.stride {
            let x = f32::from_bits(va[c]);
            let y = f32::from_bits(vb[c]);
            out.data.push((x + (y - x) * t).to_bits());
        }
        out.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(pos: [f32; 4], extra: f32) -> Vec<u32> {
        let mut v: Vec<u32> = pos.iter().map(|x| x.to_bits()).collect();
        v.push(extra.to_bits());
        v
    }

    #[test]
    fn a_triangle_crossing_the_near_plane_becomes_a_quad() {
        // z >= 0: vertex 0 is behind it.
        let mut p = Polygon::new(5, 0);
        p.push(&vertex([0.0, 0.0, -1.0, 1.0], 0.0));
        p.push(&vertex([1.0, 0.0, 1.0, 1.0], 1.0));
        p.push(&vertex([0.0, 1.0, 1.0, 1.0], 2.0));
        let near = Plane::Position([0.0, 0.0, 1.0, 0.0]);
        assert_eq!(p.classify(near), (false, false));
        let mut out = Polygon::new(5, 0);
        p.clip(near, true, &mut out);
        assert_eq!(out.len, 4);
        // The new vertices are halfway along the edges from vertex 0, with
        // the extra output interpolated too.
        let v: Vec<Vec<f32>> = (0..4)
            .map(|i| out.vertex(i).iter().map(|&b| f32::from_bits(b)).collect())
            .collect();
        assert_eq!(v[0], [0.5, 0.0, 0.0, 1.0, 0.5]);
        assert_eq!(v[1], [1.0, 0.0, 1.0, 1.0, 1.0]);
        assert_eq!(v[2], [0.0, 1.0, 1.0, 1.0, 2.0]);
        assert_eq!(v[3], [0.0, 0.5, 0.0, 1.0, 1.0]);
    }

    #[test]
    fn a_line_is_cut_at_a_clip_distance() {
        let mut p = Polygon::new(5, 0);
        p.push(&vertex([0.0, 0.0, 0.0, 1.0], -1.0));
        p.push(&vertex([4.0, 0.0, 0.0, 1.0], 3.0));
        let mut out = Polygon::new(5, 0);
        p.clip(Plane::Distance(4), false, &mut out);
        assert_eq!(out.len, 2);
        assert_eq!(f32::from_bits(out.vertex(0)[0]), 1.0);
        assert_eq!(f32::from_bits(out.vertex(0)[4]), 0.0);
        assert_eq!(f32::from_bits(out.vertex(1)[0]), 4.0);
    }
}
