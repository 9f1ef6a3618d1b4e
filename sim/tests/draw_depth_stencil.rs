//! The RB's depth, stencil and depth bounds tests for D16, D24S8 and D32F
//! buffers (a6xx lays depth out in TILE6_3, a7xx here linearly), early
//! against late testing, with expected values from Vulkan's rules: a
//! depth converts to D16 and D24 as round(z * (2^n - 1)); LESS passes a
//! fragment nearer than the stored value; stencil operations as the
//! specification lists them.

mod common;

use common::draw_rig::DrawRig;
use common::graphics_state::{regid, rgba8_buffer, rgba8_target, Depth, DepthBuffer, StencilFace};
use common::scene::{rgba, vertex, Scene, Vertex, COLOUR_FS};
use common::textured_quad::pitch;
use common::GPUS;
use parsnip_registers::enums::{
    A3xxColorSwap, A6xxDepthFormat, A6xxFormat, A6xxTileMode, AdrenoCompareFunc as F,
    AdrenoStencilOp as Op, PcDiPrimtype,
};
use parsnip_registers::gpu;
use parsnip_sim::surface::{Surface, SurfaceDesc};

const SIZE: (u32, u32) = (16, 16);
const DEPTH_PITCH: u32 = 256;

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

/// A rectangle from (x0, y0) to (x1, y1) at depth z, as two triangles.
fn rect(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, colour: [f32; 4]) -> Vec<Vertex> {
    let v = |x, y| vertex(SIZE, x, y, z, colour, [0.0; 4]);
    vec![
        v(x0, y0),
        v(x1, y0),
        v(x1, y1),
        v(x0, y0),
        v(x1, y1),
        v(x0, y1),
    ]
}

/// The bytes of one depth texel holding `z` (and stencil `s` for D24S8).
fn texel(format: A6xxDepthFormat, z: f32, s: u8) -> Vec<u8> {
    match format {
        A6xxDepthFormat::DEPTH6_16 => ((z * 65535.0).round() as u16).to_le_bytes().to_vec(),
        A6xxDepthFormat::DEPTH6_24_8 => ((z * 16_777_215.0).round() as u32 | u32::from(s) << 24)
            .to_le_bytes()
            .to_vec(),
        _ => z.to_bits().to_le_bytes().to_vec(),
    }
}

/// The depth buffer as a surface, to read back texels wherever its tiling
/// puts them.
fn depth_surface(gpu: &str, base: u64, format: A6xxDepthFormat) -> Surface {
    let info = gpu::by_name(gpu).unwrap();
    let element = match format {
        A6xxDepthFormat::DEPTH6_16 => A6xxFormat::FMT6_16_UNORM,
        A6xxDepthFormat::DEPTH6_24_8 => A6xxFormat::FMT6_Z24_UNORM_S8_UINT,
        _ => A6xxFormat::FMT6_32_FLOAT,
    };
    Surface::new(
        SurfaceDesc {
            base,
            format: element,
            swap: A3xxColorSwap::WZYX,
            srgb: false,
            tile_mode: if gpu == "a660" {
                A6xxTileMode::TILE6_3
            } else {
                A6xxTileMode::TILE6_LINEAR
            },
            pitch: u64::from(DEPTH_PITCH),
            samples: 1,
            extent: None,
            flags: None,
            mutable: false,
        },
        info,
    )
    .unwrap()
}

/// A scene drawing `vertices` with a depth buffer of `format` whose every
/// texel starts as `clear` (the same bytes everywhere, whatever the
/// layout); returns the scene and the buffer's address.
fn depth_scene(
    gpu: &str,
    vertices: &[Vertex],
    format: A6xxDepthFormat,
    clear: f32,
    stencil: u8,
) -> (Scene, u64) {
    let mut rig = DrawRig::new(gpu);
    let target = rig.buffer(&vec![0u8; (pitch(SIZE.0) * SIZE.1) as usize]);
    let bytes: Vec<u8> = (0..0x4000)
        .flat_map(|_| texel(format, clear, stencil))
        .collect();
    let depth = rig.buffer(&bytes);
    let mut scene = Scene::with_target(
        rig,
        SIZE,
        vertices,
        COLOUR_FS,
        rgba8_target(regid(1, 0)),
        rgba8_buffer(target, pitch(SIZE.0)),
    );
    scene.framebuffer.depth = Some(DepthBuffer {
        base: depth,
        pitch: DEPTH_PITCH,
        array_pitch: u64::from(DEPTH_PITCH) * u64::from(SIZE.1),
        format,
        // a6xx's depth is TILE6_3 whatever this says.
        tile_mode: A6xxTileMode::TILE6_LINEAR,
        flags: None,
    });
    scene.pipeline.depth = Some(Depth {
        format,
        test: true,
        write: true,
        func: F::FUNC_LESS,
        bounds: None,
        clamp: None,
    });
    (scene, depth)
}

fn read_depth(
    scene: &Scene,
    gpu: &str,
    base: u64,
    format: A6xxDepthFormat,
    x: u32,
    y: u32,
) -> Vec<u8> {
    let surface = depth_surface(gpu, base, format);
    let n = if format == A6xxDepthFormat::DEPTH6_16 {
        2
    } else {
        4
    };
    let mut out = vec![0u8; n];
    surface
        .read_element(scene.rig.rig.gpu.memory(), x, y, 0, &mut out)
        .unwrap();
    out
}

#[test]
fn less_keeps_the_nearest_fragment_and_writes_its_depth() {
    // Red over everything at z 0.5, then green at 0.25 on the left half
    // (nearer: drawn) and blue at 0.75 on the right (farther: rejected).
    let mut v = rect(0.0, 0.0, 16.0, 16.0, 0.5, RED);
    v.extend(rect(0.0, 0.0, 8.0, 16.0, 0.25, GREEN));
    v.extend(rect(8.0, 0.0, 16.0, 16.0, 0.75, BLUE));
    for gpu in GPUS {
        for format in [
            A6xxDepthFormat::DEPTH6_16,
            A6xxDepthFormat::DEPTH6_24_8,
            A6xxDepthFormat::DEPTH6_32,
        ] {
            let (mut scene, depth) = depth_scene(gpu, &v, format, 1.0, 0);
            let img = scene.draw(PcDiPrimtype::DI_PT_TRILIST, 18);
            assert_eq!(rgba(&img, 16, 3, 7), [0, 255, 0, 255], "{gpu} {format:?}");
            assert_eq!(rgba(&img, 16, 12, 7), [255, 0, 0, 255], "{gpu} {format:?}");
            assert_eq!(
                read_depth(&scene, gpu, depth, format, 3, 7),
                texel(format, 0.25, 0),
                "{gpu} {format:?}"
            );
            assert_eq!(
                read_depth(&scene, gpu, depth, format, 12, 7),
                texel(format, 0.5, 0),
                "{gpu} {format:?}"
            );
        }
    }
}

#[test]
fn a_stored_depth_compares_equal_to_itself() {
    // Two draws at the same z with EQUAL after LESS: the second passes
    // only where the first wrote, in each format's own precision
    // (1/3 is not exact in any of them).
    let mut v = rect(0.0, 0.0, 16.0, 16.0, 1.0 / 3.0, RED);
    v.extend(rect(0.0, 0.0, 16.0, 16.0, 1.0 / 3.0, GREEN));
    for gpu in GPUS {
        for format in [
            A6xxDepthFormat::DEPTH6_16,
            A6xxDepthFormat::DEPTH6_24_8,
            A6xxDepthFormat::DEPTH6_32,
        ] {
            let (mut scene, _) = depth_scene(gpu, &v[..6], format, 1.0, 0);
            let mut s = scene.stream(PcDiPrimtype::DI_PT_TRILIST, 6);
            scene.pipeline.depth.as_mut().unwrap().func = F::FUNC_EQUAL;
            scene.set_vertices(&v[6..]);
            let second = scene.stream(PcDiPrimtype::DI_PT_TRILIST, 6);
            s.dwords.extend_from_slice(&second.dwords);
            let img = scene.run(&s);
            assert_eq!(rgba(&img, 16, 5, 5), [0, 255, 0, 255], "{gpu} {format:?}");
        }
    }
}

#[test]
fn depth_bounds_test_the_stored_depth() {
    // A first pass stores 0.5 on the left half; then a draw at z 0.1 with
    // bounds [0.6, 1] fails where the stored depth is 0.5 and passes where
    // it is still 1.0.
    let mut v = rect(0.0, 0.0, 8.0, 16.0, 0.5, RED);
    v.extend(rect(0.0, 0.0, 16.0, 16.0, 0.1, GREEN));
    for gpu in GPUS {
        let (mut scene, _) = depth_scene(gpu, &v[..6], A6xxDepthFormat::DEPTH6_32, 1.0, 0);
        let mut s = scene.stream(PcDiPrimtype::DI_PT_TRILIST, 6);
        scene.set_vertices(&v[6..]);
        scene.pipeline.depth.as_mut().unwrap().bounds = Some((0.6, 1.0));
        s.dwords
            .extend_from_slice(&scene.stream(PcDiPrimtype::DI_PT_TRILIST, 6).dwords);
        let img = scene.run(&s);
        assert_eq!(rgba(&img, 16, 3, 3), [255, 0, 0, 255], "{gpu}");
        assert_eq!(rgba(&img, 16, 12, 3), [0, 255, 0, 255], "{gpu}");
    }
}

fn face(func: F, pass: Op, reference: u32) -> StencilFace {
    (
        func,
        Op::STENCIL_KEEP,
        pass,
        Op::STENCIL_KEEP,
        reference,
        0xff,
        0xff,
    )
}

#[test]
fn stencil_replaces_then_masks_and_faces_choose_their_state() {
    // Pass 1, depth test off: REPLACE with reference 5 on the left half.
    // Pass 2: EQUAL 5 over everything: only the left half is drawn.
    // Pass 3: front faces INCR_WRAP, back faces DECR_WRAP, ALWAYS: a
    // back-facing rectangle on the top half; stencil then 4 at the top
    // left, 5 at the bottom left, 255 at the top right (0 - 1 wraps), 0 at
    // the bottom right. Then the same rectangle wound the other way, a
    // front face, on the bottom half: 6 at the bottom left, 1 at the
    // bottom right.
    let left = rect(0.0, 0.0, 8.0, 16.0, 0.5, RED);
    let all = rect(0.0, 0.0, 16.0, 16.0, 0.5, GREEN);
    // rect() winds clockwise by Vulkan's rule (its signed area, with the
    // specification's minus sign, is negative in framebuffer coordinates,
    // y down): a back face when front faces are counter-clockwise. Swapped
    // corners wind the other way.
    let top = rect(0.0, 0.0, 16.0, 8.0, 0.5, BLUE);
    let mut bottom = rect(0.0, 8.0, 16.0, 16.0, 0.5, BLUE);
    bottom.swap(1, 2);
    bottom.swap(4, 5);
    for gpu in GPUS {
        let format = A6xxDepthFormat::DEPTH6_24_8;
        let (mut scene, depth) = depth_scene(gpu, &left, format, 1.0, 0);
        scene.pipeline.depth.as_mut().unwrap().test = false;
        scene.pipeline.depth.as_mut().unwrap().write = false;
        let replace = face(F::FUNC_ALWAYS, Op::STENCIL_REPLACE, 5);
        scene.pipeline.stencil = Some((replace, replace));
        let first = scene.stream(PcDiPrimtype::DI_PT_TRILIST, 6);
        scene.run(&first);
        let pass = |scene: &mut Scene, v: &[Vertex], stencil| {
            scene.set_vertices(v);
            scene.pipeline.stencil = Some(stencil);
            let s = scene.stream(PcDiPrimtype::DI_PT_TRILIST, 6);
            scene.run(&s)
        };
        let equal = face(F::FUNC_EQUAL, Op::STENCIL_KEEP, 5);
        let img = pass(&mut scene, &all, (equal, equal));
        assert_eq!(rgba(&img, 16, 3, 12), [0, 255, 0, 255], "{gpu}");
        assert_eq!(rgba(&img, 16, 12, 12), [0, 0, 0, 0], "{gpu}");
        let faces = (
            face(F::FUNC_ALWAYS, Op::STENCIL_INCR_WRAP, 0),
            face(F::FUNC_ALWAYS, Op::STENCIL_DECR_WRAP, 0),
        );
        pass(&mut scene, &top, faces);
        let img = pass(&mut scene, &bottom, faces);
        assert_eq!(rgba(&img, 16, 12, 12), [0, 0, 255, 255], "{gpu}");
        let stencil = |x, y| read_depth(&scene, gpu, depth, format, x, y)[3];
        assert_eq!(stencil(3, 3), 4, "{gpu}");
        assert_eq!(stencil(3, 12), 6, "{gpu}");
        assert_eq!(stencil(12, 3), 255, "{gpu}");
        assert_eq!(stencil(12, 12), 1, "{gpu}");
    }
}

#[test]
fn early_depth_writes_before_the_shader_kills() {
    // A fragment shader that kills every fragment, at z 0.25 over a
    // buffer of 1.0: tested late, nothing is written; tested early (the
    // RB before the shader), the depth is already written when the
    // shader kills, which is why drivers test late with discard.
    const KILL_FS: &str = "
        mov.u32u32 r1.x, 0
        cmps.u.eq p0.x, r1.x, 0
        kill p0.x
        end
    ";
    let v = rect(0.0, 0.0, 16.0, 16.0, 0.25, RED);
    for gpu in GPUS {
        for early in [false, true] {
            let mut rig = DrawRig::new(gpu);
            let target = rig.buffer(&vec![0u8; (pitch(SIZE.0) * SIZE.1) as usize]);
            let format = A6xxDepthFormat::DEPTH6_32;
            let bytes: Vec<u8> = (0..0x4000).flat_map(|_| texel(format, 1.0, 0)).collect();
            let depth = rig.buffer(&bytes);
            let mut scene = Scene::with_target(
                rig,
                SIZE,
                &v,
                KILL_FS,
                rgba8_target(regid(1, 0)),
                rgba8_buffer(target, pitch(SIZE.0)),
            );
            scene.framebuffer.depth = Some(DepthBuffer {
                base: depth,
                pitch: DEPTH_PITCH,
                array_pitch: u64::from(DEPTH_PITCH) * u64::from(SIZE.1),
                format,
                // a6xx's depth is TILE6_3 whatever this says.
                tile_mode: A6xxTileMode::TILE6_LINEAR,
                flags: None,
            });
            scene.pipeline.depth = Some(Depth {
                format,
                test: true,
                write: true,
                func: F::FUNC_LESS,
                bounds: None,
                clamp: None,
            });
            scene.pipeline.early_z = early;
            let img = scene.draw(PcDiPrimtype::DI_PT_TRILIST, 6);
            assert_eq!(rgba(&img, 16, 5, 5), [0; 4], "{gpu} early {early}");
            let want = if early { 0.25f32 } else { 1.0 };
            assert_eq!(
                read_depth(&scene, gpu, depth, format, 5, 5),
                want.to_bits().to_le_bytes().to_vec(),
                "{gpu} early {early}"
            );
        }
    }
}
