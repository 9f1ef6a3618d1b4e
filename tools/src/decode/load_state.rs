//! `CP_LOAD_STATE6` (and its `_GEOM`/`_FRAG` forms): what it loads, from
//! where, shown as shaders, constants or descriptors.
//!
//! The payload is read with the register database's typed dwords
//! (adreno_pm4.xml's `CP_LOAD_STATE6`), as the model reads it: `STATE_TYPE`,
//! `STATE_SRC` (direct from the packet, indirect from `EXT_SRC_ADDR`, or
//! bindless through a descriptor set), `STATE_BLOCK`, `NUM_UNIT`. Shaders load in units of 16 instructions, constants in vec4s.
//! Bindless loads name a descriptor set in the top 4 bits of dword 1 and a
//! dword offset in its low 24 bits.

use std::io::Write;

use parsnip_registers::enums::A6xxStateSrc;
use parsnip_registers::format;
use parsnip_registers::packets::{CpLoadState6Dw0, CpLoadState6Dw1, CpLoadState6Dw2};
use parsnip_registers::{lookup, table};

use super::decoder::Decoder;
use super::memory::GpuMemory;

/// What a state block and type load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StateKind {
    Sampler,
    Texture,
    Ubo,
    ShaderProgram,
    ShaderConstants,
    /// Storage descriptors (texture layout on a6xx).
    Storage,
    /// The second and third storage blocks of older generations: nothing to
    /// show on a6xx beyond their hex.
    StorageSizes,
    StorageAddresses,
    /// Two dwords a unit, layout unknown.
    UnknownPairs,
    /// Anything else: `NUM_UNIT` dwords in hex.
    Unknown,
}

/// Where the loaded state comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StateSource {
    Direct,
    Indirect,
    Bindless,
}

/// `(block, type)` to what is loaded, and whether it is for compute
/// (`a6xx_state_block`: 0-5 are the stages' texture blocks, 8-13 their
/// shader blocks, 14-15 storage; `a6xx_state_type`: shader/program,
/// constants, UBOs, IBOs).
fn state_kind(block: u32, ty: u32) -> (StateKind, bool) {
    let compute = matches!(block, 0x5 | 0xd | 0xf);
    let kind = match (block, ty) {
        (0x0..=0x5, 0) => StateKind::Sampler,
        (0x0..=0x5, 1) => StateKind::Texture,
        (0x0..=0x5 | 0x8..=0xd | 0x6, 2) => StateKind::Ubo,
        (0x8..=0xd, 0) => StateKind::ShaderProgram,
        (0x8..=0xd, 1) => StateKind::ShaderConstants,
        (0xd, 3) | (0xe..=0xf, 0) => StateKind::Storage,
        (0xe..=0xf, 1) => StateKind::StorageSizes,
        (0xe..=0xf, 2) => StateKind::StorageAddresses,
        (0x7, 1) => StateKind::UnknownPairs,
        _ => StateKind::Unknown,
    };
    (kind, compute)
}

impl<W: Write> Decoder<W> {
    /// The payload is at `iova`; its fields were printed already.
    pub(crate) fn load_state6(
        &mut self,
        mem: &dyn GpuMemory,
        iova: u64,
        payload: &[u32],
        level: usize,
    ) {
        if self.quiet() {
            return;
        }
        let dw0 = CpLoadState6Dw0::from_raw(payload[0]);
        let (kind, compute) = state_kind(dw0.state_block.0, dw0.state_type.0);
        let source = match dw0.state_src {
            A6xxStateSrc::SS6_BINDLESS => StateSource::Bindless,
            A6xxStateSrc::SS6_INDIRECT => StateSource::Indirect,
            _ => StateSource::Direct,
        };
        let units = dw0.num_unit as usize;
        let external = match source {
            StateSource::Direct => 0,
            StateSource::Indirect => {
                u64::from(CpLoadState6Dw2::from_raw(payload[2]).ext_src_addr_hi) << 32
                    | u64::from(CpLoadState6Dw1::from_raw(payload[1]).ext_src_addr)
            }
            StateSource::Bindless => self.bindless_address(payload[1], compute),
        };
        // Direct state follows the three dwords of the packet's payload.
        let contents = if external != 0 {
            external
        } else {
            iova.wrapping_add(12)
        };
        if mem.buffer_at(contents).is_none() {
            self.note(
                mem,
                Some(contents),
                format!(
                    "CP_LOAD_STATE6: nothing was captured at the state it loads ({contents:#x})"
                ),
            );
            return;
        }
        // Bindless descriptors are 16 dwords apart whatever their size.
        let bindless = source == StateSource::Bindless;
        match kind {
            StateKind::ShaderProgram => {
                let words = self.state_dwords(mem, contents, units * 32);
                self.disassemble(&words, level + 2);
            }
            StateKind::ShaderConstants => {
                let words = self.state_dwords(mem, contents, units * 4);
                self.out.float_dump(contents, &words, level + 1);
                self.out.hex_dump(contents, &words, level + 1);
            }
            StateKind::Sampler => {
                let stride = if bindless { 16 } else { 4 };
                self.descriptors(mem, contents, units, 4, stride, "A6XX_TEX_SAMP", 2, level);
            }
            StateKind::Texture => {
                self.descriptors(mem, contents, units, 16, 16, "A6XX_TEX_CONST", 4, level);
            }
            StateKind::Storage => {
                self.descriptors(mem, contents, units, 16, 16, "A6XX_TEX_CONST", 0, level);
            }
            StateKind::Ubo => {
                let stride = if bindless { 16 } else { 2 };
                self.descriptors(mem, contents, units, 2, stride, "A6XX_UBO", 0, level);
            }
            StateKind::StorageSizes => {
                for unit in 0..units {
                    let at = contents.wrapping_add(unit as u64 * 8);
                    let words = self.state_dwords(mem, at, 2);
                    self.out.hex_dump(at, &words, level + 1);
                }
            }
            StateKind::StorageAddresses => {}
            StateKind::UnknownPairs => {
                let words = self.state_dwords(mem, contents, units * 2);
                self.out.hex_dump(contents, &words, level + 1);
            }
            StateKind::Unknown => {
                let words = self.state_dwords(mem, contents, units);
                self.out.hex_dump(contents, &words, level + 1);
            }
        }
    }

    /// The address a bindless load reads: the descriptor set's base (from
    /// the bindless base registers) plus the offset in dword 1.
    fn bindless_address(&self, dword1: u32, compute: bool) -> u64 {
        let table = lookup::chip_table(self.chip);
        // a6xx has HLSQ_* copies of the bindless bases; a7xx only the SP_*
        // ones.
        let names: &[&str] = if compute {
            &[
                "HLSQ_CS_BINDLESS_BASE[0].DESCRIPTOR",
                "SP_CS_BINDLESS_BASE[0].DESCRIPTOR",
            ]
        } else {
            &[
                "HLSQ_BINDLESS_BASE[0].DESCRIPTOR",
                "SP_BINDLESS_BASE[0].DESCRIPTOR",
            ]
        };
        let Some(base) = names.iter().find_map(|n| table.offset_of(n)) else {
            return 0;
        };
        let reg = base + (dword1 >> 28) * 2;
        let set =
            u64::from(self.regs.value(reg + 1)) << 32 | u64::from(self.regs.value(reg) & !0x3);
        set.wrapping_add(4 * u64::from(dword1 & 0xff_ffff))
    }

    /// `count` dwords of loaded state at `iova`, fewer (with a note) where
    /// the capture ends.
    fn state_dwords(&mut self, mem: &dyn GpuMemory, iova: u64, count: usize) -> Vec<u32> {
        self.read_dwords(mem, iova, count, "CP_LOAD_STATE6")
            .unwrap_or_default()
    }

    /// `units` descriptors of `size` dwords, `stride` dwords apart: each
    /// decoded with the layout `domain` and dumped. With 16 units, a
    /// descriptor whose first `empty_check` dwords are zero ends the list
    /// (freedreno's decoder does this for the OpenCL blob, which always
    /// loads 16).
    #[allow(clippy::too_many_arguments)]
    fn descriptors(
        &mut self,
        mem: &dyn GpuMemory,
        iova: u64,
        units: usize,
        size: usize,
        stride: usize,
        domain: &str,
        empty_check: usize,
        level: usize,
    ) {
        let domain = table::domain(domain);
        for unit in 0..units {
            let at = iova.wrapping_add((unit * stride * 4) as u64);
            let words = self.state_dwords(mem, at, size);
            if words.len() < size {
                return;
            }
            if units == 16 && empty_check > 0 && words[..empty_check].iter().all(|&d| d == 0) {
                return;
            }
            if let Some(domain) = domain {
                let lines = format::format_payload(self.chip, &mut self.variants, domain, &words);
                for line in lines {
                    self.out.at(level + 2, &line);
                }
            }
            self.out.hex_dump(at, &words, level + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_blocks_and_types_name_what_is_loaded() {
        // a660/compute.log: STATE_TYPE = ST6_SHADER, STATE_BLOCK =
        // SB6_CS_SHADER loads the compute shader; ST6_IBO in the same block
        // loads storage descriptors; ST6_CONSTANTS loads constants.
        assert_eq!(state_kind(0xd, 0), (StateKind::ShaderProgram, true));
        assert_eq!(state_kind(0xd, 3), (StateKind::Storage, true));
        assert_eq!(state_kind(0xd, 1), (StateKind::ShaderConstants, true));
        assert_eq!(state_kind(0x8, 0), (StateKind::ShaderProgram, false));
        assert_eq!(state_kind(0x4, 1), (StateKind::Texture, false));
        assert_eq!(state_kind(0x4, 0), (StateKind::Sampler, false));
        assert_eq!(state_kind(0xc, 2), (StateKind::Ubo, false));
        assert_eq!(state_kind(0xe, 0), (StateKind::Storage, false));
        assert_eq!(state_kind(0x9, 3), (StateKind::Unknown, false));
    }
}
