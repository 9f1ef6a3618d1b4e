//! The decoder's state and its walk over command streams: packets, register
//! writes, and the registers whose values lead somewhere (shaders, scratch
//! breadcrumbs, texture state).
//!
//! State lives as long as the decoder: register values, draw state groups,
//! render mode and the draw count carry from one command stream to the next,
//! as they do on the GPU (and in freedreno's decoder).

use std::collections::HashMap;
use std::io::Write;

use parsnip_registers::format::{self, VariantState};
use parsnip_registers::pm4::{self, Pm4Header};
use parsnip_registers::{lookup, Chip};

use super::draw_state::DrawStates;
use super::draws::DrawRecord;
use super::memory::GpuMemory;
use super::note::Note;
use super::opcodes::Handler;
use super::options::DecodeOptions;
use super::packets::{PacketWalker, WalkError};
use super::printer::{Printer, Style};
use super::register_file::{Accumulated, RegAccumulator, RegisterFile};

/// Command streams nest a few levels (IB1, IB2, draw state groups, packets
/// written by packets); anything deeper is a loop or garbage.
pub(crate) const MAX_IB_DEPTH: usize = 8;

/// Packets decoded for one command stream at most. Real streams, tiles and
/// draw state included, stay far below; IBs that call the same IBs
/// thousands of times over could otherwise keep the decoder busy for ever.
pub(crate) const MAX_PACKETS: u64 = 4_000_000;

/// Which render passes an IB or a draw state group is walked for
/// (freedreno's decoder's `enable_mask`, set by `CP_SET_MARKER`).
pub(crate) const MODE_BINNING: u8 = 0x1;
pub(crate) const MODE_GMEM: u8 = 0x2;
pub(crate) const MODE_SYSMEM: u8 = 0x4;
pub(crate) const MODE_ALL: u8 = MODE_BINNING | MODE_GMEM | MODE_SYSMEM;

/// Registers whose value the decoder follows into memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FollowedRegister {
    /// `CP_SCRATCH[4..7]`: drivers leave breadcrumbs there; freedreno
    /// prints the four together (a6xx only, as freedreno does).
    Scratch,
    /// `SP_xS_OBJ_START`: a shader binary, disassembled.
    ShaderStart,
    /// `SP_xS_TEX_CONST`/`_TEX_SAMP`: descriptors, dumped in hex (a6xx).
    TextureState,
}

/// The render mode as `CP_SET_MARKER` and friends left it.
#[derive(Clone, Debug)]
pub(crate) struct RenderState {
    /// The marker's mode name (`RM6_BIN_RENDER_START`), or its value in hex
    /// when the database has no name for it; `None` before any marker.
    pub(crate) marker: Option<String>,
    /// `CP_THREAD_CONTROL`'s thread (a7xx).
    pub(crate) thread: Option<&'static str>,
    pub(crate) enable_mask: u8,
    pub(crate) skip_ib2_global: bool,
    pub(crate) skip_ib2_local: bool,
}

impl RenderState {
    fn new() -> Self {
        Self {
            marker: None,
            thread: None,
            enable_mask: MODE_ALL,
            skip_ib2_global: false,
            skip_ib2_local: false,
        }
    }
}

/// The registers of `chip` whose values the decoder follows, and
/// `CP_SCRATCH[0].REG`'s offset. freedreno's decoder follows the scratch
/// registers and texture state pointers on a6xx only.
fn followed_registers(chip: Chip) -> (HashMap<u32, FollowedRegister>, Option<u32>) {
    let table = lookup::chip_table(chip);
    let mut followed = HashMap::new();
    for stage in ["VS", "HS", "DS", "GS", "FS", "CS"] {
        if let Some(o) = table.offset_of(&format!("SP_{stage}_OBJ_START")) {
            followed.insert(o, FollowedRegister::ShaderStart);
        }
        if chip == Chip::A6xx {
            for kind in ["TEX_CONST", "TEX_SAMP"] {
                if let Some(o) = table.offset_of(&format!("SP_{stage}_{kind}")) {
                    followed.insert(o, FollowedRegister::TextureState);
                }
            }
        }
    }
    let scratch_base = table.offset_of("CP_SCRATCH[0].REG");
    if chip == Chip::A6xx {
        if let Some(base) = scratch_base {
            for i in 4..8 {
                followed.insert(base + i, FollowedRegister::Scratch);
            }
        }
    }
    (followed, scratch_base)
}

/// Decodes command streams of one GPU generation into freedreno-style text.
///
/// ```
/// use parsnip_tools::decode::{CapturedBuffers, DecodeOptions, Decoder};
/// use parsnip_registers::Chip;
///
/// let mut memory = CapturedBuffers::new();
/// let ib: Vec<u8> = [0x40bb0801u32, 0x000fffff, 0x70268000]
///     .iter()
///     .flat_map(|d| d.to_le_bytes())
///     .collect();
/// memory.add(0x1000, ib, None);
/// let mut decoder = Decoder::new(Chip::A6xx, DecodeOptions::default(), Vec::new());
/// decoder.decode_cmdstream(&memory, 0, 0x1000, 3);
/// let text = String::from_utf8(decoder.finish().unwrap()).unwrap();
/// assert!(text.contains("\t\twrite HLSQ_INVALIDATE_CMD (bb08)\n"));
/// assert!(text.contains("\t\topcode: CP_WAIT_FOR_IDLE (26) (1 dwords)\n"));
/// ```
pub struct Decoder<W: Write> {
    pub(crate) chip: Chip,
    pub(crate) options: DecodeOptions,
    pub(crate) out: Printer<W>,
    pub(crate) regs: RegisterFile,
    pub(crate) draw_states: DrawStates,
    /// Packet selector values, kept for the whole decode as freedreno does.
    pub(crate) variants: VariantState,
    pub(crate) render: RenderState,
    /// Draws, dispatches and blits seen so far.
    pub(crate) draw_count: u32,
    /// The draw the current packet belongs to (for `--draw`).
    pub(crate) current_draw: u32,
    /// Nesting of Turnip's `CP_NOP` begin/end markers.
    pub(crate) nop_scope: i32,
    /// GPU addresses of the IBs being walked, outermost first.
    pub(crate) ib_stack: Vec<u64>,
    /// For `--once`: render modes each IB address was walked in.
    pub(crate) walked: HashMap<u64, u8>,
    pub(crate) loading_groups: bool,
    pub(crate) cmdstream: Option<u32>,
    /// Packets the current command stream may still decode.
    pub(crate) packets_left: u64,
    pub(crate) notes: Vec<Note>,
    pub(crate) draws: Vec<DrawRecord>,
    pub(crate) followed: HashMap<u32, FollowedRegister>,
    /// `CP_SCRATCH[0].REG`.
    pub(crate) scratch_base: Option<u32>,
}

impl<W: Write> Decoder<W> {
    pub fn new(chip: Chip, options: DecodeOptions, out: W) -> Self {
        let (followed, scratch_base) = followed_registers(chip);
        let color = options.color;
        Self {
            chip,
            options,
            out: Printer::new(out, color),
            regs: RegisterFile::new(),
            draw_states: DrawStates::default(),
            variants: VariantState::new(),
            render: RenderState::new(),
            draw_count: 0,
            current_draw: 0,
            nop_scope: 0,
            ib_stack: Vec::new(),
            walked: HashMap::new(),
            loading_groups: false,
            cmdstream: None,
            packets_left: MAX_PACKETS,
            notes: Vec::new(),
            draws: Vec::new(),
            followed,
            scratch_base,
        }
    }

    /// Starts over for `chip`, as freedreno's decoder does once a trace
    /// names its GPU: registers, draw state and the draw count are reset;
    /// the output, notes and draws so far are kept.
    pub fn restart(&mut self, chip: Chip) {
        let (followed, scratch_base) = followed_registers(chip);
        self.chip = chip;
        self.followed = followed;
        self.scratch_base = scratch_base;
        self.regs = RegisterFile::new();
        self.draw_states = DrawStates::default();
        self.variants = VariantState::new();
        self.render = RenderState::new();
        self.draw_count = 0;
        self.current_draw = 0;
        self.nop_scope = 0;
        self.walked.clear();
    }

    /// Forgets which IBs `--once` has walked: the next submit's memory is
    /// new.
    pub fn forget_walked(&mut self) {
        self.walked.clear();
    }

    pub fn chip(&self) -> Chip {
        self.chip
    }

    pub fn options(&self) -> &DecodeOptions {
        &self.options
    }

    /// What was found wrong or missing so far.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The draws, dispatches and blits seen so far.
    pub fn draws(&self) -> &[DrawRecord] {
        &self.draws
    }

    /// The output, or the first error writing it.
    pub fn finish(self) -> std::io::Result<W> {
        self.out.finish()
    }

    /// Whether the decoded text is hidden here: outside the draw `--draw`
    /// asks for, and everywhere in summary mode (which prints only its own
    /// lines).
    pub(crate) fn quiet(&self) -> bool {
        if self.options.summary {
            return true;
        }
        self.options
            .draw
            .is_some_and(|draw| draw != self.current_draw)
    }

    /// Prints a line unless quiet.
    pub(crate) fn print(&mut self, text: &str) {
        if !self.quiet() {
            self.out.line(text);
        }
    }

    /// Prints a line at nesting `level` unless quiet.
    pub(crate) fn print_at(&mut self, level: usize, text: &str) {
        if !self.quiet() {
            self.out.at(level, text);
        }
    }

    /// Records a note about the input at `iova` (and where its bytes are in
    /// the trace file, when known).
    pub(crate) fn note(&mut self, mem: &dyn GpuMemory, iova: Option<u64>, message: String) {
        let file_offset = iova.and_then(|a| mem.buffer_at(a)?.file_offset_of(a));
        self.notes.push(Note {
            cmdstream: self.cmdstream,
            gpu_address: iova,
            file_offset,
            message,
        });
    }

    /// Up to `count` dwords at `iova`, from the buffer that holds it; a note
    /// when fewer were captured.
    pub(crate) fn read_dwords(
        &mut self,
        mem: &dyn GpuMemory,
        iova: u64,
        count: usize,
        what: &str,
    ) -> Option<Vec<u32>> {
        let Some(buffer) = mem.buffer_at(iova) else {
            self.note(
                mem,
                Some(iova),
                format!("{what}: nothing was captured at {iova:#x}"),
            );
            return None;
        };
        let dwords = buffer.dwords(iova, count);
        if dwords.len() < count {
            self.note(
                mem,
                Some(iova),
                format!(
                    "{what}: {count} dwords at {iova:#x} run past the end of the captured \
                     buffer at {:#x} ({} bytes); {} dwords shown",
                    buffer.base,
                    buffer.bytes.len(),
                    dwords.len()
                ),
            );
        }
        Some(dwords)
    }

    /// Decodes the command stream numbered `number` (`cmdstream[number]`) of
    /// `dwords` dwords at `iova`, against `mem`.
    pub fn decode_cmdstream(&mut self, mem: &dyn GpuMemory, number: u32, iova: u64, dwords: u32) {
        self.cmdstream = Some(number);
        self.packets_left = MAX_PACKETS;
        if mem.buffer_at(iova).is_none() {
            // freedreno's decoder says so in the text too.
            self.print("NULL cmd buffer!");
            self.note(
                mem,
                Some(iova),
                format!("nothing was captured at the command stream's address {iova:#x}"),
            );
        } else {
            self.walk_ib(mem, iova, dwords, 0);
        }
        self.cmdstream = None;
    }

    /// Walks the IB of `dwords` dwords at `iova`, its packets at `level`,
    /// following `CP_INDIRECT_BUFFER_CHAIN` at its end.
    pub(crate) fn walk_ib(&mut self, mem: &dyn GpuMemory, iova: u64, dwords: u32, level: usize) {
        let mut next = Some((iova, dwords));
        let mut chained = Vec::new();
        while let Some((iova, dwords)) = next.take() {
            if self.ib_stack.contains(&iova) || chained.contains(&iova) {
                self.note(
                    mem,
                    Some(iova),
                    format!(
                        "IB loop: the IB at {iova:#x} ({dwords} dwords) calls itself; not followed"
                    ),
                );
                return;
            }
            if self.ib_stack.len() >= MAX_IB_DEPTH {
                self.note(
                    mem,
                    Some(iova),
                    format!("IBs nested more than {MAX_IB_DEPTH} deep; the IB at {iova:#x} is not followed"),
                );
                return;
            }
            let Some(words) = self.read_dwords(mem, iova, dwords as usize, "IB") else {
                return;
            };
            chained.push(iova);
            self.ib_stack.push(iova);
            next = self.walk_packets(mem, iova, &words, level);
            self.ib_stack.pop();
        }
    }

    /// Decodes the packets in `words` (which sit at `iova`); returns the IB
    /// a final `CP_INDIRECT_BUFFER_CHAIN` continues in.
    pub(crate) fn walk_packets(
        &mut self,
        mem: &dyn GpuMemory,
        iova: u64,
        words: &[u32],
        level: usize,
    ) -> Option<(u64, u32)> {
        let mut chain = None;
        for item in PacketWalker::new(words) {
            if self.packets_left == 0 {
                return None;
            }
            self.packets_left -= 1;
            if self.packets_left == 0 {
                self.note(
                    mem,
                    Some(iova),
                    format!(
                        "more than {MAX_PACKETS} packets in one command stream; the rest is not decoded"
                    ),
                );
            }
            self.current_draw = self.draw_count;
            chain = None;
            match item {
                Ok(packet) => {
                    let at = iova.wrapping_add(packet.index as u64 * 4);
                    match packet.header {
                        Pm4Header::Type4 { offset, .. } => {
                            self.register_packet(mem, at, offset, packet.dwords, level);
                        }
                        Pm4Header::Type7 { opcode, .. } => {
                            let last = packet.index + packet.dwords.len() == words.len();
                            chain = self.opcode_packet(mem, at, opcode, packet.dwords, level);
                            if !last {
                                chain = None;
                            }
                        }
                    }
                }
                Err(error) => {
                    let at = iova.wrapping_add(error.index() as u64 * 4);
                    if let WalkError::BadHeader { error: e, .. } = error {
                        // freedreno's decoder prints this in the text too.
                        self.print(&format!("bad type! {:08x}", header_word(e)));
                    }
                    self.note(mem, Some(at), error.to_string());
                }
            }
        }
        chain
    }

    /// A type 4 packet: `write NAME (offset)`, the registers, the dump.
    fn register_packet(
        &mut self,
        mem: &dyn GpuMemory,
        iova: u64,
        offset: u32,
        dwords: &[u32],
        level: usize,
    ) {
        if !self.quiet() {
            let name = self
                .out
                .painted(Style::Register, &format::register_name(self.chip, offset));
            self.out
                .at(level + 1, &format!("write {name} ({offset:04x})"));
        }
        self.write_registers(mem, offset, &dwords[1..], level + 2);
        if !self.quiet() {
            self.out.hex_dump(iova, dwords, level + 1);
        }
    }

    /// Writes `values` to consecutive registers from `offset` and shows each
    /// whole register at `level`.
    pub(crate) fn write_registers(
        &mut self,
        mem: &dyn GpuMemory,
        offset: u32,
        values: &[u32],
        level: usize,
    ) {
        let mut acc = RegAccumulator::default();
        for (i, &value) in values.iter().enumerate() {
            let reg = offset + i as u32;
            self.set_register(mem, reg, value);
            self.push_register(mem, &mut acc, reg, value, level);
        }
    }

    /// Records a register write; a note for one outside the register space.
    pub(crate) fn set_register(&mut self, mem: &dyn GpuMemory, offset: u32, value: u32) {
        if !self.regs.set(offset, value) {
            self.note(
                mem,
                None,
                format!("write of {value:#x} to {offset:#x}, outside the register space; ignored"),
            );
        }
    }

    /// Feeds one dword to `acc` and shows the register it completes, which
    /// it returns.
    pub(crate) fn push_register(
        &mut self,
        mem: &dyn GpuMemory,
        acc: &mut RegAccumulator,
        offset: u32,
        value: u32,
        level: usize,
    ) -> Option<(u32, u64)> {
        match acc.push(self.chip, offset, value) {
            Accumulated::Pending => None,
            Accumulated::Complete { offset, value } => {
                self.show_register(mem, offset, value, level);
                Some((offset, value))
            }
            Accumulated::Discontinuity { offset, value, got } => {
                self.print(&format!(
                    "WARNING: 64b discontinuity ({got:x}, expected {:x})",
                    offset + 1
                ));
                self.show_register(mem, offset, value, level);
                Some((offset, value))
            }
            Accumulated::HighHalfAlone { offset, value } => {
                self.print(&format!(
                    "WARNING: 64b discontinuity (no _LO dword for {offset:x})"
                ));
                self.show_register(mem, offset, value, level);
                Some((offset, value))
            }
        }
    }

    /// One register's line, and what its value leads to.
    pub(crate) fn show_register(
        &mut self,
        mem: &dyn GpuMemory,
        offset: u32,
        value: u64,
        level: usize,
    ) {
        if self.quiet() {
            return;
        }
        let mut text = format::format_register(self.chip, offset, value);
        if format::is_address_register(self.chip, offset) {
            if let Some(buffer) = mem.buffer_at(value) {
                text.push_str(&format!(
                    "\t\tbase={:x}, offset={}, size={}",
                    buffer.base,
                    value - buffer.base,
                    buffer.bytes.len()
                ));
            }
        }
        self.out.at(level, &text);
        match self.followed.get(&offset) {
            Some(FollowedRegister::Scratch) => {
                if let Some(base) = self.scratch_base {
                    let v: Vec<String> = (4..8)
                        .map(|i| self.regs.value(base + i).to_string())
                        .collect();
                    self.out.at(level, &format!(":{}", v.join(",")));
                }
            }
            Some(FollowedRegister::ShaderStart) => self.shader_at(mem, value, level),
            Some(FollowedRegister::TextureState) => self.dump_memory(mem, value, 64, level + 1),
            None => {}
        }
    }

    /// A shader binary a register points to: its first 64 dwords in hex,
    /// then its disassembly up to its end.
    fn shader_at(&mut self, mem: &dyn GpuMemory, iova: u64, level: usize) {
        // freedreno's decoder aligns the address down to 16 bytes.
        let iova = iova & !0xf;
        let Some(buffer) = mem.buffer_at(iova) else {
            return;
        };
        let all = buffer.dwords(iova, usize::MAX);
        self.out
            .hex_dump(iova, &all[..all.len().min(64)], level + 1);
        self.disassemble(&all, level + 2);
    }

    /// A type 7 packet: `opcode: NAME (op) (N dwords)`, its payload fields,
    /// what the opcode does, then the dump. Returns the IB a
    /// `CP_INDIRECT_BUFFER_CHAIN` continues in.
    fn opcode_packet(
        &mut self,
        mem: &dyn GpuMemory,
        iova: u64,
        opcode: u32,
        dwords: &[u32],
        level: usize,
    ) -> Option<(u64, u32)> {
        let name = pm4::opcode_name(self.chip, opcode);
        let handler = Handler::for_opcode(name);
        if handler.loads_draw_state() {
            self.load_all_groups(mem, level + 1);
        }
        // The payload is decoded even when it is not shown: its selector
        // fields choose the layout of later packets (freedreno's decoder
        // skips this when quiet, so its `--draw` output can differ there).
        let fields = match (name, lookup::packet_domain(self.chip, opcode)) {
            (Some(_), Some(domain)) => {
                format::format_payload(self.chip, &mut self.variants, domain, &dwords[1..])
            }
            _ => Vec::new(),
        };
        if !self.quiet() {
            let shown = self.out.painted(Style::Opcode, name.unwrap_or("(null)"));
            self.out.at(
                level + 1,
                &format!("opcode: {shown} ({opcode:02x}) ({} dwords)", dwords.len()),
            );
            for line in fields {
                self.out.at(level + 2, &line);
            }
        }
        let chain = self.run_handler(handler, mem, iova.wrapping_add(4), &dwords[1..], level + 1);
        if !self.quiet() {
            self.out.hex_dump(iova, dwords, level + 1);
        }
        chain
    }
}

/// The header word a header error is about.
fn header_word(error: pm4::HeaderError) -> u32 {
    match error {
        pm4::HeaderError::UnknownType { header }
        | pm4::HeaderError::BadParity { header, .. }
        | pm4::HeaderError::ReservedBits { header } => header,
    }
}
