//! What the kernel leaves behind when a submit hangs or faults the GPU: a
//! line in the kernel log naming the offending task, and a devcoredump
//! (`/sys/class/devcoredump/devcd<N>/data`) with the GPU's state. Here the
//! log line goes to stderr and the dump holds the model's report (the
//! packet or shader instruction, the address, what the CP waited for).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::device::Device;

static NEXT: AtomicU32 = AtomicU32::new(0);

/// Who submitted the work, as the report names them.
#[derive(Clone, Debug, Default)]
pub struct Task {
    pub comm: String,
    pub cmdline: String,
}

impl Task {
    /// This process, as /proc shows it.
    pub fn current() -> Self {
        let read = |p: &str| std::fs::read(p).unwrap_or_default();
        let comm = String::from_utf8_lossy(&read("/proc/self/comm"))
            .trim()
            .to_string();
        let cmdline = read("/proc/self/cmdline")
            .split(|&b| b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        Self { comm, cmdline }
    }
}

/// Logs the hang or fault and writes its dump; returns the dump's path.
pub fn write(
    device: &Device,
    kind: &str,
    task: &Task,
    queue: u32,
    report: &str,
) -> Option<PathBuf> {
    let gpu = device.config.gpu;
    eprintln!(
        "parsnip-shim: {}: {}: {kind} on submit queue {queue}: offending task: {} ({})",
        device.driver_name(),
        gpu.name,
        task.comm,
        task.cmdline
    );
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = device.crash_dir.join(format!("devcd{n}"));
    let path = dir.join("data");
    let result = std::fs::create_dir_all(&dir).and_then(|()| {
        let mut f = std::fs::File::create(&path)?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        writeln!(f, "kgsl/msm crash state (parsnip-shim, the GPU model)")?;
        writeln!(f, "module: {}", device.driver_name())?;
        writeln!(f, "time: {}.{:09}", now.as_secs(), now.subsec_nanos())?;
        writeln!(f, "comm: {}", task.comm)?;
        writeln!(f, "cmdline: {}", task.cmdline)?;
        writeln!(f, "revision: {} ({:#010x})", gpu.gpu_id, gpu.kernel_chip_id)?;
        writeln!(f, "submit queue: {queue}")?;
        writeln!(f, "{kind}:")?;
        writeln!(f, "{report}")
    });
    match result {
        Ok(()) => {
            eprintln!("parsnip-shim: devcoredump: {}", path.display());
            Some(path)
        }
        Err(e) => {
            eprintln!("parsnip-shim: writing {}: {e}", path.display());
            None
        }
    }
}
