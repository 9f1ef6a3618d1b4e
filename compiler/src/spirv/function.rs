//! Translation of SPIR-V functions into the IR. Calls are inlined: each call translates the
//! callee's blocks anew, and its returns jump to a block that continues the caller.

use super::interface;
use super::layout::{self, LayoutKind, MatrixLayout};
use super::memory_semantics;
use super::module::{Id, Module, Type};
use super::operands::{describe, id_at, lit_at, result_of};
use crate::error::{CompileError, Result};
use crate::ir::*;
use crate::stage_info::{Interpolation, ScalarKind, Stage, VaryingSlot};
use rspirv::dr;
use rspirv::spirv::{BuiltIn, Op as SpvOp, StorageClass};
use std::collections::HashMap;

/// Deepest chain of calls accepted (SPIR-V forbids recursion; this also bounds the work a
/// hostile module can cause).
const MAX_CALL_DEPTH: usize = 32;
/// Most IR instructions a module may expand to.
pub(super) const MAX_INSTRS: usize = 1 << 20;

/// Scalar leaves of a SPIR-V value and their sizes.
#[derive(Clone, Debug)]
pub(super) struct Comp {
    pub srcs: Vec<Src>,
    pub sizes: Vec<BitSize>,
}

impl Comp {
    pub fn new(srcs: Vec<Src>, sizes: Vec<BitSize>) -> Comp {
        Comp { srcs, sizes }
    }
    pub fn len(&self) -> usize {
        self.srcs.len()
    }
}

#[derive(Copy, Clone, Debug)]
pub(super) enum PtrBase {
    Local(u32),
    Shared,
    Buffer {
        ubo: bool,
        set: u32,
        binding: u32,
        index: Src,
        /// The variable is an array of blocks whose element is not chosen yet.
        array_pending: bool,
    },
    PushConst,
    BuiltIn(BuiltIn),
    /// A texel buffer, image or sampler variable, or an array of them whose element is
    /// not chosen yet.
    Image {
        set: u32,
        binding: u32,
        index: Src,
        array_pending: bool,
    },
    /// Memory at a device address (a physical storage buffer pointer, whose value is
    /// the 64-bit address: as a value it is a 64-bit integer, and it becomes a `Ptr`
    /// only to be loaded from, stored to or indexed).
    Global {
        addr: Src,
    },
    /// A texel of a storage texel buffer or image (OpImageTexelPointer), for atomics:
    /// its first `count` coordinates.
    Texel {
        image: ImageRef,
        coords: [Src; 3],
        count: u8,
    },
}

/// A texel buffer or image descriptor as a value: what OpLoad of a texel buffer or
/// image variable gives, or OpSampledImage.
#[derive(Copy, Clone, Debug)]
pub(super) struct ImageRef {
    pub set: u32,
    pub binding: u32,
    pub index: Src,
    /// The OpTypeImage.
    pub ty: Id,
    /// The sampler sampling it: the binding itself for a combined image sampler, or the
    /// sampler OpSampledImage joined to it.
    pub sampler: Option<Resource>,
}

#[derive(Clone, Debug)]
pub(super) struct Ptr {
    pub base: PtrBase,
    pub pointee: Id,
    /// Slots for `Local`, component index for `BuiltIn`, bytes otherwise.
    pub offset: Src,
    pub matrix: Option<MatrixLayout>,
    pub comp_stride: Option<u32>,
}

impl Ptr {
    fn layout(&self) -> LayoutKind {
        match self.base {
            PtrBase::Local(_)
            | PtrBase::BuiltIn(_)
            | PtrBase::Image { .. }
            | PtrBase::Texel { .. } => LayoutKind::Slots,
            PtrBase::Shared => LayoutKind::Packed,
            PtrBase::Buffer { .. } | PtrBase::PushConst | PtrBase::Global { .. } => {
                LayoutKind::Explicit
            }
        }
    }
}

#[derive(Clone, Debug)]
pub(super) enum Val {
    Comp(Comp),
    Ptr(Ptr),
    Image(ImageRef),
    /// A sampler descriptor (OpLoad of a sampler variable).
    Sampler(Resource),
}

pub(super) fn err(inst: &dr::Instruction, msg: impl std::fmt::Display) -> CompileError {
    CompileError::new(format!("{}: {msg}", describe(inst)))
}

pub(super) struct Translator<'m> {
    pub m: &'m Module,
    pub shader: Shader,
    pub cur: BlockId,
    pub globals: HashMap<Id, Val>,
    /// The SPIR-V type of every value translated so far.
    pub types_of: HashMap<Id, Id>,
    /// Module variables of kinds not supported, and why.
    refused: HashMap<Id, String>,
    call_stack: Vec<Id>,
    instrs: usize,
    /// Output variables (as locals) and what each of their leaves is, written out when
    /// the entry point returns.
    outputs: Vec<(Ptr, Vec<interface::Leaf>)>,
    /// The local boolean recording that the invocation demoted itself to a helper (for
    /// fragment shaders with OpDemoteToHelperInvocation).
    demoted: Option<u32>,
}

/// A phi whose sources are filled in once all blocks are translated: its block, its
/// values (one per leaf), the (value, predecessor label) pairs and the instruction.
type PendingPhi = (BlockId, Vec<Value>, Vec<(Id, Id)>, dr::Instruction);

/// Values of one inlined function instance.
pub(super) type Ids = HashMap<Id, Val>;

impl<'m> Translator<'m> {
    pub fn new(m: &'m Module) -> Translator<'m> {
        Translator {
            m,
            shader: Shader::for_stage(m.stage, m.local_size, m.early_fragment_tests),
            cur: BlockId::ENTRY,
            globals: HashMap::new(),
            types_of: HashMap::new(),
            refused: HashMap::new(),
            call_stack: Vec::new(),
            outputs: Vec::new(),
            instrs: 0,
            demoted: None,
        }
    }

    // ---- emission ----

    pub fn emit(&mut self, op: Op, size: Option<BitSize>) -> Result<Option<Value>> {
        self.instrs += 1;
        if self.instrs > MAX_INSTRS {
            return Err(CompileError::new(format!(
                "the shader expands to more than {MAX_INSTRS} instructions"
            )));
        }
        let dst = size.map(|s| self.shader.new_value(s));
        let cur = self.cur;
        self.shader.block_mut(cur).instrs.push(Instr { dst, op });
        Ok(dst)
    }

    pub fn value(&mut self, op: Op, size: BitSize) -> Result<Src> {
        Ok(Src::Val(self.emit(op, Some(size))?.expect("sized")))
    }

    /// An ALU operation, computed now when every operand is known.
    pub fn alu(&mut self, op: AluOp, size: BitSize, srcs: &[Src]) -> Result<Src> {
        if let Some(imms) = srcs
            .iter()
            .map(|s| s.as_imm())
            .collect::<Option<Vec<u64>>>()
        {
            if let Some(v) = eval::eval_alu(op, size, &imms) {
                return Ok(Src::Imm(v));
            }
        }
        self.value(Op::alu(op, size, srcs), op.result_size(size))
    }

    pub fn convert(&mut self, kind: ConvKind, from: BitSize, to: BitSize, src: Src) -> Result<Src> {
        if let Src::Imm(v) = src {
            if let Some(r) = eval::eval_convert(kind, from, to, v) {
                return Ok(Src::Imm(r));
            }
        }
        if from == to && !matches!(kind, ConvKind::F2I { .. } | ConvKind::I2F { .. }) {
            return Ok(src);
        }
        self.value(
            Op::Convert(Convert {
                kind,
                from,
                to,
                src,
            }),
            to,
        )
    }

    /// A 32-bit offset or index from an integer of any size.
    pub fn index32(&mut self, s: Src, size: BitSize) -> Result<Src> {
        self.convert(ConvKind::I2I { signed: true }, size, BitSize::B32, s)
    }

    pub fn fconst(v: f64, size: BitSize) -> Src {
        Src::Imm(match size {
            BitSize::B16 => eval::f32_to_f16(v as f32) as u64,
            _ => (v as f32).to_bits() as u64,
        })
    }

    // ---- values ----

    pub fn get(&self, ids: &Ids, id: Id) -> Option<Val> {
        if let Some(v) = ids.get(&id).or_else(|| self.globals.get(&id)) {
            return Some(v.clone());
        }
        let leaves = self.m.constants.get(&id)?;
        let ty = self.m.constant_type(id)?;
        let sizes = self.m.leaves(ty).ok()?;
        Some(Val::Comp(Comp::new(
            leaves.iter().map(|v| Src::Imm(*v)).collect(),
            sizes,
        )))
    }

    pub fn comp(&self, ids: &Ids, inst: &dr::Instruction, i: usize) -> Result<Comp> {
        let id = id_at(inst, i)?;
        match self.get(ids, id) {
            Some(Val::Comp(c)) => Ok(c),
            Some(Val::Ptr(_)) => Err(err(inst, format!("%{id} is a pointer, not a value"))),
            Some(Val::Image(_) | Val::Sampler(_)) => Err(err(
                inst,
                format!("%{id} is an image or sampler, not a value"),
            )),
            None => Err(self.undefined(inst, id)),
        }
    }

    /// The error for a use of `id`, which has no value: a variable of a kind the
    /// front end refuses says which.
    pub fn undefined(&self, inst: &dr::Instruction, id: Id) -> CompileError {
        match self.refused.get(&id) {
            Some(why) => err(inst, format!("{}: {why}", self.m.name(id))),
            None => err(inst, format!("%{id} is not defined before its use")),
        }
    }

    pub fn ptr(&self, ids: &Ids, inst: &dr::Instruction, i: usize) -> Result<Ptr> {
        let id = id_at(inst, i)?;
        match self.get(ids, id) {
            Some(Val::Ptr(p)) => Ok(p),
            Some(Val::Comp(c)) if self.device_pointee(id).is_some() => Ok(Ptr {
                base: PtrBase::Global { addr: c.srcs[0] },
                pointee: self.device_pointee(id).expect("checked"),
                offset: Src::Imm(0),
                matrix: None,
                comp_stride: None,
            }),
            Some(Val::Comp(_) | Val::Image(_) | Val::Sampler(_)) => {
                Err(err(inst, format!("%{id} is not a pointer")))
            }
            None => Err(self.undefined(inst, id)),
        }
    }

    /// The pointee of `id` when its type is a physical storage buffer pointer.
    fn device_pointee(&self, id: Id) -> Option<Id> {
        let ty = self
            .types_of
            .get(&id)
            .copied()
            .or_else(|| self.m.constant_type(id))?;
        match self.m.ty(ty).ok()? {
            Type::Pointer {
                class: StorageClass::PhysicalStorageBuffer,
                pointee,
            } => Some(*pointee),
            _ => None,
        }
    }

    /// A device address `ptr` + `rel` bytes, as its low and high halves.
    fn global_address(&mut self, ptr: &Ptr, addr: Src, rel: u32) -> Result<(Src, Src)> {
        let off = self.offset_plus(ptr, rel)?;
        let wide = self.convert(
            ConvKind::I2I { signed: false },
            BitSize::B32,
            BitSize::B64,
            off,
        )?;
        let at = self.alu(AluOp::IAdd, BitSize::B64, &[addr, wide])?;
        let lo = self.alu(AluOp::Unpack64Lo, BitSize::B64, &[at])?;
        let hi = self.alu(AluOp::Unpack64Hi, BitSize::B64, &[at])?;
        Ok((lo, hi))
    }

    /// The leaves of `ptr`'s pointee at a device address, each 64-bit one as two
    /// 32-bit accesses (each with its own carried address).
    fn global_leaves(&self, ptr: &Ptr) -> Result<Vec<(u32, BitSize)>> {
        let leaves = self.leaf_offsets(ptr)?;
        if ptr.matrix.is_some() || ptr.comp_stride.is_some() {
            return Err(CompileError::new(
                "matrices through device addresses are not supported",
            ));
        }
        Ok(leaves)
    }

    fn load_global(&mut self, ptr: &Ptr, addr: Src) -> Result<Comp> {
        let mut srcs = Vec::new();
        let mut sizes = Vec::new();
        for (rel, size) in self.global_leaves(ptr)? {
            let load = |t: &mut Self, rel: u32, size: BitSize| -> Result<Src> {
                let (lo, hi) = t.global_address(ptr, addr, rel)?;
                t.value(
                    Op::Load(Load {
                        space: Space::Global { hi },
                        offset: lo,
                        size,
                    }),
                    size,
                )
            };
            let v = match size {
                BitSize::B64 => {
                    let lo = load(self, rel, BitSize::B32)?;
                    let hi = load(self, rel + 4, BitSize::B32)?;
                    self.alu(AluOp::Pack64, BitSize::B32, &[lo, hi])?
                }
                BitSize::B1 => {
                    let v = load(self, rel, BitSize::B32)?;
                    self.convert(ConvKind::Bool, BitSize::B32, BitSize::B1, v)?
                }
                s => load(self, rel, s)?,
            };
            srcs.push(v);
            sizes.push(size);
        }
        Ok(Comp::new(srcs, sizes))
    }

    fn store_global(&mut self, ptr: &Ptr, addr: Src, value: &Comp) -> Result<()> {
        let leaves = self.global_leaves(ptr)?;
        if leaves.len() != value.len() {
            return Err(CompileError::new(
                "stored value does not match the pointer's type",
            ));
        }
        for (i, (rel, size)) in leaves.into_iter().enumerate() {
            let v = value.srcs[i];
            let store = |t: &mut Self, rel: u32, size: BitSize, v: Src| -> Result<()> {
                let (lo, hi) = t.global_address(ptr, addr, rel)?;
                t.emit(
                    Op::Store(Store {
                        space: Space::Global { hi },
                        offset: lo,
                        value: v,
                        size,
                    }),
                    None,
                )?;
                Ok(())
            };
            match size {
                BitSize::B64 => {
                    let lo = self.alu(AluOp::Unpack64Lo, BitSize::B64, &[v])?;
                    let hi = self.alu(AluOp::Unpack64Hi, BitSize::B64, &[v])?;
                    store(self, rel, BitSize::B32, lo)?;
                    store(self, rel + 4, BitSize::B32, hi)?;
                }
                BitSize::B1 => {
                    let w = self.convert(ConvKind::Bool, BitSize::B1, BitSize::B32, v)?;
                    store(self, rel, BitSize::B32, w)?;
                }
                s => store(self, rel, s, v)?,
            }
        }
        Ok(())
    }

    pub fn result_sizes(&self, inst: &dr::Instruction) -> Result<Vec<BitSize>> {
        let (ty, _) = result_of(inst)?;
        self.m.leaves(ty).map_err(|e| err(inst, e))
    }

    // ---- globals ----

    /// Makes pointers for the module's variables; private variables become locals
    /// initialised at the start of the entry point.
    pub fn declare_globals(&mut self) -> Result<()> {
        let mut shared_bytes = 0u32;
        let mut ids: Vec<Id> = self.m.globals.keys().copied().collect();
        ids.sort_unstable();
        for id in ids {
            let g = &self.m.globals[&id];
            let deco = self.m.decorations.get(&id).cloned().unwrap_or_default();
            if let Some(index) = deco.input_attachment_index {
                self.shader.input_attachments.push(index);
            }
            let ptr = |base| {
                Val::Ptr(Ptr {
                    base,
                    pointee: g.pointee,
                    offset: Src::Imm(0),
                    matrix: None,
                    comp_stride: None,
                })
            };
            let fail =
                |msg: String| CompileError::new(format!("OpVariable {}: {msg}", self.m.name(id)));
            let val = match g.class {
                StorageClass::StorageBuffer | StorageClass::Uniform => {
                    let (block_ty, array) = self.m.descriptor_array(g.pointee)?;
                    let array = array.is_some();
                    let ubo = self.m.is_uniform_block(g.class, block_ty);
                    let (Some(set), Some(binding)) = (deco.set, deco.binding) else {
                        return Err(fail("a buffer without DescriptorSet and Binding".into()));
                    };
                    let pointee = if array { g.pointee } else { block_ty };
                    Val::Ptr(Ptr {
                        base: PtrBase::Buffer {
                            ubo,
                            set,
                            binding,
                            index: Src::Imm(0),
                            array_pending: array,
                        },
                        pointee,
                        offset: Src::Imm(0),
                        matrix: None,
                        comp_stride: None,
                    })
                }
                StorageClass::PushConstant => {
                    let leaves =
                        layout::leaf_offsets(self.m, g.pointee, LayoutKind::Explicit, None, None)
                            .map_err(fail)?;
                    let end = leaves.iter().map(|(o, s)| o + s.bytes()).max().unwrap_or(0);
                    self.shader.push_constant_bytes = self.shader.push_constant_bytes.max(end);
                    ptr(PtrBase::PushConst)
                }
                StorageClass::Workgroup => {
                    let size =
                        layout::size_of(self.m, g.pointee, LayoutKind::Packed).map_err(fail)?;
                    let p = Val::Ptr(Ptr {
                        base: PtrBase::Shared,
                        pointee: g.pointee,
                        offset: Src::Imm(shared_bytes as u64),
                        matrix: None,
                        comp_stride: None,
                    });
                    shared_bytes = shared_bytes
                        .checked_add(size)
                        .and_then(|s| s.checked_next_multiple_of(8))
                        .ok_or_else(|| fail("shared memory too large".into()))?;
                    p
                }
                StorageClass::Private => {
                    let slots = self.m.leaves(g.pointee).map_err(fail)?;
                    self.shader.locals.push(LocalVar { slots });
                    let var = self.shader.locals.len() as u32 - 1;
                    let p = Ptr {
                        base: PtrBase::Local(var),
                        pointee: g.pointee,
                        offset: Src::Imm(0),
                        matrix: None,
                        comp_stride: None,
                    };
                    if let Some(init) = g.initializer {
                        let v = match self.get(&Ids::new(), init) {
                            Some(Val::Comp(c)) => c,
                            _ => return Err(fail("initializer is not a constant".into())),
                        };
                        self.store_to(&p, &v)?;
                    }
                    Val::Ptr(p)
                }
                StorageClass::Input => match deco.builtin {
                    Some(b) => ptr(PtrBase::BuiltIn(b)),
                    None if self.m.stage == Stage::Compute => {
                        return Err(fail("compute shaders have no non-built-in inputs".into()))
                    }
                    None => Val::Ptr(self.declare_input(id, g.pointee)?),
                },
                StorageClass::Output if self.m.stage == Stage::Compute => {
                    return Err(fail("compute shaders have no outputs".into()))
                }
                StorageClass::Output => {
                    let leaves = interface::leaves(self.m, id, g.pointee)?;
                    let p = self.new_local(g.pointee).map_err(fail)?;
                    self.outputs.push((p.clone(), leaves));
                    Val::Ptr(p)
                }
                StorageClass::UniformConstant => {
                    // Texel buffers, images and samplers (and arrays of them); kinds the
                    // front end does not support are refused where used, so that a
                    // module that declares but never touches one still compiles.
                    let (elem, array) = self.m.descriptor_array(g.pointee)?;
                    let array = array.is_some();
                    match self.m.ty(elem)? {
                        Type::Image(_) | Type::SampledImage { .. } | Type::Sampler => {}
                        Type::Unsupported(what) => {
                            self.refused.insert(id, format!("{what} are not supported"));
                            continue;
                        }
                        other => {
                            self.refused
                                .insert(id, format!("{other:?} is not supported"));
                            continue;
                        }
                    }
                    let (Some(set), Some(binding)) = (deco.set, deco.binding) else {
                        return Err(fail(
                            "an image or sampler without DescriptorSet and Binding".into(),
                        ));
                    };
                    ptr(PtrBase::Image {
                        set,
                        binding,
                        index: Src::Imm(0),
                        array_pending: array,
                    })
                }
                other => return Err(fail(format!("storage class {other:?} is not supported"))),
            };
            self.globals.insert(id, val);
        }
        self.shader.shared_bytes = shared_bytes;
        self.shader.input_attachments.sort_unstable();
        self.shader.input_attachments.dedup();
        Ok(())
    }

    // ---- memory ----

    fn offset_plus(&mut self, ptr: &Ptr, rel: u32) -> Result<Src> {
        self.alu(
            AluOp::IAdd,
            BitSize::B32,
            &[ptr.offset, Src::Imm(rel as u64)],
        )
    }

    fn space(&self, ptr: &Ptr) -> Result<Space> {
        Ok(match ptr.base {
            PtrBase::Local(v) => Space::Local(v),
            PtrBase::Shared => Space::Shared,
            PtrBase::PushConst => Space::PushConst,
            PtrBase::Buffer {
                ubo,
                set,
                binding,
                index,
                array_pending,
            } => {
                if array_pending {
                    return Err(CompileError::new(
                        "an array of buffers is accessed without choosing an element",
                    ));
                }
                let r = Resource::Binding {
                    set,
                    binding,
                    index,
                };
                if ubo {
                    Space::Ubo(r)
                } else {
                    Space::Ssbo(r)
                }
            }
            PtrBase::BuiltIn(b) => {
                return Err(CompileError::new(format!("built-in {b:?} is not memory")))
            }
            PtrBase::Global { .. } => {
                return Err(CompileError::new(
                    "a device address is reached by its own loads, stores and atomics",
                ))
            }
            PtrBase::Image { .. } => {
                return Err(CompileError::new(
                    "a texel buffer is a descriptor, not memory to load or store",
                ))
            }
            PtrBase::Texel { .. } => {
                return Err(CompileError::new(
                    "texels are reached by atomics only; loads and stores through a texel \
                     pointer are not supported",
                ))
            }
        })
    }

    fn sysval(&mut self, b: BuiltIn, component: u64) -> Result<Src> {
        let c = component.min(2) as u8;
        let stage = self.m.stage;
        let sv = match b {
            BuiltIn::VertexIndex if stage == Stage::Vertex => SysVal::VertexId,
            BuiltIn::InstanceIndex if stage == Stage::Vertex => {
                let id = self.value(Op::SysVal(SysVal::InstanceId), BitSize::B32)?;
                let base = self.value(Op::SysVal(SysVal::BaseInstance), BitSize::B32)?;
                return self.alu(AluOp::IAdd, BitSize::B32, &[id, base]);
            }
            BuiltIn::BaseVertex if stage == Stage::Vertex => SysVal::BaseVertex,
            BuiltIn::BaseInstance if stage == Stage::Vertex => SysVal::BaseInstance,
            // The driver renders a multiview subpass once per view, with the view in
            // the const file of both stages.
            BuiltIn::ViewIndex if matches!(stage, Stage::Vertex | Stage::Fragment) => {
                SysVal::ViewIndex
            }
            BuiltIn::FragCoord if stage == Stage::Fragment => {
                SysVal::FragCoord(component.min(3) as u8)
            }
            BuiltIn::FrontFacing if stage == Stage::Fragment => {
                let v = self.value(Op::SysVal(SysVal::FrontFacing), BitSize::B32)?;
                return self.alu(AluOp::INe, BitSize::B32, &[v, Src::Imm(0)]);
            }
            BuiltIn::SampleId if stage == Stage::Fragment => SysVal::SampleId,
            BuiltIn::SampleMask if stage == Stage::Fragment => SysVal::SampleMaskIn,
            BuiltIn::HelperInvocation if stage == Stage::Fragment => return self.is_helper(),
            BuiltIn::LocalInvocationId => SysVal::LocalInvocationId(c),
            BuiltIn::WorkgroupId => {
                let id = self.value(Op::SysVal(SysVal::WorkgroupId(c)), BitSize::B32)?;
                let base = self.value(Op::SysVal(SysVal::BaseWorkgroup(c)), BitSize::B32)?;
                return self.alu(AluOp::IAdd, BitSize::B32, &[id, base]);
            }
            BuiltIn::NumWorkgroups => SysVal::NumWorkgroups(c),
            BuiltIn::GlobalInvocationId => SysVal::GlobalInvocationId(c),
            BuiltIn::LocalInvocationIndex => SysVal::LocalInvocationIndex,
            BuiltIn::SubgroupSize => SysVal::SubgroupSize,
            BuiltIn::SubgroupLocalInvocationId => SysVal::SubgroupInvocationId,
            // Waves are cut from the linear local index (as the hardware fills them).
            BuiltIn::SubgroupId if stage == Stage::Compute => {
                let index = self.value(Op::SysVal(SysVal::LocalInvocationIndex), BitSize::B32)?;
                let size = self.value(Op::SysVal(SysVal::SubgroupSize), BitSize::B32)?;
                return self.alu(AluOp::UDiv, BitSize::B32, &[index, size]);
            }
            BuiltIn::NumSubgroups if stage == Stage::Compute => {
                let [x, y, z] = self.shader.local_size;
                let size = self.value(Op::SysVal(SysVal::SubgroupSize), BitSize::B32)?;
                let n = Src::Imm(u64::from(x * y * z));
                let up = self.alu(AluOp::IAdd, BitSize::B32, &[n, size])?;
                let up = self.alu(AluOp::ISub, BitSize::B32, &[up, Src::Imm(1)])?;
                return self.alu(AluOp::UDiv, BitSize::B32, &[up, size]);
            }
            b if super::subgroup::Mask::of(b).is_some() => {
                let mask = super::subgroup::Mask::of(b).expect("checked");
                return self.subgroup_mask(mask, component.min(3));
            }
            BuiltIn::WorkgroupSize => {
                return Ok(Src::Imm(self.shader.local_size[c as usize] as u64))
            }
            // The index of the physical device running the invocation within its device
            // group (SPV_KHR_device_group): every group the driver reports holds one
            // physical device, so it is always 0.
            BuiltIn::DeviceIndex => return Ok(Src::Imm(0)),
            other => {
                return Err(CompileError::new(format!(
                    "built-in {other:?} is not supported in {stage} shaders"
                )))
            }
        };
        self.value(Op::SysVal(sv), BitSize::B32)
    }

    /// Where the leaves of the pointee lie, relative to the pointer.
    fn leaf_offsets(&self, ptr: &Ptr) -> Result<Vec<(u32, BitSize)>> {
        layout::leaf_offsets(
            self.m,
            ptr.pointee,
            ptr.layout(),
            ptr.matrix,
            ptr.comp_stride,
        )
        .map_err(CompileError::new)
    }

    pub fn load_from(&mut self, ptr: &Ptr) -> Result<Comp> {
        if let PtrBase::Global { addr } = ptr.base {
            return self.load_global(ptr, addr);
        }
        if let PtrBase::BuiltIn(b) = ptr.base {
            let n = self.m.leaves(ptr.pointee).map_err(CompileError::new)?.len();
            let first = ptr
                .offset
                .as_imm()
                .ok_or_else(|| CompileError::new("dynamic index into a built-in"))?;
            let mut srcs = Vec::new();
            let mut sizes = Vec::new();
            for i in 0..n as u64 {
                let v = self.sysval(b, first + i)?;
                // Booleans (gl_FrontFacing, gl_HelperInvocation) are comparisons.
                sizes.push(match v {
                    Src::Val(v) => self.shader.value_size(v),
                    Src::Imm(_) => BitSize::B32,
                });
                srcs.push(v);
            }
            return Ok(Comp::new(srcs, sizes));
        }
        let leaves = self.leaf_offsets(ptr)?;
        let space = self.space(ptr)?;
        let mut srcs = Vec::with_capacity(leaves.len());
        let mut sizes = Vec::with_capacity(leaves.len());
        for (rel, size) in leaves {
            let offset = self.offset_plus(ptr, rel)?;
            let in_memory = size == BitSize::B1 && !matches!(space, Space::Local(_));
            let mem_size = if in_memory { BitSize::B32 } else { size };
            let v = self.value(
                Op::Load(Load {
                    space,
                    offset,
                    size: mem_size,
                }),
                mem_size,
            )?;
            let v = if in_memory {
                self.convert(ConvKind::Bool, BitSize::B32, BitSize::B1, v)?
            } else {
                v
            };
            srcs.push(v);
            sizes.push(size);
        }
        Ok(Comp::new(srcs, sizes))
    }

    pub fn store_to(&mut self, ptr: &Ptr, value: &Comp) -> Result<()> {
        if let PtrBase::PushConst = ptr.base {
            return Err(CompileError::new("push constants are read-only"));
        }
        if let PtrBase::Buffer { ubo: true, .. } = ptr.base {
            return Err(CompileError::new("uniform buffers are read-only"));
        }
        if let PtrBase::Global { addr } = ptr.base {
            return self.store_global(ptr, addr, value);
        }
        let leaves = self.leaf_offsets(ptr)?;
        if leaves.len() != value.len() {
            return Err(CompileError::new(
                "stored value does not match the pointer's type",
            ));
        }
        let space = self.space(ptr)?;
        for (i, (rel, size)) in leaves.into_iter().enumerate() {
            let offset = self.offset_plus(ptr, rel)?;
            let mut v = value.srcs[i];
            let mut mem_size = size;
            if size == BitSize::B1 && !matches!(space, Space::Local(_)) {
                v = self.convert(ConvKind::Bool, BitSize::B1, BitSize::B32, v)?;
                mem_size = BitSize::B32;
            }
            self.emit(
                Op::Store(Store {
                    space,
                    offset,
                    value: v,
                    size: mem_size,
                }),
                None,
            )?;
        }
        Ok(())
    }

    /// OpAccessChain: walks the indices, accumulating the offset.
    fn access_chain(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Ptr> {
        let mut p = self.ptr(ids, inst, 0)?;
        for i in 1..inst.operands.len() {
            let idx = self.comp(ids, inst, i)?;
            if idx.len() != 1 {
                return Err(err(inst, "index is not a scalar"));
            }
            let index = self.index32(idx.srcs[0], idx.sizes[0])?;
            // The first index into an array of buffers or texel buffers picks the
            // descriptor.
            if let PtrBase::Buffer {
                array_pending: pending @ true,
                index: element,
                ..
            }
            | PtrBase::Image {
                array_pending: pending @ true,
                index: element,
                ..
            } = &mut p.base
            {
                *pending = false;
                *element = index;
                p.pointee = match self.m.ty(p.pointee)? {
                    Type::Array { elem, .. } | Type::RuntimeArray { elem } => *elem,
                    _ => return Err(err(inst, "a descriptor array is not an array")),
                };
                continue;
            }
            if let PtrBase::Image { .. } = p.base {
                return Err(err(inst, "indexes into an image or sampler"));
            }
            let kind = p.layout();
            let e = |m: String| err(inst, m);
            match self.m.ty(p.pointee)?.clone() {
                Type::Struct { members } => {
                    let m = index
                        .as_imm()
                        .ok_or_else(|| err(inst, "struct member index is not a constant"))?;
                    if m as usize >= members.len() {
                        return Err(err(inst, format!("struct has no member {m}")));
                    }
                    let off = if matches!(p.base, PtrBase::BuiltIn(_)) {
                        return Err(err(inst, "built-in blocks are not supported"));
                    } else {
                        layout::member_offset(self.m, p.pointee, m as u32, kind).map_err(e)?
                    };
                    p.offset = self.offset_plus(&p, off)?;
                    p.matrix = layout::member_matrix_layout(self.m, p.pointee, m as u32);
                    p.pointee = members[m as usize];
                }
                Type::Array { elem, .. } | Type::RuntimeArray { elem } => {
                    let stride = layout::array_stride(self.m, p.pointee, kind).map_err(e)?;
                    let scaled =
                        self.alu(AluOp::IMul, BitSize::B32, &[index, Src::Imm(stride as u64)])?;
                    p.offset = self.alu(AluOp::IAdd, BitSize::B32, &[p.offset, scaled])?;
                    p.pointee = elem;
                }
                Type::Matrix { column, .. } => {
                    let (col, comp) =
                        layout::matrix_column(self.m, column, kind, p.matrix).map_err(e)?;
                    let scaled =
                        self.alu(AluOp::IMul, BitSize::B32, &[index, Src::Imm(col as u64)])?;
                    p.offset = self.alu(AluOp::IAdd, BitSize::B32, &[p.offset, scaled])?;
                    p.pointee = column;
                    p.comp_stride = Some(comp);
                    p.matrix = None;
                }
                Type::Vector { elem, .. } => {
                    let stride = match (p.base, p.comp_stride) {
                        (PtrBase::BuiltIn(_), _) => 1,
                        (_, Some(s)) => s,
                        _ => layout::size_of(self.m, elem, kind).map_err(e)?,
                    };
                    let scaled =
                        self.alu(AluOp::IMul, BitSize::B32, &[index, Src::Imm(stride as u64)])?;
                    p.offset = self.alu(AluOp::IAdd, BitSize::B32, &[p.offset, scaled])?;
                    p.pointee = elem;
                    p.comp_stride = None;
                }
                other => return Err(err(inst, format!("cannot index into {other:?}"))),
            }
        }
        let (ty, _) = result_of(inst)?;
        match self.m.ty(ty)? {
            Type::Pointer { pointee, .. } if *pointee == p.pointee => Ok(p),
            _ => Err(err(inst, "result type does not match the indexed type")),
        }
    }

    // ---- functions ----

    /// A function-local variable of type `ty`.
    fn new_local(&mut self, ty: Id) -> std::result::Result<Ptr, String> {
        let slots = self.m.leaves(ty)?;
        self.shader.locals.push(LocalVar { slots });
        Ok(Ptr {
            base: PtrBase::Local(self.shader.locals.len() as u32 - 1),
            pointee: ty,
            offset: Src::Imm(0),
            matrix: None,
            comp_stride: None,
        })
    }

    /// A vertex attribute or fragment shader input: a local variable holding what the
    /// hardware delivered, so that it can be indexed like any other.
    fn declare_input(&mut self, id: Id, ty: Id) -> Result<Ptr> {
        let fail =
            |msg: String| CompileError::new(format!("OpVariable {}: {msg}", self.m.name(id)));
        let leaves = interface::leaves(self.m, id, ty)?;
        let mut srcs = Vec::with_capacity(leaves.len());
        for leaf in &leaves {
            let interface::Leaf::Location {
                location,
                component,
                kind,
                interpolation,
                sampling,
            } = *leaf
            else {
                return Err(fail(
                    "built-in members of input blocks are not supported".into(),
                ));
            };
            let sv = match self.m.stage {
                Stage::Vertex => SysVal::Attribute {
                    location,
                    component,
                    kind,
                },
                _ => {
                    if kind != ScalarKind::Float && interpolation != Interpolation::Flat {
                        return Err(fail("integer fragment inputs must be Flat".into()));
                    }
                    SysVal::Varying {
                        location,
                        component,
                        interpolation,
                        sampling,
                        kind,
                    }
                }
            };
            srcs.push(self.value(Op::SysVal(sv), BitSize::B32)?);
        }
        let p = self.new_local(ty).map_err(fail)?;
        let n = srcs.len();
        self.store_to(&p, &Comp::new(srcs, vec![BitSize::B32; n]))?;
        Ok(p)
    }

    /// The outputs, as the invocation leaves them.
    fn write_outputs(&mut self) -> Result<()> {
        let outputs = std::mem::take(&mut self.outputs);
        let count = |b: BuiltIn| {
            outputs
                .iter()
                .flat_map(|(_, l)| l)
                .filter(|l| matches!(l, interface::Leaf::BuiltIn(x, _) if *x == b))
                .count() as u32
        };
        let clip = count(BuiltIn::ClipDistance);
        let cull = count(BuiltIn::CullDistance);
        if clip + cull > 8 {
            return Err(CompileError::new(format!(
                "{clip} clip and {cull} cull distances; the hardware has 8 in all"
            )));
        }
        self.shader.clip_distances = clip as u8;
        self.shader.cull_distances = cull as u8;
        let vertex = self.m.stage == Stage::Vertex;
        for (ptr, leaves) in &outputs {
            let values = self.load_from(ptr)?;
            for (leaf, src) in leaves.iter().zip(values.srcs.iter()) {
                let distance = |k: u32| {
                    OutputSlot::Varying(VaryingSlot::ClipCullDistance((k / 4) as u8), (k % 4) as u8)
                };
                let slot = match (*leaf, vertex) {
                    (
                        interface::Leaf::Location {
                            location,
                            component,
                            ..
                        },
                        true,
                    ) => OutputSlot::Varying(VaryingSlot::Location(location), component),
                    (
                        interface::Leaf::Location {
                            location,
                            component,
                            kind,
                            ..
                        },
                        false,
                    ) => OutputSlot::Color {
                        location,
                        component,
                        kind,
                    },
                    (interface::Leaf::BuiltIn(BuiltIn::Position, i), true) => {
                        OutputSlot::Varying(VaryingSlot::Position, i as u8)
                    }
                    (interface::Leaf::BuiltIn(BuiltIn::PointSize, _), true) => {
                        OutputSlot::Varying(VaryingSlot::PointSize, 0)
                    }
                    (interface::Leaf::BuiltIn(BuiltIn::ClipDistance, i), true) => distance(i),
                    (interface::Leaf::BuiltIn(BuiltIn::CullDistance, i), true) => {
                        distance(clip + i)
                    }
                    (interface::Leaf::BuiltIn(BuiltIn::FragDepth, _), false) => OutputSlot::Depth,
                    (interface::Leaf::BuiltIn(BuiltIn::SampleMask, 0), false) => {
                        OutputSlot::SampleMask
                    }
                    (interface::Leaf::BuiltIn(b, _), _) => {
                        return Err(CompileError::new(format!(
                            "the output built-in {b:?} is not supported in {} shaders",
                            self.m.stage
                        )))
                    }
                };
                self.emit(Op::Output(Output { slot, src: *src }), None)?;
            }
        }
        Ok(())
    }

    /// Translates the entry point.
    pub fn entry(&mut self) -> Result<()> {
        self.declare_globals()?;
        let demotes = self.m.dr.functions.iter().any(|f| {
            f.blocks.iter().any(|b| {
                b.instructions
                    .iter()
                    .any(|i| i.class.opcode == SpvOp::DemoteToHelperInvocation)
            })
        });
        if demotes && self.m.stage == Stage::Fragment {
            self.shader.locals.push(LocalVar {
                slots: vec![BitSize::B1],
            });
            let local = self.shader.locals.len() as u32 - 1;
            self.demoted = Some(local);
            self.set_demoted(false)?;
        }
        if self.shared_memory_initialized()? {
            self.zero_shared_memory()?;
        }
        self.call(self.m.entry_function, Vec::new())?;
        self.write_outputs()?;
        let cur = self.cur;
        self.shader.block_mut(cur).term = Terminator::Return;
        Ok(())
    }

    fn set_demoted(&mut self, demoted: bool) -> Result<()> {
        if let Some(local) = self.demoted {
            self.emit(
                Op::Store(Store {
                    space: Space::Local(local),
                    offset: Src::Imm(0),
                    value: Src::Imm(u64::from(demoted)),
                    size: BitSize::B1,
                }),
                None,
            )?;
        }
        Ok(())
    }

    /// gl_HelperInvocation / OpIsHelperInvocationEXT: a fiber covering no sample (the
    /// rasterizer's helpers) or one that demoted itself.
    fn is_helper(&mut self) -> Result<Src> {
        let mask = self.value(Op::SysVal(SysVal::SampleMaskIn), BitSize::B32)?;
        let helper = self.alu(AluOp::IEq, BitSize::B32, &[mask, Src::Imm(0)])?;
        match self.demoted {
            Some(local) => {
                let demoted = self.value(
                    Op::Load(Load {
                        space: Space::Local(local),
                        offset: Src::Imm(0),
                        size: BitSize::B1,
                    }),
                    BitSize::B1,
                )?;
                self.alu(AluOp::Or, BitSize::B1, &[helper, demoted])
            }
            None => Ok(helper),
        }
    }

    /// Inlines function `func` with `args` at the current block; returns its result.
    pub fn call(&mut self, func: Id, args: Vec<Val>) -> Result<Option<Comp>> {
        if self.call_stack.contains(&func) {
            return Err(CompileError::new(format!(
                "OpFunctionCall: {} is recursive",
                self.m.name(func)
            )));
        }
        if self.call_stack.len() >= MAX_CALL_DEPTH {
            return Err(CompileError::new("OpFunctionCall: calls nest too deeply"));
        }
        let f = self
            .m
            .functions
            .get(&func)
            .map(|&i| &self.m.dr.functions[i])
            .ok_or_else(|| {
                CompileError::new(format!(
                    "OpFunctionCall: {} is not a function",
                    self.m.name(func)
                ))
            })?;
        if f.parameters.len() != args.len() {
            return Err(CompileError::new(format!(
                "OpFunctionCall: {} takes {} arguments, given {}",
                self.m.name(func),
                f.parameters.len(),
                args.len()
            )));
        }
        self.call_stack.push(func);
        let mut ids = Ids::new();
        for (p, a) in f.parameters.iter().zip(args) {
            if let (Some(id), Some(ty)) = (p.result_id, p.result_type) {
                self.types_of.insert(id, ty);
            }
            if let Some(id) = p.result_id {
                ids.insert(id, a);
            }
        }
        let ret_ty = f.def.as_ref().and_then(|d| d.result_type);
        let returns_value =
            ret_ty.is_some_and(|t| !matches!(self.m.types.get(&t), Some(Type::Void)));

        let mut labels = HashMap::new();
        for b in &f.blocks {
            let label = b
                .label
                .as_ref()
                .and_then(|l| l.result_id)
                .ok_or_else(|| CompileError::new("a block has no OpLabel"))?;
            let id = self.shader.new_block();
            if labels.insert(label, id).is_some() {
                return Err(CompileError::new(format!(
                    "OpLabel %{label} is defined twice"
                )));
            }
        }
        let Some(first) = f.blocks.first() else {
            return Err(CompileError::new(format!(
                "{} has no body",
                self.m.name(func)
            )));
        };
        let first = labels[&first.label.as_ref().and_then(|l| l.result_id).unwrap_or(0)];
        let cur = self.cur;
        self.shader.block_mut(cur).term = Terminator::Jump(first);
        let ret_block = self.shader.new_block();
        let mut returns: Vec<(BlockId, Comp)> = Vec::new();
        let mut end_of: HashMap<Id, BlockId> = HashMap::new();
        let mut pending: Vec<PendingPhi> = Vec::new();

        for b in &f.blocks {
            let label = b.label.as_ref().and_then(|l| l.result_id).unwrap_or(0);
            self.cur = labels[&label];
            let mut merge = None;
            let target = |l: Id, inst: &dr::Instruction| {
                labels
                    .get(&l)
                    .copied()
                    .ok_or_else(|| err(inst, format!("%{l} is not a block of this function")))
            };
            let mut terminated = false;
            for inst in &b.instructions {
                if terminated {
                    return Err(err(inst, "follows the block's terminator"));
                }
                match inst.class.opcode {
                    SpvOp::Phi => {
                        let sizes = self.result_sizes(inst)?;
                        let (ty, rid) = result_of(inst)?;
                        self.types_of.insert(rid, ty);
                        let dsts: Vec<Value> =
                            sizes.iter().map(|s| self.shader.new_value(*s)).collect();
                        let cur = self.cur;
                        for d in &dsts {
                            self.shader.block_mut(cur).phis.push(Phi {
                                dst: *d,
                                srcs: Vec::new(),
                            });
                        }
                        let mut srcs = Vec::new();
                        for i in (0..inst.operands.len()).step_by(2) {
                            srcs.push((id_at(inst, i)?, id_at(inst, i + 1)?));
                        }
                        ids.insert(
                            rid,
                            Val::Comp(Comp::new(
                                dsts.iter().map(|d| Src::Val(*d)).collect(),
                                sizes,
                            )),
                        );
                        pending.push((self.cur, dsts, srcs, inst.clone()));
                    }
                    SpvOp::SelectionMerge => {
                        merge = Some(Merge::Selection {
                            merge: target(id_at(inst, 0)?, inst)?,
                        });
                    }
                    SpvOp::LoopMerge => {
                        merge = Some(Merge::Loop {
                            merge: target(id_at(inst, 0)?, inst)?,
                            cont: target(id_at(inst, 1)?, inst)?,
                        });
                    }
                    SpvOp::Branch => {
                        let t = target(id_at(inst, 0)?, inst)?;
                        self.finish_block(Terminator::Jump(t), merge.take());
                        terminated = true;
                    }
                    SpvOp::BranchConditional => {
                        let c = self.comp(&ids, inst, 0)?;
                        if c.len() != 1 || c.sizes[0] != BitSize::B1 {
                            return Err(err(inst, "condition is not a boolean"));
                        }
                        let term = Terminator::Branch {
                            cond: c.srcs[0],
                            then_block: target(id_at(inst, 1)?, inst)?,
                            else_block: target(id_at(inst, 2)?, inst)?,
                        };
                        self.finish_block(term, merge.take());
                        terminated = true;
                    }
                    SpvOp::Switch => {
                        let sel = self.comp(&ids, inst, 0)?;
                        if sel.len() != 1 || sel.sizes[0] == BitSize::B1 {
                            return Err(err(inst, "selector is not an integer"));
                        }
                        let default = target(id_at(inst, 1)?, inst)?;
                        let mut cases = Vec::new();
                        let mut i = 2;
                        while i < inst.operands.len() {
                            let v = match inst.operands[i] {
                                dr::Operand::LiteralBit32(v) => v as u64,
                                dr::Operand::LiteralBit64(v) => v,
                                _ => return Err(err(inst, "case value is not a literal")),
                            };
                            cases.push((
                                v & sel.sizes[0].mask(),
                                target(id_at(inst, i + 1)?, inst)?,
                            ));
                            i += 2;
                        }
                        let term = Terminator::Switch {
                            selector: sel.srcs[0],
                            size: sel.sizes[0],
                            cases,
                            default,
                        };
                        self.finish_block(term, merge.take());
                        terminated = true;
                    }
                    SpvOp::Return | SpvOp::ReturnValue => {
                        if returns_value != (inst.class.opcode == SpvOp::ReturnValue) {
                            return Err(err(inst, "does not match the function's return type"));
                        }
                        let v = if returns_value {
                            self.comp(&ids, inst, 0)?
                        } else {
                            Comp::new(Vec::new(), Vec::new())
                        };
                        returns.push((self.cur, v));
                        self.finish_block(Terminator::Jump(ret_block), None);
                        terminated = true;
                    }
                    SpvOp::Unreachable => {
                        self.finish_block(Terminator::Unreachable, None);
                        terminated = true;
                    }
                    SpvOp::Kill | SpvOp::TerminateInvocation if self.m.stage == Stage::Fragment => {
                        // The fragment is gone: nothing after this point has an effect
                        // for it, so it leaves like a return (with no value worth
                        // giving).
                        self.emit(Op::Kill, None)?;
                        let v = match ret_ty {
                            Some(t) if returns_value => {
                                let sizes = self.m.leaves(t).map_err(|e| err(inst, e))?;
                                let srcs = sizes
                                    .iter()
                                    .map(|s| self.value(Op::Undef, *s))
                                    .collect::<Result<Vec<_>>>()?;
                                Comp::new(srcs, sizes)
                            }
                            _ => Comp::new(Vec::new(), Vec::new()),
                        };
                        returns.push((self.cur, v));
                        self.finish_block(Terminator::Jump(ret_block), None);
                        terminated = true;
                    }
                    SpvOp::DemoteToHelperInvocation if self.m.stage == Stage::Fragment => {
                        // `kill` removes the fiber from the output and lets it run on as a
                        // helper, which is what demote asks (ir3 encodes it so too).
                        self.emit(Op::Kill, None)?;
                        self.set_demoted(true)?;
                    }
                    SpvOp::Kill | SpvOp::TerminateInvocation | SpvOp::DemoteToHelperInvocation => {
                        return Err(err(inst, "is only valid in fragment shaders"))
                    }
                    _ => self.instruction(&mut ids, inst)?,
                }
                if terminated {
                    end_of.insert(label, self.cur);
                }
            }
            if !terminated {
                return Err(CompileError::new(format!(
                    "block %{label} has no terminator"
                )));
            }
        }

        for (block, dsts, srcs, inst) in pending {
            for (val, label) in srcs {
                let pred = *end_of.get(&label).ok_or_else(|| {
                    err(&inst, format!("%{label} is not a block of this function"))
                })?;
                let c = match self.get(&ids, val) {
                    Some(Val::Comp(c)) => c,
                    Some(Val::Ptr(_) | Val::Image(_) | Val::Sampler(_)) => {
                        return Err(err(
                            &inst,
                            "phis of pointers, images and samplers are not supported",
                        ))
                    }
                    None => return Err(err(&inst, format!("%{val} is never defined"))),
                };
                if c.len() != dsts.len() {
                    return Err(err(&inst, "operand does not match the result type"));
                }
                for (d, s) in dsts.iter().zip(&c.srcs) {
                    if let Some(phi) = self
                        .shader
                        .block_mut(block)
                        .phis
                        .iter_mut()
                        .find(|p| p.dst == *d)
                    {
                        phi.srcs.push((pred, *s));
                    }
                }
            }
        }

        self.cur = ret_block;
        self.call_stack.pop();
        if !returns_value {
            return Ok(None);
        }
        let sizes = self
            .m
            .leaves(ret_ty.unwrap_or(0))
            .map_err(CompileError::new)?;
        let mut out = Vec::new();
        for (i, size) in sizes.iter().enumerate() {
            if returns.is_empty() {
                out.push(self.value(Op::Undef, *size)?);
                continue;
            }
            let dst = self.shader.new_value(*size);
            let srcs = returns.iter().map(|(b, c)| (*b, c.srcs[i])).collect();
            self.shader
                .block_mut(ret_block)
                .phis
                .push(Phi { dst, srcs });
            out.push(Src::Val(dst));
        }
        Ok(Some(Comp::new(out, sizes)))
    }

    pub(super) fn finish_block(&mut self, term: Terminator, merge: Option<Merge>) {
        let cur = self.cur;
        let b = self.shader.block_mut(cur);
        b.term = term;
        b.merge = merge;
    }

    // ---- instructions ----

    fn instruction(&mut self, ids: &mut Ids, inst: &dr::Instruction) -> Result<()> {
        use SpvOp as O;
        let op = inst.class.opcode;
        let result: Option<Val> = match op {
            O::Nop | O::Line | O::NoLine | O::Name | O::ModuleProcessed => None,
            O::IsHelperInvocationEXT if self.m.stage == Stage::Fragment => Some(Val::Comp(
                Comp::new(vec![self.is_helper()?], vec![BitSize::B1]),
            )),
            O::Undef => {
                let sizes = self.result_sizes(inst)?;
                let mut srcs = Vec::new();
                for s in &sizes {
                    srcs.push(self.value(Op::Undef, *s)?);
                }
                Some(Val::Comp(Comp::new(srcs, sizes)))
            }
            O::Variable => {
                let (ty, _) = result_of(inst)?;
                let pointee = match self.m.ty(ty)? {
                    Type::Pointer {
                        class: StorageClass::Function,
                        pointee,
                    } => *pointee,
                    _ => return Err(err(inst, "function variables must be in Function storage")),
                };
                let slots = self.m.leaves(pointee).map_err(|e| err(inst, e))?;
                self.shader.locals.push(LocalVar { slots });
                let p = Ptr {
                    base: PtrBase::Local(self.shader.locals.len() as u32 - 1),
                    pointee,
                    offset: Src::Imm(0),
                    matrix: None,
                    comp_stride: None,
                };
                if inst.operands.len() > 1 {
                    let init = self.comp(ids, inst, 1)?;
                    self.store_to(&p, &init).map_err(|e| err(inst, e))?;
                }
                Some(Val::Ptr(p))
            }
            O::Load if matches!(self.ptr(ids, inst, 0)?.base, PtrBase::Image { .. }) => {
                Some(self.load_image(ids, inst)?)
            }
            O::Load => {
                let p = self.ptr(ids, inst, 0)?;
                Some(Val::Comp(self.load_from(&p).map_err(|e| err(inst, e))?))
            }
            O::AtomicLoad => {
                let p = self.ptr(ids, inst, 0)?;
                let v = self.load_from(&p).map_err(|e| err(inst, e))?;
                self.atomic_ordering(inst, &p, 1, false)?;
                Some(Val::Comp(v))
            }
            O::Image
            | O::SampledImage
            | O::ImageFetch
            | O::ImageRead
            | O::ImageWrite
            | O::ImageSampleExplicitLod
            | O::ImageSampleImplicitLod
            | O::ImageSampleDrefExplicitLod
            | O::ImageSampleDrefImplicitLod
            | O::ImageGather
            | O::ImageQuerySize
            | O::ImageQuerySizeLod
            | O::ImageQueryLevels
            | O::ImageTexelPointer => self.image_instruction(ids, inst)?,
            O::Store | O::AtomicStore => {
                let p = self.ptr(ids, inst, 0)?;
                let vi = if op == O::Store { 1 } else { 3 };
                let v = self.comp(ids, inst, vi)?;
                if op == O::AtomicStore {
                    self.atomic_ordering(inst, &p, 1, true)?;
                }
                self.store_to(&p, &v).map_err(|e| err(inst, e))?;
                None
            }
            O::CopyMemory => {
                let dst = self.ptr(ids, inst, 0)?;
                let src = self.ptr(ids, inst, 1)?;
                let v = self.load_from(&src).map_err(|e| err(inst, e))?;
                self.store_to(&dst, &v).map_err(|e| err(inst, e))?;
                None
            }
            O::AccessChain | O::InBoundsAccessChain => {
                let p = self.access_chain(ids, inst)?;
                match p.base {
                    // A device address stays a value: the base plus the offset.
                    PtrBase::Global { addr } => {
                        if p.matrix.is_some() || p.comp_stride.is_some() {
                            return Err(err(
                                inst,
                                "matrices through device addresses are not supported",
                            ));
                        }
                        let wide = self.convert(
                            ConvKind::I2I { signed: false },
                            BitSize::B32,
                            BitSize::B64,
                            p.offset,
                        )?;
                        let at = self.alu(AluOp::IAdd, BitSize::B64, &[addr, wide])?;
                        Some(Val::Comp(Comp::new(vec![at], vec![BitSize::B64])))
                    }
                    _ => Some(Val::Ptr(p)),
                }
            }
            O::ConvertUToPtr | O::ConvertPtrToU => {
                // A device address and an integer of any width, zero-extended or
                // truncated.
                let v = self.comp(ids, inst, 0)?;
                let to = self.result_sizes(inst)?;
                if v.len() != 1 || to.len() != 1 {
                    return Err(err(inst, "only scalar addresses convert"));
                }
                let r = if v.sizes[0] == to[0] {
                    v.srcs[0]
                } else {
                    self.convert(
                        ConvKind::I2I { signed: false },
                        v.sizes[0],
                        to[0],
                        v.srcs[0],
                    )?
                };
                Some(Val::Comp(Comp::new(vec![r], to)))
            }
            O::PtrAccessChain | O::InBoundsPtrAccessChain => {
                return Err(err(inst, "pointer arithmetic is not supported"))
            }
            O::ArrayLength => Some(Val::Comp(self.array_length(ids, inst)?)),
            O::FunctionCall => {
                let callee = id_at(inst, 0)?;
                let mut args = Vec::new();
                for i in 1..inst.operands.len() {
                    let id = id_at(inst, i)?;
                    args.push(
                        self.get(ids, id)
                            .ok_or_else(|| err(inst, format!("%{id} is not defined")))?,
                    );
                }
                self.call(callee, args)?.map(Val::Comp)
            }
            O::ExtInst => {
                let set = id_at(inst, 0)?;
                if Some(set) != self.m.glsl_std450 {
                    // Non-semantic (debug info) instructions have no effect.
                    return Ok(());
                }
                Some(Val::Comp(self.glsl_std450(ids, inst)?))
            }
            O::ControlBarrier | O::MemoryBarrier => {
                let (execution, scope, sem) = if op == O::ControlBarrier {
                    (
                        Some(self.constant_operand(inst, 0)?),
                        self.constant_operand(inst, 1)?,
                        self.constant_operand(inst, 2)?,
                    )
                } else {
                    (
                        None,
                        self.constant_operand(inst, 0)?,
                        self.constant_operand(inst, 1)?,
                    )
                };
                if let Some(b) = memory_semantics::barrier_instruction(execution, scope, sem) {
                    self.emit(Op::Barrier(b), None)?;
                }
                None
            }
            O::AtomicExchange
            | O::AtomicCompareExchange
            | O::AtomicIIncrement
            | O::AtomicIDecrement
            | O::AtomicIAdd
            | O::AtomicISub
            | O::AtomicSMin
            | O::AtomicUMin
            | O::AtomicSMax
            | O::AtomicUMax
            | O::AtomicAnd
            | O::AtomicOr
            | O::AtomicXor => Some(Val::Comp(self.atomic(ids, inst)?)),
            O::SDot | O::UDot | O::SUDot | O::SDotAccSat | O::UDotAccSat | O::SUDotAccSat => {
                Some(Val::Comp(self.integer_dot(ids, inst)?))
            }
            op if super::subgroup::is_subgroup_op(op) => Some(Val::Comp(self.subgroup(ids, inst)?)),
            _ => Some(Val::Comp(self.value_instruction(ids, inst)?)),
        };
        if let Some(v) = result {
            let (ty, rid) = result_of(inst)?;
            self.types_of.insert(rid, ty);
            if let Val::Comp(c) = &v {
                let expect = self.result_sizes(inst)?;
                if c.sizes != expect {
                    return Err(err(inst, "result does not match its type"));
                }
            }
            ids.insert(rid, v);
        }
        Ok(())
    }

    fn array_length(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Comp> {
        let p = self.ptr(ids, inst, 0)?;
        let member = lit_at(inst, 1)?;
        let (set, binding, index) = match p.base {
            PtrBase::Buffer {
                ubo: false,
                set,
                binding,
                index,
                array_pending: false,
            } => (set, binding, index),
            _ => return Err(err(inst, "operand is not a storage buffer block")),
        };
        let members = match self.m.ty(p.pointee)? {
            Type::Struct { members } => members.clone(),
            _ => return Err(err(inst, "operand is not a struct")),
        };
        let arr = *members
            .get(member as usize)
            .ok_or_else(|| err(inst, "no such member"))?;
        let off = layout::member_offset(self.m, p.pointee, member, LayoutKind::Explicit)
            .map_err(|e| err(inst, e))?;
        let stride =
            layout::array_stride(self.m, arr, LayoutKind::Explicit).map_err(|e| err(inst, e))?;
        if stride == 0 {
            return Err(err(inst, "array stride is zero"));
        }
        let size = self.value(
            Op::BufferSize(Resource::Binding {
                set,
                binding,
                index,
            }),
            BitSize::B32,
        )?;
        let base = self.alu(AluOp::IAdd, BitSize::B32, &[p.offset, Src::Imm(off as u64)])?;
        // A buffer smaller than the array's start has no elements.
        let bytes = self.alu(AluOp::UMax, BitSize::B32, &[size, base])?;
        let bytes = self.alu(AluOp::ISub, BitSize::B32, &[bytes, base])?;
        let n = self.alu(AluOp::UDiv, BitSize::B32, &[bytes, Src::Imm(stride as u64)])?;
        Ok(Comp::new(vec![n], vec![BitSize::B32]))
    }

    /// A constant operand's value (scopes and memory semantics).
    fn constant_operand(&self, inst: &dr::Instruction, i: usize) -> Result<u64> {
        let id = id_at(inst, i)?;
        self.m
            .scalar_constant(id)
            .ok_or_else(|| err(inst, format!("%{id} is not a constant")))
    }

    /// The release half of an atomic's semantics before it (`before`) or the acquire
    /// half after it, from its scope and semantics operands at `at` and `at + 1`.
    fn atomic_ordering(
        &mut self,
        inst: &dr::Instruction,
        p: &Ptr,
        at: usize,
        before: bool,
    ) -> Result<()> {
        let scope = self.constant_operand(inst, at)?;
        let sem = self.constant_operand(inst, at + 1)?;
        let storage = match p.base {
            PtrBase::Shared => memory_semantics::Storage::Shared,
            PtrBase::Buffer { .. } | PtrBase::Global { .. } | PtrBase::Texel { .. } => {
                memory_semantics::Storage::Buffer
            }
            _ => memory_semantics::Storage::Other,
        };
        let b = if before {
            memory_semantics::before_atomic(scope, sem, storage)
        } else {
            memory_semantics::after_atomic(scope, sem, storage)
        };
        if let Some(b) = b {
            self.emit(Op::Barrier(b), None)?;
        }
        Ok(())
    }

    fn atomic(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Comp> {
        let p = self.ptr(ids, inst, 0)?;
        // OpAtomicCompareExchange's unequal semantics (operand 3) order nothing more
        // than its equal ones do on this hardware: the equal ones are taken.
        self.atomic_ordering(inst, &p, 1, true)?;
        let v = self.atomic_operation(ids, inst, &p)?;
        self.atomic_ordering(inst, &p, 1, false)?;
        Ok(v)
    }

    fn atomic_operation(&mut self, ids: &Ids, inst: &dr::Instruction, p: &Ptr) -> Result<Comp> {
        use SpvOp as O;
        let p = p.clone();
        let sizes = self.result_sizes(inst)?;
        if sizes.len() != 1 || sizes[0] == BitSize::B1 {
            return Err(err(inst, "atomics operate on one integer"));
        }
        let size = sizes[0];
        let data_at = |t: &Self, i: usize| -> Result<Src> {
            let c = t.comp(ids, inst, i)?;
            if c.len() != 1 || c.sizes[0] != size {
                return Err(err(inst, "value does not match the pointer"));
            }
            Ok(c.srcs[0])
        };
        let (aop, data, compare) = match inst.class.opcode {
            O::AtomicIIncrement => (AtomicOp::Add, Src::Imm(1), None),
            O::AtomicIDecrement => (AtomicOp::Add, Src::Imm(size.mask()), None),
            O::AtomicISub => {
                let d = data_at(self, 3)?;
                (AtomicOp::Add, self.alu(AluOp::INeg, size, &[d])?, None)
            }
            O::AtomicCompareExchange => (
                AtomicOp::CompareExchange,
                data_at(self, 4)?,
                Some(data_at(self, 5)?),
            ),
            other => {
                let aop = match other {
                    O::AtomicExchange => AtomicOp::Exchange,
                    O::AtomicIAdd => AtomicOp::Add,
                    O::AtomicSMin => AtomicOp::SMin,
                    O::AtomicUMin => AtomicOp::UMin,
                    O::AtomicSMax => AtomicOp::SMax,
                    O::AtomicUMax => AtomicOp::UMax,
                    O::AtomicAnd => AtomicOp::And,
                    O::AtomicOr => AtomicOp::Or,
                    _ => AtomicOp::Xor,
                };
                (aop, data_at(self, 3)?, None)
            }
        };
        if let PtrBase::Texel {
            image,
            coords,
            count,
        } = p.base
        {
            if size != BitSize::B32 {
                return Err(err(inst, "texel atomics are on 32-bit integers"));
            }
            let coords = coords[..usize::from(count)].iter().copied().collect();
            let v = self.texel_atomic(inst, image, coords, aop, data, compare)?;
            return Ok(Comp::new(vec![v], vec![size]));
        }
        let leaves = layout::leaf_offsets(self.m, p.pointee, p.layout(), None, None)
            .map_err(|e| err(inst, e))?;
        if leaves.len() != 1 {
            return Err(err(inst, "pointer is not to a scalar"));
        }
        let (space, offset) = match p.base {
            PtrBase::Shared | PtrBase::Buffer { ubo: false, .. } => (
                self.space(&p).map_err(|e| err(inst, e))?,
                self.offset_plus(&p, leaves[0].0)?,
            ),
            PtrBase::Global { addr } => {
                let (lo, hi) = self.global_address(&p, addr, leaves[0].0)?;
                (Space::Global { hi }, lo)
            }
            _ => {
                return Err(err(
                    inst,
                    "atomics need a storage buffer, shared memory, a device address or a texel",
                ))
            }
        };
        let v = self.value(
            Op::Atomic(Atomic {
                op: aop,
                space,
                offset,
                data,
                compare,
                size,
            }),
            size,
        )?;
        Ok(Comp::new(vec![v], vec![size]))
    }
}
