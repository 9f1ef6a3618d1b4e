//! `PARSNIP_DEBUG`: debugging switches read once per instance.
//!
//! `PARSNIP_DEBUG=flag[,flag...]` (commas, `|` or spaces between flags).
//! The compute path honours:
//!
//! - `startup`: say on stderr which GPU was found, or why none was.
//! - `shaders`: print every compiled compute shader's ir3 disassembly and
//!   statistics to stderr.
//! - `nocache`: pipeline caches never hit (every pipeline is compiled).
//! - `flushall`: every pipeline barrier flushes and invalidates every cache
//!   and waits for idle, whatever its masks say (a missing-barrier bug then
//!   goes away, which tells you it is one).
//! - `syncdispatch`: wait for idle and flush caches after every dispatch, so
//!   a hang or fault is reported at the dispatch that caused it.
//!
//! Render passes ([`crate::tiling::render_mode`]):
//!
//! - `sysmem`: render every pass straight to memory.
//! - `gmem`: render every pass that can be tiled in GMEM bins (without a
//!   binning pass); one that cannot still goes to sysmem, for its reason.
//! - `passes`: say on stderr how each render pass is rendered and why.
//! - `forcebin`: every pass rendered in GMEM runs a binning pass first,
//!   with at least 2 bins across and down where the framebuffer allows.
//! - `nobin`: no pass runs a binning pass (every bin draws every draw).
//!
//! Without `sysmem` or `gmem` a pass whose attachments fit GMEM is
//! rendered there; without `forcebin` or `nobin` a GMEM pass is binned by
//! the cost rule of [`crate::tiling::render_mode`]. Naming an unknown flag prints the list of known ones rather than
//! being ignored silently.
//!
//! Debugging aids with values have variables of their own:
//! `PARSNIP_RD_DUMP` ([`crate::rd_dump`]), `PARSNIP_BREADCRUMBS`
//! ([`crate::breadcrumbs`]) and `PARSNIP_PRESENT_DIR=<dir>`, which writes
//! every presented swapchain image as a PNG in `<dir>`
//! ([`crate::wsi::present_dump`]).

use std::fmt;

/// The environment variable.
pub const DEBUG_VAR: &str = "PARSNIP_DEBUG";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DebugFlags {
    pub startup: bool,
    pub shaders: bool,
    pub nocache: bool,
    pub flushall: bool,
    pub syncdispatch: bool,
    pub sysmem: bool,
    pub gmem: bool,
    pub passes: bool,
    pub forcebin: bool,
    pub nobin: bool,
}

const NAMES: [&str; 10] = [
    "startup",
    "shaders",
    "nocache",
    "flushall",
    "syncdispatch",
    "sysmem",
    "gmem",
    "passes",
    "forcebin",
    "nobin",
];

/// A flag `PARSNIP_DEBUG` named that the driver does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFlag(pub String);

impl fmt::Display for UnknownFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{DEBUG_VAR}: unknown flag `{}` (known: {})",
            self.0,
            NAMES.join(", ")
        )
    }
}

impl DebugFlags {
    /// Parses a flag list; unknown names are returned alongside the flags
    /// that were understood.
    pub fn parse(text: &str) -> (DebugFlags, Vec<UnknownFlag>) {
        let mut flags = DebugFlags::default();
        let mut unknown = Vec::new();
        for name in text
            .split([',', '|', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            match name {
                "startup" => flags.startup = true,
                "shaders" => flags.shaders = true,
                "nocache" => flags.nocache = true,
                "flushall" => flags.flushall = true,
                "syncdispatch" => flags.syncdispatch = true,
                "sysmem" => flags.sysmem = true,
                "gmem" => flags.gmem = true,
                "passes" => flags.passes = true,
                "forcebin" => flags.forcebin = true,
                "nobin" => flags.nobin = true,
                other => unknown.push(UnknownFlag(other.to_string())),
            }
        }
        (flags, unknown)
    }

    /// The flags of this process's environment, warning on stderr about
    /// names it does not know.
    pub fn from_env() -> DebugFlags {
        let Ok(text) = std::env::var(DEBUG_VAR) else {
            return DebugFlags::default();
        };
        let (flags, unknown) = DebugFlags::parse(&text);
        for u in unknown {
            eprintln!("parsnip: {u}");
        }
        flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_parse_with_any_separator_and_unknown_ones_are_named() {
        let (flags, unknown) = DebugFlags::parse("shaders|nocache, startup bogus");
        assert!(flags.shaders && flags.nocache && flags.startup);
        assert!(!flags.flushall && !flags.syncdispatch);
        assert_eq!(unknown, vec![UnknownFlag("bogus".into())]);
        let text = unknown[0].to_string();
        assert!(
            text.contains("`bogus`") && text.contains("syncdispatch"),
            "{text}"
        );
        assert_eq!(DebugFlags::parse("").0, DebugFlags::default());
        let (modes, unknown) = DebugFlags::parse("gmem,passes");
        assert!(modes.gmem && modes.passes && !modes.sysmem && unknown.is_empty());
        let (bins, unknown) = DebugFlags::parse("forcebin,nobin");
        assert!(bins.forcebin && bins.nobin && unknown.is_empty());
    }
}
