//! The parsnip-compile command on a real shader.

mod common;

#[test]
fn stats_print_one_name_value_line_per_statistic() {
    let words = common::spirv("double");
    let path = std::env::temp_dir().join(format!("parsnip-cli-{}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let args: Vec<String> = [
        path.to_str().unwrap(),
        "--gpu",
        "a740",
        "--stats",
        "--disasm",
        "--binding",
        "0:0:ssbo",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = parsnip_compiler::cli::run(&args).unwrap();
    let _ = std::fs::remove_file(&path);
    let stats: Vec<(&str, u32)> = out
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter_map(|(k, v)| v.parse().ok().map(|v| (k, v)))
        .collect();
    let names: Vec<&str> = stats.iter().map(|s| s.0).collect();
    assert_eq!(
        names,
        [
            "instructions",
            "nops",
            "ss",
            "sy",
            "full_regs",
            "half_regs",
            "spills",
            "max_waves"
        ]
    );
    assert!(out.contains("stib.b.untyped.1d.u32.1.imm.base0"), "{out}");
    assert!(out.contains("\nend\n"), "{out}");
    // Turnip compiles the same source (turnip/apps/double.comp) for a740: ours must need
    // no more registers and reach as many waves.
    let test = "stats_print_one_name_value_line_per_statistic";
    let Some(report) =
        parsnip_reference::reference_file(test, "turnip/a740/compute.pipeline-executable.txt")
    else {
        return;
    };
    let text = std::fs::read_to_string(report).unwrap();
    let turnip = |name: &str| -> u32 {
        text.lines()
            .find_map(|l| {
                let (k, v) = l.strip_prefix("stat ")?.split_once('=')?;
                (k.trim() == name).then(|| v.trim().parse().ok())?
            })
            .unwrap()
    };
    let ours = |name: &str| stats.iter().find(|s| s.0 == name).unwrap().1;
    assert!(ours("full_regs") <= turnip("Registers used"), "{out}");
    assert_eq!(ours("max_waves"), turnip("Max Waves Per Core"), "{out}");
}
