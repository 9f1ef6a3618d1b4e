//! Our formatter against freedreno's: for every register write in the
//! a6xx/a7xx reference logs (`write NAME (offset)`, the decoded line(s)
//! under it, the packet's hex dump), formatting the dumped values must give
//! the logged lines. Also every packet payload line under `opcode: ...`.

use std::path::Path;

mod common;
use common::{dump_at, dump_row};

use parsnip_registers::format::{self, VariantState};
use parsnip_registers::pm4::Pm4Header;
use parsnip_registers::{lookup, Chip};

/// The a6xx/a7xx logs and the chip each was decoded for (see the
/// reference README: fd-clouds is an a630, the dEQP-VK trace an a640).
const LOGS: &[(&str, Chip)] = &[
    ("traces/reference/fd-clouds.log", Chip::A6xx),
    (
        "traces/reference/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.log",
        Chip::A6xx,
    ),
    ("turnip/a660/compute.log", Chip::A6xx),
    ("turnip/a660/triangle_sysmem.log", Chip::A6xx),
    ("turnip/a660/triangle_gmem.log", Chip::A6xx),
    ("turnip/a660/triangle_gmem-forcebin.log", Chip::A6xx),
    ("turnip/a740/compute.log", Chip::A7xx),
    ("turnip/a740/triangle_sysmem.log", Chip::A7xx),
    ("turnip/a740/triangle_gmem.log", Chip::A7xx),
    ("turnip/a740/triangle_gmem-forcebin.log", Chip::A7xx),
];

/// Registers and values a type 4 write prints, 64-bit halves joined as
/// freedreno's decoder joins them.
fn printed_writes(chip: Chip, offset: u32, values: &[u32]) -> Vec<(u32, u64)> {
    let table = lookup::chip_table(chip);
    let mut out = Vec::new();
    let mut low: Option<(u32, u32)> = None;
    for (i, v) in values.iter().enumerate() {
        let reg = offset + i as u32;
        if let Some((lo_reg, lo)) = low.take() {
            if reg == lo_reg + 1 {
                out.push((lo_reg, u64::from(lo) | u64::from(*v) << 32));
                continue;
            }
        }
        let wide = table
            .register(reg)
            .is_some_and(|e| e.width == 64 && !e.name.ends_with("_HI"));
        if wide {
            low = Some((reg, *v));
        } else {
            out.push((reg, u64::from(*v)));
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    compared: usize,
    matched: usize,
    misses: Vec<String>,
}

impl Tally {
    fn check(&mut self, file: &str, line: usize, ours: String, theirs: Option<&str>) {
        self.compared += 1;
        if theirs == Some(ours.as_str()) {
            self.matched += 1;
        } else if self.misses.len() < 40 {
            self.misses.push(format!(
                "{file}:{line}:\n  ours:   {ours}\n  theirs: {}",
                theirs.unwrap_or("<none>")
            ));
        }
    }
}

/// A decoded line without its indentation and without the buffer the
/// decoder names for addresses (`\t\tbase=...`), which needs the trace's
/// buffers.
fn text(line: &str) -> &str {
    let t = line.trim_start_matches('\t');
    t.split("\t\tbase=").next().unwrap_or(t)
}

fn check_log(path: &Path, file: &str, chip: Chip, regs: &mut Tally, packets: &mut Tally) {
    let content =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = content.lines().collect();
    let mut state = VariantState::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start_matches('\t');
        if let Some(rest) = t.strip_prefix("write ") {
            let Some((name, off)) = rest.rsplit_once(" (") else {
                continue;
            };
            let Ok(offset) = u32::from_str_radix(off.trim_end_matches(')'), 16) else {
                continue;
            };
            // The write's own dump is the first row after it holding a type
            // 4 header for this offset (shader dumps may come before it).
            let Some(start) = (i + 1..lines.len().min(i + 2000)).find(|&j| {
                dump_row(lines[j]).is_some_and(|(o, w)| {
                    o == 0 && matches!(Pm4Header::parse(w[0]), Ok(Pm4Header::Type4 { offset: x, .. }) if x == offset)
                })
            }) else {
                panic!("{file}:{}: no dump for the write", i + 1)
            };
            let mut dwords = dump_at(&lines, start);
            let Ok(Pm4Header::Type4 { count, .. }) = Pm4Header::parse(dwords[0]) else {
                unreachable!()
            };
            // Trailing all-zero rows are elided too.
            dwords.resize(dwords.len().max(count as usize + 1), 0);
            regs.check(file, i + 1, format::register_name(chip, offset), Some(name));
            let values = &dwords[1..=count as usize];
            let block = &lines[i + 1..start];
            for (reg, value) in printed_writes(chip, offset, values) {
                let ours = format::format_register(chip, reg, value);
                let name = format::register_name(chip, reg);
                let theirs = block
                    .iter()
                    .map(|l| text(l))
                    .find(|l| l.starts_with(&format!("{name}: ")));
                regs.check(file, i + 1, ours, theirs);
            }
        } else if let Some(rest) = t.strip_prefix("opcode: ") {
            // `opcode: NAME (op) (N dwords)`, payload lines, then the dump
            // (after the contents of an IB the packet calls).
            let mut fields = rest.rsplit(" (");
            let (Some(size), Some(op)) = (fields.next(), fields.next()) else {
                continue;
            };
            let Ok(op) = u32::from_str_radix(op.trim_end_matches(')'), 16) else {
                continue;
            };
            let Ok(size) = size.trim_end_matches(" dwords)").parse::<u32>() else {
                continue;
            };
            let Some(start) = (i + 1..lines.len()).find(|&j| {
                dump_row(lines[j]).is_some_and(|(o, w)| {
                    o == 0
                        && Pm4Header::parse(w[0])
                            == Ok(Pm4Header::Type7 {
                                opcode: op,
                                count: size - 1,
                            })
                })
            }) else {
                panic!("{file}:{}: no dump for the packet", i + 1)
            };
            let mut dwords = dump_at(&lines, start);
            let Ok(Pm4Header::Type7 { opcode, count }) = Pm4Header::parse(dwords[0]) else {
                unreachable!()
            };
            dwords.resize(dwords.len().max(count as usize + 1), 0);
            let name = rest.split(" (").next().unwrap_or("");
            packets.check(
                file,
                i + 1,
                parsnip_registers::pm4::opcode_name(chip, opcode)
                    .unwrap_or("(null)")
                    .to_string(),
                Some(name),
            );
            let Some(domain) = lookup::packet_domain(chip, opcode) else {
                continue;
            };
            let payload = &dwords[1..(count as usize + 1).min(dwords.len())];
            let ours = format::format_payload(chip, &mut state, domain, payload);
            // freedreno prints the payload lines right under the opcode line.
            let indent = line.len() - t.len();
            let theirs: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| {
                    let d = l.len() - l.trim_start_matches('\t').len();
                    d == indent + 1 && l.trim_start_matches('\t').starts_with('{')
                })
                .copied()
                .collect();
            for k in 0..ours.len().max(theirs.len()) {
                let o = ours.get(k).cloned().unwrap_or_else(|| "<none>".to_string());
                packets.check(file, i + 2 + k, o, theirs.get(k).map(|l| text(l)));
            }
        }
    }
}

#[test]
fn formatter_matches_freedreno_logs() {
    let Some(dir) = parsnip_reference::reference_dir("formatter_matches_freedreno_logs") else {
        return;
    };
    let mut regs = Tally::default();
    let mut packets = Tally::default();
    for (file, chip) in LOGS {
        check_log(&dir.join(file), file, *chip, &mut regs, &mut packets);
    }
    for m in regs.misses.iter().chain(&packets.misses) {
        eprintln!("{m}");
    }
    println!(
        "formatter: {}/{} register lines match, {}/{} packet lines match",
        regs.matched, regs.compared, packets.matched, packets.compared
    );
    assert!(
        regs.compared > 3000,
        "too few register lines found: {}",
        regs.compared
    );
    assert_eq!(regs.matched, regs.compared, "register lines differ");
    assert_eq!(packets.matched, packets.compared, "packet lines differ");
}
