//! `parsnip-compile`: the compiler as a command, for looking at what it makes of a shader.
//!
//! ```text
//! parsnip-compile SHADER.spv [--stage comp|vert|frag] [--entry NAME] [--gpu a660|a740|...]
//!                 [--ir] [--disasm] [--stats]
//!                 [--binding SET:BINDING:KIND[:COUNT]]...
//! ```
//!
//! KIND is `ssbo`, `ubo`, `utexel`, `stexel` (texel buffers), `sampled`, `storage`
//! (images), `sampler`, `combined` (an image and its sampler) or `input` (an input
//! attachment).
//!
//! The descriptor layout is the one a pipeline layout made for the shader gives: each
//! binding the entry point declares, with its kind and array size, packed per set in
//! binding order. A `--binding` replaces the shader's own entry for its set and binding,
//! or adds one the shader does not declare (which moves the bindings after it), to match
//! an application's layout; it also sizes a runtime-sized array that is not its set's
//! last binding.

use crate::descriptor_layout::{DescriptorKind, DescriptorLayout};
use crate::spirv::{self, DeclaredBinding, FrontEndOptions};
use crate::target;
use crate::{compile_to_ir, CompileOptions};

pub const USAGE: &str =
    "usage: parsnip-compile SHADER.spv [--stage comp|vert|frag] [--entry NAME] \
[--gpu a660|a740|...] [--ir] [--disasm] [--stats] [--binding SET:BINDING:KIND[:COUNT]]... \
(KIND: ssbo, ubo, utexel, stexel, sampled, storage, sampler, combined, input)";

#[derive(Debug, Default, PartialEq)]
pub struct Args {
    pub path: String,
    pub entry: String,
    pub gpu: String,
    pub ir: bool,
    pub disasm: bool,
    pub stats: bool,
    pub bindings: Vec<(u32, u32, DescriptorKind, u32)>,
    /// The stage the entry point must be (`--stage`); the module says which it is.
    pub stage: Option<crate::stage_info::Stage>,
    /// `-h`/`--help`: print the usage and compile nothing.
    pub help: bool,
}

pub fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        entry: "main".into(),
        gpu: "a660".into(),
        ..Args::default()
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--stage" => {
                use crate::stage_info::Stage;
                let s = value("--stage")?;
                a.stage = Some(match s.as_str() {
                    "compute" | "comp" => Stage::Compute,
                    "vertex" | "vert" => Stage::Vertex,
                    "fragment" | "frag" => Stage::Fragment,
                    _ => {
                        return Err(format!(
                            "stage {s} is not supported; only comp, vert and frag are"
                        ))
                    }
                });
            }
            "--entry" => a.entry = value("--entry")?,
            "--gpu" => a.gpu = value("--gpu")?,
            "--ir" => a.ir = true,
            "--disasm" => a.disasm = true,
            "--stats" => a.stats = true,
            "--binding" => {
                let v = value("--binding")?;
                let parts: Vec<&str> = v.split(':').collect();
                let num = |s: &str| {
                    s.parse::<u32>()
                        .map_err(|_| format!("bad number {s} in --binding {v}"))
                };
                if parts.len() < 3 || parts.len() > 4 {
                    return Err(format!("--binding {v}: expected SET:BINDING:KIND[:COUNT]"));
                }
                let kind = match parts[2] {
                    "ssbo" => DescriptorKind::StorageBuffer,
                    "ubo" => DescriptorKind::UniformBuffer,
                    "utexel" => DescriptorKind::UniformTexelBuffer,
                    "stexel" => DescriptorKind::StorageTexelBuffer,
                    "sampled" => DescriptorKind::SampledImage,
                    "storage" => DescriptorKind::StorageImage,
                    "sampler" => DescriptorKind::Sampler,
                    "combined" => DescriptorKind::CombinedImageSampler,
                    "input" => DescriptorKind::InputAttachment,
                    k => return Err(format!("--binding {v}: unknown kind {k}")),
                };
                let count = if parts.len() == 4 { num(parts[3])? } else { 1 };
                a.bindings
                    .push((num(parts[0])?, num(parts[1])?, kind, count));
            }
            "-h" | "--help" => {
                a.help = true;
                return Ok(a);
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}")),
            s => {
                if !a.path.is_empty() {
                    return Err(format!("more than one shader given\n{USAGE}"));
                }
                a.path = s.into();
            }
        }
    }
    if a.path.is_empty() {
        return Err(USAGE.into());
    }
    Ok(a)
}

/// Runs the command; returns what to print, or an error message.
pub fn run(args: &[String]) -> Result<String, String> {
    let a = parse(args)?;
    if a.help {
        return Ok(format!("{USAGE}\n"));
    }
    let bytes = std::fs::read(&a.path).map_err(|e| format!("{}: {e}", a.path))?;
    if bytes.len() % 4 != 0 {
        return Err(format!(
            "{}: {} bytes is not a whole number of SPIR-V words",
            a.path,
            bytes.len()
        ));
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let options = CompileOptions {
        gpu: a.gpu.clone(),
        entry: a.entry.clone(),
        layout: layout(&words, &a)?,
        ..CompileOptions::default()
    };
    let shader = compile_to_ir(&words, &options).map_err(|e| format!("{}: {e}", a.path))?;
    if let Some(want) = a.stage {
        if shader.stage != want {
            return Err(format!(
                "{}: entry point \"{}\" is a {} shader, not {want}",
                a.path, a.entry, shader.stage
            ));
        }
    }
    let mut out = String::new();
    if a.ir {
        out.push_str(&shader.to_string());
    }
    if a.ir && !a.disasm && !a.stats {
        return Ok(out);
    }
    let model = target::model(&a.gpu).map_err(|e| e.to_string())?;
    let compiled =
        crate::backend::compile(&shader, model.as_ref()).map_err(|e| format!("{}: {e}", a.path))?;
    if a.disasm {
        out.push_str(&compiled.disassembly);
    }
    if a.stats {
        out.push_str(&compiled.stats.lines());
    }
    if !a.ir && !a.disasm && !a.stats {
        out.push_str(&format!(
            "{}: {} instructions, {} full / {} half vec4 registers, {} const vec4s, {} bytes shared, {} bytes private, wave {}\n",
            a.path,
            compiled.instr_count,
            compiled.full_regs,
            compiled.half_regs,
            compiled.const_vec4,
            compiled.stage.compute().map_or(0, |c| c.shared_bytes),
            compiled.private_bytes,
            compiled.wave_size
        ));
        out.push_str(&compiled.stage.to_string());
    }
    Ok(out)
}

/// The shader's own bindings, each `--binding` replacing or adding its set and binding.
fn layout(words: &[u32], a: &Args) -> Result<DescriptorLayout, String> {
    let fe = FrontEndOptions {
        entry: a.entry.clone(),
        ..FrontEndOptions::default()
    };
    let mut declared =
        spirv::declared_bindings(words, &fe).map_err(|e| format!("{}: {e}", a.path))?;
    for &(set, binding, kind, count) in &a.bindings {
        declared.retain(|d| (d.set, d.binding) != (set, binding));
        declared.push(DeclaredBinding {
            set,
            binding,
            kind,
            count: Some(count),
            variable: format!("--binding {set}:{binding}"),
        });
    }
    DescriptorLayout::matching(&declared)
        .map_err(|e| format!("{}: {e} (--binding SET:BINDING:KIND:COUNT)", a.path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_the_documented_options() {
        let a = parse(&args(
            "x.spv --gpu a740 --entry go --stats --disasm --binding 1:2:ubo:3",
        ))
        .unwrap();
        assert_eq!(a.path, "x.spv");
        assert_eq!(a.gpu, "a740");
        assert_eq!(a.entry, "go");
        assert!(a.stats && a.disasm && !a.ir);
        assert_eq!(a.bindings, vec![(1, 2, DescriptorKind::UniformBuffer, 3)]);
    }

    #[test]
    fn refuses_bad_command_lines() {
        assert!(parse(&args("")).is_err());
        assert!(parse(&args("x.spv --stage geometry"))
            .unwrap_err()
            .contains("only comp, vert and frag"));
        assert_eq!(
            parse(&args("x.spv --stage vert")).unwrap().stage,
            Some(crate::stage_info::Stage::Vertex)
        );
        assert!(parse(&args("x.spv --bogus"))
            .unwrap_err()
            .contains("--bogus"));
        assert!(parse(&args("x.spv --binding 0:1")).is_err());
        assert!(parse(&args("x.spv --gpu"))
            .unwrap_err()
            .contains("needs a value"));
    }
}
