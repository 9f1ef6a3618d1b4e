//! Storage buffers in the scalar block layout (scalarBlockLayout): members at
//! the offsets of their scalars' alignment, mirrored in Rust.

use super::pseudo_random::Sequence;
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[Case {
    name: "scalar_layout.packed_members",
    run: packed_members,
}];

const N: usize = 64;

fn packed_members(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().scalar_block_layout {
        return Err(Stop::NotSupported("scalarBlockLayout".into()));
    }
    let mut seq = Sequence::new(44);
    let mut small = || seq.below(100) as f32;
    // head; v[64] (12-byte stride, from offset 4); items[64] of {vec3 p; float
    // w; uint id} (20 bytes, from offset 772). Integers and powers of two keep
    // every sum exact.
    let head = 1.0f32;
    let v: Vec<[f32; 3]> = (0..N).map(|_| [small(), small(), small()]).collect();
    let p: Vec<[f32; 3]> = (0..N).map(|_| [small(), small(), small()]).collect();
    let w: Vec<f32> = (0..N).map(|i| if i % 2 == 0 { 0.5 } else { 2.0 }).collect();
    let mut input: Vec<u32> = vec![head.to_bits()];
    input.extend(v.iter().flatten().map(|x| x.to_bits()));
    for k in 0..N {
        input.extend(p[k].iter().map(|x| x.to_bits()));
        input.push(w[k].to_bits());
        input.push(1000 + k as u32);
    }
    // tag; sums[64] (from offset 4); pairs[64] (from offset 772).
    let mut want: Vec<u32> = vec![0xfeed];
    for (i, vi) in v.iter().enumerate() {
        let k = N - 1 - i;
        want.extend((0..3).map(|c| (vi[c] * w[k] + p[k][c] + head).to_bits()));
    }
    for (i, vi) in v.iter().enumerate() {
        let k = N - 1 - i;
        want.push(((1000 + k) as f32).to_bits());
        want.push((vi[1] + p[k][2]).to_bits());
    }
    let got = super::one_dispatch::one_dispatch(
        h,
        &shaders::SCALAR_LAYOUT,
        &to_bytes(&input),
        (want.len() * 4) as u64,
        1,
    )?;
    let mut result = CaseResult::new();
    result.check("results", &from_bytes::<u32>(&got), &want);
    Ok(result)
}
