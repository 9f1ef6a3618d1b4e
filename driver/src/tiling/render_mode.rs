//! Sysmem or GMEM: the one decision per render pass, made at its end from
//! what the pass is (its tiling, or why it has none), what its commands
//! did that bins cannot replay, and `PARSNIP_DEBUG`.
//!
//! - `PARSNIP_DEBUG=sysmem` renders every pass straight to memory.
//! - A pass that cannot be tiled (attachments that do not fit GMEM or are
//!   not laid out there, a layered framebuffer, multiview, resolve
//!   attachments, input attachments (read from memory by their
//!   descriptors), a clear value not packed
//!   for GMEM, a store off the resolve grid) or whose commands cannot be
//!   replayed per bin (2D-engine clears inside it, which write memory that
//!   the bin's store would then overwrite; secondaries, whose contents the
//!   tiler does not see; breadcrumbs, which count each command once) is
//!   rendered in sysmem, whatever the flags ask.
//! - `PARSNIP_DEBUG=gmem` renders every other pass in bins.
//! - Otherwise: in GMEM when the attachments fit, as the tiler was built
//!   for ([`GMEM_BY_DEFAULT`]).
//!
//! A pass rendered in GMEM then runs a binning pass or not
//! ([`binning`]): always with `PARSNIP_DEBUG=forcebin`, never with
//! `nobin`, and otherwise when it has more than [`BINNING_MIN_BINS`] bins
//! and more than [`BINNING_MIN_DRAWS`] draws. The binning pass costs one
//! vertex-only run of every draw; it pays when most bins can skip most
//! draws, which needs bins to skip in and draws to skip.
//!
//! `PARSNIP_DEBUG=passes` prints each decision and its reason.

use super::PassTiling;
use crate::debug_flags::DebugFlags;

/// Whether a pass that can be tiled is, when no flag says.
pub const GMEM_BY_DEFAULT: bool = true;

/// How a pass is rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderMode {
    /// Straight to the attachments' memory.
    Sysmem,
    /// Bin by bin in GMEM (with a binning pass or not: [`binning`]).
    Gmem,
}

/// The decision and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub mode: RenderMode,
    pub why: String,
}

/// The render mode of a pass with `tiling`, whose recording found
/// `blocker` (the first thing in it bins cannot replay, if any).
pub fn decide(
    flags: &DebugFlags,
    tiling: &Result<PassTiling, String>,
    blocker: Option<&str>,
) -> Decision {
    let sysmem = |why: String| Decision {
        mode: RenderMode::Sysmem,
        why,
    };
    if flags.sysmem {
        return sysmem("PARSNIP_DEBUG=sysmem".into());
    }
    let tiling = match tiling {
        Ok(t) => t,
        Err(why) => return sysmem(why.clone()),
    };
    if let Some(why) = blocker {
        return sysmem(why.to_string());
    }
    let bins = format!(
        "{}x{} bins of {}x{}",
        tiling.bins.columns, tiling.bins.rows, tiling.bins.bin_width, tiling.bins.bin_height
    );
    if flags.gmem {
        return Decision {
            mode: RenderMode::Gmem,
            why: format!("PARSNIP_DEBUG=gmem: {bins}"),
        };
    }
    if GMEM_BY_DEFAULT {
        Decision {
            mode: RenderMode::Gmem,
            why: format!("the attachments fit GMEM: {bins}"),
        }
    } else {
        sysmem("sysmem by default".into())
    }
}

/// Bins a pass needs more of than this to be binned by default.
pub const BINNING_MIN_BINS: u32 = 2;
/// Draws a pass needs more of than this to be binned by default.
pub const BINNING_MIN_DRAWS: u64 = 8;

/// Whether a GMEM pass of `bins` bins and `draws` draws runs a binning
/// pass, and why.
pub fn binning(flags: &DebugFlags, bins: u32, draws: u64) -> (bool, String) {
    if flags.forcebin {
        return (true, "binned: PARSNIP_DEBUG=forcebin".into());
    }
    if flags.nobin {
        return (false, "not binned: PARSNIP_DEBUG=nobin".into());
    }
    let worth = bins > BINNING_MIN_BINS && draws > BINNING_MIN_DRAWS;
    let verdict = if worth { "binned" } else { "not binned" };
    (
        worth,
        format!(
            "{verdict}: {bins} bins, {draws} draws (binned above {BINNING_MIN_BINS} bins and \
             {BINNING_MIN_DRAWS} draws)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiling::bin_layout::BinLayout;
    use crate::tiling::gmem_layout::{GmemAttachment, GmemLayout};
    use parsnip_registers::gpu;

    fn tiling() -> PassTiling {
        let g = gpu::by_name("a660").unwrap();
        let a = [Some(GmemAttachment { bytes_per_pixel: 4 })];
        let gmem = GmemLayout::new(g, &a).unwrap();
        let bins = BinLayout::new(g, &gmem, 64, 64, 1).unwrap();
        PassTiling { gmem, bins }
    }

    #[test]
    fn flags_force_a_mode_but_never_gmem_for_a_pass_that_cannot_have_it() {
        let (gmem_flags, _) = DebugFlags::parse("gmem");
        let (sysmem_flags, _) = DebugFlags::parse("sysmem,gmem");
        let t = Ok(tiling());
        let d = decide(&gmem_flags, &t, None);
        assert_eq!(d.mode, RenderMode::Gmem);
        assert!(d.why.contains("1x1 bins of 96x64"), "{}", d.why);
        assert_eq!(decide(&sysmem_flags, &t, None).mode, RenderMode::Sysmem);
        let d = decide(&gmem_flags, &t, Some("a clear inside the pass"));
        assert_eq!(
            d,
            decide(&DebugFlags::default(), &t, Some("a clear inside the pass"))
        );
        assert_eq!(d.mode, RenderMode::Sysmem);
        let e = decide(&gmem_flags, &Err("too big".into()), None);
        assert_eq!((e.mode, e.why.as_str()), (RenderMode::Sysmem, "too big"));
        let default = decide(&DebugFlags::default(), &t, None);
        assert_eq!(default.mode == RenderMode::Gmem, GMEM_BY_DEFAULT);
    }

    #[test]
    fn binning_is_forced_refused_or_chosen_by_bins_and_draws() {
        let (force, _) = DebugFlags::parse("forcebin");
        let (never, _) = DebugFlags::parse("nobin");
        let none = DebugFlags::default();
        assert!(binning(&force, 1, 0).0);
        assert!(!binning(&never, 100, 1000).0);
        assert!(binning(&none, 3, 9).0);
        assert!(!binning(&none, 2, 1000).0);
        assert!(!binning(&none, 100, 8).0);
    }
}
