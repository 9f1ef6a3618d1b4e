//! How fast the shader processor runs a small ALU loop: prints wave
//! instructions and fiber instructions per second, and the time of many
//! tiny dispatches (what a test suite does). Run with `cargo bench -p
//! parsnip-sim --bench sp_throughput`.

#[path = "../tests/shader_rig/mod.rs"]
mod shader_rig;

use std::time::Instant;

use parsnip_isa::IsaGen;
use shader_rig::{address_consts, Rig};

/// Each fiber loops c1.x times over a few dependent ALU operations, then
/// stores its result.
const LOOP: &str = "
    mov.u32u32 r1.x, 0
    mov.u32u32 r1.y, 0
loop:
    add.u r1.y, r1.y, r0.x
    mad.u24 r1.z, r1.y, r0.x, r1.x
    xor.b r1.y, r1.y, r1.z
    add.u r1.x, r1.x, 1
    cmps.u.lt p0.x, r1.x, c1.x
    br p0.x, #loop
    shl.b r2.x, r0.x, 2
    add.u r2.x, r2.x, c0.x
    mov.u32u32 r2.y, c0.y
    stg.u32 g[r2.x], r1.y, 1
    end
";

fn main() {
    let mut rig = Rig::new(IsaGen::A6xx);
    let program = rig.program(LOOP);
    let out = rig.words(&[0; 1024]);
    let mut d = rig.dispatch(program);
    d.full_regs = 3;
    d.instruction_budget = u64::MAX;

    // A long loop: the interpreter's throughput.
    d.local_size = [1024, 1, 1];
    d.group_count = [4, 1, 1];
    d.consts = address_consts(out, &[2000]);
    let start = Instant::now();
    let stats = rig.run_ok(&d);
    let secs = start.elapsed().as_secs_f64();
    let fibers = stats.instructions * 64;
    println!(
        "loop: {} wave instructions ({fibers} fiber instructions) in {secs:.3} s: \
         {:.2} M wave instructions/s, {:.1} M fiber instructions/s",
        stats.instructions,
        stats.instructions as f64 / secs / 1e6,
        fibers as f64 / secs / 1e6
    );

    // Many tiny dispatches: the fixed cost of one.
    d.local_size = [64, 1, 1];
    d.group_count = [1, 1, 1];
    d.consts = address_consts(out, &[1]);
    let n = 20_000;
    let start = Instant::now();
    for _ in 0..n {
        rig.run_ok(&d);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "tiny dispatches (64 fibers, 13 instructions): {n} in {secs:.3} s, {:.1} us each",
        secs / f64::from(n) * 1e6
    );
}
