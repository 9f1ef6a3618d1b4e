//! Turnip's compute streams (reference/turnip/a660 and a740) replayed with
//! parsnip-replay on the whole model: the result buffer holds what lavapipe
//! computed for the same program (expected/compute_lvp.txt), and a storage
//! descriptor pointed at unmapped memory makes the shader fault.

use std::process::Command;

use parsnip_registers::descriptors;
use parsnip_sim::report::ErrorKind;
use parsnip_sim::SimOptions;
use parsnip_tools::replay::{Replay, ReplayError};

/// The result buffer (reference/turnip/README.md): iova and size.
const RESULT: u64 = 0x1_0002_6000;
const RESULT_SIZE: usize = 1024;

/// `index value` lines.
fn expected_values(text: &str) -> Vec<(usize, u32)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace();
            let i = f.next().unwrap().parse().unwrap();
            let v = f.next().unwrap().parse().unwrap();
            (i, v)
        })
        .collect()
}

#[test]
fn turnips_compute_traces_leave_lavapipes_results() {
    for gpu in ["a660", "a740"] {
        let Some(dir) = parsnip_reference::reference_dir("turnip_compute_results") else {
            return;
        };
        let expected = expected_values(
            &std::fs::read_to_string(dir.join("turnip/expected/compute_lvp.txt")).unwrap(),
        );
        assert_eq!(expected.len(), RESULT_SIZE / 4);
        let out = std::env::temp_dir().join(format!(
            "parsnip-replay-results-{gpu}-{}.bin",
            std::process::id()
        ));
        let run = Command::new(env!("CARGO_BIN_EXE_parsnip-replay"))
            .arg(dir.join(format!("turnip/{gpu}/compute.rd.gz")))
            .arg("--dump")
            .arg(format!("{RESULT:#x}:{RESULT_SIZE}:{}", out.display()))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{gpu}: {stdout}{stderr}");
        print!("{stdout}");
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        let mut wrong = 0;
        for &(i, v) in &expected {
            let got = u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
            if got != v {
                wrong += 1;
                if wrong <= 4 {
                    eprintln!("{gpu}: result[{i}] = {got:#x}, lavapipe {v:#x}");
                }
            }
        }
        println!(
            "{gpu}: {} of {} values match lavapipe",
            expected.len() - wrong,
            expected.len()
        );
        assert_eq!(wrong, 0, "{gpu}");
    }
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
