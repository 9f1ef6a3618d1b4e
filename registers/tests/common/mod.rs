//! Reading freedreno decoder logs (`cffdump` output) in tests.

#![allow(dead_code)]

/// A hex dump row: `<gpu address>:<tabs><byte offset>: <dwords>`.
pub fn dump_row(line: &str) -> Option<(usize, Vec<u32>)> {
    let (addr, rest) = line.split_once(':')?;
    if addr.len() != 16 || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let (off, words) = rest.trim_start().split_once(':')?;
    let off = usize::from_str_radix(off, 16).ok()?;
    let words = words
        .split_whitespace()
        .map(|w| u32::from_str_radix(w, 16))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    Some((off / 4, words))
}

/// The packet whose dump starts at `lines[start]`: its dwords, with the
/// all-zero rows the dump elides (`*`) filled in.
pub fn dump_at(lines: &[&str], start: usize) -> Vec<u32> {
    let mut out = Vec::new();
    for line in &lines[start..] {
        if line.trim() == "*" {
            continue;
        }
        match dump_row(line) {
            Some((off, words)) if off >= out.len() && (off == 0) == out.is_empty() => {
                out.resize(off, 0);
                out.extend(words);
            }
            _ => break,
        }
    }
    out
}

/// The first packet dump at or after `from` whose header satisfies `is_it`.
pub fn find_dump(lines: &[&str], from: usize, is_it: impl Fn(u32) -> bool) -> Option<usize> {
    (from..lines.len())
        .find(|&j| dump_row(lines[j]).is_some_and(|(o, w)| o == 0 && !w.is_empty() && is_it(w[0])))
}
