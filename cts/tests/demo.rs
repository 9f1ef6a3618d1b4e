//! The README's demo program on Parsnip's simulated a660 through the
//! loader: it succeeds (the GPU's Collatz values and every pixel away
//! from the triangles' and the texels' edges as the CPU works them out:
//! the nearest triangle, textured), and its
//! `out/demo.png` equals lavapipe's (interior pixels exact, at most
//! `EDGE_PIXELS` edge pixels apart).

mod drivers;

use drivers::{lavapipe, parsnip, scratch};
use std::path::Path;
use std::process::Command;

const EDGE_PIXELS: usize = 16;

/// Runs the demo on `driver` in `dir`; returns its image (width, height,
/// RGBA8).
fn demo(driver: &Path, env: &[(&str, &str)], dir: &Path) -> (usize, usize, Vec<u8>) {
    let output = Command::new(env!("CARGO_BIN_EXE_parsnip-demo"))
        .current_dir(dir)
        .env("VK_DRIVER_FILES", driver)
        .envs(env.iter().copied())
        .output()
        .expect("run parsnip-demo");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}: parsnip-demo failed:\n{stdout}\n{}",
        driver.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("show the nearest triangle and its texel"),
        "{stdout}"
    );
    let png = std::fs::read(dir.join("out/demo.png")).expect("out/demo.png");
    parsnip_reference::image::decode_png(&png)
}

#[test]
fn the_demo_draws_on_the_simulated_a660_what_lavapipe_draws() {
    let (w, h, want) = demo(&lavapipe(), &[], &scratch("demo_lavapipe"));
    let dir = scratch("demo_a660");
    let trace = dir.join("demo.rd");
    let trace = trace.to_str().expect("a UTF-8 path");
    let env = [("PARSNIP_SIM", "a660"), ("PARSNIP_RD_DUMP", trace)];
    let (gw, gh, got) = demo(&parsnip(), &env, &dir);
    assert_eq!((gw, gh), (w, h));
    let (interior, edge) = parsnip_reference::image::compare(&want, &got, w, h);
    println!("{edge} edge and {} interior pixels differ", interior.len());
    assert!(
        interior.is_empty() && edge <= EDGE_PIXELS,
        "{} interior pixels differ (first at {:?}), {edge} edge pixels",
        interior.len(),
        interior.first()
    );
    assert!(dir.join("demo.rd").is_file(), "the .rd trace was written");
}
