//! Memory through descriptors: UBO loads (`ldc`, `ldc.k`), storage buffers
//! and images (`ldib.b`, `stib.b`, `atomic.b.*`, `resinfo.b`), texel
//! fetches and size queries (`isam`, `getsize`), bindless and not, with the
//! descriptors built through the register database's layouts; and the
//! subgroup operations of cat5 (`brcst.active`, `quad_shuffle`).

mod shader_rig;

use parsnip_isa::IsaGen;
use parsnip_registers::descriptors::a6xx::TextureDescriptor;
use parsnip_registers::descriptors::UboDescriptor;
use parsnip_registers::enums::{A6xxFormat, A6xxTexType};
use parsnip_sim::compute_dispatch::DescriptorSource;
use shader_rig::*;

fn ubo_descriptor(iova: u64, bytes: u32) -> Vec<u32> {
    UboDescriptor {
        base_lo: iova as u32,
        base_hi: (iova >> 32) as u32,
        size: bytes.div_ceil(16),
    }
    .to_raw()
    .to_vec()
}

/// A storage buffer descriptor as Turnip writes them: 16-bit texels.
fn buffer_descriptor(iova: u64, bytes: u32) -> [u32; 16] {
    TextureDescriptor {
        fmt: A6xxFormat::FMT6_16_UINT,
        width: (bytes / 2) & 0x7fff,
        height: (bytes / 2) >> 15,
        structsizetexels: 1,
        r#type: A6xxTexType::A6XX_TEX_BUFFER,
        base_lo: iova as u32,
        base_hi: (iova >> 32) as u32,
        ..Default::default()
    }
    .to_raw()
}

fn image_descriptor(iova: u64, fmt: A6xxFormat, w: u32, h: u32, pitch: u32) -> [u32; 16] {
    TextureDescriptor {
        fmt,
        width: w,
        height: h,
        depth: 1,
        pitch,
        r#type: A6xxTexType::A6XX_TEX_2D,
        base_lo: iova as u32,
        base_hi: (iova >> 32) as u32,
        ..Default::default()
    }
    .to_raw()
}

#[test]
fn ldc_reads_ubos_by_vec4_and_component_and_zero_past_the_end() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let data: Vec<u32> = (100..116).collect();
        let ubo = rig.words(&data);
        let out = rig.poisoned(8);
        // UBO 1 is 48 bytes (3 vec4s) of the 64 written.
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, 1
            ldc.offset2.2.imm r5.x, r4.x, 1
            stg.u32 g[r2.x], r5.x, 2
            mov.u32u32 r4.x, 2
            ldc.offset3.1.imm r5.x, r4.x, 1
            stg.u32 g[r2.x+8], r5.x, 1
            mov.u32u32 r4.x, 3
            ldc.offset0.1.imm r5.x, r4.x, 1
            stg.u32 g[r2.x+12], r5.x, 1
            ldc.offset0.2.imm r5.x, 0, 0
            stg.u32 g[r2.x+16], r5.x, 2
            end"
        ));
        let mut d = rig.dispatch(p);
        d.consts = address_consts(out, &[]);
        d.ubos = DescriptorSource::Loaded(vec![ubo_descriptor(ubo, 64), ubo_descriptor(ubo, 48)]);
        rig.run_ok(&d);
        assert_eq!(rig.read(out, 6), [106, 107, 111, 0, 100, 101], "{g}");
    }
}

#[test]
fn bindless_ldc_into_a_shared_register_and_ldc_k_into_consts() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let ubo = rig.words(&(0..16).map(|i| 500 + i).collect::<Vec<u32>>());
        let mut set = vec![0u32; 32];
        set[16..18].copy_from_slice(&ubo_descriptor(ubo, 64));
        let set = rig.words(&set);
        let out = rig.poisoned(64 * 2);
        let p = rig.program(&format!(
            "{PROLOGUE}
            ldc.u.offset1.3.imm.base2 r48.y, 1, 1
            mov.u32u32 r3.x, r48.z
            stg.u32 g[r2.x], r3.x, 1
            mova1 a1.x, 16
            ldc.2.k.imm.base2 c[a1.x], 2, 1
            mov.u32u32 r3.x, c5.y
            add.u r2.x, r2.x, 256
            stg.u32 g[r2.x], r3.x, 1
            end"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [64, 1, 1];
        d.consts = address_consts(out, &[]);
        d.bindless = vec![None, None, bindless_set(set)];
        rig.run_ok(&d);
        let r = rig.read(out, 128);
        // vec4 1 from component 1: 505, 506, 507 into r48.y..w.
        assert!(r[..64].iter().all(|&v| v == 506), "{g}: {:?}", &r[..4]);
        // vec4s 2..3 into c4..c5: c5.y is dword 13.
        assert!(r[64..].iter().all(|&v| v == 513), "{g}");
    }
}

#[test]
fn untyped_storage_buffer_access_counts_elements_of_its_type() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let buf = rig.words(&(0..32).collect::<Vec<u32>>());
        let out = rig.poisoned(64);
        // 32 fibers: each loads 2 dwords at element 2i (buffer of 64
        // bytes: fibers 8 and up read past the end and get 0), and stores
        // 1000 + i at element i of the second buffer through set 1.
        let out_desc = buffer_descriptor(out, 64 * 4);
        let p = rig.program(&format!(
            "{PROLOGUE}
            shl.b r4.x, r0.x, 1
            ldib.b.untyped.1d.u32.2.imm.base0 r5.x, r4.x, 0
            add.u r6.x, r5.x, r5.y
            add.u r6.x, r6.x, 1000
            stib.b.untyped.1d.u32.1.imm.base1 r6.x, r0.x, 0
            end"
        ));
        let sets = [rig.words(&buffer_descriptor(buf, 64)), rig.words(&out_desc)];
        let mut d = rig.dispatch(p);
        d.local_size = [32, 1, 1];
        d.consts = address_consts(out, &[]);
        d.bindless = vec![bindless_set(sets[0]), bindless_set(sets[1])];
        rig.run_ok(&d);
        let r = rig.read(out, 33);
        for i in 0..32u32 {
            let want = if i < 8 { 1000 + 4 * i + 1 } else { 1000 };
            assert_eq!(r[i as usize], want, "{g}: fiber {i}");
        }
        assert_eq!(r[32], 0xdead_beef, "{g}");
    }
}

#[test]
fn stores_past_a_storage_buffer_are_dropped() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let out = rig.poisoned(16);
        let p = rig.program(
            "mov.u32u32 r1.x, 7\n\
             stib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0\n\
             end\n",
        );
        let mut d = rig.dispatch(p);
        d.local_size = [16, 1, 1];
        d.ibos = DescriptorSource::Memory {
            iova: rig.words(&buffer_descriptor(out, 32)),
            count: 1,
        };
        rig.run_ok(&d);
        let mut want = vec![7; 8];
        want.extend([0xdead_beef; 8]);
        assert_eq!(rig.read(out, 16), want, "{g}");
    }
}

#[test]
fn typed_image_stores_and_loads_convert_through_the_format() {
    for g in GENS {
        let mut rig = Rig::new(g);
        // A 4x2 RGBA8 image with rows 32 bytes apart.
        let img = rig.words(&[0; 16]);
        let out = rig.poisoned(8);
        let desc = image_descriptor(img, A6xxFormat::FMT6_8_8_8_8_UNORM, 4, 2, 32);
        // Fiber (x, y) stores (x/3, y, 0.5, 1.0) at (x, y), then loads the
        // texel of (3 - x, 1 - y) after a barrier.
        let p = rig.program(
            "cov.u32f32 r4.x, r0.x
            mul.f r4.x, r4.x, c0.x
            cov.u32f32 r4.y, r0.y
            mov.f32f32 r4.z, (0.500000)
            mov.f32f32 r4.w, (1.000000)
            stib.b.typed.2d.f32.4.imm r4.x, r0.x, 0
            bar
            sub.u r5.x, 3, r0.x
            sub.u r5.y, 1, r0.y
            ldib.b.typed.2d.f32.4.imm r6.x, r5.x, 0
            shl.b r7.x, r0.y, 2
            add.u r7.x, r7.x, r0.x
            shl.b r7.x, r7.x, 2
            add.u r7.x, r7.x, c1.x
            mov.u32u32 r7.y, c1.y
            mul.f r6.x, r6.x, c0.y
            cov.f32u32 (even)r6.x, r6.x
            stg.u32 g[r7.x], r6.x, 1
            end",
        );
        let mut d = rig.dispatch(p);
        d.local_size = [4, 2, 1];
        d.consts = vec![
            f(1.0 / 3.0),
            f(255.0),
            0,
            0,
            out as u32,
            (out >> 32) as u32,
            0,
            0,
        ];
        d.ibos = DescriptorSource::Loaded(vec![desc.to_vec()]);
        rig.run_ok(&d);
        let texels = rig.read(img, 16);
        // Texel (x, y) at byte 32y + 4x: UNORM8 of (x*85/255, y, 0.5, 1).
        for y in 0..2usize {
            for x in 0..4usize {
                let t = texels[8 * y + x];
                let want = (85 * x as u32) | (255 * y as u32) << 8 | 128 << 16 | 255 << 24;
                assert_eq!(t, want, "{g}: texel ({x}, {y})");
            }
        }
        let r = rig.read(out, 8);
        for (i, &v) in r.iter().enumerate() {
            let (x, y) = (i % 4, i / 4);
            assert_eq!(v as usize, 85 * (3 - x), "{g}: fiber ({x}, {y}) read back");
        }
    }
}

#[test]
fn storage_atomics_return_the_old_value_and_take_their_operands_after_it() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let buf = rig.words(&[5, 9, 0, 0]);
        let out = rig.poisoned(2);
        // reg.x receives the old value, reg.y is the operand and, for
        // cmpxchg, reg.z the comparand.
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.y, 7
            mov.u32u32 r5.x, 0
            atomic.b.add.untyped.1d.u32.1.imm r4.x, r5.x, 0
            stg.u32 g[r2.x], r4.x, 1
            mov.u32u32 r4.y, 100
            mov.u32u32 r4.z, 9
            mov.u32u32 r5.x, 1
            atomic.b.cmpxchg.untyped.1d.u32.1.imm r4.x, r5.x, 0
            stg.u32 g[r2.x+4], r4.x, 1
            end"
        ));
        let mut d = rig.dispatch(p);
        d.consts = address_consts(out, &[]);
        d.ibos = DescriptorSource::Loaded(vec![buffer_descriptor(buf, 16).to_vec()]);
        rig.run_ok(&d);
        assert_eq!(rig.read(out, 2), [5, 9], "{g}: old values");
        assert_eq!(rig.read(buf, 2), [12, 100], "{g}: new values");
    }
}

#[test]
fn resinfo_gives_sizes() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let out = rig.poisoned(6);
        let p = rig.program(&format!(
            "{PROLOGUE}
            resinfo.b.untyped.1d.u32.1.imm r4.x, 0
            stg.u32 g[r2.x], r4.x, 1
            resinfo.b.untyped.2d.u32.1.imm r4.x, 1
            stg.u32 g[r2.x+4], r4.x, 3
            end"
        ));
        let mut d = rig.dispatch(p);
        d.consts = address_consts(out, &[]);
        d.ibos = DescriptorSource::Loaded(vec![
            buffer_descriptor(0x1000, 0x2_0000).to_vec(),
            image_descriptor(0x1000, A6xxFormat::FMT6_32_UINT, 17, 9, 128).to_vec(),
        ]);
        rig.run_ok(&d);
        // 128 KiB as 16-bit texels: 65536 (WIDTH and HEIGHT together).
        assert_eq!(rig.read(out, 4), [65536, 17, 9, 1], "{g}");
    }
}

#[test]
fn texel_fetch_and_size_of_textures() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let texels: Vec<u32> = (0..16).map(|i| i * 0x0101_0101).collect();
        let img = rig.words(&texels);
        let out = rig.poisoned(64 + 4);
        // A 4x4 R32_UINT texture; fiber i fetches texel (i % 4, i / 4 % 4).
        let p = rig.program(&format!(
            "{PROLOGUE}
            and.b r4.x, r0.x, 3
            shr.b r4.y, r0.x, 2
            and.b r4.y, r4.y, 3
            isam (u32)(x)r3.x, r4.x, s#0, t#1
            stg.u32 g[r2.x], r3.x, 1
            mov.u32u32 r5.x, 0
            getsize (u32)(xyzw)r6.x, r5.x, t#1
            mov.u32u32 r2.x, c0.x
            stg.u32 g[r2.x+256], r6.x, 4
            end"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [64, 1, 1];
        d.consts = address_consts(out, &[]);
        d.textures = DescriptorSource::Loaded(vec![
            vec![],
            image_descriptor(img, A6xxFormat::FMT6_32_UINT, 4, 4, 16).to_vec(),
        ]);
        rig.run_ok(&d);
        let r = rig.read(out, 68);
        for i in 0..64usize {
            assert_eq!(r[i], texels[i % 16], "{g}: fiber {i}");
        }
        assert_eq!(&r[64..], &[4, 4, 1, 1], "{g}");
    }
}

#[test]
fn brcst_active_and_quad_shuffles() {
    for g in GENS {
        let body = "
            mul.u24 r4.x, r0.x, 10
            mov.u32u32 r3.x, 7
            brcst.active.w8 (u32)(x)r3.x, r4.x
            stg.u32 g[r2.x], r3.x, 1
            quad_shuffle.diag (u32)(x)r3.x, r4.x
            add.u r2.x, r2.x, 256
            stg.u32 g[r2.x], r3.x, 1
            mov.u32u32 r5.x, 2
            quad_shuffle.brcst (u32)(x)r3.x, r4.x, r5.x
            add.u r2.x, r2.x, 256
            stg.u32 g[r2.x], r3.x, 1
        ";
        let (r, _) = run_group(g, 64, body, &[], 3 * 64);
        for i in 0..64usize {
            // Clusters of 8: fibers 4..7 get fiber 3's value.
            let want = if i % 8 >= 4 { 10 * (i - i % 8 + 3) } else { 7 };
            assert_eq!(r[i] as usize, want, "{g}: brcst, fiber {i}");
            assert_eq!(r[64 + i] as usize, 10 * (i ^ 3), "{g}: diag, fiber {i}");
            assert_eq!(
                r[128 + i] as usize,
                10 * (i & !3 | 2),
                "{g}: quad broadcast, fiber {i}"
            );
        }
    }
}

#[test]
fn a_missing_descriptor_is_an_error_naming_it() {
    let mut rig = Rig::new(IsaGen::A6xx);
    let p = rig.program("ldib.b.untyped.1d.u32.1.imm.base3 r1.x, r0.x, 0\nend\n");
    let d = rig.dispatch(p);
    let (message, at) = rig.run_error(&d);
    let at = at.expect("the error names an instruction");
    assert!(
        message.contains("SP_CS_BINDLESS_BASE[3] was not programmed"),
        "{message}"
    );
    assert_eq!(at.pc, 0);
}

#[test]
fn bindless_textures_through_a1_differ_by_generation() {
    // Texture 2 of bindless set 0, a 4x1 R32_UINT image. On a6xx the
    // instruction names the sampler and a1.x holds the texture (shifted
    // left by 3, as Mesa writes it); on a7xx the instruction names the
    // texture and a1.x the sampler.
    for (g, fetch) in [
        (
            IsaGen::A6xx,
            "mova1 a1.x, 16\nisam.base0 (u32)(x)r3.x, r4.x, s#0, a1.x",
        ),
        (
            IsaGen::A7xx,
            "mova1 a1.x, 0\nisam.base0 (u32)(x)r3.x, r4.x, t#2, a1.x",
        ),
    ] {
        let mut rig = Rig::new(g);
        let img = rig.words(&[10, 20, 30, 40]);
        let mut set = vec![0u32; 48];
        set[32..].copy_from_slice(&image_descriptor(img, A6xxFormat::FMT6_32_UINT, 4, 1, 16));
        let set = rig.words(&set);
        let out = rig.poisoned(4);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, r0.x
            mov.u32u32 r4.y, 0
            {fetch}
            {STORE_R3X}"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [4, 1, 1];
        d.consts = address_consts(out, &[]);
        d.bindless = vec![bindless_set(set)];
        rig.run_ok(&d);
        assert_eq!(rig.read(out, 4), [10, 20, 30, 40], "{g}");
    }
}

#[test]
fn texel_fetch_and_getbuf_on_a_buffer_texture() {
    // A bindless buffer texture of 40000 R8G8B8A8_UINT texels (more than getsize's
    // 0x7ff0 per dimension: the count spreads over WIDTH and HEIGHT), as Turnip writes
    // a uniform texel buffer view. Fiber i fetches texel 1000 * i as ir3 does from a
    // buffer, x = index and y = 0, and reads the size with getbuf (Mesa's emit_tex_txs).
    const TEXELS: u32 = 40_000;
    for g in GENS {
        let mut rig = Rig::new(g);
        let texels: Vec<u32> = (0..TEXELS).map(|i| i.wrapping_mul(0x0301_0201)).collect();
        let view = rig.words(&texels);
        let desc = TextureDescriptor {
            fmt: A6xxFormat::FMT6_8_8_8_8_UINT,
            width: TEXELS & 0x7fff,
            height: TEXELS >> 15,
            structsizetexels: 1,
            r#type: A6xxTexType::A6XX_TEX_BUFFER,
            base_lo: view as u32,
            base_hi: (view >> 32) as u32,
            ..Default::default()
        }
        .to_raw();
        let set = rig.words(&desc);
        let out = rig.poisoned(5 * 32);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, 1000
            mull.u r4.x, r0.x, r4.x
            mov.u32u32 r4.y, 0
            isam.base0 (u32)(xyzw)r5.x, r4.x, s#0, t#0
            getbuf.base0 (u32)(x)r6.x, t#0
            add.u r7.x, r2.x, 512
            mov.u32u32 r7.y, r2.y
            shl.b r0.w, r0.x, 4
            add.u r2.x, c0.x, r0.w
            (sy)stg.u32 g[r2.x], r5.x, 4
            stg.u32 g[r7.x], r6.x, 1
            end"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [32, 1, 1];
        d.consts = address_consts(out, &[]);
        d.bindless = vec![bindless_set(set)];
        rig.run_ok(&d);
        let r = rig.read(out, 5 * 32);
        for i in 0..32usize {
            let t = texels[1000 * i];
            let want = [t & 0xff, t >> 8 & 0xff, t >> 16 & 0xff, t >> 24];
            assert_eq!(&r[4 * i..4 * i + 4], &want, "{g}: fiber {i}");
            assert_eq!(r[128 + i], TEXELS, "{g}: fiber {i}");
        }
    }
}

#[test]
fn isam_v_loads_vectors_of_the_instructions_type_from_any_descriptor_mode() {
    // A 40-byte buffer of words 100..110 behind Turnip's 16-bit-texel
    // storage descriptor (20 texels). Fiber i loads (xyzw) from element
    // 2i + 1 (coordinate 2i, immediate offset 1) as u32: words 2i+1..2i+4,
    // 0 from word 10 on. The same load through a direct texture slot,
    // bindless with an immediate slot, and bindless with a1.x naming it
    // (the texture on a6xx, the sampler on a7xx, so the other is in the
    // instruction) must all read the same.
    for g in GENS {
        let forms = [
            "isam.v (u32)(xyzw)r5.x, r4.x+1, s#0, t#1",
            "isam.v.base0 (u32)(xyzw)r5.x, r4.x+1, s#0, t#1",
            match g {
                IsaGen::A6xx => "mova1 a1.x, 8\nisam.v.base0 (u32)(xyzw)r5.x, r4.x+1, s#0, a1.x",
                IsaGen::A7xx => "mova1 a1.x, 0\nisam.v.base0 (u32)(xyzw)r5.x, r4.x+1, t#1, a1.x",
            },
        ];
        for form in forms {
            let mut rig = Rig::new(g);
            let words: Vec<u32> = (100..110).collect();
            let buf = rig.words(&words);
            let desc = buffer_descriptor(buf, 40);
            let mut set = vec![0u32; 32];
            set[16..].copy_from_slice(&desc);
            let set = rig.words(&set);
            let out = rig.poisoned(4 * 8);
            let p = rig.program(&format!(
                "{PROLOGUE}
                shl.b r4.x, r0.x, 1
                {form}
                shl.b r0.w, r0.x, 4
                add.u r2.x, c0.x, r0.w
                (sy)stg.u32 g[r2.x], r5.x, 4
                end"
            ));
            let mut d = rig.dispatch(p);
            d.local_size = [8, 1, 1];
            d.consts = address_consts(out, &[]);
            d.textures = DescriptorSource::Loaded(vec![vec![], desc.to_vec()]);
            d.bindless = vec![bindless_set(set)];
            rig.run_ok(&d);
            let r = rig.read(out, 4 * 8);
            for i in 0..8usize {
                for c in 0..4 {
                    let word = 2 * i + 1 + c;
                    let want = if word < 10 { 100 + word as u32 } else { 0 };
                    assert_eq!(r[4 * i + c], want, "{g} `{form}`: fiber {i}, component {c}");
                }
            }
        }
    }
}

#[test]
fn isam_v_of_16_bit_elements_fills_half_registers() {
    // u16 elements 0x1111 * (k + 1), k = 0..8, in a 16-byte buffer; fiber
    // i loads (xy) from element i into hr5.x/hr5.y, widened to store.
    for g in GENS {
        let mut rig = Rig::new(g);
        let halves: Vec<u32> = (0..4)
            .map(|k| (0x1111 * (2 * k + 1)) | (0x1111 * (2 * k + 2)) << 16)
            .collect();
        let buf = rig.words(&halves);
        let set = rig.words(&buffer_descriptor(buf, 16));
        let out = rig.poisoned(2 * 8);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, r0.x
            isam.v.base0 (u16)(xy)hr5.x, r4.x, s#0, t#0
            shl.b r0.w, r0.x, 3
            add.u r2.x, c0.x, r0.w
            (sy)cov.u16u32 r6.x, hr5.x
            cov.u16u32 r6.y, hr5.y
            stg.u32 g[r2.x], r6.x, 2
            end"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [8, 1, 1];
        d.consts = address_consts(out, &[]);
        d.bindless = vec![bindless_set(set)];
        rig.run_ok(&d);
        let r = rig.read(out, 16);
        for i in 0..8usize {
            for c in 0..2 {
                let e = i + c;
                let want = if e < 8 { 0x1111 * (e as u32 + 1) } else { 0 };
                assert_eq!(r[2 * i + c], want, "{g}: fiber {i}, component {c}");
            }
        }
    }
}

#[test]
fn isam_marked_1d_still_takes_x_and_y() {
    // Turnip's 2D storage-image loads carry `.1d` (bit 18 clear): the fetch
    // reads texel (x, y) of a 4x4 R32_UINT image, not row 0.
    for g in GENS {
        let mut rig = Rig::new(g);
        let texels: Vec<u32> = (0..16).map(|i| 1000 + i).collect();
        let img = rig.words(&texels);
        let out = rig.poisoned(16);
        let p = rig.program(&format!(
            "{PROLOGUE}
            and.b r4.x, r0.x, 3
            shr.b r4.y, r0.x, 2
            isam.1d (u32)(x)r3.x, r4.x, s#0, t#0
            (sy)stg.u32 g[r2.x], r3.x, 1
            end"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [16, 1, 1];
        d.consts = address_consts(out, &[]);
        d.textures = DescriptorSource::Loaded(vec![image_descriptor(
            img,
            A6xxFormat::FMT6_32_UINT,
            4,
            4,
            16,
        )
        .to_vec()]);
        rig.run_ok(&d);
        assert_eq!(rig.read(out, 16), texels, "{g}");
    }
}
