//! Cases for the value types: 16- and 64-bit integers, half floats, booleans, vectors and
//! matrices (including row-major and std140 layouts).

use super::*;

const N: usize = 256;

fn int16() -> Case {
    let a = random(7, N);
    let mut o = Vec::new();
    for &w in &a {
        let (x, y) = (w as u16, (w >> 16) as u16);
        let s = x as i16;
        o.extend_from_slice(&[
            x.wrapping_add(y) as u32,
            x.wrapping_mul(y) as u32,
            x.wrapping_sub(y) as u32,
            (x >> 3) as u32 | ((y.wrapping_shl(5)) as u32) << 16,
            ((s >> 2) as i32) as u32,
            (x < y) as u32 + (s < 0) as u32 * 2 + (x / (y | 1)) as u32 * 4,
        ]);
    }
    Case::new("int16", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 24])
        .expect(Expect::U32(o))
}

fn float16() -> Case {
    // Multiples of 1/64 in [-4, 4] are exact in half precision.
    let a: Vec<f32> = random(8, N)
        .iter()
        .map(|r| ((*r % 513) as f32 - 256.0) / 64.0)
        .collect();
    let mut o = Vec::new();
    for i in 0..N {
        let (h, g) = (a[i], a[255 - i]);
        o.extend_from_slice(&[
            h * g + h,
            h - g,
            h.max(g) + h.floor(),
            if h < g { h } else { g * 0.5 },
        ]);
    }
    Case::new("float16", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 16])
        .expect(Expect::F32 {
            values: o,
            tolerance: 4e-3,
        })
}

/// Dividend and divisor pairs for 64-bit division: divisors below and above 2^32 and
/// 2^63, equal operands, dividends below their divisors, 1 and -1, every combination of
/// signs; never a zero divisor nor i64::MIN / -1, which SPIR-V leaves undefined.
pub fn division_pairs(n: usize) -> Vec<(u64, u64)> {
    let min = i64::MIN as u64;
    let mut pairs = vec![
        (u64::MAX, 1),
        (u64::MAX, u64::MAX),
        (u64::MAX, 1 << 63),
        ((1 << 63) - 1, 1 << 63),
        (min, 2),
        (min, u64::MAX - 1),
        (7, 3),
        (7, (-3i64) as u64),
        ((-7i64) as u64, 3),
        ((-7i64) as u64, (-3i64) as u64),
        ((-6i64) as u64, 3),
        (5, 0x1_0000_0000),
        (0x1_0000_0000, 0xffff_ffff),
        (0x1234_5678_9abc_def0, 0x1_0000_0001),
        (0xfedc_ba98_7654_3210, 0x8000_0000_0000_0001),
        (0, 12345),
    ];
    let r = random(40, 4 * n);
    pairs.truncate(n);
    for k in 0..n - pairs.len() {
        let a = (u64::from(r[4 * k]) << 32 | u64::from(r[4 * k + 1])) >> (k % 64);
        let mut b = (u64::from(r[4 * k + 2]) << 32 | u64::from(r[4 * k + 3])) >> (k * 7 % 64);
        if b == 0 || (a == min && b == u64::MAX) {
            b = 3;
        }
        pairs.push((a, b));
    }
    pairs
}

/// SPIR-V's OpSMod: the remainder with the sign of the divisor.
pub fn smod(x: i64, y: i64) -> i64 {
    let r = x.wrapping_rem(y);
    if r != 0 && (r < 0) != (y < 0) {
        r + y
    } else {
        r
    }
}

/// The 16 pairs of edge cases in one work group of 16: the IR interpreter runs each
/// division's 64 steps after every pass (`int64_division.rs` runs more on the
/// simulator).
fn int64_division() -> Case {
    let pairs = division_pairs(16);
    let input: Vec<u32> = pairs
        .iter()
        .flat_map(|&(a, b)| [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32])
        .collect();
    let mut o = Vec::new();
    for &(a, b) in &pairs {
        let (x, y) = (a as i64, b as i64);
        for v in [a / b, a % b, x.wrapping_div(y) as u64, smod(x, y) as u64] {
            o.extend_from_slice(&[v as u32, (v >> 32) as u32]);
        }
    }
    Case::new("int64_division", 1)
        .ssbo(0, bytes(&input))
        .ssbo(1, vec![0; 16 * 32])
        .expect(Expect::U32(o))
}

fn int64() -> Case {
    let a = random(9, N);
    let mut o = Vec::new();
    for i in 0..N {
        let x = ((a[i] as u64) << 32) | a[(i + 7) % N] as u64;
        let y = (a[(i + 3) % N] as u64).wrapping_mul(977);
        let s = x as i64;
        let halves = |v: u64| [v as u32, (v >> 32) as u32];
        o.extend_from_slice(&halves(x.wrapping_add(y)));
        o.extend_from_slice(&halves(x.wrapping_sub(y)));
        o.extend_from_slice(&halves(x.wrapping_mul(y)));
        o.extend_from_slice(&halves((x >> (i % 64)) ^ (y << (i % 61))));
        o.extend_from_slice(&halves((s >> 17) as u64));
        o.extend_from_slice(&[(x < y) as u32, (s < 0) as u32 + (x == y) as u32 * 2]);
    }
    Case::new("int64", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 48])
        .expect(Expect::U32(o))
}

fn bool_logic() -> Case {
    let a: Vec<i32> = random(10, N).iter().map(|r| (*r as i32) >> 24).collect();
    let mut o = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], a[(i + 5) % N]);
        let (p, q, r) = (x > y, (x & 1) == 0, x != -y);
        let t = p && (q || !r);
        let u = p != q;
        let v = p == (q || r);
        o.push(
            t as u32
                | (u as u32) << 1
                | (v as u32) << 2
                | (!p as u32) << 3
                | (if t { 5 } else { 9 }) << 4,
        );
    }
    Case::new("bool_logic", 4)
        .ssbo(0, ibytes(&a))
        .ssbo(1, vec![0; N * 4])
        .expect(Expect::U32(o))
}

type V4 = [f32; 4];

fn vectors() -> Case {
    let a = random_f32(11, N * 4, -3.0, 3.0);
    let v = |i: usize| -> V4 { [a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3]] };
    let mut o = Vec::new();
    for i in 0..N {
        let (x, y) = (v(i), v(255 - i));
        o.extend_from_slice(&[
            x[0] * 2.0 + y[3],
            x[1] * 2.0 + y[2],
            x[2] * 2.0 + y[1],
            x[3] * 2.0 + y[0],
        ]);
        let d2 = [x[0] - y[2], x[1] - y[3]];
        o.extend_from_slice(&[
            dot(&x, &y),
            dot(&x[..3], &x[..3]).sqrt(),
            dot(&d2, &d2).sqrt(),
            x[0] * y[1] + x[2] * y[3],
        ]);
        o.extend_from_slice(&[
            x[1] * y[2] - x[2] * y[1],
            x[2] * y[0] - x[0] * y[2],
            x[0] * y[1] - x[1] * y[0],
            1.0,
        ]);
        let s = [x[0] + 0.5, x[1] + 0.5, x[2] + 0.5];
        let l = dot(&s, &s).sqrt();
        o.extend_from_slice(&[s[0] / l, s[1] / l, s[2] / l, x[3]]);
        let nl = (0.04f32 + 1.0 + 0.09).sqrt();
        let n = [0.2 / nl, 1.0 / nl, 0.3 / nl];
        let d = dot(&n, &x[..3]);
        let ff = if y[2] * x[1] < 0.0 { y[0] } else { -y[0] };
        o.extend_from_slice(&[
            x[0] - 2.0 * d * n[0],
            x[1] - 2.0 * d * n[1],
            x[2] - 2.0 * d * n[2],
            ff,
        ]);
    }
    Case::new("vectors", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 80])
        .expect(Expect::F32 {
            values: o,
            tolerance: 1e-4,
        })
}

/// Column-major: m[c][r].
type M4 = [[f32; 4]; 4];

/// Determinant by cofactor expansion along the first row of a column-major matrix.
fn det(m: &[Vec<f32>]) -> f32 {
    let n = m.len();
    if n == 1 {
        return m[0][0];
    }
    (0..n)
        .map(|c| {
            let minor: Vec<Vec<f32>> = (0..n)
                .filter(|k| *k != c)
                .map(|k| m[k][1..].to_vec())
                .collect();
            let sign = if c % 2 == 0 { 1.0 } else { -1.0 };
            sign * m[c][0] * det(&minor)
        })
        .sum()
}

fn matrices() -> Case {
    let n = 64;
    let md = random_f32(12, n * 16, -2.0, 2.0);
    let vd = random_f32(13, n * 4, -2.0, 2.0);
    let mat = |i: usize| -> M4 {
        let mut m = [[0.0; 4]; 4];
        for (c, col) in m.iter_mut().enumerate() {
            for (r, e) in col.iter_mut().enumerate() {
                *e = md[i * 16 + c * 4 + r];
            }
        }
        m
    };
    let sub = |m: &M4, k: usize| -> Vec<Vec<f32>> { (0..k).map(|c| m[c][..k].to_vec()).collect() };
    let mut o = Vec::new();
    for i in 0..n {
        let (a, b) = (mat(i), mat((i + 1) % n));
        let x = [vd[i * 4], vd[i * 4 + 1], vd[i * 4 + 2], vd[i * 4 + 3]];
        o.extend((0..4).map(|r| (0..4).map(|c| a[c][r] * x[c]).sum::<f32>()));
        o.extend((0..4).map(|c| dot(&x, &a[c])));
        o.extend((0..4).map(|r| (0..4).map(|k| a[k][r] * b[1][k]).sum::<f32>()));
        o.extend((0..4).map(|c| a[c][2]));
        o.extend_from_slice(&[det(&sub(&a, 3)), det(&sub(&b, 2)), det(&sub(&a, 4)), 0.0]);
        o.extend_from_slice(&[x[0] * x[1], x[1] * x[1], x[0] * x[3], x[1] * x[3]]);
        let cv = [1.0, 2.0, 3.0];
        let c3: Vec<f32> = (0..3)
            .map(|r| (0..3).map(|c| a[c][r] * cv[c]).sum())
            .collect();
        o.extend_from_slice(&[
            a[3][0] * 2.0 + c3[0],
            a[3][1] * 2.0 + c3[1],
            a[3][2] * 2.0 + c3[2],
            a[3][3] * 2.0 + c3[0],
        ]);
        o.extend_from_slice(&[
            a[0][0] * 0.5 - a[1][0],
            a[0][1] * 0.5 - a[1][1],
            a[0][2] * 0.5 - a[1][2],
            1.0,
        ]);
    }
    Case::new("matrices", 1)
        .ssbo(0, fbytes(&md))
        .ssbo(1, fbytes(&vd))
        .ssbo(2, vec![0; n * 128])
        .expect(Expect::F32 {
            values: o,
            tolerance: 1e-4,
        })
}

fn row_major() -> Case {
    let n = 16;
    let md = random_f32(14, n * 12, -2.0, 2.0);
    let ud = random_f32(15, 20, -2.0, 2.0);
    // Row-major mat4x3: element (column c, row r) at float r * 4 + c.
    let m = |i: usize, c: usize, r: usize| md[i * 12 + r * 4 + c];
    // std140 mat3: column c at float 4c; mat2 at 12 + 4c.
    let u = |c: usize, r: usize| ud[c * 4 + r];
    let u2 = |c: usize, r: usize| ud[12 + c * 4 + r];
    let mut o = Vec::new();
    for i in 0..n {
        o.extend_from_slice(&[m(i, 0, 0), m(i, 0, 1), m(i, 0, 2), m(i, 3, 1)]);
        o.extend_from_slice(&[m(i, 2, 0), m(i, 2, 1), m(i, 2, 2), m(i, 1, 2)]);
        o.extend((0..3).map(|r| (0..3).map(|c| u(c, r) * m(i, 1, c)).sum::<f32>()));
        o.push(u(2, 1));
        o.extend_from_slice(&[u2(0, 0), u2(0, 1), u2(1, 0) * i as f32, u2(1, 1) * i as f32]);
    }
    Case::new("row_major", 1)
        .ssbo(0, fbytes(&md))
        .ubo(1, fbytes(&ud))
        .ssbo(2, vec![0; n * 64])
        .expect(Expect::F32 {
            values: o,
            tolerance: 1e-5,
        })
}

pub fn all() -> Vec<Case> {
    vec![
        int16(),
        float16(),
        int64(),
        int64_division(),
        bool_logic(),
        vectors(),
        matrices(),
        row_major(),
    ]
}
