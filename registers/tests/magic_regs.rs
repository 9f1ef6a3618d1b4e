//! The catalogue's magic register values against Turnip's: in the compute
//! captures of a660 and a740 (`turnip/*/compute.log`), Turnip writes at the
//! start of the command buffer the GPU's other registers (`raw_magic_regs`)
//! in one run right after one fixed write, then the named ones, each with
//! freedreno's value. The catalogue must give exactly those, in that order.

mod common;
use common::{dump_at, dump_row};

use parsnip_registers::pm4::{self, Pm4Header};
use parsnip_registers::{gpu, lookup, Chip};

/// The register writes of a log up to its first CP_EXEC_CS: (offset, value).
fn writes_before_dispatch(text: &str, chip: Chip) -> Vec<(u32, u32)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((0, words)) = dump_row(line) else {
            continue;
        };
        match Pm4Header::parse(words[0]) {
            Ok(Pm4Header::Type4 { offset, count }) => {
                let packet = dump_at(&lines, i);
                for k in 0..count {
                    out.push((offset + k, packet[1 + k as usize]));
                }
            }
            Ok(Pm4Header::Type7 { opcode, .. })
                if pm4::opcode_name(chip, opcode) == Some("CP_EXEC_CS") =>
            {
                break
            }
            _ => {}
        }
    }
    out
}

fn check(gpu_name: &str, before_raw: &str) {
    let test = "magic_regs_match_turnips_capture";
    let log = format!("turnip/{gpu_name}/compute.log");
    let Some(path) = parsnip_reference::reference_file(test, &log) else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let g = gpu::by_name(gpu_name).unwrap();
    let table = lookup::chip_table(g.chip);
    let captured = writes_before_dispatch(&text, g.chip);
    let ours: Vec<(u32, u32)> = g
        .magic_regs
        .in_write_order()
        .map(|m| (m.write(g.chip).unwrap().offset, m.value))
        .collect();
    // Every value, in Turnip's order.
    let mut from = 0;
    for (offset, value) in &ours {
        let name = &table.register(*offset).unwrap().name;
        let at = captured[from..]
            .iter()
            .position(|(o, _)| o == offset)
            .unwrap_or_else(|| {
                panic!("{gpu_name}: Turnip does not write {name} after the previous magic register")
            });
        let (_, theirs) = captured[from + at];
        assert_eq!(theirs, *value, "{gpu_name}: {name}");
        from += at + 1;
    }
    // The other registers are the whole run between `before_raw` and
    // RB_DBG_ECO_CNTL: none is missing from the catalogue.
    let rb_dbg_eco = table.offset_of("RB_DBG_ECO_CNTL").unwrap();
    let end = captured.iter().position(|(o, _)| *o == rb_dbg_eco).unwrap();
    let raw = g.magic_regs.raw.len();
    assert_eq!(&captured[end - raw..end], &ours[..raw], "{gpu_name}");
    let (previous, _) = captured[end - raw - 1];
    assert_eq!(
        table.register(previous).unwrap().name,
        before_raw,
        "{gpu_name}"
    );
    println!(
        "{gpu_name}: {} magic registers as Turnip writes them ({raw} others)",
        ours.len()
    );
}

#[test]
fn magic_regs_match_turnips_capture() {
    // a660/compute.log: HLSQ_INVALIDATE_CMD, a wait, then RB_DBG_ECO_CNTL
    // (the a660 has no others); a740/compute.log: RB_CCU_CNTL, then
    // UCHE_CACHE_WAYS and the rest of its list.
    check("a660", "HLSQ_INVALIDATE_CMD");
    check("a740", "RB_CCU_CNTL");
}
