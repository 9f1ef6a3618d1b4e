//! How many registers a compute shader may take, and at which wave size.
//!
//! An SP holds as many waves as its register file has room for at the shader's footprint
//! (`ShaderModel::max_waves`, Mesa's ir3_get_reg_dependent_max_waves). A work group with a
//! barrier only gets past it once every one of its waves has arrived, so all of them must
//! be resident at once: its waves, counted in the units of `wave_granularity` in which the
//! hardware grants them, bound the footprint. Mesa's ir3 RA lowers its register limit the
//! same way for such shaders (calc_limit_pressure_for_cs_with_barrier) and spills to meet
//! it; only a work group that cannot be resident even at one vec4 per fiber is refused.

use super::ra::FULL_SCALARS;
use crate::error::{CompileError, Result};
use crate::target::ShaderModel;

/// The register plan of a shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    /// Double-size waves.
    pub double: bool,
    /// Scalars register allocation may use.
    pub budget: u32,
    /// Scalars the scheduler tries to stay within: the largest footprint at which an SP
    /// still holds its most waves, within the budget.
    pub target: u32,
}

/// The vec4 footprint of the full register file.
const FILE_VEC4: u32 = FULL_SCALARS / 4;

/// Waves of `invocations` at a wave size, rounded up to the granularity waves come in.
fn waves_needed(model: &dyn ShaderModel, invocations: u32, double: bool) -> u32 {
    let g = model.gpu();
    invocations.div_ceil(model.wave_size(double) * g.wave_granularity) * g.wave_granularity
}

/// The largest footprint (vec4s) at which `waves` waves fit in an SP.
fn largest_footprint(model: &dyn ShaderModel, waves: u32, double: bool) -> Option<u32> {
    (1..=FILE_VEC4)
        .rev()
        .find(|&f| model.max_waves(f, double) >= waves)
}

/// Which wave sizes a shader may run at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waves {
    /// Only single-size (`false`) or only double-size waves: a shader using subgroups
    /// stays at the subgroup size, the base one the driver reports unless the
    /// application required another.
    Only(bool),
    /// Whichever leaves each fiber more registers.
    Either,
}

/// The register budget and wave size for a shader of `invocations` per work group.
pub fn plan(
    model: &dyn ShaderModel,
    invocations: u32,
    uses_barrier: bool,
    waves: Waves,
) -> Result<Occupancy> {
    let g = model.gpu();
    let (double, budget_vec4) = if uses_barrier {
        let sizes: &[bool] = match waves {
            Waves::Only(false) => &[false],
            Waves::Only(true) => &[true],
            Waves::Either if g.supports_double_threadsize => &[false, true],
            Waves::Either => &[false],
        };
        // The wave size that leaves each fiber the most registers; single-size waves on a
        // tie.
        let best = sizes
            .iter()
            .filter_map(|&d| {
                largest_footprint(model, waves_needed(model, invocations, d), d).map(|f| (f, d))
            })
            .max_by_key(|&(f, d)| (f, !d));
        let Some((f, d)) = best else {
            return Err(CompileError::new(format!(
                "a work group of {invocations} invocations with a barrier cannot have all \
                 its waves resident on {} even at one register per invocation",
                g.name
            )));
        };
        (d, f)
    } else {
        (waves == Waves::Only(true), FILE_VEC4)
    };
    let most = model.max_waves(1, double);
    let roomy = largest_footprint(model, most, double).unwrap_or(1);
    // One vec4 of slack for the hardware-written inputs and the allocator's rounding.
    let target = (roomy.min(budget_vec4) * 4).saturating_sub(4).max(8);
    Ok(Occupancy {
        double,
        budget: budget_vec4 * 4,
        target,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::model;

    /// Mesa's limit for a work group with a barrier: reg_size_vec4 / (wave pairs * 2 for
    /// double waves) vec4s per fiber (ir3_ra.c), with a660's 64-vec4 and a740's 96-vec4
    /// register file (freedreno_devices.py a6xx_gen4, a7xx_base).
    #[test]
    fn barrier_budgets_are_mesas_limits() {
        let a660 = model("a660").unwrap();
        let a740 = model("a740").unwrap();
        // 1024 invocations: 8 pairs of 64-wide waves, 64 / 8 = 8 vec4.
        assert_eq!(
            plan(a660.as_ref(), 1024, true, Waves::Either)
                .unwrap()
                .budget,
            8 * 4
        );
        assert_eq!(
            plan(a740.as_ref(), 1024, true, Waves::Either)
                .unwrap()
                .budget,
            12 * 4
        );
        // 672: 6 pairs (64 / 6 = 10), or 3 pairs of double waves (64 / 6 = 10).
        let p = plan(a660.as_ref(), 672, true, Waves::Either).unwrap();
        assert_eq!((p.budget, p.double), (10 * 4, false));
        // 320: 3 pairs (21) beats 2 double pairs (16).
        assert_eq!(
            plan(a660.as_ref(), 320, true, Waves::Either)
                .unwrap()
                .budget,
            21 * 4
        );
        // 143: 2 pairs, 32 vec4 each on a660; on a740 48, all a fiber can name.
        assert_eq!(
            plan(a660.as_ref(), 143, true, Waves::Either)
                .unwrap()
                .budget,
            32 * 4
        );
        assert_eq!(
            plan(a740.as_ref(), 143, true, Waves::Either)
                .unwrap()
                .budget,
            48 * 4
        );
        // Without a barrier the whole file.
        assert_eq!(
            plan(a660.as_ref(), 1024, false, Waves::Either)
                .unwrap()
                .budget,
            FULL_SCALARS
        );
    }

    #[test]
    fn the_schedule_target_keeps_the_most_waves() {
        // a660: 16 waves up to 8 vec4 (64 / 8 * 2); a740 up to 12 (96 / 12 * 2).
        let a660 = model("a660").unwrap();
        let a740 = model("a740").unwrap();
        assert_eq!(
            plan(a660.as_ref(), 64, false, Waves::Either)
                .unwrap()
                .target,
            7 * 4
        );
        assert_eq!(
            plan(a740.as_ref(), 64, false, Waves::Either)
                .unwrap()
                .target,
            11 * 4
        );
        assert_eq!(a660.max_waves(8, false), 16);
        assert_eq!(a660.max_waves(9, false), 14);
    }

    #[test]
    fn a_required_wave_size_is_kept_with_its_budget() {
        let a660 = model("a660").unwrap();
        // 1024 invocations in double waves: 4 pairs, 64 / (4 * 2) = 8 vec4, the budget
        // Mesa's limit gives; single waves are the same 8, which Either would pick.
        let p = plan(a660.as_ref(), 1024, true, Waves::Only(true)).unwrap();
        assert_eq!((p.double, p.budget), (true, 8 * 4));
        assert!(
            !plan(a660.as_ref(), 1024, true, Waves::Either)
                .unwrap()
                .double
        );
        // Without a barrier the size is what was asked.
        assert!(
            plan(a660.as_ref(), 64, false, Waves::Only(true))
                .unwrap()
                .double
        );
        assert!(
            !plan(a660.as_ref(), 64, false, Waves::Only(false))
                .unwrap()
                .double
        );
    }
}
