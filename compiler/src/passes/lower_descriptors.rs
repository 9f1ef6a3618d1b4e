//! Descriptors to the bindless form: `(set, binding)[i]` becomes descriptor
//! `first_descriptor + i` of the set whose base is SP_BINDLESS_BASE[set] (a6xx.xml), as
//! the `.bindless` forms of ir3's memory and texture instructions address them. A
//! combined image sampler's element `i` is two descriptors from `first_descriptor + 2i`:
//! the texture, then the sampler.

use crate::descriptor_layout::{DescriptorKind, DescriptorLayout, MAX_SETS};
use crate::error::{CompileError, Result};
use crate::ir::*;

/// Lowers `r`, which must name a binding of one of `kinds`, to the descriptor `offset`
/// past the first of its element.
fn lower(
    r: &mut Resource,
    kinds: &[(DescriptorKind, u32)],
    layout: &DescriptorLayout,
    out: &mut Vec<Instr>,
    shader: &mut Shader,
) -> Result<()> {
    let Resource::Binding {
        set,
        binding,
        index,
    } = *r
    else {
        return Ok(());
    };
    if set >= MAX_SETS {
        return Err(CompileError::new(format!(
            "descriptor set {set} is beyond the {MAX_SETS} bindless bases of the hardware"
        )));
    }
    let b = layout.find(set, binding).ok_or_else(|| {
        CompileError::new(format!(
            "set {set} binding {binding} is not in the pipeline layout"
        ))
    })?;
    let Some(&(_, offset)) = kinds.iter().find(|(k, _)| *k == b.kind) else {
        let wanted: Vec<String> = kinds.iter().map(|(k, _)| format!("{k:?}")).collect();
        return Err(CompileError::new(format!(
            "set {set} binding {binding} is a {:?} in the layout but the shader uses it as a {}",
            b.kind,
            wanted.join(" or ")
        )));
    };
    let first = u64::from(b.first_descriptor + offset);
    let per = u64::from(b.kind.descriptors_per_element());
    let index = match index {
        Src::Imm(i) => Src::Imm(first + i * per),
        v => {
            let scaled = if per == 1 {
                v
            } else {
                let d = shader.new_value(BitSize::B32);
                out.push(Instr {
                    dst: Some(d),
                    op: Op::alu(AluOp::IMul, BitSize::B32, &[v, Src::Imm(per)]),
                });
                d.into()
            };
            let d = shader.new_value(BitSize::B32);
            out.push(Instr {
                dst: Some(d),
                op: Op::alu(AluOp::IAdd, BitSize::B32, &[scaled, Src::Imm(first)]),
            });
            d.into()
        }
    };
    *r = Resource::Bindless { base: set, index };
    Ok(())
}

/// The kinds of binding a view's texture may be, each with the descriptor of its element
/// that holds the texture.
fn view_kinds(v: &TexelView) -> &'static [(DescriptorKind, u32)] {
    use DescriptorKind as K;
    match (v.dim, v.path) {
        (TexelDim::Buffer, TexelPath::Sampled) => &[(K::UniformTexelBuffer, 0)],
        (TexelDim::Buffer, TexelPath::Storage) => &[(K::StorageTexelBuffer, 0)],
        (_, TexelPath::Sampled) => &[
            (K::SampledImage, 0),
            (K::CombinedImageSampler, 0),
            (K::InputAttachment, 0),
        ],
        (_, TexelPath::Storage) => &[(K::StorageImage, 0)],
    }
}

/// Samplers: a sampler binding, or the descriptor after a combined image sampler's
/// texture.
const SAMPLER_KINDS: &[(DescriptorKind, u32)] = &[
    (DescriptorKind::Sampler, 0),
    (DescriptorKind::CombinedImageSampler, 1),
];

const STORAGE_BUFFER: &[(DescriptorKind, u32)] = &[(DescriptorKind::StorageBuffer, 0)];
const UNIFORM_BUFFER: &[(DescriptorKind, u32)] = &[(DescriptorKind::UniformBuffer, 0)];

pub fn run(shader: &mut Shader, layout: &DescriptorLayout) -> Result<()> {
    for b in shader.block_ids().collect::<Vec<_>>() {
        let old = std::mem::take(&mut shader.block_mut(b).instrs);
        let mut out = Vec::with_capacity(old.len());
        for mut instr in old {
            let target = match &mut instr.op {
                Op::Load(Load {
                    space: Space::Ssbo(r),
                    ..
                })
                | Op::Store(Store {
                    space: Space::Ssbo(r),
                    ..
                })
                | Op::Atomic(Atomic {
                    space: Space::Ssbo(r),
                    ..
                })
                | Op::BufferSize(r) => Some((r, STORAGE_BUFFER)),
                Op::Load(Load {
                    space: Space::Ubo(r),
                    ..
                }) => Some((r, UNIFORM_BUFFER)),
                Op::TexelLoad(TexelLoad { view, .. })
                | Op::TexelStore(TexelStore { view, .. })
                | Op::TexelAtomic(TexelAtomic { view, .. })
                | Op::TexelSize(TexelSize { view, .. }) => {
                    if let Some(s) = &mut view.sampler {
                        lower(s, SAMPLER_KINDS, layout, &mut out, shader)?;
                    }
                    let kinds = view_kinds(view);
                    Some((&mut view.resource, kinds))
                }
                _ => None,
            };
            if let Some((r, kinds)) = target {
                lower(r, kinds, layout, &mut out, shader)?;
            }
            out.push(instr);
        }
        shader.block_mut(b).instrs = out;
    }
    Ok(())
}
