//! The operations of the IR, one type per kind, and generic operand access so that passes
//! walk operands without matching every operation.

use super::{BitSize, Src};
use crate::stage_info::{Interpolation, Sampling, ScalarKind, VaryingSlot};
use smallvec::SmallVec;

/// Arithmetic and logic. `size` is the size of the operands (the result's size follows from
/// [`AluOp::result_size`]); for `Select`, it is the size of the two chosen values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alu {
    pub op: AluOp,
    pub size: BitSize,
    pub srcs: SmallVec<[Src; 3]>,
}

macro_rules! alu_ops {
    ($($name:ident $text:literal $arity:literal,)*) => {
        /// ALU operations. Integer operations wrap; shifts take the amount modulo the bit
        /// size (see `passes::opt_algebraic` for why that is what the back end must give).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum AluOp { $($name,)* }

        impl AluOp {
            pub fn name(self) -> &'static str {
                match self { $(AluOp::$name => $text,)* }
            }
            pub fn arity(self) -> usize {
                match self { $(AluOp::$name => $arity,)* }
            }
            pub const ALL: &'static [AluOp] = &[$(AluOp::$name,)*];
        }
    };
}

alu_ops! {
    Mov "mov" 1,
    // Integer arithmetic.
    IAdd "iadd" 2,
    ISub "isub" 2,
    IMul "imul" 2,
    UMulHigh "umul_high" 2,
    IMulHigh "imul_high" 2,
    INeg "ineg" 1,
    IAbs "iabs" 1,
    ISign "isign" 1,
    UDiv "udiv" 2,
    SDiv "sdiv" 2,
    UMod "umod" 2,
    SRem "srem" 2,
    SMod "smod" 2,
    UMin "umin" 2,
    UMax "umax" 2,
    SMin "smin" 2,
    SMax "smax" 2,
    // Bitwise (also the logical operations on booleans).
    And "and" 2,
    Or "or" 2,
    Xor "xor" 2,
    Not "not" 1,
    Shl "shl" 2,
    UShr "ushr" 2,
    SShr "sshr" 2,
    BitCount "bit_count" 1,
    BitReverse "bit_reverse" 1,
    FindLsb "find_lsb" 1,
    UFindMsb "ufind_msb" 1,
    SFindMsb "sfind_msb" 1,
    UBitfieldExtract "ubfe" 3,
    SBitfieldExtract "sbfe" 3,
    BitfieldInsert "bfi" 4,
    // Integer comparisons (boolean result).
    IEq "ieq" 2,
    INe "ine" 2,
    ULt "ult" 2,
    ULe "ule" 2,
    SLt "slt" 2,
    SLe "sle" 2,
    // Float arithmetic.
    FAdd "fadd" 2,
    FSub "fsub" 2,
    FMul "fmul" 2,
    FDiv "fdiv" 2,
    FFma "ffma" 3,
    FNeg "fneg" 1,
    FAbs "fabs" 1,
    FSign "fsign" 1,
    FMin "fmin" 2,
    FMax "fmax" 2,
    FSat "fsat" 1,
    FFloor "ffloor" 1,
    FCeil "fceil" 1,
    FTrunc "ftrunc" 1,
    FRoundEven "fround_even" 1,
    FFract "ffract" 1,
    FSqrt "fsqrt" 1,
    FRsq "frsq" 1,
    FRcp "frcp" 1,
    FExp2 "fexp2" 1,
    FLog2 "flog2" 1,
    FSin "fsin" 1,
    FCos "fcos" 1,
    // Screen-space derivatives across the fragment's 2x2 quad (fragment shaders only):
    // coarse ones are the same for the quad, fine ones along the fragment's own row or
    // column.
    FDdx "fddx" 1,
    FDdy "fddy" 1,
    FDdxFine "fddx_fine" 1,
    FDdyFine "fddy_fine" 1,
    // Float comparisons (boolean result). Ordered unless named `u`.
    FEq "feq" 2,
    FNeU "fneu" 2,
    FLt "flt" 2,
    FLe "fle" 2,
    FIsNan "fisnan" 1,
    FIsInf "fisinf" 1,
    // cond ? a : b; the condition is a boolean.
    Select "select" 3,
    // 64-bit values from and to their 32-bit halves.
    Pack64 "pack64" 2,
    Unpack64Lo "unpack64_lo" 1,
    Unpack64Hi "unpack64_hi" 1,
    // Two 16-bit halves in a 32-bit value, and back.
    Pack32 "pack32" 2,
    Unpack32Lo "unpack32_lo" 1,
    Unpack32Hi "unpack32_hi" 1,
}

impl AluOp {
    /// The size of the result given the operand size.
    pub fn result_size(self, size: BitSize) -> BitSize {
        use AluOp::*;
        match self {
            IEq | INe | ULt | ULe | SLt | SLe | FEq | FNeU | FLt | FLe | FIsNan | FIsInf => {
                BitSize::B1
            }
            Pack64 => BitSize::B64,
            Unpack64Lo | Unpack64Hi => BitSize::B32,
            Pack32 => BitSize::B32,
            Unpack32Lo | Unpack32Hi => BitSize::B16,
            BitCount | FindLsb | UFindMsb | SFindMsb => BitSize::B32,
            _ => size,
        }
    }

    /// The size of operand `i` given the operation's size.
    pub fn src_size(self, size: BitSize, i: usize) -> BitSize {
        use AluOp::*;
        match self {
            Select if i == 0 => BitSize::B1,
            Shl | UShr | SShr if i == 1 => BitSize::B32,
            UBitfieldExtract | SBitfieldExtract if i > 0 => BitSize::B32,
            BitfieldInsert if i > 1 => BitSize::B32,
            Pack64 => BitSize::B32,
            Unpack64Lo | Unpack64Hi => BitSize::B64,
            Pack32 => BitSize::B16,
            Unpack32Lo | Unpack32Hi => BitSize::B32,
            _ => size,
        }
    }

    /// Whether `a op b == b op a`.
    pub fn is_commutative(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            IAdd | IMul
                | UMulHigh
                | IMulHigh
                | UMin
                | UMax
                | SMin
                | SMax
                | And
                | Or
                | Xor
                | IEq
                | INe
                | FAdd
                | FMul
                | FMin
                | FMax
                | FEq
                | FNeU
        )
    }

    pub fn is_float(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            FAdd | FSub
                | FMul
                | FDiv
                | FFma
                | FNeg
                | FAbs
                | FSign
                | FMin
                | FMax
                | FSat
                | FFloor
                | FCeil
                | FTrunc
                | FRoundEven
                | FFract
                | FSqrt
                | FRsq
                | FRcp
                | FExp2
                | FLog2
                | FSin
                | FCos
                | FEq
                | FNeU
                | FLt
                | FLe
                | FIsNan
                | FIsInf
        )
    }
}

/// Conversions between sizes and between integers and floats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ConvKind {
    /// Float to float of another size (round to nearest even).
    F2F,
    /// Float to integer, rounding toward zero; out of range saturates.
    F2I { signed: bool },
    /// Integer to float.
    I2F { signed: bool },
    /// Integer resize: sign or zero extension when growing, truncation when shrinking.
    I2I { signed: bool },
    /// Integer (or boolean) to boolean: `x != 0`; boolean to integer: 0 or 1.
    Bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Convert {
    pub kind: ConvKind,
    pub from: BitSize,
    pub to: BitSize,
    pub src: Src,
}

/// A descriptor, first as the shader names it, then as the hardware finds it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Resource {
    /// `(set, binding)[index]` from SPIR-V.
    Binding { set: u32, binding: u32, index: Src },
    /// Bindless: descriptor set `base` (SP_BINDLESS_BASE[base]) and the descriptor's index
    /// in 16-dword units within it.
    Bindless { base: u32, index: Src },
}

impl Resource {
    fn for_each_src_mut(&mut self, f: &mut impl FnMut(&mut Src)) {
        match self {
            Resource::Binding { index, .. } | Resource::Bindless { index, .. } => f(index),
        }
    }

    fn for_each_src(&self, f: &mut impl FnMut(&Src)) {
        match self {
            Resource::Binding { index, .. } | Resource::Bindless { index, .. } => f(index),
        }
    }
}

/// A memory a load, store or atomic reaches. Offsets are in bytes except for `Local`
/// (scalar slots).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Ssbo(Resource),
    Ubo(Resource),
    PushConst,
    Shared,
    Scratch,
    /// The const file (after I/O lowering): 4 bytes per component, 16 per vec4.
    Const,
    /// A function-local variable slot, before `lower_vars_to_ssa`.
    Local(u32),
    /// Memory at a device address (a physical storage buffer pointer): the operation's
    /// offset is the address's low 32 bits and `hi` its high 32 bits.
    Global {
        hi: Src,
    },
}

impl Space {
    pub fn is_read_only(&self) -> bool {
        matches!(self, Space::Ubo(_) | Space::PushConst | Space::Const)
    }

    fn for_each_src_mut(&mut self, f: &mut impl FnMut(&mut Src)) {
        match self {
            Space::Ssbo(r) | Space::Ubo(r) => r.for_each_src_mut(f),
            Space::Global { hi } => f(hi),
            _ => {}
        }
    }

    fn for_each_src(&self, f: &mut impl FnMut(&Src)) {
        match self {
            Space::Ssbo(r) | Space::Ubo(r) => r.for_each_src(f),
            Space::Global { hi } => f(hi),
            _ => {}
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Load {
    pub space: Space,
    pub offset: Src,
    pub size: BitSize,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Store {
    pub space: Space,
    pub offset: Src,
    pub value: Src,
    pub size: BitSize,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    SMin,
    UMin,
    SMax,
    UMax,
    And,
    Or,
    Xor,
    Exchange,
    CompareExchange,
}

impl AtomicOp {
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::SMin => "smin",
            AtomicOp::UMin => "umin",
            AtomicOp::SMax => "smax",
            AtomicOp::UMax => "umax",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::Exchange => "xchg",
            AtomicOp::CompareExchange => "cmpxchg",
        }
    }
}

/// Read-modify-write; the result is the old value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atomic {
    pub op: AtomicOp,
    pub space: Space,
    pub offset: Src,
    pub data: Src,
    /// The value compared against, for `CompareExchange`.
    pub compare: Option<Src>,
    pub size: BitSize,
}

/// Which path of the GPU reaches a texel buffer or image view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexelPath {
    /// A uniform texel buffer or a sampled image: read through the texture unit.
    Sampled,
    /// A storage texel buffer or image: read, written and updated atomically by the
    /// shader processor's typed image instructions.
    Storage,
}

/// How an access sees a texel's components (the SPIR-V image's sampled type): loads give
/// a float format's components as f32 and an integer format's as 32-bit integers; stores
/// give the values in that form and the format converts them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexelType {
    Float,
    Sint,
    Uint,
}

/// What a view's texels are arranged in: a buffer's single row, or an image of one to
/// three dimensions (cube faces are layers to storage access; sampling cubes is not
/// supported).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexelDim {
    Buffer,
    D1,
    D2,
    D3,
    Cube,
}

/// A texel buffer or image view as an operation names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexelView {
    pub resource: Resource,
    /// The sampler a filtered load uses: a sampler binding, or the combined image
    /// sampler binding of `resource` itself.
    pub sampler: Option<Resource>,
    pub path: TexelPath,
    pub ty: TexelType,
    pub dim: TexelDim,
    /// An array of layers (the layer is the last coordinate).
    pub arrayed: bool,
}

impl TexelView {
    fn for_each_src_mut(&mut self, f: &mut impl FnMut(&mut Src)) {
        self.resource.for_each_src_mut(f);
        if let Some(s) = &mut self.sampler {
            s.for_each_src_mut(f);
        }
    }

    fn for_each_src(&self, f: &mut impl FnMut(&Src)) {
        self.resource.for_each_src(f);
        if let Some(s) = &self.sampler {
            s.for_each_src(f);
        }
    }

    /// Coordinates an access takes: the dimensions, then the layer of an array (or the
    /// face of a cube, `6 * layer + face` in a cube array).
    pub fn coords(&self) -> usize {
        let dims = match self.dim {
            TexelDim::Buffer | TexelDim::D1 => 1,
            TexelDim::D2 => 2,
            TexelDim::D3 | TexelDim::Cube => 3,
        };
        dims + usize::from(self.arrayed && self.dim != TexelDim::Cube)
    }
}

/// A texel's coordinates, as many as [`TexelView::coords`].
pub type Coords = SmallVec<[Src; 3]>;

/// Component `component` (0-3, x to w) of a texel: 32 bits. A fetch (`filtered` false)
/// reads the texel at integer `coords` of level `lod` (an integer; level 0 without); a
/// filtered load samples at normalised float `coords` and float level `lod` through the
/// view's sampler. A filtered load with none of `lod`, `bias` and `gradients` takes the
/// quad's implicit level of detail.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexelLoad {
    pub view: TexelView,
    pub coords: Coords,
    pub lod: Option<Src>,
    pub filtered: bool,
    pub component: u8,
    /// What else a filtered load does (boxed: most loads have none of it).
    pub extra: Box<SampleOperands>,
}

/// The operands of a filtered load besides its coordinates and level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SampleOperands {
    /// Added to the implicit level of detail.
    pub bias: Option<Src>,
    /// Explicit derivatives: the coordinates' along x, then along y.
    pub gradients: Vec<Src>,
    /// A gather of this component of the four texels bilinear filtering would weigh.
    pub gather: Option<u8>,
    /// Texel offsets added to the coordinates (one per coordinate, integers).
    pub offsets: Vec<Src>,
    /// The depth reference a shadow lookup compares the texels with.
    pub compare: Option<Src>,
}

/// Writes the texel at `coords`: `values` are its first components, as many as the
/// view's format is given (1 to 4).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexelStore {
    pub view: TexelView,
    pub coords: Coords,
    pub values: SmallVec<[Src; 4]>,
}

/// Read-modify-write of the 32-bit integer texel at `coords`; the result is the old
/// value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexelAtomic {
    pub view: TexelView,
    pub coords: Coords,
    pub op: AtomicOp,
    pub data: Src,
    /// The value compared against, for `CompareExchange`.
    pub compare: Option<Src>,
}

/// Where a graphics shader's output goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutputSlot {
    /// A vertex shader output (position, point size, distances, a varying), one
    /// component.
    Varying(VaryingSlot, u8),
    /// Component `component` of colour output `location`.
    Color {
        location: u32,
        component: u8,
        kind: ScalarKind,
    },
    /// gl_FragDepth.
    Depth,
    /// gl_SampleMask\[0\].
    SampleMask,
}

/// `slot = src` when the invocation ends (32-bit values).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Output {
    pub slot: OutputSlot,
    pub src: Src,
}

/// Component `component` of a view's size: a buffer's texels (component 0), an image's
/// width, height and depth or layers at level `lod` (an integer), or (component 3) its
/// levels.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexelSize {
    pub view: TexelView,
    pub lod: Src,
    pub component: u8,
}

/// Inputs of an invocation: built-ins, and the vertex attributes and varyings of the
/// graphics stages.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SysVal {
    /// Component `component` of vertex attribute `location`, as the VFD converted it.
    Attribute {
        location: u32,
        component: u8,
        kind: ScalarKind,
    },
    /// Component `component` of fragment shader input `location`, interpolated so.
    Varying {
        location: u32,
        component: u8,
        interpolation: Interpolation,
        sampling: Sampling,
        kind: ScalarKind,
    },
    /// The vertex index (the draw's vertex offset or first vertex included).
    VertexId,
    /// The instance counted from the draw's first instance (gl_InstanceIndex is
    /// `InstanceId + BaseInstance`).
    InstanceId,
    BaseVertex,
    BaseInstance,
    /// gl_FragCoord.xyzw.
    FragCoord(u8),
    /// gl_FrontFacing, as 0 or 1.
    FrontFacing,
    /// gl_SampleID: the sample a per-sample invocation shades (0 otherwise).
    SampleId,
    /// gl_SampleMaskIn[0]: the samples of the fragment the primitive covers (none for a
    /// helper invocation).
    SampleMaskIn,
    LocalInvocationId(u8),
    /// The group's position in the dispatch, counted from 0 (what the hardware delivers).
    WorkgroupId(u8),
    /// vkCmdDispatchBase's first group: gl_WorkGroupID is `WorkgroupId + BaseWorkgroup`.
    BaseWorkgroup(u8),
    NumWorkgroups(u8),
    /// (WorkgroupId + BaseWorkgroup) * local size + LocalInvocationId.
    GlobalInvocationId(u8),
    LocalInvocationIndex,
    /// Invocations per subgroup: the wave size the shader is compiled for.
    SubgroupSize,
    /// The invocation's fiber in its wave (`getfiberid`).
    SubgroupInvocationId,
    /// gl_ViewIndex: the view of a multiview subpass being rendered (0 outside one).
    ViewIndex,
}

/// What a subgroup operation computes over the active invocations of its wave.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SubgroupOp {
    /// True in the lowest active invocation only.
    Elect,
    /// Whether the boolean operand is true in any / all active invocations.
    Any,
    All,
    /// Dword `0..4` of the mask of active invocations whose operand is true.
    Ballot(u8),
    /// The operand of the lowest active invocation.
    BroadcastFirst,
    /// The first operand of the invocation the second (dynamically uniform) names.
    Broadcast,
    /// The operand of the invocation the second names, different per invocation.
    Shuffle,
    /// The operation (an associative [`AluOp`]) over the operands of every active
    /// invocation, of those up to and including this one, or of those before it.
    Reduce(AluOp),
    InclusiveScan(AluOp),
    ExclusiveScan(AluOp),
    /// The operand of invocation `src[1]` (0-3, uniform) of the invocation's quad.
    QuadBroadcast,
    /// The operand of the invocation at `lane ^ n` in the quad (1: horizontal,
    /// 2: vertical, 3: diagonal).
    QuadSwap(u8),
}

/// A subgroup operation on operands of `size` bits (booleans for `Any`/`All`/`Ballot`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Subgroup {
    pub op: SubgroupOp,
    pub size: BitSize,
    pub srcs: SmallVec<[Src; 2]>,
}

/// What a barrier orders.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Barrier {
    /// All invocations of the workgroup wait here (OpControlBarrier at workgroup scope).
    pub execution: bool,
    /// Memory accesses to buffers before it complete before those after it.
    pub buffer_memory: bool,
    /// Same, for shared memory.
    pub shared_memory: bool,
    /// The memory scope reaches past the work group (Device, QueueFamily): other work
    /// groups' writes are to become visible.
    pub device_scope: bool,
    /// The ordering includes acquire (what is read after it sees what others released).
    pub acquire: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Alu(Alu),
    /// A graphics shader's output at the end of the invocation.
    Output(Output),
    /// The fragment is discarded (OpKill, OpTerminateInvocation): the invocation stops
    /// having effects.
    Kill,
    Convert(Convert),
    SysVal(SysVal),
    Load(Load),
    Store(Store),
    Atomic(Atomic),
    Barrier(Barrier),
    /// Bytes in a storage buffer (for OpArrayLength).
    BufferSize(Resource),
    TexelLoad(TexelLoad),
    TexelStore(TexelStore),
    TexelAtomic(TexelAtomic),
    TexelSize(TexelSize),
    /// A subgroup operation: its result depends on the other invocations of the wave,
    /// so it is neither moved across control flow nor merged with another.
    Subgroup(Subgroup),
    /// A value with no defined contents.
    Undef,
}

impl Op {
    pub fn alu(op: AluOp, size: BitSize, srcs: &[Src]) -> Op {
        Op::Alu(Alu {
            op,
            size,
            srcs: srcs.iter().copied().collect(),
        })
    }

    /// Calls `f` on every operand.
    pub fn for_each_src_mut(&mut self, mut f: impl FnMut(&mut Src)) {
        match self {
            Op::Alu(a) => a.srcs.iter_mut().for_each(f),
            Op::Convert(c) => f(&mut c.src),
            Op::Load(l) => {
                l.space.for_each_src_mut(&mut f);
                f(&mut l.offset);
            }
            Op::Store(s) => {
                s.space.for_each_src_mut(&mut f);
                f(&mut s.offset);
                f(&mut s.value);
            }
            Op::Atomic(a) => {
                a.space.for_each_src_mut(&mut f);
                f(&mut a.offset);
                f(&mut a.data);
                if let Some(c) = &mut a.compare {
                    f(c);
                }
            }
            Op::BufferSize(r) => r.for_each_src_mut(&mut f),
            Op::TexelSize(t) => {
                t.view.for_each_src_mut(&mut f);
                f(&mut t.lod);
            }
            Op::TexelLoad(l) => {
                l.view.for_each_src_mut(&mut f);
                l.coords.iter_mut().for_each(&mut f);
                let x = &mut *l.extra;
                l.lod.iter_mut().chain(&mut x.bias).for_each(&mut f);
                x.compare.iter_mut().for_each(&mut f);
                x.gradients.iter_mut().for_each(&mut f);
                x.offsets.iter_mut().for_each(&mut f);
            }
            Op::TexelStore(s) => {
                s.view.for_each_src_mut(&mut f);
                s.coords.iter_mut().for_each(&mut f);
                s.values.iter_mut().for_each(f);
            }
            Op::TexelAtomic(a) => {
                a.view.for_each_src_mut(&mut f);
                a.coords.iter_mut().for_each(&mut f);
                f(&mut a.data);
                if let Some(c) = &mut a.compare {
                    f(c);
                }
            }
            Op::Output(o) => f(&mut o.src),
            Op::Subgroup(g) => g.srcs.iter_mut().for_each(f),
            Op::SysVal(_) | Op::Barrier(_) | Op::Undef | Op::Kill => {}
        }
    }

    /// Calls `f` on every operand.
    pub fn for_each_src(&self, mut f: impl FnMut(&Src)) {
        match self {
            Op::Alu(a) => a.srcs.iter().for_each(f),
            Op::Convert(c) => f(&c.src),
            Op::Load(l) => {
                l.space.for_each_src(&mut f);
                f(&l.offset);
            }
            Op::Store(s) => {
                s.space.for_each_src(&mut f);
                f(&s.offset);
                f(&s.value);
            }
            Op::Atomic(a) => {
                a.space.for_each_src(&mut f);
                f(&a.offset);
                f(&a.data);
                if let Some(c) = &a.compare {
                    f(c);
                }
            }
            Op::BufferSize(r) => r.for_each_src(&mut f),
            Op::TexelSize(t) => {
                t.view.for_each_src(&mut f);
                f(&t.lod);
            }
            Op::TexelLoad(l) => {
                l.view.for_each_src(&mut f);
                l.coords.iter().for_each(&mut f);
                let x = &*l.extra;
                l.lod.iter().chain(&x.bias).for_each(&mut f);
                x.compare.iter().for_each(&mut f);
                x.gradients.iter().for_each(&mut f);
                x.offsets.iter().for_each(&mut f);
            }
            Op::TexelStore(s) => {
                s.view.for_each_src(&mut f);
                s.coords.iter().for_each(&mut f);
                s.values.iter().for_each(f);
            }
            Op::TexelAtomic(a) => {
                a.view.for_each_src(&mut f);
                a.coords.iter().for_each(&mut f);
                f(&a.data);
                if let Some(c) = &a.compare {
                    f(c);
                }
            }
            Op::Output(o) => f(&o.src),
            Op::Subgroup(g) => g.srcs.iter().for_each(f),
            Op::SysVal(_) | Op::Barrier(_) | Op::Undef | Op::Kill => {}
        }
    }

    /// Operations whose only effect is their result: removable when unused, and
    /// mergeable when identical.
    pub fn is_pure(&self) -> bool {
        match self {
            Op::Alu(_) | Op::Convert(_) | Op::SysVal(_) | Op::Undef => true,
            Op::BufferSize(_) | Op::TexelSize(_) => true,
            Op::Load(l) => l.space.is_read_only(),
            // Uniform texel buffers and sampled images do not change during a dispatch;
            // storage ones may.
            Op::TexelLoad(l) => l.view.path == TexelPath::Sampled,
            Op::Store(_) | Op::Atomic(_) | Op::Barrier(_) | Op::TexelStore(_) => false,
            Op::Output(_) | Op::Kill => false,
            Op::TexelAtomic(_) => false,
            Op::Subgroup(_) => false,
        }
    }

    /// Operations that can be removed when their result is unused (every load can).
    pub fn is_removable(&self) -> bool {
        self.is_pure() || matches!(self, Op::Load(_) | Op::TexelLoad(_) | Op::Subgroup(_))
    }
}
