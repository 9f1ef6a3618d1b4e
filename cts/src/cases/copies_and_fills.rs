//! vkCmdCopyBuffer, vkCmdFillBuffer and vkCmdUpdateBuffer: unaligned
//! copies, fills to the end of a buffer whose size is not a multiple of 4,
//! the largest update allowed, device-local round trips.

use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Dependency, Harness, Placement, POISON};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "copies.regions",
        run: regions,
    },
    Case {
        name: "copies.fill",
        run: fill,
    },
    Case {
        name: "copies.update",
        run: update,
    },
    Case {
        name: "copies.device_local_round_trip",
        run: device_local_round_trip,
    },
    Case {
        name: "copies.large",
        run: large,
    },
];

const TRANSFER: vk::BufferUsageFlags = vk::BufferUsageFlags::TRANSFER_SRC;

fn random_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut seq = Sequence::new(seed);
    (0..n).map(|_| seq.next_u32() as u8).collect()
}

fn region(src_offset: u64, dst_offset: u64, size: u64) -> vk::BufferCopy {
    vk::BufferCopy {
        src_offset,
        dst_offset,
        size,
    }
}

/// One copy command with four regions at odd offsets and sizes.
fn regions(h: &mut Harness) -> Result<CaseResult, Stop> {
    let src_bytes = random_bytes(51, 4096);
    let src = h.host_buffer_with(TRANSFER, &src_bytes)?;
    let dst = h.host_buffer(4096, TRANSFER)?;
    let regions = [
        region(0, 100, 17),
        region(1000, 0, 64),
        region(2049, 3000, 1000),
        region(4000, 2001, 96),
    ];
    h.run(|r| {
        r.copy(&src, &dst, &regions);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = vec![POISON; 4096];
    for c in &regions {
        let (s, d, n) = (
            c.src_offset as usize,
            c.dst_offset as usize,
            c.size as usize,
        );
        want[d..d + n].copy_from_slice(&src_bytes[s..s + n]);
    }
    let mut result = CaseResult::new();
    result.check("dst", &h.read(&dst)?, &want);
    Ok(result)
}

/// Fills, one overwriting part of an earlier one after a barrier, and one
/// with VK_WHOLE_SIZE in a 4094-byte buffer: that fills up to the last
/// multiple of 4 and leaves the last two bytes alone.
fn fill(h: &mut Harness) -> Result<CaseResult, Stop> {
    let buffer = h.host_buffer(4094, TRANSFER)?;
    h.run(|r| {
        r.fill(&buffer, 0, 64, 0x1122_3344);
        r.barrier(Dependency::TRANSFER_TO_TRANSFER);
        r.fill(&buffer, 16, 16, 0xdead_beef);
        r.fill(&buffer, 100, 40, 0x0102_0304);
        r.fill(&buffer, 1024, vk::WHOLE_SIZE, 0xa1b2_c3d4);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = vec![POISON; 4094];
    let mut put = |offset: usize, size: usize, value: u32| {
        for k in (offset..offset + size).step_by(4) {
            want[k..k + 4].copy_from_slice(&value.to_le_bytes());
        }
    };
    put(0, 64, 0x1122_3344);
    put(16, 16, 0xdead_beef);
    put(100, 40, 0x0102_0304);
    put(1024, 3068, 0xa1b2_c3d4);
    let mut result = CaseResult::new();
    result.check("buffer", &h.read(&buffer)?, &want);
    Ok(result)
}

/// A small update and one of 65536 bytes, the most one command may carry.
fn update(h: &mut Harness) -> Result<CaseResult, Stop> {
    let small = random_bytes(52, 256);
    let big = random_bytes(53, 65536);
    let buffer = h.host_buffer(70_000, TRANSFER)?;
    h.run(|r| {
        r.update(&buffer, 8, &small);
        r.update(&buffer, 1024, &big);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = vec![POISON; 70_000];
    want[8..264].copy_from_slice(&small);
    want[1024..1024 + 65536].copy_from_slice(&big);
    let mut result = CaseResult::new();
    result.check("buffer", &h.read(&buffer)?, &want);
    Ok(result)
}

/// Host to device-local memory at an offset, device-local to device-local,
/// and back to the host.
fn device_local_round_trip(h: &mut Harness) -> Result<CaseResult, Stop> {
    let bytes = random_bytes(54, 8192);
    let src = h.host_buffer_with(TRANSFER, &bytes)?;
    let d1 = h.buffer(8192 + 256, TRANSFER, Placement::Device)?;
    let d2 = h.buffer(8192, TRANSFER, Placement::Device)?;
    let back = h.host_buffer(8192, TRANSFER)?;
    h.run(|r| {
        r.copy(&src, &d1, &[region(0, 256, 8192)]);
        r.barrier(Dependency::TRANSFER_TO_TRANSFER);
        r.copy(&d1, &d2, &[region(256, 0, 8192)]);
        r.barrier(Dependency::TRANSFER_TO_TRANSFER);
        r.copy(&d2, &back, &[region(0, 0, 8192)]);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut result = CaseResult::new();
    result.check("back", &h.read(&back)?, &bytes);
    Ok(result)
}

/// A copy of 1 MiB and 12 bytes, there and back to an offset of 4.
fn large(h: &mut Harness) -> Result<CaseResult, Stop> {
    const SIZE: usize = (1 << 20) + 12;
    let words: Vec<u32> = Sequence::new(55).u32s(SIZE / 4);
    let bytes = to_bytes(&words);
    let src = h.host_buffer_with(TRANSFER, &bytes)?;
    let middle = h.buffer(SIZE as u64, TRANSFER, Placement::Device)?;
    let back = h.host_buffer(SIZE as u64 + 4, TRANSFER)?;
    h.run(|r| {
        r.copy(&src, &middle, &[region(0, 0, SIZE as u64)]);
        r.barrier(Dependency::TRANSFER_TO_TRANSFER);
        r.copy(&middle, &back, &[region(0, 4, SIZE as u64)]);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = vec![POISON; 4];
    want.extend(&bytes);
    let mut result = CaseResult::new();
    result.check("back", &h.read(&back)?, &want);
    Ok(result)
}
