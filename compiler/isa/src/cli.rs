//! The `parsnip-ir3` command, as a function the binary wraps:
//!
//! ```text
//! parsnip-ir3 dis --gpu GPU (FILE | HEX64...)
//! parsnip-ir3 as --gpu GPU FILE -o OUT
//! ```
//!
//! `dis` prints one instruction per line (labels on branch targets). Its
//! input is either a raw little-endian binary FILE or instruction words as
//! 16 hex digits, high word first, as freedreno's vectors write them
//! (`HHHHHHHHLLLLLLLL`, optionally `HHHHHHHH_LLLLLLLL`). `as` assembles FILE
//! (`-` for standard input) into OUT, little-endian. GPU is a name of
//! [`GPU_NAMES`] (`a618` .. `a750`). Errors go to standard error, assembler
//! errors as `FILE:line:column: message`; the exit code is then 1.

use std::io::{Read, Write};

use crate::asm::assemble;
use crate::disasm::disassemble;
use crate::gen::{IsaGen, GPU_NAMES};

const USAGE: &str = "\
usage: parsnip-ir3 dis --gpu GPU (FILE | HEX64...)
       parsnip-ir3 as --gpu GPU FILE -o OUT
GPU: a618 a630 a640 a650 a660 a690 a730 a740 a750
HEX64: an instruction as 16 hex digits, high word first";

/// A 16-hex-digit instruction word, high word first.
fn parse_hex64(arg: &str) -> Option<u64> {
    let digits: String = arg.chars().filter(|&c| c != '_').collect();
    if digits.len() != 16 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(&digits, 16).ok()
}

struct Args {
    command: String,
    generation: IsaGen,
    inputs: Vec<String>,
    output: Option<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut it = args.iter();
    let command = it.next().ok_or("no command given")?.clone();
    if command != "dis" && command != "as" {
        return Err(format!("unknown command `{command}`"));
    }
    let mut generation = None;
    let mut inputs = Vec::new();
    let mut output = None;
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--gpu" => {
                let name = it.next().ok_or("--gpu needs a GPU name")?;
                generation = Some(IsaGen::from_gpu_name(name).ok_or_else(|| {
                    let names: Vec<&str> = GPU_NAMES.iter().map(|(n, _)| *n).collect();
                    format!("unknown GPU `{name}` (known: {})", names.join(" "))
                })?);
            }
            "-o" => output = Some(it.next().ok_or("-o needs a file name")?.clone()),
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            _ => inputs.push(arg.clone()),
        }
    }
    Ok(Args {
        command,
        generation: generation.ok_or("--gpu GPU is required")?,
        inputs,
        output,
    })
}

fn read_input(path: &str) -> Result<Vec<u8>, String> {
    let mut data = Vec::new();
    let result = if path == "-" {
        std::io::stdin().read_to_end(&mut data).map(|_| ())
    } else {
        std::fs::read(path).map(|d| data = d)
    };
    result.map_err(|e| format!("{path}: {e}"))?;
    Ok(data)
}

fn disassemble_command(a: &Args, out: &mut dyn Write) -> Result<(), String> {
    let words: Vec<u64> = match a.inputs.as_slice() {
        [] => return Err("dis needs a FILE or HEX64 words".into()),
        [file] if parse_hex64(file).is_none() => {
            let data = read_input(file)?;
            if data.len() % 8 != 0 {
                return Err(format!(
                    "{file}: {} bytes is not a whole number of 8-byte instructions",
                    data.len()
                ));
            }
            data.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect()
        }
        words => words
            .iter()
            .map(|w| parse_hex64(w).ok_or_else(|| format!("`{w}` is not 16 hex digits (HEX64)")))
            .collect::<Result<_, _>>()?,
    };
    out.write_all(disassemble(&words, a.generation).as_bytes())
        .map_err(|e| e.to_string())
}

fn assemble_command(a: &Args) -> Result<(), String> {
    let [file] = a.inputs.as_slice() else {
        return Err("as needs exactly one FILE".into());
    };
    let output = a.output.as_ref().ok_or("as needs -o OUT")?;
    let data = read_input(file)?;
    let text = String::from_utf8(data).map_err(|_| format!("{file}: not UTF-8 text"))?;
    let words = assemble(&text, a.generation).map_err(|e| format!("{file}:{e}"))?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(output, bytes).map_err(|e| format!("{output}: {e}"))
}

/// Runs the command with `args` (without the program name). Returns the
/// process exit code.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        let _ = writeln!(out, "{USAGE}");
        return 0;
    }
    let result = parse_args(args).and_then(|a| match a.command.as_str() {
        "dis" => disassemble_command(&a, out),
        _ => assemble_command(&a),
    });
    match result {
        Ok(()) => 0,
        Err(message) => {
            let _ = writeln!(err, "parsnip-ir3: {message}");
            if message.contains("needs")
                || message.contains("required")
                || message.contains("unknown command")
            {
                let _ = writeln!(err, "{USAGE}");
            }
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_args(args: &[&str]) -> (i32, String, String) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&args, &mut out, &mut err);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn disassembles_hex_words() {
        let (code, out, _) = run_args(&[
            "dis",
            "--gpu",
            "a630",
            "0000020000000000",
            "03000000_00000000",
        ]);
        assert_eq!(code, 0);
        assert_eq!(out, "(rpt2)nop\nend\n");
        let (code, out, _) = run_args(&["dis", "--gpu", "a740", "fbc2100000000000"]);
        assert_eq!((code, out.as_str()), (0, "(sy)(ss)(jp)lock\n"));
    }

    #[test]
    fn assembles_a_file_and_reads_it_back() {
        let dir = std::env::temp_dir().join(format!("parsnip-ir3-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("in.asm");
        let bin = dir.join("out.bin");
        std::fs::write(&src, "top:\n(jp)add.u r0.x, r0.x, 1\nbr p0.x, #top\nend\n").unwrap();
        let (code, _, err) = run_args(&[
            "as",
            "--gpu",
            "a660",
            src.to_str().unwrap(),
            "-o",
            bin.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let bytes = std::fs::read(&bin).unwrap();
        assert_eq!(bytes.len(), 24);
        let (code, out, _) = run_args(&["dis", "--gpu", "a660", bin.to_str().unwrap()]);
        assert_eq!(code, 0);
        assert_eq!(out, "l0:\n(jp)add.u r0.x, r0.x, 1\nbr p0.x, #l0\nend\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn errors_go_to_stderr_with_exit_code_1() {
        let dir = std::env::temp_dir().join(format!("parsnip-ir3-err-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("bad.asm");
        std::fs::write(&src, "nop\nmov.f32f32 r0.x, q0\n").unwrap();
        let out = dir.join("out.bin");
        let (code, stdout, err) = run_args(&[
            "as",
            "--gpu",
            "a660",
            src.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 1);
        assert!(stdout.is_empty());
        assert!(err.contains("bad.asm:2:18: "), "{err}");
        assert!(!out.exists());
        std::fs::remove_dir_all(&dir).unwrap();

        let (code, _, err) = run_args(&["dis", "--gpu", "a530", "0000000000000000"]);
        assert_eq!(code, 1);
        assert!(err.contains("unknown GPU `a530`"), "{err}");
        let (code, _, err) = run_args(&["dis", "--gpu", "a630", "00000000000000", "1"]);
        assert_eq!(code, 1);
        assert!(err.contains("not 16 hex digits"), "{err}");
        let (code, _, _) = run_args(&["frobnicate"]);
        assert_eq!(code, 1);
    }
}
