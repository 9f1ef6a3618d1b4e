//! The Input and Output variables of vertex and fragment shaders: what each scalar leaf of
//! such a variable is (a component of a Location, or an element of a built-in), as the
//! Vulkan interface-matching rules assign them ("Location Assignment": a scalar or vector
//! of up to four 32-bit components takes one location from its Component, an array or a
//! matrix one location per element or column).

use super::module::{Module, Type};
use crate::error::{CompileError, Result};
use crate::stage_info::{Interpolation, Sampling, ScalarKind};
use rspirv::spirv::{BuiltIn, Word as Id};

/// One scalar leaf of an interface variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    Location {
        location: u32,
        component: u8,
        kind: ScalarKind,
        /// How a fragment shader input is interpolated (its variable's or its block
        /// member's decorations).
        interpolation: Interpolation,
        sampling: Sampling,
    },
    /// Element `index` of a built-in (component of gl_Position, element of
    /// gl_ClipDistance).
    BuiltIn(BuiltIn, u32),
}

fn scalar_kind(m: &Module, ty: Id) -> std::result::Result<ScalarKind, String> {
    match m.ty(ty).map_err(|e| e.to_string())? {
        Type::Float { width: 32 } => Ok(ScalarKind::Float),
        Type::Int {
            width: 32,
            signed: true,
        } => Ok(ScalarKind::Sint),
        Type::Int {
            width: 32,
            signed: false,
        } => Ok(ScalarKind::Uint),
        Type::Bool => Err("booleans cannot be shader inputs or outputs".into()),
        other => Err(format!(
            "{other:?} inputs and outputs are not supported (32-bit scalars only)"
        )),
    }
}

fn next_location(location: u32) -> std::result::Result<u32, String> {
    location
        .checked_add(1)
        .ok_or_else(|| "locations run past 2^32".to_string())
}

/// How an input is interpolated, from its decorations.
fn interpolation_of(flat: bool, no_perspective: bool, centroid: bool, sample: bool) -> Mode {
    let i = if flat {
        Interpolation::Flat
    } else if no_perspective {
        Interpolation::NoPerspective
    } else {
        Interpolation::Smooth
    };
    let s = if sample {
        Sampling::Sample
    } else if centroid {
        Sampling::Centroid
    } else {
        Sampling::Center
    };
    (i, s)
}

type Mode = (Interpolation, Sampling);

/// Leaves of `ty` from `location`, component `component`; returns the next location.
fn located(
    m: &Module,
    ty: Id,
    location: u32,
    component: u32,
    mode: Mode,
    out: &mut Vec<Leaf>,
) -> std::result::Result<u32, String> {
    match m.ty(ty).map_err(|e| e.to_string())? {
        Type::Vector { elem, count } => {
            let kind = scalar_kind(m, *elem)?;
            if component.saturating_add(*count) > 4 {
                return Err(format!(
                    "a vector of {count} from component {component} does not fit a location"
                ));
            }
            for c in 0..*count {
                out.push(Leaf::Location {
                    location,
                    component: (component + c) as u8,
                    kind,
                    interpolation: mode.0,
                    sampling: mode.1,
                });
            }
            next_location(location)
        }
        Type::Array { elem, len: count }
        | Type::Matrix {
            column: elem,
            count,
        } => {
            let (elem, count) = (*elem, *count);
            let mut l = location;
            for _ in 0..count {
                l = located(m, elem, l, component, mode, out)?;
            }
            Ok(l)
        }
        Type::Struct { .. } => {
            Err("structures nested in interface variables are not supported".into())
        }
        _ => {
            let kind = scalar_kind(m, ty)?;
            if component > 3 {
                return Err(format!("component {component} is beyond a location's four"));
            }
            out.push(Leaf::Location {
                location,
                component: component as u8,
                kind,
                interpolation: mode.0,
                sampling: mode.1,
            });
            next_location(location)
        }
    }
}

/// What each scalar leaf of interface variable `var` (of type `pointee`) is, in the
/// order of [`Module::leaves`].
pub fn leaves(m: &Module, var: Id, pointee: Id) -> Result<Vec<Leaf>> {
    let fail = |msg: String| CompileError::new(format!("OpVariable {}: {msg}", m.name(var)));
    let deco = m.decorations.get(&var).cloned().unwrap_or_default();
    let count = |ty: Id| m.leaves(ty).map(|l| l.len() as u32).map_err(fail);
    if let Some(b) = deco.builtin {
        return Ok((0..count(pointee)?).map(|i| Leaf::BuiltIn(b, i)).collect());
    }
    let mode = interpolation_of(deco.flat, deco.no_perspective, deco.centroid, deco.sample);
    if let Ok(Type::Struct { members }) = m.ty(pointee) {
        // Vulkan's Location Assignment: a member with a Location starts there, the others
        // at the location after the previous member's, the first at the block's.
        let mut out = Vec::new();
        let mut next = deco.location;
        for (k, &member) in members.iter().enumerate() {
            let md = m
                .member_decorations
                .get(&(pointee, k as u32))
                .cloned()
                .unwrap_or_default();
            if let Some(b) = md.builtin {
                out.extend((0..count(member)?).map(|i| Leaf::BuiltIn(b, i)));
                continue;
            }
            let location = md.location.or(next).ok_or_else(|| {
                fail(format!(
                    "member {k} of an interface block has no Location, nor does the block"
                ))
            })?;
            let member_mode = interpolation_of(
                deco.flat || md.flat,
                deco.no_perspective || md.no_perspective,
                deco.centroid || md.centroid,
                deco.sample || md.sample,
            );
            let component = md.component.unwrap_or(0);
            next =
                Some(located(m, member, location, component, member_mode, &mut out).map_err(fail)?);
        }
        return Ok(out);
    }
    let location = deco
        .location
        .ok_or_else(|| fail("an interface variable without a Location".into()))?;
    let mut out = Vec::new();
    located(
        m,
        pointee,
        location,
        deco.component.unwrap_or(0),
        mode,
        &mut out,
    )
    .map_err(fail)?;
    Ok(out)
}
