//! The descriptor bindings a compute entry point declares, with their kinds and array
//! sizes: what a pipeline layout made to match the shader holds. Callers without a layout
//! of their own (`parsnip-compile` with no `--binding`) build one from this.

use super::module::{ArrayLen, Global, Id, Module, Type};
use super::operands::id_at;
use crate::descriptor_layout::DescriptorKind;
use crate::error::{CompileError, Result};
use crate::ir::TexelDim;
use rspirv::dr;
use rspirv::spirv::StorageClass;
use std::collections::{BTreeSet, HashSet};

/// One binding of one set, as the shader declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredBinding {
    pub set: u32,
    pub binding: u32,
    pub kind: DescriptorKind,
    /// Array elements (1 for a variable that is not an array); `None` for a runtime-sized
    /// array, whose count only the pipeline layout knows.
    pub count: Option<u32>,
    /// The variable, for messages: "%12 (inp)".
    pub variable: String,
}

/// The bindings of the entry point's resource variables, ordered by set and binding. A
/// variable belongs to the entry point when its interface names it (from SPIR-V 1.4 the
/// interface names every global the entry point references; glslang also names the ones
/// it only declares, which an application's layout holds too) or when the entry point's
/// call tree references it (older modules list only inputs and outputs). Images of kinds
/// the front end does not support are left out: it refuses them where used.
pub fn declared_bindings(m: &Module, entry: &str) -> Result<Vec<DeclaredBinding>> {
    let mut out: Vec<DeclaredBinding> = Vec::new();
    for id in entry_variables(m, entry)? {
        let Some(g) = m.globals.get(&id) else {
            continue;
        };
        let Some(decl) = declared(m, id, g)? else {
            continue;
        };
        match out
            .iter()
            .find(|d| d.set == decl.set && d.binding == decl.binding)
        {
            // Variables may alias one binding (several block types over one buffer); they
            // must agree on what the descriptor is.
            Some(other) if other.kind != decl.kind || other.count != decl.count => {
                return Err(CompileError::new(format!(
                    "set {} binding {} is declared as {} by {} and as {} by {}",
                    decl.set,
                    decl.binding,
                    describe_kind(other.kind, other.count),
                    other.variable,
                    describe_kind(decl.kind, decl.count),
                    decl.variable
                )))
            }
            Some(_) => {}
            None => out.push(decl),
        }
    }
    out.sort_by_key(|d| (d.set, d.binding));
    Ok(out)
}

fn describe_kind(kind: DescriptorKind, count: Option<u32>) -> String {
    match count {
        Some(n) => format!("{kind:?}[{n}]"),
        None => format!("{kind:?}[]"),
    }
}

/// The globals the entry point's interface names or its call tree references.
fn entry_variables(m: &Module, entry: &str) -> Result<BTreeSet<Id>> {
    let mut vars = BTreeSet::new();
    for inst in &m.dr.entry_points {
        let named =
            matches!(inst.operands.get(2), Some(dr::Operand::LiteralString(s)) if s == entry);
        if named && id_at(inst, 1)? == m.entry_function {
            for i in 3..inst.operands.len() {
                vars.insert(id_at(inst, i)?);
            }
        }
    }
    let mut pending = vec![m.entry_function];
    let mut visited = HashSet::new();
    while let Some(f) = pending.pop() {
        if !visited.insert(f) {
            continue;
        }
        let function = &m.dr.functions[m.functions[&f]];
        for inst in function.blocks.iter().flat_map(|b| &b.instructions) {
            for op in &inst.operands {
                let dr::Operand::IdRef(id) = op else {
                    continue;
                };
                if m.functions.contains_key(id) {
                    pending.push(*id);
                } else if m.globals.contains_key(id) {
                    vars.insert(*id);
                }
            }
        }
    }
    Ok(vars)
}

/// The binding a global declares, if it is a descriptor the front end supports.
fn declared(m: &Module, id: Id, g: &Global) -> Result<Option<DeclaredBinding>> {
    let fail = |msg: String| CompileError::new(format!("OpVariable {}: {msg}", m.name(id)));
    let (elem, array) = m.descriptor_array(g.pointee)?;
    let kind = match g.class {
        StorageClass::StorageBuffer => DescriptorKind::StorageBuffer,
        StorageClass::Uniform if m.is_uniform_block(g.class, elem) => DescriptorKind::UniformBuffer,
        StorageClass::Uniform => DescriptorKind::StorageBuffer,
        StorageClass::UniformConstant => {
            let (image, combined) = match m.ty(elem)? {
                Type::Image(t) => (Some(t), false),
                Type::SampledImage { image } => match m.ty(*image)? {
                    Type::Image(t) => (Some(t), true),
                    _ => return Ok(None),
                },
                Type::Sampler => (None, false),
                _ => return Ok(None),
            };
            match (image.map(|t| (t.dim, t.sampled)), combined) {
                _ if image.is_some_and(|t| t.subpass) => DescriptorKind::InputAttachment,
                (None, _) => DescriptorKind::Sampler,
                (Some((TexelDim::Buffer, 1)), _) => DescriptorKind::UniformTexelBuffer,
                (Some((TexelDim::Buffer, 2)), _) => DescriptorKind::StorageTexelBuffer,
                (Some((_, 1)), true) => DescriptorKind::CombinedImageSampler,
                (Some((_, 1)), false) => DescriptorKind::SampledImage,
                (Some((_, 2)), _) => DescriptorKind::StorageImage,
                (Some((_, s)), _) => {
                    return Err(fail(format!(
                        "an image with Sampled {s}: Vulkan needs 1 (sampled) or 2 (storage)"
                    )))
                }
            }
        }
        _ => return Ok(None),
    };
    let deco = m.decorations.get(&id).cloned().unwrap_or_default();
    let (Some(set), Some(binding)) = (deco.set, deco.binding) else {
        return Err(fail(
            "a descriptor without DescriptorSet and Binding".into(),
        ));
    };
    let count = match array {
        None => Some(1),
        Some(ArrayLen::Fixed(n)) => Some(n),
        Some(ArrayLen::Runtime) => None,
    };
    Ok(Some(DeclaredBinding {
        set,
        binding,
        kind,
        count,
        variable: m.name(id),
    }))
}
