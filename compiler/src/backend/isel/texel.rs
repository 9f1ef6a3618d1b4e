//! Instruction selection for texel buffers and images, in the forms freedreno's ir3
//! gives them on a6xx/a7xx (ir3_compiler_nir.c's emit_tex, emit_tex_txs and
//! emit_tex_info, ir3_a6xx.c's image intrinsics):
//!
//! - sampled views are read by the texture unit: a texel fetch is `isam`, or `isaml` with
//!   a level as the second source; an explicit-LOD sample is `saml` with float
//!   coordinates and the level second. The first source is the coordinates, then for a
//!   1D view (the hardware has no 1D: it reads a 2D texture of height 1) a y of 0 for a
//!   fetch or the row's centre 0.5 for a sample, then the layer of an array (`.a`);
//!   3D views set `.3d`. A uniform texel buffer is fetched as a 1D view with the texel
//!   index as x. Sizes are `getsize` at a level (an array's layers in `.w`), levels
//!   `getinfo`'s `.z`, a buffer's texels `getbuf` (`getsize` stops at 0x7ff0);
//! - storage views are reached by the SP's typed image instructions with one coordinate
//!   per dimension and the layer (`.d` counts them): `ldib.b.typed`, `stib.b.typed`, as
//!   many components as the load uses or the format has, `atomic.b.*.typed`, and
//!   `resinfo.b` for the size (layers in `.z`);
//! - the instruction's type is the image's sampled type (f32, s32, u32), and signed for
//!   the signed atomic minimum and maximum; the view's format converts;
//! - a texture instruction names its texture and sampler in one bindless set: both
//!   immediates below 16 (the instruction's 4-bit fields), otherwise a register pair
//!   (texture, sampler), "the indirect source is now a vec2" (ir3's
//!   get_tex_samp_tex_src). A fetch or size query uses sampler 0.
//!
//! The IR loads one component at a time (and asks a size one component at a time); the
//! loads of one texel in a block with no store, atomic or barrier between them, and the
//! size components of one view and level, become one instruction whose components are
//! copied out.

use super::*;
use crate::ir::{
    TexelAtomic, TexelDim, TexelLoad, TexelPath, TexelSize, TexelStore, TexelType, TexelView,
};

/// Bindless texture and sampler numbers an instruction can hold: 4 bits each
/// (ir3-cat5.xml, `#cat5-tex` and `#cat5-samp` in the bindless immediate mode).
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

/// The `.3d` and `.a` flags of a texture instruction on `v`.
fn tex_flags(v: &TexelView) -> (bool, bool) {
    (
        matches!(v.dim, TexelDim::D3 | TexelDim::Cube),
        v.arrayed && v.dim != TexelDim::Buffer,
    )
}

/// The register write mask covering every component of `used` from the first to the
/// last: a texture instruction writes the enabled components to consecutive registers
/// (the blob's `saml (f32)(yz)r1.z` writes y to r1.z and z to r1.w); what a mask with a
/// hole does is not publicly known.
fn covering_mask(used: u8) -> u8 {
    let up_to_last = 0xffu8 >> used.leading_zeros();
    let from_first = !((1u8 << used.trailing_zeros()) - 1);
    up_to_last & from_first
}

impl Sel<'_> {
    /// The bindless set and the texture (and with `sampled`, the sampler) of a sampled
    /// view.
    fn tex_slot(&mut self, v: &TexelView, sampled: bool) -> Result<(u8, TexSlot)> {
        let ir::Resource::Bindless { base, index: tex } = v.resource else {
            return Err(err("descriptors should have been lowered to bindless"));
        };
        let samp = match (sampled, v.sampler) {
            (false, _) => Src::Imm(0),
            (true, Some(ir::Resource::Bindless { base: b, index })) if b == base => index,
            (true, Some(ir::Resource::Bindless { base: b, .. })) => {
                return Err(err(format!(
                    "a sampler in descriptor set {b} for an image in set {base}: an image \
                     and its sampler in different sets are not supported"
                )))
            }
            (true, _) => return Err(err("a sampled load without a lowered sampler")),
        };
        let slot = match (tex, samp) {
            (Src::Imm(t), Src::Imm(s)) if t < TEX_IMMEDIATES && s < TEX_IMMEDIATES => {
                TexSlot::Imm {
                    tex: t as u8,
                    samp: s as u8,
                }
            }
            (t, s) => {
                let pair = self.m.new_vreg(2, false);
                self.copy_into(Comp(pair, 0), t);
                self.copy_into(Comp(pair, 1), s);
                TexSlot::Reg(Comp(pair, 0))
            }
        };
        Ok((base as u8, slot))
    }

    /// The first source of a texture instruction reading `v` at `coords`: the
    /// coordinates, a 1D view's y, a shadow lookup's reference, then an array's layer.
    fn tex_coords(
        &mut self,
        v: &TexelView,
        coords: &[Src],
        filtered: bool,
        compare: Option<Src>,
    ) -> (Comp, u8) {
        let mut srcs: SmallVec<[Src; 5]> = SmallVec::new();
        let dims = coords.len() - usize::from(v.arrayed && v.dim != TexelDim::Cube);
        srcs.extend_from_slice(&coords[..dims]);
        if dims == 1 {
            let y = if filtered { 0.5f32.to_bits() } else { 0 };
            srcs.push(Src::Imm(u64::from(y)));
        }
        srcs.extend(compare);
        srcs.extend_from_slice(&coords[dims..]);
        let group = self.m.new_vreg(srcs.len() as u8, false);
        for (k, s) in srcs.iter().enumerate() {
            self.copy_into(Comp(group, k as u8), *s);
        }
        (Comp(group, 0), srcs.len() as u8)
    }

    /// `samgq`'s first source: the coordinates padded to four, then their derivatives
    /// along x and along y (ir3's emit_tex for txd).
    fn gradient_coords(&mut self, coords: &[Src], gradients: &[Src]) -> (Comp, u8) {
        let n = 4 + gradients.len();
        let group = self.m.new_vreg(n as u8, false);
        for (k, s) in coords.iter().enumerate() {
            self.copy_into(Comp(group, k as u8), *s);
        }
        for k in coords.len()..4 {
            self.copy_into(Comp(group, k as u8), Src::Imm(0));
        }
        for (k, s) in gradients.iter().enumerate() {
            self.copy_into(Comp(group, (4 + k) as u8), *s);
        }
        (Comp(group, 0), n as u8)
    }

    /// Typed image access's coordinates: consecutive registers, one per coordinate.
    fn ibo_coords(&mut self, coords: &[Src]) -> (Comp, u8) {
        if let [c] = coords {
            return (self.reg(*c, false), 1);
        }
        let group = self.m.new_vreg(coords.len() as u8, false);
        for (k, s) in coords.iter().enumerate() {
            self.copy_into(Comp(group, k as u8), *s);
        }
        (Comp(group, 0), coords.len() as u8)
    }

    /// The texel load at `instrs[at]` with every later load of the same texel in the
    /// block that nothing could have changed meanwhile: one texture instruction or typed
    /// `ldib`.
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
        let same = |l: &TexelLoad| {
            l.view == first.view
                && l.coords == first.coords
                && l.lod == first.lod
                && l.filtered == first.filtered
                && l.extra == first.extra
        };
        let mut members: Vec<(ir::Value, u8)> = Vec::new();
        for instr in &instrs[at..] {
            match (&instr.op, instr.dst) {
                (Op::TexelLoad(l), Some(d)) if same(l) => members.push((d, l.component & 3)),
                (op, _) if may_write_texels(op) => break,
                _ => {}
            }
        }
        let used = members.iter().fold(0u8, |m, (_, c)| m | 1 << c);
        let v = &first.view;
        let ty = texel_type(v.ty);
        match v.path {
            TexelPath::Sampled => {
                let mask = covering_mask(used);
                let (base, index) = self.tex_slot(v, first.filtered)?;
                let coords = if first.extra.gradients.is_empty() {
                    self.tex_coords(v, &first.coords, first.filtered, first.extra.compare)
                } else {
                    self.gradient_coords(&first.coords, &first.extra.gradients)
                };
                // The offsets, then the level or bias.
                let second: SmallVec<[Src; 4]> = first
                    .extra
                    .offsets
                    .iter()
                    .copied()
                    .chain(first.lod.or(first.extra.bias))
                    .collect();
                let src2 = match second.as_slice() {
                    [] => None,
                    [one] => Some((self.reg(*one, false), 1)),
                    more => {
                        let group = self.m.new_vreg(more.len() as u8, false);
                        for (k, s) in more.iter().enumerate() {
                            self.copy_into(Comp(group, k as u8), *s);
                        }
                        Some((Comp(group, 0), more.len() as u8))
                    }
                };
                let op = match (
                    first.filtered,
                    first.lod,
                    first.extra.bias,
                    first.extra.gather,
                ) {
                    (true, _, _, Some(c)) => [
                        Opcode::Gather4r,
                        Opcode::Gather4g,
                        Opcode::Gather4b,
                        Opcode::Gather4a,
                    ][usize::from(c & 3)],
                    (true, _, _, _) if !first.extra.gradients.is_empty() => Opcode::Samgq,
                    (true, Some(_), _, _) => Opcode::Saml,
                    (true, None, Some(_), _) => Opcode::Samb,
                    // The quad's implicit level of detail.
                    (true, None, None, _) => Opcode::Sam,
                    (false, Some(_), _, _) => Opcode::Isaml,
                    (false, None, _, _) => Opcode::Isam,
                };
                let (is_3d, array) = tex_flags(v);
                let group = self.m.new_vreg(mask.count_ones() as u8, false);
                self.emit(MOp::Tex {
                    op,
                    ty,
                    wrmask: mask,
                    dst: Comp(group, 0),
                    coords: Some(coords),
                    src2,
                    is_3d,
                    array,
                    offset: !first.extra.offsets.is_empty(),
                    shadow: first.extra.compare.is_some(),
                    base,
                    index,
                });
                let below = |c: u8| (mask & ((1 << c) - 1)).count_ones() as u8;
                self.copy_members(&members, group, below);
            }
            TexelPath::Storage => {
                // ldib loads the first `count` components.
                let (base, index) = self.desc(&v.resource)?;
                let count = 8 - used.leading_zeros() as u8;
                let group = self.m.new_vreg(count, false);
                let (coord, dims) = self.ibo_coords(&first.coords);
                self.emit(MOp::Ibo {
                    op: Opcode::LdibB,
                    ty,
                    typed: true,
                    count,
                    reg: Comp(group, 0),
                    coord,
                    dims,
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
        if st.view.path != TexelPath::Storage {
            return Err(err("stores to a sampled view are not possible"));
        }
        let count = st.values.len() as u8;
        if !(1..=4).contains(&count) {
            return Err(err(format!("a texel store of {count} components")));
        }
        let (base, index) = self.desc(&st.view.resource)?;
        let (coord, dims) = self.ibo_coords(&st.coords);
        let group = self.m.new_vreg(count, false);
        for (k, v) in st.values.iter().enumerate() {
            self.copy_into(Comp(group, k as u8), *v);
        }
        self.emit(MOp::Ibo {
            op: Opcode::StibB,
            ty: texel_type(st.view.ty),
            typed: true,
            count,
            reg: Comp(group, 0),
            coord,
            dims,
            base,
            index,
        });
        Ok(())
    }

    pub(super) fn sel_texel_atomic(&mut self, dst: Comp, a: &TexelAtomic) -> Result<()> {
        if a.view.path != TexelPath::Storage {
            return Err(err("atomics on a sampled view are not possible"));
        }
        let (base, index) = self.desc(&a.view.resource)?;
        let (coord, dims) = self.ibo_coords(&a.coords);
        let atomic = IboAtomic {
            op: a.op,
            typed: true,
            base,
            index,
            coord,
            dims,
            data: a.data,
            compare: a.compare,
        };
        self.ibo_atomic(dst, &atomic);
        Ok(())
    }

    /// The size component at `instrs[at]` with every later one of the same view and level
    /// in the block: one `getbuf`, `getsize`, `getinfo` or `resinfo.b`.
    pub(super) fn sel_texel_size(&mut self, instrs: &[ir::Instr], at: usize) -> Result<()> {
        let Op::TexelSize(first) = &instrs[at].op else {
            return Err(err("not a size query"));
        };
        let Some(dst) = instrs[at].dst else {
            return Err(err("a size query has no result"));
        };
        if self.texel_loaded.contains(&dst) {
            return Ok(());
        }
        let v = first.view;
        // The levels come from getinfo, the rest from the size query.
        let levels = |t: &TexelSize| v.path == TexelPath::Sampled && t.component == 3;
        let same = |t: &TexelSize| t.view == v && t.lod == first.lod && levels(t) == levels(first);
        let members: Vec<(ir::Value, u8)> = instrs[at..]
            .iter()
            .filter_map(|i| match (&i.op, i.dst) {
                (Op::TexelSize(t), Some(d)) if same(t) => Some((d, t.component & 3)),
                _ => None,
            })
            .collect();
        match (v.path, v.dim) {
            (TexelPath::Sampled, TexelDim::Buffer) => {
                let (base, index) = self.tex_slot(&v, false)?;
                let group = self.m.new_vreg(1, false);
                self.emit(MOp::Tex {
                    op: Opcode::Getbuf,
                    ty: Type::U32,
                    wrmask: 1,
                    dst: Comp(group, 0),
                    coords: None,
                    src2: None,
                    is_3d: false,
                    array: false,
                    offset: false,
                    shadow: false,
                    base,
                    index,
                });
                self.copy_members(&members, group, |_| 0);
            }
            (TexelPath::Sampled, _) if levels(first) => {
                let (base, index) = self.tex_slot(&v, false)?;
                let group = self.m.new_vreg(1, false);
                self.emit(MOp::Tex {
                    op: Opcode::Getinfo,
                    ty: Type::U32,
                    wrmask: 0b0100,
                    dst: Comp(group, 0),
                    coords: None,
                    src2: None,
                    is_3d: false,
                    array: false,
                    offset: false,
                    shadow: false,
                    base,
                    index,
                });
                self.copy_members(&members, group, |_| 0);
            }
            (TexelPath::Sampled, _) => {
                let (base, index) = self.tex_slot(&v, false)?;
                let lod = self.reg(first.lod, false);
                let (is_3d, array) = tex_flags(&v);
                let group = self.m.new_vreg(4, false);
                self.emit(MOp::Tex {
                    op: Opcode::Getsize,
                    ty: Type::U32,
                    wrmask: 0b1111,
                    dst: Comp(group, 0),
                    coords: Some((lod, 1)),
                    src2: None,
                    is_3d,
                    array,
                    offset: false,
                    shadow: false,
                    base,
                    index,
                });
                // An array's layers are in .w (its .z, for 2D arrays, is the depth the
                // level minifies).
                let dims = v.coords() - usize::from(v.arrayed && v.dim != TexelDim::Cube);
                let slot = |c: u8| {
                    if array && usize::from(c) >= dims {
                        3
                    } else {
                        c
                    }
                };
                self.copy_members(&members, group, slot);
            }
            (TexelPath::Storage, _) => {
                // resinfo.b writes three components: a buffer's texels in .x, an image's
                // width, height and depth or layers.
                let (base, index) = self.desc(&v.resource)?;
                let group = self.m.new_vreg(3, false);
                self.emit(MOp::Resinfo {
                    dst: Comp(group, 0),
                    dims: v.coords() as u8,
                    base,
                    index,
                });
                self.copy_members(&members, group, |c| c);
            }
        }
        Ok(())
    }
}
