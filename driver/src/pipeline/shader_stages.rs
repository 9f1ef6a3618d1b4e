//! A graphics pipeline's vertex and fragment shaders in the shared state
//! description (`parsnip_hw_state::graphics::Pipeline`): where their code
//! is and how big, the registers the compiler's stage information names
//! (vertex attributes and ids, outputs, barycentrics, colour outputs), and
//! the VPC layout of their link (`parsnip_compiler::varying_linkage`).
//!
//! Vertex attributes take their fetch format and layout from Vulkan's
//! vertex input state; the buffers' addresses are the draw's (set when
//! vertex buffers are bound).

use ash::vk;
use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::stage_info::{FragmentInfo, RegId, VaryingSlot, VertexInfo};
use parsnip_compiler::varying_linkage::VaryingLinkage;
use parsnip_hw_state::graphics::{Attribute, Bindless, Output, Pipeline};
use parsnip_hw_state::NONE;

use super::compile::const_len;
use super::program::threadsize;
use crate::error::VkResult;
use crate::formats::{self, Class};
use crate::gpu_info::GpuInfo;

/// One compiled stage and where its code is.
#[derive(Clone, Copy)]
pub struct StageCode<'a> {
    pub shader: &'a CompiledShader,
    pub iova: u64,
}

/// One Vulkan vertex attribute with its binding's stride and input rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexAttribute {
    pub location: u32,
    pub binding: u32,
    pub format: vk::Format,
    pub offset: u32,
    pub stride: u32,
    pub per_instance: bool,
    /// Instances per step of a per-instance attribute
    /// (VK_EXT_vertex_attribute_divisor; 1 without it).
    pub divisor: u32,
}

fn refuse<T>(what: String) -> VkResult<T> {
    eprintln!("parsnip: vkCreateGraphicsPipelines: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

fn reg(r: Option<RegId>) -> u32 {
    RegId::field(r)
}

/// VPC_VARYING_INTERP: two bits a location, sixteen locations a register;
/// flat is mode 1 (a6xx.xml), smooth 0.
fn interp_modes(linkage: &VaryingLinkage) -> [u32; 8] {
    let mut modes = [0u32; 8];
    for location in 0..128 {
        if linkage.is_flat(location) {
            modes[location as usize / 16] |= 1 << (2 * (location % 16));
        }
    }
    modes
}

fn vertex_input(p: &mut Pipeline, vs: &VertexInfo, attributes: &[VertexAttribute]) -> VkResult<()> {
    p.attributes.clear();
    for input in &vs.inputs {
        let Some(a) = attributes.iter().find(|a| a.location == input.location) else {
            return refuse(format!(
                "the vertex shader reads location {} which no attribute provides",
                input.location
            ));
        };
        let Some(f) = formats::format(a.format).filter(|f| formats::vertex_fetch(f)) else {
            return refuse(format!("vertex format {:?}", a.format));
        };
        // The binding's buffer and stride are the draw's (its vertex
        // buffers).
        p.attributes.push(Attribute {
            binding: a.binding,
            offset: a.offset,
            format: f.hw,
            float: !matches!(f.class, Class::Uint | Class::Sint),
            instanced: a.per_instance,
            step_rate: a.divisor.max(1),
            regid: u32::from(input.reg.0),
            mask: u32::from(input.write_mask()),
        });
    }
    p.vertex_id = reg(vs.vertex_id_reg);
    p.instance_id = reg(vs.instance_id_reg);
    Ok(())
}

fn varyings(p: &mut Pipeline, vs: &VertexInfo, linkage: &VaryingLinkage) {
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
    p.non_position_varyings = linkage.varying_locations;
    p.interp = interp_modes(linkage);
    p.repl = [0; 8];
    p.clip_distances = (1u32 << vs.clip_distances) - 1;
    p.cull_distances = ((1u32 << vs.cull_distances) - 1) << vs.clip_distances;
    p.clip_location = linkage.clip_cull_locations[0].unwrap_or(0);
}

/// Which descriptor kinds `shader` reads through bindless bases: textures
/// and samplers as the compiler reports them; buffers and images always,
/// as Parsnip binds every one bindless (the compute program does the same
/// for IBOs).
fn bindless(shader: &CompiledShader) -> Bindless {
    Bindless {
        tex: shader.bindless_textures,
        samp: shader.bindless_samplers,
        ibo: true,
        ubo: true,
    }
}

/// The fragment stage; `writes_memory`: it stores to buffers or images, so
/// it runs before the depth test (its side effects happen for every
/// rasterised fragment) unless it asks for early fragment tests.
fn fragment(p: &mut Pipeline, fs: &FragmentInfo, writes_memory: bool) -> VkResult<()> {
    let ij = &fs.barycentrics;
    p.ij_persp_pixel = reg(ij.persp_pixel);
    p.ij_linear_pixel = reg(ij.linear_pixel);
    p.ij_persp_centroid = reg(ij.persp_centroid);
    p.ij_persp_sample = reg(ij.persp_sample);
    if ij.linear_centroid.is_some() || ij.linear_sample.is_some() {
        return refuse("noperspective centroid or sample inputs are not built yet".into());
    }
    p.xy = reg(fs.frag_coord_xy_reg);
    p.zw = reg(fs.frag_coord_zw_reg);
    p.face = reg(fs.front_facing_reg);
    p.sample_id = reg(fs.sample_id_reg);
    p.sample_mask_in = reg(fs.sample_mask_in_reg);
    p.per_sample = fs.per_sample;
    p.depth_out = reg(fs.depth_reg);
    p.sample_mask_out = reg(fs.sample_mask_reg);
    p.stencil_ref_out = NONE;
    p.early_z =
        fs.early_fragment_tests || (!fs.discards && fs.depth_reg.is_none() && !writes_memory);
    // Colour attachment i takes the output at location i; one the shader
    // does not write keeps r63.x and is not written.
    for (i, t) in p.targets.iter_mut().enumerate() {
        match fs.color_output(i as u32) {
            Some(o) => {
                t.output = u32::from(o.reg.0);
                t.half = o.half;
            }
            None => {
                t.output = NONE;
                t.write_mask = 0;
            }
        }
    }
    Ok(())
}

/// Fills `p`'s shader state from the compiled stages, their link and the
/// pipeline's vertex attributes (`p.targets` set from the subpass first).
pub fn program_shaders(
    p: &mut Pipeline,
    gpu: &GpuInfo,
    vs: StageCode<'_>,
    fs: StageCode<'_>,
    linkage: &VaryingLinkage,
    attributes: &[VertexAttribute],
) -> VkResult<()> {
    let (Some(vs_info), Some(fs_info)) = (vs.shader.stage.vertex(), fs.shader.stage.fragment())
    else {
        return refuse("a vertex and a fragment shader are needed".into());
    };
    if vs_info.output(VaryingSlot::Position).is_none() {
        return refuse("the vertex shader does not write gl_Position".into());
    }
    p.vs = vs.iova;
    p.vs_instrlen = gpu.instrlen(vs.shader.instr_count);
    p.vs_constlen = const_len(vs.shader.consts.dwords);
    p.vs_full_regs = vs.shader.full_regs;
    p.vs_bindless = bindless(vs.shader);
    p.fs = Some(fs.iova);
    p.fs_instrlen = gpu.instrlen(fs.shader.instr_count);
    p.fs_constlen = const_len(fs.shader.consts.dwords);
    p.fs_full_regs = fs.shader.full_regs;
    p.fs_half_regs = fs.shader.half_regs;
    p.fs_bindless = bindless(fs.shader);
    p.fs_threadsize = threadsize(fs.shader.wave_size);
    vertex_input(p, vs_info, attributes)?;
    varyings(p, vs_info, linkage);
    fragment(p, fs_info, fs.shader.writes_memory)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_compiler::stage_info::{ScalarKind, VertexInput};
    use parsnip_registers::enums::A6xxFormat;

    fn attribute(location: u32, format: vk::Format) -> VertexAttribute {
        VertexAttribute {
            location,
            binding: 0,
            format,
            offset: 4,
            stride: 20,
            per_instance: location == 2,
            divisor: 1,
        }
    }

    #[test]
    fn attributes_land_where_the_shader_reads_them() {
        let vs = VertexInfo {
            inputs: vec![
                VertexInput {
                    location: 2,
                    reg: RegId::new(0, 0),
                    components: 4,
                    kind: ScalarKind::Uint,
                    half: false,
                },
                VertexInput {
                    location: 1,
                    reg: RegId::new(1, 0),
                    components: 3,
                    kind: ScalarKind::Float,
                    half: false,
                },
            ],
            vertex_id_reg: Some(RegId::new(1, 3)),
            ..Default::default()
        };
        let attributes = [
            attribute(1, vk::Format::R32G32B32_SFLOAT),
            attribute(2, vk::Format::R8G8B8A8_UINT),
        ];
        let mut p = Pipeline::new(0, None, None);
        vertex_input(&mut p, &vs, &attributes).unwrap();
        let [a, b] = [p.attributes[0], p.attributes[1]];
        assert_eq!(
            (a.regid, a.mask, a.float, a.instanced),
            (0, 0xf, false, true)
        );
        assert_eq!(a.format, A6xxFormat::FMT6_8_8_8_8_UINT);
        // r1.x: regid 4; three components.
        assert_eq!(
            (b.regid, b.mask, b.float, b.instanced),
            (4, 0x7, true, false)
        );
        assert_eq!(b.format, A6xxFormat::FMT6_32_32_32_FLOAT);
        assert_eq!((b.offset, b.binding), (4, 0));
        // r1.w: (1 << 2) | 3.
        assert_eq!(p.vertex_id, 7);
        assert_eq!(p.instance_id, NONE);
        assert!(vertex_input(&mut p, &vs, &attributes[..1]).is_err());
    }

    #[test]
    fn flat_locations_take_interpolation_mode_one() {
        let linkage = VaryingLinkage {
            outputs: Vec::new(),
            stride: 0,
            position_location: 0,
            point_size_location: None,
            clip_cull_locations: [None; 2],
            varying_locations: 0,
            enabled: [0; 4],
            // Locations 1 and 17.
            flat: [1 << 1 | 1 << 17, 0, 0, 0],
        };
        let modes = interp_modes(&linkage);
        assert_eq!(modes[0], 1 << 2);
        assert_eq!(modes[1], 1 << 2);
        assert!(modes[2..].iter().all(|&m| m == 0));
    }
}
