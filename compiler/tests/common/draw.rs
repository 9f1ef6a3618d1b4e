//! A hand-built draw on the simulated GPU: a test fixture standing in for the part of a
//! driver that runs a vertex and a fragment `CompiledShader` into one RGBA8 target.
//!
//! The pipeline state is programmed by `parsnip_hw_state::graphics` (the crate the driver
//! and the model's draw tests share) from what the compiler says: the attribute registers
//! and write masks of the vertex shader's stage information, the VPC layout
//! `varying_linkage::link` returns, the fragment shader's ij registers and colour
//! register. The fixture adds only what the shared crate leaves to its caller: the
//! shaders' code length (SP_VS_INSTRLEN, SP_FS_INSTRLEN) and the vertex shader's private
//! memory (SP_VS_PVT_MEM_*, sized as the dispatch fixture sizes a compute shader's). The
//! target starts as the clear colour the application's render pass clears it to.

use super::dispatch::{words_to_bytes, PrivateMemory, SimGpu};
use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::stage_info::{FragmentInfo, RegId, VertexInfo};
use parsnip_compiler::varying_linkage::link;
use parsnip_hw_state::draw::{draw_auto, draw_offsets};
use parsnip_hw_state::graphics::{
    program, Attribute, ColorBuffer, Framebuffer, Output, Pipeline, Target, VertexBuffer, Viewport,
};
use parsnip_hw_state::sink::StateWriter;
use parsnip_kernel_if::BoUse;
use parsnip_registers::enums::{A6xxFormat, A6xxThreadsize, PcDiPrimtype};

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

/// Draws `d`; returns the target's pixels, `pitch(width)` bytes a row.
pub fn render(gpu: &SimGpu, d: &Draw) -> Result<Vec<u8>, String> {
    let (vsi, fsi) = stages(d)?;
    let linkage = link(vsi, fsi).map_err(|e| e.to_string())?;
    let vs_code = gpu.bo_with(&words_to_bytes(&d.vs.code), "vertex shader")?;
    let fs_code = gpu.bo_with(&words_to_bytes(&d.fs.code), "fragment shader")?;
    let (w, h) = d.size;
    let image: Vec<u8> = (0..pitch(w) * h).map(|i| d.clear[i as usize % 4]).collect();
    let target_bo = gpu.bo_with(&image, "colour target")?;
    let colour = fsi
        .color_output(0)
        .ok_or("the fragment shader writes no colour 0")?;
    let format = A6xxFormat::FMT6_8_8_8_8_UNORM;
    let target = Target {
        format,
        write_mask: 0xf,
        blend: None,
        rop: None,
        srgb: false,
        output: u32::from(colour.reg.0),
        half: colour.half,
        integer: None,
    };
    let fb = Framebuffer::color(
        w,
        h,
        ColorBuffer::linear(target_bo.iova(), pitch(w), h, format),
    );
    let mut p = Pipeline::new(vs_code.iova(), Some(fs_code.iova()), Some(target));
    p.vs_full_regs = d.vs.full_regs.max(1);
    p.fs_full_regs = d.fs.full_regs.max(1);
    p.fs_half_regs = d.fs.half_regs;
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

    // The code's length in 16-instruction units.
    let units = |c: &CompiledShader| c.instr_count.div_ceil(16).max(1);
    p.vs_instrlen = units(d.vs);
    p.fs_instrlen = units(d.fs);
    let private = PrivateMemory::new(gpu.info, d.vs.private_bytes);
    let private_bo = if private.total > 0 {
        Some(gpu.bo_with(&vec![0u8; private.total as usize], "private memory")?)
    } else {
        None
    };
    p.vs_private = parsnip_hw_state::graphics::PrivateMemory {
        iova: private_bo.as_ref().map_or(0, |b| b.iova()),
        per_fiber: private.per_fiber,
        per_sp: private.per_sp,
    };
    let mut s = StateWriter::new(gpu.chip());
    program(&mut s, &p, &fb, &Viewport::full(w, h), &vertex_buffers).map_err(|e| e.to_string())?;
    draw_offsets(&mut s, 0, d.first_instance).map_err(|e| e.to_string())?;
    draw_auto(&mut s, d.primitive, d.vertices, d.instances).map_err(|e| e.to_string())?;
    let stream = gpu.bo_with(&words_to_bytes(&s.dwords), "command stream")?;
    let mut uses = vec![
        BoUse::read(&vs_code),
        BoUse::read(&fs_code),
        BoUse::write(&target_bo),
    ];
    uses.extend(buffers.iter().map(BoUse::read));
    uses.extend(private_bo.iter().map(BoUse::write));
    gpu.submit(&stream, s.dwords.len() as u32, &uses)?;
    let mut out = vec![0u8; image.len()];
    target_bo
        .read(0, &mut out)
        .map_err(|e| format!("reading the target back: {e}"))?;
    Ok(out)
}
