//! 16-bit storage: loads from storage and uniform buffers and push constants, stores of 16-bit values by
//! neighbouring invocations into the two halves of one dword, on the simulated a660 and
//! a740, against the CPU.

mod common;
mod corpus;

use corpus::{Case, Expect};

const N: usize = 256;
/// The two 16-bit push constants.
const PA: u16 = 0x8421;
const PB: u16 = 0x0105;

/// The bits of `v` as a binary16 (`v` is exactly representable, normal or zero).
fn f16_bits(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let b = v.to_bits();
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    (((b >> 16) & 0x8000) | ((exp as u32) << 10) | ((b >> 13) & 0x3ff)) as u16
}

fn storage16_on(gpu: &str) {
    let a: Vec<u16> = corpus::random(77, N).iter().map(|r| *r as u16).collect();
    let h: Vec<f32> = (0..N).map(|i| (i % 64) as f32).collect();
    let k = [7u16, 0xfff0, 300, 1];
    let scale = 0.5f32;
    let mut input = Vec::new();
    for x in &a {
        input.extend_from_slice(&x.to_le_bytes());
    }
    for x in &h {
        input.extend_from_slice(&f16_bits(*x).to_le_bytes());
    }
    let mut ubo = Vec::new();
    for x in k {
        ubo.extend_from_slice(&x.to_le_bytes());
    }
    ubo.extend_from_slice(&f16_bits(scale).to_le_bytes());
    ubo.extend_from_slice(&f16_bits(1.0).to_le_bytes());
    ubo.resize(16 * 2, 0);
    let mut want = Vec::new();
    for i in 0..N {
        let v = a[i]
            .wrapping_mul(3)
            .wrapping_add(a[i ^ 1])
            .wrapping_add(k[i & 3])
            .wrapping_add(PB);
        want.extend_from_slice(&v.to_le_bytes());
    }
    for i in 0..N {
        let v = h[i] * scale + (a[i] & 15) as f32;
        want.extend_from_slice(&f16_bits(v).to_le_bytes());
    }
    for &x in &a {
        let w = u32::from(x ^ PA) << 16 | u32::from(((x as i16) >> 3) as u16);
        want.extend_from_slice(&w.to_le_bytes());
    }
    let case = Case::new("storage16", (N / 64) as u32)
        .ssbo(0, input)
        .ssbo(1, vec![0xa5; want.len()])
        .expect(Expect::Bytes(want))
        .ubo(2, ubo)
        .push([PA.to_le_bytes(), PB.to_le_bytes()].concat());
    let spirv = common::spirv(case.shader);
    let run = corpus::on_simulator::run(gpu, &case, &spirv).unwrap();
    case.check(&run.results).unwrap();
}

#[test]
fn sixteen_bit_storage_matches_the_cpu_on_a660() {
    storage16_on("a660");
}

#[test]
fn sixteen_bit_storage_matches_the_cpu_on_a740() {
    storage16_on("a740");
}
