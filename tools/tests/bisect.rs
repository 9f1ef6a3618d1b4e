//! parsnip-bisect on Turnip's four-draw writemask_logicop sysmem trace
//! (reference/turnip/README.md: render target 0x10002f000, 24576 bytes;
//! four pipelines, one per draw): a seeded wrong RB_MRT[0].CONTROL in the
//! third pipeline's state, alongside a harmless edit, is found at the third
//! draw, and the smallest set of register writes that fixes the image is
//! that one write.

use std::process::Command;

use parsnip_rd::Trace;
use parsnip_tools::decompile::decompile;

const REGION: &str = "0x10002f000:24576";

#[test]
fn a_seeded_wrong_register_write_is_found_at_its_draw() {
    for gpu in ["a660", "a740"] {
        let Some(trace) = parsnip_reference::reference_file(
            "a_seeded_wrong_register_write_is_found_at_its_draw",
            &format!("turnip/{gpu}/writemask_logicop_sysmem.rd.gz"),
        ) else {
            return;
        };
        let good = decompile(&Trace::open(&trace).unwrap());
        // RB_MRT[0].CONTROL of the four pipelines, in draw order: ROP_XOR
        // with mask 0xf, 0x5 and 0 around the third's plain write of mask
        // 0xa (a6xx.xml: BLEND bit 0, ROP_ENABLE bit 2, ROP_CODE bits 3-6,
        // COMPONENT_ENABLE bits 7-10).
        let controls: Vec<usize> = good
            .lines()
            .enumerate()
            .filter(|(_, l)| l.starts_with("    RB_MRT[0].CONTROL "))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(controls.len(), 4, "{gpu}");
        let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
        let third = controls[2];
        assert_eq!(lines[third], "    RB_MRT[0].CONTROL 0x00000530", "{gpu}");
        // Seeded: the third draw XORs with every component.
        lines[third] = "    RB_MRT[0].CONTROL 0x000007b4".into();
        // Harmless: blend factors of the first pipeline, which does not
        // blend (BLEND clear).
        let harmless = controls[0] + 1;
        assert_eq!(lines[harmless], "    RB_MRT[0].BLEND_CONTROL 0x00000000");
        lines[harmless] = "    RB_MRT[0].BLEND_CONTROL 0x00010001".into();

        let dir = std::env::temp_dir();
        let bad_path = dir.join(format!("parsnip-bisect-{gpu}-{}.txt", std::process::id()));
        std::fs::write(&bad_path, lines.join("\n") + "\n").unwrap();
        let run = Command::new(env!("CARGO_BIN_EXE_parsnip-bisect"))
            .arg(&bad_path)
            .arg("--good-trace")
            .arg(&trace)
            .arg("--region")
            .arg(REGION)
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&bad_path);
        let stdout = String::from_utf8_lossy(&run.stdout);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{gpu}: {stdout}{stderr}");
        assert!(
            stdout.contains(": 3 (line "),
            "{gpu}: the third draw first differs: {stdout}{stderr}"
        );
        let found: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("  line "))
            .collect();
        assert_eq!(
            found,
            [format!(
                "  line {}: RB_MRT[0].CONTROL 0x000007b4 -> 0x00000530",
                third + 1
            )],
            "{gpu}: {stdout}{stderr}"
        );
    }
}

#[test]
fn bad_arguments_print_the_usage() {
    let run = Command::new(env!("CARGO_BIN_EXE_parsnip-bisect"))
        .arg("t.rd")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("usage: parsnip-bisect"));
}
