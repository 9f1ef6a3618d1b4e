//! `parsnip-compile`: compiles a SPIR-V compute shader for an Adreno GPU (see
//! `parsnip_compiler::cli` for the options).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parsnip_compiler::cli::run(&args) {
        Ok(out) => print!("{out}"),
        Err(e) => {
            eprintln!("parsnip-compile: {e}");
            std::process::exit(1);
        }
    }
}
