//! Cases for built-ins, specialisation constants and the bit, packing and extended
//! arithmetic built-in functions.

use super::*;

const N: usize = 256;

fn builtins_3d() -> Case {
    let (size, groups, base) = ([4u32, 2, 3], [2u32, 3, 2], [1u32, 0, 2]);
    let mut o = vec![0u32; 12 * 24 * 12];
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                for z in 0..size[2] {
                    for y in 0..size[1] {
                        for x in 0..size[0] {
                            let index = (z * size[1] + y) * size[0] + x;
                            let group = (gz * groups[1] + gy) * groups[0] + gx;
                            let wg = [gx + base[0], gy + base[1], gz + base[2]];
                            let g = [
                                wg[0] * size[0] + x,
                                wg[1] * size[1] + y,
                                wg[2] * size[2] + z,
                            ];
                            let at = ((group * 24 + index) * 12) as usize;
                            o[at..at + 12].copy_from_slice(&[
                                x, y, z, index, wg[0], wg[1], wg[2], 403, g[0], g[1], g[2], 232,
                            ]);
                        }
                    }
                }
            }
        }
    }
    let mut case = Case::new("builtins_3d", 0)
        .ssbo(0, vec![0; o.len() * 4])
        .expect(Expect::U32(o));
    case.groups = groups;
    case.base_group = base;
    case
}

fn spec_constants() -> Case {
    let o: Vec<f32> = (0..64).map(|i| -((i * 3) as f32 + 0.5 + 32.0)).collect();
    Case::new("spec_constants", 2)
        .spec(0, 32)
        .spec(1, 3)
        .spec(2, 0.5f32.to_bits() as u64)
        .spec(3, 1)
        .ssbo(0, vec![0; 64 * 4])
        .expect(Expect::F32 {
            values: o,
            tolerance: 0.0,
        })
}

/// A member of a specialised composite constant and a 16-bit conversion of a
/// specialised float: 2.25 is binary16 0x4080 (exponent 16, mantissa 0x80).
fn spec_const_composites() -> Case {
    Case::new("spec_const_composites", 1)
        .spec(0, 7)
        .spec(1, 11)
        .spec(2, 2.25f32.to_bits() as u64)
        .ssbo(0, vec![0; 16])
        .expect(Expect::U32(vec![11, 18, 7, 0x4080]))
}

fn spec_const_ops() -> Case {
    let a = random(40, 64);
    let (width, shift) = (7usize, 7usize);
    let o: Vec<u32> = (0..64)
        .map(|i| {
            let acc = (0..width).fold(0u32, |s, k| s.wrapping_add(a[(i + k) % 64] << (k % shift)));
            acc.wrapping_add(7000)
        })
        .collect();
    Case::new("spec_const_ops", 2)
        .spec(0, 3)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; 256])
        .expect(Expect::U32(o))
}

fn find_msb_signed(v: i32) -> i32 {
    let u = if v < 0 { !v } else { v } as u32;
    if u == 0 {
        -1
    } else {
        31 - u.leading_zeros() as i32
    }
}

fn bitfield() -> Case {
    let a = random(41, N);
    let mut o = Vec::new();
    for (i, &x) in a.iter().enumerate() {
        let (off, bits) = ((i % 20) as u32, (i % 13) as u32);
        let mask = if bits == 0 {
            0
        } else {
            ((1u32 << bits) - 1) << off
        };
        let field = (x & mask) >> off;
        let sfield = if bits == 0 {
            0
        } else {
            (((x << (32 - off - bits)) as i32) >> (32 - bits)) as u32
        };
        let s = x >> (i % 32);
        let lsb = if s == 0 { u32::MAX } else { s.trailing_zeros() };
        let msb = if s == 0 {
            -1
        } else {
            31 - s.leading_zeros() as i32
        };
        o.extend_from_slice(&[
            field,
            sfield,
            (x & !mask) | ((!x << off) & mask),
            x.count_ones(),
            lsb,
            (msb as u32).wrapping_add((find_msb_signed((x as i32) >> 3) as u32).wrapping_mul(256)),
            x.reverse_bits(),
        ]);
    }
    Case::new("bitfield", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 28])
        .expect(Expect::U32(o))
}

/// IEEE binary16 encoding of `x`, by exponent and rounded mantissa (for |x| < 65504).
fn half_bits(x: f32) -> u32 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs() as f64;
    if a == 0.0 {
        return sign;
    }
    if a < 2f64.powi(-14) {
        return sign | (a / 2f64.powi(-24)).round_ties_even() as u32;
    }
    let e = a.log2().floor() as i32;
    let m = ((a / 2f64.powi(e) - 1.0) * 1024.0).round_ties_even() as u32;
    // A mantissa rounding up to 1024 carries into the exponent, which the encoding does by
    // itself when added.
    sign | ((((e + 15) as u32) << 10) + m)
}

fn packing() -> Case {
    let a = random_f32(42, N * 4, -1.2, 1.2);
    let mut o = Vec::new();
    for i in 0..N {
        let v = &a[i * 4..i * 4 + 4];
        let unorm = |c: f32, max: f32| (c.clamp(0.0, 1.0) * max).round_ties_even() as u32;
        let snorm = |c: f32, max: f32, mask: u32| {
            ((c.clamp(-1.0, 1.0) * max).round_ties_even() as i32) as u32 & mask
        };
        o.push((0..4).fold(0, |w, k| w | unorm(v[k], 255.0) << (8 * k)));
        o.push((0..4).fold(0, |w, k| w | snorm(v[k], 127.0, 0xff) << (8 * k)));
        o.push(unorm(v[0], 65535.0) | unorm(v[1], 65535.0) << 16);
        o.push(snorm(v[2], 32767.0, 0xffff) | snorm(v[3], 32767.0, 0xffff) << 16);
        o.push(half_bits(v[0]) | half_bits(v[1]) << 16);
        let h = 1.0 + i as f32 / 1024.0;
        o.push((0.5 * h + h).to_bits());
        let w = (i as u32).wrapping_mul(0x0102_0304);
        o.push((w & 0xff) + (w >> 24) * 256);
        let w = (i as u32).wrapping_mul(0x0103_0507);
        let b = ((w >> 8) as u8 as i8).max(-127) as i32;
        o.push((b + 1000) as u32);
    }
    Case::new("packing", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 32])
        .expect(Expect::U32(o))
}

fn extended_arith() -> Case {
    let a = random(43, N);
    let mut o = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], a[(i + 1) % N]);
        let (s, c) = x.overflowing_add(y);
        let (d, b) = x.overflowing_sub(y);
        let p = x as u64 * y as u64;
        let sp = (x as i32 as i64 * y as i32 as i64) as u64;
        o.extend_from_slice(&[
            s,
            c as u32,
            d,
            b as u32,
            (p >> 32) as u32,
            p as u32,
            (sp >> 32) as u32,
            sp as u32,
        ]);
    }
    Case::new("extended_arith", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 32])
        .expect(Expect::U32(o))
}

fn frexp_ldexp_modf() -> Case {
    let a = random_f32(44, N, -100.0, 100.0);
    let mut o = Vec::new();
    for &x in &a {
        let e = ((x.to_bits() >> 23) & 0xff) as i32 - 126;
        let m = x / 2f32.powi(e);
        o.extend_from_slice(&[m, e as f32, x * 2.0, x - x.trunc(), x.trunc()]);
    }
    Case::new("frexp_ldexp_modf", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 20])
        .expect(Expect::F32 {
            values: o,
            tolerance: 0.0,
        })
}

/// ldexp on vec3 as dEQP's ldexp_subnormals.highp.vec3 calls it: subnormal and normal
/// x with exponents from far below to far above one power of two's range, and the
/// extremes. The result is x * 2^e rounded once to f32 (exact in f64 first; beyond
/// 2^400 either way every f32 saturates).
fn ldexp_vec3() -> Case {
    let r = random(46, 2 * 3 * N);
    let special = [
        i32::MIN,
        -400,
        -300,
        -277,
        -150,
        -149,
        -127,
        -126,
        0,
        1,
        127,
        128,
        149,
        150,
        254,
        255,
        276,
        277,
        400,
        i32::MAX,
    ];
    let mut input = Vec::new();
    let mut want = Vec::new();
    for i in 0..N {
        let mut xs = [0f32; 3];
        let mut es = [0i32; 3];
        for k in 0..3 {
            let (a, b) = (r[6 * i + 2 * k], r[6 * i + 2 * k + 1]);
            let sign = a & 0x8000_0000;
            // Mostly subnormal (exponent field 0), some normal, some zero.
            let bits = match a % 8 {
                0 => sign | (a & 0x3f80_0000) | (b & 0x7f_ffff),
                1 => sign,
                _ => sign | (b & 0x7f_ffff).max(1),
            };
            xs[k] = f32::from_bits(bits);
            es[k] = if b % 5 == 0 {
                special[(b as usize / 5) % special.len()]
            } else {
                (b % 601) as i32 - 300
            };
        }
        if i == 0 {
            xs = [f32::INFINITY, -0.0, f32::MIN_POSITIVE];
        }
        input.extend(xs.iter().map(|x| x.to_bits()));
        input.push(0);
        input.extend(es.iter().map(|e| *e as u32));
        input.push(0);
        for (x, e) in xs.iter().zip(es) {
            let exact = f64::from(*x) * 2f64.powi(e.clamp(-400, 400));
            want.push((exact as f32).to_bits());
        }
        want.push(0);
    }
    Case::new("ldexp_vec3", 4)
        .ssbo(0, bytes(&input))
        .ssbo(1, vec![0; N * 16])
        .expect(Expect::U32(want))
}

fn vector_relational() -> Case {
    let a: Vec<i32> = random(45, N * 4)
        .iter()
        .map(|r| (*r as i32) >> 28)
        .collect();
    let mut o = Vec::new();
    for i in 0..N {
        let x = &a[i * 4..i * 4 + 4];
        let j = (i + 1) % N;
        let y = &a[j * 4..j * 4 + 4];
        let lt: Vec<bool> = (0..4).map(|k| x[k] < y[k]).collect();
        o.extend_from_slice(&[
            lt.iter().any(|b| *b) as i32,
            lt.iter().all(|b| !*b) as i32,
            (0..4).any(|k| x[k] & 3 == y[k] & 3) as i32,
            (0..4).all(|k| x[k] != y[k]) as i32,
        ]);
        o.extend((0..4).map(|k| if lt[k] { y[k] } else { x[k] } + (x[k] >= 0) as i32));
    }
    Case::new("vector_relational", 4)
        .ssbo(0, ibytes(&a))
        .ssbo(1, vec![0; N * 32])
        .expect(Expect::U32(o.iter().map(|v| *v as u32).collect()))
}

pub fn all() -> Vec<Case> {
    vec![
        builtins_3d(),
        spec_constants(),
        spec_const_ops(),
        spec_const_composites(),
        bitfield(),
        packing(),
        extended_arith(),
        frexp_ldexp_modf(),
        ldexp_vec3(),
        vector_relational(),
    ]
}
