//! parsnip-decompile's text and its assembly: every reference trace
//! decompiles to text that assembles back to the trace byte for byte, and
//! an edited register value in Turnip's compute trace replays
//! (`parsnip-replay --override`) to the result the edit implies.

#[path = "../rd/tests/reference_corpus/mod.rs"]
mod reference_corpus;

use std::process::Command;

use parsnip_rd::Trace;
use parsnip_tools::decompile::{assemble, decompile};
use reference_corpus::{decompressed, short_name, traces};

#[test]
fn every_reference_trace_assembles_back_byte_for_byte() {
    let Some(dir) = parsnip_reference::reference_dir("decompiled_traces_assemble_back") else {
        return;
    };
    let mut named = 0;
    for path in traces(&dir) {
        let original = decompressed(&path);
        let text = decompile(&Trace::open(&path).unwrap());
        let assembled = assemble(&text).unwrap_or_else(|e| panic!("{}: {e}", short_name(&path)));
        assert!(
            assembled == original,
            "{}: assembled differs from byte {:?} of {}",
            short_name(&path),
            assembled.iter().zip(&original).position(|(a, b)| a != b),
            original.len()
        );
        if text.lines().any(|l| l.starts_with("chip ")) {
            assert!(text.contains("\n  pkt4\n"), "{}", short_name(&path));
            named += 1;
        }
        let shaders = text.matches("\n  shader ").count();
        let ir3 = text.lines().filter(|l| l.starts_with("    | ")).count();
        let raw = text.lines().filter(|l| l.starts_with("    | raw ")).count();
        if short_name(&path).ends_with("/compute") {
            assert!(
                shaders >= 1 && raw < ir3,
                "{}: {shaders} shaders",
                short_name(&path)
            );
        }
        println!(
            "{}: {} bytes, {} lines of text, {shaders} shaders ({} of {ir3} ir3 lines raw), \
             identical",
            short_name(&path),
            original.len(),
            text.lines().count(),
            raw
        );
    }
    // The 74 Turnip traces are of the a660 and a740, which are modelled.
    assert!(named >= 74, "{named} traces decompiled with names");
}

/// The result buffer of Turnip's compute trace (reference/turnip/README.md):
/// 256 words filled with 0xdeadbeef, then word i = 2 * i by 4 groups of 64.
const RESULT: u64 = 0x1_0002_6000;
const RESULT_WORDS: usize = 256;

/// The result words after replaying `text`; `name` makes its files
/// distinct from those of other tests running at the same time.
fn replay_text(text: &str, name: &str) -> Vec<u32> {
    let base =
        std::env::temp_dir().join(format!("parsnip-decompile-{name}-{}", std::process::id()));
    let (text_path, out) = (base.with_extension("txt"), base.with_extension("bin"));
    std::fs::write(&text_path, text).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_parsnip-replay"))
        .arg("--override")
        .arg(&text_path)
        .arg("--dump")
        .arg(format!(
            "{RESULT:#x}:{}:{}",
            4 * RESULT_WORDS,
            out.display()
        ))
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&text_path);
    assert!(
        run.status.success(),
        "{name}: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn an_edited_register_replays_to_the_changed_result() {
    for gpu in ["a660", "a740"] {
        let Some(trace) = parsnip_reference::reference_file(
            "an_edited_register_replays_to_the_changed_result",
            &format!("turnip/{gpu}/compute.rd.gz"),
        ) else {
            return;
        };
        let text = decompile(&Trace::open(&trace).unwrap());
        let unedited = replay_text(&text, &format!("{gpu}-unedited"));
        let doubled: Vec<u32> = (0..RESULT_WORDS as u32).map(|i| 2 * i).collect();
        assert_eq!(
            unedited, doubled,
            "{gpu}: the unedited text replays as the trace"
        );

        // HLSQ_CS_NDRANGE_0: KERNELDIM 3, LOCALSIZEX 63 (64 wide, bits
        // 2-11, a6xx.xml). Edited to LOCALSIZEX 31, each of the 4 groups
        // runs 32 invocations, while the shader still takes its group's
        // base as 64 * group (its local size is a constant): only the first
        // half of each group's 64 words is written.
        // The a740 also has the last group's size, HLSQ_CS_LAST_LOCAL_SIZE
        // (LOCALSIZEX at bits 2-11, a6xx.xml), edited the same way.
        let mut edits = vec![(
            "    HLSQ_CS_NDRANGE_0 0x000000ff",
            "    HLSQ_CS_NDRANGE_0 0x0000007f",
        )];
        if gpu == "a740" {
            edits.push((
                "    HLSQ_CS_LAST_LOCAL_SIZE 0x000000fc",
                "    HLSQ_CS_LAST_LOCAL_SIZE 0x0000007c",
            ));
        }
        let mut edited_text = text.clone();
        for (from, to) in edits {
            assert_eq!(text.matches(from).count(), 1, "{gpu}: {from}");
            edited_text = edited_text.replace(from, to);
        }
        let edited = replay_text(&edited_text, &format!("{gpu}-register"));
        let half: Vec<u32> = (0..RESULT_WORDS as u32)
            .map(|i| if i % 64 < 32 { 2 * i } else { 0xdead_beef })
            .collect();
        assert_eq!(edited, half, "{gpu}");
    }
}

#[test]
fn an_edited_shader_instruction_replays_to_the_changed_result() {
    for gpu in ["a660", "a740"] {
        let Some(trace) = parsnip_reference::reference_file(
            "an_edited_shader_instruction_replays_to_the_changed_result",
            &format!("turnip/{gpu}/compute.rd.gz"),
        ) else {
            return;
        };
        let text = decompile(&Trace::open(&trace).unwrap());
        // double.comp's value, index << 1, stored with stib: shifted by 2
        // instead, every word is 4 * i.
        let line = "    | (nop3) shl.b r0.w, r0.x, 1";
        assert_eq!(text.matches(line).count(), 1, "{gpu}");
        let edited = replay_text(
            &text.replace(line, "    | (nop3) shl.b r0.w, r0.x, 2"),
            &format!("{gpu}-shader"),
        );
        let quadrupled: Vec<u32> = (0..RESULT_WORDS as u32).map(|i| 4 * i).collect();
        assert_eq!(edited, quadrupled, "{gpu}");
    }
}

#[test]
fn malformed_text_is_refused_with_its_line() {
    let err = assemble("parsnip-decompile 1\nrecord 0x9 padding 0\n  pkt4\n    NO_SUCH_REG 1\n")
        .unwrap_err();
    assert_eq!(err.line, 4);
    assert!(assemble("not a decompiled trace\n").is_err());
    // Registers of one pkt4 are consecutive.
    let err = assemble(
        "parsnip-decompile 1\nchip a6xx\nrecord 0x9 padding 0\n  pkt4\n    0x100 1\n    0x102 2\n",
    )
    .unwrap_err();
    assert_eq!(err.line, 6);
}
