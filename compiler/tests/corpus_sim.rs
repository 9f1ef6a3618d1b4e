//! The compute corpus on the simulated GPU: each shader compiled for a660 and a740, run
//! through the kernel interface's simulator back end with a hand-built dispatch
//! (`common::dispatch`), and each result buffer compared with what the CPU computed
//! (`corpus`, the same expectations the IR interpreter is held to).

mod common;
mod corpus;

fn corpus_on(gpu: &str) {
    let cases = corpus::all();
    let mut failures = Vec::new();
    let (mut checked, mut instructions) = (0, 0);
    for case in &cases {
        let spirv = common::spirv(case.shader);
        let run = corpus::on_simulator::run(gpu, case, &spirv);
        match run.and_then(|r| {
            instructions += r.shader.stats.instructions;
            case.check(&r.results)
        }) {
            Ok(()) => checked += case.expect.len(),
            Err(e) => failures.push(format!("{} on {gpu}: {e}", case.shader)),
        }
    }
    println!(
        "{gpu}: {} shaders ({instructions} instructions) run on the simulator, {} passed, \
         {checked} result buffers matched the CPU",
        cases.len(),
        cases.len() - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} shaders failed on {gpu}:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn corpus_matches_the_cpu_on_a660() {
    corpus_on("a660");
}

#[test]
fn corpus_matches_the_cpu_on_a740() {
    corpus_on("a740");
}
