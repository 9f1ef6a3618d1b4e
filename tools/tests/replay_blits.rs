//! The 2D engine on Turnip's streams (reference/turnip): the CP_BLITs of
//! the compute and graphics traces, replayed with the packets that are not
//! blits (dispatches, draws) turned into CP_NOPs, so that the blits alone
//! decide the bytes checked. Expected values come from the workloads'
//! source (apps/newref.c), turnip/README.md and lavapipe's image, or from
//! the input buffers captured in the trace.

use std::path::Path;

use parsnip_registers::packets;
use parsnip_registers::pm4::{opcode_by_name, opcode_name, pkt7, Pm4Header};
use parsnip_registers::regs::{self, ArrayRegister, Register};
use parsnip_registers::Chip;
use parsnip_sim::surface::texture::TextureImage;
use parsnip_sim::SimOptions;
use parsnip_tools::replay::Replay;

/// A packet of a stream, or one dword of a type 4 write.
#[derive(Clone, Copy, Debug)]
enum Item {
    Packet {
        name: &'static str,
        header: u64,
        count: u32,
    },
    Write {
        offset: u32,
        value: u32,
        at: u64,
    },
}

/// The packets and register writes of the IB at `iova`, and of the IBs it
/// calls, in execution order.
/// Turns every packet named in `names` into a CP_NOP of the same size.
fn nop(replay: &Replay, items: &[Item], names: &[&str]) -> usize {
    nop_events(replay, items, names, &[])
}

fn walk(replay: &Replay, iova: u64, dwords: u32, out: &mut Vec<Item>) {
    let mem = replay.gpu().memory();
    let chip = replay.gpu().info().chip;
    let stream = mem.read_dwords(iova, dwords as usize).unwrap();
    let mut pos = 0;
    while pos < stream.len() {
        let at = iova + 4 * pos as u64;
        let header = Pm4Header::parse(stream[pos]).unwrap();
        let count = header.payload_dwords();
        match header {
            Pm4Header::Type4 { offset, .. } => {
                for i in 0..count {
                    out.push(Item::Write {
                        offset: offset + i,
                        value: stream[pos + 1 + i as usize],
                        at: at + 4 + 4 * u64::from(i),
                    });
                }
            }
            Pm4Header::Type7 { opcode, .. } => {
                let name = opcode_name(chip, opcode).unwrap();
                out.push(Item::Packet {
                    name,
                    header: at,
                    count,
                });
                if name.starts_with("CP_INDIRECT_BUFFER") && name != "CP_INDIRECT_BUFFER_CHAIN" {
                    let p = &stream[pos + 1..pos + 4];
                    let target = u64::from(p[0]) | u64::from(p[1]) << 32;
                    walk(replay, target, p[2] & 0xf_ffff, out);
                }
            }
        }
        pos += 1 + count as usize;
    }
}

/// A replay of `trace` with its first submit loaded, and its items.
fn loaded(trace: &Path) -> (Replay, Vec<Item>) {
    let trace = parsnip_rd::Trace::open(trace).unwrap();
    // Strict caches: the copies read what earlier blits wrote only after
    // the CCU flushes Turnip emits.
    let options = SimOptions {
        strict_caches: true,
        ..SimOptions::default()
    };
    let mut replay = Replay::new(trace, options).unwrap();
    replay.load_submit(0).unwrap();
    let mut items = Vec::new();
    for cs in replay.trace().submits()[0].cmdstreams.clone() {
        walk(&replay, cs.iova, cs.dwords, &mut items);
    }
    (replay, items)
}

/// Turns every packet named in `names` into a CP_NOP of the same size, and
/// the CP_EVENT_WRITE7s of events in `events`.
fn nop_events(replay: &Replay, items: &[Item], names: &[&str], events: &[&str]) -> usize {
    let chip = replay.gpu().info().chip;
    let mem = replay.gpu().memory();
    let mut n = 0;
    for item in items {
        if let Item::Packet {
            name,
            header,
            count,
        } = *item
        {
            let event = || {
                let dw0 = mem.read_u32(header + 4).unwrap();
                let e = packets::CpEventWrite7Dw0::from_raw(dw0).event;
                e.name(chip).is_some_and(|e| events.contains(&e))
            };
            if names.contains(&name) || name == "CP_EVENT_WRITE7" && event() {
                let nop = pkt7(opcode_by_name(chip, "CP_NOP").unwrap(), count);
                replay.gpu().memory().write_u32(header, nop).unwrap();
                n += 1;
            }
        }
    }
    n
}

/// The 64-bit values written at register `offset` (two dwords written
/// together), with where each is in memory.
fn writes64_at(offset: u32, items: &[Item]) -> Vec<(u64, u64)> {
    items
        .windows(2)
        .filter_map(|w| match (w[0], w[1]) {
            (
                Item::Write {
                    offset: o,
                    value: lo,
                    at,
                },
                Item::Write {
                    offset: o2,
                    value: hi,
                    ..
                },
            ) if o == offset && o2 == offset + 1 => Some((u64::from(lo) | u64::from(hi) << 32, at)),
            _ => None,
        })
        .collect()
}

/// The 64-bit values written to register `R`, in stream order.
fn writes64<R: Register>(chip: Chip, items: &[Item]) -> Vec<(u64, u64)> {
    writes64_at(R::offset(chip).unwrap(), items)
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn subgroups_update_buffer_is_one_blit_of_eight_words() {
    let Some(dir) = parsnip_reference::reference_dir("turnip_blit_update_buffer") else {
        return;
    };
    for gpu in ["a660", "a740"] {
        let (mut replay, items) = loaded(&dir.join(format!("turnip/{gpu}/subgroup.rd.gz")));
        assert_eq!(nop(&replay, &items, &["CP_EXEC_CS"]), 1);
        replay.run_submit(0).unwrap();
        // turnip/README.md: the result buffer is 0x100027000, 2080 bytes,
        // poisoned with 0xdeadbeef; newref.c updates words 0..7 with
        // {0, 0, 0, ~0, 0, 0, 0, 0} before the dispatch.
        let result = words(&replay.read(0x1_0002_7000, 2080).unwrap());
        assert_eq!(result[..8], [0, 0, 0, !0, 0, 0, 0, 0], "{gpu}");
        assert!(result[8..].iter().all(|&w| w == 0xdead_beef), "{gpu}");
        println!("{gpu}: vkCmdUpdateBuffer's CP_BLIT wrote words 0..7 and nothing else");
    }
}

#[test]
fn storage_images_round_trip_through_turnips_tiled_layout() {
    let Some(dir) = parsnip_reference::reference_dir("turnip_blit_storage_image") else {
        return;
    };
    for gpu in ["a660", "a740"] {
        let (mut replay, items) = loaded(&dir.join(format!("turnip/{gpu}/storage_image.rd.gz")));
        let chip = replay.gpu().info().chip;
        let mem = replay.gpu().memory().clone();
        // Four CP_BLITs: the two uploads into inU and inC (TILE6_3; UBWC on
        // a740), the dispatch, and the two copies of outU and outC into the
        // result buffer. With the dispatch gone and the copies pointed at
        // inU and inC, the result is the uploaded data again, having gone
        // through the tiled layout both ways.
        // CP_CCHE_INVALIDATE (a7xx, after the dispatch) only invalidates a
        // cache; the model's CP does not take it yet.
        assert_eq!(nop(&replay, &items, &["CP_EXEC_CS"]), 1);
        nop(&replay, &items, &["CP_CCHE_INVALIDATE"]);
        let sources = writes64::<regs::SpPs2dSrc>(chip, &items);
        let dests = writes64::<regs::Rb2dDst>(chip, &items);
        assert_eq!((sources.len(), dests.len()), (4, 4), "{gpu}");
        for copy in 0..2 {
            let image = dests[copy].0;
            let at = sources[2 + copy].1;
            mem.write_u32(at, image as u32).unwrap();
            mem.write_u32(at + 4, (image >> 32) as u32).unwrap();
        }
        let flag_sources = writes64::<regs::SpPs2dSrcFlags>(chip, &items);
        let flag_dests = writes64::<regs::Rb2dDstFlags>(chip, &items);
        if gpu == "a740" {
            assert_eq!((flag_sources.len(), flag_dests.len()), (2, 2));
            for copy in 0..2 {
                let flags = flag_dests[copy].0;
                let at = flag_sources[copy].1;
                mem.write_u32(at, flags as u32).unwrap();
                mem.write_u32(at + 4, (flags >> 32) as u32).unwrap();
            }
        }
        let upload_u = replay.read(sources[0].0, 1024).unwrap();
        let upload_c = replay.read(sources[1].0, 1024).unwrap();
        // newref.c: the r32ui data has its top byte clear.
        assert!(words(&upload_u).iter().all(|w| w >> 24 == 0));
        replay.run_submit(0).unwrap();
        // turnip/README.md: the result buffer is 0x100028000, outU's 256
        // words then outC's.
        let result = replay.read(0x1_0002_8000, 2048).unwrap();
        assert_eq!(&result[..1024], &upload_u[..], "{gpu}: the R32_UINT image");
        assert_eq!(&result[1024..], &upload_c[..], "{gpu}: the RGBA8 image");

        // The texture unit finds the same texels through the shader's
        // descriptors (SP_CS_BINDLESS_BASE[0], 64-byte slots): the uploads
        // put them where the descriptors say they are.
        let base = regs::SpCsBindlessBaseDescriptor::offset(chip, 0).unwrap();
        let set = writes64_at(base, &items)[0].0 & !0x3f;
        let info = replay.gpu().info();
        let mut checked = 0;
        for slot in 0..16u64 {
            // The set's buffer may end before 16 slots.
            let Ok(raw) = mem.read_dwords(set + 64 * slot, 16) else {
                break;
            };
            let raw: [u32; 16] = raw.try_into().unwrap();
            let image = TextureImage::from_descriptor(&raw, chip);
            let Some(upload) = [(dests[0].0, &upload_u), (dests[1].0, &upload_c)]
                .into_iter()
                .find(|(base, _)| *base == image.base)
                .map(|(_, u)| u)
            else {
                continue;
            };
            let surface = image.surface(0, 0, info).unwrap();
            let mut texel = [0u8; 4];
            for i in 0..256u32 {
                surface
                    .read_element(&mem, i % 16, i / 16, 0, &mut texel)
                    .unwrap();
                assert_eq!(texel[..], upload[4 * i as usize..][..4], "{gpu} texel {i}");
            }
            checked += 1;
        }
        assert!(
            checked >= 2,
            "{gpu}: found {checked} descriptors of the inputs"
        );
        println!(
            "{gpu}: 2x 1024 bytes through TILE6_3{} and back; {checked} descriptors agree",
            if gpu == "a740" { " with UBWC" } else { "" }
        );
    }
}

/// The packets a sysmem render pass has that are not blits: left out, the
/// colour attachment keeps the colour the pass's CP_BLIT clear wrote.
const DRAWING: [&str; 6] = [
    "CP_SET_VISIBILITY_OVERRIDE",
    "CP_DRAW_INDX_OFFSET",
    "CP_DRAW_INDIRECT",
    "CP_DRAW_INDX_INDIRECT",
    "CP_DRAW_INDIRECT_MULTI",
    "CP_DRAW_AUTO",
];

/// a7xx's marker after a group of concurrent resolves: ordering in the
/// CCU only, but the model's CP does not take it yet.
const RESOLVE_GROUP: [&str; 1] = ["CCU_END_RESOLVE_GROUP"];

/// Replays a sysmem graphics trace without its draws; returns the replay.
fn without_draws(trace: &Path) -> Replay {
    let (mut replay, items) = loaded(trace);
    assert!(nop_events(&replay, &items, &DRAWING, &RESOLVE_GROUP) > 0);
    replay.run_submit(0).unwrap();
    replay
}

#[test]
fn a_cleared_attachment_copies_out_as_its_clear_colour() {
    let Some(dir) = parsnip_reference::reference_dir("turnip_blit_clear_copy") else {
        return;
    };
    // The triangle's clear colour (0.1, 0.2, 0.3, 1) as lavapipe stored it:
    // the top-left pixel of expected/triangle_lvp.ppm (a binary PPM), which
    // the triangle does not cover; alpha 1.0.
    let ppm = std::fs::read(dir.join("turnip/expected/triangle_lvp.ppm")).unwrap();
    let header = b"P6\n64 64\n255\n";
    assert_eq!(&ppm[..header.len()], header);
    let corner = &ppm[header.len()..header.len() + 3];
    let triangle = [corner[0], corner[1], corner[2], 255];
    // The others: newref.c's begin_pass colours, as UNORM8 (0.25 * 255 =
    // 63.75 rounds to 64), alpha 1.0; writemask_logicop's is the README's
    // (0x33, 0x66, 0x99, 0xff).
    let black = [0, 0, 0, 255];
    let target = 96 * 64 * 4;
    let cases = [
        ("triangle_sysmem", 0x1_0002_b000u64, 64 * 64 * 4, triangle),
        ("lines_sysmem", 0x1_0002_f000, target, black),
        ("points_sysmem", 0x1_0002_f000, target, [64, 64, 64, 255]),
        ("strip_restart_sysmem", 0x1_0002_f000, target, black),
        (
            "writemask_logicop_sysmem",
            0x1_0002_f000,
            target,
            [0x33, 0x66, 0x99, 0xff],
        ),
        ("instanced_attrs_sysmem", 0x1_0002_f000, target, black),
        ("mip_lod_sysmem", 0x1_0002_f000, target, black),
    ];
    for gpu in ["a660", "a740"] {
        for (name, result, size, colour) in cases {
            let replay = without_draws(&dir.join(format!("turnip/{gpu}/{name}.rd.gz")));
            let bytes = replay.read(result, size).unwrap();
            let wrong = bytes.chunks_exact(4).filter(|p| *p != colour).count();
            assert_eq!(
                wrong, 0,
                "{gpu} {name}: {wrong} pixels differ from {colour:?}"
            );
            println!(
                "{gpu} {name}: {} pixels cleared in TILE6_3 + UBWC and copied out as {colour:02x?}",
                bytes.len() / 4
            );
        }
    }
}

#[test]
fn mip_uploads_fill_the_levels_the_sampler_reads() {
    let Some(dir) = parsnip_reference::reference_dir("turnip_blit_mip_uploads") else {
        return;
    };
    // newref.c's mip_lod: level k of the 8x8 RGBA8 texture is a checkerboard
    // of two colours, the first where x + y is even.
    let rgba = |r: u8, g: u8, b: u8| [r, g, b, 255];
    let colours = [
        [rgba(255, 0, 0), rgba(255, 255, 255)],
        [rgba(0, 255, 0), rgba(0, 0, 0)],
        [rgba(0, 0, 255), rgba(255, 255, 0)],
        [rgba(255, 0, 255), rgba(0, 255, 255)],
    ];
    for gpu in ["a660", "a740"] {
        let trace = dir.join(format!("turnip/{gpu}/mip_lod_sysmem"));
        let replay = without_draws(&trace.with_extension("rd.gz"));
        let chip = replay.gpu().info().chip;
        // The fragment shader's texture: slot 0 of the descriptor set at
        // SP_BINDLESS_BASE[0], as freedreno's decoder printed it.
        let log = std::fs::read_to_string(trace.with_extension("log")).unwrap();
        let set = log
            .lines()
            .find_map(|l| {
                let l = l.trim();
                l.strip_prefix("SP_BINDLESS_BASE[0].DESCRIPTOR: {")?
                    .split("ADDR = ")
                    .nth(1)
            })
            .and_then(|a| {
                u64::from_str_radix(a.trim_end_matches(" }").trim_start_matches("0x"), 16).ok()
            })
            .unwrap();
        let mem = replay.gpu().memory();
        let raw: [u32; 16] = mem.read_dwords(set, 16).unwrap().try_into().unwrap();
        let image = TextureImage::from_descriptor(&raw, chip);
        assert_eq!((image.width, image.height, image.levels), (8, 8, 4));
        for (level, pair) in colours.iter().enumerate() {
            let surface = image.surface(level as u32, 0, replay.gpu().info()).unwrap();
            let size = 8 >> level;
            for y in 0..size {
                for x in 0..size {
                    let mut texel = [0u8; 4];
                    surface.read_element(mem, x, y, 0, &mut texel).unwrap();
                    assert_eq!(
                        texel,
                        pair[((x + y) & 1) as usize],
                        "{gpu} level {level} ({x}, {y})"
                    );
                }
            }
        }
        println!("{gpu}: 4 levels uploaded by CP_BLIT where the texture descriptor finds them");
    }
}
