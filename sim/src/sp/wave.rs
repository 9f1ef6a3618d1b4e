//! One wave: its fibers' registers, where each fiber is in the program, and
//! the loop that executes instructions for them.
//!
//! Divergence and reconvergence: every fiber has its own PC; the wave runs
//! the fibers at the lowest PC together, one instruction at a time, and
//! fibers that reach the same PC run together again from there. This is
//! how the hardware's branch stack behaves on the structured code Mesa
//! emits: its `ir3_reconvergence.c` describes fibers parked by a divergent
//! branch until the others reach the reconvergence point, the later of the
//! two destinations, which is always the higher PC; that is where the model
//! joins them. (`jp` marks those points for the hardware; the model needs
//! no mark.)
//!
//! Predication (`predt`/`predf`/`prede`, freedreno's ISA XML): fibers
//! outside the predication mask keep their PC but their instructions have
//! no effect. The mask is taken from p0.x of every fiber.

use parsnip_isa::{Op, Opcode};

use super::alu;
use super::control_flow;
use super::cycle_estimate;
use super::dispatch::DispatchContext;
use super::lanes::mask_of;
use super::matrix;
use super::memory_ops;
use super::program::{Decoded, Program};
use super::texture;
use super::texture_alias::AliasTable;
use super::trap::{error, Trap};
use super::varyings;
use super::wave_registers::WaveRegisters;

/// Fibers at one PC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    pub pc: u32,
    pub mask: u128,
}

/// What an instruction did to the PCs of the fibers that ran it.
pub(crate) enum Flow {
    /// All go to the next instruction.
    Next,
    /// `taken` go to `target`, the others to the next instruction.
    Jump { taken: u128, target: u32 },
    /// Each set of fibers goes to its own PC (`ret` after divergent calls).
    Scatter(Vec<(u128, u32)>),
    /// `ended` finish; the others go to the next instruction.
    End { ended: u128 },
    /// All go to the next instruction, and the wave waits for the rest of
    /// its work group there.
    Barrier,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WaveState {
    Running,
    AtBarrier,
    Ended,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PredMode {
    None,
    True,
    False,
}

pub(crate) struct Wave {
    /// The wave's index in its work group.
    pub index: u32,
    pub regs: WaveRegisters,
    /// The linear local id of fiber 0.
    pub first_thread: u32,
    /// The fibers that exist (the last wave of a work group may be partial).
    pub fibers: u128,
    groups: Vec<Group>,
    pub state: WaveState,
    pub pred_mode: PredMode,
    pub pred_mask: u128,
    /// Return addresses of `call`, per fiber, created on first use.
    pub call_stacks: Vec<Vec<u32>>,
    pub alias: AliasTable,
}

impl Wave {
    pub fn new(regs: WaveRegisters) -> Wave {
        Wave {
            index: 0,
            regs,
            first_thread: 0,
            fibers: 0,
            groups: Vec::with_capacity(4),
            state: WaveState::Ended,
            pred_mode: PredMode::None,
            pred_mask: 0,
            call_stacks: Vec::new(),
            alias: AliasTable::default(),
        }
    }

    /// Prepares the wave to run `threads` fibers from instruction 0.
    pub fn start(&mut self, index: u32, first_thread: u32, threads: u32) {
        self.index = index;
        self.first_thread = first_thread;
        self.fibers = mask_of(threads);
        self.regs.reset();
        self.groups.clear();
        self.groups.push(Group {
            pc: 0,
            mask: self.fibers,
        });
        self.state = WaveState::Running;
        self.pred_mode = PredMode::None;
        self.pred_mask = 0;
        self.call_stacks.clear();
        self.alias = AliasTable::default();
    }

    /// Fibers that execute an instruction with effects: the group, less
    /// those predication switches off.
    fn exec_mask(&self, mask: u128) -> u128 {
        match self.pred_mode {
            PredMode::None => mask,
            PredMode::True => mask & self.pred_mask,
            PredMode::False => mask & !self.pred_mask,
        }
    }

    /// Runs until the wave ends or waits at a barrier. On a trap, returns
    /// it with the PC of the instruction that raised it.
    pub fn run(
        &mut self,
        program: &mut Program,
        ctx: &mut DispatchContext,
    ) -> Result<(), (Trap, u32)> {
        while self.state == WaveState::Running {
            let Some(&g) = self.groups.first() else {
                self.state = WaveState::Ended;
                break;
            };
            if ctx.out_of_budget() {
                return Err((Trap::Budget, g.pc));
            }
            ctx.executed += 1;
            let d = program.get(g.pc, ctx.memory).map_err(|t| (t, g.pc))?;
            cycle_estimate::account(&mut ctx.stats, &d.instr);
            let flow = self.execute(d, g, ctx).map_err(|t| (t, g.pc))?;
            self.apply(flow, g);
        }
        Ok(())
    }

    fn execute(&mut self, d: &Decoded, g: Group, ctx: &mut DispatchContext) -> Result<Flow, Trap> {
        let mask = self.exec_mask(g.mask);
        match &d.instr.op {
            Op::Flow(f) => return control_flow::execute(self, f, g, ctx),
            Op::Mov(m) => {
                let op = d.alu.as_ref().expect("mov has an ALU operation");
                alu::execute_mov(&mut self.regs, &ctx.consts, m, op, mask)?;
            }
            Op::MovMsk(m) => alu::execute_movmsk(&mut self.regs, m, mask)?,
            Op::MovMulti(m) => alu::execute_mov_multi(&mut self.regs, m, mask)?,
            Op::Alu(a) => {
                let op = d.alu.as_ref().expect("cat2 has an ALU operation");
                let operands: &[&parsnip_isa::Operand] = match &a.src2 {
                    Some(s2) => &[&a.src1, s2],
                    None => &[&a.src1],
                };
                if op.opcode.info().has(parsnip_isa::flags::VARYING) {
                    varyings::execute_alu(self, a, mask, ctx)?;
                    return Ok(Flow::Next);
                }
                alu::execute_alu(
                    &mut self.regs,
                    &ctx.consts,
                    op,
                    a.dst,
                    operands,
                    a.repeat,
                    mask,
                )?;
            }
            Op::Alu3(a) if matches!(a.op, Opcode::Wmm | Opcode::WmmAccu) => {
                matrix::execute(&mut self.regs, a, mask)?
            }
            Op::Alu3(a) => {
                let op = d.alu.as_ref().expect("cat3 has an ALU operation");
                let operands = [&a.srcs[0], &a.srcs[1], &a.srcs[2]];
                alu::execute_alu(
                    &mut self.regs,
                    &ctx.consts,
                    op,
                    a.dst,
                    &operands,
                    a.repeat,
                    mask,
                )?;
            }
            Op::Sfu(s) => {
                let op = d.alu.as_ref().expect("cat4 has an ALU operation");
                alu::execute_alu(
                    &mut self.regs,
                    &ctx.consts,
                    op,
                    s.dst,
                    &[&s.src],
                    s.repeat,
                    mask,
                )?;
            }
            Op::Tex(t) => texture::execute(self, t, mask, ctx)?,
            Op::Mem(m) => {
                // Helper invocations, and fragments a `kill` removed, run
                // on for their quad's derivatives but write no memory.
                let info = m.opcode().info();
                let writes =
                    info.has(parsnip_isa::flags::STORE) || info.has(parsnip_isa::flags::ATOMIC);
                let mask = match &ctx.fragment {
                    Some(f) if writes => mask & !(f.helpers | f.killed),
                    _ => mask,
                };
                memory_ops::execute(self, m, mask, ctx)?
            }
            Op::Barrier(b) if b.op == Opcode::Bar => return Ok(Flow::Barrier),
            // `fence` orders this wave's memory accesses against others';
            // the model completes each access before the next instruction,
            // so every access is already ordered.
            Op::Barrier(_) => {}
            // The model has no caches: memory is always coherent, so the
            // cache maintenance instructions (`dccln`, `dcinv`, `dcflu`,
            // `ccinv`, `icinv`, `tcinv`) and `sleep` have nothing to do.
            Op::Cache(_) | Op::Sleep(_) => {}
            Op::Alias(a) => self.alias.add(a)?,
            // `lock`/`unlock` (a7xx; Turnip's shaders end with them) guard
            // something across the waves of an SP that is not publicly
            // documented; waves of the model never run concurrently, so
            // there is nothing to guard.
            Op::Bare(
                Opcode::Tcinv | Opcode::Icinv | Opcode::Ccinv | Opcode::Lock | Opcode::Unlock,
            ) => {}
            Op::Bare(op) => return error(format!("{op} is not modelled")),
        }
        Ok(Flow::Next)
    }

    /// Moves the fibers of group `g` (always the first group) to their
    /// next PCs, joining fibers that meet at a PC.
    fn apply(&mut self, flow: Flow, g: Group) {
        match flow {
            Flow::Next => self.advance_front(),
            Flow::Barrier => {
                self.advance_front();
                self.state = WaveState::AtBarrier;
            }
            Flow::Jump { taken, target } => {
                self.groups.remove(0);
                self.insert(target, taken & g.mask);
                self.insert(g.pc + 1, g.mask & !taken);
            }
            Flow::End { ended } => {
                self.groups.remove(0);
                self.insert(g.pc + 1, g.mask & !ended);
            }
            Flow::Scatter(parts) => {
                self.groups.remove(0);
                for (mask, pc) in parts {
                    self.insert(pc, mask & g.mask);
                }
            }
        }
        if self.groups.is_empty() {
            self.state = WaveState::Ended;
        }
    }

    fn advance_front(&mut self) {
        self.groups[0].pc += 1;
        if self.groups.len() > 1 && self.groups[1].pc == self.groups[0].pc {
            let next = self.groups.remove(1);
            self.groups[0].mask |= next.mask;
        }
    }

    fn insert(&mut self, pc: u32, mask: u128) {
        if mask == 0 {
            return;
        }
        match self.groups.binary_search_by_key(&pc, |g| g.pc) {
            Ok(i) => self.groups[i].mask |= mask,
            Err(i) => self.groups.insert(i, Group { pc, mask }),
        }
    }
}
