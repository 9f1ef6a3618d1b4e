//! The command processor: fetches IBs, decodes PM4 packets and executes
//! them against the register file, the loaded shader state and memory.
//!
//! The model executes one packet at a time and finishes all of its work
//! (memory writes, dispatches) before the next, so the CP's own pipelining
//! is invisible: CP_WAIT_FOR_IDLE, CP_WAIT_FOR_ME and CP_WAIT_MEM_WRITES
//! find the GPU idle already, and cache flush and invalidate events have
//! nothing to do, since the model has no caches between the CP, the shader
//! processor and memory (it is coherent).
//!
//! Packets are named per generation (0x46 is CP_EVENT_WRITE on a6xx and
//! CP_EVENT_WRITE7 on a7xx; 0x14 CP_WAIT_MEM_GTE on a6xx and
//! CP_WAIT_TIMESTAMP on a7xx), so each chip gets its own opcode table,
//! built from the register database's names.

mod binning;
mod blit;
mod compute;
mod draw;
mod draw_state;
mod events;
mod graphics_events;
mod memory_packets;
mod predication;
mod resolve;
mod state_blocks;
mod waits;

use std::sync::OnceLock;

use parsnip_registers::enums::A6xxMarker;
use parsnip_registers::pm4::{self, Pm4Header};
use parsnip_registers::Chip;

use crate::counters::Counters;
use crate::gpu::{GpuShared, SubmitStats};
use crate::memory::Fault;
use crate::register_file::{RegisterFile, RegisterReadError};
use crate::report::{CpSite, ErrorKind, GpuError, IbLevel, PacketSite, StreamProblem};

pub(crate) use draw_state::DrawStateGroups;
pub(crate) use state_blocks::{LoadedDescriptors, SharedPool, Stage, StateBlocks};

/// What the CP keeps between packets, besides registers.
pub(crate) struct CpState {
    pub(crate) draw_state: DrawStateGroups,
    pub(crate) state: StateBlocks,
    /// The render mode CP_SET_MARKER last set (`None` before any).
    pub(crate) marker: Option<A6xxMarker>,
    /// CP_SET_MODE's value.
    pub(crate) set_mode: u32,
    /// The predicate bits CP_REG_TEST sets and CP_COND_REG_EXEC tests.
    pub(crate) predicates: u32,
    /// CP_SKIP_IB2_ENABLE_GLOBAL / _LOCAL.
    pub(crate) skip_ib2: [bool; 2],
    /// The ME scratch RAM of CP_SCRATCH_WRITE / CP_REG_TO_SCRATCH.
    pub(crate) scratch: [u32; 8],
    /// The IBs CP_SET_AMBLE registered, by amble type: run only when the
    /// GPU switches contexts, which the model never does.
    pub(crate) ambles: [Option<(u64, u32)>; 4],
    /// CP_SET_VISIBILITY_OVERRIDE: draws ignore the visibility stream.
    pub(crate) visibility_override: bool,
    /// The binning pass's draw count and the bin's visibility stream.
    pub(crate) visibility: binning::Visibility,
    /// The pipeline statistics and sample counters.
    pub(crate) counters: Counters,
}

impl CpState {
    pub(crate) fn new() -> Self {
        Self {
            draw_state: DrawStateGroups::default(),
            state: StateBlocks::new(),
            marker: None,
            set_mode: 0,
            predicates: 0,
            skip_ib2: [false; 2],
            scratch: [0; 8],
            ambles: [None; 4],
            visibility_override: false,
            visibility: binning::Visibility::default(),
            counters: Counters::default(),
        }
    }
}

/// The packets the model knows how to run (and the ones it knows it does
/// not), by meaning rather than by number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Packet {
    Nop,
    IndirectBuffer,
    IndirectBufferChain,
    SetDrawState,
    LoadState6,
    ExecCs,
    ExecCsIndirect,
    MemWrite,
    RegToMem,
    MemToReg,
    MemToMem,
    Memcpy,
    RegRmw,
    ScratchWrite,
    RegToScratch,
    ScratchToReg,
    ContextRegBunch,
    RegWrite,
    WaitRegMem,
    WaitMemGte,
    CondWrite5,
    /// CP_WAIT_FOR_IDLE, CP_WAIT_FOR_ME, CP_WAIT_MEM_WRITES: the model is
    /// always idle between packets.
    WaitIdle,
    /// CP_CCHE_INVALIDATE: invalidates the cache a740 added ("CCHE",
    /// adreno_pm4.xml), which the coherent model does not have.
    CacheInvalidate,
    EventWrite,
    EventWrite7,
    SetMarker,
    SetMode,
    RegTest,
    CondRegExec,
    CondExec,
    SkipIb2Global,
    SkipIb2Local,
    SetAmble,
    ThreadControl,
    /// CP_SET_PSEUDO_REG: the visibility streams' addresses on a7xx, and
    /// addresses the CP uses to save context on preemption, which the
    /// model never does.
    SetPseudoReg,
    SetVisibilityOverride,
    SetBinData5,
    SetBinData5Offset,
    DrawIndxOffset,
    DrawIndirect,
    DrawIndxIndirect,
    DrawIndirectMulti,
    DrawAuto,
    /// CP_BLIT: the 2D engine.
    Blit,
    /// A packet the hardware has and the model does not run yet.
    NotModelled,
}

fn classify(name: &str) -> Packet {
    use Packet::*;
    match name {
        "CP_NOP" => Nop,
        "CP_INDIRECT_BUFFER" | "CP_INDIRECT_BUFFER_PFD" | "CP_INDIRECT_BUFFER_PFE" => {
            IndirectBuffer
        }
        "CP_INDIRECT_BUFFER_CHAIN" => IndirectBufferChain,
        "CP_SET_DRAW_STATE" => SetDrawState,
        "CP_LOAD_STATE6" | "CP_LOAD_STATE6_GEOM" | "CP_LOAD_STATE6_FRAG" => LoadState6,
        "CP_EXEC_CS" => ExecCs,
        "CP_EXEC_CS_INDIRECT" => ExecCsIndirect,
        "CP_MEM_WRITE" => MemWrite,
        "CP_REG_TO_MEM" => RegToMem,
        "CP_MEM_TO_REG" => MemToReg,
        "CP_MEM_TO_MEM" => MemToMem,
        "CP_MEMCPY" => Memcpy,
        "CP_REG_RMW" => RegRmw,
        "CP_SCRATCH_WRITE" => ScratchWrite,
        "CP_REG_TO_SCRATCH" => RegToScratch,
        "CP_SCRATCH_TO_REG" => ScratchToReg,
        "CP_CONTEXT_REG_BUNCH" => ContextRegBunch,
        "CP_REG_WRITE" => RegWrite,
        "CP_WAIT_REG_MEM" => WaitRegMem,
        "CP_WAIT_MEM_GTE" => WaitMemGte,
        "CP_COND_WRITE5" => CondWrite5,
        "CP_WAIT_FOR_IDLE" | "CP_WAIT_FOR_ME" | "CP_WAIT_MEM_WRITES" => WaitIdle,
        "CP_CCHE_INVALIDATE" => CacheInvalidate,
        "CP_EVENT_WRITE" => EventWrite,
        "CP_EVENT_WRITE7" => EventWrite7,
        "CP_SET_MARKER" => SetMarker,
        "CP_SET_MODE" => SetMode,
        "CP_REG_TEST" => RegTest,
        "CP_COND_REG_EXEC" => CondRegExec,
        "CP_COND_EXEC" => CondExec,
        "CP_SKIP_IB2_ENABLE_GLOBAL" => SkipIb2Global,
        "CP_SKIP_IB2_ENABLE_LOCAL" => SkipIb2Local,
        "CP_SET_AMBLE" => SetAmble,
        "CP_THREAD_CONTROL" => ThreadControl,
        "CP_SET_PSEUDO_REG" => SetPseudoReg,
        "CP_SET_VISIBILITY_OVERRIDE" => SetVisibilityOverride,
        "CP_SET_BIN_DATA5" => SetBinData5,
        "CP_SET_BIN_DATA5_OFFSET" => SetBinData5Offset,
        "CP_DRAW_INDX_OFFSET" => DrawIndxOffset,
        "CP_DRAW_INDIRECT" => DrawIndirect,
        "CP_DRAW_INDX_INDIRECT" => DrawIndxIndirect,
        "CP_DRAW_INDIRECT_MULTI" => DrawIndirectMulti,
        "CP_DRAW_AUTO" => DrawAuto,
        "CP_BLIT" => Blit,
        _ => NotModelled,
    }
}

/// Opcode to (name, packet), for every type 7 opcode.
type OpcodeTable = [Option<(&'static str, Packet)>; 128];

/// The opcode table of `chip`.
fn opcode_table(chip: Chip) -> &'static OpcodeTable {
    static TABLES: [OnceLock<OpcodeTable>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = match chip {
        Chip::A6xx => &TABLES[0],
        Chip::A7xx => &TABLES[1],
    };
    slot.get_or_init(|| {
        std::array::from_fn(|op| {
            pm4::opcode_name(chip, op as u32).map(|name| (name, classify(name)))
        })
    })
}

/// What to do after a packet.
pub(crate) enum Flow {
    Next,
    /// Skip this many dwords after the packet (conditional execution).
    Skip(u32),
    /// Continue in another IB at the same level (CP_INDIRECT_BUFFER_CHAIN).
    Chain {
        iova: u64,
        dwords: u32,
    },
    /// Leave this IB (a draw's early return when IB2 skipping finds
    /// nothing left to draw).
    Return,
}

/// What the innermost frame is running, named lazily for reports.
#[derive(Clone, Copy)]
enum Running {
    Fetch,
    Header(u32),
    Type4 { offset: u32 },
    Type7 { name: &'static str },
}

#[derive(Clone, Copy)]
struct Frame {
    level: IbLevel,
    ib: u64,
    dwords: u32,
    dword: u32,
    running: Running,
}

/// Runs one submit's streams on a context.
pub(crate) struct CommandProcessor<'a> {
    gpu: &'a GpuShared,
    regs: &'a mut RegisterFile,
    cp: &'a mut CpState,
    table: &'static OpcodeTable,
    frames: Vec<Frame>,
    stats: SubmitStats,
}

impl<'a> CommandProcessor<'a> {
    pub(crate) fn new(gpu: &'a GpuShared, regs: &'a mut RegisterFile, cp: &'a mut CpState) -> Self {
        Self {
            gpu,
            table: opcode_table(gpu.info.chip),
            regs,
            cp,
            frames: Vec::new(),
            stats: SubmitStats::default(),
        }
    }

    pub(crate) fn stats(&self) -> SubmitStats {
        self.stats
    }

    fn chip(&self) -> Chip {
        self.gpu.info.chip
    }

    /// Runs a submitted stream as an IB1.
    pub(crate) fn run_submitted_ib(&mut self, iova: u64, dwords: u32) -> Result<(), GpuError> {
        self.run_ib(IbLevel::Ib1, iova, dwords)
    }

    /// Where the CP is, for a report.
    fn site(&self) -> CpSite {
        CpSite(
            self.frames
                .iter()
                .map(|f| PacketSite {
                    level: f.level,
                    ib: f.ib,
                    ib_dwords: f.dwords,
                    dword: f.dword,
                    packet: match f.running {
                        Running::Fetch => "fetch".to_string(),
                        Running::Header(h) => format!("header {h:08x}"),
                        Running::Type4 { offset } => {
                            format!("type 4 write to {}", self.regs.name_of(offset))
                        }
                        Running::Type7 { name } => name.to_string(),
                    },
                })
                .collect(),
        )
    }

    /// An error at the current packet.
    pub(crate) fn error(&self, kind: ErrorKind) -> GpuError {
        GpuError {
            kind,
            site: self.site(),
        }
    }

    pub(crate) fn stream_error(&self, problem: StreamProblem) -> GpuError {
        self.error(ErrorKind::BadStream(problem))
    }

    pub(crate) fn bad_payload(&self, why: impl Into<String>) -> GpuError {
        self.stream_error(StreamProblem::BadPayload { why: why.into() })
    }

    pub(crate) fn fault(&self, fault: Fault) -> GpuError {
        self.error(ErrorKind::Fault {
            fault,
            shader: None,
        })
    }

    pub(crate) fn register_error(&self, e: RegisterReadError) -> GpuError {
        self.error(ErrorKind::Register(e))
    }

    /// Reads memory for the current packet; a fault names it.
    pub(crate) fn read_dwords(&self, iova: u64, count: usize) -> Result<Vec<u32>, GpuError> {
        self.check_fresh(iova, count * 4)?;
        self.gpu
            .memory
            .read_dwords(iova, count)
            .map_err(|f| self.fault(f))
    }

    pub(crate) fn read_u32(&self, iova: u64) -> Result<u32, GpuError> {
        self.check_fresh(iova, 4)?;
        self.gpu.memory.read_u32(iova).map_err(|f| self.fault(f))
    }

    pub(crate) fn read_u64(&self, iova: u64) -> Result<u64, GpuError> {
        self.check_fresh(iova, 8)?;
        self.gpu.memory.read_u64(iova).map_err(|f| self.fault(f))
    }

    /// Strict mode with strict caches: the packet's units (shaders, the
    /// texture unit, the 2D engine) read through UCHE nothing the CCU holds
    /// newer; otherwise the stream is missing the CCU flush before it.
    fn check_unit_reads(&self) -> Result<(), GpuError> {
        let Some((at, part)) = self.gpu.take_stale_unit_read() else {
            return Ok(());
        };
        if !self.gpu.options.strict {
            return Ok(());
        }
        let event = if part == crate::ccu::DEPTH_NAME {
            "a CCU depth flush (PC_CCU_FLUSH_DEPTH_TS, a7xx CCU_CLEAN_DEPTH)"
        } else {
            "a CCU colour flush (PC_CCU_FLUSH_COLOR_TS, a7xx CCU_CLEAN_COLOR)"
        };
        Err(self.stream_error(StreamProblem::BadState {
            why: format!(
                "strict caches: this packet's work read {at:#x} through UCHE, which {part} holds \
                 newer (the RB or the 2D engine wrote it): {event} is missing before it"
            ),
        }))
    }

    /// Strict mode with strict caches: the CP, which reads memory itself,
    /// must not read bytes a cache holds newer: the stream is missing the
    /// flush that writes them back. Without strict mode the CP reads the
    /// stale bytes, as the hardware does.
    fn check_fresh(&self, iova: u64, len: usize) -> Result<(), GpuError> {
        if !self.gpu.options.strict {
            return Ok(());
        }
        match self.gpu.stale_for_cp(iova, len) {
            None => Ok(()),
            Some((at, cache, event)) => Err(self.stream_error(StreamProblem::BadState {
                why: format!(
                    "strict caches: the CP reads {at:#x}, which {cache} holds newer than memory: \
                     {event} is missing before this packet"
                ),
            })),
        }
    }

    pub(crate) fn write_u32(&self, iova: u64, value: u32) -> Result<(), GpuError> {
        self.gpu
            .memory
            .write_u32(iova, value)
            .map_err(|f| self.fault(f))
    }

    pub(crate) fn write_u64(&self, iova: u64, value: u64) -> Result<(), GpuError> {
        self.gpu
            .memory
            .write_u64(iova, value)
            .map_err(|f| self.fault(f))
    }

    /// Writes a register from a packet.
    pub(crate) fn write_register(&mut self, offset: u32, value: u32) {
        self.regs.write(offset, value);
        self.stats.register_writes += 1;
    }

    /// Reads a register as a CP packet that copies registers sees it: the
    /// value last written, or for the registers the hardware itself keeps
    /// changing, their live value.
    pub(crate) fn read_register(&self, offset: u32) -> u32 {
        if let Some(v) = self.cp.counters.register(self.chip(), offset) {
            return v;
        }
        let counter = self
            .regs
            .offset_of::<parsnip_registers::regs::CpAlwaysOnCounter>();
        match counter {
            Ok(c) if offset == c || offset == c + 1 => {
                let now = self.gpu.clock.read();
                if offset == c {
                    now as u32
                } else {
                    (now >> 32) as u32
                }
            }
            _ => self.regs.read(offset),
        }
    }

    /// Runs `dwords` dwords at `iova` at `level`.
    pub(crate) fn run_ib(
        &mut self,
        level: IbLevel,
        iova: u64,
        dwords: u32,
    ) -> Result<(), GpuError> {
        self.frames.push(Frame {
            level,
            ib: iova,
            dwords,
            dword: 0,
            running: Running::Fetch,
        });
        let result = self.run_frame();
        if result.is_ok() {
            self.frames.pop();
        }
        result
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("run_ib pushed a frame")
    }

    fn run_frame(&mut self) -> Result<(), GpuError> {
        let (mut ib, mut len) = {
            let f = self.frame();
            (f.ib, f.dwords)
        };
        // The CP prefetches an IB as it runs it (its ROQ); the model fetches
        // it whole. An unmapped dword faults here, at the IB's offset.
        let mut stream = self.fetch(ib, len)?;
        let mut pos = 0u32;
        while pos < len {
            {
                let f = self.frame();
                f.dword = pos;
                f.running = Running::Header(stream[pos as usize]);
            }
            let header = stream[pos as usize];
            let parsed = Pm4Header::parse(header)
                .map_err(|e| self.stream_error(StreamProblem::BadHeader(e)))?;
            let count = parsed.payload_dwords();
            let left = len - pos - 1;
            if count > left {
                return Err(self.stream_error(StreamProblem::PastEnd {
                    needed: count,
                    left,
                }));
            }
            let start = pos as usize + 1;
            let payload = &stream[start..start + count as usize];
            self.stats.packets += 1;
            let flow = match parsed {
                Pm4Header::Type4 { offset, .. } => {
                    self.frame().running = Running::Type4 { offset };
                    for (i, &v) in payload.iter().enumerate() {
                        self.write_register(offset + i as u32, v);
                    }
                    Flow::Next
                }
                Pm4Header::Type7 { opcode, .. } => {
                    let flow = self.run_type7(opcode, payload)?;
                    self.check_unit_reads()?;
                    flow
                }
            };
            pos += 1 + count;
            match flow {
                Flow::Next => {}
                Flow::Return => {
                    if pos < len {
                        self.stats.ib2_skips += 1;
                    }
                    break;
                }
                Flow::Skip(n) => {
                    let left = len - pos;
                    if n > left {
                        return Err(self
                            .bad_payload(format!("skips {n} dwords but its IB has {left} left")));
                    }
                    pos += n;
                }
                Flow::Chain { iova, dwords } => {
                    ib = iova;
                    len = dwords;
                    pos = 0;
                    let f = self.frame();
                    f.ib = iova;
                    f.dwords = dwords;
                    f.dword = 0;
                    f.running = Running::Fetch;
                    stream = self.fetch(ib, len)?;
                }
            }
        }
        Ok(())
    }

    /// Reads an IB; a fault names the dword of the IB it hit.
    fn fetch(&mut self, iova: u64, dwords: u32) -> Result<Vec<u32>, GpuError> {
        match self.gpu.memory.read_dwords(iova, dwords as usize) {
            Ok(s) => Ok(s),
            Err(fault) => {
                let at = ((fault.iova.saturating_sub(iova)) / 4) as u32;
                self.frame().dword = at.min(dwords.saturating_sub(1));
                Err(self.fault(fault))
            }
        }
    }

    fn run_type7(&mut self, opcode: u32, payload: &[u32]) -> Result<Flow, GpuError> {
        let Some((name, packet)) = self.table[opcode as usize] else {
            return Err(self.stream_error(StreamProblem::UnknownOpcode { opcode }));
        };
        self.frame().running = Running::Type7 { name };
        match packet {
            Packet::Nop | Packet::WaitIdle | Packet::CacheInvalidate => Ok(Flow::Next),
            Packet::SetPseudoReg => self.set_pseudo_reg(payload).map(|_| Flow::Next),
            Packet::IndirectBuffer => self.indirect_buffer(payload),
            Packet::IndirectBufferChain => self.indirect_buffer_chain(payload),
            Packet::SetDrawState => self.set_draw_state(payload).map(|_| Flow::Next),
            Packet::LoadState6 => self.load_state6(name, payload).map(|_| Flow::Next),
            Packet::ExecCs => self.exec_cs(payload).map(|_| Flow::Next),
            Packet::ExecCsIndirect => self.exec_cs_indirect(payload).map(|_| Flow::Next),
            Packet::MemWrite => self.mem_write(payload).map(|_| Flow::Next),
            Packet::RegToMem => self.reg_to_mem(payload).map(|_| Flow::Next),
            Packet::MemToReg => self.mem_to_reg(payload).map(|_| Flow::Next),
            Packet::MemToMem => self.mem_to_mem(payload).map(|_| Flow::Next),
            Packet::Memcpy => self.memcpy(payload).map(|_| Flow::Next),
            Packet::RegRmw => self.reg_rmw(payload).map(|_| Flow::Next),
            Packet::ScratchWrite => self.scratch_write(payload).map(|_| Flow::Next),
            Packet::RegToScratch => self.reg_to_scratch(payload).map(|_| Flow::Next),
            Packet::ScratchToReg => self.scratch_to_reg(payload).map(|_| Flow::Next),
            Packet::ContextRegBunch => self.context_reg_bunch(payload).map(|_| Flow::Next),
            Packet::RegWrite => self.reg_write(payload).map(|_| Flow::Next),
            Packet::WaitRegMem => self.wait_reg_mem(payload).map(|_| Flow::Next),
            Packet::WaitMemGte => self.wait_mem_gte(payload).map(|_| Flow::Next),
            Packet::CondWrite5 => self.cond_write5(payload).map(|_| Flow::Next),
            Packet::EventWrite => self.event_write(payload).map(|_| Flow::Next),
            Packet::EventWrite7 => self.event_write7(payload).map(|_| Flow::Next),
            Packet::SetMarker => self.set_marker(payload).map(|_| Flow::Next),
            Packet::SetMode => self.set_mode(payload).map(|_| Flow::Next),
            Packet::RegTest => self.reg_test(payload).map(|_| Flow::Next),
            Packet::CondRegExec => self.cond_reg_exec(payload),
            Packet::CondExec => self.cond_exec(payload),
            Packet::SkipIb2Global => self.skip_ib2(0, payload).map(|_| Flow::Next),
            Packet::SkipIb2Local => self.skip_ib2(1, payload).map(|_| Flow::Next),
            Packet::SetAmble => self.set_amble(payload).map(|_| Flow::Next),
            Packet::ThreadControl => self.thread_control(payload).map(|_| Flow::Next),
            Packet::Blit => self.blit(payload).map(|_| Flow::Next),
            Packet::SetVisibilityOverride => {
                self.set_visibility_override(payload).map(|_| Flow::Next)
            }
            Packet::SetBinData5 => self.set_bin_data5(payload).map(|_| Flow::Next),
            Packet::SetBinData5Offset => self.set_bin_data5_offset(payload).map(|_| Flow::Next),
            Packet::DrawIndxOffset => self
                .draw_indx_offset(payload)
                .and_then(|_| self.after_draw()),
            Packet::DrawIndirect => self.draw_indirect(payload).and_then(|_| self.after_draw()),
            Packet::DrawIndxIndirect => self
                .draw_indx_indirect(payload)
                .and_then(|_| self.after_draw()),
            Packet::DrawIndirectMulti => self
                .draw_indirect_multi(payload)
                .and_then(|_| self.after_draw()),
            Packet::DrawAuto => self.draw_auto(payload).and_then(|_| self.after_draw()),
            Packet::NotModelled => Err(self.stream_error(StreamProblem::NotModelled {
                what: format!("{name} is not modelled"),
            })),
        }
    }

    /// Tells the work observer, if there is one, that `work` is done.
    pub(crate) fn observe(&self, work: crate::capture::Work) {
        let mut observer = self.gpu.work_observer.lock().expect("never poisoned");
        if let Some(observe) = observer.as_mut() {
            // What the GPU has written, caches included (strict caches).
            let memory = self
                .gpu
                .ccu
                .as_ref()
                .map_or(&*self.gpu.memory, |c| c.part(crate::ccu::CcuPart::Color));
            observe(&crate::capture::WorkDone {
                work,
                regs: self.regs,
                memory,
                gmem: &self.gpu.gmem,
                info: self.gpu.info,
            });
        }
    }

    /// Checks a payload has at least `min` dwords.
    pub(crate) fn need(&self, payload: &[u32], min: usize) -> Result<(), GpuError> {
        if payload.len() < min {
            return Err(self.bad_payload(format!(
                "payload of {} dwords, the packet needs {min}",
                payload.len()
            )));
        }
        Ok(())
    }

    /// CP_INDIRECT_BUFFER (and _PFD): call an IB one level down.
    fn indirect_buffer(&mut self, payload: &[u32]) -> Result<Flow, GpuError> {
        self.need(payload, 3)?;
        let (iova, dwords) = ib_target(payload);
        let level = match self.frames.last().map(|f| f.level) {
            Some(IbLevel::Ib1) => IbLevel::Ib2,
            Some(from) => return Err(self.stream_error(StreamProblem::TooDeep { from })),
            None => IbLevel::Ib1,
        };
        if level == IbLevel::Ib2 && self.skips_ib2()? {
            self.stats.ib2_skips += 1;
            return Ok(Flow::Next);
        }
        if dwords > 0 {
            self.run_ib(level, iova, dwords)?;
        }
        Ok(Flow::Next)
    }

    /// CP_INDIRECT_BUFFER_CHAIN: continue in another IB at this level
    /// (adreno_pm4.xml: "jumps to another buffer at the same level").
    fn indirect_buffer_chain(&mut self, payload: &[u32]) -> Result<Flow, GpuError> {
        self.need(payload, 3)?;
        if self.frames.last().map(|f| f.level) == Some(IbLevel::DrawState) {
            return Err(self.bad_payload("CP_INDIRECT_BUFFER_CHAIN does not work in draw state"));
        }
        let (iova, dwords) = ib_target(payload);
        Ok(Flow::Chain { iova, dwords })
    }

    /// CP_SET_MARKER: the render mode draw state and CP_COND_REG_EXEC test.
    fn set_marker(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        use parsnip_registers::enums::SetMarkerMode;
        use parsnip_registers::packets::{a6xx, a7xx};
        self.need(payload, 1)?;
        let (marker_mode, mode) = match self.chip() {
            Chip::A6xx => {
                let dw = a6xx::CpSetMarkerDw0::from_raw(payload[0]);
                (dw.marker_mode, dw.mode)
            }
            Chip::A7xx => {
                let dw = a7xx::CpSetMarkerDw0::from_raw(payload[0]);
                (dw.marker_mode, dw.mode)
            }
        };
        if marker_mode == SetMarkerMode::SET_RENDER_MODE {
            self.cp.marker = Some(mode);
            if mode == A6xxMarker::RM6_BIN_VISIBILITY {
                self.begin_binning_pass();
            }
        }
        // SET_IFPC_MODE and a7xx's ray-tracing bits only matter to power
        // management and preemption, which the model does not do.
        Ok(())
    }

    /// CP_SET_MODE: 1 makes draw state groups run as they are set.
    fn set_mode(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        self.cp.set_mode = payload[0] & 1;
        Ok(())
    }

    /// CP_SET_AMBLE: remembered, run only on context switches.
    fn set_amble(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        use parsnip_registers::packets::CpSetAmbleDw2;
        self.need(payload, 3)?;
        let iova = u64::from(payload[0]) | u64::from(payload[1]) << 32;
        let dw = CpSetAmbleDw2::from_raw(payload[2]);
        self.cp.ambles[(dw.r#type.0 & 3) as usize] = (dw.dwords != 0).then_some((iova, dw.dwords));
        Ok(())
    }

    /// CP_THREAD_CONTROL (a7xx): which of the CP's threads, BR (render) or
    /// BV (visibility), runs what follows. The model has one thread that
    /// plays BR, which also does the binning work when concurrent binning
    /// is disabled; a stream that hands work to BV alone needs concurrent
    /// binning, which the model does not do.
    fn thread_control(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        use parsnip_registers::enums::CpThread;
        use parsnip_registers::packets::CpThreadControlDw0;
        self.need(payload, 1)?;
        let dw = CpThreadControlDw0::from_raw(payload[0]);
        if dw.thread == CpThread::CP_SET_THREAD_BV {
            return Err(self.stream_error(StreamProblem::NotModelled {
                what: "CP_THREAD_CONTROL selects BV alone: concurrent binning is not modelled"
                    .into(),
            }));
        }
        Ok(())
    }
}

/// The address and size of CP_INDIRECT_BUFFER's payload (parsnip.regs:
/// address low, high, then the size in the low 20 bits).
fn ib_target(payload: &[u32]) -> (u64, u32) {
    use parsnip_registers::packets::CpIndirectBufferDw2;
    let iova = u64::from(payload[0]) | u64::from(payload[1]) << 32;
    (iova, CpIndirectBufferDw2::from_raw(payload[2]).size)
}
