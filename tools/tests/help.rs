//! `--help` and `-h` print each tool's usage on standard output and exit
//! with success, instead of being taken for a trace, a file or an address.

use std::process::Command;

fn help(bin: &str, flag: &str) -> (bool, String) {
    let out = Command::new(bin).arg(flag).output().expect("run the tool");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn help_prints_the_usage_and_succeeds() {
    for (name, bin) in [
        ("parsnip-decompile", env!("CARGO_BIN_EXE_parsnip-decompile")),
        (
            "parsnip-breadcrumbs",
            env!("CARGO_BIN_EXE_parsnip-breadcrumbs"),
        ),
        ("parsnip-bisect", env!("CARGO_BIN_EXE_parsnip-bisect")),
        ("parsnip-decode", env!("CARGO_BIN_EXE_parsnip-decode")),
        ("parsnip-ir3", env!("CARGO_BIN_EXE_parsnip-ir3")),
        ("parsnip-replay", env!("CARGO_BIN_EXE_parsnip-replay")),
        ("parsnip-compile", env!("CARGO_BIN_EXE_parsnip-compile")),
    ] {
        for flag in ["--help", "-h"] {
            let (ok, stdout) = help(bin, flag);
            assert!(ok, "{name} {flag} failed");
            assert!(
                stdout.to_lowercase().starts_with("usage:") && stdout.contains(name),
                "{name} {flag} printed {stdout:?}"
            );
        }
    }
}
