//! GEM_SUBMIT, WAIT_FENCE and the submit queue ioctls (msm_gem_submit.c,
//! msm_drv.c, msm_submitqueue.c), each argument checked in the kernel's
//! order with the kernel's errno.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use parking_lot::Mutex;
use parsnip_kernel_if::msm::uapi::*;
use parsnip_sim::IbRange;

use super::params::PRIORITIES;
use super::MsmFile;
use crate::fence::{deadline_from_monotonic_ns, Fence};
use crate::ioctl_arg::{self, IoctlResult};
use crate::submit_queue::{FaultCounters, Job, SubmitQueue};
use crate::sync_file;
use crate::syncobj::{PointFence, SyncObj};

const MSM_PIPE_ID_MASK: u32 = 0xffff;
const MSM_SUBMIT_FLAGS: u32 = MSM_SUBMIT_NO_IMPLICIT
    | MSM_SUBMIT_FENCE_FD_IN
    | MSM_SUBMIT_FENCE_FD_OUT
    | MSM_SUBMIT_SUDO
    | MSM_SUBMIT_SYNCOBJ_IN
    | MSM_SUBMIT_SYNCOBJ_OUT
    | MSM_SUBMIT_FENCE_SN_IN;
const MSM_SUBMIT_BO_FLAGS: u32 = MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_WRITE | MSM_SUBMIT_BO_DUMP;
/// WAIT_FENCE's only flag (MSM_WAIT_FENCE_BOOST, in the field 6.1 calls pad).
const MSM_WAIT_FENCE_BOOST: u32 = 0x1;

/// A submit queue of an msm file and its fences by seqno (the kernel's
/// fence_idr: a retired submit's seqno is forgotten).
pub struct MsmQueue {
    pub queue: Arc<SubmitQueue>,
    fences: Mutex<Fences>,
}

#[derive(Default)]
struct Fences {
    last: u32,
    live: BTreeMap<u32, Arc<Fence>>,
}

fn start_queue(file: &Arc<MsmFile>, id: u32, priority: u32) -> Result<Arc<MsmQueue>, i32> {
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
    Ok(Arc::new(MsmQueue {
        queue,
        fences: Mutex::new(Fences::default()),
    }))
}

/// The queue every file starts with (id 0, the middle priority).
pub fn create_default_queue(file: &Arc<MsmFile>) -> Result<(), i32> {
    let q = start_queue(file, 0, (PRIORITIES / 2) as u32)?;
    let mut state = file.state.lock();
    state.queues.insert(0, q);
    state.next_queue = 1;
    Ok(())
}

pub fn queue_new(file: &Arc<MsmFile>, q: &mut MsmSubmitqueue) -> IoctlResult {
    if q.flags != 0 || u64::from(q.prio) >= PRIORITIES {
        return Err(libc::EINVAL);
    }
    let id = file.state.lock().next_queue;
    let queue = start_queue(file, id, q.prio)?;
    let mut state = file.state.lock();
    state.next_queue += 1;
    state.queues.insert(id, queue);
    q.id = id;
    Ok(())
}

/// SUBMITQUEUE_CLOSE: the default queue cannot be closed; work already
/// queued still runs.
pub fn queue_close(file: &MsmFile, id: u32) -> IoctlResult {
    if id == 0 {
        return Err(libc::ENOENT);
    }
    let q = file.state.lock().queues.remove(&id).ok_or(libc::ENOENT)?;
    q.queue.close();
    Ok(())
}

pub fn queue_query(file: &MsmFile, q: &mut MsmSubmitqueueQuery) -> IoctlResult {
    if q.pad != 0 {
        return Err(libc::EINVAL);
    }
    let queue = file
        .state
        .lock()
        .queues
        .get(&q.id)
        .cloned()
        .ok_or(libc::ENOENT)?;
    if q.param != MSM_SUBMITQUEUE_PARAM_FAULTS {
        return Err(libc::EINVAL);
    }
    let faults = queue
        .queue
        .faults
        .load(std::sync::atomic::Ordering::Acquire);
    if q.data == 0 {
        q.len = 4;
        return Ok(());
    }
    let n = (q.len as usize).min(4);
    ioctl_arg::write_bytes(q.data, &faults.to_le_bytes()[..n])?;
    q.len = n as u32;
    Ok(())
}

/// Whether seqno `a` is after `b` (the kernel's fence_after, with wrap).
fn fence_after(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

pub fn wait_fence(file: &MsmFile, w: &mut MsmWaitFence) -> IoctlResult {
    if w.pad & !MSM_WAIT_FENCE_BOOST != 0 {
        return Err(libc::EINVAL);
    }
    let queue = file
        .state
        .lock()
        .queues
        .get(&w.queueid)
        .cloned()
        .ok_or(libc::ENOENT)?;
    let fence = {
        let fences = queue.fences.lock();
        if fence_after(w.fence, fences.last) {
            return Err(libc::EINVAL);
        }
        fences.live.get(&w.fence).cloned()
    };
    let Some(fence) = fence else {
        return Ok(());
    };
    let ns = w
        .timeout
        .tv_sec
        .saturating_mul(1_000_000_000)
        .saturating_add(w.timeout.tv_nsec);
    if fence.wait(deadline_from_monotonic_ns(ns)) {
        Ok(())
    } else {
        Err(libc::ETIMEDOUT)
    }
}

pub fn gem_submit(file: &Arc<MsmFile>, s: &mut MsmGemSubmit) -> IoctlResult {
    if s.pad != 0 {
        return Err(libc::EINVAL);
    }
    if s.flags & MSM_PIPE_ID_MASK != MSM_PIPE_3D0 {
        return Err(libc::EINVAL);
    }
    if s.flags & !MSM_PIPE_ID_MASK & !MSM_SUBMIT_FLAGS != 0 {
        return Err(libc::EINVAL);
    }
    // Running commands from the ring needs CONFIG_DRM_MSM_GPU_SUDO and
    // CAP_SYS_RAWIO; this kernel has neither.
    if s.flags & MSM_SUBMIT_SUDO != 0 {
        return Err(libc::EINVAL);
    }
    let queue = file
        .state
        .lock()
        .queues
        .get(&s.queueid)
        .cloned()
        .ok_or(libc::ENOENT)?;

    let mut waits: Vec<Arc<Fence>> = Vec::new();
    if s.flags & MSM_SUBMIT_FENCE_FD_IN != 0 {
        waits.push(sync_file::fence_of(s.fence_fd).ok_or(libc::EINVAL)?);
    }
    let stride = s.syncobj_stride as usize;
    let mut to_reset: Vec<Arc<SyncObj>> = Vec::new();
    if s.flags & MSM_SUBMIT_SYNCOBJ_IN != 0 {
        for d in
            ioctl_arg::read_array::<MsmGemSubmitSyncobj>(s.in_syncobjs, s.nr_in_syncobjs, stride)?
        {
            if d.flags & !MSM_SUBMIT_SYNCOBJ_RESET != 0 {
                return Err(libc::EINVAL);
            }
            let syncobj = file.syncobj(d.handle).ok_or(libc::ENOENT)?;
            match syncobj.fence_for(d.point) {
                PointFence::Submitted(f) => waits.push(f),
                PointFence::NotSubmitted => return Err(libc::EINVAL),
            }
            if d.flags & MSM_SUBMIT_SYNCOBJ_RESET != 0 {
                to_reset.push(syncobj);
            }
        }
    }
    let mut signals: Vec<(Arc<SyncObj>, u64)> = Vec::new();
    if s.flags & MSM_SUBMIT_SYNCOBJ_OUT != 0 {
        for d in
            ioctl_arg::read_array::<MsmGemSubmitSyncobj>(s.out_syncobjs, s.nr_out_syncobjs, stride)?
        {
            if d.flags != 0 {
                return Err(libc::EINVAL);
            }
            signals.push((file.syncobj(d.handle).ok_or(libc::EINVAL)?, d.point));
        }
    }

    // The BO table: valid flags, known handles, each BO once.
    let bos = ioctl_arg::read_array::<MsmGemSubmitBo>(s.bos, s.nr_bos, 16)?;
    let mut seen = HashSet::new();
    for b in &bos {
        if b.flags & !MSM_SUBMIT_BO_FLAGS != 0
            || b.flags & (MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_WRITE) == 0
        {
            return Err(libc::EINVAL);
        }
    }
    let mut objects = Vec::with_capacity(bos.len());
    for b in &bos {
        let object = file.object(b.handle).map_err(|_| libc::EINVAL)?;
        if !seen.insert(object.id) {
            return Err(libc::EINVAL);
        }
        objects.push(object);
    }

    let cmds = ioctl_arg::read_array::<MsmGemSubmitCmd>(s.cmds, s.nr_cmds, 32)?;
    for c in &cmds {
        match c.r#type {
            MSM_SUBMIT_CMD_BUF | MSM_SUBMIT_CMD_IB_TARGET_BUF | MSM_SUBMIT_CMD_CTX_RESTORE_BUF => {}
            _ => return Err(libc::EINVAL),
        }
        // a6xx/a7xx take no relocations: userspace knows its iovas.
        if c.size % 4 != 0 || c.nr_relocs != 0 {
            return Err(libc::EINVAL);
        }
    }

    // Pin every BO at its address (making one where there is none).
    let mut holds = Vec::with_capacity(bos.len());
    for b in &bos {
        holds.push(file.mapping(b.handle)?);
    }
    let mut streams = Vec::new();
    for c in &cmds {
        let idx = c.submit_idx as usize;
        let mapping = holds.get(idx).ok_or(libc::EINVAL)?;
        let (offset, dwords) = (u64::from(c.submit_offset / 4), u64::from(c.size / 4));
        if dwords == 0 || offset + dwords > mapping.object.size / 4 {
            return Err(libc::EINVAL);
        }
        // Target buffers are reached from other IBs; the kernel puts only
        // the others in the ring. The restore buffer runs on every submit:
        // each queue's model context starts anew after a switch.
        if c.r#type != MSM_SUBMIT_CMD_IB_TARGET_BUF {
            streams.push(IbRange {
                iova: mapping.iova + offset * 4,
                dwords: dwords as u32,
            });
        }
    }

    let done = Fence::new();
    let seqno = {
        let mut fences = queue.fences.lock();
        fences.live.retain(|_, f| !f.is_signaled());
        let seqno = if s.flags & MSM_SUBMIT_FENCE_SN_IN != 0 {
            if fences.live.contains_key(&s.fence) {
                return Err(libc::EINVAL);
            }
            s.fence
        } else {
            fences.last.wrapping_add(1)
        };
        fences.live.insert(seqno, done.clone());
        fences.last = seqno;
        seqno
    };
    for (object, b) in objects.iter().zip(&bos) {
        object.add_fence(done.clone(), b.flags & MSM_SUBMIT_BO_WRITE != 0);
    }
    if s.flags & MSM_SUBMIT_FENCE_FD_OUT != 0 {
        s.fence_fd = sync_file::create(done.clone())?;
    }
    queue.queue.push(Job {
        streams,
        waits,
        holds,
        done: done.clone(),
    })?;
    s.fence = seqno;
    for r in to_reset {
        r.replace(None);
    }
    for (syncobj, point) in signals {
        if point == 0 {
            syncobj.replace(Some(done.clone()));
        } else {
            syncobj.add_point(point, done.clone());
        }
    }
    Ok(())
}
