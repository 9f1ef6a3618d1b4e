//! A texture as the texture processor reads it: the image an
//! `A6XX_TEX_CONST` descriptor describes ([`crate::surface::texture`]
//! finds its levels and layers), the texel format, the component swizzle
//! and the view's minimum LOD.
//!
//! - DEPTH counts layers for 1D and 2D arrays, slices for 3D, and cubes
//!   for cube maps: a cube's six faces are consecutive layers (Mesa's
//!   fd6_view.c divides the layer count by 6 for texture descriptors).
//! - SWIZ_X..W pick each result component from the texel's X, Y, Z, W, or
//!   the constants 0 and 1, after filtering.
//! - MIN_LOD_CLAMP (VK_EXT_image_view_min_lod, relative to the view's
//!   first level) floors the level of detail.
//!
//! Texels are read through the texture cache: 8x8 blocks of decoded
//! texels, loaded on first use and kept for the launch. The hardware's
//! texture cache is not coherent with what the same draw or dispatch
//! writes either (Vulkan orders such accesses only with barriers between
//! commands), so a launch sees its textures as they were when it first
//! read them.

use parsnip_registers::descriptors::{a6xx, a7xx};
use parsnip_registers::enums::{A6xxTexSwiz, A6xxTexType};
use parsnip_registers::gpu::GpuInfo;
use parsnip_registers::Chip;

use super::surface_trap;
use crate::memory::AddressSpace;
use crate::sp::trap::{error, Trap};
use crate::surface::format::{Texel, TexelFormat};
use crate::surface::texture::TextureImage;
use crate::surface::Surface;

/// One texture view.
pub(crate) struct Texture {
    pub image: TextureImage,
    pub format: TexelFormat,
    swizzle: [A6xxTexSwiz; 4],
    pub min_lod_clamp: f32,
    info: &'static GpuInfo,
    /// The (level, layer)s read so far, and which was read last (lookups
    /// come in runs on the same one).
    planes: Vec<Plane>,
    last: usize,
}

/// Texels per side of a cache block.
const BLOCK: u32 = 8;

/// One level's layer (or slice) and the cached blocks of its texels.
struct Plane {
    key: (u32, u32),
    surface: Surface,
    size: (u32, u32),
    /// Blocks in a row.
    across: u32,
    blocks: Vec<Option<Box<[Texel; (BLOCK * BLOCK) as usize]>>>,
}

impl Plane {
    fn new(key: (u32, u32), surface: Surface, size: (u32, u32)) -> Plane {
        let across = size.0.div_ceil(BLOCK);
        let down = size.1.div_ceil(BLOCK);
        Plane {
            key,
            surface,
            size,
            across,
            blocks: vec![None; (across * down) as usize],
        }
    }

    fn texel(&mut self, memory: &AddressSpace, x: u32, y: u32) -> Result<Texel, Trap> {
        let b = ((y / BLOCK) * self.across + x / BLOCK) as usize;
        let within = ((y % BLOCK) * BLOCK + x % BLOCK) as usize;
        if let Some(block) = &self.blocks[b] {
            return Ok(block[within]);
        }
        let mut block = Box::new([Texel::Int([0; 4]); (BLOCK * BLOCK) as usize]);
        let (x0, y0) = (x / BLOCK * BLOCK, y / BLOCK * BLOCK);
        for dy in 0..BLOCK.min(self.size.1 - y0) {
            for dx in 0..BLOCK.min(self.size.0 - x0) {
                block[(dy * BLOCK + dx) as usize] = self
                    .surface
                    .read_texel(memory, x0 + dx, y0 + dy, 0)
                    .map_err(surface_trap)?;
            }
        }
        let texel = block[within];
        self.blocks[b] = Some(block);
        Ok(texel)
    }
}

impl Texture {
    /// The texture the 16-dword descriptor `raw` describes.
    pub fn decode(raw: &[u32; 16], info: &'static GpuInfo) -> Result<Texture, Trap> {
        let image = TextureImage::from_descriptor(raw, info.chip);
        let (swizzle, min_lod_clamp) = match info.chip {
            Chip::A6xx => {
                let t = a6xx::TextureDescriptor::from_raw(raw);
                ([t.swiz_x, t.swiz_y, t.swiz_z, t.swiz_w], t.min_lod_clamp)
            }
            Chip::A7xx => {
                let t = a7xx::TextureDescriptor::from_raw(raw);
                ([t.swiz_x, t.swiz_y, t.swiz_z, t.swiz_w], t.min_lod_clamp)
            }
        };
        let format = TexelFormat::new(image.format, image.swap)
            .and_then(|f| f.with_srgb(image.srgb))
            .or_else(|e| error(format!("a texture of {e}")))?;
        Ok(Texture {
            image,
            format,
            swizzle,
            min_lod_clamp,
            info,
            planes: Vec::new(),
            last: 0,
        })
    }

    pub fn ty(&self) -> A6xxTexType {
        self.image.ty
    }

    pub fn is_cube(&self) -> bool {
        self.image.ty == A6xxTexType::A6XX_TEX_CUBE
    }

    pub fn is_3d(&self) -> bool {
        self.image.ty == A6xxTexType::A6XX_TEX_3D
    }

    pub fn levels(&self) -> u32 {
        self.image.levels
    }

    /// Width, height and depth (1 unless 3D) of level `level`.
    pub fn level_size(&self, level: u32) -> [u32; 3] {
        let m = |x: u32| (x >> level).max(1);
        [
            m(self.image.width),
            m(self.image.height.max(1)),
            if self.is_3d() {
                m(self.image.depth.max(1))
            } else {
                1
            },
        ]
    }

    /// Layers an array coordinate selects among (cube maps: cubes).
    pub fn layers(&self) -> u32 {
        if self.is_3d() {
            1
        } else {
            self.image.depth.max(1)
        }
    }

    /// The texel at (x, y) of slice or layer `layer` of level `level`, as
    /// the format decodes it (no swizzle); the coordinates are in range.
    pub fn texel(
        &mut self,
        memory: &AddressSpace,
        level: u32,
        layer: u32,
        x: u32,
        y: u32,
    ) -> Result<Texel, Trap> {
        let key = (level, layer);
        if !matches!(self.planes.get(self.last), Some(p) if p.key == key) {
            self.last = match self.planes.iter().position(|p| p.key == key) {
                Some(i) => i,
                None => {
                    let surface = self
                        .image
                        .surface(level, layer, self.info)
                        .map_err(surface_trap)?;
                    let [w, h, _] = self.level_size(level);
                    self.planes.push(Plane::new(key, surface, (w, h)));
                    self.planes.len() - 1
                }
            };
        }
        self.planes[self.last].texel(memory, x, y)
    }

    /// The result components the view's swizzle picks from `t`.
    pub fn swizzle(&self, t: Texel) -> Texel {
        let pick = |s: A6xxTexSwiz| s.0 as usize;
        match t {
            Texel::Float(v) => Texel::Float(self.swizzle.map(|s| match pick(s) {
                c @ 0..=3 => v[c],
                4 => 0.0,
                _ => 1.0,
            })),
            Texel::Int(v) => Texel::Int(self.swizzle.map(|s| match pick(s) {
                c @ 0..=3 => v[c],
                4 => 0,
                _ => 1,
            })),
        }
    }

    /// The texel component result component `c` comes from, or the
    /// constant it is.
    pub fn swizzled_component(&self, c: usize) -> Result<usize, f32> {
        match self.swizzle[c].0 {
            s @ 0..=3 => Ok(s as usize),
            4 => Err(0.0),
            _ => Err(1.0),
        }
    }
}
