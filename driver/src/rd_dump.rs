//! `PARSNIP_RD_DUMP=path.rd[.gz]`: every submit written to a freedreno `.rd`
//! trace, as Turnip's `FD_RD_DUMP=full` does: the chip id once, then per
//! submit an `RD_CMD` line, every live BO with its contents at submit time,
//! and the IB1s' addresses. freedreno's cffdump and Parsnip's decoder and
//! replay read it; a replay of a compute submit reproduces its results.
//!
//! One trace per device, since each device is its own kernel context with
//! its own address space (a replay runs one context): the first device of
//! the process writes the path given, each later one the same path with
//! `.device<N>` before the `.rd` (`trace.device1.rd.gz`). A file is created
//! once per process and flushed after every submit, so a device created
//! after a hang, the usual recovery, leaves the trace of the submit that
//! hung as it was.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufWriter;
use std::sync::{Arc, LazyLock};

use ash::vk;
use parking_lot::Mutex;
use parsnip_rd::{Compression, Writer};

use crate::cmd::stream::Ib;
use crate::device_bo::DeviceBo;
use crate::error::VkResult;

/// The environment variable naming the trace file.
pub const RD_DUMP_VAR: &str = "PARSNIP_RD_DUMP";

pub struct RdDump {
    path: String,
    state: Mutex<DumpState>,
}

struct DumpState {
    writer: Option<Writer<BufWriter<File>>>,
    submits: u64,
}

/// How many devices of this process have dumped to each path asked for.
static DEVICES_PER_PATH: LazyLock<Mutex<HashMap<String, u32>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The file the `index`th device (from 0) dumping to `path` writes.
pub fn device_trace_path(path: &str, index: u32) -> String {
    if index == 0 {
        return path.to_string();
    }
    let split = [".rd.gz", ".rd"]
        .iter()
        .find_map(|ext| path.strip_suffix(ext).map(|stem| (stem, *ext)));
    match split {
        Some((stem, ext)) => format!("{stem}.device{index}{ext}"),
        None => format!("{path}.device{index}"),
    }
}

impl RdDump {
    /// The dump `PARSNIP_RD_DUMP` asks for, if any, in this device's own
    /// file. A file that cannot be created fails device creation with a
    /// message naming it.
    pub fn from_env(chip_id: u64) -> VkResult<Option<RdDump>> {
        match std::env::var(RD_DUMP_VAR) {
            Ok(path) if !path.is_empty() => RdDump::for_next_device(&path, chip_id).map(Some),
            _ => Ok(None),
        }
    }

    /// The dump of the next device of this process that dumps to `path`.
    pub fn for_next_device(path: &str, chip_id: u64) -> VkResult<RdDump> {
        let index = {
            let mut used = DEVICES_PER_PATH.lock();
            let next = used.entry(path.to_string()).or_insert(0);
            let index = *next;
            *next += 1;
            index
        };
        RdDump::create(&device_trace_path(path, index), chip_id)
    }

    pub fn create(path: &str, chip_id: u64) -> VkResult<RdDump> {
        let fail = |e: &dyn std::fmt::Display| {
            eprintln!("parsnip: {RD_DUMP_VAR}={path}: {e}");
            vk::Result::ERROR_INITIALIZATION_FAILED
        };
        let file = File::create(path).map_err(|e| fail(&e))?;
        let compression = if path.ends_with(".gz") {
            Compression::Gzip(6)
        } else {
            Compression::None
        };
        let mut writer = Writer::new(BufWriter::new(file), compression);
        writer.chip_id(chip_id).map_err(|e| fail(&e))?;
        writer.checkpoint().map_err(|e| fail(&e))?;
        Ok(RdDump {
            path: path.to_string(),
            state: Mutex::new(DumpState {
                writer: Some(writer),
                submits: 0,
            }),
        })
    }

    /// Records one submit. A write error stops the dump (with a message)
    /// but not the application.
    pub fn submit(&self, bos: &[Arc<DeviceBo>], ibs: &[Ib]) -> VkResult<()> {
        let mut state = self.state.lock();
        let n = state.submits;
        state.submits += 1;
        let Some(writer) = state.writer.as_mut() else {
            return Ok(());
        };
        let result = (|| -> Result<(), String> {
            writer
                .cmd(&format!("parsnip: submit {n}"))
                .map_err(|e| e.to_string())?;
            for bo in bos {
                let mut contents = vec![0u8; bo.size() as usize];
                bo.read(0, &mut contents)
                    .map_err(|e| format!("reading BO at {:#x}: {e:?}", bo.iova()))?;
                writer
                    .buffer(bo.iova(), &contents)
                    .map_err(|e| e.to_string())?;
            }
            for ib in ibs {
                writer
                    .cmdstream_addr(ib.bo.iova() + ib.offset, ib.dwords)
                    .map_err(|e| e.to_string())?;
            }
            writer.checkpoint().map_err(|e| e.to_string())
        })();
        if let Err(e) = result {
            eprintln!(
                "parsnip: {RD_DUMP_VAR}={}: {e}; no more submits are dumped",
                self.path
            );
            state.writer = None;
        }
        Ok(())
    }
}

impl Drop for RdDump {
    fn drop(&mut self) {
        if let Some(writer) = self.state.get_mut().writer.take() {
            if let Err(e) = writer.finish() {
                eprintln!("parsnip: {RD_DUMP_VAR}={}: {e}", self.path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_devices_write_their_own_file_named_after_the_first() {
        assert_eq!(device_trace_path("out/t.rd", 0), "out/t.rd");
        assert_eq!(device_trace_path("out/t.rd", 2), "out/t.device2.rd");
        assert_eq!(device_trace_path("t.rd.gz", 1), "t.device1.rd.gz");
        assert_eq!(device_trace_path("trace", 1), "trace.device1");
    }

    #[test]
    fn a_later_device_does_not_truncate_an_earlier_devices_trace() {
        let path = std::env::temp_dir().join(format!("parsnip-rd-unit-{}.rd", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let first = RdDump::for_next_device(&path, 0x0606_0001).unwrap();
        let written = std::fs::metadata(&path).unwrap().len();
        assert!(written > 0, "the chip id is flushed at creation");
        let second = RdDump::for_next_device(&path, 0x0606_0001).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), written);
        let second_path = device_trace_path(&path, 1);
        assert!(std::fs::metadata(&second_path).unwrap().len() > 0);
        drop((first, second));
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&second_path);
    }
}
