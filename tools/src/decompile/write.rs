//! A trace to its text form (see the module's documentation).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use parsnip_rd::{Section, Trace};
use parsnip_registers::lookup::{chip_table, ChipTable};
use parsnip_registers::packets::{CpIndirectBufferDw2, CpSetDrawStateDw0};
use parsnip_registers::pm4::{opcode_by_name, opcode_name, pkt4, pkt7, Pm4Header};
use parsnip_registers::Chip;

use super::MAGIC;
use crate::decode::isa_gen;
use crate::replay::trace_gpu;
use parsnip_isa::{assemble as isa_assemble, disassemble_lines};

const DWORDS_PER_LINE: usize = 8;
const HEX_BYTES_PER_LINE: usize = 32;

/// The names a chip gives opcodes and registers, where they read back to
/// the same number.
struct Names {
    chip: Chip,
    table: &'static ChipTable,
    /// The offsets of `SP_xS_OBJ_START`.
    shader_starts: Vec<u32>,
}

impl Names {
    fn opcode(&self, opcode: u32) -> String {
        match opcode_name(self.chip, opcode) {
            Some(n) if opcode_by_name(self.chip, n) == Some(opcode) => n.to_string(),
            _ => format!("{opcode:#x}"),
        }
    }

    fn register(&self, offset: u32) -> String {
        match self.table.register(offset) {
            Some(e) if self.table.offset_of(&e.name) == Some(offset) => e.name.clone(),
            _ => format!("{offset:#06x}"),
        }
    }
}

/// The text form of `trace`.
pub fn decompile(trace: &Trace) -> String {
    let names = trace_gpu(trace).ok().map(|g| {
        let table = chip_table(g.chip);
        Names {
            chip: g.chip,
            table,
            shader_starts: ["VS", "HS", "DS", "GS", "FS", "CS"]
                .iter()
                .filter_map(|stage| table.offset_of(&format!("SP_{stage}_OBJ_START")))
                .collect(),
        }
    });
    // Where IBs start, and their lengths in dwords.
    let mut ibs: BTreeMap<u64, u32> = BTreeMap::new();
    for record in trace.records() {
        if let Section::CmdstreamAddr(a) = &record.section {
            let e = ibs.entry(a.iova()).or_default();
            *e = (*e).max(a.len());
        }
    }
    // The streams the IBs run (to IB3 and draw state groups within), and
    // where shaders start: the SP_xS_OBJ_START writes of all of them.
    let mut shaders = BTreeSet::new();
    if let Some(names) = &names {
        for _level in 0..3 {
            let mut streams = Vec::new();
            let mut at = None;
            for record in trace.records() {
                match &record.section {
                    Section::GpuAddr(a) => at = Some(a.iova()),
                    Section::BufferContents(bytes) => {
                        let Some(base) = at.take() else { continue };
                        let dwords = dwords_of(bytes);
                        for (start, end) in ib_ranges(base, dwords.len(), &ibs) {
                            scan_stream(&dwords, start, end, names, &mut streams, &mut shaders);
                        }
                    }
                    _ => {}
                }
            }
            let known = ibs.len();
            for (iova, len) in streams {
                let e = ibs.entry(iova).or_default();
                *e = (*e).max(len);
            }
            if ibs.len() == known {
                break;
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "{MAGIC}");
    match &names {
        Some(n) => {
            let chip = match n.chip {
                Chip::A6xx => "a6xx",
                Chip::A7xx => "a7xx",
            };
            let _ = writeln!(out, "chip {chip}  # registers and packets are named for it");
        }
        None => {
            let _ = writeln!(out, "# the trace's GPU is not modelled: no names");
        }
    }
    let mut buffer_iova = None;
    for record in trace.records() {
        let section = &record.section;
        let _ = write!(
            out,
            "record {:#x} padding {}",
            section.section_type().0,
            record.padding
        );
        match section {
            Section::GpuAddr(a) => buffer_iova = Some(a.iova()),
            Section::BufferContents(bytes) => {
                let iova = buffer_iova.take();
                match iova {
                    Some(at) => {
                        let _ = writeln!(out, "  # BUFFER_CONTENTS at {at:#x}");
                    }
                    None => {
                        let _ = writeln!(out, "  # BUFFER_CONTENTS");
                    }
                }
                buffer(&mut out, bytes, iova, &ibs, &shaders, names.as_ref());
                continue;
            }
            _ => {}
        }
        let what = section.section_type().name().unwrap_or("unknown section");
        let _ = writeln!(out, "  # {what}");
        if let Some(text) = section.text() {
            let _ = writeln!(out, "  # {}", text.replace('\n', " "));
        }
        for chunk in section.payload().chunks(HEX_BYTES_PER_LINE) {
            let _ = writeln!(out, "  hex {}", hex(chunk));
        }
    }
    let _ = writeln!(out, "trailing_padding {}", trace.trailing_padding());
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Buffer contents: packets where IBs start, dwords elsewhere.
fn buffer(
    out: &mut String,
    bytes: &[u8],
    iova: Option<u64>,
    ibs: &BTreeMap<u64, u32>,
    shaders: &BTreeSet<u64>,
    names: Option<&Names>,
) {
    let dwords = dwords_of(bytes);
    let n = dwords.len();
    let (Some(at), Some(names)) = (iova, names) else {
        let mut raw = dwords;
        flush_raw(out, &mut raw);
        tail(out, bytes);
        return;
    };
    // IB and shader starts inside this buffer, as dword indexes.
    let ib_at: BTreeMap<usize, usize> = ib_ranges(at, n, ibs).collect();
    let shader_at: BTreeSet<usize> = shaders
        .range(at..at + 4 * n as u64)
        .filter(|s| (*s - at).is_multiple_of(8))
        .map(|s| ((s - at) / 4) as usize)
        .collect();
    let next_start = |i: usize| {
        let ib = ib_at.range(i..).next().map_or(n, |(s, _)| *s);
        let shader = shader_at.range(i..).next().copied().unwrap_or(n);
        ib.min(shader)
    };
    let mut raw: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < n {
        if let Some(&end) = ib_at.get(&i) {
            flush_raw(out, &mut raw);
            let _ = writeln!(out, "  ib {:#x} dwords {}", at + 4 * i as u64, end - i);
            i = packets(out, &dwords, i, end.max(i), names);
        } else if shader_at.contains(&i) {
            flush_raw(out, &mut raw);
            // To the next start, in whole 64-bit instructions.
            let end = i + (next_start(i + 1) - i) / 2 * 2;
            shader(out, &dwords[i..end], at + 4 * i as u64, names.chip);
            i = end.max(i + 2).min(n);
        } else {
            let next = next_start(i);
            raw.extend_from_slice(&dwords[i..next]);
            i = next;
        }
    }
    flush_raw(out, &mut raw);
    tail(out, bytes);
}

/// The bytes after the last whole dword.
fn tail(out: &mut String, bytes: &[u8]) {
    let rest = &bytes[bytes.len() / 4 * 4..];
    if !rest.is_empty() {
        let _ = writeln!(out, "  tail {}", hex(rest));
    }
}

fn dwords_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The IBs starting inside a buffer of `n` dwords at `at`: dword index of
/// each start and of its end (at most the buffer's).
fn ib_ranges(
    at: u64,
    n: usize,
    ibs: &BTreeMap<u64, u32>,
) -> impl Iterator<Item = (usize, usize)> + '_ {
    ibs.range(at..at + 4 * n as u64)
        .filter(move |(ib, _)| (*ib - at).is_multiple_of(4))
        .map(move |(ib, len)| {
            let start = ((ib - at) / 4) as usize;
            (start, (start + *len as usize).min(n))
        })
}

/// A shader as ir3 assembly (`|` lines), where the listing assembles back
/// to the same words; raw words otherwise.
fn shader(out: &mut String, dwords: &[u32], iova: u64, chip: Chip) {
    let words: Vec<u64> = dwords
        .chunks_exact(2)
        .map(|p| u64::from(p[0]) | u64::from(p[1]) << 32)
        .collect();
    let generation = isa_gen(chip);
    let listing = disassemble_lines(&words, generation);
    let exact = isa_assemble(&listing.join("\n"), generation).is_ok_and(|w| w == words);
    let _ = writeln!(
        out,
        "  shader {iova:#x}  # ir3 assembly, {} instructions",
        words.len()
    );
    if exact {
        for line in listing {
            let _ = writeln!(out, "    | {line}");
        }
    } else {
        // Some word reads back differently: each as `raw`, which does.
        for w in words {
            let _ = writeln!(out, "    | raw 0x{w:016X}");
        }
    }
}

fn flush_raw(out: &mut String, raw: &mut Vec<u32>) {
    if raw.is_empty() {
        return;
    }
    let _ = writeln!(out, "  dwords");
    value_lines(out, raw);
    raw.clear();
}

fn value_lines(out: &mut String, values: &[u32]) {
    for line in values.chunks(DWORDS_PER_LINE) {
        let text: Vec<String> = line.iter().map(|v| format!("{v:#010x}")).collect();
        let _ = writeln!(out, "    {}", text.join(" "));
    }
}

/// The packet whose header is `dwords[i]`, if it is one the text can hold
/// (its header re-encodes to itself and its payload ends by `end`).
fn packet_at(dwords: &[u32], i: usize, end: usize) -> Option<Pm4Header> {
    let header = dwords[i];
    Pm4Header::parse(header).ok().filter(|h| {
        let (count, encoded) = match *h {
            // A type 4 packet of no register has nothing to name its
            // offset by: it stays a raw dword.
            Pm4Header::Type4 { count: 0, .. } => return false,
            Pm4Header::Type4 { offset, count } => (count, pkt4(offset, count)),
            Pm4Header::Type7 { opcode, count } => (count, pkt7(opcode, count)),
        };
        encoded == header && i + 1 + count as usize <= end
    })
}

/// What the packets of `dwords[start..end]` point at: the streams they
/// run (CP_INDIRECT_BUFFER*, CP_SET_DRAW_STATE groups) and the shaders
/// they set (`SP_xS_OBJ_START`, a 64-bit register written in one pkt4).
fn scan_stream(
    dwords: &[u32],
    start: usize,
    end: usize,
    names: &Names,
    streams: &mut Vec<(u64, u32)>,
    shaders: &mut BTreeSet<u64>,
) {
    let mut i = start;
    while i < end {
        match packet_at(dwords, i, end) {
            None => i += 1,
            Some(Pm4Header::Type7 { opcode, count }) => {
                let payload = &dwords[i + 1..i + 1 + count as usize];
                let name = opcode_name(names.chip, opcode).unwrap_or_default();
                if name.starts_with("CP_INDIRECT_BUFFER") && payload.len() >= 3 {
                    streams.push((
                        u64::from(payload[0]) | u64::from(payload[1]) << 32,
                        CpIndirectBufferDw2::from_raw(payload[2]).size,
                    ));
                } else if name == "CP_SET_DRAW_STATE" {
                    for entry in payload.chunks_exact(3) {
                        let dw = CpSetDrawStateDw0::from_raw(entry[0]);
                        if !(dw.disable || dw.disable_all_groups || dw.load_immed) && dw.count > 0 {
                            streams
                                .push((u64::from(entry[1]) | u64::from(entry[2]) << 32, dw.count));
                        }
                    }
                }
                i += 1 + count as usize;
            }
            Some(Pm4Header::Type4 { offset, count }) => {
                for k in 0..count.saturating_sub(1) {
                    if names.shader_starts.contains(&(offset + k)) {
                        let lo = dwords[i + 1 + k as usize];
                        let hi = dwords[i + 2 + k as usize];
                        shaders.insert(u64::from(lo) | u64::from(hi) << 32);
                    }
                }
                i += 1 + count as usize;
            }
        }
    }
}

/// Packets of `dwords[start..end]`; returns where they stopped (`end`).
fn packets(out: &mut String, dwords: &[u32], start: usize, end: usize, names: &Names) -> usize {
    let mut raw = Vec::new();
    let mut i = start;
    while i < end {
        let header = dwords[i];
        let Some(h) = packet_at(dwords, i, end) else {
            raw.push(header);
            i += 1;
            continue;
        };
        flush_raw(out, &mut raw);
        match h {
            Pm4Header::Type7 { opcode, count } => {
                let _ = writeln!(out, "  pkt7 {}", names.opcode(opcode));
                value_lines(out, &dwords[i + 1..i + 1 + count as usize]);
                i += 1 + count as usize;
            }
            Pm4Header::Type4 { offset, count } => {
                let _ = writeln!(out, "  pkt4");
                for k in 0..count {
                    let _ = writeln!(
                        out,
                        "    {} {:#010x}",
                        names.register(offset + k),
                        dwords[i + 1 + k as usize]
                    );
                }
                i += 1 + count as usize;
            }
        }
    }
    flush_raw(out, &mut raw);
    end
}
