//! GEM_NEW, GEM_INFO, GEM_CPU_PREP/FINI and GEM_MADVISE (msm_drv.c,
//! msm_gem.c).

use std::sync::Arc;

use parsnip_kernel_if::msm::uapi::*;

use super::{Handle, MsmFile};
use crate::fence::{self, deadline_from_monotonic_ns, Fence};
use crate::gem::GemObject;
use crate::ioctl_arg::{self, IoctlResult};

const MSM_BO_FLAGS: u32 = MSM_BO_SCANOUT | MSM_BO_GPU_READONLY | MSM_BO_CACHE_MASK;
const MSM_PREP_FLAGS: u32 = MSM_PREP_READ | MSM_PREP_WRITE | MSM_PREP_NOSYNC;
/// MSM_PREP_BOOST (a newer kernel's hint to raise clocks); accepted.
const MSM_PREP_BOOST: u32 = 0x08;

pub fn gem_new(file: &MsmFile, n: &mut MsmGemNew) -> IoctlResult {
    if n.flags & !MSM_BO_FLAGS != 0 {
        return Err(libc::EINVAL);
    }
    // One cache mode, known (msm_gem_new_impl); UNCACHED is mapped WC.
    match n.flags & MSM_BO_CACHE_MASK {
        MSM_BO_CACHED | MSM_BO_WC | MSM_BO_UNCACHED | MSM_BO_CACHED_COHERENT => {}
        _ => return Err(libc::EINVAL),
    }
    let object = GemObject::new(&file.device.pool, n.size, u64::from(n.flags))?;
    n.handle = file.state.lock().handles.insert(Handle {
        object,
        mapping: None,
    });
    Ok(())
}

pub fn gem_info(file: &MsmFile, i: &mut MsmGemInfo) -> IoctlResult {
    if i.pad != 0 {
        return Err(libc::EINVAL);
    }
    match i.info {
        MSM_INFO_GET_OFFSET | MSM_INFO_GET_IOVA | MSM_INFO_SET_IOVA if i.len != 0 => {
            return Err(libc::EINVAL)
        }
        MSM_INFO_GET_OFFSET | MSM_INFO_GET_IOVA | MSM_INFO_SET_IOVA | MSM_INFO_SET_NAME
        | MSM_INFO_GET_NAME => {}
        _ => return Err(libc::EINVAL),
    }
    let object = file.object(i.handle)?;
    match i.info {
        MSM_INFO_GET_OFFSET => i.value = object.offset,
        MSM_INFO_GET_IOVA => i.value = file.mapping(i.handle)?.iova,
        MSM_INFO_SET_IOVA => set_iova(file, i.handle, &object, i.value)?,
        MSM_INFO_SET_NAME => {
            // The name buffer holds 32 bytes with the terminating NUL.
            if i.len >= 32 {
                return Err(libc::EINVAL);
            }
            let bytes = ioctl_arg::read_bytes(i.value, i.len as usize)?;
            let printable: String = bytes
                .iter()
                .take_while(|b| b.is_ascii_graphic() || **b == b' ')
                .map(|&b| b as char)
                .collect();
            *object.name.lock() = printable;
        }
        _ => {
            let name = object.name.lock().clone();
            if i.value != 0 && (i.len as usize) < name.len() {
                return Err(libc::EINVAL);
            }
            i.len = name.len() as u32;
            if i.value != 0 {
                ioctl_arg::write_bytes(i.value, name.as_bytes())?;
            }
        }
    }
    Ok(())
}

/// MSM_INFO_SET_IOVA (msm_gem_set_iova): 0 clears the address; the same
/// address again is fine; another address while it has one is `EBUSY`;
/// a range that is taken, unaligned or outside the address space `ENOSPC`.
fn set_iova(file: &MsmFile, handle: u32, object: &Arc<GemObject>, iova: u64) -> IoctlResult {
    let mut state = file.state.lock();
    let h = state.handles.entries_mut(handle).ok_or(libc::ENOENT)?;
    match (&h.mapping, iova) {
        (_, 0) => {
            h.mapping = None;
            Ok(())
        }
        (Some(m), iova) if m.iova == iova => Ok(()),
        (Some(_), _) => Err(libc::EBUSY),
        (None, iova) => {
            h.mapping = Some(file.vm.map(object, Some(iova))?);
            Ok(())
        }
    }
}

pub fn cpu_prep(file: &MsmFile, p: &mut MsmGemCpuPrep) -> IoctlResult {
    if p.op & !(MSM_PREP_FLAGS | MSM_PREP_BOOST) != 0 {
        return Err(libc::EINVAL);
    }
    let object = file.object(p.handle)?;
    let busy = object.busy_fences(p.op & MSM_PREP_WRITE != 0);
    if busy.is_empty() {
        return Ok(());
    }
    if p.op & MSM_PREP_NOSYNC != 0 {
        return Err(libc::EBUSY);
    }
    let all = Fence::all(busy);
    let ns = p
        .timeout
        .tv_sec
        .saturating_mul(1_000_000_000)
        .saturating_add(p.timeout.tv_nsec);
    if fence::wait_until(|| all.is_signaled(), deadline_from_monotonic_ns(ns)) {
        Ok(())
    } else {
        Err(libc::ETIMEDOUT)
    }
}

pub fn cpu_fini(file: &MsmFile, f: &mut MsmGemCpuFini) -> IoctlResult {
    file.object(f.handle).map(|_| ())
}

/// GEM_MADVISE: the shim never purges memory, so the pages are always
/// retained.
pub fn madvise(file: &MsmFile, m: &mut MsmGemMadvise) -> IoctlResult {
    if m.madv > 1 {
        return Err(libc::EINVAL);
    }
    file.object(m.handle)?;
    m.retained = 1;
    Ok(())
}
