//! Shader listings from outside: the disassembly in freedreno's `cffdump` and
//! `crashdec` logs (each instruction with its encoding, for a6xx and a7xx
//! traces), and the ir3 listings Turnip printed for the reference workloads.

use std::path::Path;

use parsnip_isa::{assemble, decode, decode_permissive, disassemble_lines, IsaGen, Opcode};

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One line of a log's shader dump: `:2:0004:0004[4a1000c0x_100400c0x] text`.
struct DumpLine {
    index: usize,
    word: u64,
    text: String,
}

fn parse_dump_line(line: &str) -> Option<DumpLine> {
    let line = line.trim_start();
    let rest = line.strip_prefix(':')?;
    let mut parts = rest.splitn(3, ':');
    let _cat = parts.next()?;
    let index = parts.next()?.parse().ok()?;
    let tail = parts.next()?;
    let open = tail.find('[')?;
    let close = tail.find(']')?;
    let enc = &tail[open + 1..close];
    let (hi, lo) = enc.split_once("x_")?;
    let word = u64::from_str_radix(hi, 16).ok()? << 32
        | u64::from_str_radix(lo.strip_suffix('x')?, 16).ok()?;
    Some(DumpLine {
        index,
        word,
        text: tail[close + 1..].trim().to_string(),
    })
}

/// The shader programs a log dumps: runs of dump lines, split where the
/// instruction index starts again.
fn programs(log: &str) -> Vec<Vec<DumpLine>> {
    let mut out: Vec<Vec<DumpLine>> = Vec::new();
    let mut current: Vec<DumpLine> = Vec::new();
    for line in log.lines() {
        match parse_dump_line(line) {
            Some(d) => {
                let restart = current.last().is_some_and(|l| d.index < l.index);
                if restart {
                    out.push(std::mem::take(&mut current));
                }
                current.push(d);
            }
            None if !current.is_empty() => out.push(std::mem::take(&mut current)),
            None => {}
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The words of a program, one per instruction index (a label line repeats
/// the word of the instruction it labels).
fn words_of(program: &[DumpLine]) -> Vec<u64> {
    let mut words: Vec<u64> = Vec::new();
    for (i, l) in program.iter().enumerate() {
        if i == 0 || l.index != program[i - 1].index {
            words.push(l.word);
        }
    }
    words
}

/// Replaces `#lN` with the offset from instruction `index`, as a single
/// instruction prints its target.
fn relative_targets(text: &str, index: usize) -> String {
    match text.find("#l") {
        Some(i) => {
            let digits: String = text[i + 2..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            let target: i64 = digits.parse().unwrap_or(0);
            format!(
                "{}#{}{}",
                &text[..i],
                target - index as i64,
                &text[i + 2 + digits.len()..]
            )
        }
        None => text.to_string(),
    }
}

#[derive(Default)]
struct Tally {
    programs: usize,
    words: usize,
    undecodable: usize,
    non_canonical: usize,
    failed: usize,
}

/// Checks every program of a log: clean programs disassemble to the log's
/// lines (labels included) and assemble back to their words; programs of
/// garbage (crash dumps) are checked word by word.
fn check_log(path: &Path, generation: IsaGen, t: &mut Tally) {
    let log = std::fs::read_to_string(path).expect("log readable");
    for program in programs(&log) {
        t.programs += 1;
        let words = words_of(&program);
        let garbage = program
            .iter()
            .any(|l| l.text.starts_with("no match") || l.text.contains("; dontcare bits"))
            || words.iter().any(|&w| decode(w, generation).is_err());
        if !garbage {
            t.words += words.len();
            let ours = disassemble_lines(&words, generation);
            let theirs: Vec<String> = program.iter().map(|l| normalise(&l.text)).collect();
            let ours: Vec<String> = ours.iter().map(|l| normalise(l)).collect();
            if ours != theirs {
                t.failed += 1;
                for (a, b) in ours.iter().zip(&theirs) {
                    if a != b {
                        eprintln!("{}: `{a}` where freedreno prints `{b}`", path.display());
                    }
                }
                continue;
            }
            match assemble(&theirs.join("\n"), generation) {
                Ok(back) if back == words => {}
                Ok(_) => {
                    t.failed += 1;
                    eprintln!("{}: a program assembles to other words", path.display());
                }
                Err(e) => {
                    t.failed += 1;
                    eprintln!("{}: {e}", path.display());
                }
            }
            continue;
        }
        // Word by word: freedreno's "no match" must fail to decode; any other
        // word must decode (at least permissively) to freedreno's text.
        let mut seen = std::collections::HashSet::new();
        for l in &program {
            if !seen.insert(l.index) || l.text.ends_with(':') {
                continue;
            }
            t.words += 1;
            let theirs = match l.text.split_once("; dontcare") {
                Some((text, _)) => normalise(text),
                None => normalise(&l.text),
            };
            if theirs.starts_with("no match") {
                t.undecodable += 1;
                if let Ok(x) = decode(l.word, generation) {
                    t.failed += 1;
                    eprintln!(
                        "{}: {:016x} decodes as `{x}`, freedreno finds no match",
                        path.display(),
                        l.word
                    );
                }
                continue;
            }
            match decode_permissive(l.word, generation) {
                Ok((x, ignored)) => {
                    if ignored != 0 {
                        t.non_canonical += 1;
                        assert!(decode(l.word, generation).is_err());
                    }
                    let ours = normalise(&relative_targets(&x.to_string(), 0));
                    let theirs = normalise(&relative_targets(&theirs, l.index));
                    if ours != theirs {
                        t.failed += 1;
                        eprintln!(
                            "{}: {:016x} is `{ours}`, freedreno prints `{theirs}`",
                            path.display(),
                            l.word
                        );
                    }
                }
                Err(e) => {
                    t.failed += 1;
                    eprintln!("{}: {e}; freedreno prints `{theirs}`", path.display());
                }
            }
        }
    }
}

#[test]
fn decoder_logs_match_freedreno() {
    let Some(dir) = parsnip_reference::reference_dir("decoder_logs_match_freedreno") else {
        return;
    };
    // The GPU of each log, from reference/README.md and turnip/README.md.
    let logs = [
        ("traces/reference/fd-clouds.log", IsaGen::A6xx),
        ("traces/reference/crash.log", IsaGen::A6xx),
        ("traces/reference/crash_prefetch.log", IsaGen::A6xx),
        (
            "traces/reference/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.log",
            IsaGen::A6xx,
        ),
        ("turnip/a660/compute.log", IsaGen::A6xx),
        ("turnip/a660/triangle_sysmem.log", IsaGen::A6xx),
        ("turnip/a660/triangle_gmem.log", IsaGen::A6xx),
        ("turnip/a660/triangle_gmem-forcebin.log", IsaGen::A6xx),
        ("turnip/a740/compute.log", IsaGen::A7xx),
        ("turnip/a740/triangle_sysmem.log", IsaGen::A7xx),
        ("turnip/a740/triangle_gmem.log", IsaGen::A7xx),
        ("turnip/a740/triangle_gmem-forcebin.log", IsaGen::A7xx),
    ];
    let mut t = Tally::default();
    for (file, generation) in logs {
        check_log(&dir.join(file), generation, &mut t);
    }
    println!(
        "decoder logs: {} programs, {} words checked ({} freedreno cannot decode, {} with ignored bits), {} failed",
        t.programs, t.words, t.undecodable, t.non_canonical, t.failed
    );
    assert!(t.words > 2000);
    assert_eq!(t.failed, 0);
}

/// The assembly part of a Turnip listing: the lines after a `Native code`
/// header, without comments, directives and the `SIMD0` marker, up to the
/// first empty line.
fn listing_blocks(text: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for raw in text.lines() {
        let line = raw.strip_prefix("MESA: info: ").unwrap_or(raw).trim();
        if line.starts_with("Native code for") {
            current = Some(Vec::new());
            continue;
        }
        let Some(block) = current.as_mut() else {
            continue;
        };
        if line.is_empty() {
            blocks.push(current.take().unwrap());
            continue;
        }
        if line.starts_with(';') || line.starts_with('@') || line == "SIMD0" {
            continue;
        }
        block.push(line.to_string());
    }
    blocks.extend(current);
    blocks
}

#[test]
fn turnip_listings_assemble_to_what_turnip_submitted() {
    let Some(dir) =
        parsnip_reference::reference_dir("turnip_listings_assemble_to_what_turnip_submitted")
    else {
        return;
    };
    let mut checked = 0;
    for (gpu, generation) in [("a660", IsaGen::A6xx), ("a740", IsaGen::A7xx)] {
        // Every program the traces of this GPU submitted.
        let mut submitted: Vec<Vec<u64>> = Vec::new();
        for log in [
            "compute.log",
            "triangle_sysmem.log",
            "triangle_gmem.log",
            "triangle_gmem-forcebin.log",
        ] {
            let text = std::fs::read_to_string(dir.join("turnip").join(gpu).join(log)).unwrap();
            submitted.extend(programs(&text).iter().map(|p| words_of(p)));
        }
        for listing in ["compute.pipeline-executable.txt", "triangle.ir3-stderr.txt"] {
            let text = std::fs::read_to_string(dir.join("turnip").join(gpu).join(listing)).unwrap();
            for block in listing_blocks(&text) {
                let source = block.join("\n");
                let words = assemble(&source, generation)
                    .unwrap_or_else(|e| panic!("{gpu}/{listing}: {e}\n{source}"));
                // Each line reads back as written.
                let back: Vec<String> = disassemble_lines(&words, generation)
                    .iter()
                    .map(|l| normalise(l))
                    .collect();
                let lines: Vec<String> = block.iter().map(|l| normalise(l)).collect();
                assert_eq!(back, lines, "{gpu}/{listing}");
                // The listing is the program Turnip submitted: its words up
                // to `end` are in the trace (whose dumps stop at the shader's
                // length, before some of the trailing nops).
                let end = words
                    .iter()
                    .position(|&w| decode(w, generation).is_ok_and(|x| x.opcode() == Opcode::End))
                    .expect("the listing ends its shader");
                assert!(
                    submitted.iter().any(|p| p.starts_with(&words[..=end])),
                    "{gpu}/{listing}: no submitted program starts with {words:016x?}"
                );
                checked += 1;
            }
        }
    }
    println!("turnip listings: {checked} programs assembled and found in the traces");
    assert_eq!(checked, 8);
}
