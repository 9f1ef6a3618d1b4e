//! Breadcrumbs (`PARSNIP_BREADCRUMBS=host:port[,break=N:HITS]`): after each
//! command of a command buffer that does work or orders it (dispatches,
//! copies, fills, clears, blits, barriers, events, queries, markers,
//! executed secondaries; not binds, pushes or dynamic state), the GPU
//! writes that command's breadcrumb, a serial number unique in the device,
//! into a host-visible word once the command's work is done (the buffer
//! marker's RB_DONE_TS event write). A driver thread ([`watcher`]) polls
//! the word and streams progress over UDP to a receiver
//! (`parsnip-breadcrumbs`, [`wire`] says what it sends), so when the GPU
//! hangs the last breadcrumb names the command that was running.
//!
//! Each kernel submit starts with a prologue IB that counts submits on the
//! GPU (CP_MEM_TO_MEM adds 1 to the submit word) and clears the breadcrumb
//! word, so the thread reads which submit a breadcrumb belongs to from
//! memory. Submits are counted per device, in the order the driver hands
//! them to the kernel; the thread's numbering is the same one.
//!
//! With `break=N:HITS`, after the `N`-th command of every command buffer
//! the GPU waits for idle (so the breadcrumb has landed), clears the
//! release word and waits (CP_WAIT_REG_MEM) for it to read 1. The thread
//! sees the cleared word: on the passages before the `HITS`-th it sets it
//! at once; on the `HITS`-th it tells the receiver and sets it when the
//! receiver answers (`release`), so a developer stops the GPU just before
//! the command after breadcrumb `N`.
//!
//! Off by default: without the variable no BO, thread or packet exists,
//! and recording checks one `Option`.

pub mod options;
mod watcher;
pub mod wire;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

use parking_lot::Mutex;
use parsnip_kernel_if::{BoDesc, KernelDevice};
use parsnip_registers::pm4::Opcode;

use crate::cmd::packets::{add_memory, PacketWriter};
use crate::cmd::stream::Ib;
use crate::device_bo::{BoKind, BoRegistry, DeviceBo};
use crate::error::{internal, VkResult};
use crate::gpu_info::GpuInfo;
pub use options::{BreadcrumbOptions, BreakPoint};
use parsnip_hw_state::PacketSink as _;

/// Byte offsets of the breadcrumb BO's words.
const SUBMIT_OFFSET: u64 = 0;
const CRUMB_OFFSET: u64 = 4;
const RELEASE_OFFSET: u64 = 8;
/// A constant 1, which the prologue adds to the submit count.
const ONE_OFFSET: u64 = 12;
const WORDS: usize = 4;

/// One breadcrumb a command buffer recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crumb {
    pub serial: u32,
    /// The command's position among its command buffer's breadcrumbs,
    /// from 1.
    pub ordinal: u32,
    pub name: &'static str,
}

/// What the queue tells the thread about each submit.
struct Submitted {
    submit: u32,
    crumbs: Vec<Crumb>,
}

/// A device's breadcrumb state.
pub struct Breadcrumbs {
    pub options: BreadcrumbOptions,
    bo: Arc<DeviceBo>,
    prologue: Ib,
    next_serial: AtomicU32,
    /// The submit count, and the channel to the thread, under one lock so
    /// the thread hears of submits in the order they are numbered.
    submits: Mutex<(u32, Sender<Submitted>)>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Breadcrumbs {
    /// The BO, the prologue IB and the thread, streaming to the receiver
    /// the options name.
    pub(crate) fn start(
        options: BreadcrumbOptions,
        gpu: &GpuInfo,
        kernel: &Arc<dyn KernelDevice>,
        bos: &Arc<BoRegistry>,
    ) -> VkResult<Breadcrumbs> {
        let bo = bos.allocate(
            &**kernel,
            &BoDesc::new(4 * WORDS as u64),
            BoKind::DriverData,
        )?;
        // No submit yet, no breadcrumb, nothing stopped.
        bo.write_dwords(0, &[0, 0, 1, 1])?;
        let mut w = PacketWriter::new(gpu.chip());
        let at = bo.iova();
        add_memory(
            &mut w,
            at + SUBMIT_OFFSET,
            at + SUBMIT_OFFSET,
            at + ONE_OFFSET,
        )?;
        let [lo, hi] = PacketWriter::split(at + CRUMB_OFFSET);
        w.packet(Opcode::CP_MEM_WRITE, &[lo, hi, 0]);
        let code = bos.allocate(
            &**kernel,
            &BoDesc::new(4 * w.len() as u64),
            BoKind::Commands,
        )?;
        code.write_dwords(0, &w.dwords)?;
        let prologue = Ib {
            bo: code,
            offset: 0,
            dwords: w.len() as u32,
        };
        let socket = std::net::UdpSocket::bind("0.0.0.0:0")
            .and_then(|s| s.connect(&options.receiver).map(|()| s))
            .map_err(|e| internal("opening the breadcrumb socket", e))?;
        let (sender, receiver) = mpsc::channel();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let thread = watcher::spawn(watcher::Watcher {
            bo: bo.clone(),
            kernel: kernel.clone(),
            socket,
            submits: receiver,
            stop: stop.clone(),
            break_point: options.break_point,
        })
        .map_err(|e| internal("starting the breadcrumb thread", e))?;
        Ok(Breadcrumbs {
            options,
            bo,
            prologue,
            next_serial: AtomicU32::new(1),
            submits: Mutex::new((0, sender)),
            stop,
            thread: Some(thread),
        })
    }

    /// A fresh breadcrumb serial (never 0, which means "none yet").
    pub fn next_serial(&self) -> u32 {
        loop {
            let s = self.next_serial.fetch_add(1, Ordering::Relaxed);
            if s != 0 {
                return s;
            }
        }
    }

    pub fn crumb_iova(&self) -> u64 {
        self.bo.iova() + CRUMB_OFFSET
    }

    pub fn release_iova(&self) -> u64 {
        self.bo.iova() + RELEASE_OFFSET
    }

    /// Whether the command after which breadcrumb `ordinal` comes is the
    /// break point.
    pub fn breaks_at(&self, ordinal: u32) -> bool {
        self.options.break_point.is_some_and(|b| b.crumb == ordinal)
    }

    /// Numbers a kernel submit running `crumbs` and tells the thread;
    /// `submit` then runs the kernel submit with the prologue IB first,
    /// under the lock that keeps numbering and order the same.
    pub fn submit<T>(
        &self,
        crumbs: Vec<Crumb>,
        submit: impl FnOnce(&Ib) -> VkResult<T>,
    ) -> VkResult<T> {
        let mut state = self.submits.lock();
        state.0 += 1;
        // The thread hears of the submit before the GPU can reach a
        // breadcrumb of it. A thread that ended has nothing to report to.
        let _ = state.1.send(Submitted {
            submit: state.0,
            crumbs,
        });
        submit(&self.prologue)
    }
}

impl Drop for Breadcrumbs {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
