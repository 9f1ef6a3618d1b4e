//! Branches, loops, switches and function calls that diverge between
//! neighbouring invocations, mirrored in Rust.

use super::one_dispatch::check_one_dispatch;
use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[
    Case {
        name: "control_flow.branches",
        run: branches,
    },
    Case {
        name: "control_flow.loops",
        run: loops,
    },
    Case {
        name: "control_flow.switch",
        run: switch,
    },
    Case {
        name: "control_flow.functions",
        run: functions,
    },
];

const N: usize = 256;
const GROUPS: u32 = (N / 64) as u32;

fn inputs(seed: u64) -> Vec<u32> {
    let mut seq = Sequence::new(seed);
    (0..N)
        .map(|i| match i % 4 {
            0 => seq.below(100),
            _ => seq.next_u32(),
        })
        .collect()
}

/// Runs `shader` on `values` and checks it computed `expected` of each
/// (invocation index, value).
fn check_per_value(
    h: &mut Harness,
    shader: &shaders::Shader,
    values: &[u32],
    expected: impl Fn(u32, u32) -> Vec<u32>,
) -> Result<CaseResult, Stop> {
    let want: Vec<u32> = values
        .iter()
        .enumerate()
        .flat_map(|(i, v)| expected(i as u32, *v))
        .collect();
    check_one_dispatch(h, shader, &to_bytes(values), &want, GROUPS)
}

fn branches(h: &mut Harness) -> Result<CaseResult, Stop> {
    check_per_value(h, &shaders::BRANCHES, &inputs(11), |i, v| {
        let r = if v % 3 == 0 {
            if i & 1 != 0 {
                (v / 3) ^ 0x5555
            } else {
                v / 3
            }
        } else if v & 1 != 0 {
            v.wrapping_mul(7).wrapping_add(i)
        } else if v > 0x8000_0000 {
            (!v).wrapping_add(11)
        } else {
            (!v).wrapping_sub(i)
        };
        vec![r]
    })
}

fn loops(h: &mut Harness) -> Result<CaseResult, Stop> {
    check_per_value(h, &shaders::LOOPS, &inputs(12), |_, v| {
        let mut acc = v;
        let mut steps = 0u32;
        for j in 0..v % 37 {
            acc = acc.wrapping_mul(31).wrapping_add(j);
            if acc % 7 == 0 {
                continue;
            }
            steps += 1;
            if acc > 0xf000_0000 {
                break;
            }
        }
        let mut k = v;
        while k > 1 && steps < 1000 {
            k = if k & 1 != 0 { k / 2 } else { k / 3 };
            steps += 2;
        }
        vec![acc, steps]
    })
}

fn switch(h: &mut Harness) -> Result<CaseResult, Stop> {
    check_per_value(h, &shaders::SWITCH, &inputs(13), |_, v| {
        let r = match v % 9 {
            0 => 33,    // (1 + 10) * 3, falling into case 1
            1 => 3,     // 1 * 3
            2 | 3 => v, // shared body
            6 => 6,     // 1 + 5
            7 => 1,     // empty
            _ => 105,   // default, falling into case 6
        };
        vec![r]
    })
}

fn functions(h: &mut Harness) -> Result<CaseResult, Stop> {
    let first_multiple = |v: u32, of: u32| {
        (0..64)
            .find(|j| v.wrapping_add(*j) % of == 0)
            .unwrap_or(999)
    };
    let accumulate = |acc: &mut u32, x: u32| {
        if x != 0 {
            *acc = (*acc << 3) ^ x;
        }
    };
    check_per_value(h, &shaders::FUNCTIONS, &inputs(14), |_, v| {
        let mut acc = 0;
        accumulate(&mut acc, first_multiple(v, 13));
        if v & 2 != 0 {
            accumulate(&mut acc, first_multiple(v >> 4, 61));
        }
        accumulate(&mut acc, first_multiple(v, 97));
        vec![acc, first_multiple(v, 211)]
    })
}
