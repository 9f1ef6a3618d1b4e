//! Finding where a misrendering trace goes wrong, against a trace that
//! renders right: the library behind `parsnip-bisect`.
//!
//! Both traces are in `parsnip-decompile`'s text form (an `.rd` is
//! decompiled first), of the same capture: the good one is typically the
//! bad one with a fix tried by hand. The region compared is a range of GPU
//! memory (a render target or a result buffer) after a replay on the
//! model.
//!
//! 1. The first draw or dispatch after which the region differs: the
//!    trace is replayed with every draw and dispatch after the `k`-th made
//!    a CP_NOP of the same length (so nothing else moves), for `k` from 1.
//!    Draws are counted in the text's order, which is the order they run
//!    in a direct-render (sysmem) stream; a GMEM stream runs each draw once
//!    per bin.
//! 2. The smallest set of register writes: the `pkt4` lines whose value
//!    differs between the texts, of which a 1-minimal subset is found that,
//!    applied to the bad text, makes its region equal the good one's
//!    (each write is dropped from the set in turn and stays out when the
//!    region still matches without it).

pub mod image;

use parsnip_rd::Trace;
use parsnip_sim::SimOptions;

use crate::decompile::{assemble, decompile};
use crate::replay::Replay;

/// The opcodes whose packets draw or dispatch.
fn is_work(name: &str) -> bool {
    name.starts_with("CP_DRAW") || name.starts_with("CP_EXEC_CS")
}

/// Reads a trace as text: decompiled if it is an `.rd`, as it is if text.
pub fn text_of(path: &str) -> Result<String, String> {
    if path.ends_with(".rd") || path.ends_with(".rd.gz") {
        let trace = Trace::open(path).map_err(|e| format!("{path}: {e}"))?;
        Ok(decompile(&trace))
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
    }
}

/// The bytes of `size` at `iova` after replaying `text` whole.
pub fn region_after(text: &str, iova: u64, size: u64) -> Result<Vec<u8>, String> {
    let bytes = assemble(text).map_err(|e| e.to_string())?;
    let trace = Trace::read(&bytes[..]).map_err(|e| format!("the assembled trace: {e}"))?;
    let options = SimOptions::from_env().map_err(|e| e.to_string())?;
    let mut replay = Replay::new(trace, options).map_err(|e| e.to_string())?;
    replay.run_all().map_err(|e| e.to_string())?;
    replay.read(iova, size)
}

/// The line indexes of the text's draw and dispatch packets.
pub fn work_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.strip_prefix("  pkt7 ")
                .is_some_and(|rest| is_work(rest.split_whitespace().next().unwrap_or("")))
        })
        .map(|(i, _)| i)
        .collect()
}

/// `text` with the draws and dispatches after the first `keep` made NOPs.
pub fn with_work_up_to(text: &str, keep: usize) -> String {
    let disabled: Vec<usize> = work_lines(text).into_iter().skip(keep).collect();
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if disabled.binary_search(&i).is_ok() {
                "  pkt7 CP_NOP".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// One register write the texts disagree on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterEdit {
    /// 0-based line index in both texts.
    pub line: usize,
    pub register: String,
    pub bad: String,
    pub good: String,
}

/// The register writes (lines inside `pkt4` bodies) the texts disagree
/// on; an error if they differ anywhere else, as a bisection by register
/// writes cannot explain that.
pub fn register_edits(bad: &str, good: &str) -> Result<Vec<RegisterEdit>, String> {
    let (b, g): (Vec<&str>, Vec<&str>) = (bad.lines().collect(), good.lines().collect());
    if b.len() != g.len() {
        return Err("the texts have different lines: only register values may differ".into());
    }
    let mut in_pkt4 = false;
    let mut edits = Vec::new();
    for (i, (lb, lg)) in b.iter().zip(&g).enumerate() {
        if lb.starts_with("  ") && !lb.starts_with("    ") {
            in_pkt4 = lb.trim() == "pkt4";
        }
        if lb == lg {
            continue;
        }
        let (wb, wg): (Vec<&str>, Vec<&str>) = (
            lb.split_whitespace().collect(),
            lg.split_whitespace().collect(),
        );
        match (in_pkt4, wb.as_slice(), wg.as_slice()) {
            (true, [rb, vb], [rg, vg]) if rb == rg => edits.push(RegisterEdit {
                line: i,
                register: rb.to_string(),
                bad: vb.to_string(),
                good: vg.to_string(),
            }),
            _ => {
                return Err(format!(
                    "line {}: `{}` and `{}` differ other than in a register value",
                    i + 1,
                    lb.trim(),
                    lg.trim()
                ))
            }
        }
    }
    Ok(edits)
}

/// `bad` with `edits` applied (their good values).
pub fn apply(bad: &str, edits: &[RegisterEdit]) -> String {
    let mut lines: Vec<String> = bad.lines().map(str::to_string).collect();
    for e in edits {
        lines[e.line] = format!("    {} {}", e.register, e.good);
    }
    lines.join("\n") + "\n"
}

/// What a bisection found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The first draw or dispatch (from 1) after which the region differs,
    /// with its packet's line (from 1); `None` if it never does.
    pub first_bad_work: Option<(usize, usize)>,
    /// A 1-minimal set of register writes making the region right.
    pub edits: Vec<RegisterEdit>,
}

/// Bisects `bad` against `good` on the region `iova`, `size`, reporting
/// each replay through `progress`.
pub fn bisect(
    bad: &str,
    good: &str,
    iova: u64,
    size: u64,
    mut progress: impl FnMut(&str),
) -> Result<Finding, String> {
    let works = work_lines(bad);
    if works.len() != work_lines(good).len() {
        return Err("the texts have different numbers of draws and dispatches".into());
    }
    let mut first_bad_work = None;
    for k in 1..=works.len() {
        let b = region_after(&with_work_up_to(bad, k), iova, size)?;
        let g = region_after(&with_work_up_to(good, k), iova, size)?;
        let same = b == g;
        progress(&format!(
            "after draw/dispatch {k} of {}: {}",
            works.len(),
            if same { "same" } else { "differs" }
        ));
        if !same {
            first_bad_work = Some((k, works[k - 1] + 1));
            break;
        }
    }
    let want = region_after(good, iova, size)?;
    let mut edits = register_edits(bad, good)?;
    progress(&format!("{} register writes differ", edits.len()));
    if region_after(&apply(bad, &edits), iova, size)? != want {
        return Err("the good text's register values do not make the bad one right".into());
    }
    let mut i = 0;
    while i < edits.len() {
        let mut without = edits.clone();
        let dropped = without.remove(i);
        if region_after(&apply(bad, &without), iova, size)? == want {
            progress(&format!(
                "not needed: line {}: {}",
                dropped.line + 1,
                dropped.register
            ));
            edits = without;
        } else {
            i += 1;
        }
    }
    Ok(Finding {
        first_bad_work,
        edits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "parsnip-decompile 1\nchip a6xx\nrecord 0x9 padding 0\n  pkt4\n    \
                        SP_CS_INSTRLEN 0x00000001\n  pkt7 CP_EXEC_CS\n    0x0 0x1 0x1 0x1\n  \
                        pkt7 CP_EXEC_CS\n    0x0 0x1 0x1 0x1\n";

    #[test]
    fn later_work_becomes_nops_of_the_same_length() {
        assert_eq!(work_lines(TEXT), vec![5, 7]);
        let one = with_work_up_to(TEXT, 1);
        assert_eq!(work_lines(&one), vec![5]);
        assert_eq!(assemble(&one).unwrap().len(), assemble(TEXT).unwrap().len());
    }

    #[test]
    fn only_register_values_may_differ() {
        let edited = TEXT.replace("SP_CS_INSTRLEN 0x00000001", "SP_CS_INSTRLEN 0x00000002");
        let edits = register_edits(&edited, TEXT).unwrap();
        assert_eq!(
            edits,
            vec![RegisterEdit {
                line: 4,
                register: "SP_CS_INSTRLEN".into(),
                bad: "0x00000002".into(),
                good: "0x00000001".into(),
            }]
        );
        assert_eq!(apply(&edited, &edits), TEXT);
        let payload = TEXT.replacen("0x0 0x1 0x1 0x1", "0x0 0x2 0x1 0x1", 1);
        assert!(register_edits(&payload, TEXT).is_err());
    }
}
