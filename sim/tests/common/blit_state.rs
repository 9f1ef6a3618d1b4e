//! The 2D engine's state for a CP_BLIT, written by register name as Turnip
//! writes it (tu_clear_blit.cc's r2d_setup, r2d_src, r2d_dst, r2d_coords,
//! r2d_clear_value).

use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xx2dIfmt, A6xxFormat, A6xxRasterMode, A6xxRotation,
    A6xxTexType, A6xxTileMode, CpBlitCmd,
};
use parsnip_registers::packets::CpBlitDw0;
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use super::Stream;

/// One surface as the 2D engine's registers describe it.
#[derive(Clone, Copy, Debug)]
pub struct Surf {
    pub base: u64,
    pub format: A6xxFormat,
    pub tile_mode: A6xxTileMode,
    pub swap: A3xxColorSwap,
    pub pitch: u32,
    pub flags: Option<(u64, u32)>,
    pub srgb: bool,
    pub samples: A3xxMsaaSamples,
}

impl Surf {
    pub fn linear(base: u64, format: A6xxFormat, pitch: u32) -> Self {
        Self {
            base,
            format,
            tile_mode: A6xxTileMode::TILE6_LINEAR,
            swap: A3xxColorSwap::WZYX,
            pitch,
            flags: None,
            srgb: false,
            samples: A3xxMsaaSamples::MSAA_ONE,
        }
    }

    pub fn tiled(base: u64, format: A6xxFormat, pitch: u32, flags: Option<(u64, u32)>) -> Self {
        Self {
            tile_mode: A6xxTileMode::TILE6_3,
            flags,
            ..Self::linear(base, format, pitch)
        }
    }
}

/// A source surface with its size, the rectangle read, and how.
#[derive(Clone, Copy, Debug)]
pub struct Src {
    pub surf: Surf,
    pub size: (u32, u32),
    /// Inclusive: (x0, y0, x1, y1).
    pub rect: (i32, i32, i32, i32),
    pub filter: bool,
    pub average: bool,
    /// a7xx: an A6XX_TEX_IMG_BUFFER source starting this many texels in.
    pub buffer_offset: Option<u32>,
}

/// A whole BLIT_OP_SCALE.
#[derive(Clone, Copy, Debug)]
pub struct Blit {
    pub ifmt: A6xx2dIfmt,
    pub dst: Surf,
    /// Inclusive: (x0, y0, x1, y1).
    pub dst_rect: (u32, u32, u32, u32),
    pub src: Option<Src>,
    pub solid: [u32; 4],
    pub rotate: A6xxRotation,
    pub unknown_8c01: u32,
    pub scissor: Option<(u32, u32, u32, u32)>,
    pub mask: u32,
    /// SP_2D_DST_FORMAT's (SINT, UINT).
    pub dst_integer: (bool, bool),
}

impl Blit {
    pub fn copy(ifmt: A6xx2dIfmt, src: Src, dst: Surf, dst_rect: (u32, u32, u32, u32)) -> Self {
        Self {
            ifmt,
            dst,
            dst_rect,
            src: Some(src),
            solid: [0; 4],
            rotate: A6xxRotation::ROTATE_0,
            unknown_8c01: 0,
            scissor: None,
            mask: 0xf,
            dst_integer: (false, false),
        }
    }

    pub fn fill(
        ifmt: A6xx2dIfmt,
        colour: [u32; 4],
        dst: Surf,
        dst_rect: (u32, u32, u32, u32),
    ) -> Self {
        Self {
            src: None,
            solid: colour,
            ..Self::copy(
                ifmt,
                Src {
                    surf: dst,
                    size: (0, 0),
                    rect: (0, 0, 0, 0),
                    filter: false,
                    average: false,
                    buffer_offset: None,
                },
                dst,
                dst_rect,
            )
        }
    }

    /// Writes the state and the CP_BLIT.
    // The a7xx registers have fields besides the a6xx ones (MUTABLEEN).
    #[allow(clippy::needless_update)]
    pub fn emit(&self, s: &mut Stream) {
        let chip = s.chip;
        s.reg(&regs::Rb2dUnknown8c01(self.unknown_8c01));
        // RB_2D_BLIT_CNTL and the same value in GRAS_2D_BLIT_CNTL.
        macro_rules! cntl {
            ($chip:ident) => {{
                let c = $chip::Rb2dBlitCntl {
                    rotate: self.rotate,
                    solid_color: self.src.is_none(),
                    color_format: self.dst.format,
                    scissor: self.scissor.is_some(),
                    mask: self.mask,
                    ifmt: self.ifmt,
                    raster_mode: A6xxRasterMode::TYPE_TILED,
                    ..Default::default()
                };
                s.reg(&c);
                s.reg(&$chip::Gras2dBlitCntl::from_raw(c.to_raw()));
            }};
        }
        match chip {
            Chip::A6xx => cntl!(a6xx),
            Chip::A7xx => cntl!(a7xx),
        }
        s.reg(&regs::Sp2dDstFormat {
            sint: self.dst_integer.0,
            uint: self.dst_integer.1,
            color_format: self.dst.format,
            srgb: self.dst.srgb,
            mask: 0xf,
            ..Default::default()
        });
        let d = self.dst;
        macro_rules! dst_info {
            ($chip:ident) => {
                s.reg(&$chip::Rb2dDstInfo {
                    color_format: d.format,
                    tile_mode: d.tile_mode,
                    color_swap: d.swap,
                    flags: d.flags.is_some(),
                    srgb: d.srgb,
                    samples: d.samples,
                    ..Default::default()
                })
            };
        }
        match chip {
            Chip::A6xx => dst_info!(a6xx),
            Chip::A7xx => dst_info!(a7xx),
        };
        s.reg(&regs::Rb2dDst(d.base));
        s.reg(&regs::Rb2dDstPitch(d.pitch));
        if let Some((flags, pitch)) = d.flags {
            s.reg(&regs::Rb2dDstFlags(flags));
            s.reg(&regs::Rb2dDstFlagsPitch(pitch));
        }
        let (x0, y0, x1, y1) = self.dst_rect;
        s.reg(&regs::Gras2dDstTl { x: x0, y: y0 });
        s.reg(&regs::Gras2dDstBr { x: x1, y: y1 });
        if let Some((x0, y0, x1, y1)) = self.scissor {
            s.reg(&regs::Gras2dResolveCntl1 { x: x0, y: y0 });
            s.reg(&regs::Gras2dResolveCntl2 { x: x1, y: y1 });
        }
        match self.src {
            None => {
                s.reg(&regs::Rb2dSrcSolidC0(self.solid[0]));
                s.reg(&regs::Rb2dSrcSolidC1(self.solid[1]));
                s.reg(&regs::Rb2dSrcSolidC2(self.solid[2]));
                s.reg(&regs::Rb2dSrcSolidC3(self.solid[3]));
            }
            Some(src) => self.emit_source(s, src),
        }
        s.pkt(
            "CP_BLIT",
            &[CpBlitDw0 {
                op: CpBlitCmd::BLIT_OP_SCALE,
            }
            .to_raw()],
        );
    }

    fn emit_source(&self, s: &mut Stream, src: Src) {
        let chip = s.chip;
        let f = src.surf;
        macro_rules! info {
            ($chip:ident) => {
                s.reg(&$chip::SpPs2dSrcInfo {
                    color_format: f.format,
                    tile_mode: f.tile_mode,
                    color_swap: f.swap,
                    flags: f.flags.is_some(),
                    srgb: f.srgb,
                    samples: f.samples,
                    filter: src.filter,
                    samples_average: src.average,
                    unk20: true,
                    unk22: true,
                    ..Default::default()
                })
            };
        }
        match chip {
            Chip::A6xx => {
                info!(a6xx);
                s.reg(&a6xx::SpPs2dSrcPitch {
                    pitch: f.pitch,
                    ..Default::default()
                });
            }
            Chip::A7xx => {
                s.reg(&a7xx::Tpl12dSrcCntl {
                    start_offset_texels: src.buffer_offset.unwrap_or(0),
                    r#type: if src.buffer_offset.is_some() {
                        A6xxTexType::A6XX_TEX_IMG_BUFFER
                    } else {
                        A6xxTexType::A6XX_TEX_2D
                    },
                    ..Default::default()
                });
                info!(a7xx);
                s.reg(&a7xx::SpPs2dSrcPitch { pitch: f.pitch });
            }
        }
        s.reg(&regs::SpPs2dSrcSize {
            width: src.size.0,
            height: src.size.1,
        });
        s.reg(&regs::SpPs2dSrc(f.base));
        if let Some((flags, pitch)) = f.flags {
            s.reg(&regs::SpPs2dSrcFlags(flags));
            s.reg(&regs::SpPs2dSrcFlagsPitch(pitch));
        }
        let (x0, y0, x1, y1) = src.rect;
        s.reg(&regs::Gras2dSrcTlX(x0));
        s.reg(&regs::Gras2dSrcBrX(x1));
        s.reg(&regs::Gras2dSrcTlY(y0));
        s.reg(&regs::Gras2dSrcBrY(y1));
    }
}
