//! Texel buffers: OpTypeImage of dimension Buffer, as uniform texel buffers (Sampled 1,
//! `samplerBuffer`: OpImageFetch, OpImageQuerySize) and storage texel buffers (Sampled 2,
//! `imageBuffer`: OpImageRead, OpImageWrite, OpImageQuerySize and atomics through
//! OpImageTexelPointer), into the IR's texel operations.
//!
//! What the Vulkan environment of SPIR-V fixes and this relies on: a buffer's coordinate
//! is one integer (the texel index); OpImageFetch returns four components; an
//! OpImageWrite texel has at least as many components as the image format, and all four
//! when the format is Unknown (StorageImageWriteWithoutFormat); texel atomics are on
//! R32ui/R32i images, sample 0.

use super::function::{err, Comp, Ids, ImageRef, Ptr, PtrBase, Translator, Val};
use super::module::{Id, ImageType, Type};
use super::operands::{id_at, result_of};
use crate::error::Result;
use crate::ir::texel_format::TexelFormat;
use crate::ir::*;
use rspirv::dr;
use rspirv::spirv::{ImageFormat, ImageOperands, Op as SpvOp};

/// Image operands that do not change what a texel buffer access returns: memory-model
/// availability and visibility (the GPU's caches are handled by barriers), volatility,
/// the non-temporal hint, and SignExtend/ZeroExtend (glslang adds them to integer
/// accesses; Vulkan requires the view's numeric format to match the sampled type, so
/// the extension they ask for is the one the format's conversion does).
fn harmless_operands() -> ImageOperands {
    ImageOperands::MAKE_TEXEL_AVAILABLE
        | ImageOperands::MAKE_TEXEL_VISIBLE
        | ImageOperands::NON_PRIVATE_TEXEL
        | ImageOperands::VOLATILE_TEXEL
        | ImageOperands::NONTEMPORAL
        | ImageOperands::SIGN_EXTEND
        | ImageOperands::ZERO_EXTEND
}

impl Translator<'_> {
    fn image_type_of(&self, inst: &dr::Instruction, ty: Id) -> Result<ImageType> {
        match self.m.ty(ty)? {
            Type::Image(t) => Ok(t.clone()),
            Type::SampledImage { image } => self.image_type_of(inst, *image),
            Type::Unsupported(what) => Err(err(inst, format!("{what} are not supported"))),
            other => Err(err(inst, format!("{other:?} is not a texel buffer type"))),
        }
    }

    /// OpLoad of a texel buffer variable (or of an element of an array of them).
    pub(super) fn load_image(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<ImageRef> {
        let p = self.ptr(ids, inst, 0)?;
        self.image_of_pointer(inst, &p)
    }

    /// The texel buffer a pointer to a texel buffer variable names.
    fn image_of_pointer(&self, inst: &dr::Instruction, p: &Ptr) -> Result<ImageRef> {
        let PtrBase::Image {
            set,
            binding,
            index,
            array_pending,
        } = p.base
        else {
            return Err(err(inst, "the pointer is not to a texel buffer"));
        };
        if array_pending {
            return Err(err(
                inst,
                "loads an array of texel buffers without choosing an element",
            ));
        }
        let image = match self.m.ty(p.pointee)? {
            Type::SampledImage { image } => *image,
            _ => p.pointee,
        };
        self.image_type_of(inst, image)?;
        Ok(ImageRef {
            set,
            binding,
            index,
            ty: image,
        })
    }

    fn image_at(&self, ids: &Ids, inst: &dr::Instruction, i: usize) -> Result<ImageRef> {
        let id = id_at(inst, i)?;
        match self.get(ids, id) {
            Some(Val::Image(r)) => Ok(r),
            Some(_) => Err(err(inst, format!("%{id} is not a texel buffer"))),
            None => Err(self.undefined(inst, id)),
        }
    }

    /// The IR's name for the view `image` refers to.
    fn texel_buffer(&self, inst: &dr::Instruction, image: &ImageRef) -> Result<TexelBuffer> {
        let t = self.image_type_of(inst, image.ty)?;
        let path = match t.sampled {
            1 => TexelPath::Sampled,
            2 => TexelPath::Storage,
            s => {
                return Err(err(
                    inst,
                    format!("an image with Sampled {s}: Vulkan needs 1 (uniform) or 2 (storage)"),
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
                    format!("texel buffers of {other:?} components are not supported"),
                ))
            }
        };
        Ok(TexelBuffer {
            resource: Resource::Binding {
                set: image.set,
                binding: image.binding,
                index: image.index,
            },
            path,
            ty,
        })
    }

    /// The texel index operand `i`: one integer.
    fn texel_coord(&mut self, ids: &Ids, inst: &dr::Instruction, i: usize) -> Result<Src> {
        let c = self.comp(ids, inst, i)?;
        if c.len() != 1 || c.sizes[0] == BitSize::B1 {
            return Err(err(
                inst,
                "a texel buffer coordinate is one integer (the texel index)",
            ));
        }
        self.index32(c.srcs[0], c.sizes[0])
    }

    /// Refuses image operands that would change the access (Lod, Sample, offsets).
    fn check_image_operands(&self, inst: &dr::Instruction, first: usize) -> Result<()> {
        match inst.operands.get(first) {
            None => Ok(()),
            Some(dr::Operand::ImageOperands(ops)) => {
                let refused = *ops & !harmless_operands();
                if refused.is_empty() {
                    Ok(())
                } else {
                    Err(err(
                        inst,
                        format!("image operands {refused:?} are not supported on texel buffers"),
                    ))
                }
            }
            Some(other) => Err(err(inst, format!("unexpected operand {other:?}"))),
        }
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

    /// Translates one image instruction; the result, if it has one.
    pub(super) fn image_instruction(
        &mut self,
        ids: &Ids,
        inst: &dr::Instruction,
    ) -> Result<Option<Val>> {
        Ok(match inst.class.opcode {
            // The image of a sampled image: texel buffers have no sampler state.
            SpvOp::Image => Some(Val::Image(self.image_at(ids, inst, 0)?)),
            SpvOp::SampledImage => {
                return Err(err(
                    inst,
                    "combining a texel buffer with a separate sampler is not supported",
                ))
            }
            SpvOp::ImageFetch | SpvOp::ImageRead => {
                let image = self.image_at(ids, inst, 0)?;
                let buffer = self.texel_buffer(inst, &image)?;
                let want = if inst.class.opcode == SpvOp::ImageFetch {
                    TexelPath::Sampled
                } else {
                    TexelPath::Storage
                };
                if buffer.path != want {
                    return Err(err(
                        inst,
                        "OpImageFetch reads uniform texel buffers, OpImageRead storage ones",
                    ));
                }
                let coord = self.texel_coord(ids, inst, 1)?;
                self.check_image_operands(inst, 2)?;
                let sizes = self.texel_result_sizes(inst)?;
                let mut srcs = Vec::with_capacity(sizes.len());
                for component in 0..sizes.len() as u8 {
                    srcs.push(self.value(
                        Op::TexelLoad(TexelLoad {
                            buffer,
                            coord,
                            component,
                        }),
                        BitSize::B32,
                    )?);
                }
                Some(Val::Comp(Comp::new(srcs, sizes)))
            }
            SpvOp::ImageWrite => {
                let image = self.image_at(ids, inst, 0)?;
                let buffer = self.texel_buffer(inst, &image)?;
                if buffer.path != TexelPath::Storage {
                    return Err(err(inst, "writes a uniform texel buffer"));
                }
                let coord = self.texel_coord(ids, inst, 1)?;
                let texel = self.comp(ids, inst, 2)?;
                self.check_image_operands(inst, 3)?;
                let format = self.image_type_of(inst, image.ty)?.format;
                let count = match format {
                    ImageFormat::Unknown => 4,
                    f => TexelFormat::from_spirv(f)
                        .ok_or_else(|| {
                            err(
                                inst,
                                format!("format {f:?} is not supported for texel buffers"),
                            )
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
                        buffer,
                        coord,
                        values: texel.srcs[..count].iter().copied().collect(),
                    }),
                    None,
                )?;
                None
            }
            SpvOp::ImageQuerySize => {
                let image = self.image_at(ids, inst, 0)?;
                let buffer = self.texel_buffer(inst, &image)?;
                let sizes = self.result_sizes(inst)?;
                if sizes.len() != 1 || sizes[0] == BitSize::B1 {
                    return Err(err(inst, "a texel buffer's size is one integer"));
                }
                let texels = self.value(Op::TexelSize(buffer), BitSize::B32)?;
                let v = self.convert(
                    ConvKind::I2I { signed: false },
                    BitSize::B32,
                    sizes[0],
                    texels,
                )?;
                Some(Val::Comp(Comp::new(vec![v], sizes)))
            }
            SpvOp::ImageTexelPointer => {
                let p = self.ptr(ids, inst, 0)?;
                let image = self.image_of_pointer(inst, &p)?;
                let buffer = self.texel_buffer(inst, &image)?;
                if buffer.path != TexelPath::Storage {
                    return Err(err(inst, "texel pointers are into storage texel buffers"));
                }
                let coord = self.texel_coord(ids, inst, 1)?;
                let sample = self.comp(ids, inst, 2)?;
                if sample.srcs.first().and_then(|s| s.as_imm()) != Some(0) {
                    return Err(err(inst, "texel buffers have one sample: Sample must be 0"));
                }
                let (ty, _) = result_of(inst)?;
                let pointee = match self.m.ty(ty)? {
                    Type::Pointer { pointee, .. } => *pointee,
                    _ => return Err(err(inst, "the result type is not a pointer")),
                };
                Some(Val::Ptr(Ptr {
                    base: PtrBase::Texel { image, coord },
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
        coord: Src,
        op: AtomicOp,
        data: Src,
        compare: Option<Src>,
    ) -> Result<Src> {
        let buffer = self.texel_buffer(inst, &image)?;
        if buffer.ty == TexelType::Float {
            return Err(err(inst, "atomics on float texels are not supported"));
        }
        self.value(
            Op::TexelAtomic(TexelAtomic {
                buffer,
                coord,
                op,
                data,
                compare,
            }),
            BitSize::B32,
        )
    }
}
