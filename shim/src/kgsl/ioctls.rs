//! The kgsl ioctls a Vulkan driver uses.

use std::ffi::c_ulong;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parsnip_kernel_if::kgsl::uapi::*;
use parsnip_sim::IbRange;

use super::{KgslContext, KgslFile, KgslObject, Timestamps};
use crate::fence::Fence;
use crate::gem::{self, GemObject};
use crate::ioctl_arg::{self, bytes_of, with_arg, IoctlResult, Pod};
use crate::submit_queue::{FaultCounters, Job, SubmitQueue};
use crate::sync_file;

const KGSL_IOC_TYPE: u8 = 0x09;

const fn nr(request: c_ulong) -> u8 {
    (request & 0xff) as u8
}

/// The command numbers kgsl dispatches on (the argument size may differ
/// between header versions, as DRM's does).
const GETPROPERTY: u8 = nr(IOCTL_KGSL_DEVICE_GETPROPERTY);
const WAITTIMESTAMP: u8 = nr(IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID);
const DRAWCTXT_CREATE: u8 = nr(IOCTL_KGSL_DRAWCTXT_CREATE);
const DRAWCTXT_DESTROY: u8 = nr(IOCTL_KGSL_DRAWCTXT_DESTROY);
const READTIMESTAMP: u8 = nr(IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID);
const TIMESTAMP_EVENT: u8 = nr(IOCTL_KGSL_TIMESTAMP_EVENT);
const GPUMEM_ALLOC_ID: u8 = nr(IOCTL_KGSL_GPUMEM_ALLOC_ID);
const GPUMEM_FREE_ID: u8 = nr(IOCTL_KGSL_GPUMEM_FREE_ID);
const GPUMEM_GET_INFO: u8 = nr(IOCTL_KGSL_GPUMEM_GET_INFO);
const GPUOBJ_ALLOC: u8 = nr(IOCTL_KGSL_GPUOBJ_ALLOC);
const GPUOBJ_FREE: u8 = nr(IOCTL_KGSL_GPUOBJ_FREE);
const GPUOBJ_INFO: u8 = nr(IOCTL_KGSL_GPUOBJ_INFO);
const GPUOBJ_IMPORT: u8 = nr(IOCTL_KGSL_GPUOBJ_IMPORT);
const GPU_COMMAND: u8 = nr(IOCTL_KGSL_GPU_COMMAND);

/// The flags GPU object allocation keeps (the rest are refused).
const KNOWN_MEMFLAGS: u64 = KGSL_MEMFLAGS_GPUREADONLY
    | KGSL_CACHEMODE_MASK
    | KGSL_MEMFLAGS_IOCOHERENT
    | KGSL_MEMTYPE_MASK
    | KGSL_MEMALIGN_MASK;

pub fn ioctl(file: &Arc<KgslFile>, request: c_ulong, arg: u64) -> IoctlResult {
    let (nr, kind) = ioctl_arg::nr_and_type(request);
    if kind != KGSL_IOC_TYPE {
        return Err(libc::ENOTTY);
    }
    match nr {
        GETPROPERTY => with_arg(request, arg, |a| get_property(file, a)),
        WAITTIMESTAMP => with_arg(request, arg, |a| wait_timestamp(file, a)),
        DRAWCTXT_CREATE => with_arg(request, arg, |a| drawctxt_create(file, a)),
        DRAWCTXT_DESTROY => with_arg(request, arg, |a: &mut KgslDrawctxtDestroy| {
            let c = file
                .state
                .lock()
                .contexts
                .remove(&a.drawctxt_id)
                .ok_or(libc::EINVAL)?;
            c.queue.close();
            Ok(())
        }),
        READTIMESTAMP => with_arg(request, arg, |a| read_timestamp(file, a)),
        TIMESTAMP_EVENT => with_arg(request, arg, |a| timestamp_event(file, a)),
        GPUMEM_ALLOC_ID => with_arg(request, arg, |a: &mut KgslGpumemAllocId| {
            let (id, object) = alloc(file, a.size, u64::from(a.flags))?;
            a.id = id;
            a.size = object.size;
            a.mmapsize = object.size;
            a.gpuaddr = iova_of(file, id)?;
            Ok(())
        }),
        GPUMEM_FREE_ID => with_arg(request, arg, |a: &mut KgslGpumemFreeId| free(file, a.id)),
        GPUMEM_GET_INFO => with_arg(request, arg, |a| gpumem_get_info(file, a)),
        GPUOBJ_ALLOC => with_arg(request, arg, |a: &mut KgslGpuobjAlloc| {
            let (id, object) = alloc(file, a.size, a.flags)?;
            a.id = id;
            a.mmapsize = object.size;
            a.va_len = object.size;
            Ok(())
        }),
        GPUOBJ_FREE => with_arg(request, arg, |a| gpuobj_free(file, a)),
        GPUOBJ_INFO => with_arg(request, arg, |a: &mut KgslGpuobjInfo| {
            let state = file.state.lock();
            let o = state.objects.get(a.id).ok_or(libc::EINVAL)?;
            a.gpuaddr = o.mapping.iova;
            a.flags = o.flags;
            a.size = o.mapping.object.size;
            a.va_len = o.mapping.object.size;
            a.va_addr = 0;
            Ok(())
        }),
        GPUOBJ_IMPORT => with_arg(request, arg, |a| gpuobj_import(file, a)),
        GPU_COMMAND => with_arg(request, arg, |a| gpu_command(file, a)),
        _ => Err(libc::ENOTTY),
    }
}

fn put<T: Pod>(p: &KgslDeviceGetproperty, value: &T) -> IoctlResult {
    if p.sizebytes as usize != std::mem::size_of::<T>() {
        return Err(libc::EINVAL);
    }
    ioctl_arg::write_bytes(p.value, bytes_of(value))
}

fn get_property(file: &KgslFile, p: &mut KgslDeviceGetproperty) -> IoctlResult {
    let gpu = file.device.config.gpu;
    let facts = parsnip_kernel_if::sim::gpu_facts(gpu);
    match p.r#type {
        KGSL_PROP_DEVICE_INFO => put(
            p,
            &KgslDevinfo {
                device_id: 1,
                chip_id: gpu.kernel_chip_id,
                mmu_enabled: 1,
                gmem_gpubaseaddr: facts.gmem_base,
                gpu_id: gpu.gpu_id,
                gmem_sizebytes: facts.gmem_size,
            },
        ),
        KGSL_PROP_VERSION => put(
            p,
            &KgslVersion {
                drv_major: 3,
                drv_minor: 14,
                dev_major: 3,
                dev_minor: 1,
            },
        ),
        KGSL_PROP_GPU_RESET_STAT => {
            if p.sizebytes != 4 {
                return Err(libc::EINVAL);
            }
            let id: u32 = ioctl_arg::read(p.value, 4)?;
            let c = file
                .state
                .lock()
                .contexts
                .get(&id)
                .cloned()
                .ok_or(libc::EINVAL)?;
            let status = if c.invalidated() {
                KGSL_CTX_STAT_GUILTY_CONTEXT_RESET_EXT
            } else {
                KGSL_CTX_STAT_NO_ERROR
            };
            put(p, &status)
        }
        KGSL_PROP_UCHE_GMEM_VADDR => put(p, &facts.gmem_base),
        KGSL_PROP_HIGHEST_BANK_BIT => put(p, &gpu.highest_bank_bit),
        // The MMU's virtual address bits.
        KGSL_PROP_DEVICE_BITNESS => put(p, &48u32),
        KGSL_PROP_GPU_VA64_SIZE => put(p, &file.vm.va_size),
        KGSL_PROP_GPU_MODEL => {
            let mut model = [0u8; 32];
            let name = format!("Adreno{}v{}", gpu.gpu_id, (gpu.kernel_chip_id & 0xff) + 1);
            model[..name.len().min(31)].copy_from_slice(&name.as_bytes()[..name.len().min(31)]);
            if p.sizebytes != 32 {
                return Err(libc::EINVAL);
            }
            ioctl_arg::write_bytes(p.value, &model)
        }
        _ => Err(libc::EINVAL),
    }
}

fn context(file: &KgslFile, id: u32) -> Result<Arc<KgslContext>, i32> {
    file.state
        .lock()
        .contexts
        .get(&id)
        .cloned()
        .ok_or(libc::EINVAL)
}

fn drawctxt_create(file: &Arc<KgslFile>, c: &mut KgslDrawctxtCreate) -> IoctlResult {
    // kgsl's 16 priority levels onto the scheduler's three.
    let priority =
        ((c.flags & KGSL_CONTEXT_PRIORITY_MASK) >> KGSL_CONTEXT_PRIORITY_SHIFT).min(15) / 6;
    let id = file.state.lock().next_context;
    let queue = SubmitQueue::start(
        file.device,
        file.vm.clone(),
        id,
        priority,
        FaultCounters {
            context: file.faults.clone(),
            task: file.task.clone(),
        },
    )?;
    let mut state = file.state.lock();
    state.next_context += 1;
    state.contexts.insert(
        id,
        Arc::new(KgslContext {
            queue,
            timestamps: parking_lot::Mutex::new(Timestamps::default()),
        }),
    );
    c.drawctxt_id = id;
    Ok(())
}

fn wait_timestamp(file: &KgslFile, w: &mut KgslDeviceWaittimestampCtxtid) -> IoctlResult {
    let c = context(file, w.context_id)?;
    let fence = c.fence_of(w.timestamp)?;
    let deadline = Instant::now().checked_add(Duration::from_millis(u64::from(w.timeout)));
    if fence.wait(deadline) {
        Ok(())
    } else {
        Err(libc::ETIMEDOUT)
    }
}

fn read_timestamp(file: &KgslFile, r: &mut KgslCmdstreamReadtimestampCtxtid) -> IoctlResult {
    let c = context(file, r.context_id)?;
    r.timestamp = match r.r#type {
        KGSL_TIMESTAMP_CONSUMED | KGSL_TIMESTAMP_RETIRED => c.retired(),
        KGSL_TIMESTAMP_QUEUED => c.timestamps.lock().queued,
        _ => return Err(libc::EINVAL),
    };
    Ok(())
}

fn timestamp_event(file: &KgslFile, e: &mut KgslTimestampEvent) -> IoctlResult {
    if e.r#type != KGSL_TIMESTAMP_EVENT_FENCE {
        return Err(libc::EINVAL);
    }
    let c = context(file, e.context_id)?;
    let fence = c.fence_of(e.timestamp)?;
    let fd = sync_file::create(fence)?;
    ioctl_arg::write(
        e.r#priv,
        &KgslTimestampEventFence { fence_fd: fd },
        e.len as usize,
    )
}

fn alloc(file: &KgslFile, size: u64, flags: u64) -> Result<(u32, Arc<GemObject>), i32> {
    if size == 0 || flags & !KNOWN_MEMFLAGS != 0 {
        return Err(libc::EINVAL);
    }
    let object = GemObject::new(&file.device.pool, size, flags)?;
    let mapping = file.vm.map(&object, None)?;
    let id = file
        .state
        .lock()
        .objects
        .insert(KgslObject { mapping, flags });
    Ok((id, object))
}

fn iova_of(file: &KgslFile, id: u32) -> Result<u64, i32> {
    let state = file.state.lock();
    Ok(state.objects.get(id).ok_or(libc::EINVAL)?.mapping.iova)
}

/// Frees an id now; the memory stays mapped while submits use it.
fn free(file: &KgslFile, id: u32) -> IoctlResult {
    file.state
        .lock()
        .objects
        .remove(id)
        .map(|_| ())
        .ok_or(libc::EINVAL)
}

/// GPUOBJ_FREE, at once or (KGSL_GPUOBJ_FREE_ON_EVENT) once a timestamp
/// retires.
fn gpuobj_free(file: &KgslFile, f: &mut KgslGpuobjFree) -> IoctlResult {
    const FREE_ON_EVENT: u64 = 1;
    const EVENT_TIMESTAMP: u32 = 1;
    if f.flags & !FREE_ON_EVENT != 0 {
        return Err(libc::EINVAL);
    }
    if f.flags & FREE_ON_EVENT == 0 {
        return free(file, f.id);
    }
    if f.r#type != EVENT_TIMESTAMP {
        return Err(libc::EINVAL);
    }
    let ts: KgslCmdSyncpointTimestamp = ioctl_arg::read(f.r#priv, f.len as usize)?;
    let fence = context(file, ts.context_id)?.fence_of(ts.timestamp)?;
    let object = file.state.lock().objects.remove(f.id).ok_or(libc::EINVAL)?;
    fence.on_signal(move || drop(object));
    Ok(())
}

fn gpumem_get_info(file: &KgslFile, i: &mut KgslGpumemGetInfo) -> IoctlResult {
    let state = file.state.lock();
    let (id, o) = if i.id != 0 {
        (i.id, state.objects.get(i.id).ok_or(libc::EINVAL)?)
    } else {
        state
            .objects
            .iter()
            .find(|(_, o)| o.mapping.iova == i.gpuaddr)
            .map(|(&id, o)| (id, o))
            .ok_or(libc::EINVAL)?
    };
    i.id = id;
    i.gpuaddr = o.mapping.iova;
    i.flags = o.flags as u32;
    i.size = o.mapping.object.size;
    i.mmapsize = o.mapping.object.size;
    i.useraddr = 0;
    Ok(())
}

fn gpuobj_import(file: &KgslFile, i: &mut KgslGpuobjImport) -> IoctlResult {
    if i.r#type != KGSL_USER_MEM_TYPE_DMABUF {
        return Err(libc::EINVAL);
    }
    let d: KgslGpuobjImportDmaBuf = ioctl_arg::read(i.r#priv, i.priv_len as usize)?;
    let object = gem::object_of_dmabuf(d.fd)?;
    let mapping = file.vm.map(&object, None)?;
    i.id = file.state.lock().objects.insert(KgslObject {
        mapping,
        flags: i.flags,
    });
    Ok(())
}

fn gpu_command(file: &KgslFile, g: &mut KgslGpuCommand) -> IoctlResult {
    let c = context(file, g.context_id)?;
    if c.invalidated() {
        return Err(libc::EDEADLK);
    }
    let sync_only = g.flags & (KGSL_CMDBATCH_SYNC | KGSL_CMDBATCH_MARKER) != 0;
    if g.numcmds == 0 && !sync_only {
        return Err(libc::EINVAL);
    }
    let cmds =
        ioctl_arg::read_array::<KgslCommandObject>(g.cmdlist, g.numcmds, g.cmdsize as usize)?;
    let objs =
        ioctl_arg::read_array::<KgslCommandObject>(g.objlist, g.numobjs, g.objsize as usize)?;
    let syncs =
        ioctl_arg::read_array::<KgslCommandSyncpoint>(g.synclist, g.numsyncs, g.syncsize as usize)?;

    let mut waits = Vec::new();
    for s in &syncs {
        match s.r#type {
            KGSL_CMD_SYNCPOINT_TYPE_TIMESTAMP => {
                let t: KgslCmdSyncpointTimestamp = ioctl_arg::read(s.r#priv, s.size as usize)?;
                waits.push(context(file, t.context_id)?.fence_of(t.timestamp)?);
            }
            KGSL_CMD_SYNCPOINT_TYPE_FENCE => {
                let f: KgslCmdSyncpointFence = ioctl_arg::read(s.r#priv, s.size as usize)?;
                waits.push(sync_file::fence_of(f.fd).ok_or(libc::EINVAL)?);
            }
            _ => return Err(libc::EINVAL),
        }
    }

    let mut holds = Vec::new();
    let mut streams = Vec::new();
    {
        let state = file.state.lock();
        let containing = |addr: u64| {
            state
                .objects
                .iter()
                .map(|(_, o)| &o.mapping)
                .find(|m| addr >= m.iova && addr < m.iova + m.object.size)
                .cloned()
        };
        for cmd in &cmds {
            if cmd.flags & KGSL_CMDLIST_IB == 0 {
                continue;
            }
            if cmd.size == 0 || cmd.size % 4 != 0 {
                return Err(libc::EINVAL);
            }
            holds.extend(containing(cmd.gpuaddr));
            streams.push(IbRange {
                iova: cmd.gpuaddr,
                dwords: (cmd.size / 4) as u32,
            });
        }
        for o in &objs {
            if let Some(obj) = state.objects.get(o.id) {
                holds.push(obj.mapping.clone());
            }
        }
    }

    let done = Fence::new();
    let timestamp = {
        let mut t = c.timestamps.lock();
        let ts = t.queued.wrapping_add(1);
        t.queued = ts;
        t.pending.insert(ts, done.clone());
        ts
    };
    c.queue.push(Job {
        streams,
        waits,
        holds,
        done,
    })?;
    g.timestamp = timestamp;
    Ok(())
}
