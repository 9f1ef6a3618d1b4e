//! `parsnip-replay --draw-images`: Turnip's two-bin forcebin triangle
//! (reference/turnip/{a660,a740}/triangle_gmem-forcebin.rd.gz, 64x64 in
//! two bins of 32 rows: turnip/README.md) replayed with an image of the
//! colour target after each draw and blit. After the first bin's draw the
//! image holds the top half of the finished triangle, read from GMEM,
//! while the bottom half is not stored yet; after the last bin's store it
//! is lavapipe's image.

use std::path::Path;
use std::process::Command;

use parsnip_sim::SimOptions;
use parsnip_tools::bisect::image::Image;
use parsnip_tools::replay::{DrawImages, Replay};

const EDGE_PIXELS: usize = 8;

fn names(files: &[std::path::PathBuf]) -> Vec<String> {
    files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn forcebin_triangle_images_show_each_bin_then_lavapipes_image() {
    let Some(dir) = parsnip_reference::reference_dir("replay_draw_images") else {
        return;
    };
    let png = std::fs::read(dir.join("turnip/expected/triangle_lvp.png")).unwrap();
    let (w, h, expected) = parsnip_reference::image::decode_png(&png);
    assert_eq!((w, h), (64, 64));
    for gpu in ["a660", "a740"] {
        let out =
            std::env::temp_dir().join(format!("parsnip-draw-images-{gpu}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let trace = dir.join(format!("turnip/{gpu}/triangle_gmem-forcebin.rd.gz"));
        let mut replay = Replay::new(
            parsnip_rd::Trace::open(&trace).unwrap(),
            SimOptions::default(),
        )
        .unwrap();
        let images = DrawImages::new(&out).unwrap();
        replay.load_submit(0).unwrap();
        images.observe_submit(replay.gpu(), 0);
        replay.run_submit(0).unwrap();
        let files = images.files().unwrap();
        let names = names(&files);
        println!("{gpu}: {names:?}");
        // One draw per bin (the binning pass's draw renders nothing and is
        // not one), in step order.
        let draws: Vec<_> = names.iter().filter(|n| n.contains("-draw")).collect();
        assert_eq!(
            draws,
            ["s0-0001-draw0-rt0.png", "s0-0004-draw1-rt0.png"],
            "{gpu}"
        );
        let read = |name: &str| Image::read_png(&out.join(name)).unwrap();
        // The last BLIT event stores the second bin: the finished frame.
        let last_blit = names.iter().rfind(|n| n.contains("-blit")).unwrap();
        let last = read(last_blit);
        assert_eq!((last.width, last.height), (64, 64), "{gpu}");
        let (interior, edge) = parsnip_reference::image::compare(&expected, &last.rgba, w, h);
        assert!(
            interior.is_empty() && edge <= EDGE_PIXELS,
            "{gpu}: {} interior and {edge} edge pixels differ from lavapipe's",
            interior.len()
        );
        // After the first bin's draw: its rows (0..32) are the finished
        // frame's, from GMEM; the second bin's are not drawn yet.
        let first = read(draws[0]);
        let half = 32 * 64 * 4;
        assert!(
            first.rgba[..half] == last.rgba[..half],
            "{gpu}: the first bin"
        );
        assert!(
            first.rgba[half..] != last.rgba[half..],
            "{gpu}: the second bin"
        );
        std::fs::remove_dir_all(&out).unwrap();
    }
}

#[test]
fn the_command_line_writes_the_images() {
    let Some(dir) = parsnip_reference::reference_dir("replay_draw_images_cli") else {
        return;
    };
    let out = std::env::temp_dir().join(format!("parsnip-draw-images-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let trace = dir.join("turnip/a660/triangle_sysmem.rd.gz");
    // With strict caches the draw's pixels are still in the CCU when its
    // image is taken: the image shows what the GPU wrote, caches included.
    let run = Command::new(env!("CARGO_BIN_EXE_parsnip-replay"))
        .env("PARSNIP_SIM_STRICT_CACHES", "1")
        .arg(&trace)
        .arg("--draw-images")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // The sysmem stream clears with CP_BLIT before any colour target is
    // bound (no image), draws, and copies the target out with CP_BLIT.
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["s0-0001-draw0-rt0.png", "s0-0002-2d1-rt0.png"]);
    assert!(
        stdout.contains(&format!("wrote 2 images to {}", out.display())),
        "{stdout}"
    );
    let png = std::fs::read(dir.join("turnip/expected/triangle_lvp.png")).unwrap();
    let (w, h, expected) = parsnip_reference::image::decode_png(&png);
    let drawn = Image::read_png(&Path::new(&out).join("s0-0001-draw0-rt0.png")).unwrap();
    let (interior, edge) = parsnip_reference::image::compare(&expected, &drawn.rgba, w, h);
    assert!(
        interior.is_empty() && edge <= EDGE_PIXELS,
        "the draw's image: {} interior and {edge} edge pixels differ from lavapipe's",
        interior.len()
    );
    std::fs::remove_dir_all(&out).unwrap();
}
