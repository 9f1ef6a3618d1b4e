mod common;
use parsnip_compiler::ir::interp::{self, BufferBinding, Dispatch};
use parsnip_compiler::spirv::{translate, FrontEndOptions};

#[test]
fn double_translates_and_runs() {
    let words = common::spirv("double");
    let opts = FrontEndOptions {
        entry: "main".into(),
        ..Default::default()
    };
    let shader = translate(&words, &opts).unwrap();
    println!("{shader}");
    let mut d = Dispatch {
        groups: [4, 1, 1],
        buffers: vec![BufferBinding {
            set: 0,
            binding: 0,
            element: 0,
            data: vec![0xef; 1024],
            format: None,
        }],
        ..Default::default()
    };
    interp::run(&shader, &mut d).unwrap();
    let out = common::bytes_to_u32s(&d.buffers[0].data);
    for (i, v) in out.iter().enumerate() {
        assert_eq!(*v, 2 * i as u32);
    }
}

#[test]
fn dynamically_indexed_locals_go_to_scratch_and_constant_ones_to_ssa() {
    use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
    use parsnip_compiler::ir::{Op, Space};
    let layout = DescriptorLayout::packed(&[
        (0, 0, DescriptorKind::StorageBuffer, 1),
        (0, 1, DescriptorKind::StorageBuffer, 1),
    ]);
    let opts = FrontEndOptions {
        entry: "main".into(),
        ..Default::default()
    };
    let local_accesses = |s: &parsnip_compiler::ir::Shader, space: Space| {
        s.blocks
            .iter()
            .flat_map(|b| &b.instrs)
            .filter(|i| {
                matches!(&i.op, Op::Load(l) if l.space == space)
                    || matches!(&i.op, Op::Store(st) if st.space == space)
            })
            .count()
    };
    // uint t[16] indexed by loop counters: 16 slots of 4 bytes in scratch.
    let mut shader = translate(&common::spirv("local_array_dynamic"), &opts).unwrap();
    parsnip_compiler::passes::run_all(&mut shader, &layout, &mut |_, _| {}).unwrap();
    assert_eq!(shader.scratch_bytes, 64, "{shader}");
    assert!(local_accesses(&shader, Space::Scratch) > 0);
    // vec4 v[3] indexed by constants: no memory at all.
    let mut shader = translate(&common::spirv("local_array_const"), &opts).unwrap();
    parsnip_compiler::passes::run_all(&mut shader, &layout, &mut |_, _| {}).unwrap();
    assert_eq!(shader.scratch_bytes, 0, "{shader}");
    assert_eq!(local_accesses(&shader, Space::Scratch), 0);
    assert!(shader.locals.is_empty());
}
