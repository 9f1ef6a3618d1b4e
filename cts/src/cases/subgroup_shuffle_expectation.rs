//! What shaders/subgroup_shuffle.comp writes with subgroups of a given size:
//! the expectation both the cts case and the compiler's test (which includes
//! this file) check against.

/// Words each invocation writes.
pub const WORDS: usize = 6;

/// What every invocation writes, with subgroups of `size` cut from the
/// linear index, for the inputs `v` (one per invocation).
pub fn expected(v: &[u32], size: usize) -> Vec<u32> {
    let mut o = Vec::with_capacity(v.len() * WORDS);
    for i in 0..v.len() {
        let (start, id) = (i / size * size, i % size);
        let sg = &v[start..start + size];
        let odd_first = sg.iter().position(|x| x & 1 != 0).unwrap_or(0);
        o.extend_from_slice(&[
            sg[(id * 7 + 3) % size],
            sg[id ^ 3],
            if id >= 3 { sg[id - 3] } else { 0 },
            if id + 2 < size { sg[id + 2] } else { 0 },
            sg[size - 1 - id],
            if sg[id] & 1 != 0 { sg[odd_first] } else { 0 },
        ]);
    }
    o
}
