//! vkCmdCopyBuffer at every byte alignment of source, destination and size,
//! and fills large enough to run the internal fill shader, on the simulated
//! a660 and a740: each copy moves exactly its bytes and leaves its
//! neighbours, checked against the same copies done on the CPU.

mod common;

use std::sync::Arc;

use ash::vk;
use common::{simulated_device, submit_and_wait};
use parsnip_driver::buffer::Buffer;
use parsnip_driver::cmd::transfer::CopyRegion;
use parsnip_driver::device::Device;
use parsnip_driver::device_memory::DeviceMemory;

fn buffer(device: &Arc<Device>, contents: &[u8]) -> (Arc<DeviceMemory>, Arc<Buffer>) {
    let memory = DeviceMemory::allocate(device, contents.len() as u64, 0).unwrap();
    memory.bo.write(0, contents).unwrap();
    let buffer = Buffer::new(contents.len() as u64, vk::BufferUsageFlags::TRANSFER_DST).unwrap();
    buffer.bind(memory.clone(), 0).unwrap();
    (memory, buffer)
}

fn contents(memory: &DeviceMemory, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    memory.bo.read(0, &mut out).unwrap();
    out
}

fn copies_at_every_alignment(gpu: &'static str) {
    let device = simulated_device(gpu);
    let src_bytes: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 3) as u8).collect();
    let dst_bytes: Vec<u8> = (0..32768u32).map(|i| (i * 13 + 5) as u8 | 0x80).collect();
    let (_, src) = buffer(&device, &src_bytes);
    let (dst_memory, dst) = buffer(&device, &dst_bytes);
    // Every source and destination misalignment with sizes around dword
    // and 64-byte boundaries, each to a separate destination area.
    let mut regions = Vec::new();
    let mut at = 0u64;
    for src_off in 0..4u64 {
        for dst_off in 0..4u64 {
            for size in [1u64, 2, 3, 4, 5, 7, 63, 64, 65, 130] {
                regions.push(CopyRegion {
                    src_offset: 100 * src_off + src_off + size,
                    dst_offset: at + dst_off,
                    size,
                });
                at += 136;
            }
        }
    }
    assert!(at <= 32768 - 8);
    let mut expected = dst_bytes.clone();
    for r in &regions {
        let (s, d, n) = (
            r.src_offset as usize,
            r.dst_offset as usize,
            r.size as usize,
        );
        expected[d..d + n].copy_from_slice(&src_bytes[s..s + n]);
    }
    submit_and_wait(&device, |cmd| {
        cmd.record(|r| r.copy_buffer(&src, &dst, &regions))
    })
    .unwrap();
    let got = contents(&dst_memory, 32768);
    let wrong: Vec<usize> = (0..32768).filter(|&i| got[i] != expected[i]).collect();
    assert!(
        wrong.is_empty(),
        "{gpu}: {} bytes differ, first at {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(8)]
    );
}

fn large_fills(gpu: &'static str) {
    let device = simulated_device(gpu);
    let len = 384 * 1024;
    let (memory, dst) = buffer(&device, &vec![0xa5; len]);
    // 256 KiB from byte 4: more than the CP_MEM_WRITE limit, so the fill
    // shader runs; and a WHOLE_SIZE fill of the tail.
    submit_and_wait(&device, |cmd| {
        cmd.record(|r| r.fill_buffer(&dst, 4, 256 * 1024, 0x0102_0304));
        cmd.record(|r| r.fill_buffer(&dst, 320 * 1024, vk::WHOLE_SIZE, 0xffff_0000));
    })
    .unwrap();
    let got = contents(&memory, len);
    assert_eq!(&got[..4], &[0xa5; 4], "{gpu}: before the fill");
    for (i, chunk) in got[4..4 + 256 * 1024].chunks_exact(4).enumerate() {
        assert_eq!(chunk, &[4, 3, 2, 1], "{gpu}: dword {i} of the fill");
    }
    assert!(
        got[4 + 256 * 1024..320 * 1024].iter().all(|&b| b == 0xa5),
        "{gpu}: between the fills"
    );
    for chunk in got[320 * 1024..].chunks_exact(4) {
        assert_eq!(chunk, &[0, 0, 0xff, 0xff], "{gpu}: the WHOLE_SIZE fill");
    }
}

#[test]
fn copies_move_exactly_their_bytes_at_every_alignment() {
    copies_at_every_alignment("a660");
    copies_at_every_alignment("a740");
}

#[test]
fn fills_beyond_the_cp_limit_run_the_fill_shader() {
    large_fills("a660");
    large_fills("a740");
}
