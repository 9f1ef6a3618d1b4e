//! Instruction selection for texel buffers, in the forms freedreno's ir3 gives them on
//! a6xx/a7xx (ir3_compiler_nir.c's emit_tex and emit_tex_txs, ir3_a6xx.c's image
//! intrinsics):
//!
//! - a uniform texel buffer is read by the texture unit: `texelFetch` is `isam` with the
//!   texel index as x and y = 0 (ir3 fetches from a buffer as from a 2D texture of height
//!   1), its size is `getbuf` (not `getsize`, whose dimensions stop at 0x7ff0, smaller
//!   than a buffer may be);
//! - a storage texel buffer is reached by the SP's typed image instructions with one
//!   coordinate: `ldib.b.typed.1d` and `stib.b.typed.1d`, as many components as the load
//!   uses or the format has, `atomic.b.*.typed.1d`, and `resinfo.b` for its size;
//! - the instruction's type is the image's sampled type (f32, s32, u32), and signed for
//!   the signed atomic minimum and maximum; the view's format converts;
//! - the texture is named by its bindless descriptor: an immediate below 16 (the 4-bit
//!   field of the bindless immediate form, with sampler 0), otherwise a register pair
//!   (texture, sampler 0), "the indirect source is now a vec2" (ir3's
//!   get_image_ssbo_samp_tex_src).
//!
//! The IR loads one component at a time; the loads of one texel in a block, with no
//! store, atomic or barrier between them, become one instruction whose components are
//! copied out.

use super::*;
use crate::ir::{TexelAtomic, TexelBuffer, TexelLoad, TexelPath, TexelStore, TexelType};

/// Bindless texture numbers an instruction can hold: 4 bits (ir3-cat5.xml, `#cat5-tex`
/// in the bindless immediate mode).
const TEX_IMMEDIATES: u64 = 16;

fn texel_type(ty: TexelType) -> Type {
    match ty {
        TexelType::Float => Type::F32,
        TexelType::Sint => Type::S32,
        TexelType::Uint => Type::U32,
    }
}

/// Whether an operation may change what a texel load reads, so that loads on either
/// side of it are not merged.
fn may_write_texels(op: &Op) -> bool {
    matches!(
        op,
        Op::Store(_) | Op::Atomic(_) | Op::Barrier(_) | Op::TexelStore(_) | Op::TexelAtomic(_)
    )
}

impl Sel<'_> {
    /// The texture descriptor of a sampled texel buffer: its set and the index.
    fn tex_index(&mut self, r: &ir::Resource) -> Result<(u8, MSrc8)> {
        let ir::Resource::Bindless { base, index } = *r else {
            return Err(err("descriptors should have been lowered to bindless"));
        };
        let index = match index {
            Src::Imm(i) if i < TEX_IMMEDIATES => MSrc8::Imm(i as u8),
            s => {
                let pair = self.m.new_vreg(2, false);
                self.copy_into(Comp(pair, 0), s);
                self.copy_into(Comp(pair, 1), Src::Imm(0));
                MSrc8::Reg(Comp(pair, 0))
            }
        };
        Ok((base as u8, index))
    }

    /// The texel load at `instrs[at]` with every later load of the same texel in the
    /// block that nothing could have changed meanwhile: one `isam` or typed `ldib`.
    pub(super) fn sel_texel_load(&mut self, instrs: &[ir::Instr], at: usize) -> Result<()> {
        let Op::TexelLoad(first) = &instrs[at].op else {
            return Err(err("not a texel load"));
        };
        let Some(dst) = instrs[at].dst else {
            return Err(err("a texel load has no result"));
        };
        if self.texel_loaded.contains(&dst) {
            return Ok(());
        }
        let same = |l: &TexelLoad| l.buffer == first.buffer && l.coord == first.coord;
        let mut members: Vec<(ir::Value, u8)> = Vec::new();
        for instr in &instrs[at..] {
            match (&instr.op, instr.dst) {
                (Op::TexelLoad(l), Some(d)) if same(l) => members.push((d, l.component & 3)),
                (op, _) if may_write_texels(op) => break,
                _ => {}
            }
        }
        let used = members.iter().fold(0u8, |m, (_, c)| m | 1 << c);
        let ty = texel_type(first.buffer.ty);
        match first.buffer.path {
            TexelPath::Sampled => {
                // isam writes the enabled components to consecutive registers from the
                // destination (the blob's `saml (f32)(yz)r1.z` writes y to r1.z and z to
                // r1.w). What a mask with a hole does is not publicly known: the mask
                // covers every component from the first read to the last.
                let up_to_last = 0xffu8 >> used.leading_zeros();
                let from_first = !((1u8 << used.trailing_zeros()) - 1);
                let mask = up_to_last & from_first;
                let (base, index) = self.tex_index(&first.buffer.resource)?;
                let group = self.m.new_vreg(mask.count_ones() as u8, false);
                let coord = self.m.new_vreg(2, false);
                self.copy_into(Comp(coord, 0), first.coord);
                self.copy_into(Comp(coord, 1), Src::Imm(0));
                self.emit(MOp::Tex {
                    op: Opcode::Isam,
                    ty,
                    wrmask: mask,
                    dst: Comp(group, 0),
                    coord: Some(Comp(coord, 0)),
                    base,
                    index,
                });
                let below = |c: u8| (mask & ((1 << c) - 1)).count_ones() as u8;
                self.copy_members(&members, group, below);
            }
            TexelPath::Storage => {
                // ldib loads the first `count` components.
                let (base, index) = self.desc(&first.buffer.resource)?;
                let count = 8 - used.leading_zeros() as u8;
                let group = self.m.new_vreg(count, false);
                let coord = self.reg(first.coord, false);
                self.emit(MOp::Ibo {
                    op: Opcode::LdibB,
                    ty,
                    typed: true,
                    count,
                    reg: Comp(group, 0),
                    coord,
                    base,
                    index,
                });
                self.copy_members(&members, group, |c| c);
            }
        }
        Ok(())
    }

    /// Copies each loaded component from its place in `group` into its IR value.
    fn copy_members(&mut self, members: &[(ir::Value, u8)], group: VReg, slot: impl Fn(u8) -> u8) {
        for &(value, c) in members {
            let to = self.vreg_of(value);
            self.mov(to.into(), Comp(group, slot(c)));
            self.texel_loaded.insert(value);
        }
    }

    pub(super) fn sel_texel_store(&mut self, st: &TexelStore) -> Result<()> {
        if st.buffer.path != TexelPath::Storage {
            return Err(err("stores to a uniform texel buffer are not possible"));
        }
        let count = st.values.len() as u8;
        if !(1..=4).contains(&count) {
            return Err(err(format!("a texel store of {count} components")));
        }
        let (base, index) = self.desc(&st.buffer.resource)?;
        let coord = self.reg(st.coord, false);
        let group = self.m.new_vreg(count, false);
        for (k, v) in st.values.iter().enumerate() {
            self.copy_into(Comp(group, k as u8), *v);
        }
        self.emit(MOp::Ibo {
            op: Opcode::StibB,
            ty: texel_type(st.buffer.ty),
            typed: true,
            count,
            reg: Comp(group, 0),
            coord,
            base,
            index,
        });
        Ok(())
    }

    pub(super) fn sel_texel_atomic(&mut self, dst: Comp, a: &TexelAtomic) -> Result<()> {
        if a.buffer.path != TexelPath::Storage {
            return Err(err("atomics on a uniform texel buffer are not possible"));
        }
        let (base, index) = self.desc(&a.buffer.resource)?;
        let coord = self.reg(a.coord, false);
        let atomic = IboAtomic {
            op: a.op,
            typed: true,
            base,
            index,
            coord,
            data: a.data,
            compare: a.compare,
        };
        self.ibo_atomic(dst, &atomic);
        Ok(())
    }

    pub(super) fn sel_texel_size(&mut self, dst: Comp, t: &TexelBuffer) -> Result<()> {
        match t.path {
            TexelPath::Sampled => {
                let (base, index) = self.tex_index(&t.resource)?;
                self.emit(MOp::Tex {
                    op: Opcode::Getbuf,
                    ty: Type::U32,
                    wrmask: 1,
                    dst,
                    coord: None,
                    base,
                    index,
                });
            }
            TexelPath::Storage => {
                // resinfo.b writes three components; .x is the texel count.
                let (base, index) = self.desc(&t.resource)?;
                let group = self.m.new_vreg(3, false);
                self.emit(MOp::Resinfo {
                    dst: Comp(group, 0),
                    base,
                    index,
                });
                self.mov(dst, Comp(group, 0));
            }
        }
        Ok(())
    }
}
