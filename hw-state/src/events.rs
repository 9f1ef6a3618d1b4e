//! CP_EVENT_WRITE: events for the units behind the CP; and
//! CP_INDIRECT_BUFFER.
//!
//! On a7xx the packet is CP_EVENT_WRITE7 (the same opcode), and Turnip
//! writes its events with a 32-bit user write to RAM and no address
//! (a740 triangle_gmem.log: `{ WRITE_DST = EV_DST_RAM | WRITE_SRC =
//! EV_WRITE_USER_32B | EVENT = BLIT }`). The a6xx "_TS" events write a
//! timestamp word to an address once done.

use parsnip_registers::enums::{EventWriteDst, EventWriteSrc, VgtEventType};
use parsnip_registers::packets::{CpEventWrite7Dw0, CpEventWriteDw0};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::Chip;

use crate::sink::{lo_hi, PacketSink};

/// CP_EVENT_WRITE of `event` with nothing written.
pub fn event<S: PacketSink>(s: &mut S, event: VgtEventType) -> Result<(), S::Error> {
    let dw0 = match s.chip() {
        Chip::A6xx => S::field(
            CpEventWriteDw0 {
                event,
                ..Default::default()
            }
            .try_to_raw(),
        )?,
        Chip::A7xx => S::field(
            CpEventWrite7Dw0 {
                event,
                write_src: EventWriteSrc::EV_WRITE_USER_32B,
                write_dst: EventWriteDst::EV_DST_RAM,
                ..Default::default()
            }
            .try_to_raw(),
        )?,
    };
    s.packet(Opcode::CP_EVENT_WRITE, &[dw0]);
    Ok(())
}

/// An a6xx "_TS" CP_EVENT_WRITE, writing 0 to `scratch` once done.
pub fn a6xx_event_ts<S: PacketSink>(
    s: &mut S,
    event: VgtEventType,
    scratch: u64,
) -> Result<(), S::Error> {
    let dw0 = S::field(
        CpEventWriteDw0 {
            event,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [lo, hi] = lo_hi(scratch);
    s.packet(Opcode::CP_EVENT_WRITE, &[dw0, lo, hi, 0]);
    Ok(())
}

/// Dwords [`call_ib`] takes.
pub const CALL_IB_DWORDS: usize = 4;

/// CP_INDIRECT_BUFFER: the CP runs the `dwords` dwords at `iova`, then
/// comes back (an IB2 when called from a submit's IB).
pub fn call_ib<S: PacketSink>(s: &mut S, iova: u64, dwords: u32) -> Result<(), S::Error> {
    let size =
        S::field(parsnip_registers::packets::CpIndirectBufferDw2 { size: dwords }.try_to_raw())?;
    let [lo, hi] = lo_hi(iova);
    s.packet(Opcode::CP_INDIRECT_BUFFER, &[lo, hi, size]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;

    #[test]
    fn an_ib_call_is_turnips_packet() {
        // CP_INDIRECT_BUFFER (3f): 70bf8003 00033000 00000001 000000d9.
        let mut w = StateWriter::new(Chip::A7xx);
        call_ib(&mut w, 0x1_0003_3000, 0xd9).unwrap();
        assert_eq!(w.dwords, vec![0x70bf_8003, 0x0003_3000, 1, 0xd9]);
    }
}
