//! A trace to its text form (see the module's documentation).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use parsnip_rd::{Section, Trace};
use parsnip_registers::lookup::{chip_table, ChipTable};
use parsnip_registers::pm4::{opcode_by_name, opcode_name, pkt4, pkt7, Pm4Header};
use parsnip_registers::Chip;

use super::MAGIC;
use crate::replay::trace_gpu;

const DWORDS_PER_LINE: usize = 8;
const HEX_BYTES_PER_LINE: usize = 32;

/// The names a chip gives opcodes and registers, where they read back to
/// the same number.
struct Names {
    chip: Chip,
    table: &'static ChipTable,
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
    let names = trace_gpu(trace).ok().map(|g| Names {
        chip: g.chip,
        table: chip_table(g.chip),
    });
    // Where IBs start, and their lengths in dwords.
    let mut ibs: BTreeMap<u64, u32> = BTreeMap::new();
    for record in trace.records() {
        if let Section::CmdstreamAddr(a) = &record.section {
            let e = ibs.entry(a.iova()).or_default();
            *e = (*e).max(a.len());
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
                buffer(&mut out, bytes, iova, &ibs, names.as_ref());
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
    names: Option<&Names>,
) {
    let dwords: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let n = dwords.len();
    // IB starts inside this buffer, as dword indexes with their ends.
    let starts: BTreeMap<usize, usize> = match (iova, names) {
        (Some(at), Some(_)) => ibs
            .range(at..at + 4 * n as u64)
            .filter(|(ib, _)| (*ib - at).is_multiple_of(4))
            .map(|(ib, len)| {
                let start = ((ib - at) / 4) as usize;
                (start, (start + *len as usize).min(n))
            })
            .collect(),
        _ => BTreeMap::new(),
    };
    let mut raw: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < n {
        let Some((&start, &end)) = starts.range(i..).next().filter(|(s, _)| **s == i) else {
            // Raw up to the next IB start.
            let next = starts.range(i..).next().map_or(n, |(s, _)| *s);
            raw.extend_from_slice(&dwords[i..next]);
            i = next;
            continue;
        };
        flush_raw(out, &mut raw);
        let _ = writeln!(
            out,
            "  ib {:#x} dwords {}",
            iova.unwrap_or(0) + 4 * start as u64,
            end - start
        );
        if let Some(names) = names {
            i = packets(out, &dwords, start, end.max(start), names);
        }
    }
    flush_raw(out, &mut raw);
    let tail = &bytes[4 * n..];
    if !tail.is_empty() {
        let _ = writeln!(out, "  tail {}", hex(tail));
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

/// Packets of `dwords[start..end]`; returns where they stopped (`end`).
fn packets(out: &mut String, dwords: &[u32], start: usize, end: usize, names: &Names) -> usize {
    let mut raw = Vec::new();
    let mut i = start;
    while i < end {
        let header = dwords[i];
        let parsed = Pm4Header::parse(header).ok().filter(|h| {
            let (count, encoded) = match *h {
                // A type 4 packet of no register has nothing to name its
                // offset by: it stays a raw dword.
                Pm4Header::Type4 { count: 0, .. } => return false,
                Pm4Header::Type4 { offset, count } => (count, pkt4(offset, count)),
                Pm4Header::Type7 { opcode, count } => (count, pkt7(opcode, count)),
            };
            encoded == header && i + 1 + count as usize <= end
        });
        let Some(h) = parsed else {
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
