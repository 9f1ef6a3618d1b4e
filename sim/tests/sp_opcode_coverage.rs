//! Walks the ISA's opcode list (parsnip-isa's `OPCODES`, generated from
//! freedreno's ISA XML) on both generations and runs instructions of each
//! opcode on the model: every opcode executes except the listed ones, whose
//! behaviour is not public and which stop with an error naming them. The
//! lists are the visible, shrinking record of what the model does not run.
//!
//! Samples: every instruction of freedreno's disassembler vectors and of
//! Turnip's shaders in reference/ (real forms), and deterministic
//! pseudo-random words the decoder accepts (every other form). An opcode
//! counts as executed when one of its samples runs to completion in a
//! compute dispatch with every descriptor kind present (zeroed) and every
//! const loaded; as refused when none does and one stops with the model's
//! "not modelled" / "not public" error. Opcodes that only stop with other
//! errors (varyings or derivatives outside a fragment shader, a sample's
//! operands out of range) and opcodes without a sample are listed too.

mod shader_rig;

use std::collections::{BTreeMap, BTreeSet};

use parsnip_isa::{decode, encode, Instr, IsaGen, Opcode, OPCODES};
use parsnip_registers::descriptors::a6xx::TextureDescriptor;
use parsnip_registers::descriptors::UboDescriptor;
use parsnip_registers::enums::{A6xxFormat, A6xxTexType};
use parsnip_sim::compute_dispatch::DescriptorSource;
use shader_rig::*;

/// Samples tried per opcode, and words decoded in all.
const SAMPLES: usize = 24;
const WORDS: usize = 3_000_000;

#[derive(Debug, Default)]
struct Outcome {
    ran: bool,
    refused: Option<String>,
    other: Option<String>,
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Every line of the reference's instruction listings that assembles for
/// `g`: the disassembler vectors of that generation and Turnip's shaders.
fn reference_instructions(g: IsaGen) -> Vec<Instr> {
    let Some(dir) = parsnip_reference::reference_dir("sp_opcode_coverage") else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for tsv in ["ir3-disasm-vectors.tsv", "ir3-disasm-vectors-generated.tsv"] {
        let text = std::fs::read_to_string(dir.join(tsv)).unwrap();
        for l in text.lines().skip(1) {
            let f: Vec<&str> = l.split('\t').collect();
            let a7xx = f[0].parse::<u32>().is_ok_and(|id| id >= 700);
            if f.len() > 2 && a7xx == g.is_a7xx() {
                lines.push(f[2].to_string());
            }
        }
    }
    let gpu = if g.is_a7xx() { "a740" } else { "a660" };
    for e in std::fs::read_dir(dir.join("turnip").join(gpu)).unwrap() {
        let path = e.unwrap().path();
        if path.to_string_lossy().ends_with(".pipeline-executable.txt") {
            let text = std::fs::read_to_string(path).unwrap();
            lines.extend(text.lines().map(str::to_string));
        }
    }
    lines
        .iter()
        .filter_map(|l| parsnip_isa::assemble(l, g).ok())
        .filter(|w| w.len() == 1)
        .filter_map(|w| decode(w[0], g).ok())
        .collect()
}

/// Forms of instructions neither listing has, in the assembler's syntax;
/// r2.xy holds a valid global address when they run.
fn hand_written(g: IsaGen) -> Vec<Instr> {
    let mut lines: Vec<String> = [
        "stg.u32 g[r2.x], r4.x, 1",
        "getfiberid.u32 r3.x",
        "getwid.u32 r3.x",
        "getspid.u32 r3.x",
        "quad_shuffle.horiz (u32)(x)r3.x, r4.x",
        "quad_shuffle.vert (u32)(x)r3.x, r4.x",
        "quad_shuffle.diag (u32)(x)r3.x, r4.x",
        "quad_shuffle.brcst (u32)(x)r3.x, r4.x, r5.x",
        "ldc.offset0.1.imm r5.x, r4.x, 1",
        "predf",
        "resbase.b.base0 r3.x, 0",
        "gather4a (f32)(xyzw)r3.x, r4.x, s#0, t#0",
        "sleep.l",
        "wmm r8.x, r4.x, r6.x, 32",
        "wmm.accu r8.x, r4.x, r6.x, 0",
        "dccln.all",
        "dcinv.all",
        "dcflu.all",
        "icinv",
        "ccinv",
        "tcinv",
        "stp.u32 p[r4.x+4], r5.x, 1",
        "stlw.u32 l[r4.x+4], r5.x, 1",
        "ldc.offset0.1.k.imm c[a1.x], r4.x, 0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for op in [
        "add", "sub", "xchg", "inc", "dec", "cmpxchg", "min", "max", "and", "or", "xor",
    ] {
        lines.push(format!("atomic.g.{op}.untyped.1d.u32.1.g r3.x, r2.x, r5.x"));
        lines.push(format!(
            "atomic.{op}.untyped.1d.u32.1.l r3.x, l[r5.x], r6.x"
        ));
        lines.push(format!(
            "atomic.b.{op}.untyped.1d.u32.1.imm.base0 r3.x, r4.x, 0"
        ));
    }
    lines
        .iter()
        .filter_map(|l| parsnip_isa::assemble(l, g).ok())
        .filter_map(|w| decode(w[0], g).ok())
        .collect()
}

/// Up to [`SAMPLES`] instructions per opcode: the reference's and the
/// hand-written ones first.
fn samples(g: IsaGen) -> BTreeMap<Opcode, Vec<Instr>> {
    let mut found: BTreeMap<Opcode, Vec<Instr>> = BTreeMap::new();
    for i in hand_written(g).into_iter().chain(reference_instructions(g)) {
        let v = found.entry(i.opcode()).or_default();
        if v.len() < SAMPLES {
            v.push(i);
        }
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for n in 0..WORDS {
        // Words of every density: many fields must be zero (cat0), others
        // need set bits.
        let mut w = xorshift(&mut state);
        for _ in 0..n % 4 {
            w &= xorshift(&mut state);
        }
        if n % 8 == 7 {
            w |= xorshift(&mut state);
        }
        let Ok(i) = decode(w, g) else { continue };
        let v = found.entry(i.opcode()).or_default();
        if v.len() < SAMPLES {
            v.push(i);
        }
    }
    found
}

fn run(g: IsaGen, i: &Instr) -> Result<(), String> {
    let mut rig = Rig::new(g);
    // r2.xy = c0.xy, the data buffer's address, then the instruction.
    let setup = parsnip_isa::assemble("mov.u32u32 r2.x, c0.x\nmov.u32u32 r2.y, c0.y", g).unwrap();
    let end = parsnip_isa::assemble("end", g).unwrap()[0];
    let word = encode(i, g).map_err(|e| format!("encode: {e}"))?;
    let bytes: Vec<u8> = setup
        .iter()
        .chain(&[word, end, end, end])
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let program = rig.buffer(&bytes);
    // Every descriptor slot is a 64x64 R32_UINT linear image (as a texture:
    // sampled, fetched, sized) over 16 KiB, or (IBOs) a buffer of 4096
    // 32-bit texels over the same memory; samplers are all zero (nearest,
    // repeat); UBOs 16 KiB. Bindless sets hold the images.
    let data = rig.words(&[0; 64 * 64]);
    let image = TextureDescriptor {
        fmt: A6xxFormat::FMT6_32_UINT,
        width: 64,
        height: 64,
        depth: 1,
        pitch: 256,
        r#type: A6xxTexType::A6XX_TEX_2D,
        base_lo: data as u32,
        base_hi: (data >> 32) as u32,
        ..Default::default()
    }
    .to_raw();
    let buffer = TextureDescriptor {
        width: 4096,
        height: 0,
        r#type: A6xxTexType::A6XX_TEX_BUFFER,
        structsizetexels: 1,
        ..TextureDescriptor::from_raw(&image)
    }
    .to_raw();
    let ubo = UboDescriptor {
        base_lo: data as u32,
        base_hi: (data >> 32) as u32,
        size: 1024,
    }
    .to_raw();
    let slots = |d: &[u32]| -> Vec<Vec<u32>> { (0..128).map(|_| d.to_vec()).collect() };
    let set: Vec<u32> = (0..128).flat_map(|_| image).collect();
    let set = rig.words(&set);
    let mut d = rig.dispatch(program);
    d.full_regs = 64;
    d.consts = vec![0; 1024 * 4];
    d.consts[..2].copy_from_slice(&[data as u32, (data >> 32) as u32]);
    d.instruction_budget = 64;
    d.bindless = (0..8).map(|_| bindless_set(set)).collect();
    d.ubos = DescriptorSource::Loaded(slots(&ubo));
    d.ibos = DescriptorSource::Loaded(slots(&buffer));
    d.textures = DescriptorSource::Loaded(slots(&image));
    d.samplers = DescriptorSource::Loaded(slots(&[0; 4]));
    d.shared_size = 16 * 1024;
    d.shared_consts.imm = vec![Some(0); 64];
    d.private_per_fiber = 16 * 1024;
    d.private_iova = data;
    rig.run(&d).map(|_| ()).map_err(|f| format!("{f:?}"))
}

fn is_refusal(message: &str) -> bool {
    message.contains("not modelled") || message.contains("not public")
}

/// What the walk found on one generation: the opcodes refused, and those
/// that neither ran nor were refused (another error, or no sample).
fn walk(g: IsaGen) -> (usize, Vec<&'static str>, Vec<&'static str>) {
    let found = samples(g);
    let mut ran = 0;
    let mut refused = Vec::new();
    let mut unsettled = Vec::new();
    for info in OPCODES.iter().filter(|i| i.exists_on(g)) {
        let mut o = Outcome::default();
        for i in found.get(&info.opcode).into_iter().flatten() {
            match run(g, i) {
                Ok(()) => {
                    o.ran = true;
                    break;
                }
                Err(m) if is_refusal(&m) => o.refused = Some(m),
                Err(m) => o.other = Some(m),
            }
        }
        if o.ran {
            ran += 1;
        } else if let Some(m) = &o.refused {
            println!("{g}: {} refused: {}", info.name, &m[..m.len().min(160)]);
            refused.push(info.name);
        } else {
            let why = o.other.as_deref().unwrap_or("no sample");
            println!(
                "{g}: {} unsettled: {}",
                info.name,
                &why[..why.len().min(160)]
            );
            unsettled.push(info.name);
        }
    }
    (ran, refused, unsettled)
}

/// Opcodes every sample of which stops with "not modelled" / "not public":
/// what they compute is not publicly documented (branch-stack and
/// `flow_rev` control flow, `cmpv`, `mgen`, `setrm`, `shb`, `msad`,
/// `madsh.u16`; `sad.s16` and `madsh.u16` samples with `(neg)` on an
/// integer source), the texture queries and forms the model does not take
/// (`isamm`, `getlod`, `conv*`, `getpos`, `getinfo`, `samgp*`,
/// `rgetpos`/`rgetinfo`, `getbuf` of a non-buffer, the a3xx `resinfo`), and
/// `ray_intersection`. The `(neg)` rule is per form: other `sad.s16` forms
/// run.
const REFUSED: &[&str] = &[
    "brac",
    "brax",
    "flow_rev",
    "bkt",
    "cmpv.f",
    "cmpv.u",
    "cmpv.s",
    "mgen.b",
    "setrm",
    "shb",
    "msad",
    "madsh.u16",
    "sad.s16",
    "isamm",
    "getlod",
    "conv",
    "convm",
    "getbuf",
    "getpos",
    "getinfo",
    "samgp0",
    "samgp1",
    "samgp2",
    "samgp3",
    "rgetpos",
];
const REFUSED_A6XX_ALSO: &[&str] = &["rgetinfo", "resinfo"];
const REFUSED_A7XX_ALSO: &[&str] = &["ray_intersection"];

/// Opcodes this compute-only walk cannot settle: graphics-only work
/// (`kill`, `emit`, `cut`, `chmask`, `chsh`, varyings, `sam`/`samb` and
/// derivatives need a fragment quad; the draw tests run them), `call`/`ret`
/// whose samples leave the program, and `ldc.k`, whose samples read past
/// the mapped UBO; on
/// a7xx also opcodes with no sample in either listing (`rgetinfo`, the
/// a3xx `resinfo`, `resbase`).
const UNSETTLED: &[&str] = &[
    "call", "ret", "kill", "emit", "cut", "chmask", "chsh", "bary.f", "flat.b", "sam", "samb",
    "dsx", "dsy", "dsxpp.1", "dsypp.1", "ldlv", "ldc.k",
];
const UNSETTLED_A7XX_ALSO: &[&str] = &["rgetinfo", "resinfo", "resbase"];

fn set<'a>(lists: &[&[&'a str]]) -> BTreeSet<&'a str> {
    lists.iter().flat_map(|l| l.iter().copied()).collect()
}

#[test]
fn every_opcode_executes_or_is_a_listed_refusal() {
    if parsnip_reference::reference_dir("sp_opcode_coverage").is_none() {
        return;
    }
    for (g, want_refused, want_unsettled) in [
        (
            IsaGen::A6xx,
            set(&[REFUSED, REFUSED_A6XX_ALSO]),
            set(&[UNSETTLED]),
        ),
        (
            IsaGen::A7xx,
            set(&[REFUSED, REFUSED_A7XX_ALSO]),
            set(&[UNSETTLED, UNSETTLED_A7XX_ALSO]),
        ),
    ] {
        let (ran, refused, unsettled) = walk(g);
        let (refused, unsettled) = (set(&[&refused]), set(&[&unsettled]));
        let total = OPCODES.iter().filter(|i| i.exists_on(g)).count();
        println!("{g}: {ran} of {total} opcodes ran");
        assert_eq!(refused, want_refused, "{g}: the opcodes the model refuses");
        assert_eq!(
            unsettled, want_unsettled,
            "{g}: the opcodes the walk cannot settle"
        );
        assert_eq!(ran + refused.len() + unsettled.len(), total);
    }
}
