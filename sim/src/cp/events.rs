//! CP_EVENT_WRITE (a6xx) and CP_EVENT_WRITE7 (a7xx): pipeline events, and
//! the memory writes that signal them.
//!
//! Cache flushes, invalidates and cleans, and the "done" events that wait
//! for a stage to drain, have nothing to do on the model (every packet's
//! work is complete before the next packet runs), except that with strict
//! caches the CCU and UCHE flushes write those caches back ([`crate::ccu`],
//! [`crate::uche`]). What
//! they write is written:
//! - a6xx: an event named `..._TS` writes the packet's fourth dword to the
//!   address in its second and third, or, with TIMESTAMP set, the 64-bit
//!   always-on counter ("when set, write back timestamp instead of value
//!   from packet", adreno_pm4.xml);
//! - a7xx: with WRITE_ENABLED, WRITE_SRC says what is written to the RAM
//!   address: PAYLOAD_0, PAYLOAD_0 and _1, the always-on counter, or
//!   PAYLOAD_1 registers from offset PAYLOAD_0.
//!
//! BLIT and CCU_END_RESOLVE_GROUP drive the resolve engine (`resolve`).
//! UNK_2C and UNK_2D are what Turnip writes just before and just after the
//! draws of a binning pass (tu6_emit_binning_pass); what they do is not
//! public, and the model's binning pass (`binning`) needs nothing from
//! them, so they are accepted inside a binning pass and stop the stream
//! anywhere else.
//! Events that drive other graphics units (LRZ, occlusion and primitive
//! counters) are errors until those units are modelled.

use parsnip_registers::enums::{EventWriteDst, EventWriteSrc, VgtEventType};
use parsnip_registers::packets::{CpEventWrite7Dw0, CpEventWriteDw0};

use super::CommandProcessor;
use crate::report::{GpuError, StreamProblem};

/// Events whose only effect on the hardware is cache maintenance or
/// waiting for idle: nothing to do on the model.
const SYNC_EVENTS: &[&str] = &[
    "VS_DEALLOC",
    "PS_DEALLOC",
    "VS_DONE_TS",
    "PS_DONE_TS",
    "CACHE_FLUSH_TS",
    "CONTEXT_DONE",
    "RB_DONE_TS",
    "VS_FETCH_DONE",
    "WT_DONE_TS",
    "FLUSH_SO_0",
    "FLUSH_SO_1",
    "FLUSH_SO_2",
    "FLUSH_SO_3",
    "PC_CCU_INVALIDATE_DEPTH",
    "PC_CCU_INVALIDATE_COLOR",
    "PC_CCU_RESOLVE_TS",
    "PC_CCU_FLUSH_DEPTH_TS",
    "PC_CCU_FLUSH_COLOR_TS",
    "LRZ_FLUSH",
    "LRZ_Q_CACHE_INVALIDATE",
    "UNK_40",
    "CACHE_INVALIDATE",
    "LABEL",
    "DUMMY_EVENT",
    "CCU_INVALIDATE_DEPTH",
    "CCU_INVALIDATE_COLOR",
    "CCU_RESOLVE_CLEAN",
    "CCU_FLUSH_DEPTH",
    "CCU_FLUSH_COLOR",
    "CCU_CLEAN_DEPTH",
    "CCU_CLEAN_COLOR",
    "CACHE_RESET",
    "CACHE_CLEAN",
    "CACHE_FLUSH7",
    "CACHE_INVALIDATE7",
];

/// Events that bracket a binning pass's draws, with no effect the model
/// knows of.
const BINNING_EVENTS: &[&str] = &["UNK_2C", "UNK_2D"];

/// Events [`CommandProcessor::graphics_event`] runs.
const GRAPHICS_EVENTS: &[&str] = &[
    "START_PRIMITIVE_CTRS",
    "STOP_PRIMITIVE_CTRS",
    "START_FRAGMENT_CTRS",
    "STOP_FRAGMENT_CTRS",
    "START_COMPUTE_CTRS",
    "STOP_COMPUTE_CTRS",
    "LRZ_CLEAR",
    "ZPASS_DONE",
    "WRITE_PRIMITIVE_COUNTS",
];

impl CommandProcessor<'_> {
    /// The event's name, or an error if it is unknown or not modelled.
    fn modelled_event(&self, event: VgtEventType) -> Result<&'static str, GpuError> {
        let Some(name) = event.name(self.chip()) else {
            return Err(self.bad_payload(format!("unknown event {:#x}", event.0)));
        };
        if BINNING_EVENTS.contains(&name) {
            if !self.in_binning_pass() {
                return Err(self.stream_error(StreamProblem::NotModelled {
                    what: format!(
                        "event {name} outside a binning pass (RB_BIN_CONTROL.RENDER_MODE = \
                         BINNING_PASS): what it does is not public"
                    ),
                }));
            }
        } else if !SYNC_EVENTS.contains(&name)
            && !GRAPHICS_EVENTS.contains(&name)
            && !super::resolve::RESOLVE_EVENTS.contains(&name)
        {
            return Err(self.stream_error(StreamProblem::NotModelled {
                what: format!("event {name} drives a graphics unit, which is not modelled yet"),
            }));
        }
        Ok(name)
    }

    /// Writes back the CCU parts and UCHE event `name` flushes (strict
    /// caches).
    fn flush_caches(&self, name: &str) -> Result<(), GpuError> {
        if let Some(ccu) = &self.gpu.ccu {
            for &part in crate::ccu::flushed_by(name) {
                ccu.flush(part).map_err(|f| self.fault(f))?;
            }
        }
        if crate::uche::flushed_by(name) {
            self.gpu.flush_uche().map_err(|f| self.fault(f))?;
        }
        Ok(())
    }

    pub(super) fn event_write(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        let dw = CpEventWriteDw0::from_raw(payload[0]);
        let name = self.modelled_event(dw.event)?;
        self.flush_caches(name)?;
        if self.resolve_event(name)? || self.graphics_event(name)? {
            return Ok(());
        }
        if !name.ends_with("_TS") {
            return Ok(());
        }
        self.need(payload, 3)?;
        let at = u64::from(payload[1]) | u64::from(payload[2]) << 32;
        if dw.timestamp {
            self.write_u64(at, self.gpu.clock.read())
        } else {
            self.need(payload, 4)?;
            self.write_u32(at, payload[3])
        }
    }

    pub(super) fn event_write7(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        let dw = CpEventWrite7Dw0::from_raw(payload[0]);
        let name = self.modelled_event(dw.event)?;
        self.flush_caches(name)?;
        if dw.write_sample_count || dw.sample_count_end_offset || dw.write_accum_sample_count_diff {
            return self.sample_count_write7(dw, payload);
        }
        if name != "ZPASS_DONE" && self.graphics_event(name)? {
            return Ok(());
        }
        // A blit event may also write its timestamp, as the a7xx streams ask.
        self.resolve_event(name)?;
        if !dw.write_enabled {
            return Ok(());
        }
        if dw.write_dst != EventWriteDst::EV_DST_RAM {
            return Err(self.stream_error(StreamProblem::NotModelled {
                what: "event writes to on-chip memory are not modelled".into(),
            }));
        }
        self.need(payload, 3)?;
        let at = u64::from(payload[1]) | u64::from(payload[2]) << 32;
        match dw.write_src {
            EventWriteSrc::EV_WRITE_USER_32B => {
                self.need(payload, 4)?;
                self.write_u32(at, payload[3])
            }
            EventWriteSrc::EV_WRITE_USER_64B => {
                self.need(payload, 5)?;
                self.write_u64(at, u64::from(payload[3]) | u64::from(payload[4]) << 32)
            }
            EventWriteSrc::EV_WRITE_ALWAYSON => self.write_u64(at, self.gpu.clock.read()),
            EventWriteSrc::EV_WRITE_REGS_CONTENT => {
                self.need(payload, 5)?;
                for i in 0..payload[4] {
                    let value = self.read_register(payload[3] + i);
                    self.write_u32(at + u64::from(i) * 4, value)?;
                }
                Ok(())
            }
            other => Err(self.stream_error(StreamProblem::NotModelled {
                what: format!(
                    "CP_EVENT_WRITE7 of {} is not modelled",
                    other.name(self.chip()).unwrap_or("an unknown source")
                ),
            })),
        }
    }
}
