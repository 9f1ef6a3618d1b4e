//! CP_LOAD_STATE6 (and its _GEOM/_FRAG forms): loading constants and
//! descriptors into a shader stage's state, and what a dispatch later reads
//! of it.
//!
//! Layout of the packet and the meaning of its fields: adreno_pm4.xml's
//! CP_LOAD_STATE6 domain and a6xx_state_block/_type/_src enums. Unit sizes,
//! from the descriptor layouts in a6xx.xml and how Turnip sizes its loads:
//! a constant is a vec4 (4 dwords), a UBO descriptor 2 dwords (A6XX_UBO), an
//! IBO or texture descriptor 16 (A6XX_TEX_CONST), a sampler 4
//! (A6XX_TEX_SAMP), and shader code comes in units of 16 instructions
//! (32 dwords; ir3 pads programs to that and SP_xS_INSTRLEN counts in it).
//!
//! Sources: SS6_DIRECT carries the data in the packet; SS6_INDIRECT reads it
//! from EXT_SRC_ADDR at the time of the packet (later changes to that memory
//! do not reach the loaded copy, as on hardware); SS6_BINDLESS asks the
//! hardware to prefetch descriptors from a bindless base (Turnip's
//! emit_load_state: "preloads the descriptors"). The model's shader
//! processor reads bindless descriptors from memory when it uses them, so a
//! prefetch only checks its base register was programmed. Shader code loads
//! are prefetches of the program at SP_xS_OBJ_START, which is what the
//! shader processor runs; the model checks the memory is there.
//!
//! Graphics IBOs are loaded into SB6_IBO (with ST6_SHADER) and compute IBOs
//! into SB6_CS_IBO or (as Turnip does) with ST6_IBO into SB6_CS_SHADER.
//!
//! SB6_IBO also takes the a6xx shared consts (a6xx.xml's HLSQ_SHARED_CONSTS),
//! in units of one dword: ST6_CONSTANTS loads the graphics pools (both with
//! CP_LOAD_STATE6, the geometry stages' with _GEOM, the fragment shader's
//! with _FRAG), and ST6_UBO or ST6_IBO the compute pool ("loaded through
//! CP_LOAD_STATE6_FRAG with ST6_UBO/ST6_IBO"; Turnip's a660 push constants:
//! turnip/a660/loop_push.log, 4 units in 4 dwords). Each pool is 8 vec4s.

use parsnip_registers::enums::{A6xxStateBlock as Sb, A6xxStateSrc as Src, A6xxStateType as St};
use parsnip_registers::packets::CpLoadState6Dw0;
use parsnip_registers::regs::{self, ArrayRegister};

use super::CommandProcessor;
use crate::report::{GpuError, StreamProblem};

/// Constants one stage's const file holds, in vec4s: HLSQ_xS_CNTL.CONSTLEN
/// is 8 bits counting 4 vec4s (a6xx.xml), so at most 1020.
pub(crate) const CONST_FILE_VEC4: usize = 1024;

const VEC4_DWORDS: usize = 4;
const UBO_DWORDS: usize = 2;
const TEX_CONST_DWORDS: usize = 16;
const TEX_SAMP_DWORDS: usize = 4;
const SHADER_UNIT_DWORDS: usize = 32;
/// A shared-const pool: 8 vec4s (a6xx.xml).
pub(crate) const SHARED_CONST_DWORDS: usize = 32;

/// The a6xx shared-const pools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SharedPool {
    Geometry = 0,
    Fragment,
    Compute,
}

impl SharedPool {
    /// The pool stage `stage` reads.
    pub(crate) fn of(stage: Stage) -> SharedPool {
        match stage {
            Stage::Fs => SharedPool::Fragment,
            Stage::Cs => SharedPool::Compute,
            _ => SharedPool::Geometry,
        }
    }
}

/// The shader stages, in state-block order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Vs = 0,
    Hs,
    Ds,
    Gs,
    Fs,
    Cs,
}

/// Descriptors loaded into one slot array, and when.
#[derive(Clone, Debug, Default)]
pub(crate) struct LoadedDescriptors {
    /// One entry per slot; an empty entry was never loaded.
    pub(crate) entries: Vec<Vec<u32>>,
    /// The register-file serial of the last load.
    pub(crate) serial: u64,
}

impl LoadedDescriptors {
    fn store(&mut self, first: usize, unit: usize, data: &[u32], serial: u64) {
        let count = data.len() / unit;
        if self.entries.len() < first + count {
            self.entries.resize(first + count, Vec::new());
        }
        for (i, d) in data.chunks_exact(unit).enumerate() {
            self.entries[first + i] = d.to_vec();
        }
        self.serial = serial;
    }
}

/// One stage's loaded state.
#[derive(Clone, Debug)]
pub(crate) struct StageState {
    pub(crate) consts: Vec<u32>,
    pub(crate) ubos: LoadedDescriptors,
    pub(crate) ibos: LoadedDescriptors,
    pub(crate) textures: LoadedDescriptors,
    pub(crate) samplers: LoadedDescriptors,
}

impl StageState {
    fn new() -> Self {
        Self {
            consts: vec![0; CONST_FILE_VEC4 * VEC4_DWORDS],
            ubos: LoadedDescriptors::default(),
            ibos: LoadedDescriptors::default(),
            textures: LoadedDescriptors::default(),
            samplers: LoadedDescriptors::default(),
        }
    }
}

/// Every stage's loaded state, plus the graphics IBOs the stages share.
pub(crate) struct StateBlocks {
    pub(crate) stages: [StageState; 6],
    pub(crate) graphics_ibos: LoadedDescriptors,
    /// The shared-const pools, by [`SharedPool`], one entry per dword.
    pub(crate) shared_consts: [Vec<Option<u32>>; 3],
}

impl StateBlocks {
    pub(crate) fn new() -> Self {
        Self {
            stages: std::array::from_fn(|_| StageState::new()),
            graphics_ibos: LoadedDescriptors::default(),
            shared_consts: std::array::from_fn(|_| vec![None; SHARED_CONST_DWORDS]),
        }
    }

    pub(crate) fn stage(&self, stage: Stage) -> &StageState {
        &self.stages[stage as usize]
    }
}

/// What a load writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Consts(Stage),
    Ubos(Stage),
    Ibos(Stage),
    GraphicsIbos,
    Textures(Stage),
    Samplers(Stage),
    Shader(Stage),
    /// Shared consts into these pools (bit per [`SharedPool`]).
    SharedConsts(u8),
}

impl Target {
    fn unit_dwords(self) -> usize {
        match self {
            Target::Consts(_) => VEC4_DWORDS,
            Target::Ubos(_) => UBO_DWORDS,
            Target::Ibos(_) | Target::GraphicsIbos | Target::Textures(_) => TEX_CONST_DWORDS,
            Target::Samplers(_) => TEX_SAMP_DWORDS,
            Target::Shader(_) => SHADER_UNIT_DWORDS,
            Target::SharedConsts(_) => 1,
        }
    }

    /// The stage whose bindless bases a bindless load reads.
    fn stage(self) -> Option<Stage> {
        match self {
            Target::Consts(s)
            | Target::Ubos(s)
            | Target::Ibos(s)
            | Target::Textures(s)
            | Target::Samplers(s)
            | Target::Shader(s) => Some(s),
            Target::GraphicsIbos | Target::SharedConsts(_) => None,
        }
    }
}

fn stage_of(block: u32) -> Option<Stage> {
    Some(match block & 7 {
        0 => Stage::Vs,
        1 => Stage::Hs,
        2 => Stage::Ds,
        3 => Stage::Gs,
        4 => Stage::Fs,
        5 => Stage::Cs,
        _ => return None,
    })
}

/// Where STATE_BLOCK and STATE_TYPE put a load by packet `packet`.
fn target(packet: &str, block: Sb, ty: St) -> Option<Target> {
    let pool = |p: SharedPool| 1u8 << p as u8;
    match block {
        Sb::SB6_IBO => Some(match ty {
            St::ST6_CONSTANTS => Target::SharedConsts(match packet {
                "CP_LOAD_STATE6_GEOM" => pool(SharedPool::Geometry),
                "CP_LOAD_STATE6_FRAG" => pool(SharedPool::Fragment),
                _ => pool(SharedPool::Geometry) | pool(SharedPool::Fragment),
            }),
            St::ST6_UBO | St::ST6_IBO => Target::SharedConsts(pool(SharedPool::Compute)),
            _ => Target::GraphicsIbos,
        }),
        Sb::SB6_CS_IBO => Some(Target::Ibos(Stage::Cs)),
        _ if block.0 < 8 => {
            let stage = stage_of(block.0)?;
            match ty {
                St::ST6_CONSTANTS => Some(Target::Textures(stage)),
                St::ST6_SHADER => Some(Target::Samplers(stage)),
                _ => None,
            }
        }
        _ => {
            let stage = stage_of(block.0 - 8)?;
            Some(match ty {
                St::ST6_SHADER => Target::Shader(stage),
                St::ST6_CONSTANTS => Target::Consts(stage),
                St::ST6_UBO => Target::Ubos(stage),
                _ => Target::Ibos(stage),
            })
        }
    }
}

impl CommandProcessor<'_> {
    pub(super) fn load_state6(&mut self, packet: &str, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let dw = CpLoadState6Dw0::from_raw(payload[0]);
        let chip = self.chip();
        let Some(target) = target(packet, dw.state_block, dw.state_type) else {
            return Err(self.bad_payload(format!(
                "CP_LOAD_STATE6 of {} into {}: no such state",
                dw.state_type.name(chip).unwrap_or("an unknown state type"),
                dw.state_block
                    .name(chip)
                    .unwrap_or("an unknown state block"),
            )));
        };
        let unit = target.unit_dwords();
        let first = dw.dst_off as usize;
        let count = dw.num_unit as usize;
        let ext = u64::from(payload[1]) | u64::from(payload[2]) << 32;
        let data = match dw.state_src {
            Src::SS6_DIRECT => {
                let data = &payload[3..];
                if data.len() != count * unit {
                    return Err(self.bad_payload(format!(
                        "CP_LOAD_STATE6 of {count} units of {unit} dwords carries {} dwords",
                        data.len()
                    )));
                }
                data.to_vec()
            }
            Src::SS6_INDIRECT => self.read_dwords(ext, count * unit)?,
            Src::SS6_BINDLESS => return self.bindless_prefetch(target, payload[1]),
            other => {
                return Err(self.stream_error(StreamProblem::NotModelled {
                    what: format!(
                        "CP_LOAD_STATE6 from {} is not modelled",
                        other.name(chip).unwrap_or("an unknown source")
                    ),
                }))
            }
        };
        let serial = self.regs.next_serial();
        let blocks = &mut self.cp.state;
        let slots = match target {
            Target::Consts(stage) => {
                let consts = &mut blocks.stages[stage as usize].consts;
                let start = first * VEC4_DWORDS;
                if start + data.len() > consts.len() {
                    return Err(self.bad_payload(format!(
                        "constants {first}..{} are past the {CONST_FILE_VEC4}-vec4 const file",
                        first + count
                    )));
                }
                consts[start..start + data.len()].copy_from_slice(&data);
                return Ok(());
            }
            // The program is fetched from SP_xS_OBJ_START when it runs; the
            // read above has checked the prefetched memory is mapped.
            Target::Shader(_) => return Ok(()),
            Target::SharedConsts(pools) => {
                if first + data.len() > SHARED_CONST_DWORDS {
                    return Err(self.bad_payload(format!(
                        "shared consts {first}..{} are past the {SHARED_CONST_DWORDS}-dword pool",
                        first + data.len()
                    )));
                }
                for (p, pool) in blocks.shared_consts.iter_mut().enumerate() {
                    if pools >> p & 1 != 0 {
                        for (i, &v) in data.iter().enumerate() {
                            pool[first + i] = Some(v);
                        }
                    }
                }
                return Ok(());
            }
            Target::GraphicsIbos => &mut blocks.graphics_ibos,
            Target::Ubos(stage) => &mut blocks.stages[stage as usize].ubos,
            Target::Ibos(stage) => &mut blocks.stages[stage as usize].ibos,
            Target::Textures(stage) => &mut blocks.stages[stage as usize].textures,
            Target::Samplers(stage) => &mut blocks.stages[stage as usize].samplers,
        };
        slots.store(first, unit, &data, serial);
        Ok(())
    }

    /// A bindless prefetch: EXT_SRC_ADDR holds the descriptor offset and,
    /// in bits 28-31, the bindless base (Turnip's emit_load_state). The
    /// base's register must have been programmed.
    fn bindless_prefetch(&mut self, target: Target, ext_lo: u32) -> Result<(), GpuError> {
        let base = ext_lo >> 28;
        let cs = target.stage() == Some(Stage::Cs);
        let layout = if cs {
            regs::SpCsBindlessBaseDescriptor::layout(self.chip())
        } else {
            regs::SpBindlessBaseDescriptor::layout(self.chip())
        };
        let length = layout.map_or(0, |(_, _, length)| length);
        if base >= length {
            return Err(self.bad_payload(format!(
                "bindless prefetch from base {base}: this GPU has {length} bindless bases"
            )));
        }
        let checked = if cs {
            self.regs
                .programmed_at::<regs::SpCsBindlessBaseDescriptor>(base)
        } else {
            self.regs
                .programmed_at::<regs::SpBindlessBaseDescriptor>(base)
        };
        checked.map(|_| ()).map_err(|e| self.register_error(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_types_select_the_state_a6xx_xml_describes() {
        assert_eq!(
            target("CP_LOAD_STATE6", Sb::SB6_CS_SHADER, St::ST6_CONSTANTS),
            Some(Target::Consts(Stage::Cs))
        );
        assert_eq!(
            target("CP_LOAD_STATE6", Sb::SB6_CS_SHADER, St::ST6_IBO),
            Some(Target::Ibos(Stage::Cs))
        );
        assert_eq!(
            target("CP_LOAD_STATE6", Sb::SB6_FS_TEX, St::ST6_CONSTANTS),
            Some(Target::Textures(Stage::Fs))
        );
        assert_eq!(
            target("CP_LOAD_STATE6", Sb::SB6_CS_TEX, St::ST6_SHADER),
            Some(Target::Samplers(Stage::Cs))
        );
        assert_eq!(target("CP_LOAD_STATE6", Sb::SB6_VS_TEX, St::ST6_UBO), None);
        assert_eq!(
            target("CP_LOAD_STATE6", Sb::SB6_IBO, St::ST6_SHADER),
            Some(Target::GraphicsIbos)
        );
        // The a6xx shared consts (a6xx.xml, HLSQ_SHARED_CONSTS).
        assert_eq!(
            target("CP_LOAD_STATE6_FRAG", Sb::SB6_IBO, St::ST6_UBO),
            Some(Target::SharedConsts(1 << SharedPool::Compute as u8))
        );
        assert_eq!(
            target("CP_LOAD_STATE6_FRAG", Sb::SB6_IBO, St::ST6_CONSTANTS),
            Some(Target::SharedConsts(1 << SharedPool::Fragment as u8))
        );
        assert_eq!(
            target("CP_LOAD_STATE6", Sb::SB6_IBO, St::ST6_CONSTANTS),
            Some(Target::SharedConsts(0b11))
        );
        assert_eq!(Target::SharedConsts(4).unit_dwords(), 1);
    }
}
