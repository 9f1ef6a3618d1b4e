//! Register allocation under pressure, on the simulated a660 and a740, each result
//! compared with the CPU: low pressure does not spill, spill slots are shared by values
//! not live at once, slots beyond ldp/stp's 13-bit offset are reached through an address
//! register, half values stay in the half register file, and a work group with a barrier
//! fits at once however many registers its shader would like.

mod common;
mod corpus;

use common::mad_chain;
use corpus::on_simulator::{self, Run};
use corpus::{bytes, random, Case, Expect};
use parsnip_compiler::{compile, CompileOptions};

const GPUS: [&str; 2] = ["a660", "a740"];

/// Runs `case` (its SPIR-V given) on `gpu`; the results must be the CPU's.
fn run_checked(gpu: &str, case: &Case, spirv: &[u32]) -> Run {
    let run = on_simulator::run(gpu, case, spirv)
        .unwrap_or_else(|e| panic!("{} on {gpu}: {e}", case.shader));
    if let Err(e) = case.check(&run.results) {
        panic!("{} on {gpu}: {e}\n{}", case.shader, run.shader.disassembly);
    }
    run
}

/// The shader: 1,000 dependent multiply-adds with 14 values live compiled to a
/// spill, and then to an error. Now it needs no private memory at all, and it stays
/// within the footprint at which an SP holds the most waves.
#[test]
fn a_chain_of_a_thousand_multiply_adds_does_not_spill() {
    let steps = 1000;
    let spirv = mad_chain::spirv(steps);
    let groups = 2;
    let input = random(
        7,
        mad_chain::LIVE * (mad_chain::LOCAL_SIZE * groups) as usize,
    );
    let case = Case::new("mad_chain_1000", groups)
        .ssbo(0, bytes(&input))
        .expect(Expect::U32(mad_chain::expected(&input, steps)));
    for gpu in GPUS {
        let run = run_checked(gpu, &case, &spirv);
        let s = &run.shader;
        assert_eq!(s.stats.spills, 0, "{gpu}");
        assert_eq!(s.private_bytes, 0, "{gpu}");
        assert_eq!(s.stats.max_waves, 16, "{gpu}: {} registers", s.full_regs);
        println!(
            "{gpu}: {} instructions, {} registers, {} waves",
            s.stats.instructions, s.full_regs, s.stats.max_waves
        );
    }
}

/// GLSL of a shader that loads `live` words per invocation and only then folds them, last
/// first, so that all are live at once; `phases` such groups one after the other, each
/// ending with a store of the fold so far (which no later load moves above).
fn all_live_source(live: usize, phases: usize) -> String {
    let mut s = String::from(
        "#version 450\nlayout(local_size_x = 64) in;\n\
         layout(binding = 0) buffer In { uint a[]; };\n\
         layout(binding = 1) buffer Out { uint o[]; };\n\
         void main() {\n    uint i = gl_GlobalInvocationID.x;\n    uint acc = 0u;\n",
    );
    for p in 0..phases {
        for k in 0..live {
            s += &format!(
                "    uint v{p}_{k} = a[i * {n}u + {at}u];\n",
                n = live * phases,
                at = p * live + k
            );
        }
        for k in (0..live).rev() {
            s += &format!("    acc = acc * 3u + v{p}_{k};\n");
        }
        s += &format!("    o[{p}u * 64u + i] = acc;\n");
    }
    s += "}\n";
    s
}

fn all_live_expected(a: &[u32], live: usize, phases: usize) -> Vec<u32> {
    let mut o = vec![0u32; 64 * phases];
    for (i, w) in a.chunks(live * phases).enumerate() {
        let mut acc = 0u32;
        for p in 0..phases {
            for k in (0..live).rev() {
                acc = acc.wrapping_mul(3).wrapping_add(w[p * live + k]);
            }
            o[p * 64 + i] = acc;
        }
    }
    o
}

fn all_live_case(name: &'static str, live: usize, phases: usize) -> (Case, Vec<u32>) {
    let spirv = common::spirv_of(name, &all_live_source(live, phases));
    let input = random(11, 64 * live * phases);
    let case = Case::new(name, 1)
        .ssbo(0, bytes(&input))
        .ssbo(1, vec![0; 64 * 4 * phases])
        .expect(Expect::U32(all_live_expected(&input, live, phases)));
    (case, spirv)
}

/// Two phases of 260 values live at once (more than the 192 scalars of the file), one
/// after the other: each spills, and the second reuses the first's slots, so the spill
/// area is about one phase's spills, not both.
#[test]
fn spill_slots_are_reused() {
    let (case, spirv) = all_live_case("two_phases", 260, 2);
    for gpu in GPUS {
        let s = run_checked(gpu, &case, &spirv).shader;
        let spills = s.stats.spills;
        // At least 68 (260 - 192) per phase must spill.
        assert!(spills >= 2 * 68, "{gpu}: {spills} spills");
        assert!(
            s.private_bytes < 4 * spills * 2 / 3,
            "{gpu}: {spills} spills take {} bytes",
            s.private_bytes
        );
        println!("{gpu}: {spills} spills in {} bytes", s.private_bytes);
    }
}

/// 1,300 values live at once spill more than the 1,024 four-byte slots ldp/stp's 13-bit
/// offset reaches from the spill base: the farther ones are addressed through a register
/// set to their 4 KiB block.
#[test]
fn far_spill_slots_are_addressed_through_a_register() {
    let (case, spirv) = all_live_case("far_spills", 1300, 1);
    for gpu in GPUS {
        let s = run_checked(gpu, &case, &spirv).shader;
        assert!(s.private_bytes > 4096, "{gpu}: {} bytes", s.private_bytes);
        // Each far access: a mov of its 4 KiB block's address, then the access through
        // that register at the offset within the block.
        let mut block_reg: Option<String> = None;
        let mut far = 0;
        for line in s.disassembly.lines() {
            if let Some(rest) = line.split("mov.u32u32 ").nth(1) {
                let (reg, value) = rest.split_once(", ").unwrap_or(("", ""));
                block_reg = value
                    .parse::<u32>()
                    .ok()
                    .filter(|v| *v > 0 && v % 4096 == 0)
                    .map(|_| reg.to_string());
            } else if let Some(reg) = &block_reg {
                if (line.contains("ldp.") || line.contains("stp."))
                    && line.contains(&format!("p[{reg}+"))
                {
                    far += 1;
                    block_reg = None;
                }
            }
        }
        assert!(
            far > 0,
            "{gpu}: no access through an address register\n{}",
            s.disassembly
        );
        println!(
            "{gpu}: {} spills, {} bytes, {far} far accesses",
            s.stats.spills, s.private_bytes
        );
    }
}

/// Compiling never gives up on a valid shader for its length, and the length of the
/// chain does not change its footprint.
#[test]
fn long_chains_keep_their_footprint() {
    for steps in [100, 4000] {
        let spirv = mad_chain::spirv(steps);
        for gpu in GPUS {
            let options = CompileOptions {
                gpu: gpu.into(),
                layout: parsnip_compiler::descriptor_layout::DescriptorLayout::packed(&[(
                    0,
                    0,
                    parsnip_compiler::descriptor_layout::DescriptorKind::StorageBuffer,
                    1,
                )]),
                ..CompileOptions::default()
            };
            let s = compile(&spirv, &options).unwrap_or_else(|e| panic!("{gpu} {steps}: {e}"));
            assert_eq!(s.stats.spills, 0, "{gpu} {steps}");
            assert_eq!(s.stats.max_waves, 16, "{gpu} {steps}");
        }
    }
}

/// GLSL of an fp16 3x3 convolution shaped like ncnn's: each invocation computes one pixel
/// of a 24x24 map for `outputs` output channels from the 3x3 neighbourhoods of all
/// `channels` input channels (a padded 26x26 map each), all 9 * `channels` inputs held
/// as half values at once.
fn conv3x3_f16_source(channels: usize, outputs: usize) -> String {
    let mut s = String::from(
        "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n\
         layout(local_size_x = 64) in;\n\
         layout(binding = 0) readonly buffer Img { float img[]; };\n\
         layout(binding = 1) readonly buffer Wts { float w[]; };\n\
         layout(binding = 2) writeonly buffer Out { float o[]; };\n\
         void main() {\n    uint p = gl_GlobalInvocationID.x;\n\
         \x20   uint y = p / 24u, x = p % 24u;\n",
    );
    for c in 0..channels {
        for k in 0..9 {
            let (dy, dx) = (k / 3, k % 3);
            s += &format!(
                "    float16_t v{c}_{k} = float16_t(img[{c}u * 676u + (y + {dy}u) * 26u + x + {dx}u]);\n"
            );
        }
    }
    for out in 0..outputs {
        s += "    float16_t acc{out} = float16_t(0.0);\n"
            .replace("{out}", &out.to_string())
            .as_str();
        for c in 0..channels {
            for k in 0..9 {
                let at = (out * channels + c) * 9 + k;
                s += &format!("    acc{out} += v{c}_{k} * float16_t(w[{at}u]);\n");
            }
        }
        s += &format!("    o[{out}u * 576u + p] = float(acc{out});\n");
    }
    s += "}\n";
    s
}

/// ncnn's fp16 3x3 convolutions compiled to code naming hr60.z, outside the half
/// register file (hr0..hr47, in the merged file the low 96 full scalars' halves): the
/// model refused it and the device was lost. 144 half values live at once must now spill
/// rather than leave the file; small integers keep every fp16 sum exact, so the result
/// is the CPU's to the bit.
#[test]
fn half_registers_stay_in_the_half_register_file() {
    let (channels, outputs) = (16, 2);
    let spirv = common::spirv_of("conv3x3_f16", &conv3x3_f16_source(channels, outputs));
    let small = |seed, n| -> Vec<f32> {
        random(seed, n)
            .iter()
            .map(|r| (*r % 5) as f32 - 2.0)
            .collect()
    };
    let img = small(21, channels * 26 * 26);
    let w = small(22, outputs * channels * 9);
    let mut want = vec![0f32; outputs * 576];
    for out in 0..outputs {
        for p in 0..576 {
            let (y, x) = (p / 24, p % 24);
            let mut acc = 0.0;
            for c in 0..channels {
                for k in 0..9 {
                    let v = img[c * 676 + (y + k / 3) * 26 + x + k % 3];
                    acc += v * w[(out * channels + c) * 9 + k];
                }
            }
            want[out * 576 + p] = acc;
        }
    }
    let case = Case::new("conv3x3_f16", 576 / 64)
        .ssbo(0, corpus::fbytes(&img))
        .ssbo(1, corpus::fbytes(&w))
        .ssbo(2, vec![0; outputs * 576 * 4])
        .expect(Expect::F32 {
            values: want,
            tolerance: 0.0,
        });
    for gpu in GPUS {
        let s = run_checked(gpu, &case, &spirv).shader;
        let highest = s
            .disassembly
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter_map(|t| t.strip_prefix("hr")?.parse::<u32>().ok())
            .max()
            .unwrap_or(0);
        assert!(highest < 48, "{gpu}: hr{highest}");
        assert!(s.half_regs <= 48, "{gpu}: {} half registers", s.half_regs);
        println!(
            "{gpu}: highest hr{highest}, {} full and {} half vec4s, {} spills",
            s.full_regs, s.half_regs, s.stats.spills
        );
    }
}

/// GLSL of a work group of `size` with a barrier, each invocation holding `live` values
/// across it: it loads them, publishes their sum in shared memory, waits, and folds its
/// neighbour's sum with all of them.
fn barrier_source(size: u32, live: usize) -> String {
    let mut s = format!(
        "#version 450\nlayout(local_size_x = {size}) in;\n\
         layout(binding = 0) readonly buffer In {{ uint a[]; }};\n\
         layout(binding = 1) writeonly buffer Out {{ uint o[]; }};\n\
         shared uint sums[{size}];\n\
         void main() {{\n    uint i = gl_LocalInvocationID.x, g = gl_GlobalInvocationID.x;\n"
    );
    for k in 0..live {
        s += &format!("    uint v{k} = a[g * {live}u + {k}u];\n");
    }
    s += "    uint sum = 0u;\n";
    for k in 0..live {
        s += &format!("    sum += v{k};\n");
    }
    s += &format!("    sums[i] = sum;\n    barrier();\n    uint acc = sums[(i + 1u) % {size}u];\n");
    for k in (0..live).rev() {
        s += &format!("    acc = acc * 5u + v{k};\n");
    }
    s += "    o[g] = acc;\n}\n";
    s
}

fn barrier_expected(a: &[u32], size: usize, live: usize) -> Vec<u32> {
    let sums: Vec<u32> = a
        .chunks(live)
        .map(|v| v.iter().fold(0u32, |s, x| s.wrapping_add(*x)))
        .collect();
    (0..sums.len())
        .map(|g| {
            let group = g / size * size;
            let mut acc = sums[group + (g - group + 1) % size];
            for k in (0..live).rev() {
                acc = acc.wrapping_mul(5).wrapping_add(a[g * live + k]);
            }
            acc
        })
        .collect()
}

/// VkFFT's non-power-of-two work groups (143 to 672 invocations) with a barrier were
/// refused because their waves did not all fit at the shader's register count. The
/// allocator now takes the budget that lets the whole work group be resident and spills
/// what does not fit, as Mesa's ir3 does; 1024, the largest work group, too.
#[test]
fn work_groups_with_a_barrier_fit_at_once() {
    let live = 100;
    for size in [143u32, 320, 672, 1024] {
        let name: &'static str = Box::leak(format!("barrier_{size}").into_boxed_str());
        let spirv = common::spirv_of(name, &barrier_source(size, live));
        let groups = 2;
        let input = random(size as u64, (size * groups) as usize * live);
        let case = Case::new(name, groups)
            .ssbo(0, bytes(&input))
            .ssbo(1, vec![0; (size * groups) as usize * 4])
            .expect(Expect::U32(barrier_expected(&input, size as usize, live)));
        for gpu in GPUS {
            let s = run_checked(gpu, &case, &spirv).shader;
            let waves = size.div_ceil(s.wave_size);
            assert!(
                waves <= s.stats.max_waves,
                "{gpu} {size}: {waves} waves of {}, {} fit at {} registers",
                s.wave_size,
                s.stats.max_waves,
                s.full_regs
            );
            println!(
                "{gpu} {size}: wave {}, {} registers, {} spills, {} of {} waves",
                s.wave_size, s.full_regs, s.stats.spills, waves, s.stats.max_waves
            );
        }
    }
}
