//! The 2D engine (`CP_BLIT`): one blit's state, and the one function that
//! emits it on either generation, for the copy, blit and clear commands
//! alike.
//!
//! A blit reads a source rectangle (a surface through the texture path,
//! or a solid colour) and writes a destination rectangle through the RB,
//! scaling when the two differ, converting through an intermediate format
//! (`IFMT`: UNORM8, FLOAT16/32, INT8/16/32). The registers and the order
//! they are written in are Turnip's `r2d_*` functions' (`tu_clear_blit.cc`)
//! as its traces show them (`storage_image.log`, `mip_lod_*.log`):
//! RB_2D_UNKNOWN_8C01, RB/GRAS_2D_BLIT_CNTL (the same value), on a7xx
//! TPL1_2D_SRC_CNTL, SP_2D_DST_FORMAT, RB_2D_DST_INFO with its address and
//! pitch, RB_2D_DST_FLAGS with its pitch, the source (SP_PS_2D_SRC_INFO,
//! SIZE, address, pitch, flags; or RB_2D_SRC_SOLID_C0..3), the rectangles
//! (GRAS_2D_DST_TL/BR, GRAS_2D_SRC_TL/BR), then CP_BLIT with
//! BLIT_OP_SCALE.
//!
//! Buffer surfaces on a7xx name their first texel within a 64-byte
//! aligned base (TPL1_2D_SRC_CNTL's START_OFFSET_TEXELS, type
//! IMG_BUFFER), as Turnip's a740 traces do.

use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xx2dIfmt, A6xxFormat, A6xxRotation, A6xxTexType,
    A6xxTileMode, CpBlitCmd,
};
use parsnip_registers::packets::CpBlitDw0;
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::{Chip, RegWrite, Register};

use super::packets::{field, PacketSink};
use crate::error::{internal, VkResult};

/// A surface the 2D engine reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surface {
    /// Address of texel (0, 0); 64-byte aligned, except buffer sources on
    /// a7xx (see `start_offset_texels`).
    pub iova: u64,
    /// Bytes per row.
    pub pitch: u32,
    pub format: A6xxFormat,
    pub swap: A3xxColorSwap,
    pub tile_mode: A6xxTileMode,
    pub srgb: bool,
    /// The flag buffer of a UBWC surface: its address and pitch.
    pub flags: Option<(u64, u32)>,
    /// Width and height a source surface is read as.
    pub width: u32,
    pub height: u32,
    /// A buffer rather than an image: sources use the IMG_BUFFER type on
    /// a7xx and write no flag registers; destinations write no flags.
    pub buffer: bool,
    /// Samples a pixel. A multisampled source is resolved: its samples
    /// averaged into a float destination, sample 0 taken for an integer
    /// one (Vulkan's vkCmdResolveImage rule; Turnip's SAMPLES_AVERAGE is
    /// set for non-integer formats only). Destinations are single-sampled:
    /// the 2D engine does not write multisampled surfaces (Turnip draws
    /// to them).
    pub samples: u32,
}

/// The a3xx_msaa_samples value of a surface's sample count.
fn msaa(samples: u32) -> VkResult<A3xxMsaaSamples> {
    Ok(match samples {
        1 => A3xxMsaaSamples::MSAA_ONE,
        2 => A3xxMsaaSamples::MSAA_TWO,
        4 => A3xxMsaaSamples::MSAA_FOUR,
        8 => A3xxMsaaSamples::MSAA_EIGHT,
        n => return Err(internal("a 2D engine source", format!("{n} samples"))),
    })
}

/// Where a blit's texels come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    Surface {
        surface: Surface,
        /// Inclusive source rectangle: x0, y0, x1, y1.
        rect: [i32; 4],
        /// Bilinear filtering when scaling.
        filter: bool,
    },
    /// A clear: the colour in the intermediate format's packing.
    Solid([u32; 4]),
}

/// The destination's numeric kind, which SP_2D_DST_FORMAT names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DstKind {
    Float,
    Uint,
    Sint,
}

/// Which aspects of a D24S8 texel a blit writes (through the
/// destination's Z24_UNORM_S8_UINT_AS_R8G8B8A8 view: depth in R, G and B,
/// stencil in A). The RB takes it in RB_2D_UNKNOWN_8C01, which a6xx.xml
/// names no fields of: the values are Turnip's (`r2d_setup_common`) for
/// a depth-only and a stencil-only write, the only ones known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Aspects {
    /// Every component (and every other format).
    #[default]
    All,
    Depth,
    Stencil,
}

impl Aspects {
    fn unknown_8c01(self) -> regs::Rb2dUnknown8c01 {
        regs::Rb2dUnknown8c01(match self {
            Aspects::All => 0,
            Aspects::Depth => 0x0800_0041,
            Aspects::Stencil => 0x0008_4001,
        })
    }
}

/// One CP_BLIT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blit {
    pub src: Source,
    pub dst: Surface,
    /// What of a D24S8 destination's texels it writes.
    pub aspects: Aspects,
    /// Inclusive destination rectangle: x0, y0, x1, y1.
    pub dst_rect: [u32; 4],
    pub ifmt: A6xx2dIfmt,
    pub kind: DstKind,
    pub rotate: A6xxRotation,
}

fn w<R: Register>(out: &mut Vec<RegWrite>, chip: Chip, r: R) -> VkResult<()> {
    out.push(
        r.write(chip)
            .map_err(|e| internal("encoding a 2D engine register", e))?,
    );
    Ok(())
}

/// The registers one generation's 2D engine structs take; the fields are
/// the same on both, the structs differ.
macro_rules! chip_regs {
    ($name:ident, $m:ident) => {
        // One body for both chips' structs: a field list complete on one
        // chip is not on the other.
        #[allow(clippy::needless_update)]
        fn $name(out: &mut Vec<RegWrite>, chip: Chip, b: &Blit) -> VkResult<()> {
            let solid = matches!(b.src, Source::Solid(_));
            let cntl_format = b.dst.format;
            let blit_cntl = $m::Rb2dBlitCntl {
                rotate: b.rotate,
                solid_color: solid,
                color_format: cntl_format,
                mask: 0xf,
                ifmt: if b.dst.srgb {
                    A6xx2dIfmt::R2D_UNORM8_SRGB
                } else {
                    b.ifmt
                },
                ..Default::default()
            };
            w(out, chip, b.aspects.unknown_8c01())?;
            w(out, chip, blit_cntl)?;
            w(
                out,
                chip,
                $m::Gras2dBlitCntl {
                    rotate: blit_cntl.rotate,
                    solid_color: blit_cntl.solid_color,
                    color_format: blit_cntl.color_format,
                    mask: blit_cntl.mask,
                    ifmt: blit_cntl.ifmt,
                    ..Default::default()
                },
            )?;
            if chip == Chip::A7xx {
                w(
                    out,
                    chip,
                    regs::Tpl12dSrcCntl {
                        r#type: A6xxTexType::A6XX_TEX_2D,
                        ..Default::default()
                    },
                )?;
            }
            // The RB writes 10_10_10_2 through its own _DEST format; the SP
            // hands it over as 16-bit floats (Turnip's r2d_setup_common).
            let sp_format = if cntl_format == A6xxFormat::FMT6_10_10_10_2_UNORM_DEST {
                A6xxFormat::FMT6_16_16_16_16_FLOAT
            } else {
                cntl_format
            };
            w(
                out,
                chip,
                regs::Sp2dDstFormat {
                    sint: b.kind == DstKind::Sint,
                    uint: b.kind == DstKind::Uint,
                    color_format: sp_format,
                    srgb: b.dst.srgb,
                    mask: 0xf,
                    ..Default::default()
                },
            )?;
            let d = &b.dst;
            if d.samples != 1 {
                return Err(internal(
                    "a 2D engine destination",
                    format!(
                        "{} samples: the engine writes single-sampled surfaces",
                        d.samples
                    ),
                ));
            }
            w(
                out,
                chip,
                $m::Rb2dDstInfo {
                    color_format: d.format,
                    tile_mode: d.tile_mode,
                    color_swap: d.swap,
                    flags: d.flags.is_some(),
                    srgb: d.srgb,
                    samples: A3xxMsaaSamples::MSAA_ONE,
                    ..Default::default()
                },
            )?;
            w(out, chip, regs::Rb2dDst(d.iova))?;
            w(out, chip, regs::Rb2dDstPitch(d.pitch))?;
            if !d.buffer {
                // An uncompressed image still names its base as the flag
                // address, with pitch 0, as Turnip writes it.
                let (flags, pitch) = d.flags.unwrap_or((d.iova, 0));
                w(out, chip, regs::Rb2dDstFlags(flags))?;
                w(out, chip, regs::Rb2dDstFlagsPitch(pitch))?;
            }
            match b.src {
                Source::Solid(c) => {
                    w(out, chip, regs::Rb2dSrcSolidC0(c[0]))?;
                    w(out, chip, regs::Rb2dSrcSolidC1(c[1]))?;
                    w(out, chip, regs::Rb2dSrcSolidC2(c[2]))?;
                    w(out, chip, regs::Rb2dSrcSolidC3(c[3]))?;
                }
                Source::Surface {
                    surface: s, filter, ..
                } => {
                    let mut base = s.iova;
                    if chip == Chip::A7xx && s.buffer {
                        let bytes = texel_bytes(s.format).ok_or_else(|| {
                            internal("a 2D buffer source", format!("{:?}", s.format))
                        })?;
                        let start = (s.iova & 63) as u32;
                        base = s.iova & !63;
                        w(
                            out,
                            chip,
                            regs::Tpl12dSrcCntl {
                                start_offset_texels: start / bytes,
                                r#type: A6xxTexType::A6XX_TEX_IMG_BUFFER,
                                ..Default::default()
                            },
                        )?;
                    }
                    w(
                        out,
                        chip,
                        $m::SpPs2dSrcInfo {
                            color_format: s.format,
                            tile_mode: s.tile_mode,
                            color_swap: s.swap,
                            flags: s.flags.is_some(),
                            srgb: s.srgb,
                            samples: msaa(s.samples)?,
                            samples_average: s.samples > 1 && b.kind == DstKind::Float,
                            filter,
                            unk20: true,
                            unk22: true,
                            ..Default::default()
                        },
                    )?;
                    w(
                        out,
                        chip,
                        regs::SpPs2dSrcSize {
                            width: s.width,
                            height: s.height,
                        },
                    )?;
                    w(out, chip, regs::SpPs2dSrc(base))?;
                    w(
                        out,
                        chip,
                        $m::SpPs2dSrcPitch {
                            pitch: s.pitch,
                            ..Default::default()
                        },
                    )?;
                    if !s.buffer {
                        let (flags, pitch) = s.flags.unwrap_or((s.iova, 0));
                        w(out, chip, regs::SpPs2dSrcFlags(flags))?;
                        w(out, chip, regs::SpPs2dSrcFlagsPitch(pitch))?;
                    }
                }
            }
            let [x0, y0, x1, y1] = b.dst_rect;
            w(out, chip, regs::Gras2dDstTl { x: x0, y: y0 })?;
            w(out, chip, regs::Gras2dDstBr { x: x1, y: y1 })?;
            if let Source::Surface { rect, .. } = b.src {
                w(out, chip, regs::Gras2dSrcTlX(rect[0]))?;
                w(out, chip, regs::Gras2dSrcBrX(rect[2]))?;
                w(out, chip, regs::Gras2dSrcTlY(rect[1]))?;
                w(out, chip, regs::Gras2dSrcBrY(rect[3]))?;
            }
            Ok(())
        }
    };
}

chip_regs!(a6xx_regs, a6xx);
chip_regs!(a7xx_regs, a7xx);

/// Bytes per texel of a hardware format the 2D engine handles, from its
/// name (`FMT6_8_8_8_8_UNORM`: 4).
pub fn texel_bytes(format: A6xxFormat) -> Option<u32> {
    if matches!(
        format,
        A6xxFormat::FMT6_Z24_UNORM_S8_UINT | A6xxFormat::FMT6_Z24_UNORM_S8_UINT_AS_R8G8B8A8
    ) {
        return Some(4);
    }
    let name = format.name(Chip::A6xx)?;
    let bits: u32 = name
        .trim_start_matches("FMT6_")
        .split('_')
        .map_while(|p| p.parse::<u32>().ok())
        .sum();
    (bits > 0 && bits.is_multiple_of(8)).then_some(bits / 8)
}

/// Emits one blit.
pub fn emit(out: &mut impl PacketSink, b: &Blit) -> VkResult<()> {
    let mut writes = Vec::with_capacity(24);
    match out.chip() {
        Chip::A6xx => a6xx_regs(&mut writes, out.chip(), b)?,
        Chip::A7xx => a7xx_regs(&mut writes, out.chip(), b)?,
    }
    out.writes(&writes);
    let op = field(
        "CP_BLIT",
        CpBlitDw0 {
            op: CpBlitCmd::BLIT_OP_SCALE,
        }
        .try_to_raw(),
    )?;
    out.packet(Opcode::CP_BLIT, &[op]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::packets::PacketWriter;

    /// The register writes of a packet stream, in order (offset, value).
    pub(crate) fn reg_writes(dwords: &[u32]) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < dwords.len() {
            let h = dwords[i];
            match h >> 28 {
                4 => {
                    let count = (h & 0x7f) as usize;
                    let offset = (h >> 8) & 0x3ffff;
                    for k in 0..count {
                        out.push((offset + k as u32, dwords[i + 1 + k]));
                    }
                    i += 1 + count;
                }
                7 => {
                    let count = (h & 0x3fff) as usize;
                    out.push((u32::MAX, (h >> 16) & 0x7f));
                    i += 1 + count;
                }
                _ => panic!("not a type 4 or 7 header: {h:#x}"),
            }
        }
        out
    }

    fn buffer_to_image(src: u64, dst: u64) -> Blit {
        Blit {
            src: Source::Surface {
                surface: Surface {
                    iova: src,
                    pitch: 64,
                    format: A6xxFormat::FMT6_32_UINT,
                    swap: A3xxColorSwap::WZYX,
                    tile_mode: A6xxTileMode::TILE6_LINEAR,
                    srgb: false,
                    flags: None,
                    width: 16,
                    height: 16,
                    buffer: true,
                    samples: 1,
                },
                rect: [0, 0, 15, 15],
                filter: false,
            },
            dst: Surface {
                iova: dst,
                pitch: 256,
                format: A6xxFormat::FMT6_32_UINT,
                swap: A3xxColorSwap::WZYX,
                tile_mode: A6xxTileMode::TILE6_3,
                srgb: false,
                flags: None,
                width: 16,
                height: 16,
                buffer: false,
                samples: 1,
            },
            dst_rect: [0, 0, 15, 15],
            ifmt: A6xx2dIfmt::R2D_INT32,
            kind: DstKind::Uint,
            rotate: A6xxRotation::ROTATE_0,
            aspects: Aspects::All,
        }
    }

    #[test]
    fn a_buffer_to_image_copy_writes_turnips_registers() {
        // storage_image.log (a660), the first CP_BLIT: the R32_UINT upload
        // of a 16x16 image at 0x100029000 from a buffer at 0x100026000.
        let mut a6 = PacketWriter::new(Chip::A6xx);
        emit(&mut a6, &buffer_to_image(0x1_0002_6000, 0x1_0002_9000)).unwrap();
        let expected: &[(u32, u32)] = &[
            (0x8c01, 0),
            (0x8c00, 0x07f0_4b00),
            (0x8400, 0x07f0_4b00),
            (0xacc0, 0x0000_f25c),
            (0x8c17, 0x0000_034b),
            (0x8c18, 0x0002_9000),
            (0x8c19, 1),
            (0x8c1a, 4),
            (0x8c20, 0x0002_9000),
            (0x8c21, 1),
            (0x8c22, 0),
            (0xb4c0, 0x0050_004b),
            (0xb4c1, 0x0008_0010),
            (0xb4c2, 0x0002_6000),
            (0xb4c3, 1),
            (0xb4c4, 0x0000_0200),
            (0x8405, 0),
            (0x8406, 0x000f_000f),
            (0x8401, 0),
            (0x8402, 0x0000_0f00),
            (0x8403, 0),
            (0x8404, 0x0000_0f00),
            (u32::MAX, 0x2c),
        ];
        assert_eq!(reg_writes(&a6.dwords), expected);
        // The CP_BLIT payload: 702c0001 00000003.
        assert_eq!(&a6.dwords[a6.dwords.len() - 2..], &[0x702c_0001, 3]);
    }

    #[test]
    fn a7xx_buffer_sources_name_their_type_and_start_texel() {
        // mip_lod_sysmem.log (a740): TPL1_2D_SRC_CNTL 0x20000000 (TEX_2D)
        // in the set-up, 0xa0000000 (IMG_BUFFER) before a buffer source,
        // SP_PS_2D_SRC_PITCH 16 bytes as 0x80.
        let mut b = buffer_to_image(0x1_0003_5100, 0x1_0003_6800);
        if let Source::Surface { surface, .. } = &mut b.src {
            surface.pitch = 16;
        }
        let mut a7 = PacketWriter::new(Chip::A7xx);
        emit(&mut a7, &b).unwrap();
        let writes = reg_writes(&a7.dwords);
        let cntl: Vec<u32> = writes
            .iter()
            .filter(|(o, _)| *o == 0xb2d2)
            .map(|(_, v)| *v)
            .collect();
        assert_eq!(cntl, [0x2000_0000, 0xa000_0000]);
        assert!(writes.contains(&(0xb2c4, 0x80)));
        assert!(writes.contains(&(0xb2c2, 0x0003_5100)));
        // A base 8 bytes past 64-byte alignment: 2 texels of 4 bytes in.
        let mut b = buffer_to_image(0x1_0003_5108, 0x1_0003_6800);
        if let Source::Surface { surface, .. } = &mut b.src {
            surface.pitch = 16;
        }
        let mut a7 = PacketWriter::new(Chip::A7xx);
        emit(&mut a7, &b).unwrap();
        let writes = reg_writes(&a7.dwords);
        assert!(writes.contains(&(0xb2d2, 0xa000_0000 | 2 << 16)));
        assert!(writes.contains(&(0xb2c2, 0x0003_5100)));
    }

    #[test]
    fn a_multisampled_source_is_resolved_and_a_multisampled_destination_refused() {
        // A 4x RGBA8 image into a single-sampled one: SP_PS_2D_SRC_INFO
        // names the samples and averages them for a float destination;
        // an integer one takes sample 0.
        let mut b = buffer_to_image(0x1_0002_6000, 0x1_0002_9000);
        if let Source::Surface { surface, .. } = &mut b.src {
            surface.buffer = false;
            surface.tile_mode = A6xxTileMode::TILE6_3;
            surface.pitch = 1024;
            surface.samples = 4;
            surface.format = A6xxFormat::FMT6_8_8_8_8_UNORM;
        }
        b.dst.format = A6xxFormat::FMT6_8_8_8_8_UNORM;
        b.ifmt = A6xx2dIfmt::R2D_UNORM8;
        b.kind = DstKind::Float;
        let src_info = |b: &Blit| {
            let mut w = PacketWriter::new(Chip::A6xx);
            emit(&mut w, b).unwrap();
            let (_, v) = reg_writes(&w.dwords)
                .into_iter()
                .find(|(o, _)| *o == 0xb4c0)
                .unwrap();
            a6xx::SpPs2dSrcInfo::from_raw(v)
        };
        let info = src_info(&b);
        assert_eq!(info.samples, A3xxMsaaSamples::MSAA_FOUR);
        assert!(info.samples_average);
        b.kind = DstKind::Uint;
        assert!(!src_info(&b).samples_average);
        b.dst.samples = 4;
        assert!(emit(&mut PacketWriter::new(Chip::A6xx), &b).is_err());
    }

    #[test]
    fn misaligned_a6xx_surfaces_are_refused_not_truncated() {
        let mut b = buffer_to_image(0x1_0002_6000, 0x1_0002_9000);
        b.dst.pitch = 100;
        assert!(emit(&mut PacketWriter::new(Chip::A6xx), &b).is_err());
    }

    #[test]
    fn texel_sizes_come_from_the_format_names() {
        assert_eq!(texel_bytes(A6xxFormat::FMT6_8_8_8_8_UNORM), Some(4));
        assert_eq!(texel_bytes(A6xxFormat::FMT6_32_32_32_32_UINT), Some(16));
        assert_eq!(texel_bytes(A6xxFormat::FMT6_5_6_5_UNORM), Some(2));
        assert_eq!(texel_bytes(A6xxFormat::FMT6_Z24_UNORM_S8_UINT), Some(4));
        assert_eq!(texel_bytes(A6xxFormat::FMT6_DXT1), None);
    }
}
