//! Each case: a shader, its inputs, and what the CPU computes for it.

use super::*;

const N: usize = 256;

fn double() -> Case {
    let want: Vec<u32> = (0..N as u32).map(|i| 2 * i).collect();
    Case::new("double", 4)
        .ssbo(0, vec![0xef; N * 4])
        .expect(Expect::U32(want))
}

fn int_arith() -> Case {
    let a: Vec<i32> = random(1, N).iter().map(|r| (*r as i32) >> 8).collect();
    let b: Vec<i32> = random(2, N)
        .iter()
        .map(|r| ((*r as i32) >> 20) | 1)
        .collect();
    let mut o = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], b[i]);
        o.extend_from_slice(&[
            x.wrapping_add(y),
            x.wrapping_sub(y),
            x.wrapping_mul(y),
            x / y,
            x.abs() % y.abs(),
            -x,
            x.min(y),
            x.max(y),
            x.abs() + y.signum(),
            x.clamp(-100, 100),
        ]);
    }
    Case::new("int_arith", 4)
        .ssbo(0, ibytes(&a))
        .ssbo(1, ibytes(&b))
        .ssbo(2, vec![0; N * 40])
        .expect(Expect::U32(o.iter().map(|v| *v as u32).collect()))
}

fn uint_bits() -> Case {
    let a = random(3, N);
    let mut o = Vec::new();
    for i in 0..N {
        let (x, y, s) = (a[i], a[(i + 1) % N] | 1, (i & 31) as u32);
        o.extend_from_slice(&[
            x / y,
            x % y,
            x << s,
            x >> s,
            ((x as i32) >> s) as u32,
            (x & y) ^ (!x | y),
            x.wrapping_mul(16).wrapping_add(x / 8).wrapping_add(x % 4),
            x.min(y).wrapping_add(x.max(y)),
        ]);
    }
    Case::new("uint_bits", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 32])
        .expect(Expect::U32(o))
}

fn float_arith() -> Case {
    let a = random_f32(4, N, -8.0, 8.0);
    let mut o = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], a[255 - i]);
        let smooth = {
            let t = ((y + 2.0) / 4.0).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        };
        let modulo = x - 1.5 * (x / 1.5).floor();
        let sign = if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        };
        o.extend_from_slice(&[
            x + y * 2.0,
            x - y,
            x / (y.abs() + 1.0),
            x.floor(),
            x.ceil(),
            x - x.floor(),
            x.trunc(),
            x.round_ties_even(),
            sign * y.abs(),
            x.clamp(-1.5, 2.5),
            x * 0.75 + y * 0.25,
            (if x < 0.5 { 0.0 } else { 1.0 }) + smooth + modulo,
        ]);
    }
    Case::new("float_arith", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 48])
        .expect(Expect::F32 {
            values: o,
            tolerance: 1e-5,
        })
}

fn transcendental() -> Case {
    let a = random_f32(5, N, 0.05, 4.0);
    let mut o = Vec::new();
    for &x in &a {
        let s = x * 0.2 - 0.4;
        o.extend_from_slice(&[
            x.sqrt(),
            1.0 / x.sqrt(),
            s.exp(),
            s.exp2(),
            x.ln(),
            x.log2(),
            x.powf(1.5),
            (s * 3.0).sin(),
            (s * 3.0).cos(),
            s.tan(),
            (x - 2.0).atan(),
            s.atan2(x - 2.0),
            s.asin() + s.acos(),
            s.sinh() + s.cosh() + s.tanh(),
        ]);
    }
    Case::new("transcendental", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 56])
        .expect(Expect::F32 {
            values: o,
            tolerance: 1e-4,
        })
}

fn conversions() -> Case {
    let a = random_f32(6, N, -1000.0, 1000.0);
    let mut o = Vec::new();
    for (i, &x) in a.iter().enumerate() {
        let n = x as i32;
        o.extend_from_slice(&[
            n as u32,
            x.abs() as u32,
            (n as f32 * 0.5).to_bits(),
            ((x.abs() as u32) as f32).to_bits(),
            (x > 0.0) as u32 + (n != 0) as u32 * 2,
            (i & 1) as u32 + ((i as f32) > x) as u32 * 4,
        ]);
    }
    Case::new("conversions", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 24])
        .expect(Expect::U32(o))
}

pub fn all() -> Vec<Case> {
    vec![
        double(),
        int_arith(),
        uint_bits(),
        float_arith(),
        transcendental(),
        conversions(),
    ]
}
