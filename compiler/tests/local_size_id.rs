//! LocalSizeId (SPIR-V 1.2's ExecutionModeId form of the workgroup size,
//! which Vulkan takes with maintenance4, and which glslang emits for
//! Vulkan 1.3 when a size is a specialization constant): the size the ids
//! name, specialized or not, is the shader's workgroup size.

mod common;

use parsnip_compiler::{compile_to_ir, CompileOptions};

const SOURCE: &str = "#version 450
layout(local_size_x_id = 0, local_size_y = 2) in;
shared uint s[64];
void main() { s[gl_LocalInvocationIndex] = gl_WorkGroupSize.x; }
";

/// OpExecutionModeId and LocalSizeId, from the SPIR-V specification.
const OP_EXECUTION_MODE_ID: u32 = 331;
const LOCAL_SIZE_ID: u32 = 38;

fn uses_local_size_id(words: &[u32]) -> bool {
    let mut at = 5;
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if op == OP_EXECUTION_MODE_ID && words.get(at + 2) == Some(&LOCAL_SIZE_ID) {
            return true;
        }
        at += count.max(1);
    }
    false
}

#[test]
fn a_workgroup_size_given_by_ids_is_the_constants_specialized_or_not() {
    let spirv = common::spirv_for("local_size_id", SOURCE, "vulkan1.3");
    assert!(
        uses_local_size_id(&spirv),
        "glslang gave the size as LocalSizeId"
    );
    let default = compile_to_ir(&spirv, &CompileOptions::default()).expect("compiles");
    assert_eq!(default.local_size, [1, 2, 1]);
    let mut options = CompileOptions::default();
    options.spec_constants.insert(0, 8);
    let specialized = compile_to_ir(&spirv, &options).expect("compiles");
    assert_eq!(specialized.local_size, [8, 2, 1]);
}
