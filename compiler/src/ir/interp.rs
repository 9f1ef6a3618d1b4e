//! A reference interpreter of the IR: runs a compute dispatch on the CPU, one workgroup at a
//! time, with every invocation stepping until a workgroup barrier or its end. Tests run a
//! shader before and after each pass and compare with results computed independently.

use super::eval::{eval_alu, eval_convert};
use super::texel_format::TexelFormat;
use super::*;
use crate::descriptor_layout::DescriptorLayout;

/// A buffer bound to the dispatch.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferBinding {
    pub set: u32,
    pub binding: u32,
    /// Array element within the binding.
    pub element: u32,
    pub data: Vec<u8>,
    /// The view's format, for a texel buffer (its texels are `data`).
    pub format: Option<TexelFormat>,
}

/// What a dispatch gets besides the shader.
#[derive(Clone, Debug, Default)]
pub struct Dispatch {
    pub groups: [u32; 3],
    pub base_group: [u32; 3],
    pub buffers: Vec<BufferBinding>,
    pub push_constants: Vec<u8>,
    /// Resolves bindless descriptor indices (needed once descriptors are lowered).
    pub layout: DescriptorLayout,
    /// Largest number of operations one invocation may run (guards against endless loops).
    pub step_limit: u64,
    /// Threads per subgroup (wave).
    pub subgroup_size: u32,
}

#[derive(Clone, Debug, PartialEq)]
enum State {
    Running,
    AtBarrier,
    Done,
}

struct Invocation {
    values: Vec<u64>,
    locals: Vec<Vec<u64>>,
    scratch: Vec<u8>,
    block: BlockId,
    instr: usize,
    local_id: [u32; 3],
    state: State,
    steps: u64,
}

fn read(mem: &[u8], offset: u64, size: BitSize, what: &str) -> Result<u64, String> {
    let n = size.bytes() as usize;
    let o = offset as usize;
    if offset > mem.len() as u64 || o + n > mem.len() {
        return Err(format!(
            "{what}: read of {n} bytes at {offset:#x} is outside its {} bytes",
            mem.len()
        ));
    }
    let mut v = 0u64;
    for i in 0..n {
        v |= (mem[o + i] as u64) << (8 * i);
    }
    Ok(v & size.mask())
}

fn write(mem: &mut [u8], offset: u64, size: BitSize, v: u64, what: &str) -> Result<(), String> {
    let n = size.bytes() as usize;
    let o = offset as usize;
    if offset > mem.len() as u64 || o + n > mem.len() {
        return Err(format!(
            "{what}: write of {n} bytes at {offset:#x} is outside its {} bytes",
            mem.len()
        ));
    }
    for i in 0..n {
        mem[o + i] = (v >> (8 * i)) as u8;
    }
    Ok(())
}

struct Machine<'a> {
    shader: &'a Shader,
    d: &'a mut Dispatch,
    consts: Vec<u8>,
    shared: Vec<u8>,
    group: [u32; 3],
}

impl Machine<'_> {
    fn buffer(&mut self, r: &Resource, inv: &Invocation) -> Result<&mut BufferBinding, String> {
        let (set, binding, element) = match *r {
            Resource::Binding {
                set,
                binding,
                index,
            } => (set, binding, src(inv, index) as u32),
            Resource::Bindless { base, index } => {
                let idx = src(inv, index) as u32;
                let (b, e) = self
                    .d
                    .layout
                    .element_at(base, idx)
                    .ok_or(format!("no descriptor {idx} in set {base}"))?;
                (b.set, b.binding, e)
            }
        };
        self.d
            .buffers
            .iter_mut()
            .find(|b| b.set == set && b.binding == binding && b.element == element)
            .ok_or(format!(
                "no buffer bound at set {set} binding {binding}[{element}]"
            ))
    }

    fn load(
        &mut self,
        inv: &mut Invocation,
        space: &Space,
        offset: u64,
        size: BitSize,
    ) -> Result<u64, String> {
        match space {
            Space::Ssbo(r) | Space::Ubo(r) => {
                let b = self.buffer(r, inv)?;
                read(&b.data, offset, size, "buffer")
            }
            Space::PushConst => read(&self.d.push_constants, offset, size, "push constants"),
            Space::Shared => read(&self.shared, offset, size, "shared memory"),
            Space::Scratch => read(&inv.scratch, offset, size, "scratch memory"),
            Space::Const => read(&self.consts, offset, size, "const file"),
            Space::Local(v) => inv
                .locals
                .get(*v as usize)
                .and_then(|l| l.get(offset as usize))
                .copied()
                .ok_or(format!("local{v} has no slot {offset}")),
            Space::Global { .. } => Err("device addresses are not interpreted".into()),
        }
    }

    fn store(
        &mut self,
        inv: &mut Invocation,
        space: &Space,
        offset: u64,
        size: BitSize,
        v: u64,
    ) -> Result<(), String> {
        match space {
            Space::Ssbo(r) => {
                let b = self.buffer(r, inv)?;
                write(&mut b.data, offset, size, v, "buffer")
            }
            Space::Global { .. } => Err("device addresses are not interpreted".into()),
            Space::Shared => write(&mut self.shared, offset, size, v, "shared memory"),
            Space::Scratch => write(&mut inv.scratch, offset, size, v, "scratch memory"),
            Space::Local(var) => {
                let slot = inv
                    .locals
                    .get_mut(*var as usize)
                    .and_then(|l| l.get_mut(offset as usize))
                    .ok_or(format!("local{var} has no slot {offset}"))?;
                *slot = v & size.mask();
                Ok(())
            }
            Space::Ubo(_) | Space::PushConst | Space::Const => {
                Err(format!("store to read-only {space}"))
            }
        }
    }

    fn sysval(&self, inv: &Invocation, s: SysVal) -> Result<u64, String> {
        let ls = self.shader.local_size;
        let wg = |c: u8| self.group[c as usize];
        let base = |c: u8| self.d.base_group[c as usize];
        Ok((match s {
            SysVal::LocalInvocationId(c) => inv.local_id[c as usize],
            SysVal::WorkgroupId(c) => wg(c),
            SysVal::BaseWorkgroup(c) => base(c),
            SysVal::NumWorkgroups(c) => self.d.groups[c as usize],
            SysVal::GlobalInvocationId(c) => {
                (wg(c) + base(c)) * ls[c as usize] + inv.local_id[c as usize]
            }
            SysVal::LocalInvocationIndex => {
                let [x, y, z] = inv.local_id;
                (z * ls[1] + y) * ls[0] + x
            }
            SysVal::SubgroupSize => self.d.subgroup_size,
            SysVal::SubgroupInvocationId => {
                let [x, y, z] = inv.local_id;
                ((z * ls[1] + y) * ls[0] + x) % self.d.subgroup_size.max(1)
            }
            other => return Err(format!("{other} is a graphics input; dispatches have none")),
        }) as u64)
    }

    /// Runs one invocation until it ends or waits at a barrier.
    fn run(&mut self, inv: &mut Invocation) -> Result<(), String> {
        inv.state = State::Running;
        loop {
            let block = self.shader.block(inv.block);
            if inv.instr < block.instrs.len() {
                inv.steps += 1;
                if inv.steps > self.d.step_limit {
                    return Err(format!(
                        "an invocation ran more than {} operations",
                        self.d.step_limit
                    ));
                }
                let instr = &block.instrs[inv.instr];
                inv.instr += 1;
                let result = self.exec(inv, &instr.op)?;
                if let Some(State::AtBarrier) = result.1 {
                    inv.state = State::AtBarrier;
                    return Ok(());
                }
                if let (Some(d), Some(v)) = (instr.dst, result.0) {
                    inv.values[d.0 as usize] = v & self.shader.value_size(d).mask();
                }
                continue;
            }
            let next = match &block.term {
                Terminator::Return => {
                    inv.state = State::Done;
                    return Ok(());
                }
                Terminator::Unreachable => {
                    return Err(format!("reached unreachable {}", inv.block))
                }
                Terminator::Jump(b) => *b,
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                } => {
                    if src(inv, *cond) & 1 != 0 {
                        *then_block
                    } else {
                        *else_block
                    }
                }
                Terminator::Switch {
                    selector,
                    size,
                    cases,
                    default,
                } => {
                    let v = src(inv, *selector) & size.mask();
                    cases.iter().find(|c| c.0 == v).map_or(*default, |c| c.1)
                }
            };
            // Phis read their sources all at once, on the edge taken.
            let from = inv.block;
            let mut updates = Vec::new();
            for phi in &self.shader.block(next).phis {
                let s = phi.srcs.iter().find(|(p, _)| *p == from).ok_or(format!(
                    "phi {} in {next} has no source for {from}",
                    phi.dst
                ))?;
                updates.push((phi.dst, src(inv, s.1)));
            }
            for (d, v) in updates {
                inv.values[d.0 as usize] = v & self.shader.value_size(d).mask();
            }
            inv.block = next;
            inv.instr = 0;
        }
    }

    fn exec(
        &mut self,
        inv: &mut Invocation,
        op: &Op,
    ) -> Result<(Option<u64>, Option<State>), String> {
        Ok(match op {
            Op::Alu(a) => {
                let s: Vec<u64> = a.srcs.iter().map(|x| src(inv, *x)).collect();
                (
                    Some(
                        eval_alu(a.op, a.size, &s)
                            .ok_or(format!("{op} has an undefined result"))?,
                    ),
                    None,
                )
            }
            Op::Convert(c) => (
                Some(
                    eval_convert(c.kind, c.from, c.to, src(inv, c.src))
                        .ok_or(format!("{op} undefined"))?,
                ),
                None,
            ),
            Op::SysVal(s) => (Some(self.sysval(inv, *s)?), None),
            Op::Output(_) | Op::Kill => return Err(format!("{op}: dispatches have no fragments")),
            Op::Load(l) => {
                let off = src(inv, l.offset);
                (Some(self.load(inv, &l.space, off, l.size)?), None)
            }
            Op::Store(s) => {
                let (off, v) = (src(inv, s.offset), src(inv, s.value));
                self.store(inv, &s.space, off, s.size, v)?;
                (None, None)
            }
            Op::Atomic(a) => {
                let off = src(inv, a.offset);
                let old = self.load(inv, &a.space, off, a.size)?;
                let compare = a.compare.map(|c| src(inv, c));
                let new = atomic_result(a.op, a.size, old, src(inv, a.data), compare)?;
                self.store(inv, &a.space, off, a.size, new)?;
                (Some(old), None)
            }
            Op::Barrier(b) => (None, b.execution.then_some(State::AtBarrier)),
            Op::Subgroup(_) => {
                return Err(format!(
                    "{op}: the interpreter runs invocations one at a time, without subgroups"
                ))
            }
            Op::BufferSize(r) => {
                let b = self.buffer(r, inv)?;
                (Some(b.data.len() as u64), None)
            }
            Op::TexelLoad(l) => {
                if l.filtered {
                    return Err(format!("{op}: filtered sampling is not interpreted"));
                }
                let (fmt, at) = self.texel(&l.view, inv, &l.coords)?;
                let data = &self.buffer(&l.view.resource, inv)?.data;
                let v = fmt.read(&data[at..at + fmt.bytes()]);
                (Some(u64::from(v[l.component as usize & 3])), None)
            }
            Op::TexelStore(s) => {
                let (fmt, at) = self.texel(&s.view, inv, &s.coords)?;
                let mut values = [0u32; 4];
                for (v, x) in values.iter_mut().zip(&s.values) {
                    *v = src(inv, *x) as u32;
                }
                let bytes = fmt.write(values, s.view.ty);
                let data = &mut self.buffer(&s.view.resource, inv)?.data;
                data[at..at + bytes.len()].copy_from_slice(&bytes);
                (None, None)
            }
            Op::TexelAtomic(a) => {
                let (fmt, at) = self.texel(&a.view, inv, &a.coords)?;
                if !fmt.is_integer() || fmt.bytes() != 4 {
                    return Err(format!("{op}: the view's format is not a 32-bit integer"));
                }
                let compare = a.compare.map(|c| src(inv, c));
                let data = src(inv, a.data);
                let b = self.buffer(&a.view.resource, inv)?;
                let old = read(&b.data, at as u64, BitSize::B32, "texel buffer")?;
                let new = atomic_result(a.op, BitSize::B32, old, data, compare)?;
                write(&mut b.data, at as u64, BitSize::B32, new, "texel buffer")?;
                (Some(old), None)
            }
            Op::TexelSize(t) => {
                if t.view.dim != TexelDim::Buffer {
                    return Err(format!("{op}: images are not interpreted"));
                }
                let b = self.buffer(&t.view.resource, inv)?;
                let fmt = b
                    .format
                    .ok_or("texel_size of a buffer bound without a format")?;
                (Some((b.data.len() / fmt.bytes()) as u64), None)
            }
            Op::Undef => (Some(0), None),
        })
    }

    /// The format of a texel buffer view and the byte offset of texel `coords` in it; an
    /// index past the view is an error (Vulkan leaves such accesses undefined without
    /// robustness, which the interpreter does not model). Images are not interpreted.
    fn texel(
        &mut self,
        t: &TexelView,
        inv: &Invocation,
        coords: &[Src],
    ) -> Result<(TexelFormat, usize), String> {
        let (TexelDim::Buffer, [coord]) = (t.dim, coords) else {
            return Err("images are not interpreted, only texel buffers".into());
        };
        let index = src(inv, *coord) as u32 as usize;
        let b = self.buffer(&t.resource, inv)?;
        let fmt = b.format.ok_or(format!(
            "set {} binding {}[{}] is used as a texel buffer but bound without a format",
            b.set, b.binding, b.element
        ))?;
        let texels = b.data.len() / fmt.bytes();
        if index >= texels {
            return Err(format!(
                "texel {index} of set {} binding {}[{}] is past its {texels} texels",
                b.set, b.binding, b.element
            ));
        }
        Ok((fmt, index * fmt.bytes()))
    }
}

/// The value an atomic operation leaves in memory.
fn atomic_result(
    op: AtomicOp,
    size: BitSize,
    old: u64,
    data: u64,
    compare: Option<u64>,
) -> Result<u64, String> {
    let alu = |a: AluOp| eval_alu(a, size, &[old, data]).unwrap_or(0);
    Ok(match op {
        AtomicOp::Add => alu(AluOp::IAdd),
        AtomicOp::SMin => alu(AluOp::SMin),
        AtomicOp::UMin => alu(AluOp::UMin),
        AtomicOp::SMax => alu(AluOp::SMax),
        AtomicOp::UMax => alu(AluOp::UMax),
        AtomicOp::And => old & data,
        AtomicOp::Or => old | data,
        AtomicOp::Xor => old ^ data,
        AtomicOp::Exchange => data,
        AtomicOp::CompareExchange => {
            let cmp = compare.ok_or("compare-exchange without a comparand")?;
            if old == cmp & size.mask() {
                data
            } else {
                old
            }
        }
    })
}

fn src(inv: &Invocation, s: Src) -> u64 {
    match s {
        Src::Imm(v) => v,
        Src::Val(v) => inv.values[v.0 as usize],
    }
}

/// The const file a dispatch of this shader sees, as the driver would upload it.
pub fn const_file(shader: &Shader, d: &Dispatch) -> Vec<u8> {
    let mut c = vec![0u8; shader.consts.dwords as usize * 4];
    if let Some((first, dwords)) = shader.consts.push_constants {
        let bytes = (dwords as usize * 4).min(d.push_constants.len());
        let at = first as usize * 4;
        if at + bytes <= c.len() {
            c[at..at + bytes].copy_from_slice(&d.push_constants[..bytes]);
        }
    }
    for (p, dword) in &shader.consts.driver_params {
        let v = match p {
            DriverParam::NumWorkgroups(i) => d.groups[*i as usize],
            DriverParam::BaseWorkgroup(i) => d.base_group[*i as usize],
            // The interpreter runs dispatches, which have no draw.
            DriverParam::BaseVertex | DriverParam::BaseInstance | DriverParam::ViewIndex => 0,
        };
        let at = *dword as usize * 4;
        if at + 4 <= c.len() {
            c[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    c
}

/// Runs the dispatch, updating `d.buffers`.
pub fn run(shader: &Shader, d: &mut Dispatch) -> Result<(), String> {
    if d.step_limit == 0 {
        d.step_limit = 10_000_000;
    }
    if d.subgroup_size == 0 {
        d.subgroup_size = 64;
    }
    let consts = const_file(shader, d);
    let [sx, sy, sz] = shader.local_size;
    let groups = d.groups;
    let mut m = Machine {
        shader,
        d,
        consts,
        shared: Vec::new(),
        group: [0; 3],
    };
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                m.group = [gx, gy, gz];
                m.shared = vec![0u8; shader.shared_bytes as usize];
                let mut invs = Vec::new();
                for z in 0..sz {
                    for y in 0..sy {
                        for x in 0..sx {
                            invs.push(Invocation {
                                values: vec![0; shader.value_count()],
                                locals: shader
                                    .locals
                                    .iter()
                                    .map(|l| vec![0; l.slots.len()])
                                    .collect(),
                                scratch: vec![0; shader.scratch_bytes as usize],
                                block: BlockId::ENTRY,
                                instr: 0,
                                local_id: [x, y, z],
                                state: State::Running,
                                steps: 0,
                            });
                        }
                    }
                }
                loop {
                    for inv in invs.iter_mut().filter(|i| i.state != State::Done) {
                        m.run(inv)?;
                    }
                    if invs.iter().all(|i| i.state == State::Done) {
                        break;
                    }
                }
            }
        }
    }
    Ok(())
}
