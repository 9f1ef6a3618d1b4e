//! Turnip's compute shader for `turnip/apps/double.comp` (`data[i] = 2 * i`
//! over 4 work groups of 64), taken from the ir3 listing Turnip reported
//! for a660 and a740, run on the dispatch state its trace programs, must
//! leave what lavapipe computed (`expected/compute_lvp.txt`). The a740
//! program is the one with the early preamble (`shps`, `getone`, a
//! descriptor prefetch with `resinfo.b`, `shpe`) and `lock`/`unlock`.

mod shader_rig;

use parsnip_isa::IsaGen;
use parsnip_registers::descriptors::a6xx::TextureDescriptor;
use parsnip_registers::enums::{A6xxFormat, A6xxTexType};
use shader_rig::*;

/// The assembly of a `compute.pipeline-executable.txt`: the lines between
/// "Native code" and the "; CL" statistics, without the `@in` directives.
fn listing(text: &str) -> String {
    let start = text.find("Native code").expect("a native code section");
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("; CL"))
        .filter(|l| !l.starts_with('@'))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn run(gpu: &str, generation: IsaGen) {
    let test = format!("turnip_{gpu}_compute_shader_doubles_the_index");
    let Some(listing_path) = parsnip_reference::reference_file(
        &test,
        &format!("turnip/{gpu}/compute.pipeline-executable.txt"),
    ) else {
        return;
    };
    let Some(expected_path) =
        parsnip_reference::reference_file(&test, "turnip/expected/compute_lvp.txt")
    else {
        return;
    };
    let source = listing(&std::fs::read_to_string(listing_path).unwrap());
    let expected: Vec<u32> = std::fs::read_to_string(expected_path)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(expected.len(), 256);

    let mut rig = Rig::new(generation);
    let program = rig.program(&source);
    let data = rig.poisoned(256);
    // The storage descriptor Turnip wrote (turnip/README.md and the trace):
    // 1024 bytes as 512 16-bit texels, bindless set 0, slot 0.
    let desc = TextureDescriptor {
        fmt: A6xxFormat::FMT6_16_UINT,
        width: 512,
        structsizetexels: 1,
        r#type: A6xxTexType::A6XX_TEX_BUFFER,
        base_lo: data as u32,
        base_hi: (data >> 32) as u32,
        ..Default::default()
    }
    .to_raw();
    let set = rig.words(&desc);

    // The dispatch as compute.log programs it: THREAD64, FULLREGFOOTPRINT 1,
    // MERGEDREGS, WGIDCONSTID r48.x, LOCALIDREGID r0.x, local size 64,
    // CP_EXEC_CS of 4 groups, and the two vec4s of driver params
    // CP_LOAD_STATE6 loads (c1.x, the base work group, is 0).
    let mut d = rig.dispatch(program);
    d.full_regs = 1;
    d.work_group_id = reg(48, 0);
    d.local_id = reg(0, 0);
    d.local_size = [64, 1, 1];
    d.group_count = [4, 1, 1];
    d.consts = vec![4, 1, 1, 0, 0, 0, 0, 64];
    d.shared_size = 2048;
    d.bindless = vec![bindless_set(set)];
    let stats = rig.run_ok(&d);

    assert_eq!(rig.read(data, 256), expected, "{gpu}");
    assert_eq!(stats.work_groups, 4);
    println!(
        "{gpu}: {} wave instructions, {} program instructions decoded",
        stats.instructions, stats.program_instructions
    );
}

#[test]
fn turnip_a660_compute_shader_doubles_the_index() {
    run("a660", IsaGen::A6xx);
}

#[test]
fn turnip_a740_compute_shader_doubles_the_index() {
    run("a740", IsaGen::A7xx);
}
