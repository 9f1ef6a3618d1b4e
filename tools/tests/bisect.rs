//! parsnip-bisect on Turnip's four-draw writemask_logicop sysmem trace
//! (reference/turnip/README.md: render target 0x10002f000, 24576 bytes;
//! four pipelines, one per draw): a seeded wrong RB_MRT[0].CONTROL in the
//! third pipeline's state, alongside a harmless edit, is found at the third
//! draw, and the smallest set of register writes that fixes the image is
//! that one write.

use std::process::Command;

use parsnip_rd::Trace;
use parsnip_tools::bisect::image::Image;
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

/// The text of the trace with the third pipeline's RB_MRT[0].CONTROL
/// XORing every component (the seeded fault above), and that line's index.
fn seeded(good: &str) -> (String, usize) {
    let third = good
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("    RB_MRT[0].CONTROL "))
        .map(|(i, _)| i)
        .nth(2)
        .unwrap();
    let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
    assert_eq!(lines[third], "    RB_MRT[0].CONTROL 0x00000530");
    lines[third] = "    RB_MRT[0].CONTROL 0x000007b4".into();
    (lines.join("\n") + "\n", third)
}

#[test]
fn a_seeded_wrong_register_write_is_found_against_lavapipes_image() {
    for gpu in ["a660", "a740"] {
        let Some(dir) = parsnip_reference::reference_dir(
            "a_seeded_wrong_register_write_is_found_against_lavapipes_image",
        ) else {
            return;
        };
        let trace = dir.join(format!("turnip/{gpu}/writemask_logicop_sysmem.rd.gz"));
        let reference = dir.join("turnip/expected/writemask_logicop_lvp.png");
        let (bad, _) = seeded(&decompile(&Trace::open(&trace).unwrap()));
        let out =
            std::env::temp_dir().join(format!("parsnip-bisect-png-{gpu}-{}", std::process::id()));
        std::fs::create_dir_all(&out).unwrap();
        let bad_path = out.join("bad.txt");
        std::fs::write(&bad_path, bad).unwrap();
        let run = Command::new(env!("CARGO_BIN_EXE_parsnip-bisect"))
            .arg(&bad_path)
            .arg("--good-image")
            .arg(&reference)
            .arg("--region")
            .arg("0x10002f000")
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{gpu}: {stdout}{stderr}");
        assert!(
            stdout.contains("first draw/dispatch writing wrong pixels: 3 (line "),
            "{gpu}: {stdout}{stderr}"
        );
        assert!(stderr.contains("after draw/dispatch 2 of 4: no wrong pixel written"));
        // The third quad's pixels: its colour (0,0xff,0,0x40) written to G|A
        // in lavapipe's image, XORed into all four here (README); the image written after draw 3 holds them,
        // the one before it does not, and both are the target's size.
        let reference = Image::read_png(&reference).unwrap();
        let before = Image::read_png(&out.join("bisect-draw-3-before.png")).unwrap();
        let after = Image::read_png(&out.join("bisect-draw-3-after.png")).unwrap();
        assert_eq!((after.width, after.height), (96, 64));
        let changed = before.differing(&after, 0);
        assert!(!changed.is_empty(), "{gpu}: the third draw wrote pixels");
        for &i in &changed {
            let (got, want) = (
                &after.rgba[i * 4..i * 4 + 4],
                &reference.rgba[i * 4..i * 4 + 4],
            );
            let was = &before.rgba[i * 4..i * 4 + 4];
            let xored: Vec<u8> = was
                .iter()
                .zip([0, 0xff, 0, 0x40])
                .map(|(w, c)| w ^ c)
                .collect();
            assert_eq!(got, &xored[..], "{gpu}: pixel {i} XORed with the colour");
            assert_ne!(got, want, "{gpu}: pixel {i} wrong");
        }
        let _ = std::fs::remove_dir_all(&out);
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
