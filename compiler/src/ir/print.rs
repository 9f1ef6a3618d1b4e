//! The IR's text form, for debugging and for tests that check what a pass did.
//!
//! ```text
//! b0:
//!     %2:b32 = iadd.b32 %0, 0x1
//!     store.b32 ssbo(set 0, binding 1)[0x0] [%2] %1
//!     branch %3 -> b1, b2        // selection merge b3
//! ```

use super::*;
use std::fmt::{self, Display, Formatter, Write};

impl Display for Value {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl Display for BlockId {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "b{}", self.0)
    }
}

impl Display for BitSize {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "b{}", self.bits())
    }
}

impl Display for Src {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Src::Val(v) => write!(f, "{v}"),
            Src::Imm(i) => write!(f, "{i:#x}"),
        }
    }
}

impl Display for Resource {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Resource::Binding {
                set,
                binding,
                index,
            } => write!(f, "(set {set}, binding {binding})[{index}]"),
            Resource::Bindless { base, index } => write!(f, "(bindless {base})[{index}]"),
        }
    }
}

impl Display for Space {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Space::Ssbo(r) => write!(f, "ssbo{r}"),
            Space::Ubo(r) => write!(f, "ubo{r}"),
            Space::PushConst => write!(f, "push"),
            Space::Shared => write!(f, "shared"),
            Space::Scratch => write!(f, "scratch"),
            Space::Const => write!(f, "const"),
            Space::Local(v) => write!(f, "local{v}"),
            Space::Global { hi } => write!(f, "global(hi {hi})"),
        }
    }
}

impl Display for TexelView {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let path = match self.path {
            TexelPath::Sampled => "sampled",
            TexelPath::Storage => "storage",
        };
        let ty = match self.ty {
            TexelType::Float => "f32",
            TexelType::Sint => "s32",
            TexelType::Uint => "u32",
        };
        let dim = match self.dim {
            TexelDim::Buffer => "buf",
            TexelDim::D1 => "1d",
            TexelDim::D2 => "2d",
            TexelDim::D3 => "3d",
            TexelDim::Cube => "cube",
        };
        let array = if self.arrayed { ".array" } else { "" };
        write!(f, "{path}.{ty}.{dim}{array}{}", self.resource)?;
        if let Some(s) = self.sampler {
            write!(f, " samp{s}")?;
        }
        Ok(())
    }
}

/// `[x, y, z]`.
fn coords(f: &mut Formatter<'_>, c: &[Src]) -> fmt::Result {
    write!(f, "[")?;
    for (i, v) in c.iter().enumerate() {
        write!(f, "{}{v}", if i == 0 { "" } else { ", " })?;
    }
    write!(f, "]")
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

impl Display for SysVal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        const C: [char; 3] = ['x', 'y', 'z'];
        let c = |i: &u8| C.get(*i as usize).copied().unwrap_or('?');
        match self {
            SysVal::LocalInvocationId(i) => write!(f, "local_invocation_id.{}", c(i)),
            SysVal::WorkgroupId(i) => write!(f, "workgroup_id.{}", c(i)),
            SysVal::BaseWorkgroup(i) => write!(f, "base_workgroup.{}", c(i)),
            SysVal::NumWorkgroups(i) => write!(f, "num_workgroups.{}", c(i)),
            SysVal::GlobalInvocationId(i) => write!(f, "global_invocation_id.{}", c(i)),
            SysVal::LocalInvocationIndex => write!(f, "local_invocation_index"),
            SysVal::SubgroupSize => write!(f, "subgroup_size"),
            SysVal::SubgroupInvocationId => write!(f, "subgroup_invocation_id"),
            SysVal::Attribute {
                location,
                component,
                ..
            } => write!(
                f,
                "attribute{location}.{}",
                COMPONENTS[*component as usize & 3]
            ),
            SysVal::Varying {
                location,
                component,
                interpolation,
                sampling,
                ..
            } => write!(
                f,
                "varying{location}.{} {interpolation:?} {sampling:?}",
                COMPONENTS[*component as usize & 3]
            ),
            SysVal::VertexId => write!(f, "vertex_id"),
            SysVal::InstanceId => write!(f, "instance_id"),
            SysVal::BaseVertex => write!(f, "base_vertex"),
            SysVal::ViewIndex => write!(f, "view_index"),
            SysVal::BaseInstance => write!(f, "base_instance"),
            SysVal::FragCoord(i) => write!(f, "frag_coord.{}", COMPONENTS[*i as usize & 3]),
            SysVal::FrontFacing => write!(f, "front_facing"),
            SysVal::SampleId => write!(f, "sample_id"),
            SysVal::SampleMaskIn => write!(f, "sample_mask_in"),
        }
    }
}

impl Display for Op {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Op::Kill => write!(f, "kill"),
            Op::Output(o) => {
                match o.slot {
                    OutputSlot::Varying(slot, c) => {
                        write!(f, "output {slot:?}.{}", COMPONENTS[c as usize & 3])?
                    }
                    OutputSlot::Color {
                        location,
                        component,
                        kind,
                    } => write!(
                        f,
                        "output color{location}.{} {kind:?}",
                        COMPONENTS[component as usize & 3]
                    )?,
                    OutputSlot::Depth => write!(f, "output depth")?,
                    OutputSlot::SampleMask => write!(f, "output sample_mask")?,
                }
                write!(f, " = {}", o.src)
            }
            Op::Alu(a) => {
                write!(f, "{}.{}", a.op.name(), a.size)?;
                for (i, s) in a.srcs.iter().enumerate() {
                    write!(f, "{}{s}", if i == 0 { " " } else { ", " })?;
                }
                Ok(())
            }
            Op::Convert(c) => {
                let kind = match c.kind {
                    ConvKind::F2F => "f2f",
                    ConvKind::F2I { signed: true } => "f2i",
                    ConvKind::F2I { signed: false } => "f2u",
                    ConvKind::I2F { signed: true } => "i2f",
                    ConvKind::I2F { signed: false } => "u2f",
                    ConvKind::I2I { signed: true } => "i2i",
                    ConvKind::I2I { signed: false } => "u2u",
                    ConvKind::Bool => "b2b",
                };
                write!(f, "{kind}.{}.{} {}", c.from, c.to, c.src)
            }
            Op::SysVal(s) => write!(f, "sysval {s}"),
            Op::Load(l) => write!(f, "load.{} {}[{}]", l.size, l.space, l.offset),
            Op::Store(s) => write!(f, "store.{} {}[{}] {}", s.size, s.space, s.offset, s.value),
            Op::Atomic(a) => {
                write!(
                    f,
                    "atomic_{}.{} {}[{}] {}",
                    a.op.name(),
                    a.size,
                    a.space,
                    a.offset,
                    a.data
                )?;
                if let Some(c) = a.compare {
                    write!(f, ", cmp {c}")?;
                }
                Ok(())
            }
            Op::Barrier(b) => {
                write!(f, "barrier")?;
                if b.execution {
                    write!(f, " execution")?;
                }
                if b.buffer_memory {
                    write!(f, " buffer")?;
                }
                if b.shared_memory {
                    write!(f, " shared")?;
                }
                if b.device_scope {
                    write!(f, " device")?;
                }
                if b.acquire {
                    write!(f, " acquire")?;
                }
                Ok(())
            }
            Op::BufferSize(r) => write!(f, "buffer_size ssbo{r}"),
            Op::Subgroup(g) => {
                match g.op {
                    SubgroupOp::Elect => write!(f, "subgroup_elect")?,
                    SubgroupOp::Any => write!(f, "subgroup_any")?,
                    SubgroupOp::All => write!(f, "subgroup_all")?,
                    SubgroupOp::Ballot(d) => write!(f, "subgroup_ballot.{d}")?,
                    SubgroupOp::BroadcastFirst => write!(f, "subgroup_broadcast_first")?,
                    SubgroupOp::Broadcast => write!(f, "subgroup_broadcast")?,
                    SubgroupOp::Shuffle => write!(f, "subgroup_shuffle")?,
                    SubgroupOp::Reduce(a) => write!(f, "subgroup_reduce_{}", a.name())?,
                    SubgroupOp::InclusiveScan(a) => write!(f, "subgroup_iscan_{}", a.name())?,
                    SubgroupOp::ExclusiveScan(a) => write!(f, "subgroup_escan_{}", a.name())?,
                    SubgroupOp::QuadBroadcast => write!(f, "quad_broadcast")?,
                    SubgroupOp::QuadSwap(n) => write!(f, "quad_swap.{n}")?,
                }
                write!(f, ".{}", g.size)?;
                for (i, s) in g.srcs.iter().enumerate() {
                    write!(f, "{}{s}", if i == 0 { " " } else { ", " })?;
                }
                Ok(())
            }
            Op::TexelLoad(l) => {
                let c = COMPONENTS.get(l.component as usize).unwrap_or(&'?');
                let op = if l.filtered {
                    "texel_sample"
                } else {
                    "texel_load"
                };
                write!(f, "{op}.{c} {}", l.view)?;
                coords(f, &l.coords)?;
                if let Some(lod) = l.lod {
                    write!(f, " lod {lod}")?;
                }
                if let Some(bias) = l.extra.bias {
                    write!(f, " bias {bias}")?;
                }
                if !l.extra.gradients.is_empty() {
                    write!(f, " gradients")?;
                    coords(f, &l.extra.gradients)?;
                }
                if let Some(c) = l.extra.gather {
                    write!(f, " gather {c}")?;
                }
                if !l.extra.offsets.is_empty() {
                    write!(f, " offsets")?;
                    coords(f, &l.extra.offsets)?;
                }
                if let Some(r) = l.extra.compare {
                    write!(f, " compare {r}")?;
                }
                Ok(())
            }
            Op::TexelStore(s) => {
                write!(f, "texel_store {}", s.view)?;
                coords(f, &s.coords)?;
                for (i, v) in s.values.iter().enumerate() {
                    write!(f, "{}{v}", if i == 0 { " " } else { ", " })?;
                }
                Ok(())
            }
            Op::TexelAtomic(a) => {
                write!(f, "texel_atomic_{} {}", a.op.name(), a.view)?;
                coords(f, &a.coords)?;
                write!(f, " {}", a.data)?;
                if let Some(c) = a.compare {
                    write!(f, ", cmp {c}")?;
                }
                Ok(())
            }
            Op::TexelSize(t) => {
                let c = COMPONENTS.get(t.component as usize).unwrap_or(&'?');
                write!(f, "texel_size.{c} {} lod {}", t.view, t.lod)
            }
            Op::Undef => write!(f, "undef"),
        }
    }
}

impl Display for Terminator {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Terminator::Jump(b) => write!(f, "jump {b}"),
            Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => write!(f, "branch {cond} -> {then_block}, {else_block}"),
            Terminator::Switch {
                selector,
                size,
                cases,
                default,
            } => {
                write!(f, "switch.{size} {selector}")?;
                for (v, b) in cases {
                    write!(f, " {v:#x} -> {b},")?;
                }
                write!(f, " default -> {default}")
            }
            Terminator::Return => write!(f, "return"),
            Terminator::Unreachable => write!(f, "unreachable"),
        }
    }
}

impl Display for Shader {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.local_size;
        writeln!(
            f,
            "compute local_size({x}, {y}, {z}) shared {} scratch {} push {}",
            self.shared_bytes, self.scratch_bytes, self.push_constant_bytes
        )?;
        for (i, local) in self.locals.iter().enumerate() {
            let slots: Vec<String> = local.slots.iter().map(|s| s.to_string()).collect();
            writeln!(f, "local{i}: [{}]", slots.join(", "))?;
        }
        for b in self.block_ids() {
            let block = self.block(b);
            writeln!(f, "{b}:")?;
            for phi in &block.phis {
                let mut line = String::new();
                for (i, (p, s)) in phi.srcs.iter().enumerate() {
                    let _ = write!(line, "{}{p}: {s}", if i == 0 { "" } else { ", " });
                }
                writeln!(
                    f,
                    "    {}:{} = phi {line}",
                    phi.dst,
                    self.value_size(phi.dst)
                )?;
            }
            for instr in &block.instrs {
                match instr.dst {
                    Some(d) => writeln!(f, "    {d}:{} = {}", self.value_size(d), instr.op)?,
                    None => writeln!(f, "    {}", instr.op)?,
                }
            }
            match block.merge {
                Some(Merge::Selection { merge }) => {
                    writeln!(f, "    {}        // selection merge {merge}", block.term)?
                }
                Some(Merge::Loop { merge, cont }) => writeln!(
                    f,
                    "    {}        // loop merge {merge} continue {cont}",
                    block.term
                )?,
                None => writeln!(f, "    {}", block.term)?,
            }
        }
        Ok(())
    }
}
