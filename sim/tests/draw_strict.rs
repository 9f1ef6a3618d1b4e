//! Strict mode in the graphics units: state a draw consumes that nothing
//! programmed is reported by the unit that read it, naming the register.
//! Each test first draws with the state complete (it renders), then
//! removes one register's writes from the same stream: the kinds of stale
//! state that corrupt rendering on hardware.

mod common;

use common::scene::{rgba, vertex, Scene, COLOUR_FS};
use common::GPUS;
use parsnip_registers::enums::{A3xxRbBlendOpcode, AdrenoRbBlendFactor, PcDiPrimtype};
use parsnip_registers::regs::{self, ArrayRegister};

const SIZE: (u32, u32) = (8, 8);

fn scene(gpu: &str) -> Scene {
    let red = [1.0, 0.0, 0.0, 1.0];
    let tri = [
        vertex(SIZE, 0.0, 0.0, 0.5, red, [0.0; 4]),
        vertex(SIZE, 8.0, 0.0, 0.5, red, [0.0; 4]),
        vertex(SIZE, 0.0, 8.0, 0.5, red, [0.0; 4]),
    ];
    Scene::new(gpu, SIZE, &tri, COLOUR_FS)
}

/// Draws `scene`'s triangle, first whole (pixel (1, 1) turns red), then
/// on a fresh context without the writes of entry `index` of `R`; returns
/// the error.
fn without<R: ArrayRegister>(gpu: &str, mut scene: Scene, index: u32) -> String {
    let s = scene.stream(PcDiPrimtype::DI_PT_TRILIST, 3);
    let img = scene.run(&s);
    assert_eq!(rgba(&img, SIZE.0, 1, 1), [255, 0, 0, 255], "{gpu}");
    let offset = R::offset(scene.rig.chip(), index).unwrap();
    let stripped = s.without_writes(offset);
    assert!(
        stripped.len() < s.len(),
        "{gpu}: the stream writes {}",
        R::NAME
    );
    let mut fresh = self::scene(gpu);
    fresh.rig.run(&stripped).unwrap_err().to_string()
}

#[test]
fn stale_varying_interpolation_state_is_reported_by_the_vpc() {
    // The varyings are at locations 4..11, whose interpolation modes are
    // VPC_VARYING_INTERP_MODE[0].
    for gpu in GPUS {
        let err = without::<regs::VpcVaryingInterpMode>(gpu, scene(gpu), 0);
        println!("{gpu}: {err}");
        assert!(
            err.starts_with("VPC: strict mode: VPC_VARYING_INTERP[0].MODE"),
            "{gpu}: {err}"
        );
        assert!(err.contains("never written"), "{gpu}: {err}");
    }
}

#[test]
fn a_vertex_fetch_with_a_stale_stride_is_reported_by_the_vfd() {
    // The scene's three attributes read fetch slots 0, 1 and 2: slot 1's
    // stride goes missing.
    for gpu in GPUS {
        let err = without::<regs::VfdFetchStride>(gpu, scene(gpu), 1);
        println!("{gpu}: {err}");
        assert!(
            err.starts_with("VFD: strict mode: VFD_FETCH[0x1].STRIDE"),
            "{gpu}: {err}"
        );
    }
}

#[test]
fn a_blend_enable_left_over_is_reported_by_the_rb() {
    // Blending on for target 0 (RB_MRT[0].CONTROL.BLEND), its equation
    // RB_MRT[0].BLEND_CONTROL then never programmed.
    for gpu in GPUS {
        let mut s = scene(gpu);
        let add = (
            A3xxRbBlendOpcode::BLEND_DST_PLUS_SRC,
            AdrenoRbBlendFactor::FACTOR_ONE,
            AdrenoRbBlendFactor::FACTOR_ZERO,
        );
        s.pipeline.targets[0].blend = Some([add, add]);
        let err = without::<regs::RbMrtBlendControl>(gpu, s, 0);
        println!("{gpu}: {err}");
        assert!(
            err.starts_with("RB: strict mode: RB_MRT[0].BLEND_CONTROL"),
            "{gpu}: {err}"
        );
    }
}
