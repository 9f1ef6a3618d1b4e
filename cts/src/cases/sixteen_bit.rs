//! 16-bit integers and floats in storage buffers and in arithmetic
//! (shaderInt16, shaderFloat16, storageBuffer16BitAccess), mirrored in Rust.

use super::one_dispatch::check_one_dispatch;
use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[Case {
    name: "sixteen_bit.storage_and_arithmetic",
    run: storage_and_arithmetic,
}];

const N: usize = 256;

/// The binary16 bits of `v`, a non-negative multiple of 1/4 below 2048
/// (exact and normal in f16, or zero).
fn f16_bits(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let b = v.to_bits();
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    (((exp as u32) << 10) | ((b >> 13) & 0x3ff)) as u16
}

fn storage_and_arithmetic(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().sixteen_bit {
        return Err(Stop::NotSupported(
            "shaderInt16, shaderFloat16 and 16-bit storage".into(),
        ));
    }
    let mut seq = Sequence::new(16);
    let p: Vec<i16> = (0..2 * N).map(|_| seq.next_u32() as i16).collect();
    let mut s = vec![0i16; 2 * N];
    let mut f = vec![0u16; 2 * N];
    for i in 0..N {
        let (x, y) = (p[2 * i], p[2 * i + 1]);
        s[i] = x.wrapping_mul(y);
        s[i + N] = x.max(y) >> 1;
        f[2 * i] = f16_bits(f32::from(x & 255) * 0.25);
        f[2 * i + 1] = f16_bits(f32::from(y & 63) + 0.5);
    }
    let mut want: Vec<u16> = s.iter().map(|v| *v as u16).collect();
    want.extend_from_slice(&f);
    let input: Vec<u16> = p.iter().map(|v| *v as u16).collect();
    check_one_dispatch(
        h,
        &shaders::SIXTEEN_BIT,
        &to_bytes(&input),
        &want,
        (N / 64) as u32,
    )
}
