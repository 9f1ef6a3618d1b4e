//! Push constants: member offsets, updates between dispatches, and
//! partial updates that leave the rest of the range as it was.

use crate::bytes::{to_bytes, Layout};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Dependency, Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "push_constants.member_layout",
        run: member_layout,
    },
    Case {
        name: "push_constants.updates_between_dispatches",
        run: updates_between_dispatches,
    },
    Case {
        name: "push_constants.partial_update",
        run: partial_update,
    },
];

const STORAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::STORAGE_BUFFER;

/// Every member of a 108-byte block, placed by the std430 rules: vec2 and
/// mat2 columns aligned to 8, vec3 and vec4 to 16, arrays of uint at a
/// stride of 4.
fn member_layout(h: &mut Harness) -> Result<CaseResult, Stop> {
    let floats = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
    let mut block = Layout::with_size(108);
    block
        .put(0, &[0xa0a0_0001u32])
        .put(4, &[-123_456i32])
        .put(8, &[1.25f32])
        .put(16, &[2.5f32, -3.75])
        .put(32, &[4.0f32, 5.5, 6.25, -7.0])
        .put(48, &[0xf0u32, 0xf1, 0xf2])
        .put(60, &[0x6666_6666u32])
        .put(64, &[8.0f32, 9.0, 10.0, 11.5])
        .put(80, &[21u32, 22, 23, 24])
        .put(96, &[-5i32, 6])
        .put(104, &[0.125f32]);
    let mut want = vec![0xa0a0_0001u32, -123_456i32 as u32];
    want.extend(floats(&[1.25, 2.5, -3.75, 4.0, 5.5, 6.25, -7.0]));
    want.extend([0xf0, 0xf1, 0xf2, 0x6666_6666]);
    want.extend(floats(&[8.0, 9.0, 10.0, 11.5]));
    want.extend([21, 22, 23, 24, -5i32 as u32, 6]);
    want.extend(floats(&[0.125]));

    let output = h.host_buffer(4 * want.len() as u64, STORAGE)?;
    let sets: &[&[Slot]] = &[&[Slot::STORAGE]];
    let pipeline =
        h.pipeline(&PipelineDesc::new(&shaders::PUSH_LAYOUT, sets).push_constants(108))?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&output)])?;
    h.run(|r| {
        r.bind(&pipeline, &[set]);
        r.push_constants(&pipeline, 0, block.bytes());
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut result = CaseResult::new();
    result.check("members", &h.read_as::<u32>(&output)?, &want);
    Ok(result)
}

/// The 128-byte range `push_words.comp` reads, word 16 selecting the slice.
fn words(slice: u32, scale: u32) -> Vec<u32> {
    (0..32u32)
        .map(|k| if k == 16 { slice } else { k * scale + 7 })
        .collect()
}

fn push_words_expected(words: &[u32]) -> Vec<u32> {
    words
        .iter()
        .enumerate()
        .map(|(k, w)| w.wrapping_mul(k as u32 + 1))
        .collect()
}

/// Four dispatches, each with all 128 bytes pushed anew.
fn updates_between_dispatches(h: &mut Harness) -> Result<CaseResult, Stop> {
    let output = h.host_buffer(4 * 32 * 4, STORAGE)?;
    let sets: &[&[Slot]] = &[&[Slot::STORAGE]];
    let pipeline =
        h.pipeline(&PipelineDesc::new(&shaders::PUSH_WORDS, sets).push_constants(128))?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&output)])?;
    let pushes: Vec<Vec<u32>> = (0..4).map(|slice| words(slice, 1000 + slice)).collect();
    h.run(|r| {
        r.bind(&pipeline, &[set]);
        for (i, words) in pushes.iter().enumerate() {
            if i > 0 {
                r.barrier(Dependency::COMPUTE_TO_COMPUTE);
            }
            r.push_constants(&pipeline, 0, &to_bytes(words));
            r.dispatch(1, 1, 1);
        }
        r.barrier(Dependency::TO_HOST);
    })?;
    let want: Vec<u32> = pushes.iter().flat_map(|w| push_words_expected(w)).collect();
    let mut result = CaseResult::new();
    result.check("slices", &h.read_as::<u32>(&output)?, &want);
    Ok(result)
}

/// 128 bytes pushed once; then only bytes 64..80 (words 16..20) and later
/// only bytes 124..128; each dispatch sees the untouched words unchanged.
fn partial_update(h: &mut Harness) -> Result<CaseResult, Stop> {
    let output = h.host_buffer(4 * 32 * 3, STORAGE)?;
    let sets: &[&[Slot]] = &[&[Slot::STORAGE]];
    let pipeline =
        h.pipeline(&PipelineDesc::new(&shaders::PUSH_WORDS, sets).push_constants(128))?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&output)])?;
    let first = words(0, 3);
    let middle = [1u32, 0xdead, 0xbeef, 0xcafe];
    let last = [0x7777_7777u32];
    h.run(|r| {
        r.bind(&pipeline, &[set]);
        r.push_constants(&pipeline, 0, &to_bytes(&first));
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::COMPUTE_TO_COMPUTE);
        r.push_constants(&pipeline, 64, &to_bytes(&middle));
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::COMPUTE_TO_COMPUTE);
        r.push_constants(&pipeline, 64, &to_bytes(&[2u32]));
        r.push_constants(&pipeline, 124, &to_bytes(&last));
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut second = first.clone();
    second[16..20].copy_from_slice(&middle);
    let mut third = second.clone();
    third[16] = 2;
    third[31] = last[0];
    let want: Vec<u32> = [first, second, third]
        .iter()
        .flat_map(|w| push_words_expected(w))
        .collect();
    let mut result = CaseResult::new();
    result.check("slices", &h.read_as::<u32>(&output)?, &want);
    Ok(result)
}
