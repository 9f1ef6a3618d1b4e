//! The shim's one GPU: its configuration, the memory all objects live in,
//! the model's options, and the sysfs tree it shows. Made on the first call
//! that reaches a device path.

use std::path::PathBuf;
use std::sync::OnceLock;

use parsnip_sim::SimOptions;

use crate::config::{self, Config, Kernel};
use crate::gem::MemoryPool;
use crate::sysfs;

pub struct Device {
    pub config: Config,
    pub pool: MemoryPool,
    pub options: SimOptions,
    /// The root of the files the shim shows in /dev and /sys.
    pub tree: PathBuf,
    /// Where crash reports go.
    pub crash_dir: PathBuf,
}

impl Device {
    pub fn driver_name(&self) -> &'static str {
        match self.config.kernel {
            Kernel::Msm => "msm",
            Kernel::Kgsl => "kgsl",
        }
    }
}

/// The device, made on first use; the error says why there is none.
pub fn get() -> Result<&'static Device, &'static str> {
    static DEVICE: OnceLock<Result<Device, String>> = OnceLock::new();
    DEVICE
        .get_or_init(|| {
            let config = match config::get() {
                Some(Ok(c)) => c.clone(),
                Some(Err(e)) => return Err(e.clone()),
                None => return Err(format!("{} is not set", config::SHIM_VAR)),
            };
            let options = SimOptions::from_lookup(|n| std::env::var(n).ok())
                .map_err(|e| format!("parsnip-shim: {e}"))?;
            let tree = std::env::temp_dir().join(format!("parsnip-shim-{}", std::process::id()));
            sysfs::build(&tree, config.gpu)
                .map_err(|e| format!("building {}: {e}", tree.display()))?;
            // The tree goes when the process does; crash reports stay.
            extern "C" fn remove_tree() {
                if let Ok(d) = get() {
                    let _ = std::fs::remove_dir_all(&d.tree);
                }
            }
            // SAFETY: registering a function with no arguments to run at
            // exit.
            unsafe { libc::atexit(remove_tree) };
            let crash_dir = std::env::var_os(config::CRASH_DIR_VAR)
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    std::env::temp_dir()
                        .join(format!("parsnip-shim-crashes-{}", std::process::id()))
                });
            Ok(Device {
                config,
                pool: MemoryPool::new()?,
                options,
                tree,
                crash_dir,
            })
        })
        .as_ref()
        .map_err(|e| {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| eprintln!("parsnip-shim: no device: {e}"));
            e.as_str()
        })
}
