//! Descriptors in the vertex and fragment stages: textures (combined,
//! and a sampled image with a separate sampler), uniform buffers (with
//! dynamic offsets), storage buffers the fragment shader reads and writes,
//! push descriptors at the GRAPHICS bind point (direct and template), and
//! compute and graphics sets bound side by side. Each case draws into
//! draws.rs's 64x64 target and checks pixels worked out here (textures
//! sampled nearest at texel centres, so every interior pixel is exact);
//! the draws test compares the images with lavapipe's.

use super::draws::{
    floats, full, opaque, probe, quad, unorm8, Scene, BLUE, CLEAR, COLOR_LAYOUT, GREEN, RED, SIZE,
};
use super::pseudo_random::Sequence;
use super::render_passes::{color, read_back};
use super::step::{self, WORDS};
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{
    Bind, Dependency, GraphicsDesc, GraphicsLayout, Harness, Recorder, Slot, Texture, VertexBinding,
};
use crate::shaders::{self, Shader};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.textured_quad_nearest",
        run: textured_quad_nearest,
    },
    Case {
        name: "draws.texture_in_vertex_shader",
        run: texture_in_vertex_shader,
    },
    Case {
        name: "draws.separate_sampler_and_image",
        run: separate_sampler_and_image,
    },
    Case {
        name: "draws.uniform_colour_in_fragment_shader",
        run: uniform_colour,
    },
    Case {
        name: "draws.uniform_transform_in_vertex_shader",
        run: uniform_transform,
    },
    Case {
        name: "draws.dynamic_uniform_offsets",
        run: dynamic_uniform_offsets,
    },
    Case {
        name: "draws.storage_buffer_in_fragment_shader",
        run: storage_buffer,
    },
    Case {
        name: "draws.storage_buffer_in_vertex_shader",
        run: storage_buffer_in_vertex_shader,
    },
    Case {
        name: "draws.texel_buffer_and_storage_image_in_fragment_shader",
        run: texel_buffer_and_storage_image,
    },
    Case {
        name: "draws.push_descriptor_textures",
        run: push_descriptor_textures,
    },
    Case {
        name: "draws.compute_and_graphics_sets",
        run: compute_and_graphics_sets,
    },
];

const COMBINED: Slot = Slot {
    ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
    count: 1,
};
const SAMPLED: Slot = Slot {
    ty: vk::DescriptorType::SAMPLED_IMAGE,
    count: 1,
};
const SAMPLER: Slot = Slot {
    ty: vk::DescriptorType::SAMPLER,
    count: 1,
};

/// The vertex input of draws.rs's scene with the position alone.
const POSITIONS: [VertexBinding; 1] = [VertexBinding {
    stride: 28,
    per_instance: false,
    attributes: &[(0, vk::Format::R32G32B32_SFLOAT, 0)],
}];

/// Texels of the 4x4 test texture: each its own colour.
fn texel(i: u32, j: u32, seed: u32) -> [u8; 4] {
    let c = |k: u32| ((k * 67 + seed * 29) % 256) as u8;
    [c(i + 1), c(4 * j + 2), c(i * j + 3 + seed), 255]
}

fn texels(seed: u32) -> Vec<u8> {
    (0..4)
        .flat_map(|j| (0..4).flat_map(move |i| texel(i, j, seed)))
        .collect()
}

/// A 4x4 RGBA8 texture of [`texel`]s.
fn texture(h: &mut Harness, seed: u32) -> Result<Texture, Stop> {
    h.texture(vk::Format::R8G8B8A8_UNORM, [4, 4], &texels(seed))
}

/// The scene of draws.rs with `vertices`, the layout of `sets` (set
/// `push_set` a push descriptor set), and a pipeline of `vs` and `fs`
/// reading the scene's positions in it.
fn scene(
    h: &mut Harness,
    vertices: &[f32],
    vs: &'static Shader,
    fs: &'static Shader,
    sets: &[&[Slot]],
    push_set: Option<usize>,
) -> Result<(GraphicsLayout, Scene, vk::Pipeline), Stop> {
    let layout = h.graphics_layout(sets, push_set, 0)?;
    let scene = Scene::new(h, vertices, false)?;
    let desc = GraphicsDesc {
        vs,
        fs,
        bindings: &POSITIONS,
        ..scene.desc()
    };
    let pipeline = h.graphics_pipeline_in(&desc, layout.layout)?;
    Ok((layout, scene, pipeline))
}

/// Records `before`, then the scene's pass (cleared to CLEAR) with
/// `pipeline` and the vertex buffers bound and `body` in it, then `after`
/// and a dependency of the shaders' and dispatches' writes on the
/// host's reads; returns the image.
fn draw_between(
    h: &mut Harness,
    scene: &Scene,
    pipeline: vk::Pipeline,
    before: impl FnOnce(&Recorder<'_>),
    body: impl FnOnce(&Recorder<'_>),
    after: impl FnOnce(&Recorder<'_>),
) -> Result<Vec<u8>, Stop> {
    let t = &scene.t;
    h.run(|r| {
        before(r);
        r.begin_pass(t.pass, t.fb, full(), &[color(CLEAR)]);
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&scene.vb, &scene.offsets]);
        body(r);
        r.end_pass();
        after(r);
        r.barrier(Dependency::new(
            vk::PipelineStageFlags::VERTEX_SHADER
                | vk::PipelineStageFlags::FRAGMENT_SHADER
                | vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_WRITE,
            vk::PipelineStageFlags::HOST,
            vk::AccessFlags::HOST_READ,
        ));
    })?;
    read_back(h, &t.attachments[0].image, COLOR_LAYOUT, 4)
}

/// Draws the scene's first quad with `set` bound as set 0 of `layout`.
fn draw_one(
    h: &mut Harness,
    scene: &Scene,
    pipeline: vk::Pipeline,
    layout: &GraphicsLayout,
    set: vk::DescriptorSet,
) -> Result<Vec<u8>, Stop> {
    scene.draw(h, pipeline, |r| {
        r.bind_graphics_sets(layout, 0, &[set], &[]);
        r.draw(6, 1, 0, 0);
    })
}

/// [`draw_one`] after `before`, the shaders' writes made visible to the
/// host.
fn draw_one_to_host(
    h: &mut Harness,
    scene: &Scene,
    pipeline: vk::Pipeline,
    layout: &GraphicsLayout,
    set: vk::DescriptorSet,
    before: impl FnOnce(&Recorder<'_>),
) -> Result<Vec<u8>, Stop> {
    let body = |r: &Recorder<'_>| {
        r.bind_graphics_sets(layout, 0, &[set], &[]);
        r.draw(6, 1, 0, 0);
    };
    draw_between(h, scene, pipeline, before, body, |_| {})
}

/// Checks that each pixel of `at` is `want`.
fn probe_all(result: &mut CaseResult, img: &[u8], at: &[(u32, u32)], want: [u8; 4]) {
    for &(x, y) in at {
        probe(result, img, x, y, want);
    }
}

/// Checks that the pixels of window x in `xs` show the texture sampled at
/// the pixel centres (uv.vert's full-screen mapping: 16 pixels a texel),
/// a few pixels from each texel's edge included.
fn check_texture(result: &mut CaseResult, img: &[u8], xs: std::ops::Range<u32>, seed: u32) {
    for y in (0..SIZE.1).step_by(5) {
        for x in xs.clone().step_by(3) {
            probe(result, img, x, y, texel(x / 16, y / 16, seed));
        }
    }
}

/// A full-screen quad sampling a 4x4 texture (uploaded through a staging
/// copy) with a nearest, clamping combined image sampler.
fn textured_quad_nearest(h: &mut Harness) -> Result<CaseResult, Stop> {
    let full = quad(-1.0, -1.0, 1.0, 1.0, 0.5, RED);
    let (layout, scene, pipeline) = scene(
        h,
        &full,
        &shaders::UV_VERT,
        &shaders::TEXTURE_FRAG,
        &[&[COMBINED]],
        None,
    )?;
    let tex = texture(h, 0)?;
    let sampler = h.clamped_sampler(vk::Filter::NEAREST)?;
    let set = h.graphics_set(&layout, 0, &[Bind::Image(tex.info(sampler))])?;
    let img = draw_one(h, &scene, pipeline, &layout, set)?;
    let mut result = CaseResult::new();
    check_texture(&mut result, &img, 0..SIZE.0, 0);
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The vertex shader fetches each quad's colour from a texture: the left
/// quad texel (0, 1), the right one texel (1, 1).
fn texture_in_vertex_shader(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut v = quad(-0.75, -0.5, -0.25, 0.5, 0.5, RED);
    v.extend(quad(0.25, -0.5, 0.75, 0.5, 0.5, RED));
    let (layout, scene, pipeline) = scene(
        h,
        &v,
        &shaders::TEXEL_COLOUR_VERT,
        &shaders::COLOUR_FRAG,
        &[&[COMBINED]],
        None,
    )?;
    let tex = texture(h, 4)?;
    let sampler = h.clamped_sampler(vk::Filter::NEAREST)?;
    let set = h.graphics_set(&layout, 0, &[Bind::Image(tex.info(sampler))])?;
    let img = scene.draw(h, pipeline, |r| {
        r.bind_graphics_sets(&layout, 0, &[set], &[]);
        r.draw(12, 1, 0, 0);
    })?;
    let mut result = CaseResult::new();
    // Window x 8..24 and 40..56, y 16..48.
    probe_all(
        &mut result,
        &img,
        &[(8, 16), (23, 47), (16, 32)],
        texel(0, 1, 4),
    );
    probe_all(
        &mut result,
        &img,
        &[(40, 16), (55, 47), (48, 32)],
        texel(1, 1, 4),
    );
    probe_all(
        &mut result,
        &img,
        &[(32, 32), (7, 32), (56, 32)],
        unorm8(CLEAR),
    );
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The same quad through a SAMPLED_IMAGE and a SAMPLER in separate
/// bindings, combined in the shader.
fn separate_sampler_and_image(h: &mut Harness) -> Result<CaseResult, Stop> {
    let full = quad(-1.0, -1.0, 1.0, 1.0, 0.5, RED);
    let (layout, scene, pipeline) = scene(
        h,
        &full,
        &shaders::UV_VERT,
        &shaders::SEPARATE_SAMPLER_FRAG,
        &[&[SAMPLED, SAMPLER]],
        None,
    )?;
    let tex = texture(h, 1)?;
    let sampler = h.clamped_sampler(vk::Filter::NEAREST)?;
    let image_only = tex.info(vk::Sampler::null());
    let sampler_only = vk::DescriptorImageInfo {
        sampler,
        ..Default::default()
    };
    let set = h.graphics_set(
        &layout,
        0,
        &[Bind::Image(image_only), Bind::Image(sampler_only)],
    )?;
    let img = draw_one(h, &scene, pipeline, &layout, set)?;
    let mut result = CaseResult::new();
    check_texture(&mut result, &img, 0..SIZE.0, 1);
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// A uniform buffer of `floats`.
fn uniform(h: &mut Harness, values: &[f32]) -> Result<crate::harness::Buffer, Stop> {
    h.host_buffer_with(vk::BufferUsageFlags::UNIFORM_BUFFER, &floats(values))
}

/// The centre quad (window 16..48) in the colour of a uniform buffer the
/// fragment shader reads.
fn uniform_colour(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = quad(-0.5, -0.5, 0.5, 0.5, 0.5, RED);
    let (layout, scene, pipeline) = scene(
        h,
        &v,
        &shaders::UV_VERT,
        &shaders::UNIFORM_COLOUR_FRAG,
        &[&[Slot::UNIFORM]],
        None,
    )?;
    let colour = [0.25f32, 0.75, 0.5, 1.0];
    let ubo = uniform(h, &colour)?;
    let set = h.graphics_set(&layout, 0, &[Bind::whole(&ubo)])?;
    let img = draw_one(h, &scene, pipeline, &layout, set)?;
    let mut result = CaseResult::new();
    probe_all(
        &mut result,
        &img,
        &[(16, 16), (47, 47), (32, 32), (16, 47), (47, 16)],
        unorm8(colour),
    );
    probe_all(
        &mut result,
        &img,
        &[(15, 32), (48, 32), (32, 15), (32, 48), (0, 0), (63, 63)],
        unorm8(CLEAR),
    );
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// A quad of NDC [-0.5, 0.5) scaled by (0.5, 1) and moved by (0.5, -0.25)
/// in the vertex shader, from a uniform buffer that also gives its colour:
/// window x 40..56, y 8..40.
fn uniform_transform(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = quad(-0.5, -0.5, 0.5, 0.5, 0.5, RED);
    let (layout, scene, pipeline) = scene(
        h,
        &v,
        &shaders::UNIFORM_TRANSFORM_VERT,
        &shaders::COLOUR_FRAG,
        &[&[Slot::UNIFORM]],
        None,
    )?;
    let ubo = uniform(h, &[0.5, 1.0, 0.5, -0.25, 0.0, 0.0, 1.0, 1.0])?;
    let set = h.graphics_set(&layout, 0, &[Bind::whole(&ubo)])?;
    let img = draw_one(h, &scene, pipeline, &layout, set)?;
    let mut result = CaseResult::new();
    probe_all(
        &mut result,
        &img,
        &[(40, 8), (55, 39), (48, 24), (40, 39), (55, 8)],
        opaque(BLUE),
    );
    probe_all(
        &mut result,
        &img,
        &[(39, 24), (56, 24), (48, 7), (48, 40), (24, 24), (32, 50)],
        unorm8(CLEAR),
    );
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Bytes between the two colours of the dynamic uniform buffer: a
/// multiple of every minUniformBufferOffsetAlignment (at most 256).
const DYNAMIC_STRIDE: usize = 256;

/// One set with a dynamic uniform buffer, bound twice with different
/// dynamic offsets: the left quad in the colour at offset 0, the right one
/// in the colour at offset 256.
fn dynamic_uniform_offsets(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut v = quad(-0.75, -0.5, -0.25, 0.5, 0.5, RED);
    v.extend(quad(0.25, -0.5, 0.75, 0.5, 0.5, RED));
    let (layout, scene, pipeline) = scene(
        h,
        &v,
        &shaders::UV_VERT,
        &shaders::UNIFORM_COLOUR_FRAG,
        &[&[Slot::UNIFORM_DYNAMIC]],
        None,
    )?;
    let (left, right) = ([0.0f32, 0.5, 1.0, 1.0], [1.0f32, 0.25, 0.0, 1.0]);
    let mut values = vec![0.0f32; 2 * DYNAMIC_STRIDE / 4];
    values[..4].copy_from_slice(&left);
    values[DYNAMIC_STRIDE / 4..DYNAMIC_STRIDE / 4 + 4].copy_from_slice(&right);
    let ubo = uniform(h, &values)?;
    let set = h.graphics_set(&layout, 0, &[Bind::range(&ubo, 0, 16)])?;
    let img = scene.draw(h, pipeline, |r| {
        r.bind_graphics_sets(&layout, 0, &[set], &[0]);
        r.draw(6, 1, 0, 0);
        r.bind_graphics_sets(&layout, 0, &[set], &[DYNAMIC_STRIDE as u32]);
        r.draw(6, 1, 6, 0);
    })?;
    let mut result = CaseResult::new();
    // Window x 8..24 and 40..56, y 16..48.
    probe_all(
        &mut result,
        &img,
        &[(8, 16), (23, 47), (16, 32)],
        unorm8(left),
    );
    probe_all(
        &mut result,
        &img,
        &[(40, 16), (55, 47), (48, 32)],
        unorm8(right),
    );
    probe_all(
        &mut result,
        &img,
        &[(32, 32), (7, 32), (24, 32), (39, 32), (56, 32), (16, 15)],
        unorm8(CLEAR),
    );
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The fragment shader reads and writes a storage buffer word per pixel
/// and counts its fragments with an atomic: the centre quad (window
/// 16..48, 32x32 pixels, each covered by exactly one of its triangles)
/// turns each of its pixels' words w into 3w + 1, leaves the others, and
/// counts 1024 fragments.
fn storage_buffer(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().fragment_stores_and_atomics {
        return Err(Stop::NotSupported("fragmentStoresAndAtomics".into()));
    }
    let v = quad(-0.5, -0.5, 0.5, 0.5, 0.5, RED);
    let (layout, scene, pipeline) = scene(
        h,
        &v,
        &shaders::UV_VERT,
        &shaders::STORAGE_FRAG,
        &[&[Slot::STORAGE, Slot::STORAGE]],
        None,
    )?;
    let pixels = (SIZE.0 * SIZE.1) as usize;
    let initial = Sequence::new(17).u32s(pixels);
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let words = h.host_buffer_with(usage, &to_bytes(&initial))?;
    let count = h.host_buffer_with(usage, &to_bytes(&[0u32]))?;
    let set = h.graphics_set(&layout, 0, &[Bind::whole(&words), Bind::whole(&count)])?;
    let img = draw_one_to_host(h, &scene, pipeline, &layout, set, |_| {})?;
    let inside = |i: usize| {
        let (x, y) = (i as u32 % SIZE.0, i as u32 / SIZE.0);
        (16..48).contains(&x) && (16..48).contains(&y)
    };
    let want: Vec<u32> = initial
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if inside(i) {
                w.wrapping_mul(3).wrapping_add(1)
            } else {
                w
            }
        })
        .collect();
    let mut result = CaseResult::new();
    result.check("words", &h.read_as::<u32>(&words)?, &want);
    result.check("fragments", &h.read_as::<u32>(&count)?, &[32 * 32]);
    for (x, y) in [(16, 16), (47, 47), (30, 20), (16, 47)] {
        let w = want[(y * SIZE.0 + x) as usize];
        probe(&mut result, &img, x, y, [(w & 255) as u8, 255, 0, 255]);
    }
    probe_all(
        &mut result,
        &img,
        &[(15, 32), (48, 32), (0, 0)],
        unorm8(CLEAR),
    );
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The vertex shader writes a storage buffer: each of the centre quad's
/// six vertices stores 2p + (1, 0.5) of its position p at its index (a
/// value that does not depend on how often a vertex runs).
fn storage_buffer_in_vertex_shader(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().vertex_pipeline_stores_and_atomics {
        return Err(Stop::NotSupported("vertexPipelineStoresAndAtomics".into()));
    }
    let v = quad(-0.5, -0.5, 0.5, 0.5, 0.5, RED);
    let (layout, scene, pipeline) = scene(
        h,
        &v,
        &shaders::STORAGE_VERT,
        &shaders::COLOUR_FRAG,
        &[&[Slot::STORAGE]],
        None,
    )?;
    let words = h.host_buffer_with(vk::BufferUsageFlags::STORAGE_BUFFER, &floats(&[-9.0; 12]))?;
    let set = h.graphics_set(&layout, 0, &[Bind::whole(&words)])?;
    let img = draw_one_to_host(h, &scene, pipeline, &layout, set, |_| {})?;
    // quad()'s vertices: position (x, y, z) then colour, 7 floats each.
    let want: Vec<f32> = v
        .chunks_exact(7)
        .flat_map(|p| [p[0] * 2.0 + 1.0, p[1] * 2.0 + 0.5])
        .collect();
    let mut result = CaseResult::new();
    result.check("positions", &h.read_as::<f32>(&words)?, &want);
    probe_all(
        &mut result,
        &img,
        &[(16, 16), (47, 47), (32, 32)],
        opaque([1.0, 1.0, 0.0]),
    );
    probe_all(
        &mut result,
        &img,
        &[(15, 32), (48, 32), (0, 0)],
        unorm8(CLEAR),
    );
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The full-screen quad coloured from a uniform texel buffer (R32_UINT,
/// a packed RGBA8 colour for each 16x16 block) that the fragment shader
/// fetches, and writing each colour's word, mixed with the pixel's
/// position, into a 64x64 R32_UINT storage image, read back.
fn texel_buffer_and_storage_image(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().fragment_stores_and_atomics {
        return Err(Stop::NotSupported("fragmentStoresAndAtomics".into()));
    }
    let storage_image = Slot {
        ty: vk::DescriptorType::STORAGE_IMAGE,
        count: 1,
    };
    let full = quad(-1.0, -1.0, 1.0, 1.0, 0.5, RED);
    let (layout, scene, pipeline) = scene(
        h,
        &full,
        &shaders::UV_VERT,
        &shaders::TEXEL_AND_IMAGE_FRAG,
        &[&[Slot::UNIFORM_TEXEL, storage_image]],
        None,
    )?;
    let palette: Vec<u32> = Sequence::new(23)
        .u32s(16)
        .iter()
        .map(|w| w | 0xff00_0000)
        .collect();
    let buffer = h.host_buffer_with(
        vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER,
        &to_bytes(&palette),
    )?;
    let view = h.buffer_view(
        &buffer,
        vk::Format::R32_UINT,
        0,
        vk::WHOLE_SIZE,
        vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
    )?;
    let marks = h.host_image(
        vk::Format::R32_UINT,
        [SIZE.0, SIZE.1],
        4,
        vk::ImageUsageFlags::STORAGE,
        vk::FormatFeatureFlags::STORAGE_IMAGE,
    )?;
    let marks_info = vk::DescriptorImageInfo {
        sampler: vk::Sampler::null(),
        image_view: h.image_view(&marks.image, vk::ImageViewType::TYPE_2D)?,
        image_layout: vk::ImageLayout::GENERAL,
    };
    let set = h.graphics_set(&layout, 0, &[Bind::Texel(view), Bind::Image(marks_info)])?;
    let img = draw_one_to_host(h, &scene, pipeline, &layout, set, |r| {
        r.for_shaders_at(&[&marks], vk::PipelineStageFlags::FRAGMENT_SHADER)
    })?;
    let colour = |x: u32, y: u32| palette[(x / 16 + 4 * (y / 16)) as usize];
    let want: Vec<u32> = (0..SIZE.1)
        .flat_map(|y| (0..SIZE.0).map(move |x| colour(x, y) ^ (x * 64 + y)))
        .collect();
    let mut result = CaseResult::new();
    let got: Vec<u32> = h
        .read_image(&marks)?
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    result.check("marks", &got, &want);
    for y in (0..SIZE.1).step_by(5) {
        for x in (0..SIZE.0).step_by(3) {
            probe(&mut result, &img, x, y, colour(x, y).to_le_bytes());
        }
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Push descriptors at the GRAPHICS bind point: the left half samples
/// texture 2, pushed with vkCmdPushDescriptorSetKHR, the right half
/// texture 3, pushed through a descriptor update template; each draw reads
/// what was pushed before it.
fn push_descriptor_textures(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().push_descriptor {
        return Err(Stop::NotSupported("VK_KHR_push_descriptor".into()));
    }
    let mut v = quad(-1.0, -1.0, 0.0, 1.0, 0.5, RED);
    v.extend(quad(0.0, -1.0, 1.0, 1.0, 0.5, RED));
    let (layout, scene, pipeline) = scene(
        h,
        &v,
        &shaders::UV_VERT,
        &shaders::TEXTURE_FRAG,
        &[&[COMBINED]],
        Some(0),
    )?;
    let (left, right) = (texture(h, 2)?, texture(h, 3)?);
    let sampler = h.clamped_sampler(vk::Filter::NEAREST)?;
    let entries = [vk::DescriptorUpdateTemplateEntry {
        dst_binding: 0,
        dst_array_element: 0,
        descriptor_count: 1,
        descriptor_type: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        offset: 0,
        stride: std::mem::size_of::<vk::DescriptorImageInfo>(),
    }];
    let info = vk::DescriptorUpdateTemplateCreateInfo::default()
        .descriptor_update_entries(&entries)
        .template_type(vk::DescriptorUpdateTemplateType::PUSH_DESCRIPTORS_KHR)
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .pipeline_layout(layout.layout)
        .set(0);
    // SAFETY: the device and the layout are alive; `entries` outlives the
    // call.
    let template = unsafe { h.device().create_descriptor_update_template(&info, None) }
        .or_stop("vkCreateDescriptorUpdateTemplate")?;
    let template = h.own(template);
    let push = ash::khr::push_descriptor::Device::new(h.instance(), h.device());
    let left_info = [left.info(sampler)];
    let right_info = [right.info(sampler)];
    let img = scene.draw(h, pipeline, |r| {
        let write = vk::WriteDescriptorSet::default()
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .image_info(&left_info);
        // SAFETY: the command buffer is recording; set 0 of the layout is
        // a push descriptor layout; the views, the sampler and the template
        // are alive, and the data the template reads outlives the call.
        unsafe {
            push.cmd_push_descriptor_set(
                r.command_buffer(),
                vk::PipelineBindPoint::GRAPHICS,
                layout.layout,
                0,
                &[write],
            );
        }
        r.draw(6, 1, 0, 0);
        // SAFETY: as above.
        unsafe {
            push.cmd_push_descriptor_set_with_template(
                r.command_buffer(),
                template,
                layout.layout,
                0,
                right_info.as_ptr().cast(),
            );
        }
        r.draw(6, 1, 6, 0);
    })?;
    let mut result = CaseResult::new();
    check_texture(&mut result, &img, 0..32, 2);
    check_texture(&mut result, &img, 32..64, 3);
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Compute and graphics sets bound at once, each at set 0 of its own bind
/// point, used in turn: the graphics set bound first, then a compute
/// dispatch (step.comp, A -> B) through its own set; another compute set
/// (B -> C) bound before the pass; in the pass the left quad reads the
/// graphics set (green), then a rebound graphics set makes the right quad
/// red; after the pass a dispatch with no compute rebind must still read
/// the compute set (B -> C).
fn compute_and_graphics_sets(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut v = quad(-0.75, -0.5, -0.25, 0.5, 0.5, RED);
    v.extend(quad(0.25, -0.5, 0.75, 0.5, 0.5, RED));
    let (layout, scene, pipeline) = scene(
        h,
        &v,
        &shaders::UV_VERT,
        &shaders::UNIFORM_COLOUR_FRAG,
        &[&[Slot::UNIFORM]],
        None,
    )?;
    let green = uniform(h, &[0.0, 1.0, 0.0, 1.0])?;
    let red = uniform(h, &[1.0, 0.0, 0.0, 1.0])?;
    let green_set = h.graphics_set(&layout, 0, &[Bind::whole(&green)])?;
    let red_set = h.graphics_set(&layout, 0, &[Bind::whole(&red)])?;

    let step_pipeline = step::pipeline(h)?;
    let initial = Sequence::new(5).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let c = step::buffer(h, None)?;
    let a_to_b = step::set(h, &step_pipeline, &a, &b)?;
    let b_to_c = step::set(h, &step_pipeline, &b, &c)?;

    let img = draw_between(
        h,
        &scene,
        pipeline,
        |r| {
            r.bind_graphics_sets(&layout, 0, &[green_set], &[]);
            step::record(r, &step_pipeline, a_to_b, 1);
            r.barrier(Dependency::COMPUTE_TO_COMPUTE);
            r.bind_sets(&step_pipeline, 0, &[b_to_c]);
        },
        |r| {
            r.draw(6, 1, 0, 0);
            r.bind_graphics_sets(&layout, 0, &[red_set], &[]);
            r.draw(6, 1, 6, 0);
        },
        |r| {
            r.push_constants(&step_pipeline, 0, &to_bytes(&[2u32]));
            r.dispatch(WORDS as u32 / 64, 1, 1);
        },
    )?;
    let mut result = CaseResult::new();
    let first = step::step(&initial, 1);
    result.check("b", &h.read_as::<u32>(&b)?, &first);
    result.check("c", &h.read_as::<u32>(&c)?, &step::step(&first, 2));
    probe_all(
        &mut result,
        &img,
        &[(8, 16), (23, 47), (16, 32)],
        opaque(GREEN),
    );
    probe_all(
        &mut result,
        &img,
        &[(40, 16), (55, 47), (48, 32)],
        opaque(RED),
    );
    probe_all(
        &mut result,
        &img,
        &[(32, 32), (7, 32), (56, 32)],
        unorm8(CLEAR),
    );
    result.keep_approximate("rgba8", img);
    Ok(result)
}
