//! Submits that wait for a point no submit has signalled yet.
//!
//! GEM_SUBMIT takes the fence of each point it waits on when it is made,
//! and fails with `EINVAL` for a point that has none yet; Vulkan lets a
//! queue submission wait for a timeline value that a later submission or
//! the host signals (wait-before-signal). Such a submit is held here, in
//! its queue's order, by a thread that waits until every point it waits on
//! has a fence (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE) and then makes it.
//! Its seqno is chosen up front (MSM_SUBMIT_FENCE_SN_IN), so the caller
//! gets its fence at once; waits on a held submit's fence first wait for
//! it to be made.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};

use super::drm_file::DrmFile;
use super::uapi::{self, MsmGemSubmit, MsmGemSubmitBo, MsmGemSubmitCmd, MsmGemSubmitSyncobj};
use crate::deadline::Deadline;
use crate::device_lost::LostState;
use crate::error::{Error, Result};

/// Everything one GEM_SUBMIT passes, owned so that it can wait.
#[derive(Clone, Debug)]
pub struct SubmitArgs {
    pub queue: u32,
    pub flags: u32,
    /// With MSM_SUBMIT_FENCE_SN_IN in `flags`: the seqno to use.
    pub seqno: u32,
    pub bos: Vec<MsmGemSubmitBo>,
    pub cmds: Vec<MsmGemSubmitCmd>,
    pub waits: Vec<MsmGemSubmitSyncobj>,
    pub signals: Vec<MsmGemSubmitSyncobj>,
}

impl SubmitArgs {
    /// Makes the submit; returns its seqno.
    pub fn submit(&self, file: &DrmFile) -> Result<u32> {
        let mut flags = self.flags;
        if !self.waits.is_empty() {
            flags |= uapi::MSM_SUBMIT_SYNCOBJ_IN;
        }
        if !self.signals.is_empty() {
            flags |= uapi::MSM_SUBMIT_SYNCOBJ_OUT;
        }
        let mut arg = MsmGemSubmit {
            flags,
            fence: self.seqno,
            nr_bos: self.bos.len() as u32,
            nr_cmds: self.cmds.len() as u32,
            bos: self.bos.as_ptr() as u64,
            cmds: self.cmds.as_ptr() as u64,
            fence_fd: -1,
            queueid: self.queue,
            in_syncobjs: self.waits.as_ptr() as u64,
            out_syncobjs: self.signals.as_ptr() as u64,
            nr_in_syncobjs: self.waits.len() as u32,
            nr_out_syncobjs: self.signals.len() as u32,
            syncobj_stride: std::mem::size_of::<MsmGemSubmitSyncobj>() as u32,
            ..MsmGemSubmit::default()
        };
        // The arrays outlive the call.
        file.ioctl_rw("GEM_SUBMIT", uapi::msm_gem_submit, &mut arg)?;
        Ok(arg.fence)
    }
}

/// Whether every point `waits` names has a fence, waiting until `deadline`
/// for them to get one.
pub fn points_available(
    file: &DrmFile,
    waits: &[MsmGemSubmitSyncobj],
    timelines: bool,
    deadline: Deadline,
) -> Result<bool> {
    use drm::control::Device as _;
    if waits.is_empty() {
        return Ok(true);
    }
    let handles: Vec<drm::control::syncobj::Handle> = waits
        .iter()
        .map(|w| {
            drm::control::from_u32(w.handle)
                .ok_or_else(|| Error::InvalidArgument("syncobj handle 0 is never valid".into()))
        })
        .collect::<Result<_>>()?;
    let timeout = deadline.monotonic_ns();
    let waited = if timelines {
        let points: Vec<u64> = waits.iter().map(|w| w.point).collect();
        file.syncobj_timeline_wait(&handles, &points, timeout, true, true, true)
            .map_err(|e| Error::from_io("SYNCOBJ_TIMELINE_WAIT", e))
    } else {
        // Without timelines a binary payload can only be waited on to
        // signal, which implies it has a fence.
        file.syncobj_wait(&handles, timeout, true, true)
            .map_err(|e| Error::from_io("SYNCOBJ_WAIT", e))
    };
    match waited {
        Ok(_) => Ok(true),
        Err(Error::Timeout { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

#[derive(Default)]
struct QueueHeld {
    pending: VecDeque<SubmitArgs>,
    /// The seqno being made now (taken from `pending`, not yet returned).
    in_flight: Option<u32>,
}

/// The held submits of one device, by queue.
#[derive(Default)]
pub struct Deferred {
    queues: Mutex<HashMap<u32, QueueHeld>>,
    changed: Condvar,
}

impl Deferred {
    /// Whether `queue` has submits held (a new one must then wait too, to
    /// keep the queue's order).
    pub fn holds_queue(&self, queue: u32) -> bool {
        self.queues
            .lock()
            .get(&queue)
            .is_some_and(|q| !q.pending.is_empty() || q.in_flight.is_some())
    }

    /// Whether the submit with `seqno` on `queue` is held.
    pub fn holds(&self, queue: u32, seqno: u32) -> bool {
        self.queues.lock().get(&queue).is_some_and(|q| {
            q.in_flight == Some(seqno) || q.pending.iter().any(|a| a.seqno == seqno)
        })
    }

    /// Waits until the submit with `seqno` on `queue` has been made.
    pub fn wait_made(&self, queue: u32, seqno: u32, deadline: Deadline) -> Result<()> {
        let mut queues = self.queues.lock();
        loop {
            let held = queues.get(&queue).is_some_and(|q| {
                q.in_flight == Some(seqno) || q.pending.iter().any(|a| a.seqno == seqno)
            });
            if !held {
                return Ok(());
            }
            match deadline {
                Deadline::Never => self.changed.wait(&mut queues),
                Deadline::At(at) => {
                    if self.changed.wait_until(&mut queues, at).timed_out() {
                        return Err(Error::Timeout {
                            waiting_for: format!("submit {seqno} on queue {queue} to be made"),
                        });
                    }
                }
            }
        }
    }

    /// Holds `args` until its points are available, then makes it; a
    /// failure then loses the device (there is no caller left to tell).
    pub fn hold(
        self: &Arc<Self>,
        file: Arc<super::bo::MsmShared>,
        lost: Arc<LostState>,
        timelines: bool,
        args: SubmitArgs,
    ) -> Result<()> {
        let queue = args.queue;
        let start = {
            let mut queues = self.queues.lock();
            let q = queues.entry(queue).or_default();
            let idle = q.pending.is_empty() && q.in_flight.is_none();
            q.pending.push_back(args);
            idle
        };
        if !start {
            return Ok(());
        }
        let this = self.clone();
        std::thread::Builder::new()
            .name(format!("msm held submits {queue}"))
            .spawn(move || this.drain(queue, &file, &lost, timelines))
            .map(|_| ())
            .map_err(|source| Error::Io {
                what: "starting the thread for held submits".into(),
                source,
            })
    }

    fn drain(&self, queue: u32, file: &super::bo::MsmShared, lost: &LostState, timelines: bool) {
        loop {
            let args = {
                let mut queues = self.queues.lock();
                let Some(q) = queues.get_mut(&queue) else {
                    return;
                };
                let Some(args) = q.pending.pop_front() else {
                    return;
                };
                q.in_flight = Some(args.seqno);
                args
            };
            let made = points_available(&file.file, &args.waits, timelines, Deadline::Never)
                .and_then(|_| args.submit(&file.file));
            if let Err(e) = made {
                lost.set(format!(
                    "a submit on queue {queue} held for its wait points failed when made: {e}"
                ));
            }
            let mut queues = self.queues.lock();
            if let Some(q) = queues.get_mut(&queue) {
                q.in_flight = None;
                if q.pending.is_empty() {
                    queues.remove(&queue);
                    self.changed.notify_all();
                    return;
                }
            }
            self.changed.notify_all();
        }
    }
}
