//! Descriptors to the bindless form: `(set, binding)[i]` becomes descriptor
//! `first_descriptor + i` of the set whose base is SP_BINDLESS_BASE[set] (a6xx.xml), as
//! the `.bindless` forms of ir3's memory and texture instructions address them.

use crate::descriptor_layout::{DescriptorKind, DescriptorLayout, MAX_SETS};
use crate::error::{CompileError, Result};
use crate::ir::*;

fn lower(
    r: &mut Resource,
    kind: DescriptorKind,
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
    if b.kind != kind {
        return Err(CompileError::new(format!(
            "set {set} binding {binding} is a {:?} in the layout but the shader uses it as a {kind:?}",
            b.kind
        )));
    }
    let index = match index {
        Src::Imm(i) => Src::Imm(i + b.first_descriptor as u64),
        v => {
            let d = shader.new_value(BitSize::B32);
            out.push(Instr {
                dst: Some(d),
                op: Op::alu(
                    AluOp::IAdd,
                    BitSize::B32,
                    &[v, Src::Imm(b.first_descriptor as u64)],
                ),
            });
            d.into()
        }
    };
    *r = Resource::Bindless { base: set, index };
    Ok(())
}

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
                | Op::BufferSize(r) => Some((r, DescriptorKind::StorageBuffer)),
                Op::Load(Load {
                    space: Space::Ubo(r),
                    ..
                }) => Some((r, DescriptorKind::UniformBuffer)),
                Op::TexelLoad(TexelLoad { buffer: t, .. })
                | Op::TexelStore(TexelStore { buffer: t, .. })
                | Op::TexelAtomic(TexelAtomic { buffer: t, .. })
                | Op::TexelSize(t) => {
                    let kind = match t.path {
                        TexelPath::Sampled => DescriptorKind::UniformTexelBuffer,
                        TexelPath::Storage => DescriptorKind::StorageTexelBuffer,
                    };
                    Some((&mut t.resource, kind))
                }
                _ => None,
            };
            if let Some((r, kind)) = target {
                lower(r, kind, layout, &mut out, shader)?;
            }
            out.push(instr);
        }
        shader.block_mut(b).instrs = out;
    }
    Ok(())
}
