//! Vertex fetch and decode: what VFD_FETCH, VFD_DECODE and VFD_DEST_CNTL
//! make of a vertex's attributes, and the vertex and instance ids it hands
//! the vertex shader.
//!
//! Registers (a6xx.xml):
//! - VFD_CONTROL_0: how many decodes (attributes) there are (its FETCH_CNT
//!   does not bound the slots they read: Turnip sets it to the attribute
//!   count, IDX to the Vulkan binding); VFD_FETCH[i]: a buffer's BASE, SIZE
//!   in bytes and STRIDE, read for the slots the decodes use;
//! - VFD_DECODE[i].INSTR: which fetch slot (IDX), the byte OFFSET in its
//!   element, per-instance or per-vertex (INSTANCED), the a6xx_format and
//!   component SWAP, and FLOAT: the value goes to the shader as floats
//!   (Turnip sets it for every format that is not an integer one, so
//!   8-bit UINT with FLOAT is USCALED); STEP_RATE: the instance divisor;
//! - VFD_DEST_CNTL[i].INSTR: the first register of the attribute and which
//!   components are written (component c goes to REGID + c);
//! - VFD_CONTROL_1: where the vertex id, instance id, primitive id and view
//!   id go (r63.x: nowhere);
//! - VFD_INDEX_OFFSET (Vulkan's vertexOffset or firstVertex) and
//!   VFD_INSTANCE_START_OFFSET (firstInstance), and VFD_ADD_OFFSET: whether
//!   the ids the shader sees include them. The attributes are always
//!   fetched with them, as Vulkan's "Vertex Input Address Calculation"
//!   says: vertex index + vertexOffset for per-vertex attributes,
//!   firstInstance + instance / divisor (divisor 0: firstInstance) for
//!   per-instance ones.
//!
//! What the hardware fetches for an element past VFD_FETCH[i].SIZE is not
//! publicly documented, so that is an error naming the slot.

use parsnip_registers::enums::A6xxRenderMode;
use parsnip_registers::regs;

use crate::draw_context::{DrawContext, DrawError};
use crate::report::Unit;
use crate::shader_state::RegId;
use crate::surface::format::{NumberClass, Texel, TexelFormat};

/// One vertex buffer.
#[derive(Clone, Copy, Debug)]
struct Fetch {
    /// Which VFD_FETCH entry.
    slot: u32,
    base: u64,
    size: u32,
    stride: u32,
}

/// One attribute.
#[derive(Clone, Copy, Debug)]
struct Decode {
    fetch: usize,
    offset: u32,
    instanced: bool,
    step_rate: u32,
    format: TexelFormat,
    float: bool,
    dest: u32,
    writemask: u32,
}

/// Which vertex of which instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VertexId {
    /// The index the index stream gave (before VFD_INDEX_OFFSET).
    pub index: u32,
    /// The instance, counting from 0 (before VFD_INSTANCE_START_OFFSET).
    pub instance: u32,
}

/// The vertex fetch state of a draw.
pub(crate) struct VertexFetch {
    fetches: Vec<Fetch>,
    decodes: Vec<Decode>,
    index_offset: u32,
    instance_start: u32,
    add_vertex_offset: bool,
    add_instance_offset: bool,
    vertex_id: RegId,
    instance_id: RegId,
}

impl VertexFetch {
    /// The state the registers describe.
    pub fn read(ctx: &DrawContext) -> Result<VertexFetch, DrawError> {
        let u = Unit::Vfd;
        // VFD_MODE_CNTL says whether this is a binning pass. The fetch is
        // the same in both: the binning pass's vertex shader (the variant
        // drivers load for it, which writes only what binning needs) comes
        // with its own VFD_DECODE and VFD_DEST_CNTL state.
        let mode = regs::VfdModeCntl::from_raw(ctx.reg32::<regs::VfdModeCntl>(u)?);
        if !matches!(
            mode.render_mode,
            A6xxRenderMode::RENDERING_PASS | A6xxRenderMode::BINNING_PASS
        ) {
            return Err(DrawError::bad_state(
                u,
                format!(
                    "VFD_MODE_CNTL.RENDER_MODE {}: no such mode",
                    mode.render_mode.0
                ),
            ));
        }
        let multiview = regs::VfdMultiviewCntl::from_raw(ctx.reg32::<regs::VfdMultiviewCntl>(u)?);
        if multiview.enable {
            return Err(DrawError::not_modelled(u, "multiview (VFD_MULTIVIEW_CNTL)"));
        }
        let c0 = regs::VfdControl0::from_raw(ctx.reg32::<regs::VfdControl0>(u)?);
        let c1 = regs::VfdControl1::from_raw(ctx.reg32::<regs::VfdControl1>(u)?);
        if RegId(c1.regid4primid as u8).is_used() || RegId(c1.regid4viewid as u8).is_used() {
            return Err(DrawError::not_modelled(
                u,
                "a vertex shader reading the primitive or view id (VFD_CONTROL_1)",
            ));
        }
        let add = regs::VfdAddOffset::from_raw(ctx.reg32::<regs::VfdAddOffset>(u)?);
        // The slots the attributes read. VFD_CONTROL_0.FETCH_CNT is not a
        // bound on them: Turnip sets it to the attribute count and IDX to
        // the Vulkan binding, and programs only the bound buffers' slots.
        let mut slots: Vec<u32> = Vec::new();
        let mut fetches = Vec::new();
        let mut decodes = Vec::with_capacity(c0.decode_cnt as usize);
        for i in 0..c0.decode_cnt {
            let instr = regs::VfdDecodeInstr::from_raw(ctx.reg32_at::<regs::VfdDecodeInstr>(u, i)?);
            let dest =
                regs::VfdDestCntlInstr::from_raw(ctx.reg32_at::<regs::VfdDestCntlInstr>(u, i)?);
            let fetch = match slots.iter().position(|&s| s == instr.idx) {
                Some(f) => f,
                None => {
                    let j = instr.idx;
                    fetches.push(Fetch {
                        slot: j,
                        base: ctx.reg_at::<regs::VfdFetchBase>(u, j)?,
                        size: ctx.reg32_at::<regs::VfdFetchSize>(u, j)?,
                        stride: regs::VfdFetchStride::from_raw(
                            ctx.reg32_at::<regs::VfdFetchStride>(u, j)?,
                        )
                        .0,
                    });
                    slots.push(j);
                    fetches.len() - 1
                }
            };
            let format = TexelFormat::new(instr.format, instr.swap)
                .map_err(|e| DrawError::not_modelled(u, format!("VFD_DECODE[{i}]: {e}")))?;
            if !instr.float && !format.is_integer() {
                return Err(DrawError::not_modelled(
                    u,
                    format!(
                        "VFD_DECODE[{i}] decodes a float or normalized format without FLOAT: \
                         what the shader receives is not publicly documented"
                    ),
                ));
            }
            decodes.push(Decode {
                fetch,
                offset: instr.offset,
                instanced: instr.instanced,
                step_rate: if instr.instanced {
                    ctx.reg32_at::<regs::VfdDecodeStepRate>(u, i)?
                } else {
                    1
                },
                format,
                float: instr.float,
                dest: dest.regid,
                writemask: dest.writemask,
            });
        }
        Ok(VertexFetch {
            fetches,
            decodes,
            index_offset: ctx.reg32::<regs::VfdIndexOffset>(u)?,
            instance_start: ctx.reg32::<regs::VfdInstanceStartOffset>(u)?,
            add_vertex_offset: add.vertex,
            add_instance_offset: add.instance,
            vertex_id: RegId(c1.regid4vtx as u8),
            instance_id: RegId(c1.regid4inst as u8),
        })
    }

    /// Fetches and decodes the inputs of vertex `v`, handing each
    /// `(register, value)` to `write`.
    pub fn fetch(
        &self,
        ctx: &DrawContext,
        v: VertexId,
        mut write: impl FnMut(u32, u32),
    ) -> Result<(), DrawError> {
        if self.vertex_id.is_used() {
            let id = if self.add_vertex_offset {
                v.index.wrapping_add(self.index_offset)
            } else {
                v.index
            };
            write(u32::from(self.vertex_id.0), id);
        }
        if self.instance_id.is_used() {
            let id = if self.add_instance_offset {
                v.instance.wrapping_add(self.instance_start)
            } else {
                v.instance
            };
            write(u32::from(self.instance_id.0), id);
        }
        for (i, d) in self.decodes.iter().enumerate() {
            let f = self.fetches[d.fetch];
            let element = if d.instanced {
                let step = v.instance.checked_div(d.step_rate).unwrap_or(0);
                self.instance_start.wrapping_add(step)
            } else {
                v.index.wrapping_add(self.index_offset)
            };
            let start = u64::from(element) * u64::from(f.stride) + u64::from(d.offset);
            let bytes = u64::from(d.format.bytes);
            if start + bytes > u64::from(f.size) {
                return Err(DrawError::not_modelled(
                    Unit::Vfd,
                    format!(
                        "attribute {i} of element {element} is bytes {start}..{} of \
                         VFD_FETCH[{}], whose SIZE is {}: what the hardware fetches past it is \
                         not publicly documented",
                        start + bytes,
                        f.slot,
                        f.size
                    ),
                ));
            }
            let mut raw = [0u8; 16];
            let raw = &mut raw[..d.format.bytes as usize];
            ctx.memory
                .read(f.base + start, raw)
                .map_err(|e| DrawError::fault(Unit::Vfd, e))?;
            let values = match (d.format.decode(raw), d.float) {
                (Texel::Float(c), _) => c.map(f32::to_bits),
                (Texel::Int(c), false) => c,
                (Texel::Int(c), true) if d.format.class == NumberClass::Sint => {
                    c.map(|x| (x as i32 as f32).to_bits())
                }
                (Texel::Int(c), true) => c.map(|x| (x as f32).to_bits()),
            };
            for (c, &value) in values.iter().enumerate() {
                if d.writemask >> c & 1 != 0 {
                    write(d.dest + c as u32, value);
                }
            }
        }
        Ok(())
    }
}
