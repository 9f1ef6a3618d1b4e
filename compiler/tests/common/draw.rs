//! A hand-built draw on the simulated GPU: a test fixture standing in for the part of a
//! driver that runs a vertex and a fragment `CompiledShader` into its colour targets (one
//! RGBA8 target unless the test gives others) and an optional depth buffer.
//!
//! The pipeline state is programmed by `parsnip_hw_state::graphics` (the crate the driver
//! and the model's draw tests share) from what the compiler says: the attribute registers
//! and write masks of the vertex shader's stage information, the VPC layout
//! `varying_linkage::link` returns, the fragment shader's ij registers and colour
//! register. The fixture adds only what the shared crate leaves to its caller: the
//! shaders' code length (SP_VS_INSTRLEN, SP_FS_INSTRLEN), their private memory
//! (SP_VS_PVT_MEM_*, SP_FS_PVT_MEM_*, sized as the dispatch fixture sizes a compute
//! shader's) and the descriptor sets of the textures they sample (`common::textures`).
//! The targets start as the clear values the application's render pass clears them to.

use super::dispatch::{words_to_bytes, PrivateMemory, SimGpu};
use super::textures::{bind, Bound};
use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::stage_info::{FragmentInfo, RegId, VertexInfo};
use parsnip_compiler::varying_linkage::link;
use parsnip_hw_state::draw::{draw_auto, draw_offsets, Primitive};
use parsnip_hw_state::graphics::{
    program, Attribute, ColorBuffer, Depth, DepthBuffer, Framebuffer, Output, Pipeline, Target,
    VertexBuffer, Viewport,
};
use parsnip_hw_state::sink::StateWriter;
use parsnip_kernel_if::BoUse;
use parsnip_registers::enums::{
    A6xxDepthFormat, A6xxFormat, A6xxThreadsize, A6xxTileMode, AdrenoCompareFunc, PcDiPrimtype,
};

/// One vertex attribute as the application's vertex input state gives it.
pub struct VertexAttribute<'a> {
    pub location: u32,
    pub data: &'a [u8],
    pub offset: u32,
    pub stride: u32,
    pub format: A6xxFormat,
    /// Whether the format converts to floats (UNORM and FLOAT formats).
    pub float: bool,
    pub per_instance: bool,
}

/// What to draw.
pub struct Draw<'a> {
    pub vs: &'a CompiledShader,
    pub fs: &'a CompiledShader,
    pub attributes: Vec<VertexAttribute<'a>>,
    pub primitive: PcDiPrimtype,
    pub vertices: u32,
    pub instances: u32,
    pub first_instance: u32,
    pub size: (u32, u32),
    /// The render pass's clear colour, RGBA8.
    pub clear: [u8; 4],
}

/// Bytes per row of the linear target.
pub fn pitch(width: u32) -> u32 {
    (width * 4).next_multiple_of(64)
}

fn stages<'a>(d: &Draw<'a>) -> Result<(&'a VertexInfo, &'a FragmentInfo), String> {
    let vs =
        d.vs.stage
            .vertex()
            .ok_or("the first shader is not a vertex shader")?;
    let fs =
        d.fs.stage
            .fragment()
            .ok_or("the second shader is not a fragment shader")?;
    Ok((vs, fs))
}

/// A colour attachment (the i-th is the fragment shader's location i): `bytes` a pixel,
/// every pixel starting as `clear`.
pub struct ColourAttachment {
    pub format: A6xxFormat,
    pub bytes: u32,
    /// Some(true): a signed integer format, Some(false): unsigned, None: normalised or
    /// float (SP_FS_MRT's COLOR_SINT/COLOR_UINT).
    pub integer: Option<bool>,
    pub clear: Vec<u8>,
}

/// A DEPTH6_32 depth buffer starting as `clear`, tested with `func` and written.
pub struct DepthAttachment {
    pub clear: f32,
    pub func: AdrenoCompareFunc,
}

/// The render pass: its colour attachments (none: one RGBA8 target for location 0 with
/// the draw's clear colour) and depth buffer; and the textures and samplers the shaders
/// sample.
#[derive(Default)]
pub struct Attachments {
    pub colour: Vec<ColourAttachment>,
    pub depth: Option<DepthAttachment>,
    pub textures: Vec<Bound>,
}

/// Bytes per row of a depth buffer (a multiple of its tiles' row on a6xx).
const DEPTH_PITCH: u32 = 1024;

/// Draws `d`; returns the target's pixels, `pitch(width)` bytes a row.
pub fn render(gpu: &SimGpu, d: &Draw) -> Result<Vec<u8>, String> {
    Ok(render_to(gpu, d, &Attachments::default())?.remove(0))
}

/// Draws `d` into `attachments`; returns each colour attachment's pixels, `width * bytes`
/// (rounded up to 64) a row.
pub fn render_to(gpu: &SimGpu, d: &Draw, a: &Attachments) -> Result<Vec<Vec<u8>>, String> {
    let (vsi, fsi) = stages(d)?;
    let linkage = link(vsi, fsi).map_err(|e| e.to_string())?;
    let vs_code = gpu.bo_with(&words_to_bytes(&d.vs.code), "vertex shader")?;
    let fs_code = gpu.bo_with(&words_to_bytes(&d.fs.code), "fragment shader")?;
    let (w, h) = d.size;
    let rgba8 = [ColourAttachment {
        format: A6xxFormat::FMT6_8_8_8_8_UNORM,
        bytes: 4,
        integer: None,
        clear: d.clear.to_vec(),
    }];
    let colours = if a.colour.is_empty() {
        &rgba8[..]
    } else {
        &a.colour[..]
    };
    let mut targets = Vec::new();
    let mut colour_buffers = Vec::new();
    let mut target_bos = Vec::new();
    for (location, c) in colours.iter().enumerate() {
        let row = (w * c.bytes).next_multiple_of(64);
        let image: Vec<u8> = (0..row * h)
            .map(|i| c.clear[(i % c.bytes) as usize])
            .collect();
        let bo = gpu.bo_with(&image, "colour target")?;
        let out = fsi
            .color_output(location as u32)
            .ok_or_else(|| format!("the fragment shader writes no colour {location}"))?;
        targets.push(Target {
            output: u32::from(out.reg.0),
            half: out.half,
            integer: c.integer,
            ..Target::new(c.format, 0)
        });
        colour_buffers.push(ColorBuffer::linear(bo.iova(), row, h, c.format));
        target_bos.push((bo, image.len()));
    }
    let depth_bo = match &a.depth {
        Some(z) => {
            // The same bytes in every texel, whatever the layout.
            let bytes: Vec<u8> = (0..DEPTH_PITCH * h.next_multiple_of(32) / 4)
                .flat_map(|_| z.clear.to_le_bytes())
                .collect();
            Some(gpu.bo_with(&bytes, "depth buffer")?)
        }
        None => None,
    };
    let mut fb = Framebuffer {
        width: w,
        height: h,
        colors: colour_buffers,
        depth: None,
        gmem: Default::default(),
    };
    let mut p = Pipeline::new(vs_code.iova(), Some(fs_code.iova()), None);
    p.targets = targets;
    if let (Some(z), Some(bo)) = (&a.depth, &depth_bo) {
        fb.depth = Some(DepthBuffer {
            base: bo.iova(),
            pitch: DEPTH_PITCH,
            array_pitch: u64::from(DEPTH_PITCH) * u64::from(h.next_multiple_of(32)),
            format: A6xxDepthFormat::DEPTH6_32,
            tile_mode: A6xxTileMode::TILE6_LINEAR,
            flags: None,
        });
        p.depth = Some(Depth {
            format: A6xxDepthFormat::DEPTH6_32,
            test: true,
            write: true,
            func: z.func,
            bounds: None,
            clamp: None,
        });
    }
    p.vs_full_regs = d.vs.full_regs.max(1);
    p.fs_full_regs = d.fs.full_regs.max(1);
    p.fs_half_regs = d.fs.half_regs;
    for (b, shader) in [(&mut p.vs_bindless, d.vs), (&mut p.fs_bindless, d.fs)] {
        b.tex = shader.bindless_textures;
        b.samp = shader.bindless_samplers;
    }
    p.fs_threadsize = if d.fs.wave_size == 128 {
        A6xxThreadsize::THREAD128
    } else {
        A6xxThreadsize::THREAD64
    };
    let mut buffers = Vec::new();
    let mut vertex_buffers = Vec::new();
    for input in &vsi.inputs {
        let a = d
            .attributes
            .iter()
            .find(|a| a.location == input.location)
            .ok_or_else(|| format!("no attribute for location {}", input.location))?;
        let bo = gpu.bo_with(a.data, "vertex buffer")?;
        // A fetch slot for each attribute, each of its own buffer.
        p.attributes.push(Attribute {
            binding: vertex_buffers.len() as u32,
            offset: a.offset,
            format: a.format,
            float: a.float,
            instanced: a.per_instance,
            step_rate: 1,
            regid: u32::from(input.reg.0),
            mask: u32::from(input.write_mask()),
        });
        vertex_buffers.push(VertexBuffer {
            base: bo.iova(),
            size: a.data.len() as u32,
            stride: a.stride,
        });
        buffers.push(bo);
    }
    let field = |r: Option<RegId>| RegId::field(r);
    p.vertex_id = field(vsi.vertex_id_reg);
    p.instance_id = field(vsi.instance_id_reg);
    p.outputs = linkage
        .outputs
        .iter()
        .map(|o| Output {
            regid: u32::from(o.reg.0),
            mask: u32::from(o.mask),
            location: o.location,
        })
        .collect();
    p.stride = linkage.stride;
    p.position = linkage.position_location;
    p.point_size = linkage.point_size_location;
    p.enabled = linkage.enabled;
    for l in 0..128u32 {
        if linkage.is_flat(l) {
            // VPC_VARYING_INTERP: two bits a location, 1 = INTERP_FLAT (a6xx.xml).
            p.interp[l as usize / 16] |= 1 << (2 * (l % 16));
        }
    }
    let b = &fsi.barycentrics;
    p.ij_persp_pixel = field(b.persp_pixel);
    p.ij_linear_pixel = field(b.linear_pixel);
    p.ij_persp_centroid = field(b.persp_centroid);
    p.ij_persp_sample = field(b.persp_sample);
    p.xy = field(fsi.frag_coord_xy_reg);
    p.zw = field(fsi.frag_coord_zw_reg);
    p.face = field(fsi.front_facing_reg);
    p.sample_id = field(fsi.sample_id_reg);
    p.sample_mask_in = field(fsi.sample_mask_in_reg);
    p.depth_out = field(fsi.depth_reg);
    p.sample_mask_out = field(fsi.sample_mask_reg);
    p.per_sample = fsi.per_sample;

    // The code's length in 16-instruction units.
    let units = |c: &CompiledShader| c.instr_count.div_ceil(16).max(1);
    p.vs_instrlen = units(d.vs);
    p.fs_instrlen = units(d.fs);
    // Each stage's private memory, sized as the dispatch fixture sizes a compute
    // shader's.
    let mut private_bos = Vec::new();
    let mut private_memory =
        |shader: &CompiledShader| -> Result<parsnip_hw_state::graphics::PrivateMemory, String> {
            let private = PrivateMemory::new(gpu.info, shader.private_bytes);
            let mut iova = 0;
            if private.total > 0 {
                let bo = gpu.bo_with(&vec![0u8; private.total as usize], "private memory")?;
                iova = bo.iova();
                private_bos.push(bo);
            }
            Ok(parsnip_hw_state::graphics::PrivateMemory {
                iova,
                per_fiber: private.per_fiber,
                per_sp: private.per_sp,
            })
        };
    p.vs_private = private_memory(d.vs)?;
    p.fs_private = private_memory(d.fs)?;
    let mut s = StateWriter::new(gpu.chip());
    program(&mut s, &p, &fb, &Viewport::full(w, h), &vertex_buffers).map_err(|e| e.to_string())?;
    let texture_bos = bind(gpu, &mut s, &a.textures)?;
    draw_offsets(&mut s, 0, d.first_instance).map_err(|e| e.to_string())?;
    draw_auto(
        &mut s,
        Primitive::always(d.primitive),
        d.vertices,
        d.instances,
    )
    .map_err(|e| e.to_string())?;
    let stream = gpu.bo_with(&words_to_bytes(&s.dwords), "command stream")?;
    let mut uses = vec![BoUse::read(&vs_code), BoUse::read(&fs_code)];
    uses.extend(target_bos.iter().map(|(bo, _)| BoUse::write(bo)));
    uses.extend(buffers.iter().map(BoUse::read));
    uses.extend(private_bos.iter().map(BoUse::write));
    uses.extend(depth_bo.iter().map(BoUse::write));
    uses.extend(texture_bos.iter().map(BoUse::read));
    gpu.submit(&stream, s.dwords.len() as u32, &uses)?;
    target_bos
        .iter()
        .map(|(bo, len)| {
            let mut out = vec![0u8; *len];
            bo.read(0, &mut out)
                .map_err(|e| format!("reading a target back: {e}"))?;
            Ok(out)
        })
        .collect()
}
