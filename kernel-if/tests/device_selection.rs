//! Which back end a process gets, on this machine (which has no Adreno).

use std::collections::HashMap;
use std::path::Path;

use parsnip_kernel_if::msm::{discover, DRI_DIR};
use parsnip_kernel_if::select::{NULL_VAR, SIM_VAR};
use parsnip_kernel_if::{open_from_env, Backend};

fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name| map.get(name).cloned()
}

#[test]
fn discovery_finds_no_msm_node_here_and_says_what_it_saw() {
    let found = discover();
    // CI and development machines have no Adreno; a machine that has one
    // would make this test meaningless, so say so instead of passing.
    assert!(
        found.msm.is_empty(),
        "this machine has an msm node ({:?}): run the msm back end's own tests",
        found.msm
    );
    println!("{}", found.summary(Path::new(DRI_DIR)));
}

#[test]
fn without_an_adreno_opening_fails_and_points_at_the_simulator() {
    let err = open_from_env(env(&[]), Path::new(DRI_DIR))
        .err()
        .expect("no msm device on this machine");
    let text = err.to_string();
    assert!(text.contains("no Adreno GPU found"), "{text}");
    assert!(text.contains(&format!("{SIM_VAR}=a660")), "{text}");

    // The same for a directory with no render nodes at all.
    let empty = std::env::temp_dir().join(format!("parsnip-empty-dri-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let err = open_from_env(env(&[]), &empty).err().unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
    assert!(err.to_string().contains("has no render node"), "{err}");
}

#[test]
fn the_null_back_end_is_chosen_only_when_asked() {
    let facts = "gpu_id=660,chip_id=0x06060001,gmem_size=0x180000,gmem_base=0x100000";
    let dev = open_from_env(env(&[(NULL_VAR, facts)]), Path::new(DRI_DIR)).unwrap();
    assert_eq!(dev.info().backend, Backend::Null);
    assert_eq!(dev.info().gpu.chip_id, 0x0606_0001);

    let both = open_from_env(
        env(&[(NULL_VAR, facts), (SIM_VAR, "a660")]),
        Path::new(DRI_DIR),
    );
    assert!(both.err().unwrap().to_string().contains("choose one"));
}

#[test]
fn asking_for_the_simulator_never_falls_back_to_another_back_end() {
    let dev = open_from_env(env(&[(SIM_VAR, "a660")]), Path::new(DRI_DIR)).unwrap();
    assert_eq!(dev.info().backend, Backend::Simulator);
    let err = open_from_env(env(&[(SIM_VAR, "a661")]), Path::new(DRI_DIR))
        .err()
        .expect("an unknown GPU opens nothing");
    assert!(err.to_string().contains("PARSNIP_SIM=a661"), "{err}");
}
