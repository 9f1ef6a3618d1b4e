//! Our decoder against freedreno's: for every a6xx/a7xx trace that comes
//! with the log freedreno's decoder made of it, decoded with the same
//! options, the ordered register writes (name, offset, values) must be the
//! log's, and at least 99% of the lines that decode values into fields must
//! be identical text. The whole text is compared too. Figures and the first
//! differences are printed.
//!
//! The logs of `traces/reference/` were made with `cffdump --unit-test
//! --frame 0 --once` (reference README), those of `turnip/` with `cffdump
//! --no-color` (turnip README), which starts with a `Reading FILE...` line
//! our library does not print.

mod decoder_text;

use std::path::Path;

use decoder_text::{common_lines, first_differences, is_bitfield_line, register_writes};
use parsnip_tools::decode::{decode_trace, DecodeOptions};

struct Case {
    trace: &'static str,
    log: &'static str,
    ci_options: bool,
}

const CASES: &[Case] = &[
    Case {
        trace: "traces/fd-clouds.rd.gz",
        log: "traces/reference/fd-clouds.log",
        ci_options: true,
    },
    Case {
        trace: "traces/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.rd.gz",
        log: "traces/reference/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.log",
        ci_options: true,
    },
    Case {
        trace: "turnip/a660/compute.rd.gz",
        log: "turnip/a660/compute.log",
        ci_options: false,
    },
    Case {
        trace: "turnip/a660/triangle_sysmem.rd.gz",
        log: "turnip/a660/triangle_sysmem.log",
        ci_options: false,
    },
    Case {
        trace: "turnip/a660/triangle_gmem.rd.gz",
        log: "turnip/a660/triangle_gmem.log",
        ci_options: false,
    },
    Case {
        trace: "turnip/a660/triangle_gmem-forcebin.rd.gz",
        log: "turnip/a660/triangle_gmem-forcebin.log",
        ci_options: false,
    },
    Case {
        trace: "turnip/a740/compute.rd.gz",
        log: "turnip/a740/compute.log",
        ci_options: false,
    },
    Case {
        trace: "turnip/a740/triangle_sysmem.rd.gz",
        log: "turnip/a740/triangle_sysmem.log",
        ci_options: false,
    },
    Case {
        trace: "turnip/a740/triangle_gmem.rd.gz",
        log: "turnip/a740/triangle_gmem.log",
        ci_options: false,
    },
    Case {
        trace: "turnip/a740/triangle_gmem-forcebin.rd.gz",
        log: "turnip/a740/triangle_gmem-forcebin.log",
        ci_options: false,
    },
];

/// Matching figures of one trace.
struct Figures {
    writes_ours: usize,
    writes_theirs: usize,
    writes_equal: bool,
    fields_common: usize,
    fields_theirs: usize,
    lines_common: usize,
    lines_theirs: usize,
}

fn compare(dir: &Path, case: &Case) -> Figures {
    let file = std::fs::File::open(dir.join(case.trace)).unwrap();
    let options = if case.ci_options {
        DecodeOptions::reference_ci()
    } else {
        DecodeOptions::default()
    };
    let result = decode_trace(file, options, Vec::new()).unwrap();
    assert!(
        result.read_error.is_none(),
        "{}: {:?}",
        case.trace,
        result.read_error
    );
    let ours = String::from_utf8(result.output).unwrap();
    let log = std::fs::read_to_string(dir.join(case.log)).unwrap();
    let theirs = match log.split_once('\n') {
        Some((first, rest)) if first.starts_with("Reading ") => rest,
        _ => log.as_str(),
    };

    let our_writes = register_writes(&ours);
    let their_writes = register_writes(theirs);
    let our_lines: Vec<&str> = ours.lines().collect();
    let their_lines: Vec<&str> = theirs.lines().collect();
    let our_fields: Vec<&str> = our_lines
        .iter()
        .copied()
        .filter(|l| is_bitfield_line(l))
        .collect();
    let their_fields: Vec<&str> = their_lines
        .iter()
        .copied()
        .filter(|l| is_bitfield_line(l))
        .collect();
    let figures = Figures {
        writes_ours: our_writes.len(),
        writes_theirs: their_writes.len(),
        writes_equal: our_writes == their_writes,
        fields_common: common_lines(&our_fields, &their_fields),
        fields_theirs: their_fields.len(),
        lines_common: common_lines(&our_lines, &their_lines),
        lines_theirs: their_lines.len(),
    };
    println!(
        "{}: register writes {}/{} ({}), field lines {}/{} identical ({:.2}%), \
         whole text {}/{} lines identical ({:.2}%)",
        case.trace,
        figures.writes_ours,
        figures.writes_theirs,
        if figures.writes_equal {
            "equal"
        } else {
            "DIFFERENT"
        },
        figures.fields_common,
        figures.fields_theirs,
        100.0 * figures.fields_common as f64 / figures.fields_theirs.max(1) as f64,
        figures.lines_common,
        figures.lines_theirs,
        100.0 * figures.lines_common as f64 / figures.lines_theirs.max(1) as f64,
    );
    if !figures.writes_equal {
        let first = our_writes
            .iter()
            .zip(&their_writes)
            .position(|(a, b)| a != b)
            .unwrap_or(our_writes.len().min(their_writes.len()));
        println!(
            "  first different write #{first}:\n  ours:   {:?}\n  theirs: {:?}",
            our_writes.get(first),
            their_writes.get(first)
        );
    }
    for d in first_differences(&our_lines, &their_lines, 5) {
        println!("{d}");
    }
    figures
}

#[test]
fn decoded_text_matches_freedreno_logs() {
    let Some(dir) = parsnip_reference::reference_dir("decoded_text_matches_freedreno_logs") else {
        return;
    };
    let mut failures = Vec::new();
    let (mut writes, mut fields, mut fields_common) = (0, 0, 0);
    for case in CASES {
        let f = compare(&dir, case);
        writes += f.writes_theirs;
        fields += f.fields_theirs;
        fields_common += f.fields_common;
        // Every trace has register writes and field lines to compare.
        assert!(
            f.writes_theirs > 10 && f.fields_theirs > 100,
            "{}: too little compared",
            case.trace
        );
        if !f.writes_equal {
            failures.push(format!("{}: register writes differ", case.trace));
        }
        if f.fields_common * 100 < f.fields_theirs * 99 {
            failures.push(format!(
                "{}: only {}/{} field lines identical",
                case.trace, f.fields_common, f.fields_theirs
            ));
        }
        if f.lines_common * 100 < f.lines_theirs * 99 {
            failures.push(format!(
                "{}: only {}/{} lines identical",
                case.trace, f.lines_common, f.lines_theirs
            ));
        }
    }
    println!(
        "all traces: {writes} register writes, {fields_common}/{fields} field lines identical"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
