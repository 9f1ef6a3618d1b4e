//! The options freedreno's decoder has, checked against its logs where they
//! tell (which draws there are, their render modes, their register
//! summaries), and the `parsnip-decode` command itself: its output, exit
//! status and error messages.

mod decoder_text;

use std::path::{Path, PathBuf};
use std::process::Command;

use decoder_text::common_lines;
use parsnip_tools::decode::{decode_trace, DecodeOptions};

const DEQP: &str =
    "traces/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.rd.gz";
const DEQP_LOG: &str =
    "traces/reference/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.log";

fn decode(path: &Path, options: DecodeOptions) -> String {
    let file = std::fs::File::open(path).unwrap();
    let result = decode_trace(file, options, Vec::new()).unwrap();
    String::from_utf8(result.output).unwrap()
}

/// For each `draw[N] register values` heading of a text: N, the last
/// opcode before it and the last `mode:` line before it.
fn draws_of(text: &str) -> Vec<(u32, String, String)> {
    let mut draws = Vec::new();
    let (mut opcode, mut mode) = (String::new(), String::new());
    for line in text.lines().map(|l| l.trim_start_matches('\t')) {
        if let Some(rest) = line.strip_prefix("opcode: ") {
            opcode = rest.split(' ').next().unwrap_or("").to_string();
        } else if let Some(rest) = line.strip_prefix("mode: ") {
            mode = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("draw[") {
            if let Some(n) = rest.strip_suffix("] register values") {
                draws.push((n.parse().unwrap(), opcode.clone(), mode.clone()));
            }
        }
    }
    draws
}

#[test]
fn summary_lists_the_draws_of_the_reference_log() {
    let Some(dir) =
        parsnip_reference::reference_dir("summary_lists_the_draws_of_the_reference_log")
    else {
        return;
    };
    for (trace, log) in [
        (DEQP, DEQP_LOG),
        ("traces/fd-clouds.rd.gz", "traces/reference/fd-clouds.log"),
    ] {
        let options = DecodeOptions {
            summary: true,
            ..DecodeOptions::reference_ci()
        };
        let summary = decode(&dir.join(trace), options);
        let expected = draws_of(&std::fs::read_to_string(dir.join(log)).unwrap());
        let lines: Vec<&str> = summary.lines().collect();
        println!("{trace}:\n{summary}");
        // One line for the command stream, one per draw.
        assert_eq!(lines.len(), 1 + expected.len(), "{trace}");
        assert!(lines[0].starts_with("cmdstream[0]: "), "{}", lines[0]);
        for (line, (n, opcode, mode)) in lines[1..].iter().zip(&expected) {
            let prefix = format!("\tdraw[{n}]: {opcode} ");
            assert!(
                line.starts_with(&prefix),
                "{line} should start with {prefix}"
            );
            // Draws that print no mode line (dispatches) keep the last one.
            assert!(
                line.ends_with(&format!("(mode {mode})")),
                "{line}: mode {mode}"
            );
        }
    }
}

#[test]
fn draw_shows_only_that_draw_with_the_logs_register_summary() {
    let Some(dir) = parsnip_reference::reference_dir(
        "draw_shows_only_that_draw_with_the_logs_register_summary",
    ) else {
        return;
    };
    let log = std::fs::read_to_string(dir.join(DEQP_LOG)).unwrap();
    let full = decode(&dir.join(DEQP), DecodeOptions::reference_ci());
    let full_lines: Vec<&str> = full.lines().collect();
    let draws = draws_of(&log).len() as u32;
    assert_eq!(draws, 4);
    for n in 0..draws {
        let options = DecodeOptions {
            draw: Some(n),
            ..DecodeOptions::reference_ci()
        };
        let text = decode(&dir.join(DEQP), options);
        let lines: Vec<&str> = text.lines().collect();
        // Only draw n's summary, and nothing the full decode does not have,
        // in the same order.
        let headings: Vec<_> = draws_of(&text).into_iter().map(|d| d.0).collect();
        assert_eq!(headings, [n]);
        assert_eq!(common_lines(&lines, &full_lines), lines.len(), "draw {n}");
        // The summary block is the log's, line for line.
        let heading = format!("draw[{n}] register values");
        let block = |all: &[&str]| -> Vec<String> {
            let start = all.iter().position(|l| l.ends_with(&heading)).unwrap();
            all[start..]
                .iter()
                .skip(1)
                .take_while(|l| !l.starts_with("0000") && !l.trim_start().starts_with("opcode"))
                .map(|l| l.to_string())
                .collect()
        };
        let log_lines: Vec<&str> = log.lines().collect();
        assert_eq!(block(&lines), block(&log_lines), "draw {n}");
    }
}

#[test]
fn frame_selects_one_command_stream() {
    let Some(dir) = parsnip_reference::reference_dir("frame_selects_one_command_stream") else {
        return;
    };
    let file = std::fs::File::open(dir.join(DEQP)).unwrap();
    let result = decode_trace(file, DecodeOptions::default().frame(1), Vec::new()).unwrap();
    let text = String::from_utf8(result.output).unwrap();
    assert_eq!((result.cmdstreams, result.decoded), (2, 1));
    assert!(!text.contains("cmdstream[0]"));
    assert!(text.contains("cmdstream[1]: 205 dwords\n"));
    // The process lines of every submit are still shown, as freedreno does.
    assert_eq!(text.matches("cmd: deqp-vk/74711: fence=").count(), 2);
    // Draws are counted from the start of the decode.
    assert_eq!(draws_of(&text).first().map(|d| d.0), Some(0));
    // Past the last command stream, nothing is decoded.
    let file = std::fs::File::open(dir.join(DEQP)).unwrap();
    let result = decode_trace(file, DecodeOptions::default().frame(7), Vec::new()).unwrap();
    assert_eq!(result.decoded, 0);
    assert!(!String::from_utf8(result.output)
        .unwrap()
        .contains("cmdstream["));
}

fn decoder_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_parsnip-decode"))
}

#[test]
fn the_command_prints_freedreno_text() {
    let Some(dir) = parsnip_reference::reference_dir("the_command_prints_freedreno_text") else {
        return;
    };
    let trace = dir.join(DEQP);
    let out = decoder_command()
        .args(["--unit-test", "--frame", "0", "--once"])
        .arg(&trace)
        .output()
        .unwrap();
    assert!(out.status.success());
    let log = std::fs::read_to_string(dir.join(DEQP_LOG)).unwrap();
    assert!(String::from_utf8(out.stdout).unwrap() == log);
    // Without --unit-test the text starts with the file being read, as
    // freedreno's does; --frame=N works too.
    let out = decoder_command()
        .args(["--frame=0", "--once", "--no-color"])
        .arg(&trace)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        format!("Reading {}...", trace.display())
    );
    assert!(text.ends_with(&log));
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("parsnip-decode-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn the_command_reports_damage_and_bad_arguments() {
    // A trace cut in the middle of a section header.
    let path = temp_file(
        "truncated.rd",
        &[13, 0, 0, 0, 4, 0, 0, 0, 0x76, 2, 0, 0, 3, 0],
    );
    let out = decoder_command()
        .arg("--unit-test")
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "gpu_id: 630\n");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("at offset 0xc: truncated section header"),
        "{stderr}"
    );

    let out = decoder_command().arg("--bogus").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("unknown option --bogus"));
    let out = decoder_command()
        .args(["--frame", "x", "t.rd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = decoder_command()
        .arg("/nonexistent/trace.rd")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("/nonexistent/trace.rd"));
}

/// The register names of each `draw[N] register values` block.
fn summary_registers(text: &str) -> Vec<Vec<String>> {
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for line in text.lines() {
        if line.ends_with(" register values") {
            blocks.push(Vec::new());
        } else if let (Some(block), [b'!' | b' ', b'+' | b' ', b'\t', ..]) =
            (blocks.last_mut(), line.as_bytes())
        {
            let name = line
                .trim_start_matches(|c| c != '\t')
                .trim_start_matches('\t');
            let name = name.trim_start_matches(|c: char| c.is_ascii_hexdigit());
            let name = name.trim_start_matches('\t');
            block.push(name.split(':').next().unwrap_or("").to_string());
        }
    }
    blocks
}

#[test]
fn allregs_lists_every_register_written_so_far() {
    let Some(dir) = parsnip_reference::reference_dir("allregs_lists_every_register_written_so_far")
    else {
        return;
    };
    let written = summary_registers(&decode(&dir.join(DEQP), DecodeOptions::reference_ci()));
    let options = DecodeOptions {
        all_registers: true,
        ..DecodeOptions::reference_ci()
    };
    let all = summary_registers(&decode(&dir.join(DEQP), options));
    assert_eq!(all.len(), written.len());
    let mut so_far: Vec<String> = Vec::new();
    for (n, (all, written)) in all.iter().zip(&written).enumerate() {
        so_far.extend(written.iter().cloned());
        for name in &so_far {
            assert!(all.contains(name), "draw {n}: {name} missing");
        }
        assert!(all.len() >= written.len());
    }
}

#[test]
fn color_marks_opcode_and_register_names() {
    use parsnip_rd::{Compression, Writer};
    let ib: Vec<u8> = [0x40bb_0801u32, 0x000f_ffff, 0x7026_8000]
        .iter()
        .flat_map(|d| d.to_le_bytes())
        .collect();
    let mut w = Writer::new(Vec::new(), Compression::None);
    w.gpu_id(630).unwrap();
    w.buffer(0x1000, &ib).unwrap();
    w.cmdstream_addr(0x1000, 3).unwrap();
    let data = w.finish().unwrap();
    let options = DecodeOptions {
        color: true,
        ..DecodeOptions::default()
    };
    let text = decode_trace(&data[..], options, Vec::new()).unwrap().output;
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("\t\twrite \x1b[1;34mHLSQ_INVALIDATE_CMD\x1b[0m (bb08)\n"));
    assert!(text.contains("\t\topcode: \x1b[1;36mCP_WAIT_FOR_IDLE\x1b[0m (26) (1 dwords)\n"));
    let plain = decode_trace(&data[..], DecodeOptions::default(), Vec::new())
        .unwrap()
        .output;
    assert!(!plain.contains(&0x1b));
}
