//! How fast the model draws: a full-screen textured quad at 1024x1024
//! (bilinear lookups of a 256x256 texture, through `sam` and through the
//! fragment stage's prefetch), printing Mpixels/s, and 10,000 small
//! triangles with an interpolated colour, printing triangles/s. Run with
//! `cargo bench -p parsnip-sim --bench draw_throughput`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::draw_rig::DrawRig;
use common::graphics_state::{
    draw_auto, program, regid, rgba8_buffer, rgba8_target, Attribute, Framebuffer, Output,
    Pipeline, PrefetchCmd, Setup, VertexBuffer,
};
use common::textured_quad::{fs, pitch, sampler, texture, Sampling, TexturedQuad};
use parsnip_registers::enums::{A6xxFormat, A6xxTexFilter, PcDiPrimtype};
use parsnip_sim::SimOptions;

const GPU: &str = "a740";

fn options() -> SimOptions {
    SimOptions {
        strict: true,
        strict_caches: false,
        wait_budget: Duration::from_millis(50),
        shader_budget: u64::MAX,
        shader_timeout: Duration::from_secs(3600),
    }
}

/// Seconds this thread has run on a CPU (Linux's schedstat), which other
/// load on the machine does not inflate as it does wall time.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Runs `draw` once to warm up, then `runs` times; the seconds per run on
/// the CPU (wall time where the CPU time is not known) and on the wall.
fn time(runs: u32, mut draw: impl FnMut()) -> (f64, f64) {
    draw();
    let (start, cpu) = (Instant::now(), cpu_seconds());
    for _ in 0..runs {
        draw();
    }
    let wall = start.elapsed().as_secs_f64() / f64::from(runs);
    let cpu = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => (b - a) / f64::from(runs),
        _ => wall,
    };
    (cpu, wall)
}

fn textured_quad(label: &str, shader: &str, prefetch: Option<PrefetchCmd>) {
    const SIZE: u32 = 1024;
    const TEX: u32 = 256;
    let texels: Vec<u8> = (0..TEX * TEX)
        .flat_map(|i| [(i % TEX) as u8, (i / TEX) as u8, (i * 7) as u8, 255])
        .collect();
    let descriptor = |chip, base| texture(chip, base, (TEX, TEX), TEX * 4, 1);
    let mut quad = TexturedQuad::new(
        DrawRig::with_options(GPU, options()),
        (SIZE, SIZE),
        &Sampling {
            texels: &texels,
            descriptor: &descriptor,
            sampler: sampler(A6xxTexFilter::A6XX_TEX_LINEAR, false, 0.0),
            shader,
            prefetch,
        },
    );
    let (secs, wall) = time(3, || {
        quad.draw();
    });
    let pixels = f64::from(SIZE * SIZE);
    println!(
        "textured quad {SIZE}x{SIZE} ({label}): {:.1} ms of CPU a frame ({:.1} ms wall), \
         {:.2} Mpixels/s",
        secs * 1e3,
        wall * 1e3,
        pixels / secs / 1e6
    );
}

/// Each vertex's (x, y) in NDC and its colour.
const TRIANGLE_VS: &str = "
    mov.f32f32 r2.x, r0.x
    mov.f32f32 r2.y, r0.y
    mov.u32u32 r2.z, 0
    mov.u32u32 r2.w, 0x3f800000
    end
";

const TRIANGLE_FS: &str = "
    (rpt3)bary.f r1.x, (r)4, r0.x
    end
";

fn small_triangles() {
    const SIZE: u32 = 1024;
    const COUNT: u32 = 10_000;
    let mut rig = DrawRig::with_options(GPU, options());
    // Right triangles with 4-pixel legs on a 100x100 grid of 10-pixel
    // cells: about 8 pixels each.
    let mut verts = Vec::new();
    let ndc = |p: f32| p / (SIZE as f32 / 2.0) - 1.0;
    for i in 0..COUNT {
        let (x, y) = ((i % 100) as f32 * 10.0 + 1.0, (i / 100) as f32 * 10.0 + 1.0);
        for (dx, dy, c) in [(0.0, 0.0, 0.0), (4.0, 0.0, 0.5), (0.0, 4.0, 1.0)] {
            verts.extend_from_slice(&[ndc(x + dx), ndc(y + dy), c, 1.0 - c, 0.25, 1.0]);
        }
    }
    let vb = rig.floats(&verts);
    let vs = rig.program(TRIANGLE_VS);
    let fs = rig.program(TRIANGLE_FS);
    let target = rig.buffer(&vec![0u8; (pitch(SIZE) * SIZE) as usize]);
    let mut p = Pipeline::new(vs, Some(fs), Some(rgba8_target(regid(1, 0))));
    for (offset, reg, format, mask) in [
        (0, regid(0, 0), A6xxFormat::FMT6_32_32_FLOAT, 0x3),
        (8, regid(1, 0), A6xxFormat::FMT6_32_32_32_32_FLOAT, 0xf),
    ] {
        p.attributes.push(Attribute {
            binding: 0,
            offset,
            format,
            float: true,
            instanced: false,
            step_rate: 1,
            regid: reg,
            mask,
        });
    }
    p.outputs.push(Output {
        regid: regid(2, 0),
        mask: 0xf,
        location: 0,
    });
    p.outputs.push(Output {
        regid: regid(1, 0),
        mask: 0xf,
        location: 4,
    });
    p.stride = 8;
    p.position = 0;
    p.enabled[0] = 0xf0;
    p.vs_full_regs = 3;
    p.fs_full_regs = 2;
    p.ij_persp_pixel = regid(0, 0);
    let mut s = rig.stream();
    let setup = Setup {
        pipeline: p,
        framebuffer: Framebuffer::color(SIZE, SIZE, rgba8_buffer(target, pitch(SIZE))),
        vertex_buffers: vec![VertexBuffer {
            base: vb,
            size: verts.len() as u32 * 4,
            stride: 24,
        }],
    };
    program(&mut s, &setup);
    draw_auto(&mut s, PcDiPrimtype::DI_PT_TRILIST, 3 * COUNT, 1);
    let (secs, wall) = time(3, || {
        rig.run(&s).unwrap_or_else(|e| panic!("{e}"));
    });
    println!(
        "{COUNT} small triangles: {:.1} ms of CPU a draw ({:.1} ms wall), {:.0} triangles/s",
        secs * 1e3,
        wall * 1e3,
        f64::from(COUNT) / secs
    );
}

fn main() {
    textured_quad("sam", &fs("sam (f32)(xyzw)r2.x, r1.x, s#0, t#0"), None);
    textured_quad(
        "prefetch",
        "end\n",
        Some(PrefetchCmd {
            src: 4,
            samp: 0,
            tex: 0,
            dst: regid(2, 0),
            wrmask: 0xf,
            half: false,
        }),
    );
    small_triangles();
}
