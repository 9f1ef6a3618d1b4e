//! Building PM4 packets, through the register database.
//!
//! Type 4 packets write registers named by their generated structs (the
//! database resolves each register's offset on the chip); type 7 packets
//! take their payload from the generated packet structs. Nothing here knows
//! an offset or an opcode number.
//!
//! Packets go to a [`PacketSink`]: a [`PacketWriter`] (a growing buffer,
//! for state built once, such as a pipeline's program) or room reserved in
//! a command stream's chunk ([`super::stream::Reserved`]), which recording
//! writes straight into, with no buffer in between.

use ash::vk;
use parsnip_registers::enums::{CpCondFunction, PollMemoryType};
use parsnip_registers::packets::{CpMemToMemDw0, CpWaitRegMemDw0};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::{Chip, RegisterError};

use crate::error::{internal, VkResult};

/// Where the driver writes packets: any sink of the shared state
/// emission (`parsnip-hw-state`) that reports encoding failures as Vulkan
/// errors.
pub trait PacketSink: parsnip_hw_state::PacketSink<Error = vk::Result> {}

impl<T: parsnip_hw_state::PacketSink<Error = vk::Result>> PacketSink for T {}

/// A register the database does not place on the chip, or a field that
/// does not fit, is a driver bug.
#[cold]
pub fn register_error(e: RegisterError) -> vk::Result {
    internal("encoding a register", e)
}

/// A growing list of packets for one chip.
#[derive(Clone, Debug)]
pub struct PacketWriter {
    pub chip: Chip,
    pub dwords: Vec<u32>,
}

impl PacketWriter {
    pub fn new(chip: Chip) -> PacketWriter {
        PacketWriter {
            chip,
            dwords: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.dwords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dwords.is_empty()
    }

    /// The low and high dwords of a 64-bit packet field.
    pub fn split(value: u64) -> [u32; 2] {
        [value as u32, (value >> 32) as u32]
    }
}

impl parsnip_hw_state::PacketSink for PacketWriter {
    type Error = vk::Result;

    fn chip(&self) -> Chip {
        self.chip
    }

    fn encoding_error(error: RegisterError) -> vk::Result {
        register_error(error)
    }

    fn push(&mut self, dword: u32) {
        self.dwords.push(dword);
    }

    fn push_all(&mut self, dwords: &[u32]) {
        self.dwords.extend_from_slice(dwords);
    }
}

/// CP_WAIT_REG_MEM: the CP stops until the dword at `iova` equals `value`,
/// polling every 16 cycles.
pub fn wait_memory_equal(w: &mut impl PacketSink, iova: u64, value: u32) -> VkResult<()> {
    let dw0 = field(
        "CP_WAIT_REG_MEM",
        CpWaitRegMemDw0 {
            function: CpCondFunction::WRITE_EQ,
            poll: PollMemoryType::POLL_MEMORY,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [lo, hi] = PacketWriter::split(iova);
    // Reference, mask, and the delay between polls.
    w.packet(Opcode::CP_WAIT_REG_MEM, &[dw0, lo, hi, value, u32::MAX, 16]);
    Ok(())
}

/// CP_MEM_TO_MEM: copies the dword (or, with `double`, the qword) at `src`
/// to `dst`, after the CP's earlier memory writes landed.
pub fn copy_memory(w: &mut impl PacketSink, dst: u64, src: u64, double: bool) -> VkResult<()> {
    let dw0 = field(
        "CP_MEM_TO_MEM",
        CpMemToMemDw0 {
            double,
            wait_for_mem_writes: true,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [dlo, dhi] = PacketWriter::split(dst);
    let [slo, shi] = PacketWriter::split(src);
    w.packet(Opcode::CP_MEM_TO_MEM, &[dw0, dlo, dhi, slo, shi]);
    Ok(())
}

/// CP_MEM_TO_MEM: writes the sum of the dwords at `a` and `b` to `dst`
/// (the packet adds its sources, adreno_pm4.xml), after the CP's earlier
/// memory writes landed.
pub fn add_memory(w: &mut impl PacketSink, dst: u64, a: u64, b: u64) -> VkResult<()> {
    let dw0 = field(
        "CP_MEM_TO_MEM",
        CpMemToMemDw0 {
            wait_for_mem_writes: true,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [dlo, dhi] = PacketWriter::split(dst);
    let [alo, ahi] = PacketWriter::split(a);
    let [blo, bhi] = PacketWriter::split(b);
    w.packet(Opcode::CP_MEM_TO_MEM, &[dw0, dlo, dhi, alo, ahi, blo, bhi]);
    Ok(())
}

/// A packet payload field value that does not fit is a driver bug: report
/// it rather than emit a truncated packet.
pub fn field<T, E: std::fmt::Display>(what: &str, r: Result<T, E>) -> VkResult<T> {
    r.map_err(|e| internal(what, e))
}
