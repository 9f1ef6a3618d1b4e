//! Reading decoder text (ours or freedreno's) in tests: register writes with
//! their dumped values, and the lines that decode values into fields.

#![allow(dead_code)]

use parsnip_registers::pm4::Pm4Header;

/// A hex dump row: `<16-digit address>:<tabs><byte offset>: <dwords>`.
pub fn dump_row(line: &str) -> Option<(usize, Vec<u32>)> {
    let (addr, rest) = line.split_once(':')?;
    if addr.len() != 16 || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let (offset, words) = rest.trim_start_matches('\t').split_once(':')?;
    let offset = usize::from_str_radix(offset, 16).ok()?;
    let words = words
        .split_whitespace()
        .map(|w| u32::from_str_radix(w, 16))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    Some((offset / 4, words))
}

/// The dwords of the dump that starts at `lines[start]`, with the all-zero
/// rows the dump shows as `*` filled in up to `len` dwords.
fn dump_at(lines: &[&str], start: usize, len: usize) -> Vec<u32> {
    let mut out = Vec::new();
    for line in &lines[start..] {
        if *line == "*" {
            continue;
        }
        match dump_row(line) {
            Some((offset, words)) if offset >= out.len() && (offset == 0) == out.is_empty() => {
                out.resize(offset, 0);
                out.extend(words);
            }
            _ => break,
        }
    }
    out.resize(out.len().max(len), 0);
    out
}

/// One type 4 packet as the text shows it: `write NAME (offset)` and the
/// values of its dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterWrite {
    pub name: String,
    pub offset: u32,
    pub values: Vec<u32>,
}

/// Every `write NAME (offset)` of a decoder text, in order, with the values
/// its packet's dump holds (the dump is the first row after the line that
/// holds a type 4 header for that offset; shader listings may come between).
pub fn register_writes(text: &str) -> Vec<RegisterWrite> {
    let lines: Vec<&str> = text.lines().collect();
    let mut writes = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim_start_matches('\t').strip_prefix("write ") else {
            continue;
        };
        let Some((name, offset)) = rest.rsplit_once(" (") else {
            continue;
        };
        let Ok(offset) = u32::from_str_radix(offset.trim_end_matches(')'), 16) else {
            continue;
        };
        let dump = (i + 1..lines.len()).find_map(|j| {
            let (row, words) = dump_row(lines[j])?;
            match Pm4Header::parse(*words.first()?) {
                Ok(Pm4Header::Type4 { offset: o, count }) if row == 0 && o == offset => {
                    Some((j, count))
                }
                _ => None,
            }
        });
        let values = match dump {
            Some((j, count)) => dump_at(&lines, j, count as usize + 1)[1..=count as usize].to_vec(),
            None => Vec::new(),
        };
        writes.push(RegisterWrite {
            name: name.to_string(),
            offset,
            values,
        });
    }
    writes
}

/// Whether a line (tabs removed) decodes a value into fields: a register
/// line `NAME: ...` (also in a draw's summary, after its `!+\tvalue`
/// prefix) or a payload line `{ ... }`.
pub fn is_bitfield_line(line: &str) -> bool {
    let text = line.trim_start_matches('\t');
    if text.starts_with("{ ") {
        return true;
    }
    let text = match text.as_bytes() {
        [b'!' | b' ', b'+' | b' ', b'\t', ..] => text[3..]
            .split_once('\t')
            .map_or("", |(_, r)| r.trim_start_matches('\t')),
        _ => text,
    };
    let Some((name, _)) = text.split_once(": ") else {
        return false;
    };
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_[].+".contains(&b))
}

/// The length of the longest common subsequence of `a` and `b` (Myers'
/// greedy algorithm: fast when the two are nearly equal).
pub fn common_lines<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    let offset = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    for d in 0..=max as isize {
        let mut k = -d;
        while k <= d {
            let i = (k + offset) as usize;
            let mut x = if k == -d || (k != d && v[i - 1] < v[i + 1]) {
                v[i + 1]
            } else {
                v[i - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[i] = x;
            if x >= n && y >= m {
                // d edits: the common part is what is left.
                return ((n + m - d) / 2) as usize;
            }
            k += 2;
        }
    }
    0
}

/// The first lines where `ours` and `theirs` differ, for a failure message.
pub fn first_differences(ours: &[&str], theirs: &[&str], count: usize) -> Vec<String> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while out.len() < count && (i < ours.len() || j < theirs.len()) {
        match (ours.get(i), theirs.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (a, b) => {
                out.push(format!(
                    "  line {}: ours:   {}\n  line {}: theirs: {}",
                    i + 1,
                    a.unwrap_or(&"<end>"),
                    j + 1,
                    b.unwrap_or(&"<end>")
                ));
                // Resynchronise on the next line of ours found soon in theirs.
                match (j..theirs.len().min(j + 50)).find(|&k| Some(&theirs[k]) == ours.get(i + 1)) {
                    Some(k) => {
                        i += 1;
                        j = k;
                    }
                    None => {
                        i += 1;
                        j += 1;
                    }
                }
            }
        }
    }
    out
}

#[test]
fn common_lines_counts_the_longest_common_subsequence() {
    assert_eq!(common_lines(&["a", "b", "c"], &["a", "b", "c"]), 3);
    assert_eq!(
        common_lines(&["a", "x", "c", "d"], &["a", "c", "y", "d"]),
        3
    );
    assert_eq!(common_lines::<&str>(&[], &["a"]), 0);
    assert_eq!(common_lines(&["a", "b"], &["b", "a"]), 1);
}

#[test]
fn bitfield_lines_are_register_and_payload_lines() {
    assert!(is_bitfield_line("\t\t\tRB_BIN_CONTROL: { BINW = 256 }"));
    assert!(is_bitfield_line("\t\t\t{ EVENT = BLIT }"));
    assert!(is_bitfield_line(
        "!+\t010fd000\t\tVSC_DRAW_STRM_SIZE_ADDRESS: 0x10fd000"
    ));
    assert!(is_bitfield_line(" +\t00000000\t\t\tCP_SCRATCH[0x5].REG: 1"));
    assert!(!is_bitfield_line("\t\topcode: CP_BLIT (2c) (2 dwords)"));
    assert!(!is_bitfield_line("\t\tmode: RM6_BIN_RENDER_START"));
    assert!(!is_bitfield_line(
        "0000000001d91000:\t\t0000: 70460001 00000031"
    ));
    assert!(!is_bitfield_line("\t\t\tgroup_id: 0"));
}
