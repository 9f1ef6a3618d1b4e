//! What the decoder does for each type 7 opcode beyond printing its payload
//! fields: follow IBs, track render mode and register writes made by
//! packets, summarise draws, dump loaded state.
//!
//! Opcodes are matched by the name the register database gives them on the
//! decoded chip (0x46 is `CP_EVENT_WRITE` on a6xx, `CP_EVENT_WRITE7` on a7xx),
//! as freedreno's decoder does. The set of opcodes handled, and what each
//! prints, is freedreno's decoder's in Mesa 25.1, whose logs are the
//! reference; `CP_SET_AMBLE`'s IBs, for one, are not followed there either.

use std::io::Write;

use parsnip_registers::{format, table, Chip};

use super::decoder::{Decoder, MODE_BINNING, MODE_GMEM, MODE_SYSMEM};
use super::memory::GpuMemory;
use super::register_file::RegAccumulator;

/// Turnip's `CP_NOP` debug strings (freedreno_pm4.h: `CP_NOP_MESG`,
/// `CP_NOP_BEGN`, `CP_NOP_END`).
const NOP_MESSAGE: u32 = 0x4D45_5347;
const NOP_BEGIN: u32 = 0x4245_474E;
const NOP_END: u32 = 0x454E_4400;

/// At most this many bins (`CP_START_BIN`) or table draws
/// (`CP_FIXED_STRIDE_DRAW_TABLE`) are walked; more is a corrupt count.
const MAX_LOOP: u32 = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Handler {
    /// Nothing beyond the payload fields.
    Plain,
    Nop,
    IndirectBuffer,
    IndirectBufferChain,
    RegRmw,
    /// `CP_REG_TO_MEM` and `CP_MEM_TO_REG`, which share a layout.
    RegMem,
    MemWrite,
    EventWrite,
    RunOpencl,
    /// `CP_DRAW_INDX`, an a2xx-a4xx packet with 32-bit addresses.
    LegacyDraw,
    SetDrawState,
    DrawIndxOffset,
    DrawIndirect,
    DrawIndxIndirect,
    DrawIndirectMulti,
    DrawAuto,
    ExecCs,
    ExecCsIndirect,
    Blit,
    ContextRegBunch,
    /// a7xx: two dwords, then register/value pairs.
    ContextRegBunch2,
    SkipIb2Global,
    SkipIb2Local,
    LoadState6,
    SetMarker,
    RegWrite,
    StartBin,
    FixedStrideDrawTable,
    ThreadControl,
}

impl Handler {
    pub(crate) fn for_opcode(name: Option<&str>) -> Self {
        match name.unwrap_or("") {
            "CP_NOP" => Self::Nop,
            "CP_INDIRECT_BUFFER" | "CP_INDIRECT_BUFFER_PFD" => Self::IndirectBuffer,
            "CP_INDIRECT_BUFFER_CHAIN" => Self::IndirectBufferChain,
            "CP_REG_RMW" => Self::RegRmw,
            "CP_REG_TO_MEM" | "CP_MEM_TO_REG" => Self::RegMem,
            "CP_MEM_WRITE" => Self::MemWrite,
            "CP_EVENT_WRITE" | "CP_EVENT_WRITE7" => Self::EventWrite,
            "CP_RUN_OPENCL" => Self::RunOpencl,
            "CP_DRAW_INDX" => Self::LegacyDraw,
            "CP_SET_DRAW_STATE" => Self::SetDrawState,
            "CP_DRAW_INDX_OFFSET" => Self::DrawIndxOffset,
            "CP_DRAW_INDIRECT" => Self::DrawIndirect,
            "CP_DRAW_INDX_INDIRECT" => Self::DrawIndxIndirect,
            "CP_DRAW_INDIRECT_MULTI" => Self::DrawIndirectMulti,
            "CP_DRAW_AUTO" => Self::DrawAuto,
            "CP_EXEC_CS" => Self::ExecCs,
            "CP_EXEC_CS_INDIRECT" => Self::ExecCsIndirect,
            "CP_BLIT" => Self::Blit,
            "CP_CONTEXT_REG_BUNCH" => Self::ContextRegBunch,
            "CP_CONTEXT_REG_BUNCH2" => Self::ContextRegBunch2,
            "CP_SKIP_IB2_ENABLE_GLOBAL" => Self::SkipIb2Global,
            "CP_SKIP_IB2_ENABLE_LOCAL" => Self::SkipIb2Local,
            "CP_LOAD_STATE6" | "CP_LOAD_STATE6_GEOM" | "CP_LOAD_STATE6_FRAG" => Self::LoadState6,
            "CP_SET_MARKER" => Self::SetMarker,
            "CP_REG_WRITE" => Self::RegWrite,
            "CP_START_BIN" => Self::StartBin,
            "CP_FIXED_STRIDE_DRAW_TABLE" => Self::FixedStrideDrawTable,
            "CP_THREAD_CONTROL" => Self::ThreadControl,
            _ => Self::Plain,
        }
    }

    /// Draws and dispatches run the draw state groups first.
    pub(crate) fn loads_draw_state(self) -> bool {
        matches!(
            self,
            Self::DrawIndxOffset
                | Self::DrawIndirect
                | Self::DrawIndxIndirect
                | Self::DrawIndirectMulti
                | Self::DrawAuto
                | Self::ExecCs
                | Self::ExecCsIndirect
        )
    }

    /// Payload dwords the handler reads.
    fn payload_needed(self) -> usize {
        match self {
            Self::DrawIndxIndirect => 6,
            Self::IndirectBuffer
            | Self::IndirectBufferChain
            | Self::RegRmw
            | Self::RegMem
            | Self::DrawIndxOffset
            | Self::DrawIndirect
            | Self::DrawIndirectMulti
            | Self::ExecCsIndirect
            | Self::LoadState6
            | Self::RegWrite => 3,
            Self::StartBin | Self::FixedStrideDrawTable => 4,
            Self::MemWrite | Self::ContextRegBunch2 => 2,
            Self::EventWrite
            | Self::DrawAuto
            | Self::Blit
            | Self::SkipIb2Global
            | Self::SkipIb2Local
            | Self::SetMarker
            | Self::ThreadControl => 1,
            Self::Plain
            | Self::Nop
            | Self::RunOpencl
            | Self::LegacyDraw
            | Self::SetDrawState
            | Self::ExecCs
            | Self::ContextRegBunch => 0,
        }
    }
}

/// The name of `value` in the database's enum `name` on `chip`.
pub(crate) fn enum_name(chip: Chip, name: &str, value: u32) -> Option<&'static str> {
    table::enum_info(name)?.name_of(chip, u64::from(value))
}

impl<W: Write> Decoder<W> {
    /// Runs `handler` on a packet's payload (at GPU address `iova`); the
    /// handler's output goes at `level`. Returns the IB a
    /// `CP_INDIRECT_BUFFER_CHAIN` continues in.
    pub(crate) fn run_handler(
        &mut self,
        handler: Handler,
        mem: &dyn GpuMemory,
        iova: u64,
        payload: &[u32],
        level: usize,
    ) -> Option<(u64, u32)> {
        if payload.len() < handler.payload_needed() {
            self.note(
                mem,
                Some(iova.wrapping_sub(4)),
                format!(
                    "packet has {} payload dwords, too few to decode (needs {})",
                    payload.len(),
                    handler.payload_needed()
                ),
            );
            return None;
        }
        match handler {
            Handler::Plain => {}
            Handler::Nop => self.nop(payload),
            Handler::IndirectBuffer => self.indirect_buffer(mem, payload, level),
            Handler::IndirectBufferChain => return self.indirect_buffer_chain(payload, level),
            Handler::RegRmw => self.reg_rmw(mem, payload, level),
            Handler::RegMem => self.reg_mem(mem, payload, level),
            Handler::MemWrite => self.mem_write(mem, iova, payload, level),
            Handler::EventWrite => self.event_write(mem, payload, level),
            Handler::RunOpencl => self.run_opencl(mem, level),
            Handler::LegacyDraw => self.note(
                mem,
                Some(iova.wrapping_sub(4)),
                "CP_DRAW_INDX is an a2xx-a4xx packet (32-bit addresses); not decoded".to_string(),
            ),
            Handler::SetDrawState => self.set_draw_state(mem, payload, level),
            Handler::DrawIndxOffset => self.draw_indx_offset(mem, payload, level),
            Handler::DrawIndirect => self.draw_indirect(mem, payload, level),
            Handler::DrawIndxIndirect => self.draw_indx_indirect(mem, payload, level),
            Handler::DrawIndirectMulti => self.draw_indirect_multi(mem, payload, level),
            Handler::DrawAuto => self.draw_auto(mem, payload, level),
            Handler::ExecCs => self.exec_cs(mem, payload, level),
            Handler::ExecCsIndirect => self.exec_cs_indirect(mem, payload, level),
            Handler::Blit => self.blit(mem, payload, level),
            Handler::ContextRegBunch => self.context_reg_bunch(mem, payload, level),
            Handler::ContextRegBunch2 => self.context_reg_bunch(mem, &payload[2..], level),
            Handler::SkipIb2Global => self.render.skip_ib2_global = payload[0] != 0,
            Handler::SkipIb2Local => self.render.skip_ib2_local = payload[0] != 0,
            Handler::LoadState6 => self.load_state6(mem, iova, payload, level),
            Handler::SetMarker => self.set_marker(payload[0]),
            Handler::RegWrite => self.reg_write(mem, payload, level),
            Handler::StartBin => self.start_bin(mem, payload, level),
            Handler::FixedStrideDrawTable => self.fixed_stride_draw_table(mem, payload, level),
            Handler::ThreadControl => {
                self.render.thread = enum_name(self.chip, "cp_thread", payload[0] & 0x3);
            }
        }
        None
    }

    /// Turnip's debug strings: `### text`, and `>>> #n: text` / `<<< #n:
    /// text` around nested scopes. Other `CP_NOP`s print nothing.
    fn nop(&mut self, payload: &[u32]) {
        // freedreno's decoder counts scopes only when it prints them.
        if self.quiet() {
            return;
        }
        let Some(&id) = payload.first() else {
            return;
        };
        let prefix = match id {
            NOP_MESSAGE => "### ".to_string(),
            NOP_BEGIN => {
                self.nop_scope += 1;
                format!(">>> #{}: ", self.nop_scope)
            }
            NOP_END => {
                self.nop_scope -= 1;
                format!("<<< #{}: ", self.nop_scope + 1)
            }
            _ => return,
        };
        // Like freedreno's decoder: the prefix, then the string only when
        // there is one.
        self.out.text(&prefix);
        if payload.len() > 1 {
            let text: Vec<u8> = payload[1..]
                .iter()
                .flat_map(|d| d.to_le_bytes())
                .take_while(|&b| b != 0)
                .filter(u8::is_ascii)
                .collect();
            self.out.bytes(&text);
            self.out.line("");
        }
    }

    /// `CP_INDIRECT_BUFFER`: its address and size, then its packets (once
    /// per render mode with `--once`).
    fn indirect_buffer(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let iova = u64::from(payload[1]) << 32 | u64::from(payload[0]);
        let size = payload[2];
        self.print_at(level, &format!("ibaddr:{iova:016x}"));
        self.print_at(level, &format!("ibsize:{size:08x}"));
        if self.options.once && self.already_walked(mem, iova) {
            return;
        }
        if self.ib_captured(mem, iova, size) {
            self.walk_ib(mem, iova, size, level);
        }
    }

    /// Whether memory was captured at an IB's address; a note if not.
    fn ib_captured(&mut self, mem: &dyn GpuMemory, iova: u64, size: u32) -> bool {
        let captured = mem.buffer_at(iova).is_some();
        if !captured {
            self.note(
                mem,
                Some(iova),
                format!("could not find the IB at {iova:#x} ({size} dwords): nothing was captured there"),
            );
        }
        captured
    }

    /// With `--once`: whether the IB at `iova` was already walked in every
    /// render pass now enabled (and if not, it is now).
    fn already_walked(&mut self, mem: &dyn GpuMemory, iova: u64) -> bool {
        if mem.buffer_at(iova).is_none() {
            return false;
        }
        let mask = self.render.enable_mask;
        let walked = self.walked.entry(iova).or_insert(0);
        if *walked & mask == mask {
            return true;
        }
        *walked |= mask;
        false
    }

    /// `CP_INDIRECT_BUFFER_CHAIN`: the CP continues in another IB and does
    /// not come back; the walk continues there when this is the IB's last
    /// packet.
    fn indirect_buffer_chain(&mut self, payload: &[u32], level: usize) -> Option<(u64, u32)> {
        let iova = u64::from(payload[1]) << 32 | u64::from(payload[0]);
        self.print_at(level, &format!("ibaddr:{iova:016x}"));
        self.print_at(level, &format!("ibsize:{:08x}", payload[2]));
        Some((iova, payload[2]))
    }

    /// `CP_START_BIN`: the same IB run once per bin, at consecutive
    /// addresses.
    fn start_bin(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let count = payload[0];
        let iova = u64::from(payload[2]) << 32 | u64::from(payload[1]);
        let size = payload[3];
        self.repeated_ib(mem, "bin", count, iova, size, level);
    }

    /// `CP_FIXED_STRIDE_DRAW_TABLE`: draws whose IBs follow one another.
    fn fixed_stride_draw_table(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let iova = u64::from(payload[1]) << 32 | u64::from(payload[0]);
        let size = payload[2] >> 20;
        let count = payload[3];
        self.repeated_ib(mem, "draw", count, iova, size, level);
    }

    fn repeated_ib(
        &mut self,
        mem: &dyn GpuMemory,
        what: &str,
        count: u32,
        iova: u64,
        size: u32,
        level: usize,
    ) {
        if !self.ib_captured(mem, iova, size) {
            return;
        }
        if count > MAX_LOOP {
            self.note(
                mem,
                Some(iova),
                format!(
                    "{count} {what}s is more than a GPU runs; only the first {MAX_LOOP} are shown"
                ),
            );
        }
        for i in 0..count.min(MAX_LOOP) {
            self.print_at(level, &format!("{what} {i}"));
            let at = iova.wrapping_add(u64::from(i) * u64::from(size) * 4);
            self.walk_ib(mem, at, size, level);
        }
    }

    /// `CP_REG_RMW`: register = (register & mask) | bits.
    fn reg_rmw(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let reg = payload[0] & 0xffff;
        let (and, or) = (payload[1], payload[2]);
        self.print_at(
            level,
            &format!(
                "rmw ({} & 0x{and:08x}) | 0x{or:08x})",
                format::register_name(self.chip, reg)
            ),
        );
        let value = self.regs.value(reg) & and | or;
        self.set_register(mem, reg, value);
    }

    /// `CP_REG_TO_MEM`/`CP_MEM_TO_REG`: the register, the address, and the
    /// memory there.
    fn reg_mem(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let reg = payload[0] & 0xffff;
        self.print_at(
            level,
            &format!("base register: {}", format::register_name(self.chip, reg)),
        );
        let iova = u64::from(payload[2]) << 32 | u64::from(payload[1]);
        self.print_at(level, &format!("gpuaddr:{iova:016x}"));
        let count = (payload[0] >> 19 & 0x3ff) as usize;
        self.dump_memory(mem, iova, count, level + 1);
    }

    /// A hex dump of `count` dwords at `iova`, clamped to what was captured.
    pub(crate) fn dump_memory(
        &mut self,
        mem: &dyn GpuMemory,
        iova: u64,
        count: usize,
        level: usize,
    ) {
        if self.quiet() {
            return;
        }
        if let Some(buffer) = mem.buffer_at(iova) {
            let dwords = buffer.dwords(iova, count);
            self.out.hex_dump(iova, &dwords, level);
        }
    }

    /// `CP_MEM_WRITE`: the address and the data, decoded as packets when it
    /// starts with a packet header (drivers write IBs this way).
    fn mem_write(&mut self, mem: &dyn GpuMemory, iova: u64, payload: &[u32], level: usize) {
        if self.quiet() {
            return;
        }
        let target = u64::from(payload[1]) << 32 | u64::from(payload[0]);
        self.out.at(level, &format!("gpuaddr:{target:016x}"));
        let data = &payload[2..];
        let data_iova = iova.wrapping_add(8);
        self.out.hex_dump(data_iova, data, level + 1);
        let is_packet = data
            .first()
            .is_some_and(|&d| parsnip_registers::pm4::Pm4Header::parse(d).is_ok());
        if is_packet {
            if self.ib_stack.len() >= super::decoder::MAX_IB_DEPTH {
                self.note(
                    mem,
                    Some(data_iova),
                    "packets written by packets nest too deep; not decoded".to_string(),
                );
                return;
            }
            // The data is part of the enclosing IB; on the stack it only
            // counts towards the nesting limit.
            self.ib_stack.push(data_iova);
            self.walk_packets(mem, data_iova, data, level + 1);
            self.ib_stack.pop();
        }
    }

    /// `CP_SET_MARKER`: the render mode, which selects the draw state groups
    /// and `--once` passes.
    fn set_marker(&mut self, dword: u32) {
        let value = dword & 0xf;
        let Some(mode) = enum_name(self.chip, "a6xx_marker", value) else {
            self.render.marker = Some(format!("0x{value:x}"));
            return;
        };
        self.render.marker = Some(mode.to_string());
        match mode {
            "RM6_BIN_VISIBILITY" => self.render.enable_mask = MODE_BINNING,
            "RM6_BIN_RENDER_START" => self.render.enable_mask = MODE_GMEM,
            "RM6_DIRECT_RENDER" => self.render.enable_mask = MODE_SYSMEM,
            _ => {}
        }
    }

    /// `CP_REG_WRITE` (a6xx): one register, named by dword 1.
    fn reg_write(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let reg = payload[1] & 0xffff;
        let mut acc = RegAccumulator::default();
        self.push_register(mem, &mut acc, reg, payload[2], level + 1);
        self.set_register(mem, reg, payload[2]);
    }

    /// `CP_CONTEXT_REG_BUNCH`: register/value pairs.
    fn context_reg_bunch(&mut self, mem: &dyn GpuMemory, pairs: &[u32], level: usize) {
        let mut acc = RegAccumulator::default();
        let mut chunks = pairs.chunks_exact(2);
        for pair in chunks.by_ref() {
            self.push_register(mem, &mut acc, pair[0], pair[1], level + 1);
            self.set_register(mem, pair[0], pair[1]);
        }
        if !chunks.remainder().is_empty() {
            self.note(
                mem,
                None,
                "register/value pairs end with a lone register; ignored".to_string(),
            );
        }
    }
}
