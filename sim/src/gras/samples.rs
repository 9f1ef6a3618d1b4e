//! Where a pixel's samples are.
//!
//! GRAS_RAS_MSAA_CNTL.SAMPLES gives the rasterization sample count. The
//! positions are Vulkan's standard sample locations ("Multisampling",
//! the table of standard sample locations), which Turnip advertises
//! (standardSampleLocations), unless GRAS_SAMPLE_CONFIG.LOCATION_ENABLE
//! selects the programmable ones in GRAS_SAMPLE_LOCATION_0/1: four
//! samples, each coordinate a signed 4.4 fixed-point offset from the pixel
//! centre (Turnip's tu6_emit_sample_locations writes location - 0.5).

use parsnip_registers::enums::A3xxMsaaSamples;
use parsnip_registers::regs;

use crate::draw_context::{DrawContext, DrawError};
use crate::report::Unit;

/// The most samples a pixel has (MSAA_EIGHT).
pub(crate) const MAX_SAMPLES: usize = 8;

const STANDARD_1: [(f32, f32); 1] = [(0.5, 0.5)];
const STANDARD_2: [(f32, f32); 2] = [(0.75, 0.75), (0.25, 0.25)];
const STANDARD_4: [(f32, f32); 4] = [
    (0.375, 0.125),
    (0.875, 0.375),
    (0.125, 0.625),
    (0.625, 0.875),
];
const STANDARD_8: [(f32, f32); 8] = [
    (0.5625, 0.3125),
    (0.4375, 0.6875),
    (0.8125, 0.5625),
    (0.3125, 0.1875),
    (0.1875, 0.8125),
    (0.0625, 0.4375),
    (0.6875, 0.9375),
    (0.9375, 0.0625),
];

/// The sample count and positions (within the pixel, 0..1) of a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SamplePattern {
    pub count: usize,
    pub positions: [(f32, f32); MAX_SAMPLES],
}

/// The sample count a3xx_msaa_samples names.
pub(crate) fn sample_count(s: A3xxMsaaSamples) -> usize {
    1 << (s.0 & 3)
}

impl SamplePattern {
    /// The standard pattern of `count` samples.
    pub fn standard(count: usize) -> SamplePattern {
        let table: &[(f32, f32)] = match count {
            1 => &STANDARD_1,
            2 => &STANDARD_2,
            4 => &STANDARD_4,
            _ => &STANDARD_8,
        };
        let mut positions = [(0.5, 0.5); MAX_SAMPLES];
        positions[..table.len()].copy_from_slice(table);
        SamplePattern {
            count: table.len(),
            positions,
        }
    }

    pub fn read(ctx: &DrawContext) -> Result<SamplePattern, DrawError> {
        let u = Unit::Gras;
        let msaa = regs::GrasRasMsaaCntl::from_raw(ctx.reg32::<regs::GrasRasMsaaCntl>(u)?);
        let count = sample_count(msaa.samples);
        let config = regs::GrasSampleConfig::from_raw(ctx.reg32::<regs::GrasSampleConfig>(u)?);
        if !config.location_enable {
            return Ok(SamplePattern::standard(count));
        }
        if count > 4 {
            return Err(DrawError::not_modelled(
                u,
                "programmable locations for more than 4 samples",
            ));
        }
        let l0 = regs::GrasSampleLocation0::from_raw(ctx.reg32::<regs::GrasSampleLocation0>(u)?);
        let offsets = [
            (l0.sample_0_x, l0.sample_0_y),
            (l0.sample_1_x, l0.sample_1_y),
            (l0.sample_2_x, l0.sample_2_y),
            (l0.sample_3_x, l0.sample_3_y),
        ];
        let mut positions = [(0.5, 0.5); MAX_SAMPLES];
        for (p, (x, y)) in positions.iter_mut().zip(offsets).take(count) {
            *p = (0.5 + x, 0.5 + y);
        }
        Ok(SamplePattern { count, positions })
    }

    /// The mask with every sample of a pixel set.
    pub fn all(&self) -> u32 {
        (1 << self.count) - 1
    }
}
