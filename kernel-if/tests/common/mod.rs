//! Helpers the kernel-if tests share: packets, a one-stream submit, reads.
#![allow(dead_code)]

use std::time::Duration;

use parsnip_kernel_if::{
    Bo, BoUse, CommandBuffer, Deadline, Fence, KernelDevice, QueueId, Result, Submit, SyncPoint,
};
use parsnip_registers::chip::Chip;
use parsnip_registers::pm4::{opcode_by_name, pkt7};

pub fn soon() -> Deadline {
    Deadline::after(Duration::from_secs(10))
}

/// A type 7 packet by name.
pub fn pkt(chip: Chip, name: &str, payload: &[u32]) -> Vec<u32> {
    let op = opcode_by_name(chip, name).unwrap();
    let mut p = vec![pkt7(op, payload.len() as u32)];
    p.extend_from_slice(payload);
    p
}

pub fn mem_write(chip: Chip, iova: u64, value: u32) -> Vec<u32> {
    pkt(
        chip,
        "CP_MEM_WRITE",
        &[iova as u32, (iova >> 32) as u32, value],
    )
}

/// Writes `stream` at the start of `cs` and submits it with `bos`.
pub fn submit(
    dev: &dyn KernelDevice,
    queue: QueueId,
    cs: &Bo,
    stream: &[u32],
    bos: &[BoUse],
    signals: &[SyncPoint],
) -> Result<Fence> {
    let bytes: Vec<u8> = stream.iter().flat_map(|d| d.to_le_bytes()).collect();
    cs.write(0, &bytes)?;
    dev.submit(&Submit {
        queue,
        commands: &[CommandBuffer {
            bo: cs,
            offset: 0,
            dwords: stream.len() as u32,
        }],
        bos,
        waits: &[],
        signals,
    })
}

pub fn read_u32(bo: &Bo, offset: u64) -> u32 {
    let mut b = [0u8; 4];
    bo.read(offset, &mut b).unwrap();
    u32::from_le_bytes(b)
}
