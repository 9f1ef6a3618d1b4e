//! The draw cases on Parsnip's simulated a660 and a740, through the loader,
//! against lavapipe: each passes its own probes on every driver, and each
//! image equals lavapipe's in every interior pixel with at most
//! `EDGE_PIXELS` edge pixels apart; every exact output (occlusion query
//! counts) equals lavapipe's byte for byte. Turnip's triangle scene also equals the
//! reference image lavapipe rendered of triangle.c
//! (`turnip/expected/triangle_lvp.png`).

mod drivers;

use drivers::{check_image, lavapipe, parsnip, run_cts_filtered, scratch, Run};
use parsnip_cts::cases;
use parsnip_cts::results::{read_outputs, Status};

/// Most differing pixels allowed, all on edges (as the compiler's and
/// the replay tool's draw tests allow).
const EDGE_PIXELS: usize = 8;
const SIZE: usize = 64;

fn draw_cases() -> Vec<&'static str> {
    cases::all()
        .into_iter()
        .map(|c| c.name)
        .filter(|n| n.starts_with("draws."))
        .collect()
}

fn image(run: &Run, case: &str) -> Vec<u8> {
    let outputs = read_outputs(&run.out, case).unwrap_or_else(|e| panic!("{e}"));
    let o = outputs
        .iter()
        .find(|o| o.name == "rgba8")
        .unwrap_or_else(|| panic!("{case} keeps no rgba8 image"));
    assert_eq!(o.bytes.len(), SIZE * SIZE * 4, "{case}");
    o.bytes.clone()
}

fn check_against(reference: &[u8], got: &[u8], what: &str) {
    check_image(reference, got, SIZE, EDGE_PIXELS, what);
}

/// Every exact output of `case` in `run` is lavapipe's, and it has each
/// of lavapipe's.
fn exact_outputs_match(lvp: &Run, run: &Run, case: &str, gpu: &str) {
    let outputs = |r: &Run| read_outputs(&r.out, case).unwrap_or_else(|e| panic!("{e}"));
    let got = outputs(run);
    for want in outputs(lvp).iter().filter(|o| o.exact) {
        let o = got.iter().find(|o| o.name == want.name);
        assert_eq!(
            o.map(|o| &o.bytes),
            Some(&want.bytes),
            "{gpu} {case}: output {} differs from lavapipe's",
            want.name
        );
    }
}

#[test]
fn draws_match_lavapipe_on_a660_and_a740() {
    let names = draw_cases();
    assert!(names.len() >= 3, "{names:?}");
    let lvp = run_cts_filtered(&lavapipe(), &[], &scratch("draws_lavapipe"), &["draws."]);
    let reference = parsnip_reference::reference_dir("the triangle's reference image")
        .map(|dir| dir.join("turnip/expected/triangle_lvp.png"));
    for gpu in ["a660", "a740"] {
        let run = run_cts_filtered(
            &parsnip(),
            &[("PARSNIP_SIM", gpu)],
            &scratch(&format!("draws_{gpu}")),
            &["draws."],
        );
        for case in &names {
            for (driver, r) in [("lavapipe", &lvp), (gpu, &run)] {
                assert_eq!(
                    r.status(case),
                    Some(Status::Pass),
                    "{driver}: {}",
                    r.line(case)
                );
            }
            check_against(
                &image(&lvp, case),
                &image(&run, case),
                &format!("{gpu} {case}"),
            );
            exact_outputs_match(&lvp, &run, case, gpu);
        }
        if let Some(png) = &reference {
            let bytes = std::fs::read(png).expect("the reference image");
            let (w, h, want) = parsnip_reference::image::decode_png(&bytes);
            assert_eq!((w, h), (SIZE, SIZE));
            let got = image(&run, "draws.triangle");
            check_against(
                &want,
                &got,
                &format!("{gpu} draws.triangle vs triangle_lvp.png"),
            );
        }
    }
}
