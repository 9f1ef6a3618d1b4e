//! A submit queue in software: a worker thread that runs each submit in order
//! once its wait points are signalled, then signals its points and advances
//! the queue's fence.
//!
//! The null back end gives it empty jobs; the simulator's jobs run the model.
//! One worker per queue, as the GPU has one ring per priority: a submit on one
//! queue waiting for a point a later submit on another queue signals
//! (wait-before-signal) holds up only its own queue.
//!
//! A job that fails reports why (a hang or a fault); the device is then lost.
//! The worker still signals that job's points and every later job's, without
//! running them, so no waiter sleeps forever on a dead GPU: waiters see the
//! fence pass and then [`LostState::check`] fail.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use parking_lot::{Condvar, Mutex};

use crate::deadline::Deadline;
use crate::device_lost::LostState;
use crate::error::{Error, Result};
use crate::submit::seqno_passed;
use crate::sync_table::SyncTable;
use crate::syncobj::{SyncPoint, WaitMode};

/// The work of one submit: `Err` carries the report of a hang or fault.
pub type Job = Box<dyn FnOnce() -> std::result::Result<(), String> + Send>;

pub struct QueueWorker {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

struct Shared {
    name: String,
    state: Mutex<State>,
    /// Signalled when a job is queued, a fence passes, or the queue closes.
    changed: Condvar,
    closing: AtomicBool,
    syncs: Arc<SyncTable>,
    lost: Arc<LostState>,
}

#[derive(Default)]
struct State {
    pending: VecDeque<Pending>,
    last_submitted: u32,
    completed: u32,
    /// The worker stopped with jobs left (closed while they waited).
    abandoned: bool,
}

struct Pending {
    seqno: u32,
    waits: Vec<SyncPoint>,
    signals: Vec<SyncPoint>,
    job: Job,
}

impl QueueWorker {
    /// Starts the worker thread of queue `name`.
    pub fn start(name: String, syncs: Arc<SyncTable>, lost: Arc<LostState>) -> Result<Self> {
        let shared = Arc::new(Shared {
            name: name.clone(),
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            closing: AtomicBool::new(false),
            syncs,
            lost,
        });
        let worker = shared.clone();
        let thread = std::thread::Builder::new()
            .name(name.clone())
            .spawn(move || worker.run())
            .map_err(|source| Error::Io {
                what: format!("starting the worker thread of {name}"),
                source,
            })?;
        Ok(Self {
            shared,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Queues `job` to run after `waits` are signalled; `signals` are
    /// signalled after it. Returns the job's fence seqno.
    pub fn submit(&self, waits: Vec<SyncPoint>, signals: Vec<SyncPoint>, job: Job) -> Result<u32> {
        if self.shared.closing.load(Ordering::SeqCst) {
            return Err(Error::InvalidArgument(format!(
                "{} is closed",
                self.shared.name
            )));
        }
        let mut s = self.shared.state.lock();
        let seqno = s.last_submitted.wrapping_add(1);
        s.last_submitted = seqno;
        s.pending.push_back(Pending {
            seqno,
            waits,
            signals,
            job,
        });
        drop(s);
        self.shared.changed.notify_all();
        Ok(seqno)
    }

    /// The seqno of the last submit (0 before the first).
    pub fn last_submitted(&self) -> u32 {
        self.shared.state.lock().last_submitted
    }

    /// Waits until fence `seqno` has passed. Returns [`Error::DeviceLost`]
    /// if the device is lost by then.
    pub fn wait(&self, seqno: u32, deadline: Deadline) -> Result<()> {
        let sh = &self.shared;
        let mut s = sh.state.lock();
        if !seqno_passed(s.last_submitted, seqno) {
            return Err(Error::InvalidArgument(format!(
                "fence {seqno} of {} was never submitted (last is {})",
                sh.name, s.last_submitted
            )));
        }
        while !seqno_passed(s.completed, seqno) {
            if s.abandoned {
                return Err(Error::InvalidArgument(format!(
                    "{} was closed before fence {seqno} passed",
                    sh.name
                )));
            }
            match deadline {
                Deadline::Never => sh.changed.wait(&mut s),
                Deadline::At(at) => {
                    if sh.changed.wait_until(&mut s, at).timed_out()
                        && !seqno_passed(s.completed, seqno)
                    {
                        return Err(Error::Timeout {
                            waiting_for: format!("fence {seqno} of {}", sh.name),
                        });
                    }
                }
            }
        }
        drop(s);
        sh.lost.check()
    }

    /// Waits until everything submitted so far has finished.
    pub fn wait_idle(&self, deadline: Deadline) -> Result<()> {
        self.wait(self.last_submitted(), deadline)
    }

    /// Stops the worker: jobs whose waits are satisfied still run, the first
    /// one still waiting and all after it are dropped without signalling.
    pub fn close(&self) {
        self.shared.closing.store(true, Ordering::SeqCst);
        self.shared.syncs.wake_all();
        drop(self.shared.state.lock());
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.lock().take() {
            // A job that panicked already marked the device lost (see `run`).
            let _ = thread.join();
        }
    }
}

impl Drop for QueueWorker {
    fn drop(&mut self) {
        self.close();
    }
}

impl Shared {
    fn run(&self) {
        while let Some(p) = self.next() {
            let closing = || self.closing.load(Ordering::SeqCst);
            match self
                .syncs
                .wait_or_abort(&p.waits, WaitMode::All, Deadline::Never, &closing)
            {
                Ok(true) => {}
                Ok(false) => return self.abandon(),
                Err(e) => self.lost.set(format!(
                    "submit {} on {} could not wait for its sync points: {e}",
                    p.seqno, self.name
                )),
            }
            if !self.lost.is_lost() {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(p.job));
                match outcome {
                    Ok(Ok(())) => {}
                    Ok(Err(report)) => self.lost.set(report),
                    Err(_) => self.lost.set(format!(
                        "submit {} on {} panicked in the back end",
                        p.seqno, self.name
                    )),
                }
            }
            // A syncobj destroyed meanwhile is the application's misuse;
            // the others must still be signalled.
            for point in &p.signals {
                let _ = self.syncs.signal(std::slice::from_ref(point));
            }
            self.state.lock().completed = p.seqno;
            self.changed.notify_all();
        }
    }

    /// The next job, or `None` once closing with nothing left.
    fn next(&self) -> Option<Pending> {
        let mut s = self.state.lock();
        loop {
            if let Some(p) = s.pending.pop_front() {
                return Some(p);
            }
            if self.closing.load(Ordering::SeqCst) {
                return None;
            }
            self.changed.wait(&mut s);
        }
    }

    fn abandon(&self) {
        let mut s = self.state.lock();
        s.pending.clear();
        s.abandoned = true;
        drop(s);
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn worker() -> (QueueWorker, Arc<SyncTable>, Arc<LostState>) {
        let syncs = Arc::new(SyncTable::new());
        let lost = Arc::new(LostState::new());
        let q = QueueWorker::start("test queue".into(), syncs.clone(), lost.clone()).unwrap();
        (q, syncs, lost)
    }

    fn soon() -> Deadline {
        Deadline::after(Duration::from_secs(10))
    }

    #[test]
    fn jobs_run_in_order_after_their_waits() {
        let (q, syncs, _) = worker();
        let gate = syncs.create(false);
        let out = syncs.create(false);
        let log = Arc::new(Mutex::new(Vec::new()));
        let l1 = log.clone();
        let first = q
            .submit(
                vec![SyncPoint::binary(gate)],
                vec![],
                Box::new(move || {
                    l1.lock().push(1);
                    Ok(())
                }),
            )
            .unwrap();
        let l2 = log.clone();
        let second = q
            .submit(
                vec![],
                vec![SyncPoint::timeline(out, 3)],
                Box::new(move || {
                    l2.lock().push(2);
                    Ok(())
                }),
            )
            .unwrap();
        assert_eq!((first, second), (1, 2));
        assert!(matches!(
            q.wait(second, Deadline::after(Duration::from_millis(20))),
            Err(Error::Timeout { .. })
        ));
        assert!(log.lock().is_empty(), "the gate is not signalled yet");
        syncs.signal(&[SyncPoint::binary(gate)]).unwrap();
        q.wait(second, soon()).unwrap();
        assert_eq!(*log.lock(), vec![1, 2]);
        assert_eq!(syncs.query(out).unwrap(), 3);
        assert!(q.wait(3, Deadline::now()).is_err(), "never submitted");
    }

    #[test]
    fn a_failing_job_loses_the_device_but_still_signals() {
        let (q, syncs, lost) = worker();
        let out = syncs.create(false);
        let f = q
            .submit(
                vec![],
                vec![SyncPoint::binary(out)],
                Box::new(|| Err("hang at IB1 dword 4".into())),
            )
            .unwrap();
        let err = q.wait(f, soon()).unwrap_err();
        assert!(err.to_string().contains("hang at IB1 dword 4"), "{err}");
        assert!(lost.is_lost());
        syncs
            .wait(&[SyncPoint::binary(out)], WaitMode::All, Deadline::now())
            .unwrap();
    }

    #[test]
    fn closing_drops_a_job_still_waiting() {
        let (q, syncs, _) = worker();
        let never = syncs.create(false);
        let out = syncs.create(false);
        let f = q
            .submit(
                vec![SyncPoint::binary(never)],
                vec![SyncPoint::binary(out)],
                Box::new(|| Ok(())),
            )
            .unwrap();
        q.close();
        assert!(q.wait(f, soon()).is_err());
        assert_eq!(syncs.query(out).unwrap(), 0);
        assert!(q.submit(vec![], vec![], Box::new(|| Ok(()))).is_err());
    }
}
