//! GET_PARAM and SET_PARAM (adreno_get_param/adreno_set_param).

use std::sync::atomic::Ordering;

use parsnip_kernel_if::msm::uapi::*;

use super::MsmFile;
use crate::ioctl_arg::{self, IoctlResult};

/// Submit queue priorities: one ring, three scheduler priorities
/// (nr_rings * NR_SCHED_PRIORITIES on a6xx/a7xx without preemption).
pub const PRIORITIES: u64 = 3;
/// MSM_PARAM_MAX_FREQ: the model has no clock; this is the rate it reports.
pub const MAX_FREQ_HZ: u64 = 800_000_000;

pub fn get_param(file: &MsmFile, p: &mut MsmParam) -> IoctlResult {
    if p.pipe != MSM_PIPE_3D0 || p.pad != 0 {
        return Err(libc::EINVAL);
    }
    // No parameter is returned through a pointer on this version.
    if p.len != 0 {
        return Err(libc::EINVAL);
    }
    let facts = parsnip_kernel_if::sim::gpu_facts(file.device.config.gpu);
    p.value = match p.param {
        MSM_PARAM_GPU_ID => u64::from(facts.gpu_id),
        MSM_PARAM_GMEM_SIZE => facts.gmem_size,
        MSM_PARAM_CHIP_ID => facts.chip_id,
        MSM_PARAM_MAX_FREQ => MAX_FREQ_HZ,
        MSM_PARAM_TIMESTAMP => file.vm.gpu.timestamp(),
        MSM_PARAM_GMEM_BASE => facts.gmem_base,
        MSM_PARAM_PRIORITIES => PRIORITIES,
        MSM_PARAM_PP_PGTABLE => 0,
        // Global faults (none: every fault here is attributed) plus this
        // file's address space's.
        MSM_PARAM_FAULTS => file.faults.load(Ordering::Acquire),
        MSM_PARAM_SUSPENDS => 0,
        MSM_PARAM_VA_START => file.vm.va_start,
        MSM_PARAM_VA_SIZE => file.vm.va_size,
        _ => return Err(libc::EINVAL),
    };
    Ok(())
}

pub fn set_param(file: &MsmFile, p: &mut MsmParam) -> IoctlResult {
    if p.pipe != MSM_PIPE_3D0 || p.pad != 0 {
        return Err(libc::EINVAL);
    }
    match p.param {
        MSM_PARAM_COMM | MSM_PARAM_CMDLINE => {
            if p.len > 4096 {
                return Err(libc::EINVAL);
            }
            let bytes = ioctl_arg::read_bytes(p.value, p.len as usize)?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let mut task = file.task.lock();
            if p.param == MSM_PARAM_COMM {
                task.comm = text;
            } else {
                task.cmdline = text;
            }
            Ok(())
        }
        MSM_PARAM_SYSPROF if p.len != 0 => Err(libc::EINVAL),
        // Profiling mode keeps performance counters; the model has none to
        // lose, so any level is accepted.
        MSM_PARAM_SYSPROF if p.value <= 2 => Ok(()),
        _ => Err(libc::EINVAL),
    }
}
