//! Parsnip's SSA IR: scalar values, typed operations, basic blocks with phis, and the
//! structured-control-flow annotations SPIR-V carries (selection and loop merges), which
//! the back end needs to place join points.
//!
//! The IR is scalar: SPIR-V vectors, matrices, arrays and structs are split into their
//! scalar leaves by the front end, as ir3 itself is a scalar machine. Values are untyped bit
//! patterns of a [`BitSize`]; each operation says how it reads them (`fadd` vs `iadd`).

pub mod cfg;
pub mod eval;
pub mod interp;
pub mod op;
pub mod print;
pub mod texel_format;

pub use op::*;

/// An SSA value, defined exactly once.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Value(pub u32);

/// A basic block; `BlockId(0)` is the entry.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl BlockId {
    pub const ENTRY: BlockId = BlockId(0);
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The width of a value. `B1` is a boolean (an ir3 predicate or a 0/1 register value).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum BitSize {
    B1,
    B16,
    B32,
    B64,
}

impl BitSize {
    pub fn bits(self) -> u32 {
        match self {
            BitSize::B1 => 1,
            BitSize::B16 => 16,
            BitSize::B32 => 32,
            BitSize::B64 => 64,
        }
    }

    /// The mask of the bits a value of this size holds.
    pub fn mask(self) -> u64 {
        match self {
            BitSize::B64 => u64::MAX,
            s => (1u64 << s.bits()) - 1,
        }
    }

    /// Bytes the value takes in memory (booleans are stored as 32-bit 0/1).
    pub fn bytes(self) -> u32 {
        match self {
            BitSize::B1 | BitSize::B32 => 4,
            BitSize::B16 => 2,
            BitSize::B64 => 8,
        }
    }
}

/// An operand: an SSA value or an immediate bit pattern (of the size the operation reads).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Src {
    Val(Value),
    Imm(u64),
}

impl Src {
    pub fn as_imm(self) -> Option<u64> {
        match self {
            Src::Imm(v) => Some(v),
            Src::Val(_) => None,
        }
    }
    pub fn as_val(self) -> Option<Value> {
        match self {
            Src::Val(v) => Some(v),
            Src::Imm(_) => None,
        }
    }
}

impl From<Value> for Src {
    fn from(v: Value) -> Src {
        Src::Val(v)
    }
}

/// One instruction: an operation and the value it defines, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub dst: Option<Value>,
    pub op: Op,
}

/// `dst = phi [pred0: src0, pred1: src1, ...]` at the top of a block.
#[derive(Clone, Debug, PartialEq)]
pub struct Phi {
    pub dst: Value,
    pub srcs: Vec<(BlockId, Src)>,
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Jump(BlockId),
    Branch {
        cond: Src,
        then_block: BlockId,
        else_block: BlockId,
    },
    /// Multi-way branch on an integer of `size` bits.
    Switch {
        selector: Src,
        size: BitSize,
        cases: Vec<(u64, BlockId)>,
        default: BlockId,
    },
    /// The invocation ends.
    Return,
    /// Control never reaches here (SPIR-V OpUnreachable).
    Unreachable,
}

impl Terminator {
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Jump(b) => vec![*b],
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => vec![*then_block, *else_block],
            Terminator::Switch { cases, default, .. } => {
                let mut s: Vec<BlockId> = cases.iter().map(|c| c.1).collect();
                s.push(*default);
                s
            }
            Terminator::Return | Terminator::Unreachable => Vec::new(),
        }
    }

    pub fn successors_mut(&mut self) -> Vec<&mut BlockId> {
        match self {
            Terminator::Jump(b) => vec![b],
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => vec![then_block, else_block],
            Terminator::Switch { cases, default, .. } => {
                let mut s: Vec<&mut BlockId> = cases.iter_mut().map(|c| &mut c.1).collect();
                s.push(default);
                s
            }
            Terminator::Return | Terminator::Unreachable => Vec::new(),
        }
    }

    pub fn src_mut(&mut self) -> Option<&mut Src> {
        match self {
            Terminator::Branch { cond, .. } => Some(cond),
            Terminator::Switch { selector, .. } => Some(selector),
            _ => None,
        }
    }

    pub fn src(&self) -> Option<&Src> {
        match self {
            Terminator::Branch { cond, .. } => Some(cond),
            Terminator::Switch { selector, .. } => Some(selector),
            _ => None,
        }
    }
}

/// The structured-control-flow role of a block's terminator, from SPIR-V's
/// OpSelectionMerge / OpLoopMerge: where divergent invocations meet again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Merge {
    Selection { merge: BlockId },
    Loop { merge: BlockId, cont: BlockId },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub phis: Vec<Phi>,
    pub instrs: Vec<Instr>,
    pub term: Terminator,
    pub merge: Option<Merge>,
}

impl Block {
    pub fn new() -> Block {
        Block {
            phis: Vec::new(),
            instrs: Vec::new(),
            term: Terminator::Unreachable,
            merge: None,
        }
    }
}

impl Default for Block {
    fn default() -> Self {
        Block::new()
    }
}

/// A function-local variable not yet in SSA form: its scalar slots and their sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalVar {
    pub slots: Vec<BitSize>,
}

/// Where a value lives in the const file (in dwords), decided by the I/O lowering.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstLayout {
    /// Push constants: (first dword, dwords).
    pub push_constants: Option<(u32, u32)>,
    /// Driver parameters and the dword each one is at.
    pub driver_params: Vec<(DriverParam, u32)>,
    /// Total dwords used, rounded up to whole vec4s.
    pub dwords: u32,
}

/// Values the driver uploads to the const file for a dispatch or a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DriverParam {
    /// vkCmdDispatch's group counts (x, y, z).
    NumWorkgroups(u8),
    /// vkCmdDispatchBase's base group (x, y, z).
    BaseWorkgroup(u8),
    /// The draw's vertexOffset (indexed) or firstVertex: gl_BaseVertex.
    BaseVertex,
    /// The draw's firstInstance: gl_BaseInstance, and what gl_InstanceIndex adds to the
    /// instance id the VFD delivers (which counts from 0).
    BaseInstance,
    /// The view of the multiview subpass the draw renders: gl_ViewIndex (0 outside
    /// multiview).
    ViewIndex,
}

impl DriverParam {
    /// Parameters of one group share a vec4, each at its own component, so that the
    /// driver uploads whole vec4s: (group, component).
    pub fn vec4_slot(self) -> (u8, u8) {
        match self {
            DriverParam::NumWorkgroups(c) => (0, c),
            DriverParam::BaseWorkgroup(c) => (1, c),
            DriverParam::BaseVertex => (2, 0),
            DriverParam::BaseInstance => (2, 1),
            DriverParam::ViewIndex => (2, 2),
        }
    }
}

/// A shader in the IR.
#[derive(Clone, Debug, PartialEq)]
pub struct Shader {
    pub stage: crate::stage_info::Stage,
    /// A fragment shader's EarlyFragmentTests.
    pub early_fragment_tests: bool,
    pub blocks: Vec<Block>,
    value_sizes: Vec<BitSize>,
    pub locals: Vec<LocalVar>,
    pub local_size: [u32; 3],
    /// Bytes of workgroup-shared memory.
    pub shared_bytes: u32,
    /// Bytes of per-invocation private (scratch) memory.
    pub scratch_bytes: u32,
    /// Bytes of push constants the shader reads.
    pub push_constant_bytes: u32,
    pub consts: ConstLayout,
    /// A vertex shader's gl_ClipDistance and gl_CullDistance sizes.
    pub clip_distances: u8,
    pub cull_distances: u8,
    /// The input attachments a fragment shader declares (InputAttachmentIndex), ascending.
    pub input_attachments: Vec<u32>,
    /// Invocations per subgroup: the wave size a shader using subgroups is compiled
    /// for (0 until the compiler knows the GPU).
    pub subgroup_size: u32,
    /// The application required the subgroup size (VK_EXT_subgroup_size_control): the
    /// shader runs in waves of `subgroup_size` whether or not it uses subgroups.
    pub wave_size_required: bool,
}

impl Shader {
    pub fn new(local_size: [u32; 3]) -> Shader {
        Shader {
            stage: crate::stage_info::Stage::Compute,
            early_fragment_tests: false,
            blocks: vec![Block::new()],
            value_sizes: Vec::new(),
            locals: Vec::new(),
            local_size,
            shared_bytes: 0,
            scratch_bytes: 0,
            push_constant_bytes: 0,
            consts: ConstLayout::default(),
            clip_distances: 0,
            input_attachments: Vec::new(),
            cull_distances: 0,
            subgroup_size: 0,
            wave_size_required: false,
        }
    }

    pub fn for_stage(
        stage: crate::stage_info::Stage,
        local_size: [u32; 3],
        early_fragment_tests: bool,
    ) -> Shader {
        Shader {
            stage,
            early_fragment_tests,
            ..Shader::new(local_size)
        }
    }

    pub fn new_value(&mut self, size: BitSize) -> Value {
        self.value_sizes.push(size);
        Value(self.value_sizes.len() as u32 - 1)
    }

    pub fn value_size(&self, v: Value) -> BitSize {
        self.value_sizes[v.0 as usize]
    }

    pub fn value_count(&self) -> usize {
        self.value_sizes.len()
    }

    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push(Block::new());
        BlockId(self.blocks.len() as u32 - 1)
    }

    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b.index()]
    }

    pub fn block_mut(&mut self, b: BlockId) -> &mut Block {
        &mut self.blocks[b.index()]
    }

    pub fn block_ids(&self) -> impl Iterator<Item = BlockId> {
        (0..self.blocks.len() as u32).map(BlockId)
    }

    /// Replaces every use of each key by its value (phi sources, operands, terminators).
    pub fn replace_uses(&mut self, map: &std::collections::HashMap<Value, Src>) {
        if map.is_empty() {
            return;
        }
        // Resolve chains (a -> b, b -> 7) so one pass over the code suffices.
        let resolve = |mut s: Src| {
            for _ in 0..map.len() + 1 {
                match s {
                    Src::Val(v) => match map.get(&v) {
                        Some(n) if *n != s => s = *n,
                        _ => return s,
                    },
                    Src::Imm(_) => return s,
                }
            }
            s
        };
        for block in &mut self.blocks {
            for phi in &mut block.phis {
                for (_, s) in &mut phi.srcs {
                    *s = resolve(*s);
                }
            }
            for instr in &mut block.instrs {
                instr.op.for_each_src_mut(|s| *s = resolve(*s));
            }
            if let Some(s) = block.term.src_mut() {
                *s = resolve(*s);
            }
        }
    }
}
