//! Occlusion query packets: the RB's count of samples that passed the
//! depth and stencil tests, read at a query's begin and end with the
//! ZPASS_DONE event, and the difference added to the query's result.
//!
//! A query's counts live in three consecutive 64-bit words, begin, result
//! and end ([`OcclusionSlot`]): the layout a7xx's CP_EVENT_WRITE7 writes
//! when it accumulates on its own (WRITE_SAMPLE_COUNT with
//! SAMPLE_COUNT_END_OFFSET puts the end count 16 bytes after the begin one,
//! WRITE_ACCUM_SAMPLE_COUNT_DIFF adds end - begin to the word between,
//! adreno_pm4.xml). On a6xx ZPASS_DONE writes the count to
//! RB_SAMPLE_COUNT_ADDR (with RB_SAMPLE_COUNT_CONTROL.COPY, a6xx.xml) and
//! the CP adds the difference itself with CP_MEM_TO_MEM once the RB's
//! write has landed (the RB writes behind the CP's back: the CP polls the
//! end word until it no longer holds the marker written before the event).
//!
//! The result is added to, never set, so a pass replayed once per bin
//! (each replay running the begin and the end) sums the bins' counts; the
//! result must be zero before the query begins, which the query reset
//! that Vulkan requires does.

use parsnip_registers::enums::VgtEventType;
use parsnip_registers::enums::{CpCondFunction, EventWriteDst, EventWriteSrc, PollMemoryType};
use parsnip_registers::packets::{
    CpEventWrite7Dw0, CpEventWriteDw0, CpMemToMemDw0, CpWaitRegMemDw0,
};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs;
use parsnip_registers::Chip;

use crate::sink::{lo_hi, PacketSink};

/// The three words of an occlusion query, from the address of the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OcclusionSlot {
    pub begin: u64,
}

impl OcclusionSlot {
    pub fn result(self) -> u64 {
        self.begin + 8
    }

    pub fn end(self) -> u64 {
        self.begin + 16
    }
}

/// What the a6xx end writes to the end word's low dword before the event,
/// and polls until the RB replaced it: a count the RB never reaches.
const PENDING: u32 = u32::MAX;

/// Dwords [`occlusion_begin`] and [`occlusion_end`] take at most.
pub const BEGIN_DWORDS: usize = 12;
pub const END_DWORDS: usize = 32;

fn zpass_done_a6xx<S: PacketSink>(s: &mut S, at: u64) -> Result<(), S::Error> {
    s.reg(&regs::RbSampleCountControl {
        copy: true,
        ..Default::default()
    })?;
    s.reg(&regs::RbSampleCountAddr(at))?;
    let dw0 = S::field(
        CpEventWriteDw0 {
            event: VgtEventType::ZPASS_DONE,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    s.packet(Opcode::CP_EVENT_WRITE, &[dw0]);
    Ok(())
}

fn zpass_done_a7xx<S: PacketSink>(
    s: &mut S,
    slot: OcclusionSlot,
    end: bool,
) -> Result<(), S::Error> {
    let dw0 = S::field(
        CpEventWrite7Dw0 {
            event: VgtEventType::ZPASS_DONE,
            write_sample_count: true,
            sample_count_end_offset: end,
            write_accum_sample_count_diff: end,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [lo, hi] = lo_hi(slot.begin);
    s.packet(Opcode::CP_EVENT_WRITE, &[dw0, lo, hi]);
    Ok(())
}

/// Begins counting: the current count to the begin word.
pub fn occlusion_begin<S: PacketSink>(s: &mut S, slot: OcclusionSlot) -> Result<(), S::Error> {
    match s.chip() {
        Chip::A6xx => zpass_done_a6xx(s, slot.begin),
        Chip::A7xx => zpass_done_a7xx(s, slot, false),
    }
}

/// Ends counting: the current count to the end word, and end - begin added
/// to the result.
pub fn occlusion_end<S: PacketSink>(s: &mut S, slot: OcclusionSlot) -> Result<(), S::Error> {
    if s.chip() == Chip::A7xx {
        return zpass_done_a7xx(s, slot, true);
    }
    let [lo, hi] = lo_hi(slot.end());
    s.packet(Opcode::CP_MEM_WRITE, &[lo, hi, PENDING, PENDING]);
    zpass_done_a6xx(s, slot.end())?;
    let wait = S::field(
        CpWaitRegMemDw0 {
            function: CpCondFunction::WRITE_NE,
            poll: PollMemoryType::POLL_MEMORY,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    // Reference, mask, and the delay between polls.
    s.packet(
        Opcode::CP_WAIT_REG_MEM,
        &[wait, lo, hi, PENDING, u32::MAX, 16],
    );
    // result = result + end - begin.
    let add = S::field(
        CpMemToMemDw0 {
            double: true,
            neg_c: true,
            wait_for_mem_writes: true,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [rlo, rhi] = lo_hi(slot.result());
    let [blo, bhi] = lo_hi(slot.begin);
    s.packet(
        Opcode::CP_MEM_TO_MEM,
        &[add, rlo, rhi, rlo, rhi, lo, hi, blo, bhi],
    );
    Ok(())
}

/// Marks a query available (its availability word 1) once the work before
/// is done: on a7xx by an end-of-pipe event's write, which lands after the
/// RB's sample count writes; on a6xx the CP's own write, after the
/// CP_MEM_TO_MEM that waited for them.
pub fn query_available<S: PacketSink>(s: &mut S, at: u64) -> Result<(), S::Error> {
    let [lo, hi] = lo_hi(at);
    match s.chip() {
        Chip::A6xx => s.packet(Opcode::CP_MEM_WRITE, &[lo, hi, 1, 0]),
        Chip::A7xx => {
            let dw0 = S::field(
                CpEventWrite7Dw0 {
                    event: VgtEventType::RB_DONE_TS,
                    write_src: EventWriteSrc::EV_WRITE_USER_64B,
                    write_dst: EventWriteDst::EV_DST_RAM,
                    write_enabled: true,
                    ..Default::default()
                }
                .try_to_raw(),
            )?;
            s.packet(Opcode::CP_EVENT_WRITE, &[dw0, lo, hi, 1, 0]);
        }
    }
    Ok(())
}

/// Dwords [`query_available`] takes at most.
pub const AVAILABLE_DWORDS: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;
    use parsnip_registers::pm4::Pm4Header;

    /// The opcodes of the packets in `dwords`, in order.
    fn opcodes(dwords: &[u32]) -> Vec<u32> {
        let mut at = 0;
        let mut out = Vec::new();
        while at < dwords.len() {
            let h = Pm4Header::parse(dwords[at]).unwrap();
            out.push(dwords[at]);
            at += 1 + h.payload_dwords() as usize;
        }
        out
    }

    #[test]
    fn each_chip_fits_its_budget_and_a7xx_accumulates_in_one_event() {
        let slot = OcclusionSlot {
            begin: 0x1_0000_1000,
        };
        for chip in [Chip::A6xx, Chip::A7xx] {
            let mut w = StateWriter::new(chip);
            occlusion_begin(&mut w, slot).unwrap();
            assert!(w.dwords.len() <= BEGIN_DWORDS, "{chip:?}");
            let mut w = StateWriter::new(chip);
            occlusion_end(&mut w, slot).unwrap();
            assert!(w.dwords.len() <= END_DWORDS, "{chip:?}");
            if chip == Chip::A7xx {
                assert_eq!(opcodes(&w.dwords).len(), 1);
                let dw = CpEventWrite7Dw0::from_raw(w.dwords[1]);
                assert!(dw.write_sample_count && dw.sample_count_end_offset);
                assert!(dw.write_accum_sample_count_diff);
                assert_eq!(dw.event, VgtEventType::ZPASS_DONE);
            }
            let mut w = StateWriter::new(chip);
            query_available(&mut w, 0x2000).unwrap();
            assert!(w.dwords.len() <= AVAILABLE_DWORDS, "{chip:?}");
        }
    }
}
