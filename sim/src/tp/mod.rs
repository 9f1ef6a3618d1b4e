//! The texture processor: what a texture instruction's lookup reads and
//! how the texels combine, for the shader processor's `sam` family, its
//! gathers, the fragment stage's texture prefetch, and texel fetches from
//! tiled or compressed images.
//!
//! - [`view`]: the texture an `A6XX_TEX_CONST` describes, its levels and
//!   layers as [`crate::surface`]s (tiling and UBWC are the surface
//!   module's), the swizzle;
//! - [`sampler`]: the sampler state, `A6XX_TEX_SAMP`;
//! - [`lod`]: the level of detail and the levels it selects;
//! - [`filter`]: texel coordinates, footprints and wrapping;
//! - [`cube`]: cube map faces.
//!
//! A lookup, as Vulkan's "Texel Filtering" describes it: normalized
//! coordinates scale by the level's size (unnormalized ones are texels of
//! level 0), the footprint's texels wrap, are read and converted (sRGB
//! before filtering), compared with the reference for a shadow lookup,
//! weighted (or reduced to their minimum or maximum), blended between two
//! levels for linear mips, and the view's swizzle picks the result
//! components. Integer formats take one texel: a linear filter on them is
//! an error, as Vulkan does not allow it.
//!
//! Not modelled, each an error naming it: the border colour
//! (CLAMP_TO_BORDER outside the image: the layout of the border colour
//! table per format is not public), linear filtering across cube faces
//! (seamless cube maps), anisotropic and cubic filters.

pub(crate) mod cube;
pub(crate) mod filter;
pub(crate) mod lod;
pub(crate) mod sampler;
pub(crate) mod view;

use parsnip_registers::enums::A6xxTexType;

use crate::memory::AddressSpace;
use crate::rb::depth::compare;
use crate::sp::trap::{error, Trap};
use crate::surface::format::{NumberClass, Texel};
use crate::surface::SurfaceError;
use filter::{footprint, wrap, Wrapped};
use lod::{lambda, select, Levels, Lod};
use sampler::{Filter, Reduction, Sampler};
use view::Texture;

/// A surface error as the shader sees it.
pub(crate) fn surface_trap(e: SurfaceError) -> Trap {
    match e {
        SurfaceError::Fault(f) => Trap::Fault(f),
        other => Trap::Error(other.to_string()),
    }
}

/// What one fiber looks up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Lookup {
    /// s, t and (3D, cube) r.
    pub coords: [f32; 3],
    /// The array layer (or cube) coordinate, for arrays.
    pub layer: Option<f32>,
    /// The reference of a shadow lookup.
    pub compare: Option<f32>,
    /// The instruction's texel offsets.
    pub offsets: [i32; 3],
    pub lod: Lod,
}

/// Where a lookup reads, once the texture's type has been applied: the
/// layer and the 2D or 3D coordinates, with their derivatives.
struct Placed {
    layer: u32,
    coords: [f32; 3],
    dims: usize,
    lod: Lod,
}

fn layer_index(t: &Texture, a: Option<f32>) -> u32 {
    match a {
        Some(a) if a.is_finite() => {
            (a.round_ties_even().max(0.0) as u32).min(t.layers().max(1) - 1)
        }
        _ => 0,
    }
}

fn place(t: &Texture, l: &Lookup) -> Result<Placed, Trap> {
    match t.ty() {
        A6xxTexType::A6XX_TEX_CUBE => {
            let (face, st) = cube::face(l.coords);
            let lod = match l.lod {
                Lod::Gradients { ddx, ddy, bias } => {
                    let d = |g: [f32; 3]| {
                        let [s, t] = cube::face_derivative(l.coords, g, face);
                        [s, t, 0.0]
                    };
                    Lod::Gradients {
                        ddx: d(ddx),
                        ddy: d(ddy),
                        bias,
                    }
                }
                other => other,
            };
            Ok(Placed {
                layer: layer_index(t, l.layer) * 6 + face,
                coords: [st[0], st[1], 0.0],
                dims: 2,
                lod,
            })
        }
        A6xxTexType::A6XX_TEX_3D => Ok(Placed {
            layer: 0,
            coords: l.coords,
            dims: 3,
            lod: l.lod,
        }),
        A6xxTexType::A6XX_TEX_1D | A6xxTexType::A6XX_TEX_2D => Ok(Placed {
            layer: layer_index(t, l.layer),
            coords: l.coords,
            dims: 2,
            lod: l.lod,
        }),
        other => error(format!(
            "a filtered lookup of a texture of type {}: buffers are only fetched",
            other.0
        )),
    }
}

/// A texel's value for filtering: its components as floats, or after the
/// shadow comparison.
fn value(t: &Texture, texel: Texel, compare_ref: Option<(f32, &Sampler)>) -> Texel {
    match (compare_ref, texel) {
        (Some((r, s)), Texel::Float(v)) => {
            let r = match t.format.class {
                NumberClass::Unorm | NumberClass::DepthStencil => r.clamp(0.0, 1.0),
                _ => r,
            };
            let pass = if compare(s.compare, r, v[0]) {
                1.0
            } else {
                0.0
            };
            Texel::Float([pass; 4])
        }
        (_, t) => t,
    }
}

/// Reads texel (i, j, k) of a level after wrapping, for a filter.
#[allow(clippy::too_many_arguments)]
fn read(
    t: &mut Texture,
    memory: &AddressSpace,
    s: &Sampler,
    level: u32,
    layer: u32,
    size: [u32; 3],
    index: [i64; 3],
    seamless: bool,
) -> Result<Texel, Trap> {
    let mut at = [0u32; 3];
    for c in 0..3 {
        if seamless && c < 2 && !(0..i64::from(size[c])).contains(&index[c]) {
            return error(
                "linear filtering across the edge of a cube face: seamless cube maps are not \
                 modelled",
            );
        }
        at[c] =
            match wrap(s.wrap[c], index[c], size[c]) {
                Wrapped::Texel(i) => i,
                Wrapped::Border => return error(
                    "a lookup outside the image with CLAMP_TO_BORDER: the border colour table is \
                     not modelled",
                ),
            };
    }
    let slice = if t.is_3d() { at[2] } else { layer };
    t.texel(memory, level, slice, at[0], at[1])
}

/// The filtered value of one level.
fn sample_level(
    t: &mut Texture,
    memory: &AddressSpace,
    s: &Sampler,
    p: &Placed,
    l: &Lookup,
    level: u32,
    filter: Filter,
) -> Result<Texel, Trap> {
    let size = t.level_size(level);
    let seamless = t.is_cube() && s.seamless_cube && filter == Filter::Linear;
    let scale = |c: usize| {
        if s.unnormalized {
            p.coords[c]
        } else {
            p.coords[c] * size[c] as f32
        }
    };
    let mut axes = [([0i64; 2], 0f32); 3];
    for (c, axis) in axes.iter_mut().enumerate() {
        *axis = if c < p.dims {
            footprint(filter, scale(c), l.offsets[c])
        } else {
            ([0, 0], 0.0)
        };
    }
    let compare_ref = l.compare.map(|r| (r, s));
    if t.format.is_integer() && l.compare.is_none() {
        if filter == Filter::Linear {
            return error("linear filtering of an integer format");
        }
        let index = [axes[0].0[0], axes[1].0[0], axes[2].0[0]];
        return read(t, memory, s, level, p.layer, size, index, seamless);
    }
    let corners = if p.dims == 3 { 8 } else { 4 };
    let mut sum = [0f32; 4];
    let mut reduced: Option<[f32; 4]> = None;
    for corner in 0..corners {
        let pick = |c: usize| (corner >> c) & 1;
        let mut weight = 1.0;
        let mut index = [0i64; 3];
        for c in 0..p.dims {
            let (ix, w) = axes[c];
            index[c] = ix[pick(c)];
            weight *= if pick(c) == 1 { w } else { 1.0 - w };
        }
        if filter == Filter::Nearest && corner != 0 {
            break;
        }
        if weight == 0.0 && filter == Filter::Linear {
            continue;
        }
        let texel = read(t, memory, s, level, p.layer, size, index, seamless)?;
        let Texel::Float(v) = value(t, texel, compare_ref) else {
            return error("a shadow lookup of an integer format");
        };
        match s.reduction {
            Reduction::WeightedAverage => {
                for c in 0..4 {
                    sum[c] += weight * v[c];
                }
            }
            Reduction::Min | Reduction::Max => {
                let take = |a: f32, b: f32| {
                    if s.reduction == Reduction::Min {
                        a.min(b)
                    } else {
                        a.max(b)
                    }
                };
                reduced = Some(match reduced {
                    None => v,
                    Some(r) => [0, 1, 2, 3].map(|c| take(r[c], v[c])),
                });
            }
        }
    }
    Ok(Texel::Float(reduced.unwrap_or(sum)))
}

/// The result of a filtered lookup (`sam`, `samb`, `saml`, `samgq`, the
/// prefetch), after the view's swizzle.
pub(crate) fn sample(
    t: &mut Texture,
    s: &Sampler,
    memory: &AddressSpace,
    l: &Lookup,
) -> Result<Texel, Trap> {
    if t.image.samples > 1 {
        return error(format!(
            "a filtered lookup of a {}-sample texture: multisampled images are only fetched",
            t.image.samples
        ));
    }
    let p = place(t, l)?;
    let lambda = if s.unnormalized {
        Some(0.0)
    } else {
        lambda(p.lod, t.level_size(0), p.dims, s, t.min_lod_clamp)
    };
    let lambda = lambda.unwrap_or(0.0);
    let filter = if lambda > 0.0 { s.min } else { s.mag };
    let levels = if s.unnormalized {
        Levels::One(0)
    } else {
        select(lambda, t.levels(), s.mip_linear && lambda > 0.0)
    };
    let result = match levels {
        Levels::One(level) => sample_level(t, memory, s, &p, l, level, filter)?,
        Levels::Two(a, b, w) => {
            if t.format.is_integer() && l.compare.is_none() {
                return error("linear mip filtering of an integer format");
            }
            match (
                sample_level(t, memory, s, &p, l, a, filter)?,
                sample_level(t, memory, s, &p, l, b, filter)?,
            ) {
                (Texel::Float(x), Texel::Float(y)) => {
                    Texel::Float([0, 1, 2, 3].map(|c| (1.0 - w) * x[c] + w * y[c]))
                }
                _ => return error("linear mip filtering of integer texels"),
            }
        }
    };
    Ok(t.swizzle(result))
}

/// `gather4r/g/b/a`: component `component` (of the swizzled result) of the
/// four texels a bilinear lookup of level 0 reads, in Vulkan's order
/// (i0, j1), (i1, j1), (i1, j0), (i0, j0).
pub(crate) fn gather(
    t: &mut Texture,
    s: &Sampler,
    memory: &AddressSpace,
    l: &Lookup,
    component: usize,
) -> Result<Texel, Trap> {
    let p = place(t, l)?;
    let from = match t.swizzled_component(component) {
        Ok(c) => c,
        Err(constant) => {
            return Ok(if t.format.is_integer() {
                Texel::Int([constant as u32; 4])
            } else {
                Texel::Float([constant; 4])
            })
        }
    };
    let size = t.level_size(0);
    let seamless = t.is_cube() && s.seamless_cube;
    let scale = |c: usize| {
        if s.unnormalized {
            p.coords[c]
        } else {
            p.coords[c] * size[c] as f32
        }
    };
    let (i, _) = footprint(Filter::Linear, scale(0), l.offsets[0]);
    let (j, _) = footprint(Filter::Linear, scale(1), l.offsets[1]);
    let order = [(i[0], j[1]), (i[1], j[1]), (i[1], j[0]), (i[0], j[0])];
    let mut floats = [0f32; 4];
    let mut ints = [0u32; 4];
    for (k, (x, y)) in order.into_iter().enumerate() {
        let texel = read(t, memory, s, 0, p.layer, size, [x, y, 0], seamless)?;
        match value(t, texel, l.compare.map(|r| (r, s))) {
            Texel::Float(v) => floats[k] = v[from],
            Texel::Int(v) => ints[k] = v[from],
        }
    }
    Ok(if t.format.is_integer() && l.compare.is_none() {
        Texel::Int(ints)
    } else {
        Texel::Float(floats)
    })
}

/// A texel fetch (`isam`, `isaml`) from a tiled or compressed image:
/// texel (x, y) of layer or slice `layer` of level `level`, after the
/// swizzle, or `None` outside the image.
pub(crate) fn fetch(
    t: &mut Texture,
    memory: &AddressSpace,
    level: u32,
    layer: u32,
    x: u32,
    y: u32,
) -> Result<Option<Texel>, Trap> {
    if level >= t.levels() {
        return Ok(None);
    }
    let [w, h, d] = t.level_size(level);
    let layers = if t.is_3d() {
        d
    } else if t.is_cube() {
        t.layers() * 6
    } else {
        t.layers()
    };
    if x >= w || y >= h || layer >= layers {
        return Ok(None);
    }
    if t.image.samples > 1 {
        return error(format!(
            "a texel fetch of a {}-sample image: isamm is not modelled",
            t.image.samples
        ));
    }
    let texel = t.texel(memory, level, layer, x, y)?;
    Ok(Some(t.swizzle(texel)))
}
