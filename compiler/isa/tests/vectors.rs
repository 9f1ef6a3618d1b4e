//! freedreno's disassembler test vectors (`ir3-disasm-vectors*.tsv`, taken
//! from Mesa's `src/freedreno/ir3/tests/disasm.c`): every row must
//! disassemble to its text and assemble back to its encoding.

use parsnip_isa::{assemble, disassemble, IsaGen};

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The mnemonic of a line, without its leading `(flag)`s.
fn mnemonic(text: &str) -> &str {
    let mut t = text.trim_start();
    while t.starts_with('(') {
        match t.find(')') {
            Some(i) => t = t[i + 1..].trim_start(),
            None => break,
        }
    }
    t.split_whitespace().next().unwrap_or("")
}

/// Rows of the a4xx/a5xx GPU ids (420, 540) whose encodings exist only before
/// a6xx (`<gen max="599">` in the XML): the a3xx-style image/SSBO
/// instructions. Rows of those ids whose form a6xx shares are checked with the
/// a6xx tables.
fn is_pre_a6xx_form(text: &str) -> bool {
    let m = mnemonic(text);
    m.starts_with("ldgb.")
        || m.starts_with("stgb.")
        || m.starts_with("atomic.s.")
        || (m.starts_with("ldib.") && !m.starts_with("ldib.b."))
        || (m.starts_with("stib.") && !m.starts_with("stib.b."))
}

#[test]
fn disassembler_vectors_round_trip() {
    let Some(dir) = parsnip_reference::reference_dir("disassembler_vectors_round_trip") else {
        return;
    };
    let (mut checked, mut failed, mut skipped) = (0, 0, 0);
    for file in ["ir3-disasm-vectors.tsv", "ir3-disasm-vectors-generated.tsv"] {
        let tsv = std::fs::read_to_string(dir.join(file)).expect("vectors readable");
        for row in tsv.lines().skip(1) {
            let cols: Vec<&str> = row.split('\t').collect();
            let (gpu_id, hex, expected, flags) = (cols[0], cols[1], cols[2], cols[3]);
            let generation = match IsaGen::from_gpu_id(gpu_id) {
                Some(g) => g,
                None if is_pre_a6xx_form(expected) => {
                    skipped += 1;
                    continue;
                }
                None => IsaGen::A6xx,
            };
            checked += 1;
            let word = u64::from_str_radix(hex, 16).expect("hex encoding");
            let text = disassemble(&[word], generation);
            let mut ok = true;
            if normalise(&text) != normalise(expected) {
                eprintln!(
                    "{gpu_id} {hex}: disassembles to `{}`, expected `{expected}`",
                    text.trim()
                );
                ok = false;
            }
            if !flags.contains("parse_fail") {
                match assemble(expected, generation) {
                    Ok(words) if words == [word] => {}
                    Ok(words) => {
                        eprintln!(
                            "{gpu_id} `{expected}`: assembles to {words:016x?}, expected {hex}"
                        );
                        ok = false;
                    }
                    Err(e) => {
                        eprintln!("{gpu_id} `{expected}`: {e}");
                        ok = false;
                    }
                }
            }
            if !ok {
                failed += 1;
            }
        }
    }
    println!("ir3 vectors: {checked} checked, {failed} failed ({skipped} rows of pre-a6xx-only forms skipped)");
    assert!(checked > 300, "too few vectors checked");
    assert_eq!(failed, 0);
}
