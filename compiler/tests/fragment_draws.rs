//! Fragment shader system values and outputs drawn on the model (`common::draw`), each
//! pixel checked against what the Vulkan spec says it must hold, worked out here.

mod common;

use common::dispatch::SimGpu;
use common::draw::{render_to, Attachments, ColourAttachment, DepthAttachment, Draw};
use common::textures::{
    linear_levels, mip_lod_bindings, mip_lod_texel, sampler, Bound, Slot, LAYER_BYTES,
};
use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::{compile, CompileOptions};
use parsnip_registers::enums::{A6xxFormat, A6xxTexFilter, AdrenoCompareFunc, PcDiPrimtype};

const GPUS: [&str; 2] = ["a660", "a740"];
const W: u32 = 96;
const H: u32 = 64;

fn shader(file: &str, gpu: &str) -> CompiledShader {
    shader_with(file, gpu, &DescriptorLayout::default())
}

/// `file` compiled for `gpu` with its descriptors where `layout` puts them.
fn shader_with(file: &str, gpu: &str, layout: &DescriptorLayout) -> CompiledShader {
    let options = CompileOptions {
        gpu: gpu.into(),
        layout: layout.clone(),
        ..CompileOptions::default()
    };
    compile(&common::spirv_file(file), &options).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn draw<'a>(vs: &'a CompiledShader, fs: &'a CompiledShader, vertices: u32) -> Draw<'a> {
    Draw {
        vs,
        fs,
        attributes: Vec::new(),
        primitive: PcDiPrimtype::DI_PT_TRILIST,
        vertices,
        instances: 1,
        first_instance: 0,
        size: (W, H),
        clear: [1, 2, 3, 4],
    }
}

/// Draws `vertices` into one RGBA8 target cleared to (1, 2, 3, 4).
fn render_rgba8(gpu: &str, vs: &CompiledShader, fs: &CompiledShader, vertices: u32) -> Vec<u8> {
    render_to(
        &SimGpu::new(gpu),
        &draw(vs, fs, vertices),
        &Attachments::default(),
    )
    .unwrap_or_else(|e| panic!("{gpu}: {e}"))
    .remove(0)
}

/// An RGBA8 UNORM colour attachment cleared to (1, 2, 3, 4).
fn rgba8() -> ColourAttachment {
    ColourAttachment {
        format: A6xxFormat::FMT6_8_8_8_8_UNORM,
        bytes: 4,
        integer: None,
        clear: vec![1, 2, 3, 4],
    }
}

/// Whether two_facings.vert's left triangle, (0, 0), (48, 0), (0, 64), covers pixel
/// (x, y)'s centre (none lies on its sloped edge).
fn in_left_triangle(x: u32, y: u32) -> bool {
    (x as f32 + 0.5) / 48.0 + (y as f32 + 0.5) / 64.0 < 1.0
}

/// Whether its right triangle, (96, 0), (48, 64), (96, 64), covers pixel (x, y)'s centre.
fn in_right_triangle(x: u32, y: u32) -> bool {
    (96.0 - (x as f32 + 0.5)) / 48.0 + (64.0 - (y as f32 + 0.5)) / 64.0 < 1.0
}

/// Checks each pixel of an RGBA8 image against `want(x, y)`.
fn every_pixel(gpu: &str, image: &[u8], want: impl Fn(u32, u32) -> [u8; 4]) {
    for y in 0..H {
        for x in 0..W {
            assert_eq!(pixel(image, 4, x, y), want(x, y), "{gpu}: pixel ({x}, {y})");
        }
    }
}

/// The pixel of `x, y` in an image of `bytes` a pixel.
fn pixel(image: &[u8], bytes: u32, x: u32, y: u32) -> &[u8] {
    let row = (W * bytes).next_multiple_of(64);
    let i = (y * row + x * bytes) as usize;
    &image[i..i + bytes as usize]
}

/// two_facings.vert's left triangle is (0, 0), (48, 0), (0, 64) in framebuffer
/// coordinates: its area by the spec's formula (-1/2 of the sum of x_i y_(i+1) -
/// x_(i+1) y_i) is -1536, negative, so with VK_FRONT_FACE_COUNTER_CLOCKWISE it is back
/// facing; the right one, (96, 0), (48, 64), (96, 64), has area +1536: front facing.
/// Every covered fragment has one covered sample (mask 1) and sample id 0 and is no
/// helper; fragments within a pixel and a half of a sloped edge are not checked.
#[test]
fn front_facing_sample_mask_and_helper_are_as_the_rasterizer_says() {
    for gpu in GPUS {
        let vs = shader("two_facings.vert", gpu);
        let fs = shader("fragment_system_values.frag", gpu);
        let f = fs.stage.fragment().unwrap();
        assert!(f.front_facing_reg.is_some() && f.sample_mask_in_reg.is_some());
        assert!(f.per_sample, "gl_SampleID makes the shader run per sample");
        let got = render_rgba8(gpu, &vs, &fs, 6);
        let (mut back, mut front) = (0, 0);
        for y in 0..H {
            for x in 0..W {
                let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                let left = cx / 48.0 + cy / 64.0;
                let right = (96.0 - cx) / 48.0 + (64.0 - cy) / 64.0;
                if (left - 1.0).abs() < 0.05 || (right - 1.0).abs() < 0.05 {
                    continue;
                }
                let want: [u8; 4] = if left < 1.0 {
                    back += 1;
                    [255, 0, 1, 200]
                } else if right < 1.0 {
                    front += 1;
                    [0, 255, 1, 200]
                } else {
                    [1, 2, 3, 4]
                };
                assert_eq!(pixel(&got, 4, x, y), want, "{gpu}: pixel ({x}, {y})");
            }
        }
        assert!(
            back > 1000 && front > 1000,
            "{gpu}: {back} back, {front} front"
        );
    }
}

/// mrt_depth.frag over the whole target writes three render targets of float, int and
/// uint types (RGBA8 UNORM, R32G32B32A32_SINT, R16G16B16A16_UINT) and a depth of
/// x / 96 at the pixel centre. The depth buffer starts at 0.5 and the test is LESS, so
/// columns 0..=47 ((x + 0.5) / 96 < 0.5) are written and the rest keep every target's
/// clear value.
#[test]
fn render_targets_of_each_type_and_frag_depth() {
    for gpu in GPUS {
        let vs = shader("fullscreen.vert", gpu);
        let fs = shader("mrt_depth.frag", gpu);
        let f = fs.stage.fragment().unwrap();
        assert!(f.depth_reg.is_some());
        let attachments = Attachments {
            colour: vec![
                ColourAttachment {
                    format: A6xxFormat::FMT6_8_8_8_8_UNORM,
                    bytes: 4,
                    integer: None,
                    clear: vec![9, 9, 9, 9],
                },
                ColourAttachment {
                    format: A6xxFormat::FMT6_32_32_32_32_SINT,
                    bytes: 16,
                    integer: Some(true),
                    clear: vec![0xaa; 16],
                },
                ColourAttachment {
                    format: A6xxFormat::FMT6_16_16_16_16_UINT,
                    bytes: 8,
                    integer: Some(false),
                    clear: vec![0x55; 8],
                },
            ],
            depth: Some(DepthAttachment {
                clear: 0.5,
                func: AdrenoCompareFunc::FUNC_LESS,
            }),
            ..Attachments::default()
        };
        let got = render_to(&SimGpu::new(gpu), &draw(&vs, &fs, 3), &attachments)
            .unwrap_or_else(|e| panic!("{gpu}: {e}"));
        for y in 0..H {
            for x in 0..W {
                let (c0, c1, c2): (Vec<u8>, Vec<u8>, Vec<u8>) = if x <= 47 {
                    let (xi, yi) = (x as i32, y as i32);
                    (
                        vec![64, 128, 191, 255],
                        [xi - 50, -yi, xi * yi, -7]
                            .iter()
                            .flat_map(|v| v.to_le_bytes())
                            .collect(),
                        [x as u16, y as u16, 65535, 40000 + x as u16]
                            .iter()
                            .flat_map(|v| v.to_le_bytes())
                            .collect(),
                    )
                } else {
                    (vec![9; 4], vec![0xaa; 16], vec![0x55; 8])
                };
                let at = format!("{gpu}: pixel ({x}, {y})");
                assert_eq!(pixel(&got[0], 4, x, y), c0, "{at} colour 0");
                assert_eq!(pixel(&got[1], 16, x, y), c1, "{at} colour 1");
                assert_eq!(pixel(&got[2], 8, x, y), c2, "{at} colour 2");
            }
        }
    }
}

/// derivatives.frag over the whole target: with f = 2 x y at centres (x, y), the quad
/// whose top-left pixel is (x0, y0) has fine dF/dx = 2 y of the fragment's own row,
/// coarse dF/dx = 2 (y0 + 0.5) (its top row), fine dF/dy = 2 x of its own column, coarse
/// dF/dy = 2 (x0 + 0.5) (its left column).
#[test]
fn fine_and_coarse_derivatives_across_the_quad() {
    for gpu in GPUS {
        let vs = shader("fullscreen.vert", gpu);
        let fs = shader("derivatives.frag", gpu);
        assert!(fs.stage.fragment().unwrap().uses_derivatives);
        for op in [
            "dsxpp.1 ",
            "dsxpp.1.p",
            "dsx (f32)",
            "dsypp.1 ",
            "dsypp.1.p",
            "dsy (f32)",
        ] {
            assert!(
                fs.disassembly.contains(op),
                "{gpu}: no {op}\n{}",
                fs.disassembly
            );
        }
        let got = render_rgba8(gpu, &vs, &fs, 3);
        for y in 0..H {
            for x in 0..W {
                let (x0, y0) = (x & !1, y & !1);
                let want = [2 * y + 1, 2 * y0 + 1, 2 * x + 1, 2 * x0 + 1].map(|v| v as u8);
                assert_eq!(pixel(&got, 4, x, y), want, "{gpu}: pixel ({x}, {y})");
            }
        }
    }
}

/// helper_neighbours.frag on two_facings.vert's triangles: a covered fragment's
/// horizontal (vertical) neighbour in its quad is a helper exactly when the fragment's
/// triangle does not cover that neighbour's centre. No centre lies on a sloped edge
/// (4 x + 3 y = 192 and 4 x - 3 y = 192 have no solution in half-integers), so coverage is
/// the strict inside of the edges.
#[test]
fn helper_invocations_are_the_uncovered_fibers_of_a_quad() {
    let (left, right) = (in_left_triangle, in_right_triangle);
    for gpu in GPUS {
        let vs = shader("two_facings.vert", gpu);
        let fs = shader("helper_neighbours.frag", gpu);
        let got = render_rgba8(gpu, &vs, &fs, 6);
        let mut edges = 0;
        for y in 0..H {
            for x in 0..W {
                let covered: Option<&dyn Fn(u32, u32) -> bool> = if left(x, y) {
                    Some(&left)
                } else if right(x, y) {
                    Some(&right)
                } else {
                    None
                };
                let want = match covered {
                    Some(inside) => {
                        let dx = u8::from(!inside(x ^ 1, y));
                        let dy = u8::from(!inside(x, y ^ 1));
                        edges += usize::from(dx | dy);
                        [255 * dx, 255 * dy, 51 * (dx + dy), 255]
                    }
                    None => [1, 2, 3, 4],
                };
                assert_eq!(pixel(&got, 4, x, y), want, "{gpu}: pixel ({x}, {y})");
            }
        }
        assert!(edges > 50, "{gpu}: only {edges} fragments next to a helper");
    }
}

/// demote_odd_columns.frag over the whole target: odd columns demote and keep the clear
/// colour; an even column x0 sees its demoted neighbour in its derivatives:
/// (x0 + 1.5)^2 - (x0 + 0.5)^2 = 2 x0 + 2 in red, and the neighbour's
/// helperInvocationEXT() (1) against its own (0) in green and blue.
#[test]
fn demoted_fibers_write_nothing_and_run_on_as_helpers() {
    for gpu in GPUS {
        let vs = shader("fullscreen.vert", gpu);
        let fs = shader("demote_odd_columns.frag", gpu);
        assert!(fs.stage.fragment().unwrap().discards);
        let got = render_rgba8(gpu, &vs, &fs, 3);
        every_pixel(gpu, &got, |x, _| {
            if x & 1 == 1 {
                [1, 2, 3, 4]
            } else {
                [(2 * x + 2) as u8, 255, 0, 255]
            }
        });
    }
}

/// The cts's terminate_and_demote.frag over the whole target: in the top half odd
/// columns end at OpTerminateInvocation and keep the clear colour, the even ones are
/// magenta; in the bottom half odd columns demote and the even ones see them in their
/// derivatives: 2x + 1 of x * x in red, 1 of helperInvocationEXT() in green.
#[test]
fn terminated_fibers_write_nothing() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../cts/shaders/terminate_and_demote.frag");
    let words = common::try_spirv_path(&path).unwrap();
    for gpu in GPUS {
        let vs = shader("fullscreen.vert", gpu);
        let options = CompileOptions {
            gpu: gpu.into(),
            ..CompileOptions::default()
        };
        let fs = compile(&words, &options).unwrap();
        assert!(fs.stage.fragment().unwrap().discards);
        let got = render_rgba8(gpu, &vs, &fs, 3);
        every_pixel(gpu, &got, |x, y| match (y < 32, x & 1 == 1) {
            (_, true) => [1, 2, 3, 4],
            (true, false) => [255, 0, 255, 255],
            (false, false) => [(2 * x + 1) as u8, 255, 0, 255],
        });
    }
}

/// texture_lookups.frag over the whole target with newref.c's mip_lod texture (8x8
/// RGBA8, 4 levels, level k a one-texel checkerboard of two colours of its own), nearest
/// filtering and mips. In each 8x8 block pixel (x, y) = (8a + i, 8b + j) samples at
/// ((i + 0.5) / 8, (j + 0.5) / 8), whose derivatives are 1/8 (one level-0 texel a
/// pixel: level 0, no 8-pixel window edge inside a quad):
/// - bias 2: level 2, texel (i / 4, j / 4);
/// - gradients 1/4 (two texels a pixel): level 1, texel (i / 2, j / 2);
/// - gather of green at level 0: texel space (i, j) exactly, so the four texels are (i, j)
///   to (i + 1, j + 1) clamped to the edge, returned (i0, j1), (i1, j1), (i1, j0),
///   (i0, j0) (the Vulkan spec's order); green is 0 in red texels and 255 in white ones;
///   with offset (1, 0) the texels from (i + 1, j).
#[test]
fn biased_graded_and_gathered_lookups() {
    let colour = mip_lod_texel;
    let layout = DescriptorLayout::packed(&[(0, 0, DescriptorKind::CombinedImageSampler, 1)]);
    for gpu in GPUS {
        let vs = shader("fullscreen.vert", gpu);
        let fs = shader_with("texture_lookups.frag", gpu, &layout);
        for op in ["samb", "samgq", "gather4g", "gather4g.o"] {
            assert!(
                fs.disassembly.contains(op),
                "{gpu}: no {op}\n{}",
                fs.disassembly
            );
        }
        let a = Attachments {
            colour: vec![rgba8(), rgba8(), rgba8(), rgba8()],
            textures: mip_lod_bindings(),
            ..Attachments::default()
        };
        let got = render_to(&SimGpu::new(gpu), &draw(&vs, &fs, 3), &a)
            .unwrap_or_else(|e| panic!("{gpu}: {e}"));
        for y in 0..H {
            for x in 0..W {
                let (i, j) = (x % 8, y % 8);
                let green = |i: u32, j: u32| mip_lod_texel(0, i.min(7), j.min(7))[1];
                let gather = |i: u32| {
                    [
                        green(i, j + 1),
                        green(i + 1, j + 1),
                        green(i + 1, j),
                        green(i, j),
                    ]
                };
                let at = format!("{gpu}: pixel ({x}, {y})");
                assert_eq!(
                    pixel(&got[0], 4, x, y),
                    colour(2, i / 4, j / 4),
                    "{at} bias"
                );
                assert_eq!(
                    pixel(&got[1], 4, x, y),
                    colour(1, i / 2, j / 2),
                    "{at} grad"
                );
                assert_eq!(pixel(&got[2], 4, x, y), gather(i), "{at} gather");
                assert_eq!(pixel(&got[3], 4, x, y), gather(i + 1), "{at} offset gather");
            }
        }
    }
}

/// texture_offsets_shadow.frag over the whole target: in each 8x8 block pixel (8a + i,
/// 8b + j) samples at ((i + 0.5) / 8, (j + 0.5) / 8):
/// - mip_lod's level 0 with offset (1, -1): texel (i + 1, j - 1) clamped to the edge;
/// - an 8x8 R32 FLOAT texture holding (i + j) / 14 through a LESS compare sampler,
///   reference 0.5: 1.0 where 0.5 < (i + j) / 14, i.e. i + j > 7, else 0 (nearest: one
///   texel compared).
#[test]
fn offset_and_shadow_lookups() {
    let layout = DescriptorLayout::packed(&[
        (0, 0, DescriptorKind::CombinedImageSampler, 1),
        (0, 1, DescriptorKind::CombinedImageSampler, 1),
    ]);
    let depth: Vec<u8> = linear_levels((8, 8), 1, 64, |_, i, j| {
        ((i + j) as f32 / 14.0).to_le_bytes()
    });
    for gpu in GPUS {
        let vs = shader("fullscreen.vert", gpu);
        let fs = shader_with("texture_offsets_shadow.frag", gpu, &layout);
        let mut textures = mip_lod_bindings();
        textures.push(Bound {
            set: 0,
            descriptor: 2,
            slot: Slot::Image {
                cube: false,
                format: A6xxFormat::FMT6_32_FLOAT,
                size: (8, 8),
                levels: 1,
                pitch: 64,
                texels: depth.clone(),
            },
        });
        let mut less = sampler(A6xxTexFilter::A6XX_TEX_NEAREST, false);
        less.compare_func = AdrenoCompareFunc::FUNC_LESS;
        textures.push(Bound {
            set: 0,
            descriptor: 3,
            slot: Slot::Sampler(less),
        });
        let a = Attachments {
            colour: vec![rgba8(), rgba8()],
            textures,
            ..Attachments::default()
        };
        let got = render_to(&SimGpu::new(gpu), &draw(&vs, &fs, 3), &a)
            .unwrap_or_else(|e| panic!("{gpu}: {e}"));
        for y in 0..H {
            for x in 0..W {
                let (i, j) = (x % 8, y % 8);
                let at = format!("{gpu}: pixel ({x}, {y})");
                let want = mip_lod_texel(0, (i + 1).min(7), j.saturating_sub(1));
                assert_eq!(pixel(&got[0], 4, x, y), want, "{at} offset");
                let pass = if i + j > 7 { 255 } else { 0 };
                assert_eq!(pixel(&got[1], 4, x, y), [pass; 4], "{at} shadow");
            }
        }
    }
}

/// vertex_texture.vert samples mip_lod's texture in the vertex shader with explicit
/// levels: (0.25, 0.25) at level 1 (4x4) is texel (1, 1), the first colour (green);
/// (0.75, 0.25) at level 2 (2x2) is texel (1, 0), the second (yellow). The triangles are
/// two_facings.vert's, their colours flat from their first vertices.
#[test]
fn vertex_shaders_sample_textures() {
    let layout = DescriptorLayout::packed(&[(0, 0, DescriptorKind::CombinedImageSampler, 1)]);
    let (left, right) = (in_left_triangle, in_right_triangle);
    for gpu in GPUS {
        let vs = shader_with("vertex_texture.vert", gpu, &layout);
        assert!(vs.disassembly.contains("saml"), "{}", vs.disassembly);
        let fs = shader("flat_colour.frag", gpu);
        let a = Attachments {
            textures: mip_lod_bindings(),
            ..Attachments::default()
        };
        let got = render_to(&SimGpu::new(gpu), &draw(&vs, &fs, 6), &a)
            .unwrap_or_else(|e| panic!("{gpu}: {e}"))
            .remove(0);
        for y in 0..H {
            for x in 0..W {
                let want = if left(x, y) {
                    mip_lod_texel(1, 1, 1)
                } else if right(x, y) {
                    mip_lod_texel(2, 1, 0)
                } else {
                    [1, 2, 3, 4]
                };
                assert_eq!(pixel(&got, 4, x, y), want, "{gpu}: pixel ({x}, {y})");
            }
        }
    }
}

/// block_varyings.vert/.frag pass an interface block of a smooth vec3, a flat uint with
/// its own Location and a smooth float: the left triangle's (1, 0, 0), 77, 1 and the right
/// one's (0, 0, 1), 200, 0, the same at every vertex, so every fragment of a triangle gets
/// them (the smooth ones 0 or 1 after interpolation, within UNORM8 rounding).
#[test]
fn interface_blocks_link_by_location() {
    for gpu in GPUS {
        let vs = shader("block_varyings.vert", gpu);
        let fs = shader("block_varyings.frag", gpu);
        let locations: Vec<u32> = fs
            .stage
            .fragment()
            .unwrap()
            .inputs
            .iter()
            .map(|i| i.location)
            .collect();
        assert_eq!(locations, [1, 4, 5], "{gpu}");
        let got = render_rgba8(gpu, &vs, &fs, 6);
        for y in 0..H {
            for x in 0..W {
                let want = if in_left_triangle(x, y) {
                    [255, 77, 0, 255]
                } else if in_right_triangle(x, y) {
                    [0, 200, 255, 0]
                } else {
                    [1, 2, 3, 4]
                };
                assert_eq!(pixel(&got, 4, x, y), want, "{gpu}: pixel ({x}, {y})");
            }
        }
    }
}

/// sample_mask_columns.frag over the whole single-sampled target: the fragment's sample
/// mask is ANDed with gl_SampleMask, so odd columns (mask 0) keep the clear colour and
/// even ones (all bits) are green.
#[test]
fn an_output_sample_mask_of_zero_writes_nothing() {
    for gpu in GPUS {
        let vs = shader("fullscreen.vert", gpu);
        let fs = shader("sample_mask_columns.frag", gpu);
        assert!(fs.stage.fragment().unwrap().sample_mask_reg.is_some());
        let got = render_rgba8(gpu, &vs, &fs, 3);
        every_pixel(gpu, &got, |x, _| {
            if x & 1 == 1 {
                [1, 2, 3, 4]
            } else {
                [0, 255, 0, 255]
            }
        });
    }
}

/// cube_faces.frag: column k of the target looks along a direction whose largest
/// component is face k's axis (Vulkan's cube map face selection: +X, -X, +Y, -Y, +Z, -Z
/// in layer order), into a cube whose faces are each one colour of their own.
#[test]
fn cube_maps_sample_the_face_a_direction_points_at() {
    let face_colour = |f: u32| [(40 * f) as u8, (255 - 40 * f) as u8, 100, 255];
    let mut texels = vec![0u8; 6 * LAYER_BYTES as usize];
    for f in 0..6u32 {
        let face = linear_levels((4, 4), 1, 64, |_, _, _| face_colour(f));
        let at = (f * LAYER_BYTES) as usize;
        texels[at..at + face.len()].copy_from_slice(&face);
    }
    let layout = DescriptorLayout::packed(&[(0, 0, DescriptorKind::CombinedImageSampler, 1)]);
    for gpu in GPUS {
        let vs = shader("fullscreen.vert", gpu);
        let fs = shader_with("cube_faces.frag", gpu, &layout);
        let a = Attachments {
            textures: vec![
                Bound {
                    set: 0,
                    descriptor: 0,
                    slot: Slot::Image {
                        cube: true,
                        format: A6xxFormat::FMT6_8_8_8_8_UNORM,
                        size: (4, 4),
                        levels: 1,
                        pitch: 64,
                        texels: texels.clone(),
                    },
                },
                Bound {
                    set: 0,
                    descriptor: 1,
                    slot: Slot::Sampler(sampler(A6xxTexFilter::A6XX_TEX_NEAREST, false)),
                },
            ],
            ..Attachments::default()
        };
        let got = render_to(&SimGpu::new(gpu), &draw(&vs, &fs, 3), &a)
            .unwrap_or_else(|e| panic!("{gpu}: {e}"))
            .remove(0);
        every_pixel(gpu, &got, |x, _| face_colour(x / 16));
    }
}
