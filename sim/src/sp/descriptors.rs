//! Finding and decoding the descriptors a shader names: UBOs (`A6XX_UBO`),
//! storage buffers and images (IBOs) and textures (`A6XX_TEX_CONST`),
//! through the register database's layouts.
//!
//! A descriptor is found by index either in the state the command processor
//! gathered (what CP_LOAD_STATE6 loaded, or a table at SP_CS_IBO /
//! SP_CS_TEX_CONST / SP_CS_TEX_SAMP), or, for bindless instructions, in the
//! descriptor set at SP_CS_BINDLESS_BASE[set]: `index * descriptor size`
//! bytes into it (a6xx.xml: the size is `2 << DESC_SIZE` dwords). Turnip
//! lays every bindless descriptor out so, with 64-byte slots; a UBO
//! descriptor is the first two dwords of its slot.
//!
//! Descriptors are read once per dispatch and kept: a shader that rewrote
//! descriptor memory during its own dispatch would see the old ones, as it
//! would on hardware once they are cached.

use std::collections::HashMap;

use parsnip_registers::descriptors::{a6xx, a7xx, SamplerDescriptor, UboDescriptor};
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat, A6xxTexType, A6xxTileMode};

use super::trap::{error, Trap};
use crate::memory::AddressSpace;
use crate::shader_state::{DescriptorSource, ShaderState};

/// The kinds of descriptor, with their size and where each lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Ubo,
    Ibo,
    Texture,
    Sampler,
}

impl Kind {
    fn dwords(self) -> usize {
        match self {
            Kind::Ubo => UboDescriptor::DWORDS,
            Kind::Ibo | Kind::Texture => a6xx::TextureDescriptor::DWORDS,
            Kind::Sampler => SamplerDescriptor::DWORDS,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Ubo => "UBO",
            Kind::Ibo => "IBO (storage buffer or image)",
            Kind::Texture => "texture",
            Kind::Sampler => "sampler",
        }
    }

    /// The registers that point at a table of these, per stage.
    fn table_register(self) -> Option<&'static str> {
        match self {
            Kind::Ubo => None,
            Kind::Ibo => Some("SP_CS_IBO / SP_IBO"),
            Kind::Texture => Some("SP_xS_TEX_CONST"),
            Kind::Sampler => Some("SP_xS_TEX_SAMP"),
        }
    }

    fn source(self, d: &ShaderState) -> &DescriptorSource {
        match self {
            Kind::Ubo => &d.ubos,
            Kind::Ibo => &d.ibos,
            Kind::Texture => &d.textures,
            Kind::Sampler => &d.samplers,
        }
    }
}

/// Which descriptor: an index, in a bindless descriptor set or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Slot {
    pub bindless: Option<u8>,
    pub index: u32,
}

/// Descriptors fetched so far in a dispatch.
#[derive(Default)]
pub(crate) struct DescriptorCache {
    fetched: HashMap<(Kind, Slot), [u32; 16]>,
}

impl DescriptorCache {
    /// The raw dwords of the descriptor (the unused tail is zero).
    pub fn fetch(
        &mut self,
        d: &ShaderState,
        memory: &AddressSpace,
        kind: Kind,
        slot: Slot,
    ) -> Result<[u32; 16], Trap> {
        if let Some(raw) = self.fetched.get(&(kind, slot)) {
            return Ok(*raw);
        }
        let n = kind.dwords();
        let mut raw = [0u32; 16];
        match slot.bindless {
            Some(set) => {
                let Some(Some(base)) = d.bindless.get(set as usize) else {
                    return error(format!(
                        "a bindless {} in descriptor set {set}, but \
                         SP_CS_BINDLESS_BASE[{set}] was not programmed",
                        kind.name()
                    ));
                };
                let iova = base.iova + u64::from(slot.index) * u64::from(base.descriptor_size);
                raw[..n].copy_from_slice(&memory.read_dwords(iova, n)?);
            }
            None => match kind.source(d) {
                DescriptorSource::None => {
                    return error(format!(
                        "{} {} used, but no {} descriptors were loaded for the launch \
                         (by CP_LOAD_STATE6{})",
                        kind.name(),
                        slot.index,
                        kind.name(),
                        kind.table_register()
                            .map_or(String::new(), |r| format!(" or a table at {r}"))
                    ))
                }
                DescriptorSource::Loaded(entries) => {
                    match entries.get(slot.index as usize).filter(|e| e.len() >= n) {
                        Some(e) => raw[..n].copy_from_slice(&e[..n]),
                        None => {
                            return error(format!(
                                "{} {} used, but CP_LOAD_STATE6 did not load that slot",
                                kind.name(),
                                slot.index
                            ))
                        }
                    }
                }
                DescriptorSource::Memory { iova, count } => {
                    if slot.index >= *count {
                        return error(format!(
                            "{} {} used, but the dispatch has {count} of them",
                            kind.name(),
                            slot.index
                        ));
                    }
                    let at = iova + u64::from(slot.index) * (n as u64 * 4);
                    raw[..n].copy_from_slice(&memory.read_dwords(at, n)?);
                }
            },
        }
        self.fetched.insert((kind, slot), raw);
        Ok(raw)
    }
}

/// A UBO: where it is and how many bytes it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ubo {
    pub base: u64,
    pub size: u64,
}

impl Ubo {
    pub fn decode(raw: &[u32; 16]) -> Ubo {
        let u = UboDescriptor::from_raw(&[raw[0], raw[1]]);
        // Turnip (tu_descriptor_set.cc): "The HW range is in vec4 units".
        Ubo {
            base: u64::from(u.base_lo) | u64::from(u.base_hi) << 32,
            size: u64::from(u.size) * 16,
        }
    }
}

/// A storage buffer, image or texture, as an `A6XX_TEX_CONST` describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Image {
    pub base: u64,
    pub format: A6xxFormat,
    pub swap: A3xxColorSwap,
    pub ty: A6xxTexType,
    pub tile_mode: A6xxTileMode,
    /// UBWC flags (compressed): not modelled.
    pub flag: bool,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    /// Bytes from one row to the next, and from one layer or slice to the next.
    pub pitch: u64,
    pub array_pitch: u64,
    pub levels: u32,
    /// For buffers: the first texel (Turnip aligns the base down and puts
    /// the rest here) and the number of texels, which WIDTH and HEIGHT hold
    /// together (the low 15 bits in WIDTH; Turnip writes the count to dword
    /// 1 as one number).
    pub start_texel: u32,
    pub texels: u64,
}

impl Image {
    pub fn decode(raw: &[u32; 16], is_a7xx: bool) -> Image {
        // The a6xx and a7xx layouts differ only in a7xx's MUTABLEEN bit,
        // which the model does not use; the fields read are the same.
        macro_rules! from_layout {
            ($t:expr) => {{
                let t = $t;
                Image {
                    base: u64::from(t.base_lo) | u64::from(t.base_hi) << 32,
                    format: t.fmt,
                    swap: t.swap,
                    ty: t.r#type,
                    tile_mode: t.tile_mode,
                    flag: t.flag,
                    width: t.width,
                    height: t.height,
                    depth: t.depth,
                    pitch: u64::from(t.pitch),
                    array_pitch: t.array_pitch,
                    levels: t.miplvls + 1,
                    start_texel: t.startoffsettexels,
                    texels: u64::from(t.width) | u64::from(t.height) << 15,
                }
            }};
        }
        if is_a7xx {
            from_layout!(a7xx::TextureDescriptor::from_raw(raw))
        } else {
            from_layout!(a6xx::TextureDescriptor::from_raw(raw))
        }
    }

    pub fn is_buffer(&self) -> bool {
        self.ty == A6xxTexType::A6XX_TEX_BUFFER
    }

    /// An error unless the image's memory layout is one the model reads.
    pub fn check_layout(&self) -> Result<(), Trap> {
        if self.flag {
            return error("a UBWC-compressed image (TEX_CONST FLAG): not modelled");
        }
        if self.tile_mode != A6xxTileMode::TILE6_LINEAR {
            return error(format!(
                "an image in tile mode {}: only linear images are modelled",
                self.tile_mode.0
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turnips_storage_buffer_descriptor() {
        // The descriptor at 0x100027000 in turnip/a740/compute.rd.gz: a
        // 1024-byte buffer at 0x100026000 as 512 16-bit texels.
        let mut raw = [0u32; 16];
        raw[..6].copy_from_slice(&[0x0600_0000, 0x200, 0x8000_0010, 0, 0x26000, 1]);
        let i = Image::decode(&raw, true);
        assert_eq!(i.base, 0x1_0002_6000);
        assert_eq!(i.format, A6xxFormat::FMT6_16_UINT);
        assert!(i.is_buffer());
        assert_eq!(i.texels, 512);
        assert!(i.check_layout().is_ok());
        assert_eq!(Image::decode(&raw, false), i);
    }

    #[test]
    fn ubo_size_is_in_vec4s() {
        let mut raw = [0u32; 16];
        raw[0] = 0x1000;
        raw[1] = 2 | 4 << 17;
        assert_eq!(
            Ubo::decode(&raw),
            Ubo {
                base: 0x2_0000_1000,
                size: 64
            }
        );
    }
}
