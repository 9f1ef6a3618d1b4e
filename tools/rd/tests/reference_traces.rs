//! The reader and the trace model on every reference trace, checked against
//! what the reference README states and what freedreno's decoder printed in
//! the reference logs.

mod reference_corpus;

use std::path::{Path, PathBuf};

use parsnip_rd::{DeviceId, MemoryErrorKind, Section, SectionType, Trace};
use reference_corpus::{decompressed, short_name, traces};

fn open(path: &Path) -> Trace {
    Trace::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn trace(test: &str, relative: &str) -> Option<Trace> {
    let path = parsnip_reference::reference_file(test, relative)?;
    Some(open(&path))
}

#[test]
fn every_reference_trace_parses_to_its_last_byte() {
    let Some(dir) =
        parsnip_reference::reference_dir("every_reference_trace_parses_to_its_last_byte")
    else {
        return;
    };
    println!(
        "{:<28} {:>9} {:>8} {:>7} {:>7} {:>8} {:>10} {:>10}  device",
        "trace", "bytes", "sections", "padding", "submits", "buffers", "uncaptured", "cmdstreams"
    );
    for path in traces(&dir) {
        let trace = open(&path);
        let bytes = decompressed(&path);
        assert_eq!(
            trace.len(),
            bytes.len() as u64,
            "{}: the reader stopped before the end",
            path.display()
        );
        let submits = trace.submits();
        let count = |f: fn(&parsnip_rd::Submit) -> usize| submits.iter().map(f).sum::<usize>();
        println!(
            "{:<28.28} {:>9} {:>8} {:>7} {:>7} {:>8} {:>10} {:>10}  {}",
            short_name(&path),
            trace.len(),
            trace.records().len(),
            trace.records().iter().map(|r| r.padding).sum::<u64>(),
            submits.len(),
            count(|s| s.buffers.len()),
            count(|s| s.uncaptured.len()),
            count(|s| s.cmdstreams.len()),
            trace.device().unwrap().id,
        );
        // Every buffer's contents are exactly as long as declared, and no
        // section of a known writer is of a type we do not know.
        for submit in submits {
            for buffer in &submit.buffers {
                assert_eq!(trace.contents(buffer).len(), buffer.size as usize);
            }
        }
        assert!(!trace
            .records()
            .iter()
            .any(|r| matches!(r.section, Section::Unknown { .. })));
    }
}

/// The GPU of each Mesa CI trace, from the reference README's table.
#[test]
fn gpu_ids_match_the_reference_table() {
    let Some(dir) = parsnip_reference::reference_dir("gpu_ids_match_the_reference_table") else {
        return;
    };
    let table = [
        ("fd-clouds", 630),
        ("es2gears-a320", 330),
        ("glxgears-a420", 420),
        ("compute-a540", 540),
        (
            "dEQP-GLES2.functional.texture.specification.basic_teximage2d.rgba16f_2d",
            201,
        ),
        (
            "dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list",
            640,
        ),
        ("shadow", 630),
    ];
    for (name, gpu_id) in table {
        let trace = open(&dir.join(format!("traces/{name}.rd.gz")));
        assert_eq!(
            trace.device().map(|d| d.id),
            Some(DeviceId::GpuId(gpu_id)),
            "{name}"
        );
    }
}

/// The README: 8-byte GPUADDRs in the old (a3xx/a4xx) traces, 12 elsewhere;
/// of 349 CMDSTREAM_ADDR ranges in the CI traces, 346 inside dumped buffers.
#[test]
fn address_forms_and_cmdstream_coverage_match_the_readme() {
    let Some(dir) =
        parsnip_reference::reference_dir("address_forms_and_cmdstream_coverage_match_the_readme")
    else {
        return;
    };
    let (mut total, mut covered) = (0, 0);
    for path in traces(&dir) {
        let trace = open(&path);
        let old = ["es2gears-a320", "glxgears-a420"]
            .iter()
            .any(|n| short_name(&path).ends_with(n));
        for record in trace.records() {
            if let Section::GpuAddr(address) = &record.section {
                assert_eq!(address.is_short(), old, "{}", short_name(&path));
            }
        }
        if !short_name(&path).starts_with("traces/") {
            continue;
        }
        for (submit, cmdstream) in trace.cmdstreams() {
            total += 1;
            let memory = trace.memory(submit).unwrap();
            if memory.dwords(cmdstream.iova, cmdstream.dwords).is_ok() {
                covered += 1;
            }
        }
    }
    println!("CI traces: {covered} of {total} command streams inside dumped buffers");
    assert_eq!((total, covered), (349, 346));
}

#[test]
fn compute_a540_has_two_gpu_ids_and_padding_before_every_section() {
    let Some(trace) = trace(
        "compute_a540_has_two_gpu_ids_and_padding_before_every_section",
        "traces/compute-a540.rd.gz",
    ) else {
        return;
    };
    let gpu_ids: Vec<_> = trace
        .records()
        .iter()
        .filter_map(|r| match r.section {
            Section::GpuId(id) => Some(id),
            _ => None,
        })
        .collect();
    assert_eq!(gpu_ids, [540, 540]);
    assert!(trace.records().iter().all(|r| r.padding == 1));
    assert_eq!(trace.trailing_padding(), 0);
    // Each section's header sits right after its own padding pair.
    let mut expected_offset = 0;
    for record in trace.records() {
        assert_eq!(record.offset, expected_offset + 8);
        expected_offset = record.offset + 8 + record.section.payload().len() as u64;
    }
}

#[test]
fn fd_clouds_has_three_cmdstreams_outside_the_dumped_buffers() {
    let Some(trace) = trace(
        "fd_clouds_has_three_cmdstreams_outside_the_dumped_buffers",
        "traces/fd-clouds.rd.gz",
    ) else {
        return;
    };
    let mut missing = Vec::new();
    for (submit, cmdstream) in trace.cmdstreams() {
        let memory = trace.memory(submit).unwrap();
        if let Err(e) = memory.dwords(cmdstream.iova, cmdstream.dwords) {
            assert!(matches!(e.kind, MemoryErrorKind::NotCaptured { .. }));
            assert!(e.to_string().contains("0x1d92000"), "{e}");
            missing.push((cmdstream.number, e.missing()));
        }
    }
    assert_eq!(missing, [(1, 0x1d92000), (3, 0x1d92000), (5, 0x1d92000)]);
    assert_eq!(trace.submits().len(), 3);
}

#[test]
fn turnip_traces_name_their_chip() {
    let Some(dir) = parsnip_reference::reference_dir("turnip_traces_name_their_chip") else {
        return;
    };
    for (gpu, chip_id) in [("a660", 0x0606_00ff), ("a740", 0x4305_0a01)] {
        for name in [
            "compute",
            "triangle_sysmem",
            "triangle_gmem",
            "triangle_gmem-forcebin",
        ] {
            let trace = open(&dir.join(format!("turnip/{gpu}/{name}.rd.gz")));
            assert_eq!(
                trace.device().map(|d| d.id),
                Some(DeviceId::ChipId(chip_id)),
                "{gpu}/{name}"
            );
            assert_eq!(trace.submits().len(), 1);
        }
    }
}

/// The Turnip README: the compute result buffer, 1024 bytes at 0x100026000,
/// still holds the 0xdeadbeef it was filled with, since nothing executed.
#[test]
fn turnip_compute_result_buffer_holds_its_poison() {
    for gpu in ["a660", "a740"] {
        let Some(trace) = trace(
            "turnip_compute_result_buffer_holds_its_poison",
            &format!("turnip/{gpu}/compute.rd.gz"),
        ) else {
            return;
        };
        let submit = &trace.submits()[0];
        assert!(submit
            .buffers
            .iter()
            .any(|b| (b.iova, b.size) == (0x1_0002_6000, 1024)));
        let memory = trace.memory(0).unwrap();
        let result = memory.dwords(0x1_0002_6000, 256).unwrap();
        assert!(result.iter().all(|&d| d == 0xdead_beef), "{gpu}");
        // The buffer ends there: the next byte belongs to another buffer.
        assert_ne!(memory.read_u32(0x1_0002_6400).ok(), Some(0xdead_beef));
    }
}

/// Each reference log that decodes packets, with its text and the trace it
/// decodes: `(name, log, trace)`. `shadow.log` is left out: a script made
/// it, and it prints a summary instead.
fn packet_logs(reference: &Path) -> Vec<(String, String, Trace)> {
    let mut pairs: Vec<(PathBuf, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(reference.join("traces/reference")).unwrap() {
        let log = entry.unwrap().path();
        let name = log.file_stem().unwrap().to_string_lossy().into_owned();
        let trace = reference.join(format!("traces/{name}.rd.gz"));
        if trace.exists() && name != "shadow" {
            pairs.push((log, trace));
        }
    }
    for gpu in ["a660", "a740"] {
        for name in [
            "compute",
            "triangle_sysmem",
            "triangle_gmem",
            "triangle_gmem-forcebin",
        ] {
            let dir = reference.join("turnip").join(gpu);
            pairs.push((
                dir.join(format!("{name}.log")),
                dir.join(format!("{name}.rd.gz")),
            ));
        }
    }
    pairs.sort();
    pairs
        .into_iter()
        .map(|(log, trace)| {
            let text = std::fs::read_to_string(&log).unwrap();
            (short_name(&trace), text, open(&trace))
        })
        .collect()
}

/// freedreno's decoder prints `gpu_id:`/`chip_id:` for the device, `test:`
/// and `cmd:` for each text section, and `cmdstream[N]: D dwords` for each
/// command stream it decodes: our model must say the same.
#[test]
fn logs_agree_on_device_texts_and_cmdstream_sizes() {
    let Some(dir) =
        parsnip_reference::reference_dir("logs_agree_on_device_texts_and_cmdstream_sizes")
    else {
        return;
    };
    for (name, log, trace) in packet_logs(&dir) {
        let device = log
            .lines()
            .find(|l| l.starts_with("gpu_id: ") || l.starts_with("chip_id: "))
            .unwrap();
        assert_eq!(device, trace.device().unwrap().id.to_string(), "{name}");

        // Texts print up to their NUL; a text holding a newline continues
        // on lines of its own, so compare first lines.
        let printed: Vec<&str> = log
            .lines()
            .filter(|l| l.starts_with("cmd: ") || l.starts_with("test: "))
            .collect();
        let texts: Vec<String> = trace
            .records()
            .iter()
            .filter_map(|r| {
                let label = match r.section.section_type() {
                    SectionType::CMD => "cmd",
                    SectionType::TEST => "test",
                    _ => return None,
                };
                let text = r.section.text()?;
                Some(format!("{label}: {}", text.lines().next().unwrap_or("")))
            })
            .collect();
        assert_eq!(printed, texts, "{name}");

        let cmdstreams: Vec<_> = trace.cmdstreams().map(|(_, c)| *c).collect();
        let mut checked = 0;
        for line in log.lines() {
            let Some((number, dwords)) = cmdstream_header(line) else {
                continue;
            };
            assert_eq!(
                cmdstreams[number].dwords, dwords,
                "{name} cmdstream[{number}]"
            );
            checked += 1;
        }
        println!(
            "{name}: {} texts and {checked} cmdstream sizes agree with the log",
            texts.len()
        );
        assert!(checked > 0, "{name}");
    }
}

/// `cmdstream[N]: D dwords`
fn cmdstream_header(line: &str) -> Option<(usize, u32)> {
    let rest = line.strip_prefix("cmdstream[")?;
    let (number, rest) = rest.split_once("]: ")?;
    let dwords = rest.strip_suffix(" dwords")?;
    Some((number.parse().ok()?, dwords.parse().ok()?))
}

/// A dword dump line: `ADDRESS:<tabs>OFFSET: d0 d1 ...`, where ADDRESS is
/// the GPU address of d0 (8 hex digits in the a2xx-a4xx logs, 16 after).
fn dump_line(line: &str) -> Option<(u64, Vec<u32>)> {
    let (address, rest) = line.split_once(':')?;
    if !(address.len() == 8 || address.len() == 16) {
        return None;
    }
    let address = u64::from_str_radix(address, 16).ok()?;
    let rest = rest.strip_prefix('\t')?.trim_start_matches('\t');
    let (offset, words) = rest.split_once(": ")?;
    if offset.len() != 4 || u16::from_str_radix(offset, 16).is_err() {
        return None;
    }
    let words = words
        .split(' ')
        .map(|w| {
            (w.len() == 8)
                .then(|| u32::from_str_radix(w, 16).ok())
                .flatten()
        })
        .collect::<Option<Vec<_>>>()?;
    Some((address, words))
}

/// Every dword freedreno's decoder dumped with its GPU address (packets of
/// the IBs and of what they call, and the memory they point at) is what our
/// memory view holds at that address, in the submit of that command stream.
#[test]
fn memory_holds_every_dword_the_logs_dump() {
    let Some(dir) = parsnip_reference::reference_dir("memory_holds_every_dword_the_logs_dump")
    else {
        return;
    };
    let mut total = 0;
    for (name, log, trace) in packet_logs(&dir) {
        let submit_of: Vec<usize> = trace.cmdstreams().map(|(s, _)| s).collect();
        let mut memory = None;
        let mut dwords = 0;
        for (line_number, line) in log.lines().enumerate() {
            if let Some((number, _)) = cmdstream_header(line) {
                memory = Some(trace.memory(submit_of[number]).unwrap());
                continue;
            }
            let (Some(memory), Some((address, words))) = (&memory, dump_line(line)) else {
                continue;
            };
            let ours = memory
                .dwords(address, words.len() as u32)
                .unwrap_or_else(|e| panic!("{name}:{}: {e}", line_number + 1));
            assert_eq!(ours, words, "{name}:{}: {line}", line_number + 1);
            dwords += words.len();
        }
        println!("{name}: {dwords} dumped dwords found in memory");
        total += dwords;
    }
    assert!(total > 10_000, "only {total} dwords checked");
}
