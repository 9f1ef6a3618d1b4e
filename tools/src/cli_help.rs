//! `-h`/`--help`, as a user tries first: the tools that take positional
//! arguments would otherwise read it as a file name or an address.

/// Whether the arguments ask for help: `-h` or `--help` anywhere.
pub fn asks_for_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "-h" || a == "--help")
}
