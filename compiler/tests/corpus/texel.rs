//! Cases for texel buffers: uniform texel buffers read through the texture unit, storage
//! texel buffers loaded, stored and updated atomically, formats converting both ways, views
//! declared without a format, and arrays of them.
//!
//! The expected texels are worked out here from the format definitions (Vulkan's
//! "Fixed-Point Data Conversions" and the IEEE half-precision layout), independently of
//! the compiler's interpreter and of the simulator's format codec.

use super::*;
use DescriptorKind::{StorageTexelBuffer as Storage, UniformTexelBuffer as Uniform};

const N: usize = 256;

pub fn all() -> Vec<Case> {
    vec![
        texel_fetch(),
        texel_storage(),
        texel_without_format(),
        texel_arrays(),
    ]
}

/// A normalised component as Vulkan reads it, to the nearest f32.
fn unorm(c: u8) -> u32 {
    ((f64::from(c) / 255.0) as f32).to_bits()
}

fn snorm(c: u8) -> u32 {
    ((f64::from(c as i8) / 127.0).max(-1.0) as f32).to_bits()
}

/// IEEE binary16 to f32 (every half is exactly an f32).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from(h >> 10 & 0x1f);
    let mant = f64::from(h & 0x3ff);
    let magnitude = if exp == 0 {
        mant * 2f64.powi(-24)
    } else {
        (1.0 + mant / 1024.0) * 2f64.powi(exp - 15)
    };
    (sign * magnitude) as f32
}

/// The binary16 encoding of a value a half holds exactly (zero or normal).
fn exact_half(x: f32) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let sign = if x < 0.0 { 0x8000 } else { 0 };
    let a = f64::from(x.abs());
    let exp = a.log2().floor() as i32;
    let mant = (a / 2f64.powi(exp) - 1.0) * 1024.0;
    assert!(
        mant.fract() == 0.0 && (-14..=15).contains(&exp),
        "{x} is not a normal half"
    );
    sign | ((exp + 15) as u16) << 10 | mant as u16
}

fn halves(words: &[u16]) -> Vec<u8> {
    words.iter().flat_map(|h| h.to_le_bytes()).collect()
}

fn texel_fetch() -> Case {
    let colors = random(40, N);
    let pairs = random(41, 300);
    let words = random(42, N);
    // Finite halves of every exponent but the extremes, with random mantissas and signs.
    let half_bits: Vec<u16> = random(43, 2 * N)
        .iter()
        .map(|r| (*r as u16 & 0x83ff) | ((1 + (r >> 16) % 30) as u16) << 10)
        .collect();
    let mut out = Vec::new();
    for c in &colors {
        out.extend(c.to_le_bytes().map(unorm));
    }
    for i in 0..N {
        let p = pairs[i * 7 % 300];
        out.extend([p as u16 as i16 as u32, (p >> 16) as u16 as i16 as u32, 0, 1]);
    }
    for i in 0..N {
        // w.y + w.w * 16: the missing components read as 0 and 1.
        out.extend([words[255 - i], 16]);
    }
    for i in 0..N {
        let (x, y) = (half_bits[2 * i], half_bits[2 * i + 1]);
        out.extend([half_to_f32(y).to_bits(), half_to_f32(x).to_bits()]);
    }
    out.extend([N as u32, 300, N as u32, N as u32]);
    Case::new("texel_fetch", 4)
        .texel(0, 0, Uniform, ImageFormat::Rgba8, bytes(&colors))
        .texel(1, 0, Uniform, ImageFormat::Rg16i, bytes(&pairs))
        .texel(2, 0, Uniform, ImageFormat::R32ui, bytes(&words))
        .texel(3, 0, Uniform, ImageFormat::Rg16f, halves(&half_bits))
        .ssbo(4, vec![0; out.len() * 4])
        .expect(Expect::U32(out))
}

fn texel_storage() -> Case {
    let vectors = random_f32(44, 4 * N, -100.0, 100.0);
    let vectors_after: Vec<f32> = vectors
        .chunks(4)
        .enumerate()
        .flat_map(|(i, v)| {
            [
                v[0] * 2.0 + i as f32,
                v[1] * 2.0 + 0.5,
                v[2] * 2.0 - 1.0,
                v[3] * 2.0,
            ]
        })
        .collect();
    // Multiples of 0.25 below 500 in magnitude: adding 0.25 stays exact in a half.
    let quarters: Vec<f32> = random(45, 4 * N)
        .iter()
        .map(|r| (r % 2000) as f32 * 0.25 - 250.0)
        .collect();
    let halves_before: Vec<u16> = quarters.iter().map(|q| exact_half(*q)).collect();
    let halves_after: Vec<u16> = quarters
        .chunks(4)
        .flat_map(|h| [h[3], h[2], h[1], h[0]].map(|x| exact_half(x + 0.25)))
        .collect();
    // (i / 255, 0.25, 1.5, -0.25) in RGBA8 UNORM: i, 63.75 rounded, clamped to 1 and 0.
    let colors_after: Vec<u8> = (0..N).flat_map(|i| [i as u8, 64, 255, 0]).collect();
    let bytes_in = random(46, N);
    let mut counters = vec![0u32, 0, 0, 0, u32::MAX, u32::MAX, 0, 0];
    counters.extend(random(47, 64));
    counters.extend((0..64u32).map(|i| if i % 2 == 0 { i + 100 } else { 7777 + i }));
    let mut counters_after = counters.clone();
    counters_after[0] = (0..N as u32).sum();
    counters_after[1] = u32::MAX;
    counters_after[2] = (0..N as u32).fold(0, |x, i| x ^ i.wrapping_mul(0x0101_0101));
    counters_after[3] = 3 * (N as u32 - 1);
    counters_after[4] = 1000 - (N as u32 - 1);
    counters_after[5] = 0x8000_0000;
    let mut olds = vec![0u32; 128];
    for i in 0..64 {
        olds[i] = counters[8 + i];
        counters_after[8 + i] = 5 * i as u32;
        olds[64 + i] = counters[72 + i];
        if counters[72 + i] == i as u32 + 100 {
            counters_after[72 + i] = i as u32;
        }
    }
    let signed = [5i32, -100, 0];
    let signed_after = [-32i32, 32, -((0..N as i32).sum::<i32>())];
    let mut out = olds;
    for i in 0..N {
        let b = bytes_in[255 - i].to_le_bytes().map(u32::from);
        out.push(b[0] + 2 * b[1] + 4 * b[2] + 8 * b[3]);
    }
    out.extend([N as u32, N as u32, N as u32, N as u32, 136, 3]);
    Case::new("texel_storage", 4)
        .texel(0, 0, Storage, ImageFormat::Rgba32f, fbytes(&vectors))
        .expect(Expect::U32(
            vectors_after.iter().map(|f| f.to_bits()).collect(),
        ))
        .texel(1, 0, Storage, ImageFormat::Rgba16f, halves(&halves_before))
        .expect(Expect::Bytes(halves(&halves_after)))
        .texel(2, 0, Storage, ImageFormat::Rgba8, vec![0x5a; 4 * N])
        .expect(Expect::Bytes(colors_after))
        .texel(3, 0, Storage, ImageFormat::Rgba8ui, bytes(&bytes_in))
        .texel(4, 0, Storage, ImageFormat::R32ui, bytes(&counters))
        .expect(Expect::U32(counters_after))
        .texel(5, 0, Storage, ImageFormat::R32i, ibytes(&signed))
        .expect(Expect::U32(signed_after.map(|v| v as u32).to_vec()))
        .ssbo(6, vec![0; out.len() * 4])
        .expect(Expect::U32(out))
}

fn texel_without_format() -> Case {
    let snorms = random(48, N);
    let sint8: Vec<u8> = random(49, N).iter().map(|r| *r as u8).collect();
    let mut out = Vec::new();
    for s in &snorms {
        out.extend(s.to_le_bytes().map(snorm));
    }
    for b in &sint8 {
        out.extend([*b as i8 as i32 as u32, 0, 0, 1]);
    }
    // Four components stored, the view keeps its two.
    let stored: Vec<u32> = (0..N as u32).map(|i| (i * 3) | (65535 - i) << 16).collect();
    Case::new("texel_without_format", 4)
        .texel(0, 0, Storage, ImageFormat::Rgba8Snorm, bytes(&snorms))
        .texel(1, 0, Storage, ImageFormat::R8i, sint8)
        .texel(2, 0, Storage, ImageFormat::Rg16ui, vec![0; 4 * N])
        .expect(Expect::U32(stored))
        .ssbo(3, vec![0; out.len() * 4])
        .expect(Expect::U32(out))
}

fn texel_arrays() -> Case {
    const WHICH: usize = 5;
    let table = |k: usize, len: usize| -> Vec<u32> {
        (0..len)
            .map(|j| ((k * 37 + j * 11) % 1000) as u32)
            .collect()
    };
    let tables: Vec<Vec<u32>> = (0..18)
        .map(|k| table(k, if k == 16 { 100 } else { N }))
        .collect();
    let mut case = Case::new("texel_arrays", 4).push(bytes(&[WHICH as u32]));
    for (k, t) in tables.iter().enumerate() {
        case = case.texel(0, k as u32, Uniform, ImageFormat::R32ui, bytes(t));
    }
    let sizes: Vec<u32> = (0..N).map(|i| 100 + (i / 64) as u32).collect();
    let sums: Vec<u32> = (0..N)
        .map(|i| {
            let (a, b, c) = (tables[i / 64 % 3][i], tables[17][i], tables[WHICH][i % 16]);
            a + b * 1000 + c * 1_000_000
        })
        .collect();
    case.texel(1, 0, Storage, ImageFormat::R32ui, vec![0; 4 * N])
        .expect(Expect::U32(sizes))
        .texel(1, 1, Storage, ImageFormat::R32ui, vec![0; 4 * N])
        .expect(Expect::U32(sums))
}
