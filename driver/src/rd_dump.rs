//! `PARSNIP_RD_DUMP=path.rd[.gz]`: every submit written to a freedreno `.rd`
//! trace, as Turnip's `FD_RD_DUMP=full` does: the chip id once, then per
//! submit an `RD_CMD` line, every live BO with its contents at submit time,
//! and the IB1s' addresses. freedreno's cffdump and Parsnip's decoder and
//! replay read it; a replay of a compute submit reproduces its results.

use std::fs::File;
use std::io::BufWriter;
use std::sync::Arc;

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

impl RdDump {
    /// The dump `PARSNIP_RD_DUMP` asks for, if any. A file that cannot be
    /// created fails device creation with a message naming it.
    pub fn from_env(chip_id: u64) -> VkResult<Option<RdDump>> {
        match std::env::var(RD_DUMP_VAR) {
            Ok(path) if !path.is_empty() => RdDump::create(&path, chip_id).map(Some),
            _ => Ok(None),
        }
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
