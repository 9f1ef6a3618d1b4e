//! Every corpus shader compiles to ir3 for a660 and a740: it encodes, decodes back to the
//! same instructions, and its statistics are consistent.

mod common;
mod corpus;

use parsnip_compiler::{compile, CompileOptions};
use parsnip_isa::{decode, IsaGen};

#[test]
fn corpus_compiles_for_a660_and_a740() {
    let mut failures = Vec::new();
    let mut total = 0;
    for case in corpus::all() {
        let words = common::spirv(case.shader);
        for gpu in ["a660", "a740"] {
            let opts = CompileOptions {
                gpu: gpu.into(),
                entry: "main".into(),
                spec_constants: case.spec_constants.clone(),
                layout: case.layout(),
                required_subgroup_size: None,
            };
            let t0 = std::time::Instant::now();
            match compile(&words, &opts) {
                Ok(c) => {
                    total += 1;
                    // The words decode to the instructions the disassembly shows.
                    let isa = if gpu == "a740" {
                        IsaGen::A7xx
                    } else {
                        IsaGen::A6xx
                    };
                    let mut text = String::new();
                    for pair in c.code.chunks_exact(2) {
                        let w = pair[0] as u64 | (pair[1] as u64) << 32;
                        match decode(w, isa) {
                            Ok(i) => text.push_str(&format!("{i}\n")),
                            Err(e) => failures.push(format!(
                                "{} ({gpu}): word {w:#018x} does not decode: {e}",
                                case.shader
                            )),
                        }
                    }
                    if text != c.disassembly {
                        failures.push(format!(
                            "{} ({gpu}): decoded words differ from the disassembly",
                            case.shader
                        ));
                    }
                    assert_eq!(c.instr_count as usize * 2, c.code.len());
                    assert_eq!(
                        c.instr_count % 16,
                        0,
                        "programs are padded to 16 instructions"
                    );
                    if case.shader == "register_pressure" && c.stats.spills == 0 {
                        failures.push(format!("register_pressure ({gpu}): nothing was spilled"));
                    }
                    if gpu == "a660" {
                        let s = &c.stats;
                        println!(
                            "{:20} {:5} instrs {:4} nops {:3} ss {:3} sy {:2} regs {:2} spills {:2} waves ({} ms)",
                            case.shader,
                            s.instructions,
                            s.nops,
                            s.ss,
                            s.sy,
                            s.full_regs,
                            s.spills,
                            s.max_waves,
                            t0.elapsed().as_millis()
                        );
                    }
                    if std::env::var("PARSNIP_PRINT").is_ok_and(|v| v == case.shader) {
                        println!(
                            "== {} {gpu}\n{}{}",
                            case.shader,
                            c.disassembly,
                            c.stats.lines()
                        );
                    }
                }
                Err(e) => failures.push(format!("{} ({gpu}): {e}", case.shader)),
            }
        }
    }
    println!("{total} compiled");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A branch on a compare whose result nothing else reads takes the compare's p0.x
/// directly, without a second compare against zero.
#[test]
fn branch_conditions_compare_into_p0() {
    let case = corpus::all()
        .into_iter()
        .find(|c| c.shader == "loops")
        .unwrap();
    let words = common::spirv(case.shader);
    let opts = CompileOptions {
        gpu: "a660".into(),
        entry: "main".into(),
        spec_constants: case.spec_constants.clone(),
        layout: case.layout(),
        required_subgroup_size: None,
    };
    let text = compile(&words, &opts).unwrap().disassembly;
    assert!(
        text.lines()
            .any(|l| l.starts_with("cmps.") && l.contains(" p0.x,") && !l.ends_with(", 0")),
        "{text}"
    );
}
