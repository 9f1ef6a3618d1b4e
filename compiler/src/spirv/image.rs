//! Texel buffers and images: OpTypeImage of dimension Buffer, 1D, 2D, 3D or Cube, read
//! through the texture unit when Sampled is 1 (`samplerBuffer`, `texture2D`,
//! `sampler2D`: OpImageFetch, OpImageSampleExplicitLod, OpImageQuerySizeLod,
//! OpImageQueryLevels) and through the shader processor's typed image access when it
//! is 2 (`imageBuffer`, `image2D`: OpImageRead, OpImageWrite, OpImageQuerySize and atomics
//! through OpImageTexelPointer), into the IR's texel operations. Samplers come from a
//! combined image sampler's binding or from a sampler variable joined by OpSampledImage.
//!
//! What the Vulkan environment of SPIR-V fixes and this relies on: a coordinate has one
//! component per dimension, then the layer of an array (a cube's face, `6 * layer +
//! face` in a cube array); OpImageFetch and sampling return four components; an
//! OpImageWrite texel has at least as many components as the image format, and all four
//! when the format is Unknown (StorageImageWriteWithoutFormat); texel atomics are on
//! R32ui/R32i images, sample 0; implicit-LOD sampling belongs to fragment shaders.
//!
//! Not supported, each refused by name: sampling cube maps, depth comparison, gathers,
//! offsets, gradients, projection, bias, minimum LOD, multisampled images.

use super::function::{err, Comp, Ids, ImageRef, Ptr, PtrBase, Translator, Val};
use super::module::{Id, ImageType, Type};
use super::operands::{id_at, result_of};
use crate::error::Result;
use crate::ir::texel_format::TexelFormat;
use crate::ir::*;
use crate::stage_info::Stage;
use rspirv::dr;
use rspirv::spirv::{ImageFormat, ImageOperands, Op as SpvOp};

/// Image operands that do not change what an access returns: memory-model availability
/// and visibility (the GPU's caches are handled by barriers), volatility, the
/// non-temporal hint, and SignExtend/ZeroExtend (glslang adds them to integer accesses;
/// Vulkan requires the view's numeric format to match the sampled type, so the extension
/// they ask for is the one the format's conversion does).
fn harmless_operands() -> ImageOperands {
    ImageOperands::MAKE_TEXEL_AVAILABLE
        | ImageOperands::MAKE_TEXEL_VISIBLE
        | ImageOperands::NON_PRIVATE_TEXEL
        | ImageOperands::VOLATILE_TEXEL
        | ImageOperands::NONTEMPORAL
        | ImageOperands::SIGN_EXTEND
        | ImageOperands::ZERO_EXTEND
}

/// The image operands of a sample that choose its level of detail.
#[derive(Default)]
struct LevelOperands {
    lod: Option<Src>,
    bias: Option<Src>,
    gradients: Vec<Src>,
    offsets: Vec<Src>,
}

/// Up to three coordinates, as a texel pointer keeps them.
pub(super) fn coords_of(c: &[Src]) -> ([Src; 3], u8) {
    let mut out = [Src::Imm(0); 3];
    out[..c.len()].copy_from_slice(c);
    (out, c.len() as u8)
}

impl Translator<'_> {
    fn image_type_of(&self, inst: &dr::Instruction, ty: Id) -> Result<ImageType> {
        match self.m.ty(ty)? {
            Type::Image(t) => Ok(t.clone()),
            Type::SampledImage { image } => self.image_type_of(inst, *image),
            Type::Unsupported(what) => Err(err(inst, format!("{what} are not supported"))),
            other => Err(err(inst, format!("{other:?} is not an image type"))),
        }
    }

    /// OpLoad of an image or sampler variable (or of an element of an array of them).
    pub(super) fn load_image(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Val> {
        let p = self.ptr(ids, inst, 0)?;
        if let (
            PtrBase::Image {
                set,
                binding,
                index,
                array_pending: false,
            },
            Type::Sampler,
        ) = (p.base, self.m.ty(p.pointee)?)
        {
            return Ok(Val::Sampler(Resource::Binding {
                set,
                binding,
                index,
            }));
        }
        Ok(Val::Image(self.image_of_pointer(inst, &p)?))
    }

    /// The image a pointer to an image variable names (a combined image sampler's with
    /// the binding as its sampler too).
    fn image_of_pointer(&self, inst: &dr::Instruction, p: &Ptr) -> Result<ImageRef> {
        let PtrBase::Image {
            set,
            binding,
            index,
            array_pending,
        } = p.base
        else {
            return Err(err(inst, "the pointer is not to an image"));
        };
        if array_pending {
            return Err(err(
                inst,
                "loads an array of images without choosing an element",
            ));
        }
        let (image, sampler) = match self.m.ty(p.pointee)? {
            Type::SampledImage { image } => (
                *image,
                Some(Resource::Binding {
                    set,
                    binding,
                    index,
                }),
            ),
            _ => (p.pointee, None),
        };
        self.image_type_of(inst, image)?;
        Ok(ImageRef {
            set,
            binding,
            index,
            ty: image,
            sampler,
        })
    }

    fn image_at(&self, ids: &Ids, inst: &dr::Instruction, i: usize) -> Result<ImageRef> {
        let id = id_at(inst, i)?;
        match self.get(ids, id) {
            Some(Val::Image(r)) => Ok(r),
            Some(_) => Err(err(inst, format!("%{id} is not an image"))),
            None => Err(self.undefined(inst, id)),
        }
    }

    fn sampler_at(&self, ids: &Ids, inst: &dr::Instruction, i: usize) -> Result<Resource> {
        let id = id_at(inst, i)?;
        match self.get(ids, id) {
            Some(Val::Sampler(r)) => Ok(r),
            Some(_) => Err(err(inst, format!("%{id} is not a sampler"))),
            None => Err(self.undefined(inst, id)),
        }
    }

    /// The IR's name for the view `image` refers to.
    fn texel_view(&self, inst: &dr::Instruction, image: &ImageRef) -> Result<TexelView> {
        let t = self.image_type_of(inst, image.ty)?;
        let path = match t.sampled {
            // An input attachment is read through the texture unit.
            _ if t.subpass => TexelPath::Sampled,
            1 => TexelPath::Sampled,
            2 => TexelPath::Storage,
            s => {
                return Err(err(
                    inst,
                    format!("an image with Sampled {s}: Vulkan needs 1 (sampled) or 2 (storage)"),
                ))
            }
        };
        let ty = match self.m.ty(t.sampled_type)? {
            Type::Float { width: 32 } => TexelType::Float,
            Type::Int {
                width: 32,
                signed: true,
            } => TexelType::Sint,
            Type::Int {
                width: 32,
                signed: false,
            } => TexelType::Uint,
            other => {
                return Err(err(
                    inst,
                    format!("images of {other:?} components are not supported"),
                ))
            }
        };
        Ok(TexelView {
            resource: Resource::Binding {
                set: image.set,
                binding: image.binding,
                index: image.index,
            },
            // A texel buffer's sampler is never used.
            sampler: image.sampler.filter(|_| t.dim != TexelDim::Buffer),
            path,
            ty,
            dim: t.dim,
            arrayed: t.arrayed,
        })
    }

    /// Integer coordinate operand `i` of an access to `view`: as many 32-bit integers as
    /// the view takes.
    fn int_coords(
        &mut self,
        ids: &Ids,
        inst: &dr::Instruction,
        i: usize,
        view: &TexelView,
    ) -> Result<Coords> {
        let c = self.comp(ids, inst, i)?;
        if c.len() != view.coords() || c.sizes.contains(&BitSize::B1) {
            return Err(err(
                inst,
                format!(
                    "a {:?}{} coordinate is {} integers",
                    view.dim,
                    if view.arrayed { " array" } else { "" },
                    view.coords()
                ),
            ));
        }
        let mut out = Coords::new();
        for (s, size) in c.srcs.iter().zip(&c.sizes) {
            out.push(self.index32(*s, *size)?);
        }
        Ok(out)
    }

    /// Float coordinate operand `i` of a filtered load from `view`: as many 32-bit floats
    /// as the view takes (the SPIR-V spec lets a vector be longer, unused components
    /// last).
    fn float_coords(
        &mut self,
        ids: &Ids,
        inst: &dr::Instruction,
        i: usize,
        view: &TexelView,
    ) -> Result<Coords> {
        let mut c = self.comp(ids, inst, i)?;
        if c.len() > view.coords() {
            c = Comp::new(
                c.srcs[..view.coords()].to_vec(),
                c.sizes[..view.coords()].to_vec(),
            );
        }
        if c.len() != view.coords() || c.sizes.iter().any(|s| *s != BitSize::B32) {
            return Err(err(
                inst,
                format!(
                    "a {:?}{} sampling coordinate is {} 32-bit floats",
                    view.dim,
                    if view.arrayed { " array" } else { "" },
                    view.coords()
                ),
            ));
        }
        Ok(c.srcs.iter().copied().collect())
    }

    /// The image operands from operand `first`: `Ok(Some(lod))` for a Lod operand where
    /// `lod_allowed`; operands that would change the access are refused.
    fn image_operands(
        &mut self,
        ids: &Ids,
        inst: &dr::Instruction,
        first: usize,
        lod_allowed: bool,
    ) -> Result<Option<Comp>> {
        let ops = match inst.operands.get(first) {
            None => return Ok(None),
            Some(dr::Operand::ImageOperands(ops)) => *ops,
            Some(other) => return Err(err(inst, format!("unexpected operand {other:?}"))),
        };
        let mut allowed = harmless_operands();
        if lod_allowed {
            allowed |= ImageOperands::LOD;
        }
        let refused = ops & !allowed;
        if !refused.is_empty() {
            return Err(err(
                inst,
                format!("image operands {refused:?} are not supported"),
            ));
        }
        if !ops.contains(ImageOperands::LOD) {
            return Ok(None);
        }
        // Operands follow the mask in the order of its bits: Bias (refused), then Lod.
        let lod = self.comp(ids, inst, first + 1)?;
        if lod.len() != 1 {
            return Err(err(inst, "a level of detail is one scalar"));
        }
        Ok(Some(lod))
    }

    /// subpassLoad: the input attachment's texel at the fragment's framebuffer position
    /// plus the coordinate operand (an offset from it), level 0.
    fn subpass_load(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Val> {
        if self.m.stage != Stage::Fragment {
            return Err(err(
                inst,
                "input attachments are read by fragment shaders only",
            ));
        }
        let image = self.image_at(ids, inst, 0)?;
        let view = self.texel_view(inst, &image)?;
        let offset = self.comp(ids, inst, 1)?;
        if offset.len() != 2 || offset.sizes.iter().any(|s| *s != BitSize::B32) {
            return Err(err(
                inst,
                "a subpass input's coordinate is two 32-bit integers",
            ));
        }
        self.image_operands(ids, inst, 2, false)?;
        let mut coords = Coords::new();
        for (c, off) in offset.srcs.iter().enumerate() {
            let at = self.value(Op::SysVal(SysVal::FragCoord(c as u8)), BitSize::B32)?;
            let at = self.convert(
                ConvKind::F2I { signed: true },
                BitSize::B32,
                BitSize::B32,
                at,
            )?;
            coords.push(self.alu(AluOp::IAdd, BitSize::B32, &[at, *off])?);
        }
        let load = TexelLoad {
            view,
            coords,
            lod: None,
            filtered: false,
            component: 0,
            extra: Box::default(),
        };
        self.texel_components(inst, load)
    }

    /// A sample's image operands from operand `first`: Bias (implicit levels of detail in
    /// fragment shaders only), or Lod or Grad (explicit ones).
    fn sample_operands(
        &mut self,
        ids: &Ids,
        inst: &dr::Instruction,
        first: usize,
        implicit: bool,
    ) -> Result<LevelOperands> {
        let mut out = LevelOperands::default();
        let ops = match inst.operands.get(first) {
            None => return Ok(out),
            Some(dr::Operand::ImageOperands(ops)) => *ops,
            Some(other) => return Err(err(inst, format!("unexpected operand {other:?}"))),
        };
        let allowed = harmless_operands()
            | ImageOperands::CONST_OFFSET
            | ImageOperands::OFFSET
            | if implicit {
                ImageOperands::BIAS
            } else {
                ImageOperands::LOD | ImageOperands::GRAD
            };
        let refused = ops & !allowed;
        if !refused.is_empty() {
            return Err(err(
                inst,
                format!("image operands {refused:?} are not supported here"),
            ));
        }
        // The operands follow the mask in the order of its bits: Bias, Lod, Grad.
        let mut next = first + 1;
        let mut scalar = |t: &mut Self, what: &str| -> Result<Src> {
            let c = t.comp(ids, inst, next)?;
            next += 1;
            match (c.len(), c.sizes.first()) {
                (1, Some(BitSize::B32)) => Ok(c.srcs[0]),
                _ => Err(err(inst, format!("{what} is one 32-bit float"))),
            }
        };
        if ops.contains(ImageOperands::BIAS) {
            out.bias = Some(scalar(self, "a bias")?);
        }
        if ops.contains(ImageOperands::LOD) {
            out.lod = Some(scalar(self, "a level of detail")?);
        }
        if ops.contains(ImageOperands::GRAD) {
            let (dx, dy) = (self.comp(ids, inst, next)?, self.comp(ids, inst, next + 1)?);
            if dx.len() != dy.len() || dx.sizes.iter().any(|s| *s != BitSize::B32) {
                return Err(err(inst, "gradients are two vectors of 32-bit floats"));
            }
            out.gradients = dx.srcs.iter().chain(&dy.srcs).copied().collect();
            next += 2;
        }
        if ops.intersects(ImageOperands::CONST_OFFSET | ImageOperands::OFFSET) {
            let o = self.comp(ids, inst, next)?;
            if o.sizes.iter().any(|s| *s != BitSize::B32) {
                return Err(err(inst, "texel offsets are 32-bit integers"));
            }
            out.offsets = o.srcs.to_vec();
        }
        Ok(out)
    }

    /// The 32-bit components of the result, at most four.
    fn texel_result_sizes(&self, inst: &dr::Instruction) -> Result<Vec<BitSize>> {
        let sizes = self.result_sizes(inst)?;
        if sizes.is_empty() || sizes.len() > 4 || sizes.iter().any(|s| *s != BitSize::B32) {
            return Err(err(
                inst,
                "the result is not a scalar or vector of up to four 32-bit components",
            ));
        }
        Ok(sizes)
    }

    /// The components of a load, one texel load each.
    fn texel_components(&mut self, inst: &dr::Instruction, load: TexelLoad) -> Result<Val> {
        let sizes = self.texel_result_sizes(inst)?;
        let mut srcs = Vec::with_capacity(sizes.len());
        for component in 0..sizes.len() as u8 {
            srcs.push(self.value(
                Op::TexelLoad(TexelLoad {
                    component,
                    ..load.clone()
                }),
                BitSize::B32,
            )?);
        }
        Ok(Val::Comp(Comp::new(srcs, sizes)))
    }

    /// OpImageQuerySize(Lod): one size component per dimension, then the layers of an
    /// array.
    fn image_size(&mut self, inst: &dr::Instruction, view: TexelView, lod: Src) -> Result<Val> {
        let sizes = self.result_sizes(inst)?;
        let want = match view.dim {
            TexelDim::Cube => 2 + usize::from(view.arrayed),
            _ => view.coords(),
        };
        if sizes.len() != want || sizes.contains(&BitSize::B1) {
            return Err(err(
                inst,
                format!("the size of a {:?} view is {want} integers", view.dim),
            ));
        }
        let cube_array = view.dim == TexelDim::Cube && view.arrayed;
        if cube_array && view.path == TexelPath::Sampled {
            return Err(err(
                inst,
                "the size of a sampled cube array is not supported",
            ));
        }
        let mut srcs = Vec::with_capacity(want);
        for (c, size) in sizes.iter().enumerate() {
            let mut v = self.value(
                Op::TexelSize(TexelSize {
                    view,
                    lod,
                    component: c as u8,
                }),
                BitSize::B32,
            )?;
            if cube_array && c == 2 {
                // A storage cube array is a 2D array of six faces per cube.
                v = self.alu(AluOp::UDiv, BitSize::B32, &[v, Src::Imm(6)])?;
            }
            srcs.push(self.convert(ConvKind::I2I { signed: false }, BitSize::B32, *size, v)?);
        }
        Ok(Val::Comp(Comp::new(srcs, sizes)))
    }

    /// Translates one image instruction; the result, if it has one.
    pub(super) fn image_instruction(
        &mut self,
        ids: &Ids,
        inst: &dr::Instruction,
    ) -> Result<Option<Val>> {
        Ok(match inst.class.opcode {
            // The image of a sampled image, without its sampler.
            SpvOp::Image => {
                let mut image = self.image_at(ids, inst, 0)?;
                image.sampler = None;
                Some(Val::Image(image))
            }
            SpvOp::SampledImage => {
                let mut image = self.image_at(ids, inst, 0)?;
                image.sampler = Some(self.sampler_at(ids, inst, 1)?);
                Some(Val::Image(image))
            }
            SpvOp::ImageRead
                if self
                    .image_type_of(inst, self.image_at(ids, inst, 0)?.ty)?
                    .subpass =>
            {
                Some(self.subpass_load(ids, inst)?)
            }
            SpvOp::ImageFetch | SpvOp::ImageRead => {
                let image = self.image_at(ids, inst, 0)?;
                let view = self.texel_view(inst, &image)?;
                let fetch = inst.class.opcode == SpvOp::ImageFetch;
                let want = if fetch {
                    TexelPath::Sampled
                } else {
                    TexelPath::Storage
                };
                if view.path != want {
                    return Err(err(
                        inst,
                        "OpImageFetch reads sampled images and uniform texel buffers, \
                         OpImageRead storage ones",
                    ));
                }
                let coords = self.int_coords(ids, inst, 1, &view)?;
                let lod_allowed = fetch && view.dim != TexelDim::Buffer;
                let lod = match self.image_operands(ids, inst, 2, lod_allowed)? {
                    Some(l) => Some(self.index32(l.srcs[0], l.sizes[0])?),
                    None => None,
                };
                let load = TexelLoad {
                    view,
                    coords,
                    lod,
                    filtered: false,
                    component: 0,
                    extra: Box::default(),
                };
                Some(self.texel_components(inst, load)?)
            }
            SpvOp::ImageSampleExplicitLod
            | SpvOp::ImageSampleImplicitLod
            | SpvOp::ImageSampleDrefExplicitLod
            | SpvOp::ImageSampleDrefImplicitLod => {
                let implicit = matches!(
                    inst.class.opcode,
                    SpvOp::ImageSampleImplicitLod | SpvOp::ImageSampleDrefImplicitLod
                );
                let shadow = matches!(
                    inst.class.opcode,
                    SpvOp::ImageSampleDrefExplicitLod | SpvOp::ImageSampleDrefImplicitLod
                );
                if implicit && self.m.stage != Stage::Fragment {
                    return Err(err(
                        inst,
                        "an implicit level of detail needs the derivatives only fragment \
                         shaders have",
                    ));
                }
                let image = self.image_at(ids, inst, 0)?;
                let view = self.texel_view(inst, &image)?;
                if view.sampler.is_none() || view.path != TexelPath::Sampled {
                    return Err(err(inst, "samples an image that has no sampler"));
                }
                match view.dim {
                    TexelDim::D1 | TexelDim::D2 | TexelDim::D3 => {}
                    // A direction: three coordinates with .3d, as ir3 passes them.
                    TexelDim::Cube if !view.arrayed => {}
                    TexelDim::Cube => {
                        return Err(err(inst, "sampling cube map arrays is not supported"))
                    }
                    TexelDim::Buffer => return Err(err(inst, "texel buffers are not sampled")),
                }
                let mut coords = self.float_coords(ids, inst, 1, &view)?;
                if view.arrayed {
                    // The hardware rounds the layer down: ir3 adds 0.5 to it on a4xx and
                    // later (array_index_add_half), which gives Vulkan's nearest layer.
                    let layer = coords.len() - 1;
                    coords[layer] = self.alu(
                        AluOp::FAdd,
                        BitSize::B32,
                        &[coords[layer], Src::Imm(u64::from(0.5f32.to_bits()))],
                    )?;
                }
                // An implicit level of detail is the quad's, from the coordinates'
                // derivatives: `sam` (`samb` with a bias) computes it.
                // A shadow lookup's reference precedes the image operands.
                let compare = if shadow {
                    let r = self.comp(ids, inst, 2)?;
                    match (r.len(), r.sizes.first()) {
                        (1, Some(BitSize::B32)) => Some(r.srcs[0]),
                        _ => return Err(err(inst, "the depth reference is one 32-bit float")),
                    }
                } else {
                    None
                };
                let mut ops = self.sample_operands(ids, inst, 2 + usize::from(shadow), implicit)?;
                if !ops.offsets.is_empty() && view.dim == TexelDim::D1 {
                    // The hardware samples a 1D view as a 2D one of height 1.
                    ops.offsets.push(Src::Imm(0));
                }
                if !implicit && ops.lod.is_none() && ops.gradients.is_empty() {
                    return Err(err(
                        inst,
                        "explicit-LOD sampling needs a Lod or Grad operand",
                    ));
                }
                if !ops.gradients.is_empty() && shadow {
                    return Err(err(inst, "shadow lookups with gradients are not supported"));
                }
                if !ops.gradients.is_empty() && (view.arrayed || view.dim == TexelDim::D1) {
                    return Err(err(
                        inst,
                        "sampling with gradients is supported for 2D and 3D images only",
                    ));
                }
                let load = TexelLoad {
                    view,
                    coords,
                    lod: ops.lod,
                    filtered: true,
                    component: 0,
                    extra: Box::new(SampleOperands {
                        bias: ops.bias,
                        gradients: ops.gradients,
                        offsets: ops.offsets,
                        compare,
                        gather: None,
                    }),
                };
                Some(self.texel_components(inst, load)?)
            }
            SpvOp::ImageGather => {
                // Gathers read level 0, in any stage.
                let image = self.image_at(ids, inst, 0)?;
                let view = self.texel_view(inst, &image)?;
                if view.sampler.is_none() || view.path != TexelPath::Sampled {
                    return Err(err(inst, "gathers from an image that has no sampler"));
                }
                if view.dim != TexelDim::D2 {
                    return Err(err(inst, "gathers are supported from 2D images only"));
                }
                let coords = self.float_coords(ids, inst, 1, &view)?;
                let component = self.comp(ids, inst, 2)?;
                let component = match component.srcs.first().and_then(|s| s.as_imm()) {
                    Some(c @ 0..=3) if component.len() == 1 => c as u8,
                    _ => return Err(err(inst, "the gathered component is a constant 0 to 3")),
                };
                // A texel offset (ConstOffset, or Offset with ImageGatherExtended); a
                // gather has no level of detail to give.
                let ops = self.sample_operands(ids, inst, 3, false)?;
                if ops.lod.is_some() || !ops.gradients.is_empty() {
                    return Err(err(inst, "a gather reads level 0: it takes no Lod or Grad"));
                }
                let load = TexelLoad {
                    view,
                    coords,
                    lod: None,
                    filtered: true,
                    component: 0,
                    extra: Box::new(SampleOperands {
                        gather: Some(component),
                        offsets: ops.offsets,
                        ..SampleOperands::default()
                    }),
                };
                Some(self.texel_components(inst, load)?)
            }
            SpvOp::ImageWrite => {
                let image = self.image_at(ids, inst, 0)?;
                let view = self.texel_view(inst, &image)?;
                if view.path != TexelPath::Storage {
                    return Err(err(inst, "writes a sampled image or uniform texel buffer"));
                }
                let coords = self.int_coords(ids, inst, 1, &view)?;
                let texel = self.comp(ids, inst, 2)?;
                self.image_operands(ids, inst, 3, false)?;
                let format = self.image_type_of(inst, image.ty)?.format;
                let count = match format {
                    ImageFormat::Unknown => 4,
                    f => TexelFormat::from_spirv(f)
                        .ok_or_else(|| {
                            err(inst, format!("format {f:?} is not supported for images"))
                        })?
                        .components(),
                };
                if texel.len() < count || texel.sizes.iter().any(|s| *s != BitSize::B32) {
                    return Err(err(
                        inst,
                        format!("the texel needs {count} 32-bit components for format {format:?}"),
                    ));
                }
                self.emit(
                    Op::TexelStore(TexelStore {
                        view,
                        coords,
                        values: texel.srcs[..count].iter().copied().collect(),
                    }),
                    None,
                )?;
                None
            }
            SpvOp::ImageQuerySize => {
                let image = self.image_at(ids, inst, 0)?;
                let view = self.texel_view(inst, &image)?;
                if view.path == TexelPath::Sampled && view.dim != TexelDim::Buffer {
                    return Err(err(
                        inst,
                        "the size of a sampled image is asked at a level (OpImageQuerySizeLod)",
                    ));
                }
                Some(self.image_size(inst, view, Src::Imm(0))?)
            }
            SpvOp::ImageQuerySizeLod => {
                let image = self.image_at(ids, inst, 0)?;
                let view = self.texel_view(inst, &image)?;
                if view.path != TexelPath::Sampled || view.dim == TexelDim::Buffer {
                    return Err(err(inst, "a size at a level is a sampled image's"));
                }
                let lod = self.comp(ids, inst, 1)?;
                if lod.len() != 1 {
                    return Err(err(inst, "a level is one integer"));
                }
                let lod = self.index32(lod.srcs[0], lod.sizes[0])?;
                Some(self.image_size(inst, view, lod)?)
            }
            SpvOp::ImageQueryLevels => {
                let image = self.image_at(ids, inst, 0)?;
                let view = self.texel_view(inst, &image)?;
                if view.path != TexelPath::Sampled || view.dim == TexelDim::Buffer {
                    return Err(err(inst, "only sampled images have levels to count"));
                }
                let sizes = self.result_sizes(inst)?;
                if sizes.len() != 1 || sizes[0] == BitSize::B1 {
                    return Err(err(inst, "the number of levels is one integer"));
                }
                let levels = self.value(
                    Op::TexelSize(TexelSize {
                        view,
                        lod: Src::Imm(0),
                        component: 3,
                    }),
                    BitSize::B32,
                )?;
                let v = self.convert(
                    ConvKind::I2I { signed: false },
                    BitSize::B32,
                    sizes[0],
                    levels,
                )?;
                Some(Val::Comp(Comp::new(vec![v], sizes)))
            }
            SpvOp::ImageTexelPointer => {
                let p = self.ptr(ids, inst, 0)?;
                let image = self.image_of_pointer(inst, &p)?;
                let view = self.texel_view(inst, &image)?;
                if view.path != TexelPath::Storage {
                    return Err(err(inst, "texel pointers are into storage images"));
                }
                let coords = self.int_coords(ids, inst, 1, &view)?;
                let sample = self.comp(ids, inst, 2)?;
                if sample.srcs.first().and_then(|s| s.as_imm()) != Some(0) {
                    return Err(err(inst, "images have one sample: Sample must be 0"));
                }
                let (ty, _) = result_of(inst)?;
                let pointee = match self.m.ty(ty)? {
                    Type::Pointer { pointee, .. } => *pointee,
                    _ => return Err(err(inst, "the result type is not a pointer")),
                };
                let (coords, count) = coords_of(&coords);
                Some(Val::Ptr(Ptr {
                    base: PtrBase::Texel {
                        image,
                        coords,
                        count,
                    },
                    pointee,
                    offset: Src::Imm(0),
                    matrix: None,
                    comp_stride: None,
                }))
            }
            _ => return Err(err(inst, "is not an image instruction")),
        })
    }

    /// An atomic on the texel a texel pointer names; its old value.
    pub(super) fn texel_atomic(
        &mut self,
        inst: &dr::Instruction,
        image: ImageRef,
        coords: Coords,
        op: AtomicOp,
        data: Src,
        compare: Option<Src>,
    ) -> Result<Src> {
        let view = self.texel_view(inst, &image)?;
        if view.ty == TexelType::Float {
            return Err(err(inst, "atomics on float texels are not supported"));
        }
        self.value(
            Op::TexelAtomic(TexelAtomic {
                view,
                coords,
                op,
                data,
                compare,
            }),
            BitSize::B32,
        )
    }
}
