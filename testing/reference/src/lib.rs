//! Where tests find the outside reference data: Mesa's register and ISA
//! databases, disassembler vectors, real-hardware traces and Turnip's streams.
//!
//! The data lives outside the repository (`../shared/reference` next to the
//! checkout), so a user's clone may not have it. Tests that need it call
//! [`reference_dir`] and return early, printing why, when it is absent.
//! CI sets `PARSNIP_REQUIRE_REFERENCE=1`, which turns a missing reference into
//! a failure instead: a skipped comparison must never count as a pass there.

pub mod image;

use std::path::{Path, PathBuf};

/// The environment variable that overrides where the reference data is.
pub const DIR_VAR: &str = "PARSNIP_REFERENCE";
/// The environment variable that makes a missing reference a test failure.
pub const REQUIRE_VAR: &str = "PARSNIP_REQUIRE_REFERENCE";

fn workspace_root() -> PathBuf {
    // This crate sits at <root>/testing/reference.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crate is two levels below the workspace root")
        .to_path_buf()
}

fn locate() -> Result<PathBuf, String> {
    let dir = match std::env::var_os(DIR_VAR) {
        Some(d) => PathBuf::from(d),
        None => workspace_root().join("../shared/reference"),
    };
    if dir.join("README.md").is_file() {
        Ok(dir)
    } else {
        Err(format!(
            "reference data not found at {} (set {DIR_VAR} to its path)",
            dir.display()
        ))
    }
}

/// The reference directory, or `None` after printing why the calling test is
/// skipped. Panics instead when `PARSNIP_REQUIRE_REFERENCE=1`.
pub fn reference_dir(test: &str) -> Option<PathBuf> {
    match locate() {
        Ok(dir) => Some(dir),
        Err(why) => {
            if std::env::var(REQUIRE_VAR).is_ok_and(|v| v == "1") {
                panic!("{test}: {why}, and {REQUIRE_VAR}=1");
            }
            eprintln!("SKIPPED {test}: {why}");
            None
        }
    }
}

/// A file under the reference directory, with the same skip rule.
pub fn reference_file(test: &str, relative: &str) -> Option<PathBuf> {
    let path = reference_dir(test)?.join(relative);
    assert!(
        path.exists(),
        "{test}: the reference directory has no {relative}"
    );
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_shared_reference_when_present() {
        if let Some(dir) = reference_dir("finds_the_shared_reference_when_present") {
            assert!(dir.join("registers/adreno/a6xx.xml").is_file());
        }
    }
}
