//! What shaders/integer_dot.spvasm writes, computed exactly in 128 bits: the
//! expectation both the cts case and the compiler's test (which includes this file)
//! check against. Each invocation reads four words a, b, c, d and writes 15.

/// Words each invocation writes.
pub const WORDS: usize = 15;

/// The four words of each of `n` invocations from `random` (4n words): small
/// magnitudes, the extremes, random words, and words whose saturating forms are
/// defined and saturate (a 1 times an accumulator near a bound, twice; 2 * (2^63 - 16)
/// + (2^63 - 16) in 64 unsigned bits).
pub fn inputs(random: &[u32]) -> Vec<u32> {
    (0..random.len())
        .map(|k| match (k / 4) % 6 {
            0 => (random[k] % 2001).wrapping_sub(1000),
            1 => [0x8000_0000, 0x7fff_ffff, 0xffff_ffff, 0x8080_8080][k % 4],
            2 => random[k],
            3 => [1, 0, 0x7fff_fff0, 0x8000_0010][k % 4],
            4 => [1, 0, 0x8000_0010, 0x7fff_fff0][k % 4],
            _ => [0, 1, 0x7fff_ffff, 0xffff_fff0][k % 4],
        })
        .collect()
}

fn bytes(x: u32, signed: bool) -> [i128; 4] {
    [0, 8, 16, 24].map(|s| {
        let b = (x >> s) as u8;
        if signed {
            i128::from(b as i8)
        } else {
            i128::from(b)
        }
    })
}

fn dot(a: &[i128], b: &[i128]) -> i128 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The dot product when the saturating forms define it: SPIR-V leaves the result
/// undefined when a product or a partial sum (all but the final accumulation) leaves
/// the result type's range `lo..=hi`.
fn defined_dot(a: &[i128], b: &[i128], (lo, hi): (i128, i128)) -> Option<i128> {
    let mut sum = 0;
    for (x, y) in a.iter().zip(b) {
        let p = x.checked_mul(*y).filter(|p| (lo..=hi).contains(p))?;
        sum += p;
        if !(lo..=hi).contains(&sum) {
            return None;
        }
    }
    Some(sum)
}

const I32: (i128, i128) = (i32::MIN as i128, i32::MAX as i128);
const U32: (i128, i128) = (0, u32::MAX as i128);
const I64: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);
const U64: (i128, i128) = (0, u64::MAX as i128);

/// `acc + dot` clamped to `range`, as the result's low 32 bits (`None` undefined).
fn sat(dot: Option<i128>, acc: i128, (lo, hi): (i128, i128)) -> Option<u64> {
    dot.map(|d| (d + acc).clamp(lo, hi) as u64)
}

/// A 64-bit result as its two words, low first.
fn words(v: Option<u64>) -> [Option<u32>; 2] {
    [v.map(|v| v as u32), v.map(|v| (v >> 32) as u32)]
}

/// Each output word, `None` where the result is undefined.
pub fn expected(v: &[u32]) -> Vec<Option<u32>> {
    let mut o = Vec::new();
    for w in v.chunks(4) {
        let (a, b, c, d) = (w[0], w[1], w[2], w[3]);
        let s = |x: u32| i128::from(x as i32);
        let u = i128::from;
        let low = |v: Option<u64>| v.map(|v| v as u32);
        o.extend([
            Some(dot(&bytes(a, false), &bytes(b, false)) as u32),
            Some(dot(&bytes(a, true), &bytes(b, true)) as u32),
            Some(dot(&bytes(a, true), &bytes(b, false)) as u32),
            low(sat(
                Some(dot(&bytes(a, false), &bytes(b, false))),
                u(c),
                U32,
            )),
            low(sat(Some(dot(&bytes(a, true), &bytes(b, true))), s(c), I32)),
            Some(dot(&[s(a), s(b), s(c)], &[s(d), s(c), -s(a)]) as u32),
            low(sat(
                defined_dot(&[s(a), s(b)], &[s(c), s(d)], I32),
                s(c),
                I32,
            )),
            low(sat(
                defined_dot(&[u(a), u(b), u(c), u(d)], &[u(d), u(c), u(b), u(a)], U32),
                u(d),
                U32,
            )),
            low(sat(
                defined_dot(&[s(a), s(b)], &[u(c), u(d)], I32),
                s(d),
                I32,
            )),
        ]);
        // 64-bit lanes.
        let ab = u64::from(a) << 32 | u64::from(b);
        let cd = u64::from(c) << 32 | u64::from(d);
        let (sab, scd) = (i128::from(ab as i64), i128::from(cd as i64));
        let (uab, ucd) = (i128::from(ab), i128::from(cd));
        o.extend(words(sat(
            defined_dot(&[sab, scd], &[scd, sab], I64),
            sab,
            I64,
        )));
        o.extend(words(sat(
            defined_dot(&[uab, ucd], &[ucd, uab], U64),
            ucd,
            U64,
        )));
        o.extend(words(Some(
            sab.wrapping_mul(ucd).wrapping_add(scd.wrapping_mul(uab)) as u64,
        )));
    }
    o
}
