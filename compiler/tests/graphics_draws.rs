//! Turnip's reference apps' vertex and fragment shaders, compiled by Parsnip, drawn on the
//! model through a hand-written stream (`common::draw`), give lavapipe's images
//! (`turnip/expected/*_lvp.png`): interior pixels exactly, at most a few edge pixels
//! apart. The scenes are those of newref.c's workloads: its vertex data, its vertex input
//! state, its draw and the colour its render pass clears to.

mod common;

use common::dispatch::SimGpu;
use common::draw::{render, render_to, Attachments, Draw, VertexAttribute};
use common::textures::{mip_lod_bindings, Bound, Slot};
use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::{compile, CompileOptions};
use parsnip_registers::enums::{A6xxFormat, PcDiPrimtype};
use std::path::PathBuf;

const GPUS: [&str; 2] = ["a660", "a740"];
/// newref.c's target: W x H RGBA8.
const W: u32 = 96;
const H: u32 = 64;
/// Most differing pixels allowed, all on edges (as tools/tests/replay_draws.rs allows).
const EDGE_PIXELS: usize = 8;

fn apps() -> Option<PathBuf> {
    Some(parsnip_reference::reference_dir("graphics draws")?.join("turnip"))
}

fn shader(apps: &std::path::Path, file: &str, gpu: &str) -> CompiledShader {
    let dir = if file.starts_with("tri.") {
        "apps"
    } else {
        "apps/newref-shaders"
    };
    let path = apps.join(dir).join(file);
    let words = common::try_spirv_path(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let options = CompileOptions {
        gpu: gpu.into(),
        layout: DescriptorLayout::default(),
        ..CompileOptions::default()
    };
    compile(&words, &options).unwrap_or_else(|e| panic!("{file} for {gpu}: {e}"))
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// Renders with `draw` on both GPUs and compares with `expected/<name>_lvp.png`.
fn check(apps: &std::path::Path, name: &str, draw: impl Fn(&str) -> Vec<u8>) {
    let png = std::fs::read(apps.join(format!("expected/{name}_lvp.png"))).unwrap();
    let (w, h, expected) = parsnip_reference::image::decode_png(&png);
    for gpu in GPUS {
        let got = draw(gpu);
        let (interior, edge) = parsnip_reference::image::compare(&expected, &got, w, h);
        println!(
            "{gpu} {name}: {edge} edge and {} interior pixels differ from lavapipe's",
            interior.len()
        );
        assert!(
            interior.is_empty() && edge <= EDGE_PIXELS,
            "{gpu} {name}: {} interior pixels differ (first at {:?}), {edge} edge pixels",
            interior.len(),
            interior.first()
        );
    }
}

/// fullscreen.vert's one triangle over the W x H target, cleared to `clear`.
fn full_screen<'a>(vs: &'a CompiledShader, fs: &'a CompiledShader, clear: [u8; 4]) -> Draw<'a> {
    Draw {
        vs,
        fs,
        attributes: Vec::new(),
        primitive: PcDiPrimtype::DI_PT_TRILIST,
        vertices: 3,
        instances: 1,
        first_instance: 0,
        size: (W, H),
        clear,
    }
}

/// newref.c's `V()`: pixel position to NDC, colour bytes to floats, point size 1.
fn vtx(px: f32, py: f32, rgba: [u8; 4], size: f32) -> [f32; 8] {
    let c = |k: usize| f32::from(rgba[k]) / 255.0;
    [
        px / W as f32 * 2.0 - 1.0,
        py / H as f32 * 2.0 - 1.0,
        0.0,
        c(0),
        c(1),
        c(2),
        c(3),
        size,
    ]
}

/// newref.c's `vtx_attrs`: position (R32G32B32_SFLOAT at 0), colour (R32G32B32A32 at 12),
/// point size (R32 at 28), stride 32.
fn vtx_attributes(data: &[u8], count: usize) -> Vec<VertexAttribute<'_>> {
    let formats = [
        (0, A6xxFormat::FMT6_32_32_32_FLOAT),
        (12, A6xxFormat::FMT6_32_32_32_32_FLOAT),
        (28, A6xxFormat::FMT6_32_FLOAT),
    ];
    formats[..count]
        .iter()
        .enumerate()
        .map(|(location, &(offset, format))| VertexAttribute {
            location: location as u32,
            data,
            offset,
            stride: 32,
            format,
            float: true,
            per_instance: false,
        })
        .collect()
}

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const YELLOW: [u8; 4] = [255, 255, 0, 255];
const MAGENTA: [u8; 4] = [255, 0, 255, 255];
const CYAN: [u8; 4] = [0, 255, 255, 255];

/// w_points: twelve points of sizes 1..12 from points.vert's gl_PointSize, flat colours.
#[test]
fn points_render_as_lavapipe_does() {
    let Some(apps) = apps() else { return };
    let cols = [RED, GREEN, BLUE, YELLOW, MAGENTA, CYAN];
    let mut v = Vec::new();
    for row in 0..2 {
        for i in 0..6 {
            let size = (i + 1 + 6 * row) as f32;
            let (mut cx, mut cy) = if row == 0 {
                (8.0 + i as f32 * 14.0, 16.0)
            } else {
                (8.0 + i as f32 * 15.0, 44.0)
            };
            if size as u32 & 1 == 1 {
                cx += 0.5;
                cy += 0.5;
            }
            let col = if row == 0 { cols[i] } else { cols[5 - i] };
            v.extend(vtx(cx, cy, col, size));
        }
    }
    let data = floats(&v);
    check(&apps, "points", |gpu| {
        let (vs, fs) = (
            shader(&apps, "points.vert", gpu),
            shader(&apps, "flat.frag", gpu),
        );
        let d = Draw {
            vs: &vs,
            fs: &fs,
            attributes: vtx_attributes(&data, 3),
            primitive: PcDiPrimtype::DI_PT_POINTLIST,
            vertices: 12,
            instances: 1,
            first_instance: 0,
            size: (W, H),
            // The pass clears to 0.25: UNORM8 64.
            clear: [64, 64, 64, 255],
        };
        render(&SimGpu::new(gpu), &d).unwrap_or_else(|e| panic!("{gpu}: {e}"))
    });
}

/// w_instanced_attrs: a square per instance, offset and coloured by per-instance
/// attributes (an R8G8B8A8_UNORM colour), five instances from firstInstance 2 of a binding
/// that starts one record in.
#[test]
fn instanced_attributes_render_as_lavapipe_does() {
    let Some(apps) = apps() else { return };
    let mut sq = [
        0.0,
        0.0,
        0.0,
        32.0 / H as f32,
        32.0 / W as f32,
        0.0,
        32.0 / W as f32,
        0.0,
        0.0,
        32.0 / H as f32,
        32.0 / W as f32,
        32.0 / H as f32,
    ];
    for x in sq.iter_mut() {
        *x -= 1.0;
    }
    let squares = floats(&sq);
    let mut records = Vec::new();
    for i in 0..9u32 {
        let (col, row) = (i % 5, i / 5);
        let ox = (4 + col * 18) as f32 * 2.0 / W as f32;
        let oy = (8 + row * 28 + (i & 1) * 4) as f32 * 2.0 / H as f32;
        records.extend(ox.to_le_bytes());
        records.extend(oy.to_le_bytes());
        records.extend([
            (40 * i) as u8,
            (255 - 30 * i as i32) as u8,
            ((i * 97) & 0xff) as u8,
            255,
        ]);
    }
    // vkCmdBindVertexBuffers' offset of one 12-byte record.
    let instances = &records[12..];
    check(&apps, "instanced_attrs", |gpu| {
        let (vs, fs) = (
            shader(&apps, "instanced.vert", gpu),
            shader(&apps, "flat.frag", gpu),
        );
        let attr = |location, data, offset, stride, format, per_instance| VertexAttribute {
            location,
            data,
            offset,
            stride,
            format,
            float: true,
            per_instance,
        };
        let d = Draw {
            vs: &vs,
            fs: &fs,
            attributes: vec![
                attr(0, &squares, 0, 8, A6xxFormat::FMT6_32_32_FLOAT, false),
                attr(1, instances, 0, 12, A6xxFormat::FMT6_32_32_FLOAT, true),
                attr(2, instances, 8, 12, A6xxFormat::FMT6_8_8_8_8_UNORM, true),
            ],
            primitive: PcDiPrimtype::DI_PT_TRILIST,
            vertices: 6,
            instances: 5,
            first_instance: 2,
            size: (W, H),
            clear: [0, 0, 0, 255],
        };
        render(&SimGpu::new(gpu), &d).unwrap_or_else(|e| panic!("{gpu}: {e}"))
    });
}

/// triangle.c: tri.vert's triangle from gl_VertexIndex (no vertex buffers), colours
/// interpolated by tri.frag, on a 64x64 target cleared to (0.1, 0.2, 0.3, 1), which
/// lavapipe stores as (26, 51, 76, 255) (triangle_lvp.ppm's first pixel).
#[test]
fn triangle_renders_as_lavapipe_does() {
    let Some(apps) = apps() else { return };
    check(&apps, "triangle", |gpu| {
        let (vs, fs) = (
            shader(&apps, "tri.vert", gpu),
            shader(&apps, "tri.frag", gpu),
        );
        let d = Draw {
            vs: &vs,
            fs: &fs,
            attributes: Vec::new(),
            primitive: PcDiPrimtype::DI_PT_TRILIST,
            vertices: 3,
            instances: 1,
            first_instance: 0,
            size: (64, 64),
            clear: [26, 51, 76, 255],
        };
        render(&SimGpu::new(gpu), &d).unwrap_or_else(|e| panic!("{gpu}: {e}"))
    });
}

/// discard: fullscreen.vert's triangle covers the target; the fragment shader discards by
/// gl_FragCoord, so the pixels it keeps are those with centre x >= 48 and y <= 40, whose
/// colour carries the centre (x + 0.5, y + 0.5) / 255 in UNORM8; the others keep the
/// clear colour.
#[test]
fn discarded_fragments_leave_the_target_alone() {
    let Some(apps) = apps() else { return };
    let words = common::spirv_file("discard_left.frag");
    for gpu in GPUS {
        let vs = shader(&apps, "fullscreen.vert", gpu);
        let options = CompileOptions {
            gpu: gpu.into(),
            ..CompileOptions::default()
        };
        let fs = compile(&words, &options).unwrap();
        assert!(fs.stage.fragment().unwrap().discards);
        let d = full_screen(&vs, &fs, [1, 2, 3, 4]);
        let got = render(&SimGpu::new(gpu), &d).unwrap_or_else(|e| panic!("{gpu}: {e}"));
        let unorm = |v: f32| (v * 255.0).round() as u8;
        for y in 0..H {
            for x in 0..W {
                let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                let want = if cx < 48.0 || cy > 40.0 {
                    [1, 2, 3, 4]
                } else {
                    [255, unorm(cx / 255.0), unorm(cy / 255.0), 255]
                };
                let i = ((y * W + x) * 4) as usize;
                assert_eq!(got[i..i + 4], want, "{gpu}: pixel ({x}, {y})");
            }
        }
    }
}

/// w_mip_lod: fullscreen.vert's triangle; miplod.frag samples newref.c's 8x8 RGBA8
/// texture of 4 levels (level k a one-texel checkerboard of two colours of its own) with
/// textureLod at a level of detail per strip, through a nearest/nearest/mip-nearest
/// sampler (combined image sampler at set 0 binding 0: texture descriptor 0, sampler 1).
#[test]
fn mip_lod_renders_as_lavapipe_does() {
    let Some(apps) = apps() else { return };
    check(&apps, "mip_lod", |gpu| {
        let vs = shader(&apps, "fullscreen.vert", gpu);
        let words = common::try_spirv_path(&apps.join("apps/newref-shaders/miplod.frag"))
            .unwrap_or_else(|e| panic!("miplod.frag: {e}"));
        let layout = DescriptorLayout::packed(&[(0, 0, DescriptorKind::CombinedImageSampler, 1)]);
        let options = CompileOptions {
            gpu: gpu.into(),
            layout,
            ..CompileOptions::default()
        };
        let fs = compile(&words, &options).unwrap_or_else(|e| panic!("miplod.frag: {e}"));
        let d = full_screen(&vs, &fs, [0, 0, 0, 255]);
        let a = Attachments {
            textures: mip_lod_bindings(),
            ..Attachments::default()
        };
        render_to(&SimGpu::new(gpu), &d, &a)
            .unwrap_or_else(|e| panic!("{gpu}: {e}"))
            .remove(0)
    });
}

/// w_input_attachment's second subpass: subpass1.frag reads attachment 0 with
/// subpassLoad (an input attachment at set 0 binding 0) over fullscreen.vert's triangle
/// and writes each pixel inverted or rotated by 8x8 checker cell. Attachment 0 is what
/// the first subpass leaves: cleared to (0x10, 0x20, 0x30), then the pixel-aligned quads
/// [8, 56) x [8, 40) in (0xff, 0x40, 0x00) and [40, 88) x [24, 56) in (0x20, 0x80,
/// 0xe0) over it (newref.c's QUADs, whose pixel centres are inside exactly where these
/// bounds say).
#[test]
fn input_attachment_renders_as_lavapipe_does() {
    let Some(apps) = apps() else { return };
    let colour_at = |x: u32, y: u32| -> [u8; 4] {
        if (40..88).contains(&x) && (24..56).contains(&y) {
            [0x20, 0x80, 0xe0, 0xff]
        } else if (8..56).contains(&x) && (8..40).contains(&y) {
            [0xff, 0x40, 0x00, 0xff]
        } else {
            [0x10, 0x20, 0x30, 0xff]
        }
    };
    let first_subpass: Vec<u8> = (0..H)
        .flat_map(|y| (0..W).flat_map(move |x| colour_at(x, y)))
        .collect();
    check(&apps, "input_attachment", |gpu| {
        let vs = shader(&apps, "fullscreen.vert", gpu);
        let words = common::try_spirv_path(&apps.join("apps/newref-shaders/subpass1.frag"))
            .unwrap_or_else(|e| panic!("subpass1.frag: {e}"));
        let options = CompileOptions {
            gpu: gpu.into(),
            layout: DescriptorLayout::packed(&[(0, 0, DescriptorKind::InputAttachment, 1)]),
            ..CompileOptions::default()
        };
        let fs = compile(&words, &options).unwrap_or_else(|e| panic!("subpass1.frag: {e}"));
        assert_eq!(fs.stage.fragment().unwrap().input_attachments, [0]);
        let a = Attachments {
            textures: vec![Bound {
                set: 0,
                descriptor: 0,
                slot: Slot::Image {
                    cube: false,
                    format: A6xxFormat::FMT6_8_8_8_8_UNORM,
                    size: (W, H),
                    levels: 1,
                    pitch: W * 4,
                    texels: first_subpass.clone(),
                },
            }],
            ..Attachments::default()
        };
        render_to(&SimGpu::new(gpu), &full_screen(&vs, &fs, [0, 0, 0, 0]), &a)
            .unwrap_or_else(|e| panic!("{gpu}: {e}"))
            .remove(0)
    });
}
