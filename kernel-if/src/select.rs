//! Which back end a process gets.
//!
//! - A real Adreno when one is present: a render node driven by msm (the
//!   first in node order), else Android's kgsl device (`/dev/kgsl-3d0`).
//!   "Real" includes the userspace device `libparsnip_shim.so` gives a
//!   process that preloads it: to this crate it is the kernel.
//! - The simulator only when asked: `PARSNIP_SIM=<gpu>`, any GPU of the
//!   catalogue by name (`a660`, `a740`, ...); an unknown name is an error
//!   listing the supported ones. The model's own settings (strict mode, hang
//!   budgets) come from `PARSNIP_SIM_STRICT`, `PARSNIP_SIM_WAIT_MS` and
//!   `PARSNIP_SIM_SHADER_BUDGET` (see `parsnip_sim::options`).
//! - The null back end only when asked, for measuring the driver's CPU
//!   cost: `PARSNIP_NULL=<gpu>` with a catalogue name as for the simulator,
//!   or, for a GPU the catalogue lacks, its facts as numbers:
//!   `PARSNIP_NULL=gpu_id=660,chip_id=0x06060001,gmem_size=0x180000,gmem_base=0x100000`.
//!
//! Never silently: with neither variable and no msm or kgsl device, opening
//! fails with a message saying so and naming `PARSNIP_SIM`.

use std::path::Path;
use std::sync::Arc;

use crate::device::{GpuFacts, KernelDevice};
use crate::error::{Error, Result};
use crate::kgsl::{uapi::KGSL_DEVICE_NODE, KgslDevice};
use crate::msm::{self, MsmDevice};
use crate::null::NullDevice;
use crate::sim::SimDevice;

/// Selects the simulator and the GPU it models.
pub const SIM_VAR: &str = "PARSNIP_SIM";
/// Selects the null back end and the GPU facts it reports.
pub const NULL_VAR: &str = "PARSNIP_NULL";

/// Opens the device the process environment selects.
pub fn open_device() -> Result<Arc<dyn KernelDevice>> {
    open_from_env(|name| std::env::var(name).ok(), Path::new(msm::DRI_DIR))
}

/// Opens the device `env` selects (a lookup of environment variables),
/// looking for msm render nodes in `dri_dir`, then for kgsl's device.
pub fn open_from_env(
    env: impl Fn(&str) -> Option<String>,
    dri_dir: &Path,
) -> Result<Arc<dyn KernelDevice>> {
    open_from_env_at(env, dri_dir, Path::new(KGSL_DEVICE_NODE))
}

/// [`open_from_env`] with kgsl's device node at `kgsl_node`.
pub fn open_from_env_at(
    env: impl Fn(&str) -> Option<String>,
    dri_dir: &Path,
    kgsl_node: &Path,
) -> Result<Arc<dyn KernelDevice>> {
    match (env(SIM_VAR), env(NULL_VAR)) {
        (Some(_), Some(_)) => Err(Error::InvalidArgument(format!(
            "both {SIM_VAR} and {NULL_VAR} are set: choose one back end"
        ))),
        (Some(gpu), None) => open_simulator(&gpu, &env),
        (None, Some(gpu)) => Ok(Arc::new(NullDevice::new(null_gpu_facts(&gpu)?)?)),
        (None, None) => open_hardware(dri_dir, kgsl_node),
    }
}

/// The simulator back end's entry point (`PARSNIP_SIM=<gpu>`): any GPU of
/// the catalogue, by name; an unknown name is an error listing them.
fn open_simulator(
    gpu: &str,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Arc<dyn KernelDevice>> {
    let info = parsnip_registers::gpu::by_name(gpu)
        .map_err(|e| Error::NoDevice(format!("{SIM_VAR}={gpu}: {e}")))?;
    let options = parsnip_sim::SimOptions::from_lookup(env)
        .map_err(|e| Error::InvalidArgument(e.to_string()))?;
    Ok(Arc::new(SimDevice::new(info, options)?))
}

fn open_hardware(dri_dir: &Path, kgsl_node: &Path) -> Result<Arc<dyn KernelDevice>> {
    let found = msm::discover_in(dri_dir);
    let mut failures = Vec::new();
    for node in &found.msm {
        match MsmDevice::open(node) {
            Ok(device) => return Ok(Arc::new(device)),
            Err(e) => failures.push(format!("{}: {e}", node.display())),
        }
    }
    if failures.is_empty() {
        failures.push(found.summary(dri_dir));
    }
    // Opening is the test for kgsl: there is no directory to list.
    match KgslDevice::open(kgsl_node) {
        Ok(device) => return Ok(Arc::new(device)),
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            failures.push(format!("no {}", kgsl_node.display()))
        }
        Err(e) => failures.push(format!("{}: {e}", kgsl_node.display())),
    }
    let seen = failures.join("; ");
    Err(Error::NoDevice(format!(
        "no Adreno GPU found ({seen}). Set {SIM_VAR}=<gpu> (e.g. {SIM_VAR}=a660) to run on \
         Parsnip's simulated GPU"
    )))
}

/// The facts `PARSNIP_NULL` names: a catalogue GPU by name, or facts given
/// as numbers (any value with an `=` in it).
fn null_gpu_facts(value: &str) -> Result<GpuFacts> {
    if value.contains('=') {
        return parse_gpu_facts(value);
    }
    parsnip_registers::gpu::by_name(value.trim())
        .map(crate::sim::gpu_facts)
        .map_err(|e| Error::NoDevice(format!("{NULL_VAR}={value}: {e}")))
}

/// Parses `gpu_id=660,chip_id=0x06060001,gmem_size=0x180000,gmem_base=0x100000`
/// (decimal or 0x-hex values, all four keys required).
pub fn parse_gpu_facts(text: &str) -> Result<GpuFacts> {
    let bad = |why: String| Error::InvalidArgument(format!("{NULL_VAR}={text}: {why}"));
    let mut values: [Option<u64>; 4] = [None; 4];
    const KEYS: [&str; 4] = ["gpu_id", "chip_id", "gmem_size", "gmem_base"];
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| bad(format!("`{item}` is not key=value")))?;
        let slot = KEYS.iter().position(|k| *k == key.trim()).ok_or_else(|| {
            bad(format!(
                "unknown key `{key}` (expected {})",
                KEYS.join(", ")
            ))
        })?;
        let value = value.trim();
        let parsed = match value
            .strip_prefix("0x")
            .or_else(|| value.strip_prefix("0X"))
        {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => value.parse(),
        }
        .map_err(|_| bad(format!("`{value}` is not a number")))?;
        values[slot] = Some(parsed);
    }
    let get = |i: usize| values[i].ok_or_else(|| bad(format!("`{}` is missing", KEYS[i])));
    let gpu_id = get(0)?;
    Ok(GpuFacts {
        gpu_id: u32::try_from(gpu_id).map_err(|_| bad(format!("gpu_id {gpu_id} is too large")))?,
        chip_id: get(1)?,
        gmem_size: get(2)?,
        gmem_base: get(3)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_null_back_end_takes_a_catalogue_name_or_numbers() {
        let by_name = null_gpu_facts("a660").unwrap();
        // The facts the msm kernel reports for an Adreno 660 (gpu_id 660,
        // 1.5 MiB of GMEM), as the simulator back end reports them too.
        assert_eq!(by_name.gpu_id, 660);
        assert_eq!(by_name.gmem_size, 0x18_0000);
        assert_eq!(
            by_name,
            crate::sim::gpu_facts(parsnip_registers::gpu::by_name("a660").unwrap())
        );
        let numbers = null_gpu_facts("gpu_id=1,chip_id=2,gmem_size=3,gmem_base=4").unwrap();
        assert_eq!(numbers.chip_id, 2);
        let unknown = null_gpu_facts("a999").unwrap_err().to_string();
        assert!(
            unknown.contains("PARSNIP_NULL=a999") && unknown.contains("a660"),
            "{unknown}"
        );
    }

    #[test]
    fn gpu_facts_parse_and_errors_name_the_problem() {
        let f =
            parse_gpu_facts("gpu_id=660, chip_id=0x06060001,gmem_size=1572864,gmem_base=0x100000")
                .unwrap();
        assert_eq!(
            f,
            GpuFacts {
                gpu_id: 660,
                chip_id: 0x0606_0001,
                gmem_size: 0x18_0000,
                gmem_base: 0x10_0000
            }
        );
        let missing = parse_gpu_facts("gpu_id=660,chip_id=1,gmem_size=2").unwrap_err();
        assert!(
            missing.to_string().contains("`gmem_base` is missing"),
            "{missing}"
        );
        let unknown = parse_gpu_facts("gpu=660").unwrap_err();
        assert!(
            unknown.to_string().contains("unknown key `gpu`"),
            "{unknown}"
        );
        let nan = parse_gpu_facts("gpu_id=a660").unwrap_err();
        assert!(nan.to_string().contains("`a660` is not a number"), "{nan}");
    }
}
