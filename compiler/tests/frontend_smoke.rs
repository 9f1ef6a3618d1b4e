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
fn print_optimized_uint_bits() {
    let words = common::spirv("local_array_dynamic");
    let opts = FrontEndOptions {
        entry: "main".into(),
        ..Default::default()
    };
    let mut shader = translate(&words, &opts).unwrap();
    let layout = parsnip_compiler::descriptor_layout::DescriptorLayout::packed(&[
        (
            0,
            0,
            parsnip_compiler::descriptor_layout::DescriptorKind::StorageBuffer,
            1,
        ),
        (
            0,
            1,
            parsnip_compiler::descriptor_layout::DescriptorKind::StorageBuffer,
            1,
        ),
    ]);
    parsnip_compiler::passes::run_all(&mut shader, &layout, &mut |_, _| {}).unwrap();
    println!("{shader}");
}
