//! What shaders/subgroup_size_control.comp writes with subgroups of a given
//! size: the expectation both the cts case and the compiler's test (which
//! includes this file) check against.

/// Invocations per work group, and words each writes.
pub const GROUP: usize = 256;
pub const WORDS: usize = 8;

/// What every invocation of the dispatch writes, with subgroups of `size` cut
/// from the local index, for the inputs `v` (one per invocation).
pub fn expected(v: &[u32], size: usize) -> Vec<u32> {
    let mut o = Vec::with_capacity(v.len() * WORDS);
    for i in 0..v.len() {
        let (start, lane) = (i / size * size, i % size);
        let sg = &v[start..start + size];
        let mut ballot = [0u32; 4];
        for (l, x) in sg.iter().enumerate() {
            if x & 1 != 0 {
                ballot[l / 32] |= 1 << (l % 32);
            }
        }
        o.extend_from_slice(&[
            size as u32,
            lane as u32,
            ((i % GROUP) / size) as u32,
            (GROUP / size) as u32,
            sg.iter().fold(0u32, |a, x| a.wrapping_add(*x)),
            sg[..lane].iter().copied().max().unwrap_or(0),
            ballot.iter().map(|w| w.count_ones()).sum(),
            ballot[0] ^ ballot[1] ^ ballot[2] ^ ballot[3],
        ]);
    }
    o
}
