//! Draws, dispatches and blits: the render mode they run in, the memory
//! their indirect arguments come from, and the summary of the registers
//! written since the previous one (`draw[N] register values`, each line
//! marked `!` when the value changed and `+` when it was written).
//!
//! Payload layouts are adreno_pm4.xml's: the draw initiator's `PRIM_TYPE`
//! (bits 0-5), `CP_DRAW_INDX_OFFSET`'s `NUM_INSTANCES` and `NUM_INDICES`
//! (dwords 1-2), `CP_EXEC_CS`'s `NGROUPS_X/Y/Z` (dwords 1-3), indirect
//! argument addresses of 49 bits (dword 2 bits 0-16 above dword 1).

use std::fmt;
use std::io::Write;

use parsnip_registers::format::VariantState;
use parsnip_registers::table::{self, Domain, Elem, ElemKind};
use parsnip_registers::Chip;

use super::decoder::Decoder;
use super::memory::GpuMemory;
use super::opcodes::enum_name;
use super::printer::Style;
use super::register_file::{Accumulated, RegAccumulator};

/// freedreno's decoder shows at most this many draws of a
/// `CP_DRAW_INDIRECT_MULTI` whose count it cannot trust.
const MAX_MULTI_DRAWS: u32 = 0x100;
/// An indirect draw count above this is taken as garbage.
const MAX_INDIRECT_COUNT: u32 = 0x10000;
/// Dwords of indirect arguments shown.
const INDIRECT_DWORDS: usize = 0x10;

/// One draw, dispatch or blit, as the summary mode lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawRecord {
    /// The draw count (`draw[N]`).
    pub number: u32,
    pub cmdstream: Option<u32>,
    /// The packet (`CP_DRAW_INDX_OFFSET`, `CP_EVENT_WRITE`...).
    pub packet: &'static str,
    /// What it draws: primitive type and counts, groups, blit operation.
    pub detail: String,
    /// The render mode it ran in (`RM6_DIRECT_RENDER`, with the a7xx thread).
    pub mode: String,
}

impl fmt::Display for DrawRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "draw[{}]: {}", self.number, self.packet)?;
        if !self.detail.is_empty() {
            write!(f, " {}", self.detail)?;
        }
        write!(f, " (mode {})", self.mode)
    }
}

fn address_49(lo: u32, hi: u32) -> u64 {
    u64::from(hi & 0x1ffff) << 32 | u64::from(lo)
}

impl<W: Write> Decoder<W> {
    fn primitive(&self, initiator: u32) -> String {
        let prim = initiator & 0x3f;
        enum_name(self.chip, "pc_di_primtype", prim)
            .map_or_else(|| format!("primitive type {prim:#x}"), str::to_string)
    }

    fn render_mode_text(&self) -> String {
        let mut text = self.render.marker.clone().unwrap_or("(null)".into());
        if let Some(thread) = self.render.thread {
            text.push(':');
            text.push_str(thread);
        }
        text
    }

    /// `mode: ...` and `skip_ib2: ...` lines.
    fn print_mode(&mut self, level: usize) {
        let mode = self.render_mode_text();
        self.print_at(level, &format!("mode: {mode}"));
        let (g, l) = (self.render.skip_ib2_global, self.render.skip_ib2_local);
        self.print_at(
            level,
            &format!("skip_ib2: g={}, l={}", u8::from(g), u8::from(l)),
        );
    }

    /// `CP_EVENT_WRITE`: the event; a blit or LRZ clear counts as a draw.
    pub(crate) fn event_write(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let name = enum_name(self.chip, "vgt_event_type", payload[0] & 0xff);
        self.print_at(level, &format!("event {}", name.unwrap_or("(null)")));
        if let Some(event @ ("BLIT" | "LRZ_CLEAR")) = name {
            self.print_mode(level);
            self.register_summary(mem, level, "CP_EVENT_WRITE", event.to_string());
        }
    }

    pub(crate) fn draw_indx_offset(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        self.print_mode(level);
        let (instances, indices) = (payload[1], payload[2]);
        // Drivers emit empty draws as placeholders; they show nothing.
        if indices > 0 {
            let detail = format!(
                "{}, {indices} indices, {instances} instances",
                self.primitive(payload[0])
            );
            self.register_summary(mem, level, "CP_DRAW_INDX_OFFSET", detail);
        }
    }

    pub(crate) fn draw_indirect(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        self.print_mode(level);
        let args = address_49(payload[1], payload[2]);
        self.indirect_arguments(mem, args, level);
        let detail = format!("{}, arguments at {args:#x}", self.primitive(payload[0]));
        self.register_summary(mem, level, "CP_DRAW_INDIRECT", detail);
    }

    pub(crate) fn draw_indx_indirect(
        &mut self,
        mem: &dyn GpuMemory,
        payload: &[u32],
        level: usize,
    ) {
        self.print_mode(level);
        let indices = address_49(payload[1], payload[2]);
        self.indirect_arguments(mem, indices, level);
        let args = address_49(payload[4], payload[5]);
        self.indirect_arguments(mem, args, level);
        let detail = format!("{}, arguments at {args:#x}", self.primitive(payload[0]));
        self.register_summary(mem, level, "CP_DRAW_INDX_INDIRECT", detail);
    }

    /// `CP_DRAW_INDIRECT_MULTI`: each draw's arguments, as many as the count
    /// in memory (when captured and sane) or the packet says.
    pub(crate) fn draw_indirect_multi(
        &mut self,
        mem: &dyn GpuMemory,
        payload: &[u32],
        level: usize,
    ) {
        self.print_mode(level);
        let mut count = payload[2];
        let domain = table::domain("CP_DRAW_INDIRECT_MULTI");
        let dword_of = |name| {
            domain
                .and_then(|d| payload_dword(self.chip, &self.variants, d, name))
                .map(|i| i as usize)
        };
        let (count_at, args_at, stride_at) = (
            dword_of("INDIRECT_COUNT"),
            dword_of("INDIRECT"),
            dword_of("STRIDE"),
        );
        let pair = |i: usize| Some(u64::from(*payload.get(i + 1)?) << 32 | u64::from(payload[i]));
        if let Some(count_iova) = count_at.and_then(pair) {
            match mem.buffer_at(count_iova).map(|b| b.dwords(count_iova, 1)) {
                Some(d) if !d.is_empty() => {
                    self.print_at(level, &format!("indirect count: {}", d[0]));
                    count = if d[0] == 0 || d[0] > MAX_INDIRECT_COUNT {
                        count.min(MAX_MULTI_DRAWS)
                    } else {
                        count.min(d[0])
                    };
                }
                _ => count = count.min(MAX_MULTI_DRAWS),
            }
        }
        if count > MAX_INDIRECT_COUNT {
            self.note(
                mem,
                None,
                format!("CP_DRAW_INDIRECT_MULTI of {count} draws; the first {MAX_INDIRECT_COUNT} are shown"),
            );
            count = MAX_INDIRECT_COUNT;
        }
        let args = args_at.and_then(pair);
        let stride = stride_at.and_then(|i| payload.get(i).copied());
        if let (Some(args), Some(stride)) = (args, stride) {
            for i in 0..count {
                self.print_at(level, &format!("draw {i}:"));
                let at = args.wrapping_add(u64::from(i) * u64::from(stride));
                self.indirect_arguments(mem, at, level);
            }
        }
        let detail = format!("{}, up to {} draws", self.primitive(payload[0]), payload[2]);
        self.register_summary(mem, level, "CP_DRAW_INDIRECT_MULTI", detail);
    }

    pub(crate) fn draw_auto(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        self.print_mode(level);
        let detail = self.primitive(payload[0]);
        self.register_summary(mem, level, "CP_DRAW_AUTO", detail);
    }

    pub(crate) fn exec_cs(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let detail = match payload {
            [_, x, y, z, ..] => format!("{x}x{y}x{z} groups"),
            _ => String::new(),
        };
        self.register_summary(mem, level, "CP_EXEC_CS", detail);
    }

    pub(crate) fn exec_cs_indirect(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let args = address_49(payload[1], payload[2]);
        self.print_at(level, &format!("addr: {args:016x}"));
        self.indirect_arguments(mem, args, level);
        self.register_summary(
            mem,
            level,
            "CP_EXEC_CS_INDIRECT",
            format!("groups from {args:#x}"),
        );
    }

    pub(crate) fn blit(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        self.print_mode(level);
        let op = payload[0] & 0xf;
        let detail = enum_name(self.chip, "cp_blit_cmd", op)
            .map_or_else(|| format!("operation {op:#x}"), str::to_string);
        self.register_summary(mem, level, "CP_BLIT", detail);
    }

    pub(crate) fn run_opencl(&mut self, mem: &dyn GpuMemory, level: usize) {
        self.register_summary(mem, level, "CP_RUN_OPENCL", String::new());
    }

    /// The indirect arguments at `iova`, in hex.
    fn indirect_arguments(&mut self, mem: &dyn GpuMemory, iova: u64, level: usize) {
        if mem.buffer_at(iova).is_none() {
            self.note(
                mem,
                Some(iova),
                format!("indirect arguments at {iova:#x} were not captured"),
            );
            return;
        }
        self.dump_memory(mem, iova, INDIRECT_DWORDS, level + 1);
    }

    /// `draw[N] register values`: every register written since the last
    /// draw, in offset order; then the draw is counted.
    pub(crate) fn register_summary(
        &mut self,
        mem: &dyn GpuMemory,
        level: usize,
        packet: &'static str,
        detail: String,
    ) {
        let number = self.draw_count;
        if !self.quiet() {
            let heading = self
                .out
                .painted(Style::Heading, &format!("draw[{number}] register values"));
            self.out.at(level, &heading);
        }
        let mut acc = RegAccumulator::default();
        let (mut changed, mut written) = (false, false);
        for offset in self.regs.summary_offsets(self.options.all_registers) {
            changed |= self.regs.note_shown(offset);
            written |= self.regs.rewritten(offset);
            if self.quiet() {
                continue;
            }
            let shown = match acc.push(self.chip, offset, self.regs.value(offset)) {
                Accumulated::Pending => continue,
                Accumulated::Complete { offset, value } => (offset, value),
                Accumulated::Discontinuity { offset, value, got } => {
                    self.out.line(&format!(
                        "WARNING: 64b discontinuity ({got:x}, expected {:x})",
                        offset + 1
                    ));
                    (offset, value)
                }
                Accumulated::HighHalfAlone { offset, value } => {
                    self.out.line(&format!(
                        "WARNING: 64b discontinuity (no _LO dword for {offset:x})"
                    ));
                    (offset, value)
                }
            };
            let marks = format!(
                "{}{}\t{:08x}",
                if changed { '!' } else { ' ' },
                if written { '+' } else { ' ' },
                shown.1
            );
            self.out.text(&marks);
            self.show_register(mem, shown.0, shown.1, level);
            (changed, written) = (false, false);
        }
        self.regs.clear_rewritten();
        let record = DrawRecord {
            number,
            cmdstream: self.cmdstream,
            packet,
            detail,
            mode: self.render_mode_text(),
        };
        if self.options.summary && self.options.draw.is_none_or(|d| d == number) {
            self.out.line(&format!("\t{record}"));
        }
        self.draws.push(record);
        self.draw_count += 1;
    }
}

/// The payload dword where the register `name` of a packet's layout sits,
/// for the variant its selector fields chose last (freedreno's decoder looks
/// `CP_DRAW_INDIRECT_MULTI`'s arguments up this way).
pub(crate) fn payload_dword(
    chip: Chip,
    variants: &VariantState,
    domain: &Domain,
    name: &str,
) -> Option<u32> {
    fn find(chip: Chip, variants: &VariantState, elems: &[Elem], name: &str) -> Option<u32> {
        for e in elems {
            if !e.cond.on(chip) {
                continue;
            }
            if let Some(when) = &e.cond.when {
                let chosen = variants.get(when.varset);
                if chosen.is_some_and(|c| !when.variants.contains(&c)) {
                    continue;
                }
            }
            match &e.kind {
                ElemKind::Reg { .. } if e.name == name => return Some(e.offset),
                ElemKind::Stripe { elems } => {
                    if let Some(o) = find(chip, variants, elems, name) {
                        return Some(e.offset + o);
                    }
                }
                _ => {}
            }
        }
        None
    }
    find(chip, variants, domain.elems, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::format::format_payload;

    #[test]
    fn multi_draw_arguments_follow_the_selected_variant() {
        // dEQP-VK...triangle_list.log (its dump at 0x115e394): OPCODE =
        // INDIRECT_OP_INDIRECT_COUNT_INDEXED puts INDIRECT at payload dword
        // 6, INDIRECT_COUNT at 8 and STRIDE at 10.
        let payload = [
            0x0000_0904,
            0x0000_0007,
            3,
            0x0105_7000,
            0,
            9,
            0x0116_2008,
            0,
            0x0116_300c,
            0,
            40,
        ];
        let domain = table::domain("CP_DRAW_INDIRECT_MULTI").unwrap();
        let mut variants = VariantState::new();
        let lines = format_payload(Chip::A6xx, &mut variants, domain, &payload);
        assert!(lines[1].contains("INDIRECT_OP_INDIRECT_COUNT_INDEXED"));
        let at = |n| payload_dword(Chip::A6xx, &variants, domain, n);
        assert_eq!(at("INDIRECT"), Some(6));
        assert_eq!(at("INDIRECT_COUNT"), Some(8));
        assert_eq!(at("STRIDE"), Some(10));
        // Before any selection, the first layout that has the name.
        let fresh = VariantState::new();
        assert_eq!(payload_dword(Chip::A6xx, &fresh, domain, "STRIDE"), Some(5));
    }

    #[test]
    fn draw_records_read_as_one_line() {
        let record = DrawRecord {
            number: 2,
            cmdstream: Some(0),
            packet: "CP_DRAW_INDX_OFFSET",
            detail: "DI_PT_TRILIST, 3 indices, 1 instances".into(),
            mode: "RM6_DIRECT_RENDER".into(),
        };
        assert_eq!(
            record.to_string(),
            "draw[2]: CP_DRAW_INDX_OFFSET DI_PT_TRILIST, 3 indices, 1 instances (mode RM6_DIRECT_RENDER)"
        );
    }
}
