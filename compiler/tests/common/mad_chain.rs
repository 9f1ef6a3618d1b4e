//! A straight-line chain of dependent integer multiply-adds, as SPIR-V built here (GLSL of
//! 20,000 statements takes glslang minutes): each invocation loads `LIVE` words, then
//! step `s` does `a[j] = a[j] * K(s) + a[j + 1]` with `j = s % LIVE` and a constant
//! `K(s)` of its own, so that about `LIVE` values are live throughout and every step needs
//! one constant in a register. Then it stores the words back.

#![allow(dead_code)]

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, MemoryModel, StorageClass,
};

/// Values live through the chain.
pub const LIVE: usize = 14;
/// Invocations per work group.
pub const LOCAL_SIZE: u32 = 64;

/// The constant of step `s`: above cat2's 11-bit immediates, below 2^16.
pub fn k(s: usize) -> u32 {
    1025 + (2 * s as u32) % 64000
}

/// The SPIR-V of a chain of `steps` multiply-adds.
pub fn spirv(steps: usize) -> Vec<u32> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let uint = b.type_int(32, 0);
    let uvec3 = b.type_vector(uint, 3);
    let rta = b.type_runtime_array(uint);
    b.decorate(rta, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
    let block = b.type_struct([rta]);
    b.decorate(block, Decoration::Block, []);
    b.member_decorate(block, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
    let block_ptr = b.type_pointer(None, StorageClass::StorageBuffer, block);
    let elem_ptr = b.type_pointer(None, StorageClass::StorageBuffer, uint);
    let in_ptr = b.type_pointer(None, StorageClass::Input, uvec3);
    let buffer = b.variable(block_ptr, None, StorageClass::StorageBuffer, None);
    b.decorate(
        buffer,
        Decoration::DescriptorSet,
        [Operand::LiteralBit32(0)],
    );
    b.decorate(buffer, Decoration::Binding, [Operand::LiteralBit32(0)]);
    let gid = b.variable(in_ptr, None, StorageClass::Input, None);
    b.decorate(
        gid,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
    );
    let fn_ty = b.type_function(void, []);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .expect("function");
    b.begin_block(None).expect("block");
    let zero = b.constant_bit32(uint, 0);
    let live = b.constant_bit32(uint, LIVE as u32);
    let id = b.load(uvec3, None, gid, None, []).expect("load");
    let x = b.composite_extract(uint, None, id, [0]).expect("extract");
    let base = b.i_mul(uint, None, x, live).expect("mul");
    let mut slots = Vec::new();
    let mut a = Vec::new();
    for j in 0..LIVE {
        let kj = b.constant_bit32(uint, j as u32);
        let at = b.i_add(uint, None, base, kj).expect("add");
        let p = b
            .access_chain(elem_ptr, None, buffer, [zero, at])
            .expect("chain");
        slots.push(p);
        a.push(b.load(uint, None, p, None, []).expect("load"));
    }
    for s in 0..steps {
        let j = s % LIVE;
        let ks = b.constant_bit32(uint, k(s));
        let m = b.i_mul(uint, None, a[j], ks).expect("mul");
        a[j] = b.i_add(uint, None, m, a[(j + 1) % LIVE]).expect("add");
    }
    for j in 0..LIVE {
        b.store(slots[j], a[j], None, []).expect("store");
    }
    b.ret().expect("ret");
    b.end_function().expect("end");
    b.entry_point(ExecutionModel::GLCompute, main, "main", [gid, buffer]);
    b.execution_mode(main, ExecutionMode::LocalSize, [LOCAL_SIZE, 1, 1]);
    b.module().assemble()
}

/// What the chain leaves in the buffer `words` (invocation `i` owning words
/// `i * LIVE..(i + 1) * LIVE`), computed on the CPU.
pub fn expected(words: &[u32], steps: usize) -> Vec<u32> {
    let mut out = words.to_vec();
    for a in out.chunks_mut(LIVE) {
        for s in 0..steps {
            let j = s % LIVE;
            a[j] = a[j].wrapping_mul(k(s)).wrapping_add(a[(j + 1) % LIVE]);
        }
    }
    out
}
