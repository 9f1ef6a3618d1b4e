//! Cube map face selection (Vulkan's "Cube Map Face Selection and
//! Transformations"): the coordinate's component of largest magnitude
//! picks the face (ties go to z, then y), and the other two, divided by
//! it, give the face's (s, t). Faces are layers +X, -X, +Y, -Y, +Z, -Z.

/// The face `r` points at, and (s, t) on it in [0, 1].
pub(crate) fn face(r: [f32; 3]) -> (u32, [f32; 2]) {
    let (face, sc, tc, ma) = project(r);
    let m = ma.abs();
    (face, [0.5 * (sc / m + 1.0), 0.5 * (tc / m + 1.0)])
}

/// The face and its (sc, tc, ma) for `r`.
fn project(r: [f32; 3]) -> (u32, f32, f32, f32) {
    let [x, y, z] = r;
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if az >= ax && az >= ay {
        if z >= 0.0 {
            (4, x, -y, z)
        } else {
            (5, -x, -y, z)
        }
    } else if ay >= ax {
        if y >= 0.0 {
            (2, x, z, y)
        } else {
            (3, x, -z, y)
        }
    } else if x >= 0.0 {
        (0, -z, -y, x)
    } else {
        (1, z, -y, x)
    }
}

/// The derivative of the face (s, t) of `r` (on face `face`) along a
/// direction in which `r` changes by `dr`: the chain rule through
/// s = (sc / |ma| + 1) / 2.
pub(crate) fn face_derivative(r: [f32; 3], dr: [f32; 3], face: u32) -> [f32; 2] {
    let (_, sc, tc, ma) = project_on(r, face);
    let (_, dsc, dtc, dma) = project_on(dr, face);
    let m = ma.abs();
    let dm = dma * ma.signum();
    [
        0.5 * (dsc * m - sc * dm) / (m * m),
        0.5 * (dtc * m - tc * dm) / (m * m),
    ]
}

/// (sc, tc, ma) of `r` on a given face (linear in `r`).
fn project_on(r: [f32; 3], face: u32) -> (u32, f32, f32, f32) {
    let [x, y, z] = r;
    match face {
        0 => (0, -z, -y, x),
        1 => (1, z, -y, x),
        2 => (2, x, z, y),
        3 => (3, x, -z, y),
        4 => (4, x, -y, z),
        _ => (5, -x, -y, z),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_axis_picks_its_face_with_vulkans_orientation() {
        // The centre of each face, and a point towards a corner.
        assert_eq!(face([1.0, 0.0, 0.0]), (0, [0.5, 0.5]));
        assert_eq!(face([-1.0, 0.0, 0.0]), (1, [0.5, 0.5]));
        assert_eq!(face([0.0, 2.0, 0.0]), (2, [0.5, 0.5]));
        assert_eq!(face([0.0, -1.0, 0.0]), (3, [0.5, 0.5]));
        assert_eq!(face([0.0, 0.0, 1.0]), (4, [0.5, 0.5]));
        assert_eq!(face([0.0, 0.0, -1.0]), (5, [0.5, 0.5]));
        // +X: sc = -rz, tc = -ry.
        assert_eq!(face([1.0, 0.5, 0.5]), (0, [0.25, 0.25]));
        // -Z: sc = -rx, tc = -ry.
        assert_eq!(face([0.5, -0.5, -1.0]), (5, [0.25, 0.75]));
        // +Y: sc = rx, tc = rz.
        assert_eq!(face([0.5, 1.0, -0.5]), (2, [0.75, 0.25]));
        // Ties go to z.
        assert_eq!(face([1.0, 1.0, 1.0]).0, 4);
    }

    #[test]
    fn derivatives_follow_the_projection() {
        // On +Z at (0, 0, 1), moving x by 0.1 moves s by 0.05.
        assert_eq!(
            face_derivative([0.0, 0.0, 1.0], [0.1, 0.0, 0.0], 4),
            [0.05, 0.0]
        );
        // Moving towards the face (z grows) shrinks an off-centre s.
        let d = face_derivative([0.5, 0.0, 1.0], [0.0, 0.0, 1.0], 4);
        assert_eq!(d, [-0.25, 0.0]);
    }
}
