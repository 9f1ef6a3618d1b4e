//! `parsnip-ir3`: the ir3 disassembler and assembler.
//!
//! ```text
//! parsnip-ir3 dis --gpu GPU (FILE | HEX64...)
//! parsnip-ir3 as --gpu GPU FILE -o OUT
//! ```
//!
//! The command lives in `parsnip_isa::cli`; this is its entry point.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = parsnip_isa::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
