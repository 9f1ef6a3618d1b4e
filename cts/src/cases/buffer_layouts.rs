//! How shaders see buffers: std140 and std430 member offsets laid out by
//! hand from the rules, descriptor offsets and ranges, runtime array
//! lengths, dynamic offsets, several sets, and texel buffers.

use crate::bytes::{from_bytes, to_bytes, Layout};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Dependency, Harness, PipelineDesc, Slot, POISON, POISON_WORD};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "buffer_layouts.ubo_std140",
        run: ubo_std140,
    },
    Case {
        name: "buffer_layouts.ssbo_std430",
        run: ssbo_std430,
    },
    Case {
        name: "buffer_layouts.offsets_and_lengths",
        run: offsets_and_lengths,
    },
    Case {
        name: "buffer_layouts.dynamic_offsets",
        run: dynamic_offsets,
    },
    Case {
        name: "buffer_layouts.dynamic_offsets_by_binding_number",
        run: dynamic_offsets_by_binding_number,
    },
    Case {
        name: "buffer_layouts.descriptor_sets",
        run: descriptor_sets,
    },
    Case {
        name: "buffer_layouts.texel_buffers",
        run: texel_buffers,
    },
    Case {
        name: "buffer_layouts.long_fixed_arrays",
        run: long_fixed_arrays,
    },
];

const STORAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::STORAGE_BUFFER;
const UNIFORM: vk::BufferUsageFlags = vk::BufferUsageFlags::UNIFORM_BUFFER;
/// Fills padding in inputs, so reading padding instead of a member shows.
const PADDING: u8 = 0xee;

/// Distinct floats, one per member word.
fn member(k: usize) -> f32 {
    100.0 + k as f32 * 1.5
}

/// The std140 block of `ubo_std140.comp`: scalars at 4, vec2 at 8, vec3 and
/// vec4 at 16, a float fits in a vec3's last word; array elements and matrix
/// columns at a stride of 16; a struct aligned to 16 and padded to 16.
fn ubo_std140(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut offsets: Vec<usize> = vec![0, 8, 12, 16, 20, 24, 28, 32, 48, 64];
    for column in 0..3 {
        offsets.extend((0..3).map(|row| 80 + 16 * column + 4 * row));
    }
    for k in 0..2 {
        let base = 128 + 32 * k;
        offsets.extend([base, base + 16, base + 20, base + 24]);
    }
    let float_members = offsets.len();
    offsets.extend([192, 196, 208, 212, 216, 220]);
    let want: Vec<u32> = (0..offsets.len())
        .map(|k| {
            if k < float_members {
                member(k).to_bits()
            } else {
                0x1000 + k as u32
            }
        })
        .collect();
    let mut block = Layout::filled(224, PADDING);
    for (offset, word) in offsets.iter().zip(&want) {
        block.put(*offset, &[*word]);
    }
    let ubo = h.host_buffer_with(UNIFORM, block.bytes())?;
    let output = h.host_buffer(4 * want.len() as u64, STORAGE)?;
    let pipeline = h.compute(&shaders::UBO_STD140, &[&[Slot::UNIFORM, Slot::STORAGE]])?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&ubo), Bind::whole(&output)])?;
    h.dispatch_and_wait(&pipeline, &[set], [1, 1, 1])?;
    let mut result = CaseResult::new();
    result.check("members", &h.read_as::<u32>(&output)?, &want);
    Ok(result)
}

/// The std430 block of `ssbo_std430.comp`: arrays of floats at a stride of
/// 4, a float in a vec3's last word, mat2 columns at 8, a struct holding a
/// vec3 aligned and padded to 16, then a runtime array. The shader also
/// writes a transformed copy member by member: the copy's padding must keep
/// the bytes it had.
fn ssbo_std430(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut offsets: Vec<usize> = vec![0, 4, 8, 12, 16, 20, 32, 36, 40, 44, 48, 52, 56, 60];
    for k in 0..2 {
        let base = 64 + 32 * k;
        offsets.extend([base, base + 4, base + 8, base + 12, base + 16, base + 20]);
    }
    let tail: Vec<u32> = (0..5).map(|j| 0x5000 + j).collect();
    let size = 128 + 4 * tail.len();
    let mut block = Layout::filled(size, PADDING);
    let mut copy = Layout::filled(size, POISON);
    let mut want: Vec<u32> = Vec::new();
    for (k, offset) in offsets.iter().enumerate() {
        block.put(*offset, &[member(k)]);
        copy.put(*offset, &[member(k) * 2.0]);
        want.push(member(k).to_bits());
    }
    want.push(tail.len() as u32);
    want.extend(&tail);
    block.put(128, &tail);
    copy.put(128, &tail.iter().map(|t| t + 1).collect::<Vec<u32>>());

    let data = h.host_buffer_with(STORAGE, block.bytes())?;
    let written = h.host_buffer(size as u64, STORAGE)?;
    let output = h.host_buffer(4 * want.len() as u64, STORAGE)?;
    let slots: &[Slot] = &[Slot::STORAGE, Slot::STORAGE, Slot::STORAGE];
    let pipeline = h.compute(&shaders::SSBO_STD430, &[slots])?;
    let set = h.descriptor_set(
        &pipeline,
        0,
        &[
            Bind::whole(&data),
            Bind::whole(&written),
            Bind::whole(&output),
        ],
    )?;
    h.dispatch_and_wait(&pipeline, &[set], [1, 1, 1])?;
    let mut result = CaseResult::new();
    result.check("members", &h.read_as::<u32>(&output)?, &want);
    result.check("copy", &h.read(&written)?, copy.bytes());
    Ok(result)
}

/// Four storage descriptors into one buffer at different aligned offsets
/// and ranges (the last to the end of the buffer): each sees its own header
/// and a runtime array as long as its range allows.
fn offsets_and_lengths(h: &mut Harness) -> Result<CaseResult, Stop> {
    let align = h
        .properties()
        .limits
        .min_storage_buffer_offset_alignment
        .max(64) as usize;
    let lengths = [1usize, 6, 33, 10];
    // Each view starts at the first aligned offset after the previous one.
    let mut offsets = Vec::new();
    let mut end = 0usize;
    for length in lengths {
        let offset = end.div_ceil(align) * align;
        offsets.push(offset);
        end = offset + 4 * (1 + length);
    }
    let mut contents = Layout::filled(end, PADDING);
    let mut binds = Vec::new();
    let mut want = Vec::new();
    let buffer = h.host_buffer(end as u64, STORAGE)?;
    for (k, (length, offset)) in lengths.iter().zip(&offsets).enumerate() {
        let data: Vec<u32> = (0..*length as u32).map(|j| 100 * k as u32 + j).collect();
        contents
            .put(*offset, &[0x1000 + k as u32])
            .put(offset + 4, &data);
        let range = if k == 3 {
            vk::WHOLE_SIZE
        } else {
            4 * (1 + *length as u64)
        };
        binds.push(Bind::range(&buffer, *offset as u64, range));
        want.extend([0x1000 + k as u32, *length as u32, data[length - 1]]);
    }
    h.write(&buffer, 0, contents.bytes())?;
    let output = h.host_buffer(4 * want.len() as u64, STORAGE)?;
    binds.push(Bind::whole(&output));
    let pipeline = h.compute(
        &shaders::DESCRIPTOR_ARRAY,
        &[&[Slot::STORAGE.array(4), Slot::STORAGE]],
    )?;
    let set = h.descriptor_set(&pipeline, 0, &binds)?;
    h.dispatch_and_wait(&pipeline, &[set], [1, 1, 1])?;
    let mut result = CaseResult::new();
    result.check("views", &h.read_as::<u32>(&output)?, &want);
    Ok(result)
}

/// One dynamic uniform and one dynamic storage descriptor; three dispatches
/// pick parameters and output slices with dynamic offsets. Words outside
/// the slices must keep their poison.
fn dynamic_offsets(h: &mut Harness) -> Result<CaseResult, Stop> {
    let limits = h.properties().limits;
    let ualign = limits.min_uniform_buffer_offset_alignment.max(16) as usize;
    let salign = limits.min_storage_buffer_offset_alignment.max(64) as usize;
    let params: [[u32; 2]; 3] = [[3, 10], [5, 20], [7, 30]];
    let mut blocks = Layout::filled(3 * ualign, PADDING);
    for (i, p) in params.iter().enumerate() {
        blocks.put(i * ualign, &[p[0], p[1], 0, 0]);
    }
    let uniforms = h.host_buffer_with(UNIFORM, blocks.bytes())?;
    let output = h.host_buffer(3 * salign as u64, STORAGE)?;
    let slots: &[Slot] = &[Slot::UNIFORM_DYNAMIC, Slot::STORAGE_DYNAMIC];
    let pipeline = h.compute(&shaders::DYNAMIC_OFFSETS, &[slots])?;
    let set = h.descriptor_set(
        &pipeline,
        0,
        &[Bind::range(&uniforms, 0, 16), Bind::range(&output, 0, 64)],
    )?;
    // (parameter block, output slice) per dispatch.
    let picks = [(0usize, 2usize), (2, 0), (1, 1)];
    h.run(|r| {
        for (i, (param, slice)) in picks.iter().enumerate() {
            if i > 0 {
                r.barrier(Dependency::COMPUTE_TO_COMPUTE);
            }
            r.bind_with_offsets(
                &pipeline,
                &[set],
                &[(param * ualign) as u32, (slice * salign) as u32],
            );
            r.dispatch(1, 1, 1);
        }
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = vec![POISON_WORD; 3 * salign / 4];
    for (param, slice) in picks {
        for k in 0..16u32 {
            want[slice * salign / 4 + k as usize] = params[param][0] * k + params[param][1];
        }
    }
    let mut result = CaseResult::new();
    result.check("slices", &h.read_as::<u32>(&output)?, &want);
    Ok(result)
}

/// dEQP's `api.descriptor_set.descriptor_set_layout_binding.layout_binding_order`:
/// three dynamic uniform buffers, the layout listing their bindings 2, 1, 0
/// and the sets' binds given out of order too; the dynamic offsets still
/// belong to bindings 0, 1, 2 in that order (the spec orders them by
/// binding number). Each buffer holds 1024 words counting from its binding
/// number, so the word at byte offset `o` of binding `b` is `o / 4 + b`.
fn dynamic_offsets_by_binding_number(h: &mut Harness) -> Result<CaseResult, Stop> {
    const WORDS: u32 = 1024;
    // The offsets of bindings 0, 1 and 2, as dEQP's case gives them:
    // different, and multiples of 256, the largest
    // minUniformBufferOffsetAlignment the spec allows, so that every
    // driver takes them and computes the same words.
    let offsets = [1024u32, 2048, 0];
    let mut buffers = Vec::new();
    for binding in 0..3u32 {
        let words: Vec<u32> = (0..WORDS).map(|k| k + binding).collect();
        buffers.push(h.host_buffer_with(UNIFORM, &to_bytes(&words))?);
    }
    let result_buffer = h.host_buffer(12, STORAGE)?;
    let slots: &[Slot] = &[
        Slot::UNIFORM_DYNAMIC,
        Slot::UNIFORM_DYNAMIC,
        Slot::UNIFORM_DYNAMIC,
        Slot::STORAGE,
    ];
    let sets: &[&[Slot]] = &[slots];
    let pipeline =
        h.pipeline(&PipelineDesc::new(&shaders::BINDING_ORDER, sets).bindings_backwards())?;
    let set = h.descriptor_set(
        &pipeline,
        0,
        &[
            Bind::range(&buffers[0], 0, 16),
            Bind::range(&buffers[1], 0, 16),
            Bind::range(&buffers[2], 0, 16),
            Bind::whole(&result_buffer),
        ],
    )?;
    h.run(|r| {
        r.bind_with_offsets(&pipeline, &[set], &offsets);
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let want: Vec<u32> = (0..3u32).map(|b| offsets[b as usize] / 4 + b).collect();
    let mut result = CaseResult::new();
    result.check("words", &h.read_as::<u32>(&result_buffer)?, &want);
    Ok(result)
}

/// Three sets (parameters, input, output); later dispatches rebind some
/// sets only, and must keep the others.
fn descriptor_sets(h: &mut Harness) -> Result<CaseResult, Stop> {
    const N: usize = 128;
    let values_a: Vec<u32> = (0..N as u32).map(|i| i * 7 + 1).collect();
    let values_c: Vec<u32> = (0..N as u32).map(|i| i ^ 0x5a5a).collect();
    let p1 = h.host_buffer_with(UNIFORM, &to_bytes(&[11u32, 3]))?;
    let p2 = h.host_buffer_with(UNIFORM, &to_bytes(&[22u32, 5]))?;
    let a = h.host_buffer_with(STORAGE, &to_bytes(&values_a))?;
    let c = h.host_buffer_with(STORAGE, &to_bytes(&values_c))?;
    let outs = [
        h.host_buffer(4 * N as u64, STORAGE)?,
        h.host_buffer(4 * N as u64, STORAGE)?,
        h.host_buffer(4 * N as u64, STORAGE)?,
    ];
    let sets: &[&[Slot]] = &[&[Slot::UNIFORM], &[Slot::STORAGE], &[Slot::STORAGE]];
    let pipeline = h.compute(&shaders::SETS, sets)?;
    let params1 = h.descriptor_set(&pipeline, 0, &[Bind::whole(&p1)])?;
    let params2 = h.descriptor_set(&pipeline, 0, &[Bind::whole(&p2)])?;
    let in_a = h.descriptor_set(&pipeline, 1, &[Bind::whole(&a)])?;
    let in_c = h.descriptor_set(&pipeline, 1, &[Bind::whole(&c)])?;
    let mut out_sets = Vec::new();
    for out in &outs {
        out_sets.push(h.descriptor_set(&pipeline, 2, &[Bind::whole(out)])?);
    }
    h.run(|r| {
        r.bind(&pipeline, &[params1, in_a, out_sets[0]]);
        r.dispatch(N as u32 / 64, 1, 1);
        r.bind_sets(&pipeline, 1, &[in_c, out_sets[1]]);
        r.dispatch(N as u32 / 64, 1, 1);
        r.bind_sets(&pipeline, 0, &[params2]);
        r.bind_sets(&pipeline, 2, &[out_sets[2]]);
        r.dispatch(N as u32 / 64, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let apply =
        |v: &[u32], add: u32, mul: u32| v.iter().map(|x| x * mul + add).collect::<Vec<u32>>();
    let mut result = CaseResult::new();
    result.check(
        "a_params1",
        &h.read_as::<u32>(&outs[0])?,
        &apply(&values_a, 11, 3),
    );
    result.check(
        "c_params1",
        &h.read_as::<u32>(&outs[1])?,
        &apply(&values_c, 11, 3),
    );
    result.check(
        "c_params2",
        &h.read_as::<u32>(&outs[2])?,
        &apply(&values_c, 22, 5),
    );
    Ok(result)
}

/// Uniform texel buffers of R32_SFLOAT and R8G8B8A8_UINT and a storage
/// texel buffer of R32_UINT with stores and atomics; the specification
/// requires every device to support these uses of these formats.
fn texel_buffers(h: &mut Harness) -> Result<CaseResult, Stop> {
    texel_buffers_at(h, [0; 3])
}

/// The same with each view starting `first[i]` texels into its buffer
/// (the float, byte and word view), what is before it never read nor
/// written.
pub(crate) fn texel_buffers_at(h: &mut Harness, first: [usize; 3]) -> Result<CaseResult, Stop> {
    const N: usize = 256;
    let [f0, b0, w0] = first;
    let floats: Vec<f32> = (0..N + f0).map(|i| (i as f32 - 100.0) / 8.0).collect();
    let bytes: Vec<u8> = (0..4 * (N + b0)).map(|k| (k * 37 % 256) as u8).collect();
    let texel = vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER;
    let float_buffer = h.host_buffer_with(texel, &to_bytes(&floats))?;
    let byte_buffer = h.host_buffer_with(texel, &bytes)?;
    let words = h.host_buffer_with(
        vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER,
        &vec![0; 4 * (w0 + 8 + N)],
    )?;
    let output = h.host_buffer(16 * N as u64, STORAGE)?;
    let mandatory = |stop: Stop| match stop {
        Stop::NotSupported(why) => Stop::Error(format!("a mandatory format use is missing: {why}")),
        other => other,
    };
    let uniform = vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER;
    let float_view = h
        .buffer_view(
            &float_buffer,
            vk::Format::R32_SFLOAT,
            4 * f0 as u64,
            vk::WHOLE_SIZE,
            uniform,
        )
        .map_err(mandatory)?;
    let byte_view = h
        .buffer_view(
            &byte_buffer,
            vk::Format::R8G8B8A8_UINT,
            4 * b0 as u64,
            vk::WHOLE_SIZE,
            uniform,
        )
        .map_err(mandatory)?;
    let storage = vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER
        | vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER_ATOMIC;
    let word_view = h
        .buffer_view(
            &words,
            vk::Format::R32_UINT,
            4 * w0 as u64,
            vk::WHOLE_SIZE,
            storage,
        )
        .map_err(mandatory)?;
    let slots: &[Slot] = &[
        Slot::UNIFORM_TEXEL,
        Slot::UNIFORM_TEXEL,
        Slot::STORAGE_TEXEL,
        Slot::STORAGE,
    ];
    let pipeline = h.compute(&shaders::TEXEL_BUFFERS, &[slots])?;
    let set = h.descriptor_set(
        &pipeline,
        0,
        &[
            Bind::Texel(float_view),
            Bind::Texel(byte_view),
            Bind::Texel(word_view),
            Bind::whole(&output),
        ],
    )?;
    h.dispatch_and_wait(&pipeline, &[set], [N as u32 / 64, 1, 1])?;
    let packed: Vec<u32> = from_bytes(&bytes);
    let want: Vec<u32> = (0..N)
        .flat_map(|i| {
            [
                (floats[f0 + i] * 4.0).to_bits(),
                packed[b0 + i],
                N as u32,
                (8 + N) as u32,
            ]
        })
        .collect();
    let mut want_words = vec![0u32; w0];
    want_words.extend(vec![(N / 8) as u32; 8]);
    want_words.extend((0..N as u32).map(|i| i * 3 + 1));
    let mut result = CaseResult::new();
    result.check("fetched", &h.read_as::<u32>(&output)?, &want);
    result.check("words", &h.read_as::<u32>(&words)?, &want_words);
    Ok(result)
}

/// Blocks declaring arrays of 2^17 and 2^20 words (as VkFFT's and wgpu's are
/// declared): 256 invocations read far into one and write far into the
/// other, and one stores the sum of their length()s.
fn long_fixed_arrays(h: &mut Harness) -> Result<CaseResult, Stop> {
    const SMALL: usize = 1 << 17;
    const LARGE: usize = 1 << 20;
    let words = super::pseudo_random::Sequence::new(31).u32s(SMALL);
    let input = h.host_buffer_with(STORAGE, &to_bytes(&words))?;
    let output = h.host_buffer(4 * (LARGE as u64 + 1), STORAGE)?;
    h.write(&output, 0, &vec![0u8; 4 * (LARGE + 1)])?;
    let pipeline = h.compute(&shaders::LONG_ARRAYS, &[&[Slot::STORAGE, Slot::STORAGE]])?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&input), Bind::whole(&output)])?;
    h.dispatch_and_wait(&pipeline, &[set], [4, 1, 1])?;
    let got = from_bytes::<u32>(&h.read(&output)?);
    let mut want = vec![0u32; LARGE + 1];
    want[0] = (SMALL + LARGE) as u32;
    for i in 0..256 {
        want[LARGE - i * 4093] = words[SMALL - 1 - i * 509].wrapping_add(i as u32);
    }
    let mut result = CaseResult::new();
    result.check("results", &got, &want);
    Ok(result)
}
