//! Subgroup operations compiled for a660 and a740 and run on the simulated GPU, against
//! what the CPU computes for waves of 64 fibers cut from the linear local index: the
//! built-ins, elect, votes, ballots and their bit operations, broadcasts, reductions and
//! scans of every operator kind, quad swaps, and operations inside a divergent branch.

mod common;
mod corpus;

use corpus::{Case, Expect};

const WAVE: usize = 64;
const GROUP: usize = 128;
const N: usize = 2 * GROUP;
const OUT: usize = 32;

/// Inputs: wave 0 holds a 77 and nothing above 899; wave 1 a 950; wave 2 is all 42;
/// wave 3 is random below 1000.
fn inputs() -> Vec<u32> {
    let r = corpus::random(91, N);
    (0..N)
        .map(|i| match i / WAVE {
            0 if i == 9 => 77,
            1 if i == 64 + 40 => 950,
            2 => 42,
            _ => r[i] % 900 + 1,
        })
        .collect()
}

fn bits_below(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn expected(v: &[u32]) -> Vec<u32> {
    let mut o = vec![0u32; N * OUT];
    for i in 0..N {
        let (w0, lane) = (i / WAVE * WAVE, i % WAVE);
        let wave = &v[w0..w0 + WAVE];
        let odd: Vec<bool> = wave.iter().map(|x| x & 1 != 0).collect();
        let ballot: u64 = (0..WAVE).filter(|&l| odd[l]).map(|l| 1u64 << l).sum();
        let r = &mut o[i * OUT..(i + 1) * OUT];
        r[0] = WAVE as u32;
        r[1] = lane as u32;
        r[2] = ((i % GROUP) / WAVE) as u32;
        r[3] = (GROUP / WAVE) as u32;
        r[4] = u32::from(lane == 0);
        r[5] = u32::from(wave.contains(&77))
            | u32::from(wave.iter().all(|&y| y < 1000)) << 1
            | u32::from(wave.iter().all(|&y| y == wave[0])) << 2
            | 8
            | u32::from(wave.iter().all(|&y| y < 900)) << 5;
        r[6] = ballot as u32;
        r[7] = (ballot >> 32) as u32;
        r[8] = 0;
        r[9] = ballot.count_ones();
        r[10] = (ballot & bits_below(lane + 1)).count_ones();
        r[11] = (ballot & bits_below(lane)).count_ones();
        let lsb = if ballot == 0 {
            u32::MAX
        } else {
            ballot.trailing_zeros()
        };
        let msb = if ballot == 0 {
            u32::MAX
        } else {
            63 - ballot.leading_zeros()
        };
        r[12] = lsb | msb << 8 | u32::from(odd[lane]) << 16 | u32::from(odd[5]) << 17;
        r[13] = wave[0];
        r[14] = wave[5];
        r[15] = wave.iter().fold(0u32, |a, &y| a.wrapping_add(y));
        r[16] = wave[..=lane]
            .iter()
            .fold(1u32, |a, &y| a.wrapping_mul(y | 1));
        r[17] = wave[..lane].iter().copied().max().unwrap_or(0);
        r[18] = *wave.iter().min().unwrap();
        r[19] =
            wave[..lane].iter().fold(0, |a, &y| a ^ y) ^ (wave.iter().fold(0, |a, &y| a | y) << 1);
        r[20] = wave[..=lane]
            .iter()
            .map(|&y| (y & 255) as f32)
            .sum::<f32>()
            .to_bits();
        r[21] = wave[..lane]
            .iter()
            .map(|&y| y as i32 - 500)
            .min()
            .unwrap_or(i32::MAX) as u32;
        r[22] = wave[lane ^ 1] ^ (wave[lane ^ 3] << 10);
        r[23] = wave[(lane & !3) + 2] ^ (wave[lane ^ 2] << 10);
        r[24] = if odd[lane] {
            let active: Vec<usize> = (0..WAVE).filter(|&l| odd[l]).collect();
            let sum = active.iter().fold(0u32, |a, &l| a.wrapping_add(wave[l]));
            let first = u32::from(active[0] == lane) * 1_000_000;
            let before = active.iter().filter(|&&l| l < lane).count() as u32;
            sum + first + active.len() as u32 * 7 + before * 100_000
        } else {
            0
        };
        let eq = 1u64 << lane;
        let ge = !bits_below(lane);
        let gt = ge & !eq;
        let le = bits_below(lane + 1);
        let lt = bits_below(lane);
        r[25] = eq as u32 ^ ((eq >> 32) as u32).wrapping_mul(3);
        r[26] = ge as u32;
        r[27] = (ge >> 32) as u32;
        r[28] = gt as u32 ^ (gt >> 32) as u32;
        r[29] = le as u32;
        r[30] = (lt >> 32) as u32;
        r[31] = wave.iter().fold(u32::MAX, |a, &y| a & (y | 0xffff_0000)) & 0xffff_0000;
    }
    o
}

fn subgroup_ops_on(gpu: &str) {
    let v = inputs();
    let case = Case::new("subgroup_ops", 2)
        .ssbo(0, common::u32s_to_bytes(&v))
        .ssbo(1, vec![0; N * OUT * 4])
        .expect(Expect::U32(expected(&v)));
    let spirv = common::spirv(case.shader);
    let run = corpus::on_simulator::run(gpu, &case, &spirv).unwrap();
    assert_eq!(run.shader.wave_size, WAVE as u32);
    case.check(&run.results).unwrap();
}

#[test]
fn subgroup_operations_match_the_cpu_on_a660() {
    subgroup_ops_on("a660");
}

#[test]
fn subgroup_operations_match_the_cpu_on_a740() {
    subgroup_ops_on("a740");
}
