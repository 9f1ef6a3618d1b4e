//! A graphics pipeline's multisample state in the hardware's terms: the
//! sample count every unit is told (`*_RAS_MSAA_CNTL`,
//! `*_DEST_MSAA_CNTL`), the sample mask, alpha to coverage and alpha to
//! one (RB_BLEND_CNTL's SAMPLE_MASK, ALPHA_TO_COVERAGE, ALPHA_TO_ONE).
//!
//! Sample shading (`sampleShadingEnable`) is refused: the device does not
//! offer `sampleRateShading` until per-sample interpolation of every
//! input is built and tested.

use ash::vk;
use parsnip_hw_state::graphics::Pipeline;
use parsnip_registers::enums::A3xxMsaaSamples;

use crate::error::VkResult;
use crate::image::multisample::SAMPLE_COUNTS;

/// What `VkPipelineMultisampleStateCreateInfo` asks for, read out of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Multisample {
    pub samples: vk::SampleCountFlags,
    /// `pSampleMask[0]`, all ones without one (one word: at most 32
    /// samples, and the hardware has 16 mask bits).
    pub sample_mask: u32,
    pub alpha_to_coverage: bool,
    pub alpha_to_one: bool,
    pub sample_shading: bool,
}

impl Default for Multisample {
    /// No multisample state: one sample.
    fn default() -> Self {
        Multisample {
            samples: vk::SampleCountFlags::TYPE_1,
            sample_mask: u32::MAX,
            alpha_to_coverage: false,
            alpha_to_one: false,
            sample_shading: false,
        }
    }
}

fn refuse<T>(what: String) -> VkResult<T> {
    eprintln!("parsnip: vkCreateGraphicsPipelines: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

/// The a3xx_msaa_samples value of a sample count Parsnip rasterizes.
pub fn msaa_samples(samples: vk::SampleCountFlags) -> Option<A3xxMsaaSamples> {
    if !SAMPLE_COUNTS.contains(samples) {
        return None;
    }
    Some(match samples {
        vk::SampleCountFlags::TYPE_1 => A3xxMsaaSamples::MSAA_ONE,
        vk::SampleCountFlags::TYPE_2 => A3xxMsaaSamples::MSAA_TWO,
        vk::SampleCountFlags::TYPE_4 => A3xxMsaaSamples::MSAA_FOUR,
        _ => return None,
    })
}

/// Writes `m` into the pipeline's state.
pub fn multisample(p: &mut Pipeline, m: &Multisample) -> VkResult<()> {
    let Some(samples) = msaa_samples(m.samples) else {
        return refuse(format!(
            "{:?} rasterization samples: Parsnip rasterizes 1, 2 or 4",
            m.samples
        ));
    };
    if m.sample_shading {
        return refuse("sample shading (sampleRateShading is not offered)".into());
    }
    p.samples = samples;
    // RB_BLEND_CNTL.SAMPLE_MASK holds 16 bits; samples past the count are
    // never covered.
    p.sample_mask = m.sample_mask & 0xffff;
    p.alpha_to_coverage = m.alpha_to_coverage;
    p.alpha_to_one = m.alpha_to_one;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_map_to_the_hardware_enum_and_others_are_refused() {
        let mut p = Pipeline::new(0, None, None);
        let m = Multisample {
            samples: vk::SampleCountFlags::TYPE_4,
            sample_mask: 0b1010,
            alpha_to_coverage: true,
            ..Default::default()
        };
        multisample(&mut p, &m).unwrap();
        assert_eq!(p.samples, A3xxMsaaSamples::MSAA_FOUR);
        assert_eq!(p.sample_mask, 0b1010);
        assert!(p.alpha_to_coverage && !p.alpha_to_one);
        let eight = Multisample {
            samples: vk::SampleCountFlags::TYPE_8,
            ..Default::default()
        };
        assert!(multisample(&mut p, &eight).is_err());
        let shading = Multisample {
            sample_shading: true,
            ..m
        };
        assert!(multisample(&mut p, &shading).is_err());
        multisample(&mut p, &Multisample::default()).unwrap();
        assert_eq!(
            (p.samples, p.sample_mask),
            (A3xxMsaaSamples::MSAA_ONE, 0xffff)
        );
    }
}
