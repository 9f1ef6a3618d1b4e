//! How much memory a shader may describe: private memory up to what SP_CS_PVT_MEM_PARAM's
//! MEMSIZEPERITEM gives an invocation, refused beyond it when compiling rather than by
//! the driver's register write.

mod common;

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
        for len in [32_641, 65_536] {
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
