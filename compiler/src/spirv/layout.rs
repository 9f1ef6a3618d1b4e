//! Where the parts of a value lie in memory.
//!
//! Buffers and push constants have explicit layouts (Offset, ArrayStride, MatrixStride and
//! RowMajor decorations). Memory SPIR-V leaves to the implementation gets our own layouts:
//! function and private variables are numbered scalar slots (one per leaf, turned into SSA
//! values or scratch memory later), and shared memory is "packed": every scalar takes four
//! bytes, or eight for 64-bit ones, so that each lies on its own natural alignment.

use super::module::{Id, Module, Type};
use crate::ir::BitSize;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LayoutKind {
    Slots,
    Packed,
    Explicit,
}

/// How a matrix is laid out in explicitly laid out memory (from its struct member's
/// decorations).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatrixLayout {
    pub stride: u32,
    pub row_major: bool,
}

type R<T> = std::result::Result<T, String>;

fn scalar_units(kind: LayoutKind, size: BitSize) -> R<u32> {
    Ok(match kind {
        LayoutKind::Slots => 1,
        LayoutKind::Packed => {
            if size == BitSize::B64 {
                8
            } else {
                4
            }
        }
        LayoutKind::Explicit => match size {
            BitSize::B1 => return Err("booleans cannot be in explicitly laid out memory".into()),
            s => s.bytes(),
        },
    })
}

/// The size of a type in slots (Slots) or bytes (Packed); for Explicit only scalars and
/// vectors have one we need (array strides and member offsets come from decorations).
pub fn size_of(m: &Module, ty: Id, kind: LayoutKind) -> R<u32> {
    let t = m.types.get(&ty).ok_or(format!("%{ty} is not a type"))?;
    let n = match t {
        Type::Vector { elem, count }
        | Type::Matrix {
            column: elem,
            count,
        } => size_of(m, *elem, kind)?.checked_mul(*count),
        Type::Array { elem, len } => {
            if kind == LayoutKind::Explicit {
                array_stride(m, ty, kind)?.checked_mul(*len)
            } else {
                size_of(m, *elem, kind)?.checked_mul(*len)
            }
        }
        Type::Struct { members } => {
            if kind == LayoutKind::Explicit {
                return Err("struct size in explicit layout is not needed".into());
            }
            let mut total = 0u32;
            for mem in members {
                total = total
                    .checked_add(size_of(m, *mem, kind)?)
                    .ok_or("type too large")?;
            }
            Some(total)
        }
        scalar => Some(scalar_units(kind, m.scalar_size(scalar)?)?),
    };
    n.ok_or_else(|| "type too large".to_string())
}

/// Stride between elements of an array type.
pub fn array_stride(m: &Module, array_ty: Id, kind: LayoutKind) -> R<u32> {
    let elem = match m.types.get(&array_ty) {
        Some(Type::Array { elem, .. }) | Some(Type::RuntimeArray { elem }) => *elem,
        _ => return Err(format!("%{array_ty} is not an array")),
    };
    if kind == LayoutKind::Explicit {
        m.decorations
            .get(&array_ty)
            .and_then(|d| d.array_stride)
            .ok_or(format!(
                "array type %{array_ty} has no ArrayStride decoration"
            ))
    } else {
        size_of(m, elem, kind)
    }
}

/// Offset of member `index` of a struct type.
pub fn member_offset(m: &Module, struct_ty: Id, index: u32, kind: LayoutKind) -> R<u32> {
    let members = match m.types.get(&struct_ty) {
        Some(Type::Struct { members }) => members,
        _ => return Err(format!("%{struct_ty} is not a struct")),
    };
    if index as usize >= members.len() {
        return Err(format!("member {index} of a struct of {}", members.len()));
    }
    if kind == LayoutKind::Explicit {
        m.member_decorations
            .get(&(struct_ty, index))
            .and_then(|d| d.offset)
            .ok_or(format!(
                "member {index} of %{struct_ty} has no Offset decoration"
            ))
    } else {
        let mut off = 0u32;
        for mem in &members[..index as usize] {
            off = off
                .checked_add(size_of(m, *mem, kind)?)
                .ok_or("type too large")?;
        }
        Ok(off)
    }
}

/// The matrix layout a struct member gives the matrices in it.
pub fn member_matrix_layout(m: &Module, struct_ty: Id, index: u32) -> Option<MatrixLayout> {
    let d = m.member_decorations.get(&(struct_ty, index))?;
    d.matrix_stride.map(|stride| MatrixLayout {
        stride,
        row_major: d.row_major,
    })
}

/// For a matrix: the offset of column `c` and the stride between a column's components.
pub fn matrix_column(
    m: &Module,
    column_ty: Id,
    kind: LayoutKind,
    matrix: Option<MatrixLayout>,
) -> R<(u32, u32)> {
    let elem = match m.types.get(&column_ty) {
        Some(Type::Vector { elem, .. }) => *elem,
        _ => return Err("matrix column is not a vector".into()),
    };
    let scalar = size_of(m, elem, kind)?;
    if kind != LayoutKind::Explicit {
        return Ok((size_of(m, column_ty, kind)?, scalar));
    }
    let l = matrix.ok_or("matrix without a MatrixStride decoration")?;
    Ok(if l.row_major {
        (scalar, l.stride)
    } else {
        (l.stride, scalar)
    })
}

/// Offsets (relative to the start of a value of type `ty`) and sizes of its scalar leaves.
/// `comp_stride` overrides the distance between vector components (a row-major matrix's
/// column).
pub fn leaf_offsets(
    m: &Module,
    ty: Id,
    kind: LayoutKind,
    matrix: Option<MatrixLayout>,
    comp_stride: Option<u32>,
) -> R<Vec<(u32, BitSize)>> {
    let mut out = Vec::new();
    push_leaf_offsets(m, ty, kind, matrix, comp_stride, 0, &mut out)?;
    Ok(out)
}

fn push_leaf_offsets(
    m: &Module,
    ty: Id,
    kind: LayoutKind,
    matrix: Option<MatrixLayout>,
    comp_stride: Option<u32>,
    base: u32,
    out: &mut Vec<(u32, BitSize)>,
) -> R<()> {
    if out.len() > super::module::MAX_LEAVES {
        return Err(format!(
            "a value of more than {} scalars is too large",
            super::module::MAX_LEAVES
        ));
    }
    let at = |off: u32| {
        base.checked_add(off)
            .ok_or_else(|| "offset overflow".to_string())
    };
    match m.types.get(&ty).ok_or(format!("%{ty} is not a type"))? {
        Type::Vector { elem, count } => {
            let stride = match comp_stride {
                Some(s) => s,
                None => size_of(m, *elem, kind)?,
            };
            for i in 0..*count {
                push_leaf_offsets(m, *elem, kind, None, None, at(i * stride)?, out)?;
            }
        }
        Type::Matrix { column, count } => {
            let (col_stride, comp) = matrix_column(m, *column, kind, matrix)?;
            for c in 0..*count {
                let off = at(c.checked_mul(col_stride).ok_or("offset overflow")?)?;
                push_leaf_offsets(m, *column, kind, None, Some(comp), off, out)?;
            }
        }
        Type::Array { elem, len } => {
            let stride = array_stride(m, ty, kind)?;
            for i in 0..*len {
                let off = at(i.checked_mul(stride).ok_or("offset overflow")?)?;
                push_leaf_offsets(m, *elem, kind, matrix, None, off, out)?;
            }
        }
        Type::Struct { members } => {
            for (i, mem) in members.iter().enumerate() {
                let off = at(member_offset(m, ty, i as u32, kind)?)?;
                let ml = member_matrix_layout(m, ty, i as u32);
                push_leaf_offsets(m, *mem, kind, ml, None, off, out)?;
            }
        }
        Type::RuntimeArray { .. } => return Err("a runtime array cannot be loaded whole".into()),
        scalar => {
            let size = m.scalar_size(scalar)?;
            scalar_units(kind, size)?;
            out.push((base, size));
        }
    }
    Ok(())
}
