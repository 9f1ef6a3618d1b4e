//! The module-level facts of a SPIR-V module: types, decorations, constants (with
//! specialisation applied), global variables and functions.

use super::operands::{describe, id_at, lit_at};
use crate::error::{CompileError, Result};
use crate::ir::{eval, AluOp, BitSize, ConvKind, TexelDim};
use crate::stage_info::Stage;
use rspirv::dr;
use rspirv::spirv::{BuiltIn, Decoration, Dim, ImageFormat, Op as SpvOp, StorageClass};
use std::collections::HashMap;

pub type Id = u32;

/// Largest number of scalar leaves a value may have. Types themselves are only bounded by
/// the memory they describe (an array in a buffer may have any length the 32-bit offsets
/// reach); a value is split into its scalars, each at least one instruction to compute or
/// move, so one with more scalars than a shader may have instructions is refused rather
/// than exhausting memory on a hostile module.
pub(super) const MAX_LEAVES: usize = super::function::MAX_INSTRS;

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Void,
    Bool,
    Int {
        width: u32,
        signed: bool,
    },
    Float {
        width: u32,
    },
    Vector {
        elem: Id,
        count: u32,
    },
    Matrix {
        column: Id,
        count: u32,
    },
    Array {
        elem: Id,
        len: u32,
    },
    RuntimeArray {
        elem: Id,
    },
    Struct {
        members: Vec<Id>,
    },
    Pointer {
        class: StorageClass,
        pointee: Id,
    },
    Function,
    /// OpTypeImage: a texel buffer or image view.
    Image(ImageType),
    /// OpTypeSampledImage: an image with its sampler (a combined image sampler; a texel
    /// buffer's sampler is never used).
    SampledImage {
        image: Id,
    },
    /// OpTypeSampler.
    Sampler,
    /// Other images, samplers and the like: named only to give a clear error where used.
    Unsupported(&'static str),
}

/// An image type the front end supports: a texel buffer, or a 1D, 2D, 3D or cube image,
/// possibly arrayed, of one sample.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageType {
    /// The scalar type of the components accesses see.
    pub sampled_type: Id,
    pub dim: TexelDim,
    pub arrayed: bool,
    /// 1: read through a sampler (a uniform texel buffer, a sampled image); 2: a storage
    /// texel buffer or image.
    pub sampled: u32,
    pub format: ImageFormat,
    /// A subpass input (Dim SubpassData): a 2D image the fragment shader reads at its own
    /// position, an input attachment.
    pub subpass: bool,
}

/// The length of an array of descriptors.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArrayLen {
    Fixed(u32),
    /// OpTypeRuntimeArray: as many as the descriptor set holds.
    Runtime,
}

#[derive(Clone, Debug, Default)]
pub struct Decorations {
    pub binding: Option<u32>,
    pub set: Option<u32>,
    pub builtin: Option<BuiltIn>,
    pub spec_id: Option<u32>,
    pub array_stride: Option<u32>,
    pub block: bool,
    pub buffer_block: bool,
    pub location: Option<u32>,
    pub component: Option<u32>,
    pub flat: bool,
    pub no_perspective: bool,
    pub centroid: bool,
    pub sample: bool,
    pub input_attachment_index: Option<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct MemberDecorations {
    pub offset: Option<u32>,
    pub matrix_stride: Option<u32>,
    pub row_major: bool,
    pub builtin: Option<BuiltIn>,
    pub location: Option<u32>,
    /// An interface block member's Component and interpolation decorations.
    pub component: Option<u32>,
    pub flat: bool,
    pub no_perspective: bool,
    pub centroid: bool,
    pub sample: bool,
}

/// A module-scope variable.
#[derive(Clone, Debug)]
pub struct Global {
    pub class: StorageClass,
    pub pointee: Id,
    pub initializer: Option<Id>,
}

pub struct Module {
    pub dr: dr::Module,
    pub types: HashMap<Id, Type>,
    pub decorations: HashMap<Id, Decorations>,
    pub member_decorations: HashMap<(Id, u32), MemberDecorations>,
    /// Constants as their scalar leaves' bit patterns.
    pub constants: HashMap<Id, Vec<u64>>,
    /// Scalars of all the constants, bounded like one value's.
    constant_scalars: usize,
    constant_types: HashMap<Id, Id>,
    pub globals: HashMap<Id, Global>,
    pub functions: HashMap<Id, usize>,
    pub glsl_std450: Option<Id>,
    pub names: HashMap<Id, String>,
    pub entry_function: Id,
    pub local_size: [u32; 3],
    /// The entry point's execution model.
    pub stage: Stage,
    /// ExecutionMode EarlyFragmentTests.
    pub early_fragment_tests: bool,
}

fn err(inst: &dr::Instruction, msg: impl std::fmt::Display) -> CompileError {
    CompileError::new(format!("{}: {msg}", describe(inst)))
}

impl Module {
    pub fn new(dr: dr::Module, entry: &str, spec_constants: &HashMap<u32, u64>) -> Result<Module> {
        let mut m = Module {
            dr,
            types: HashMap::new(),
            decorations: HashMap::new(),
            member_decorations: HashMap::new(),
            constants: HashMap::new(),
            constant_scalars: 0,
            constant_types: HashMap::new(),
            globals: HashMap::new(),
            functions: HashMap::new(),
            glsl_std450: None,
            names: HashMap::new(),
            entry_function: 0,
            local_size: [1, 1, 1],
            stage: Stage::Compute,
            early_fragment_tests: false,
        };
        m.read_header(entry)?;
        m.read_decorations()?;
        m.read_types_and_values(spec_constants)?;
        for (i, f) in m.dr.functions.iter().enumerate() {
            if let Some(id) = f.def.as_ref().and_then(|d| d.result_id) {
                m.functions.insert(id, i);
            }
        }
        if !m.functions.contains_key(&m.entry_function) {
            return Err(CompileError::new(format!(
                "OpEntryPoint names function %{} which the module does not define",
                m.entry_function
            )));
        }
        Ok(m)
    }

    fn read_header(&mut self, entry: &str) -> Result<()> {
        for inst in &self.dr.capabilities {
            use rspirv::spirv::Capability as C;
            let cap = match inst.operands.first() {
                Some(dr::Operand::Capability(c)) => *c,
                _ => return Err(err(inst, "missing capability operand")),
            };
            let supported = matches!(
                cap,
                C::Shader
                    | C::Int16
                    | C::Float16
                    | C::Int64
                    | C::StorageBuffer16BitAccess
                    | C::UniformAndStorageBuffer16BitAccess
                    | C::StoragePushConstant16
                    | C::VulkanMemoryModel
                    | C::VulkanMemoryModelDeviceScope
                    | C::Int64Atomics
                    | C::GroupNonUniform
                    | C::PhysicalStorageBufferAddresses
                    | C::GroupNonUniformVote
                    | C::GroupNonUniformBallot
                    | C::GroupNonUniformArithmetic
                    | C::GroupNonUniformQuad
                    | C::GroupNonUniformShuffle
                    | C::GroupNonUniformShuffleRelative
                    | C::SubgroupBallotKHR
                    | C::SubgroupVoteKHR
                    | C::Matrix
                    | C::SampledBuffer
                    | C::ImageBuffer
                    | C::ImageQuery
                    | C::StorageImageExtendedFormats
                    | C::StorageImageReadWithoutFormat
                    | C::StorageImageWriteWithoutFormat
                    | C::UniformTexelBufferArrayDynamicIndexing
                    | C::StorageTexelBufferArrayDynamicIndexing
                    | C::Sampled1D
                    | C::Image1D
                    | C::ImageCubeArray
                    | C::SampledImageArrayDynamicIndexing
                    | C::StorageImageArrayDynamicIndexing
                    // Descriptor indexing (SPV_EXT_descriptor_indexing): a runtime array's
                    // count is the pipeline layout's; an index in a register is per fiber
                    // (the `.nonuniform` mode of the bindless cat5 and cat6 forms,
                    // backend/emit.rs), so a NonUniform index needs nothing more.
                    | C::RuntimeDescriptorArray
                    | C::ShaderNonUniform
                    | C::UniformBufferArrayNonUniformIndexing
                    | C::SampledImageArrayNonUniformIndexing
                    | C::StorageBufferArrayNonUniformIndexing
                    | C::StorageImageArrayNonUniformIndexing
                    | C::UniformTexelBufferArrayNonUniformIndexing
                    | C::StorageTexelBufferArrayNonUniformIndexing
                    // Only DeviceIndex, which the front end knows (SPV_KHR_device_group).
                    | C::DeviceGroup
                    // Vertex shader outputs the VPC collects.
                    | C::ClipDistance
                    | C::CullDistance
                    // gl_BaseVertex / gl_BaseInstance (SPV_KHR_shader_draw_parameters).
                    | C::DrawParameters
                    // gl_ViewIndex (SPV_KHR_multiview), a driver parameter.
                    | C::MultiView
                    // gl_SampleID, gl_SamplePosition, sample interpolation.
                    | C::SampleRateShading
                    // dFdxFine, dFdyCoarse, ...
                    | C::DerivativeControl
                    | C::DemoteToHelperInvocation
                    // subpassInput, read as a texture at the fragment's position.
                    | C::InputAttachment
                    // textureGatherOffset with a non-constant offset.
                    | C::ImageGatherExtended
                    // OpSDot and the others (spirv/integer_dot.rs); 8-bit vectors need
                    // Int8, which is refused on its own.
                    | C::DotProduct
                    | C::DotProductInputAll
                    | C::DotProductInput4x8Bit
                    | C::DotProductInput4x8BitPacked
            );
            if !supported {
                return Err(err(inst, format!("capability {cap:?} is not supported")));
            }
        }
        for inst in &self.dr.ext_inst_imports {
            match inst.operands.first() {
                Some(dr::Operand::LiteralString(s)) if s == "GLSL.std.450" => {
                    self.glsl_std450 = inst.result_id;
                }
                Some(dr::Operand::LiteralString(s)) if s.starts_with("NonSemantic.") => {}
                other => {
                    return Err(err(
                        inst,
                        format!("extended instruction set {other:?} is not supported"),
                    ))
                }
            }
        }
        let mut found = None;
        for inst in &self.dr.entry_points {
            let model = match inst.operands.first() {
                Some(dr::Operand::ExecutionModel(m)) => *m,
                _ => return Err(err(inst, "missing execution model")),
            };
            let name = match inst.operands.get(2) {
                Some(dr::Operand::LiteralString(s)) => s.as_str(),
                _ => return Err(err(inst, "missing entry point name")),
            };
            if name == entry {
                use rspirv::spirv::ExecutionModel as X;
                self.stage = match model {
                    X::GLCompute => Stage::Compute,
                    X::Vertex => Stage::Vertex,
                    X::Fragment => Stage::Fragment,
                    _ => {
                        return Err(err(
                            inst,
                            format!("entry point \"{name}\" is a {model:?} shader; only compute (GLCompute), vertex and fragment shaders are supported"),
                        ))
                    }
                };
                found = Some(id_at(inst, 1)?);
            }
        }
        self.entry_function = found.ok_or_else(|| {
            CompileError::new(format!("the module has no entry point named \"{entry}\""))
        })?;
        for inst in &self.dr.debug_names {
            if inst.class.opcode == SpvOp::Name {
                if let (Ok(id), Some(dr::Operand::LiteralString(s))) =
                    (id_at(inst, 0), inst.operands.get(1))
                {
                    self.names.insert(id, s.clone());
                }
            }
        }
        Ok(())
    }

    fn read_decorations(&mut self) -> Result<()> {
        for inst in &self.dr.annotations {
            match inst.class.opcode {
                SpvOp::Decorate => {
                    let id = id_at(inst, 0)?;
                    let d = self.decorations.entry(id).or_default();
                    match inst.operands.get(1) {
                        Some(dr::Operand::Decoration(dec)) => match dec {
                            Decoration::Binding => d.binding = Some(lit_at(inst, 2)?),
                            Decoration::DescriptorSet => d.set = Some(lit_at(inst, 2)?),
                            Decoration::SpecId => d.spec_id = Some(lit_at(inst, 2)?),
                            Decoration::ArrayStride => d.array_stride = Some(lit_at(inst, 2)?),
                            Decoration::Block => d.block = true,
                            Decoration::BufferBlock => d.buffer_block = true,
                            Decoration::Location => d.location = Some(lit_at(inst, 2)?),
                            Decoration::InputAttachmentIndex => {
                                d.input_attachment_index = Some(lit_at(inst, 2)?)
                            }
                            Decoration::Component => d.component = Some(lit_at(inst, 2)?),
                            Decoration::Flat => d.flat = true,
                            Decoration::NoPerspective => d.no_perspective = true,
                            Decoration::Centroid => d.centroid = true,
                            Decoration::Sample => d.sample = true,
                            Decoration::BuiltIn => match inst.operands.get(2) {
                                Some(dr::Operand::BuiltIn(b)) => d.builtin = Some(*b),
                                _ => return Err(err(inst, "missing built-in operand")),
                            },
                            _ => {}
                        },
                        _ => return Err(err(inst, "missing decoration operand")),
                    }
                }
                SpvOp::MemberDecorate => {
                    let id = id_at(inst, 0)?;
                    let member = lit_at(inst, 1)?;
                    let d = self.member_decorations.entry((id, member)).or_default();
                    match inst.operands.get(2) {
                        Some(dr::Operand::Decoration(dec)) => match dec {
                            Decoration::Offset => d.offset = Some(lit_at(inst, 3)?),
                            Decoration::MatrixStride => d.matrix_stride = Some(lit_at(inst, 3)?),
                            Decoration::RowMajor => d.row_major = true,
                            Decoration::ColMajor => d.row_major = false,
                            Decoration::BuiltIn => match inst.operands.get(3) {
                                Some(dr::Operand::BuiltIn(b)) => d.builtin = Some(*b),
                                _ => return Err(err(inst, "missing built-in operand")),
                            },
                            Decoration::Location => d.location = Some(lit_at(inst, 3)?),
                            Decoration::Component => d.component = Some(lit_at(inst, 3)?),
                            Decoration::Flat => d.flat = true,
                            Decoration::NoPerspective => d.no_perspective = true,
                            Decoration::Centroid => d.centroid = true,
                            Decoration::Sample => d.sample = true,
                            _ => {}
                        },
                        _ => return Err(err(inst, "missing decoration operand")),
                    }
                }
                SpvOp::DecorationGroup | SpvOp::GroupDecorate | SpvOp::GroupMemberDecorate => {
                    return Err(err(inst, "decoration groups are not supported"))
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn read_types_and_values(&mut self, spec: &HashMap<u32, u64>) -> Result<()> {
        let insts = std::mem::take(&mut self.dr.types_global_values);
        let result = insts
            .iter()
            .try_for_each(|inst| self.read_global(inst, spec));
        self.dr.types_global_values = insts;
        result?;
        for inst in &self.dr.execution_modes {
            use rspirv::spirv::ExecutionMode as M;
            let mode = match inst.operands.get(1) {
                Some(dr::Operand::ExecutionMode(m)) => *m,
                _ => return Err(err(inst, "missing execution mode")),
            };
            if id_at(inst, 0)? != self.entry_function {
                continue;
            }
            match (inst.class.opcode, mode) {
                (SpvOp::ExecutionMode, M::LocalSize) => {
                    for (i, s) in self.local_size.iter_mut().enumerate() {
                        *s = lit_at(inst, 2 + i)?;
                    }
                }
                (SpvOp::ExecutionMode, M::EarlyFragmentTests) => {
                    self.early_fragment_tests = true;
                }
                // Loaded as an OpExecutionMode (spirv/mod.rs's
                // execution_mode_ids_as_modes); its operands are ids.
                (SpvOp::ExecutionMode, M::LocalSizeId) => {
                    for i in 0..3 {
                        let id = id_at(inst, 2 + i)?;
                        self.local_size[i] = self
                            .scalar_constant(id)
                            .ok_or_else(|| err(inst, format!("%{id} is not a scalar constant")))?
                            as u32;
                    }
                }
                _ => {}
            }
        }
        // A constant decorated BuiltIn WorkgroupSize overrides the execution mode.
        for (id, d) in &self.decorations {
            if d.builtin == Some(BuiltIn::WorkgroupSize) {
                if let Some(c) = self.constants.get(id) {
                    if c.len() == 3 {
                        self.local_size = [c[0] as u32, c[1] as u32, c[2] as u32];
                    }
                }
            }
        }
        if self.local_size.contains(&0) {
            return Err(CompileError::new(format!(
                "workgroup size {:?} has a zero dimension",
                self.local_size
            )));
        }
        Ok(())
    }

    fn defined_type(&self, inst: &dr::Instruction, id: Id) -> Result<()> {
        if self.types.contains_key(&id) {
            Ok(())
        } else {
            Err(err(inst, format!("%{id} is not a type defined before it")))
        }
    }

    fn read_global(&mut self, inst: &dr::Instruction, spec: &HashMap<u32, u64>) -> Result<()> {
        let result = inst.result_id;
        let rid = || result.ok_or_else(|| err(inst, "missing result id"));
        let op = inst.class.opcode;
        let ty = match op {
            SpvOp::TypeVoid => Some(Type::Void),
            SpvOp::TypeBool => Some(Type::Bool),
            SpvOp::TypeInt => Some(Type::Int {
                width: lit_at(inst, 0)?,
                signed: lit_at(inst, 1)? != 0,
            }),
            SpvOp::TypeFloat => Some(Type::Float {
                width: lit_at(inst, 0)?,
            }),
            SpvOp::TypeVector | SpvOp::TypeMatrix => {
                let elem = id_at(inst, 0)?;
                self.defined_type(inst, elem)?;
                let count = lit_at(inst, 1)?;
                if !(2..=4).contains(&count) {
                    return Err(err(inst, format!("{count} components")));
                }
                Some(if op == SpvOp::TypeVector {
                    Type::Vector { elem, count }
                } else {
                    Type::Matrix {
                        column: elem,
                        count,
                    }
                })
            }
            SpvOp::TypeArray => {
                let elem = id_at(inst, 0)?;
                self.defined_type(inst, elem)?;
                let len_id = id_at(inst, 1)?;
                let len = self
                    .scalar_constant(len_id)
                    .ok_or_else(|| err(inst, format!("length %{len_id} is not a constant")))?;
                if len == 0 || len > u64::from(u32::MAX) {
                    return Err(err(inst, format!("array length {len} is out of range")));
                }
                Some(Type::Array {
                    elem,
                    len: len as u32,
                })
            }
            SpvOp::TypeRuntimeArray => {
                let elem = id_at(inst, 0)?;
                self.defined_type(inst, elem)?;
                Some(Type::RuntimeArray { elem })
            }
            SpvOp::TypeStruct => {
                let mut members = Vec::new();
                for i in 0..inst.operands.len() {
                    let m = id_at(inst, i)?;
                    self.defined_type(inst, m)?;
                    members.push(m);
                }
                Some(Type::Struct { members })
            }
            SpvOp::TypePointer => {
                let class = match inst.operands.first() {
                    Some(dr::Operand::StorageClass(c)) => *c,
                    _ => return Err(err(inst, "missing storage class")),
                };
                // Only a physical storage buffer pointer may point to a type defined
                // later (declared by OpTypeForwardPointer); its pointee is looked up
                // when the pointer is used.
                let pointee = id_at(inst, 1)?;
                if class != StorageClass::PhysicalStorageBuffer {
                    self.defined_type(inst, pointee)?;
                }
                Some(Type::Pointer { class, pointee })
            }
            SpvOp::TypeFunction => Some(Type::Function),
            SpvOp::TypeImage => Some(self.image_type(inst)?),
            SpvOp::TypeSampler => Some(Type::Sampler),
            SpvOp::TypeSampledImage => {
                let image = id_at(inst, 0)?;
                Some(match self.types.get(&image) {
                    Some(Type::Image(_)) => Type::SampledImage { image },
                    Some(Type::Unsupported(what)) => Type::Unsupported(what),
                    _ => return Err(err(inst, format!("%{image} is not an image type"))),
                })
            }
            SpvOp::TypeForwardPointer => match inst.operands.get(1) {
                // A device address until the OpTypePointer that follows names its
                // pointee (struct members may hold it before).
                Some(dr::Operand::StorageClass(StorageClass::PhysicalStorageBuffer)) => {
                    let id = id_at(inst, 0)?;
                    self.types.insert(
                        id,
                        Type::Pointer {
                            class: StorageClass::PhysicalStorageBuffer,
                            pointee: 0,
                        },
                    );
                    return Ok(());
                }
                _ => {
                    return Err(err(
                        inst,
                        "only physical storage buffer pointers are forward-declared",
                    ))
                }
            },
            _ => None,
        };
        if let Some(t) = ty {
            self.types.insert(rid()?, t);
            return Ok(());
        }
        match op {
            SpvOp::Constant
            | SpvOp::SpecConstant
            | SpvOp::ConstantTrue
            | SpvOp::ConstantFalse
            | SpvOp::SpecConstantTrue
            | SpvOp::SpecConstantFalse
            | SpvOp::ConstantNull
            | SpvOp::ConstantComposite
            | SpvOp::SpecConstantComposite
            | SpvOp::SpecConstantOp => {
                let id = rid()?;
                let ty = inst.result_type.ok_or_else(|| err(inst, "missing type"))?;
                self.defined_type(inst, ty)?;
                let leaves = self.constant_leaves(inst, ty, spec)?;
                self.constant_scalars += leaves.len();
                if self.constant_scalars > MAX_LEAVES {
                    return Err(err(
                        inst,
                        format!("the module's constants have more than {MAX_LEAVES} scalars"),
                    ));
                }
                self.constants.insert(id, leaves);
                self.constant_types.insert(id, ty);
            }
            SpvOp::Variable => {
                let id = rid()?;
                let ptr_ty = inst.result_type.ok_or_else(|| err(inst, "missing type"))?;
                let (class, pointee) = match self.types.get(&ptr_ty) {
                    Some(Type::Pointer { class, pointee }) => (*class, *pointee),
                    _ => return Err(err(inst, "result type is not a pointer")),
                };
                let initializer = id_at(inst, 1).ok();
                self.globals.insert(
                    id,
                    Global {
                        class,
                        pointee,
                        initializer,
                    },
                );
            }
            SpvOp::Undef => {
                let id = rid()?;
                let ty = inst.result_type.ok_or_else(|| err(inst, "missing type"))?;
                let n = self.leaves(ty).map_err(|e| err(inst, e))?.len();
                self.constants.insert(id, vec![0; n]);
            }
            SpvOp::Line | SpvOp::NoLine | SpvOp::ExtInst => {}
            _ => return Err(err(inst, "is not supported at module scope")),
        }
        Ok(())
    }

    /// OpTypeImage: texel buffers and single-sampled 1D, 2D, 3D and cube images become
    /// [`Type::Image`]; other kinds are refused where they are used.
    fn image_type(&self, inst: &dr::Instruction) -> Result<Type> {
        let sampled_type = id_at(inst, 0)?;
        self.defined_type(inst, sampled_type)?;
        let dim = match inst.operands.get(1) {
            Some(dr::Operand::Dim(d)) => *d,
            _ => return Err(err(inst, "missing dimension")),
        };
        let arrayed = lit_at(inst, 3)? != 0;
        let multisampled = lit_at(inst, 4)? != 0;
        let sampled = lit_at(inst, 5)?;
        let format = match inst.operands.get(6) {
            Some(dr::Operand::ImageFormat(f)) => *f,
            _ => return Err(err(inst, "missing image format")),
        };
        let subpass = dim == Dim::DimSubpassData;
        let dim = match dim {
            Dim::DimBuffer => TexelDim::Buffer,
            Dim::Dim1D => TexelDim::D1,
            Dim::Dim2D => TexelDim::D2,
            Dim::Dim3D => TexelDim::D3,
            Dim::DimCube => TexelDim::Cube,
            Dim::DimRect => return Ok(Type::Unsupported("rectangle images")),
            // Read as a 2D texture at the fragment's position (what Turnip does in
            // sysmem rendering).
            Dim::DimSubpassData => TexelDim::D2,
            _ => return Ok(Type::Unsupported("images of this dimension")),
        };
        if multisampled {
            return Ok(Type::Unsupported("multisampled images"));
        }
        Ok(Type::Image(ImageType {
            sampled_type,
            dim,
            arrayed,
            sampled,
            format,
            subpass,
        }))
    }

    pub fn scalar_constant(&self, id: Id) -> Option<u64> {
        match self.constants.get(&id) {
            Some(v) if v.len() == 1 => Some(v[0]),
            _ => None,
        }
    }

    fn constant_leaves(
        &self,
        inst: &dr::Instruction,
        ty: Id,
        spec: &HashMap<u32, u64>,
    ) -> Result<Vec<u64>> {
        let op = inst.class.opcode;
        let leaves = self.leaves(ty).map_err(|e| err(inst, e))?;
        let id = inst.result_id.unwrap_or(0);
        let spec_value = self
            .decorations
            .get(&id)
            .and_then(|d| d.spec_id)
            .and_then(|s| spec.get(&s).copied());
        let mask = leaves.first().map_or(u64::MAX, |s| s.mask());
        Ok(match op {
            SpvOp::Constant | SpvOp::SpecConstant => {
                let lit = match inst.operands.first() {
                    Some(dr::Operand::LiteralBit32(v)) => *v as u64,
                    Some(dr::Operand::LiteralBit64(v)) => *v,
                    _ => return Err(err(inst, "missing literal value")),
                };
                if leaves.len() != 1 || leaves[0] == BitSize::B1 {
                    return Err(err(inst, "type is not a numeric scalar"));
                }
                let v = if op == SpvOp::SpecConstant {
                    spec_value.unwrap_or(lit)
                } else {
                    lit
                };
                vec![v & mask]
            }
            SpvOp::ConstantTrue | SpvOp::ConstantFalse => {
                vec![(op == SpvOp::ConstantTrue) as u64]
            }
            SpvOp::SpecConstantTrue | SpvOp::SpecConstantFalse => {
                let default = (op == SpvOp::SpecConstantTrue) as u64;
                vec![spec_value.map_or(default, |v| (v != 0) as u64)]
            }
            SpvOp::ConstantNull => vec![0; leaves.len()],
            SpvOp::ConstantComposite | SpvOp::SpecConstantComposite => {
                let mut out = Vec::new();
                for i in 0..inst.operands.len() {
                    let c = id_at(inst, i)?;
                    let v = self
                        .constants
                        .get(&c)
                        .ok_or_else(|| err(inst, format!("%{c} is not a constant")))?;
                    out.extend_from_slice(v);
                }
                if out.len() != leaves.len() {
                    return Err(err(inst, "constituents do not match the type"));
                }
                out
            }
            SpvOp::SpecConstantOp => self.spec_constant_op(inst, &leaves)?,
            _ => unreachable!("caller matched the opcode"),
        })
    }

    /// Where the part of constant `composite` that the literal indices from operand
    /// `first` name lies among its leaves: (first leaf, count).
    fn constant_part(
        &self,
        inst: &dr::Instruction,
        composite: Id,
        first: usize,
    ) -> Result<(usize, usize)> {
        let e = |m: String| err(inst, m);
        let mut ty = self
            .constant_type(composite)
            .ok_or_else(|| err(inst, format!("%{composite} is not a constant")))?;
        let mut start = 0usize;
        for i in first..inst.operands.len() {
            let k = lit_at(inst, i)? as usize;
            let (elem, before) = match self.ty(ty)? {
                Type::Struct { members } => {
                    let m = *members
                        .get(k)
                        .ok_or_else(|| err(inst, format!("no member {k}")))?;
                    let mut before = 0;
                    for p in &members[..k] {
                        before += self.leaves(*p).map_err(e)?.len();
                    }
                    (m, before)
                }
                Type::Vector { elem, count }
                | Type::Array { elem, len: count }
                | Type::Matrix {
                    column: elem,
                    count,
                } => {
                    if k >= *count as usize {
                        return Err(err(inst, format!("index {k} is out of range")));
                    }
                    (*elem, k * self.leaves(*elem).map_err(e)?.len())
                }
                _ => return Err(err(inst, "indexes into a scalar")),
            };
            start += before;
            ty = elem;
        }
        Ok((start, self.leaves(ty).map_err(e)?.len()))
    }

    /// OpSpecConstantOp: the operations the SPIR-V specification allows in shaders,
    /// evaluated now that specialisation values are known.
    fn spec_constant_op(&self, inst: &dr::Instruction, leaves: &[BitSize]) -> Result<Vec<u64>> {
        let opcode = match inst.operands.first() {
            Some(dr::Operand::LiteralSpecConstantOpInteger(o)) => *o,
            _ => return Err(err(inst, "missing opcode")),
        };
        let arg = |i: usize| -> Result<Vec<u64>> {
            let id = id_at(inst, i + 1)?;
            self.constants
                .get(&id)
                .cloned()
                .ok_or_else(|| err(inst, format!("operand %{id} is not a constant")))
        };
        let arg_size = |i: usize| -> Result<BitSize> {
            let id = id_at(inst, i + 1)?;
            let ty = self
                .constant_type(id)
                .ok_or_else(|| err(inst, "operand type"))?;
            Ok(self.leaves(ty).map_err(|e| err(inst, e))?[0])
        };
        let alu = |op: AluOp, swap: bool, not: bool| -> Result<Vec<u64>> {
            let size = arg_size(0)?;
            let srcs: Vec<Vec<u64>> = (0..op.arity()).map(arg).collect::<Result<_>>()?;
            let n = srcs[0].len();
            (0..n)
                .map(|c| {
                    let mut s: Vec<u64> = srcs
                        .iter()
                        .map(|v| v.get(c).copied().unwrap_or(0))
                        .collect();
                    if swap {
                        s.swap(0, 1);
                    }
                    let r = eval::eval_alu(op, size, &s)
                        .ok_or_else(|| err(inst, format!("{opcode:?} has an undefined result")))?;
                    Ok(if not { r ^ 1 } else { r })
                })
                .collect()
        };
        use AluOp::*;
        let r = match opcode {
            SpvOp::IAdd => alu(IAdd, false, false)?,
            SpvOp::ISub => alu(ISub, false, false)?,
            SpvOp::IMul => alu(IMul, false, false)?,
            SpvOp::UDiv => alu(UDiv, false, false)?,
            SpvOp::SDiv => alu(SDiv, false, false)?,
            SpvOp::UMod => alu(UMod, false, false)?,
            SpvOp::SRem => alu(SRem, false, false)?,
            SpvOp::SMod => alu(SMod, false, false)?,
            SpvOp::SNegate => alu(INeg, false, false)?,
            SpvOp::Not => alu(Not, false, false)?,
            SpvOp::ShiftLeftLogical => alu(Shl, false, false)?,
            SpvOp::ShiftRightLogical => alu(UShr, false, false)?,
            SpvOp::ShiftRightArithmetic => alu(SShr, false, false)?,
            SpvOp::BitwiseAnd | SpvOp::LogicalAnd => alu(And, false, false)?,
            SpvOp::BitwiseOr | SpvOp::LogicalOr => alu(Or, false, false)?,
            SpvOp::BitwiseXor | SpvOp::LogicalNotEqual => alu(Xor, false, false)?,
            SpvOp::LogicalEqual => alu(Xor, false, true)?,
            SpvOp::LogicalNot => alu(Not, false, false)?,
            SpvOp::IEqual => alu(IEq, false, false)?,
            SpvOp::INotEqual => alu(INe, false, false)?,
            SpvOp::ULessThan => alu(ULt, false, false)?,
            SpvOp::SLessThan => alu(SLt, false, false)?,
            SpvOp::UGreaterThan => alu(ULt, true, false)?,
            SpvOp::SGreaterThan => alu(SLt, true, false)?,
            SpvOp::ULessThanEqual => alu(ULe, false, false)?,
            SpvOp::SLessThanEqual => alu(SLe, false, false)?,
            SpvOp::UGreaterThanEqual => alu(ULe, true, false)?,
            SpvOp::SGreaterThanEqual => alu(SLe, true, false)?,
            SpvOp::Select => {
                let (c, a, b) = (arg(0)?, arg(1)?, arg(2)?);
                (0..a.len())
                    .map(|i| {
                        let cond = c.get(i).or(c.first()).copied().unwrap_or(0);
                        if cond & 1 != 0 {
                            a[i]
                        } else {
                            b.get(i).copied().unwrap_or(0)
                        }
                    })
                    .collect()
            }
            SpvOp::SConvert | SpvOp::UConvert => {
                let from = arg_size(0)?;
                let signed = opcode == SpvOp::SConvert;
                arg(0)?
                    .iter()
                    .map(|v| {
                        eval::eval_convert(ConvKind::I2I { signed }, from, leaves[0], *v)
                            .unwrap_or(0)
                    })
                    .collect()
            }
            SpvOp::FConvert => {
                let from = arg_size(0)?;
                arg(0)?
                    .iter()
                    .map(|v| eval::eval_convert(ConvKind::F2F, from, leaves[0], *v).unwrap_or(0))
                    .collect()
            }
            SpvOp::CompositeExtract => {
                let composite = id_at(inst, 1)?;
                let (start, n) = self.constant_part(inst, composite, 2)?;
                arg(0)?[start..start + n].to_vec()
            }
            SpvOp::CompositeInsert | SpvOp::VectorShuffle => {
                return Err(err(
                    inst,
                    format!("{opcode:?} in OpSpecConstantOp is not supported"),
                ))
            }
            _ => {
                return Err(err(
                    inst,
                    format!("{opcode:?} is not allowed in OpSpecConstantOp"),
                ))
            }
        };
        if r.len() != leaves.len() {
            return Err(err(inst, "result does not match its type"));
        }
        Ok(r)
    }

    pub fn constant_type(&self, id: Id) -> Option<Id> {
        self.constant_types.get(&id).copied()
    }

    pub fn ty(&self, id: Id) -> Result<&Type> {
        self.types
            .get(&id)
            .ok_or_else(|| CompileError::new(format!("%{id} is not a type")))
    }

    /// The IR size of a scalar type.
    pub fn scalar_size(&self, ty: &Type) -> std::result::Result<BitSize, String> {
        match ty {
            Type::Bool => Ok(BitSize::B1),
            Type::Int { width: 16, .. } | Type::Float { width: 16 } => Ok(BitSize::B16),
            Type::Int { width: 32, .. } | Type::Float { width: 32 } => Ok(BitSize::B32),
            Type::Int { width: 64, .. } => Ok(BitSize::B64),
            // A device address.
            Type::Pointer {
                class: StorageClass::PhysicalStorageBuffer,
                ..
            } => Ok(BitSize::B64),
            Type::Float { width: 64 } => {
                Err("64-bit floats are not supported (ir3 has no fp64)".into())
            }
            Type::Int { width, .. } | Type::Float { width } => {
                Err(format!("{width}-bit scalars are not supported"))
            }
            other => Err(format!("{other:?} is not a scalar type")),
        }
    }

    /// The scalar leaves of a type, in order (vector components, matrix columns' components,
    /// array elements, struct members).
    pub fn leaves(&self, ty: Id) -> std::result::Result<Vec<BitSize>, String> {
        let mut out = Vec::new();
        self.push_leaves(ty, &mut out)?;
        Ok(out)
    }

    fn push_leaves(&self, ty: Id, out: &mut Vec<BitSize>) -> std::result::Result<(), String> {
        if out.len() > MAX_LEAVES {
            return Err(format!("a type has more than {MAX_LEAVES} scalars"));
        }
        let t = self.types.get(&ty).ok_or(format!("%{ty} is not a type"))?;
        match t {
            Type::Vector { elem, count } | Type::Array { elem, len: count } => {
                let start = out.len();
                self.push_leaves(*elem, out)?;
                let one: Vec<BitSize> = out[start..].to_vec();
                if one.len().saturating_mul(*count as usize) > MAX_LEAVES {
                    return Err(format!("a type has more than {MAX_LEAVES} scalars"));
                }
                for _ in 1..*count {
                    out.extend_from_slice(&one);
                }
                Ok(())
            }
            Type::Matrix { column, count } => {
                for _ in 0..*count {
                    self.push_leaves(*column, out)?;
                }
                Ok(())
            }
            Type::Struct { members } => {
                for m in members {
                    self.push_leaves(*m, out)?;
                }
                Ok(())
            }
            Type::RuntimeArray { .. } => Err("runtime arrays have no fixed size".into()),
            Type::Pointer { class, .. } if *class != StorageClass::PhysicalStorageBuffer => {
                Err("pointers cannot be stored in values".into())
            }
            Type::Image(_) | Type::SampledImage { .. } | Type::Sampler => {
                Err("images and samplers are descriptors, not values with components".into())
            }
            Type::Unsupported(what) => Err(format!("{what} are not supported")),
            Type::Void | Type::Function => Err(format!("{t:?} has no value")),
            scalar => {
                out.push(self.scalar_size(scalar)?);
                Ok(())
            }
        }
    }

    /// A resource variable's element type (a block, an image) and, when the variable is
    /// an array of them, its length: Vulkan gives a descriptor binding one array level at
    /// most.
    pub fn descriptor_array(&self, pointee: Id) -> Result<(Id, Option<ArrayLen>)> {
        Ok(match self.ty(pointee)? {
            Type::Array { elem, len } => (*elem, Some(ArrayLen::Fixed(*len))),
            Type::RuntimeArray { elem } => (*elem, Some(ArrayLen::Runtime)),
            _ => (pointee, None),
        })
    }

    /// Whether a buffer variable of storage class `class` whose block type is `block_ty`
    /// is a uniform buffer: Uniform blocks are, except those decorated BufferBlock, the
    /// storage buffers of SPIR-V before the StorageBuffer class.
    pub fn is_uniform_block(&self, class: StorageClass, block_ty: Id) -> bool {
        class == StorageClass::Uniform
            && !self
                .decorations
                .get(&block_ty)
                .is_some_and(|d| d.buffer_block)
    }

    pub fn name(&self, id: Id) -> String {
        match self.names.get(&id) {
            Some(n) if !n.is_empty() => format!("%{id} ({n})"),
            _ => format!("%{id}"),
        }
    }
}
