//! vkCmdCopyBuffer at every byte alignment of source, destination and size,
//! and fills large enough to run the internal fill shader, on the simulated
//! a660 and a740: each copy moves exactly its bytes and leaves its
//! neighbours, checked against the same copies done on the CPU. A copy
//! recorded between two of the application's dispatches leaves the second
//! one its pipeline, descriptor set and push constants.

mod common;

use std::sync::Arc;

use ash::vk;
use common::{simulated_device, submit_and_wait};
use parsnip_driver::buffer::Buffer;
use parsnip_driver::cmd::barrier::Dependency;
use parsnip_driver::cmd::transfer::CopyRegion;
use parsnip_driver::device::Device;
use parsnip_driver::device_memory::DeviceMemory;
use parsnip_driver::pipeline_layout::{PipelineLayout, PushConstantRange};

fn buffer(device: &Arc<Device>, contents: &[u8]) -> (Arc<DeviceMemory>, Arc<Buffer>) {
    let memory = DeviceMemory::allocate(device, contents.len() as u64, 0).unwrap();
    memory.bo.write(0, contents).unwrap();
    let usage = vk::BufferUsageFlags::TRANSFER_SRC
        | vk::BufferUsageFlags::TRANSFER_DST
        | vk::BufferUsageFlags::STORAGE_BUFFER;
    let buffer = Buffer::new(contents.len() as u64, usage).unwrap();
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

/// Adds its push constant to each dword of set 0's buffer, 64 a group.
const ADD: &str = r"#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform Params { uint add; };
void main() { data[gl_GlobalInvocationID.x] += add; }
";

/// Dispatch, copy, dispatch again with nothing rebound: the copy runs the
/// driver's own pipeline, set (in its own bindless slot) and push
/// constants, with as many work groups as the application's dispatches, and
/// the second dispatch must still run the application's: its program and
/// const file emitted again, its set's base left as it was.
fn copy_between_dispatches(gpu: &'static str) {
    const DWORDS: usize = 4096;
    const GROUPS: u32 = (DWORDS / 64) as u32;
    let device = simulated_device(gpu);
    let initial: Vec<u32> = (0..DWORDS as u32).map(|i| i * 3 + 1).collect();
    let bytes: Vec<u8> = initial.iter().flat_map(|w| w.to_le_bytes()).collect();
    let (data_memory, data) = buffer(&device, &bytes);
    let (snapshot_memory, snapshot) = buffer(&device, &vec![0; bytes.len()]);

    let src =
        std::env::temp_dir().join(format!("parsnip-transfers-{}-add.comp", std::process::id()));
    std::fs::write(&src, ADD).unwrap();
    let spirv = common::glslang(&src);
    let _ = std::fs::remove_file(&src);
    let set_layout = common::one_storage_buffer();
    let layout = PipelineLayout::new(
        vec![Some(set_layout.clone())],
        vec![PushConstantRange {
            stages: vk::ShaderStageFlags::COMPUTE,
            offset: 0,
            size: 4,
        }],
    )
    .unwrap();
    let set = common::storage_buffer_set(&device, &set_layout, &data);
    let pipeline = common::compute_pipeline(&device, &spirv, &layout);

    use vk::{AccessFlags as A, PipelineStageFlags as S};
    let to_copy = Dependency::from_v1(
        S::COMPUTE_SHADER,
        A::SHADER_WRITE,
        S::TRANSFER,
        A::TRANSFER_READ,
    );
    let to_dispatch = Dependency::from_v1(S::TRANSFER, A::empty(), S::COMPUTE_SHADER, A::empty());
    let to_host = Dependency::from_v1(
        S::COMPUTE_SHADER | S::TRANSFER,
        A::SHADER_WRITE | A::TRANSFER_WRITE,
        S::HOST,
        A::HOST_READ,
    );
    let copy = CopyRegion {
        src_offset: 0,
        dst_offset: 0,
        size: bytes.len() as u64,
    };
    submit_and_wait(&device, |cmd| {
        cmd.record(|r| r.bind_compute_pipeline(pipeline.clone()));
        cmd.record(|r| {
            r.bind_descriptor_sets(
                vk::PipelineBindPoint::COMPUTE,
                &layout,
                0,
                std::slice::from_ref(&set),
                &[],
            )
        });
        cmd.record(|r| r.push_constants(0, &7u32.to_le_bytes()));
        cmd.record(|r| r.dispatch([0; 3], [GROUPS, 1, 1]));
        cmd.record(|r| r.pipeline_barrier(&[to_copy]));
        cmd.record(|r| r.copy_buffer(&data, &snapshot, &[copy]));
        cmd.record(|r| r.pipeline_barrier(&[to_dispatch]));
        cmd.record(|r| r.dispatch([0; 3], [GROUPS, 1, 1]));
        cmd.record(|r| r.pipeline_barrier(&[to_host]));
    })
    .unwrap();
    let words = |memory: &DeviceMemory| -> Vec<u32> {
        contents(memory, bytes.len())
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let once: Vec<u32> = initial.iter().map(|w| w + 7).collect();
    let twice: Vec<u32> = initial.iter().map(|w| w + 14).collect();
    assert!(
        words(&snapshot_memory) == once,
        "{gpu}: the copy of the first dispatch's result"
    );
    assert!(
        words(&data_memory) == twice,
        "{gpu}: the second dispatch after the copy"
    );
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

#[test]
fn a_copy_between_dispatches_leaves_the_application_state() {
    copy_between_dispatches("a660");
    copy_between_dispatches("a740");
}
