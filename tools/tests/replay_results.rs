//! Turnip's compute streams (reference/turnip/a660 and a740) replayed with
//! parsnip-replay on the whole model: the result buffer holds what lavapipe
//! computed for the same program (expected/<workload>_lvp.txt, every word
//! of the buffer, those that keep their poison included), and a storage
//! descriptor pointed at unmapped memory makes the shader fault.

use std::process::Command;

use parsnip_registers::descriptors;
use parsnip_sim::report::ErrorKind;
use parsnip_sim::SimOptions;
use parsnip_tools::replay::{Replay, ReplayError};

/// Turnip's compute workloads (reference/turnip/README.md, both sets): the
/// trace's name, and the result buffer's iova and size in bytes, the same
/// on a660 and a740. Each has `expected/<name>_lvp.txt`.
const WORKLOADS: [(&str, u64, usize); 10] = [
    ("compute", 0x1_0002_6000, 1024),
    ("strided_vec4", 0x1_0002_a000, 4096),
    ("storage_image", 0x1_0002_8000, 2048),
    ("texel_buffers", 0x1_0002_8000, 2048),
    ("subgroup", 0x1_0002_7000, 2080),
    ("int64", 0x1_0002_7000, 3072),
    ("shared_atomics", 0x1_0002_7000, 2208),
    ("dispatch_indirect", 0x1_0002_7000, 2048),
    ("bitfield", 0x1_0002_7000, 4096),
    ("loop_push", 0x1_0002_7000, 2048),
];

/// `index value` lines; values in decimal or with `0x`.
fn expected_values(text: &str) -> Vec<(usize, u32)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace();
            let i = f.next().unwrap().parse().unwrap();
            let v = f.next().unwrap();
            let v = match v.strip_prefix("0x") {
                Some(hex) => u32::from_str_radix(hex, 16).unwrap(),
                None => v.parse().unwrap(),
            };
            (i, v)
        })
        .collect()
}

/// Replays `turnip/<gpu>/<name>.rd.gz` and returns how many words of the
/// result buffer differ from lavapipe's (every word is listed, those that
/// must keep their poison included), or why the replay failed.
fn wrong_words(
    dir: &std::path::Path,
    gpu: &str,
    (name, iova, size): (&str, u64, usize),
) -> Result<usize, String> {
    let expected = expected_values(
        &std::fs::read_to_string(dir.join(format!("turnip/expected/{name}_lvp.txt"))).unwrap(),
    );
    assert_eq!(
        expected.len(),
        size / 4,
        "{name}: the expected file lists every word"
    );
    let out = std::env::temp_dir().join(format!(
        "parsnip-replay-results-{gpu}-{name}-{}.bin",
        std::process::id()
    ));
    // Strict caches: the results reach memory only through the flushes
    // Turnip emits, or the end of the submit.
    let run = Command::new(env!("CARGO_BIN_EXE_parsnip-replay"))
        .env("PARSNIP_SIM_STRICT_CACHES", "1")
        .arg(dir.join(format!("turnip/{gpu}/{name}.rd.gz")))
        .arg("--dump")
        .arg(format!("{iova:#x}:{size}:{}", out.display()))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    if !run.status.success() {
        return Err(format!("{stdout}{stderr}"));
    }
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    let mut wrong = 0;
    for &(i, v) in &expected {
        let got = u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
        if got != v {
            wrong += 1;
            if wrong <= 4 {
                eprintln!("{gpu} {name}: result[{i}] = {got:#x}, lavapipe {v:#x}");
            }
        }
    }
    println!(
        "{gpu} {name}: {} of {} words match lavapipe",
        expected.len() - wrong,
        expected.len()
    );
    Ok(wrong)
}

#[test]
fn turnips_compute_traces_leave_lavapipes_results() {
    let Some(dir) = parsnip_reference::reference_dir("turnip_compute_results") else {
        return;
    };
    let mut failed = Vec::new();
    for gpu in ["a660", "a740"] {
        for w in WORKLOADS {
            match wrong_words(&dir, gpu, w) {
                Ok(0) => {}
                Ok(n) => failed.push(format!("{gpu} {}: {n} wrong words", w.0)),
                Err(e) => failed.push(format!("{gpu} {}: {e}", w.0)),
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn a_storage_descriptor_at_unmapped_memory_makes_the_shader_fault() {
    for gpu in ["a660", "a740"] {
        let Some(dir) = parsnip_reference::reference_dir("turnip_compute_shader_fault") else {
            return;
        };
        let trace =
            parsnip_rd::Trace::open(dir.join(format!("turnip/{gpu}/compute.rd.gz"))).unwrap();
        let mut replay = Replay::new(trace, SimOptions::default()).unwrap();
        replay.load_submit(0).unwrap();
        // The storage buffer's descriptor is the first of bindless set 0 at
        // 0x100027000 (compute.log): point its base at 0x5_0000_0000.
        let mem = replay.gpu().memory();
        let at = 0x1_0002_7000;
        let raw: [u32; 16] = mem.read_dwords(at, 16).unwrap().try_into().unwrap();
        let patched = if gpu == "a660" {
            let mut d = descriptors::a6xx::TextureDescriptor::from_raw(&raw);
            (d.base_lo, d.base_hi) = (0, 5);
            d.to_raw()
        } else {
            let mut d = descriptors::a7xx::TextureDescriptor::from_raw(&raw);
            (d.base_lo, d.base_hi) = (0, 5);
            d.to_raw()
        };
        let bytes: Vec<u8> = patched.iter().flat_map(|d| d.to_le_bytes()).collect();
        mem.write(at, &bytes).unwrap();
        let err = replay.run_submit(0).unwrap_err();
        let ReplayError::Gpu { error, .. } = &err else {
            panic!("{gpu}: {err}");
        };
        let ErrorKind::Fault { fault, shader } = &error.kind else {
            panic!("{gpu}: not a fault: {err}");
        };
        assert!(fault.write, "{err}");
        assert_eq!(fault.iova >> 32, 5, "{err}");
        let at = shader.as_ref().expect("the shader faulted, not the CP");
        assert!(at.instruction.contains("stib"), "{err}");
        assert_eq!(error.site.packet().unwrap().packet, "CP_EXEC_CS");
        println!("{gpu}: {err}");
    }
}
