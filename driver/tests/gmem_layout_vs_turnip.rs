//! The tiler's GMEM layout and bins, against Turnip's for the same render
//! passes: the bin size of RB_BIN_CONTROL (the rendering pass's), the
//! GMEM offsets the attachments are given (every RB_MRT[i].BASE_GMEM,
//! RB_DEPTH_BUFFER_BASE_GMEM and RB_BLIT_BASE_GMEM the stream writes), and
//! for the forcebin streams the bin count and the VSC pipes
//! (VSC_BIN_COUNT, VSC_PIPE_CONFIG), read from the decoded `*_gmem` and
//! `*_gmem-forcebin` traces of the shared reference, for the workloads'
//! 64x64 framebuffers: the triangle (one RGBA8 attachment),
//! depth_bias_cull (RGBA8 and D16) and input_attachment (two RGBA8), on
//! a660 and a740. And the VSC registers hw-state programs for those bins
//! (VSC_BIN_SIZE, VSC_BIN_COUNT, every VSC_PIPE_CONFIG entry) are the
//! dwords Turnip's forcebin streams hold. Skipped, saying so, without the
//! reference directory.

use std::collections::BTreeSet;
use std::path::Path;

use parsnip_driver::tiling::bin_layout::BinLayout;
use parsnip_driver::tiling::gmem_layout::{GmemAttachment, GmemLayout};
use parsnip_hw_state::vsc::{program_vsc_layout, VscLayout};
use parsnip_hw_state::StateWriter;
use parsnip_registers::gpu;
use parsnip_registers::regs::{self, ArrayRegister, Register};

/// What a decoded Turnip stream chose.
#[derive(Debug, Default)]
struct TurnipChoice {
    bin: Option<(u32, u32)>,
    bases: BTreeSet<u32>,
    bin_count: Option<(u32, u32)>,
    pipes: Vec<[u32; 4]>,
}

/// `NAME = value` of a decoded `{ A = 1 | B = 2 }` field list.
fn field(line: &str, name: &str) -> Option<u32> {
    let at = line.find(&format!("{name} = "))? + name.len() + 3;
    let text: String = line[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    parse(&text)
}

fn parse(text: &str) -> Option<u32> {
    match text.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

fn read_log(path: &Path) -> TurnipChoice {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut c = TurnipChoice::default();
    // The register dumps at draws ("+" lines) repeat what was written.
    for line in text
        .lines()
        .filter(|l| !l.trim_start().starts_with(['+', '!']))
    {
        let line = line.trim();
        if line.starts_with("RB_BIN_CONTROL: {") && line.contains("RENDERING_PASS") {
            let bin = (field(line, "BINW").unwrap(), field(line, "BINH").unwrap());
            assert!(
                c.bin.is_none_or(|b| b == bin),
                "{}: two bin sizes",
                path.display()
            );
            c.bin = Some(bin);
        }
        let base = ["BASE_GMEM: "]
            .iter()
            .find_map(|k| line.find(k).map(|at| &line[at + k.len()..]));
        if let (true, Some(v)) = (line.starts_with("RB_"), base) {
            c.bases.insert(parse(v.trim()).expect("a GMEM offset"));
        }
        if line.starts_with("VSC_BIN_COUNT: {") {
            c.bin_count = Some((field(line, "NX").unwrap(), field(line, "NY").unwrap()));
        }
        if line.starts_with("VSC_PIPE_CONFIG[") {
            let p = ["X", "Y", "W", "H"].map(|f| field(line, f).unwrap());
            if p[2] != 0 {
                c.pipes.push(p);
            }
        }
    }
    c
}

#[test]
fn bins_and_gmem_offsets_are_turnips() {
    let Some(dir) = parsnip_reference::reference_dir("bins_and_gmem_offsets_are_turnips") else {
        return;
    };
    // Bytes a pixel of each workload's attachments.
    let workloads: [(&str, &[u32]); 3] = [
        ("triangle", &[4]),
        ("depth_bias_cull", &[4, 2]),
        ("input_attachment", &[4, 4]),
    ];
    let mut checked = 0;
    for name in ["a660", "a740"] {
        let g = gpu::by_name(name).unwrap();
        for (workload, cpps) in workloads {
            let attachments: Vec<_> = cpps
                .iter()
                .map(|&bytes_per_pixel| Some(GmemAttachment { bytes_per_pixel }))
                .collect();
            let layout = GmemLayout::new(g, &attachments).unwrap();
            let ours: BTreeSet<u32> = layout.offsets.iter().flatten().copied().collect();
            for (suffix, min_bins) in [("gmem", 1), ("gmem-forcebin", 2)] {
                let log = dir.join(format!("turnip/{name}/{workload}_{suffix}.log"));
                let turnip = read_log(&log);
                let what = format!("{name} {workload}_{suffix}");
                let bins = BinLayout::new(g, &layout, 64, 64, min_bins).unwrap();
                assert_eq!(
                    Some((bins.bin_width, bins.bin_height)),
                    turnip.bin,
                    "{what}: the bin size"
                );
                assert_eq!(ours, turnip.bases, "{what}: the GMEM offsets");
                if let Some(count) = turnip.bin_count {
                    assert_eq!((bins.columns, bins.rows), count, "{what}: the bins");
                    let pipes: Vec<[u32; 4]> = bins
                        .pipes()
                        .iter()
                        .map(|p| [p.x, p.y, p.width, p.height])
                        .collect();
                    assert_eq!(pipes, turnip.pipes, "{what}: the VSC pipes");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 12);
}

/// The raw value of every register of the stream's first register dump
/// (its `+` lines: `!+\t00000203\t\t\tVSC_BIN_SIZE: { .. }`), by name.
fn first_dump(path: &Path) -> Vec<(String, u32)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: Vec<(String, u32)> = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("!+").or_else(|| line.strip_prefix(" +")) else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let (Some(raw), Some(name)) = (words.next(), words.next()) else {
            continue;
        };
        let (Ok(raw), Some(name)) = (u32::from_str_radix(raw, 16), name.strip_suffix(':')) else {
            continue;
        };
        if out.iter().any(|(n, _)| n == name) {
            continue;
        }
        out.push((name.to_string(), raw));
    }
    out
}

#[test]
fn vsc_registers_are_turnips_forcebin_dwords() {
    let Some(dir) = parsnip_reference::reference_dir("vsc_registers_are_turnips_forcebin_dwords")
    else {
        return;
    };
    for name in ["a660", "a740"] {
        let g = gpu::by_name(name).unwrap();
        let chip = g.chip;
        let attachments = [Some(GmemAttachment { bytes_per_pixel: 4 })];
        let layout = GmemLayout::new(g, &attachments).unwrap();
        let bins = BinLayout::new(g, &layout, 64, 64, 2).unwrap();
        let pipes = bins.pipes();
        let mut w = StateWriter::new(chip);
        program_vsc_layout(
            &mut w,
            &VscLayout {
                bin_width: bins.bin_width,
                bin_height: bins.bin_height,
                columns: bins.columns,
                rows: bins.rows,
                pipes: &pipes,
            },
        )
        .unwrap();
        let ours = w.register_writes();
        let log = dir.join(format!("turnip/{name}/triangle_gmem-forcebin.log"));
        let turnip = first_dump(&log);
        let raw = |n: &str| {
            turnip
                .iter()
                .find(|(t, _)| t == n)
                .map(|&(_, v)| v)
                .unwrap_or_else(|| panic!("{name}: {n} is not in the dump"))
        };
        let written = |offset: u32| {
            ours.iter()
                .rev()
                .find(|&&(o, _)| o == offset)
                .map(|&(_, v)| v)
        };
        let size = <regs::VscBinSize as Register>::offset(chip).unwrap();
        let count = <regs::VscBinCount as Register>::offset(chip).unwrap();
        assert_eq!(
            written(size),
            Some(raw("VSC_BIN_SIZE")),
            "{name}: VSC_BIN_SIZE"
        );
        assert_eq!(
            written(count),
            Some(raw("VSC_BIN_COUNT")),
            "{name}: VSC_BIN_COUNT"
        );
        let pipe0 = <regs::VscPipeConfigReg as ArrayRegister>::offset(chip, 0).unwrap();
        for p in 0..32u32 {
            let n = if p == 0 {
                "VSC_PIPE_CONFIG[0].REG".to_string()
            } else {
                format!("VSC_PIPE_CONFIG[{p:#x}].REG")
            };
            assert_eq!(written(pipe0 + p), Some(raw(&n)), "{name}: {n}");
        }
    }
}
