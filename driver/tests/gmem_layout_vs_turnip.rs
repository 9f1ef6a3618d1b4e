//! The tiler's GMEM layout and bins, against Turnip's for the same render
//! passes: the bin size of RB_BIN_CONTROL (the rendering pass's), the
//! GMEM offsets the attachments are given (every RB_MRT[i].BASE_GMEM,
//! RB_DEPTH_BUFFER_BASE_GMEM and RB_BLIT_BASE_GMEM the stream writes), and
//! for the forcebin streams the bin count and the VSC pipes
//! (VSC_BIN_COUNT, VSC_PIPE_CONFIG), read from the decoded `*_gmem` and
//! `*_gmem-forcebin` traces of the shared reference, for the workloads'
//! 64x64 framebuffers: the triangle (one RGBA8 attachment),
//! depth_bias_cull (RGBA8 and D16) and input_attachment (two RGBA8), on
//! a660 and a740. Skipped, saying so, without the reference directory.

use std::collections::BTreeSet;
use std::path::Path;

use parsnip_driver::tiling::bin_layout::BinLayout;
use parsnip_driver::tiling::gmem_layout::{GmemAttachment, GmemLayout};
use parsnip_registers::gpu;

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
                    assert_eq!(bins.pipes(), turnip.pipes, "{what}: the VSC pipes");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 12);
}
