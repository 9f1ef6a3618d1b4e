//! Primitive assembly: the primitives a primitive type cuts an index stream
//! into, with their vertices in the order Vulkan's "Primitive Topologies"
//! gives them, and which vertex provokes (decides flat-shaded values).
//!
//! A restart ends the strip, fan or loop being built and drops a partial
//! primitive of a list. Without a geometry shader the adjacency vertices
//! of the _ADJ types are ignored (Vulkan: "If a geometry shader is not
//! active, the adjacent vertices are ignored"). DI_PT_RECTLIST, the type
//! Turnip's 3D blits and clears draw (tu_clear_blit.cc's r3d_run: two
//! vertices per draw), is an axis-aligned rectangle between the positions
//! of two vertices. Patches need tessellation, which the model does not
//! run.

use parsnip_registers::enums::PcDiPrimtype as P;

use super::index::Index;
use crate::draw_context::DrawError;
use crate::report::Unit;

/// What the rasterizer makes of a primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Point,
    Line,
    Triangle,
    Rect,
}

impl Shape {
    pub fn vertices(self) -> usize {
        match self {
            Shape::Point => 1,
            Shape::Line | Shape::Rect => 2,
            Shape::Triangle => 3,
        }
    }
}

/// One primitive: its vertices as positions in the instance's index
/// stream, in order, and which of them provokes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Primitive {
    pub vertices: [u32; 3],
    pub provoking: u8,
    /// gl_PrimitiveID: primitives assembled before this one in the
    /// instance.
    pub id: u32,
}

/// The shape primitives of `ty` have.
pub(crate) fn shape(ty: P) -> Result<Shape, DrawError> {
    Ok(match ty {
        P::DI_PT_POINTLIST | P::DI_PT_POINTLIST_PSIZE => Shape::Point,
        P::DI_PT_LINELIST
        | P::DI_PT_LINESTRIP
        | P::DI_PT_LINELOOP
        | P::DI_PT_LINE_ADJ
        | P::DI_PT_LINESTRIP_ADJ => Shape::Line,
        P::DI_PT_TRILIST
        | P::DI_PT_TRISTRIP
        | P::DI_PT_TRIFAN
        | P::DI_PT_TRI_ADJ
        | P::DI_PT_TRISTRIP_ADJ => Shape::Triangle,
        P::DI_PT_RECTLIST => Shape::Rect,
        t if (P::DI_PT_PATCHES0.0..=P::DI_PT_PATCHES31.0).contains(&t.0) => {
            return Err(DrawError::not_modelled(
                Unit::Pc,
                format!(
                    "a draw of patches of {} control points needs tessellation, which the model \
                     does not run",
                    t.0 - P::DI_PT_PATCHES0.0
                ),
            ))
        }
        t => {
            return Err(DrawError::bad_state(
                Unit::Pc,
                format!("primitive type {:#x} is not one the hardware has", t.0),
            ))
        }
    })
}

/// The primitives `ty` makes of `indices`, appended to `out`.
pub(crate) fn assemble(
    ty: P,
    indices: &[Index],
    provoking_last: bool,
    out: &mut Vec<Primitive>,
) -> Result<(), DrawError> {
    let mut id = 0;
    let mut run: Vec<u32> = Vec::new();
    let flush = |run: &[u32], out: &mut Vec<Primitive>, id: &mut u32| {
        let before = out.len();
        assemble_run(ty, run, provoking_last, *id, out);
        *id += (out.len() - before) as u32;
    };
    shape(ty)?;
    for (i, index) in indices.iter().enumerate() {
        match index {
            Index::Vertex(_) => run.push(i as u32),
            Index::Restart => {
                flush(&run, out, &mut id);
                run.clear();
            }
        }
    }
    flush(&run, out, &mut id);
    Ok(())
}

/// Primitives of one run of indices between restarts; `v` holds their
/// positions in the index stream.
fn assemble_run(ty: P, v: &[u32], last: bool, first_id: u32, out: &mut Vec<Primitive>) {
    let n = v.len();
    let mut id = first_id;
    let mut push = |verts: &[u32], provoking: usize| {
        let mut vertices = [0; 3];
        vertices[..verts.len()].copy_from_slice(verts);
        out.push(Primitive {
            vertices,
            provoking: provoking as u8,
            id,
        });
        id += 1;
    };
    let lastv = |count: usize| if last { count - 1 } else { 0 };
    match ty {
        P::DI_PT_POINTLIST | P::DI_PT_POINTLIST_PSIZE => v.iter().for_each(|&a| push(&[a], 0)),
        P::DI_PT_LINELIST => v.chunks_exact(2).for_each(|c| push(c, lastv(2))),
        P::DI_PT_LINESTRIP => v.windows(2).for_each(|w| push(w, lastv(2))),
        P::DI_PT_LINELOOP => {
            v.windows(2).for_each(|w| push(w, lastv(2)));
            if n > 1 {
                push(&[v[n - 1], v[0]], lastv(2));
            }
        }
        P::DI_PT_LINE_ADJ => v
            .chunks_exact(4)
            .for_each(|c| push(&[c[1], c[2]], lastv(2))),
        P::DI_PT_LINESTRIP_ADJ => {
            for i in 0..n.saturating_sub(3) {
                push(&[v[i + 1], v[i + 2]], lastv(2));
            }
        }
        P::DI_PT_TRILIST => v.chunks_exact(3).for_each(|c| push(c, lastv(3))),
        P::DI_PT_TRISTRIP => {
            for i in 0..n.saturating_sub(2) {
                // Vulkan: first-vertex order keeps vertex i first and swaps
                // the other two on odd triangles; last-vertex order keeps
                // i + 2 last and swaps the first two.
                let t = match (i % 2 == 1, last) {
                    (false, _) => [v[i], v[i + 1], v[i + 2]],
                    (true, false) => [v[i], v[i + 2], v[i + 1]],
                    (true, true) => [v[i + 1], v[i], v[i + 2]],
                };
                push(&t, lastv(3));
            }
        }
        P::DI_PT_TRIFAN => {
            for i in 0..n.saturating_sub(2) {
                let t = if last {
                    [v[0], v[i + 1], v[i + 2]]
                } else {
                    [v[i + 1], v[i + 2], v[0]]
                };
                push(&t, lastv(3));
            }
        }
        P::DI_PT_TRI_ADJ => v
            .chunks_exact(6)
            .for_each(|c| push(&[c[0], c[2], c[4]], lastv(3))),
        P::DI_PT_TRISTRIP_ADJ => {
            for i in 0..n.saturating_sub(4) / 2 {
                let (a, b, c) = (v[2 * i], v[2 * i + 2], v[2 * i + 4]);
                let t = match (i % 2 == 1, last) {
                    (false, _) => [a, b, c],
                    (true, false) => [a, c, b],
                    (true, true) => [b, a, c],
                };
                push(&t, lastv(3));
            }
        }
        P::DI_PT_RECTLIST => v.chunks_exact(2).for_each(|c| push(c, 0)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prims(ty: P, n: u32, restart_at: &[u32], last: bool) -> Vec<([u32; 3], u8)> {
        let indices: Vec<Index> = (0..n)
            .map(|i| {
                if restart_at.contains(&i) {
                    Index::Restart
                } else {
                    Index::Vertex(i)
                }
            })
            .collect();
        let mut out = Vec::new();
        assemble(ty, &indices, last, &mut out).unwrap();
        out.iter().map(|p| (p.vertices, p.provoking)).collect()
    }

    #[test]
    fn strips_and_fans_in_vulkans_vertex_order() {
        // Vulkan's "Triangle Strips": triangle i is (i, i+1, i+2) for even i
        // and (i, i+2, i+1) for odd i, provoking vertex first.
        assert_eq!(
            prims(P::DI_PT_TRISTRIP, 5, &[], false),
            [([0, 1, 2], 0), ([1, 3, 2], 0), ([2, 3, 4], 0)]
        );
        // With the last vertex provoking: (i+1, i, i+2) for odd i.
        assert_eq!(
            prims(P::DI_PT_TRISTRIP, 4, &[], true),
            [([0, 1, 2], 2), ([2, 1, 3], 2)]
        );
        // "Triangle Fans": (i+1, i+2, 0).
        assert_eq!(
            prims(P::DI_PT_TRIFAN, 5, &[], false),
            [([1, 2, 0], 0), ([2, 3, 0], 0), ([3, 4, 0], 0)]
        );
    }

    #[test]
    fn a_restart_ends_a_strip_and_drops_partial_list_primitives() {
        // turnip/README.md strip_restart: 28 indices with 2 restarts.
        assert_eq!(
            prims(P::DI_PT_TRISTRIP, 9, &[4], false),
            [
                ([0, 1, 2], 0),
                ([1, 3, 2], 0),
                ([5, 6, 7], 0),
                ([6, 8, 7], 0)
            ]
        );
        assert_eq!(prims(P::DI_PT_TRILIST, 8, &[2], false), [([3, 4, 5], 0)]);
        let ids: Vec<u32> = {
            let indices: Vec<Index> = (0..6)
                .map(|i| {
                    if i == 3 {
                        Index::Restart
                    } else {
                        Index::Vertex(i)
                    }
                })
                .collect();
            let mut out = Vec::new();
            assemble(P::DI_PT_LINESTRIP, &indices, false, &mut out).unwrap();
            out.iter().map(|p| p.id).collect()
        };
        assert_eq!(ids, [0, 1, 2], "primitive ids run on across restarts");
    }

    #[test]
    fn lines_loops_adjacency_and_rects() {
        assert_eq!(
            prims(P::DI_PT_LINELOOP, 3, &[], false),
            [([0, 1, 0], 0), ([1, 2, 0], 0), ([2, 0, 0], 0)]
        );
        assert_eq!(
            prims(P::DI_PT_LINE_ADJ, 8, &[], true),
            [([1, 2, 0], 1), ([5, 6, 0], 1)]
        );
        assert_eq!(prims(P::DI_PT_TRI_ADJ, 6, &[], false), [([0, 2, 4], 0)]);
        assert_eq!(prims(P::DI_PT_RECTLIST, 2, &[], false), [([0, 1, 0], 0)]);
        assert!(shape(P::DI_PT_PATCHES3).is_err());
        assert!(shape(P(0x1e)).is_err());
    }
}
