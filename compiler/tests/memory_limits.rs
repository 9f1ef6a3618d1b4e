//! How much memory a shader may describe: arrays as long as the memory behind them (VkFFT
//! from 2^17 points and wgpu's 131,072-element arrays were refused as "out of range" by
//! an internal table size), and private memory up to what SP_CS_PVT_MEM_PARAM's
//! MEMSIZEPERITEM gives an invocation, refused beyond it when compiling rather than by
//! the driver's register write.

mod common;
mod corpus;

use corpus::{bytes, on_simulator, random, Case, Expect};
use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::{compile, CompileOptions};

const GPUS: [&str; 2] = ["a660", "a740"];

fn options(gpu: &str, storage_buffers: u32) -> CompileOptions {
    let list: Vec<_> = (0..storage_buffers)
        .map(|b| (0, b, DescriptorKind::StorageBuffer, 1))
        .collect();
    CompileOptions {
        gpu: gpu.into(),
        layout: DescriptorLayout::packed(&list),
        ..CompileOptions::default()
    }
}

/// A shader with a function-local array of `len` words indexed at run time.
fn local_array(len: u32) -> Vec<u32> {
    common::spirv_of(
        "local_array",
        &format!(
            "#version 450\nlayout(local_size_x = 64) in;\n\
             layout(binding = 0) buffer B {{ uint d[]; }};\n\
             void main() {{\n    uint big[{len}];\n    uint i = gl_GlobalInvocationID.x;\n\
             \x20   big[d[i] % {len}u] = i;\n    d[i] = big[d[i + 64u] % {len}u];\n}}\n"
        ),
    )
}

/// 255 units of 512 bytes is what MEMSIZEPERITEM holds (a6xx.xml: bits 0-7, shr 9): a
/// local array of 32,640 words takes exactly that, one more word is refused, and the
/// issue's 64 Ki-word array, which the driver then failed to encode, is refused too, each
/// with what the limit is and where it comes from.
#[test]
fn private_memory_ends_where_memsizeperitem_does() {
    for gpu in GPUS {
        let s = compile(&local_array(32_640), &options(gpu, 1))
            .unwrap_or_else(|e| panic!("{gpu}: {e}"));
        assert_eq!(s.private_bytes, 130_560, "{gpu}");
        for len in [32_641, 65_536, 131_072] {
            let e = compile(&local_array(len), &options(gpu, 1))
                .err()
                .unwrap_or_else(|| panic!("{gpu}: {len} words compiled"));
            assert!(
                e.message.contains(&format!(
                    "needs {} bytes of private memory",
                    (4 * len).next_multiple_of(8)
                )) && e.message.contains("MEMSIZEPERITEM")
                    && e.message.contains("at most 130560"),
                "{gpu} {len}: {}",
                e.message
            );
        }
    }
}

/// Workgroup arrays are bounded by shared memory, and say so.
#[test]
fn shared_arrays_are_bounded_by_shared_memory() {
    let spirv = common::spirv_of(
        "shared_array",
        "#version 450\nlayout(local_size_x = 64) in;\n\
         layout(binding = 0) buffer B { uint d[]; };\n\
         shared uint s[131072];\n\
         void main() {\n    uint i = gl_GlobalInvocationID.x;\n    s[d[i]] = i;\n\
         \x20   barrier();\n    d[i] = s[d[i + 64u]];\n}\n",
    );
    let e = compile(&spirv, &options("a660", 1)).expect_err("refused");
    assert!(
        e.message.contains("524288 bytes of shared memory") && e.message.contains("32768"),
        "{}",
        e.message
    );
}

/// Storage buffers whose block holds arrays of 131,072 and 1,048,576 words, as VkFFT's
/// and wgpu's are declared: each invocation reads far into the first and writes far
/// into the second, and `length()` is the declared length.
#[test]
fn buffer_arrays_are_as_long_as_their_memory() {
    const SMALL: usize = 131_072;
    const LARGE: usize = 1 << 20;
    let spirv = common::spirv_of(
        "long_arrays",
        &format!(
            "#version 450\nlayout(local_size_x = 64) in;\n\
             layout(binding = 0) readonly buffer A {{ uint a[{SMALL}]; }};\n\
             layout(binding = 1) buffer B {{ uint len; uint b[{LARGE}]; }};\n\
             void main() {{\n    uint i = gl_GlobalInvocationID.x;\n\
             \x20   b[{LARGE}u - 1u - i * 4093u] = a[{SMALL}u - 1u - i * 509u] + i;\n\
             \x20   if (i == 0u) len = uint(b.length()) + uint(a.length());\n}}\n"
        ),
    );
    let invocations = 256;
    let a = random(5, SMALL);
    let mut want = vec![0u32; LARGE + 1];
    want[0] = (SMALL + LARGE) as u32;
    for i in 0..invocations {
        want[1 + LARGE - 1 - i * 4093] = a[SMALL - 1 - i * 509].wrapping_add(i as u32);
    }
    let case = Case::new("long_arrays", (invocations / 64) as u32)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; 4 * (LARGE + 1)])
        .expect(Expect::U32(want));
    for gpu in GPUS {
        let run = on_simulator::run(gpu, &case, &spirv).unwrap_or_else(|e| panic!("{gpu}: {e}"));
        case.check(&run.results)
            .unwrap_or_else(|e| panic!("{gpu}: {e}"));
    }
}
