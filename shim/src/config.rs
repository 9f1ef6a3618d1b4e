//! `PARSNIP_SHIM=<gpu>[:msm|:kgsl]`: which GPU the process sees, and through
//! which kernel interface. Read once; an unset variable leaves the library
//! inert, a bad one makes the device nodes fail to open with `ENODEV` and a
//! message saying why.

use std::sync::OnceLock;

use parsnip_registers::gpu::GpuInfo;

/// The variable that turns the shim on.
pub const SHIM_VAR: &str = "PARSNIP_SHIM";
/// Where crash reports go (default: the shim's own sysfs tree).
pub const CRASH_DIR_VAR: &str = "PARSNIP_SHIM_CRASH_DIR";

/// The kernel interface the shim offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// The Linux msm DRM driver: `/dev/dri/renderD128`.
    Msm,
    /// Android's kgsl: `/dev/kgsl-3d0`.
    Kgsl,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub gpu: &'static GpuInfo,
    pub kernel: Kernel,
}

/// Parses the variable's value.
pub fn parse(value: &str) -> Result<Config, String> {
    let (name, kernel) = match value.trim().split_once(':') {
        None => (value.trim(), Kernel::Msm),
        Some((name, "msm")) => (name, Kernel::Msm),
        Some((name, "kgsl")) => (name, Kernel::Kgsl),
        Some((_, other)) => {
            return Err(format!(
                "{SHIM_VAR}={value}: unknown kernel interface `{other}` (msm or kgsl)"
            ))
        }
    };
    let gpu =
        parsnip_registers::gpu::by_name(name).map_err(|e| format!("{SHIM_VAR}={value}: {e}"))?;
    Ok(Config { gpu, kernel })
}

/// The process's configuration: `None` when the variable is unset,
/// `Some(Err)` when it is unusable.
pub fn get() -> Option<&'static Result<Config, String>> {
    static CONFIG: OnceLock<Option<Result<Config, String>>> = OnceLock::new();
    CONFIG
        .get_or_init(|| std::env::var(SHIM_VAR).ok().map(|v| parse(&v)))
        .as_ref()
}

/// The kernel interface in use, if the shim is on and configured.
pub fn kernel() -> Option<Kernel> {
    match get() {
        Some(Ok(c)) => Some(c.kernel),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gpu_name_selects_msm_unless_kgsl_is_named() {
        let c = parse("a660").unwrap();
        assert_eq!((c.gpu.name, c.kernel), ("a660", Kernel::Msm));
        let c = parse("a740:kgsl").unwrap();
        assert_eq!((c.gpu.name, c.kernel), ("a740", Kernel::Kgsl));
        assert!(parse("a660:amdgpu")
            .unwrap_err()
            .contains("unknown kernel interface"));
        assert!(parse("a999").unwrap_err().contains("PARSNIP_SHIM=a999"));
    }
}
