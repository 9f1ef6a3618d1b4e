//! The breadcrumb thread: polls the breadcrumb BO, streams what changed to
//! the receiver, releases the GPU at break points, and reports a lost
//! device once.

use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::Duration;

use parsnip_kernel_if::KernelDevice;

use super::wire::{datagrams, Command, Message, RELEASE};
use super::{BreakPoint, Submitted, CRUMB_OFFSET, RELEASE_OFFSET, SUBMIT_OFFSET};
use crate::device_bo::DeviceBo;

/// How often the BO is read.
const POLL: Duration = Duration::from_millis(1);
/// Datagrams stay under a typical MTU.
const DATAGRAM_BYTES: usize = 1200;

pub(super) struct Watcher {
    pub bo: Arc<DeviceBo>,
    pub kernel: Arc<dyn KernelDevice>,
    pub socket: UdpSocket,
    pub submits: Receiver<Submitted>,
    pub stop: Arc<AtomicBool>,
    pub break_point: Option<BreakPoint>,
}

pub(super) fn spawn(w: Watcher) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("parsnip-breadcrumbs".into())
        .spawn(move || w.run())
}

impl Watcher {
    fn send(&self, messages: &[Message]) {
        for d in datagrams(messages, DATAGRAM_BYTES) {
            // A receiver that is not listening loses the message, as UDP
            // does; the GPU is not held up for it.
            let _ = self.socket.send(d.as_bytes());
        }
    }

    fn word(&self, offset: u64) -> u32 {
        let mut w = [0u32];
        // A read of the driver's own live BO does not fail; 0 if it did.
        let _ = self.bo.read_dwords(offset, &mut w);
        w[0]
    }

    fn release(&self) {
        let _ = self.bo.write_dwords(RELEASE_OFFSET, &[1]);
    }

    /// Waits for the receiver's `release` (or the device going away).
    fn wait_for_receiver(&self) {
        let _ = self
            .socket
            .set_read_timeout(Some(Duration::from_millis(20)));
        let mut buf = [0u8; 64];
        while !self.stop.load(Ordering::Relaxed) {
            if let Ok(n) = self.socket.recv(&mut buf) {
                if String::from_utf8_lossy(&buf[..n]).trim() == RELEASE {
                    return;
                }
            }
        }
    }

    fn run(self) {
        let mut last = (0, 0);
        let mut hits = 0;
        let mut lost = false;
        while !self.stop.load(Ordering::Relaxed) {
            while let Ok(s) = self.submits.try_recv() {
                let mut messages = vec![Message::Submit {
                    submit: s.submit,
                    crumbs: s.crumbs.len() as u32,
                }];
                messages.extend(s.crumbs.iter().map(|c| {
                    Message::Command(Command {
                        submit: s.submit,
                        serial: c.serial,
                        ordinal: c.ordinal,
                        name: c.name.to_string(),
                    })
                }));
                self.send(&messages);
            }
            let now = (self.word(SUBMIT_OFFSET), self.word(CRUMB_OFFSET));
            if now != last && now.1 != 0 {
                self.send(&[Message::Crumb {
                    submit: now.0,
                    serial: now.1,
                }]);
            }
            last = now;
            // The GPU clears the release word only at a break point.
            if let Some(b) = self.break_point {
                if self.word(RELEASE_OFFSET) == 0 {
                    hits += 1;
                    if hits == b.hits {
                        self.send(&[Message::Break {
                            submit: now.0,
                            serial: now.1,
                            hit: hits,
                        }]);
                        self.wait_for_receiver();
                    }
                    self.release();
                }
            }
            if !lost && self.kernel.status().is_err() {
                lost = true;
                self.send(&[Message::Lost {
                    submit: now.0,
                    serial: now.1,
                }]);
            }
            std::thread::sleep(POLL);
        }
    }
}
