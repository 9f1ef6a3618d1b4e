//! Linking vertex shader outputs to fragment shader inputs, checked against the layout
//! Turnip programs for the same pair (reference/turnip/a660/points_sysmem.log).

use parsnip_compiler::stage_info::{
    FragmentInfo, FragmentInput, Interpolation, RegId, Sampling, ScalarKind, VaryingOutput,
    VaryingSlot, VertexInfo,
};
use parsnip_compiler::varying_linkage::{link, LinkedOutput};

fn output(slot: VaryingSlot, reg: RegId, mask: u8) -> VaryingOutput {
    VaryingOutput { slot, reg, mask }
}

fn input(
    location: u32,
    component: u8,
    components: u8,
    interpolation: Interpolation,
    inloc: u32,
) -> FragmentInput {
    FragmentInput {
        location,
        component,
        components,
        interpolation,
        sampling: Sampling::Center,
        kind: ScalarKind::Float,
        inloc,
    }
}

/// points.vert / flat.frag: SP_VS_OUT[0] = {A: r1.y 0xf, B: r0.x 0xf}, SP_VS_OUT[1].A =
/// r1.x 0x1, OUTLOC 0, 4, 8; VPC_VS_PACK {STRIDE_IN_VPC 9, POSITIONLOC 4, PSIZELOC 8};
/// VPC_VAR[0].DISABLE 0xfffffff0; VPC_VARYING_INTERP[0] 0x55 (four flat locations);
/// VPC_CNTL_0.NUMNONPOSVAR 4.
#[test]
fn points_pair_links_as_turnip_lays_it_out() {
    let vs = VertexInfo {
        outputs: vec![
            output(VaryingSlot::Position, RegId::new(0, 0), 0xf),
            output(VaryingSlot::PointSize, RegId::new(1, 0), 0x1),
            output(VaryingSlot::Location(0), RegId::new(1, 1), 0xf),
        ],
        position_reg: Some(RegId::new(0, 0)),
        point_size_reg: Some(RegId::new(1, 0)),
        ..VertexInfo::default()
    };
    let fs = FragmentInfo {
        inputs: vec![input(0, 0, 4, Interpolation::Flat, 0)],
        ..FragmentInfo::default()
    };
    let l = link(&vs, &fs).unwrap();
    assert_eq!(
        l.outputs,
        vec![
            LinkedOutput {
                slot: VaryingSlot::Location(0),
                reg: RegId::new(1, 1),
                mask: 0xf,
                location: 0
            },
            LinkedOutput {
                slot: VaryingSlot::Position,
                reg: RegId::new(0, 0),
                mask: 0xf,
                location: 4
            },
            LinkedOutput {
                slot: VaryingSlot::PointSize,
                reg: RegId::new(1, 0),
                mask: 0x1,
                location: 8
            },
        ]
    );
    assert_eq!(l.stride, 9);
    assert_eq!(l.position_location, 4);
    assert_eq!(l.point_size_location, Some(8));
    assert_eq!(l.varying_locations, 4);
    assert_eq!(!l.enabled[0], 0xffff_fff0);
    assert_eq!(l.enabled[1..], [0, 0, 0]);
    assert_eq!(l.flat, [0xf, 0, 0, 0]);
    assert_eq!(l.clip_cull_locations, [None, None]);
}

/// An output the fragment shader does not read is dropped; a partly read one sends only
/// the components read, from the register of the first of them.
#[test]
fn unread_outputs_are_dropped_and_partial_reads_start_at_their_component() {
    let vs = VertexInfo {
        outputs: vec![
            output(VaryingSlot::Position, RegId::new(2, 0), 0xf),
            output(VaryingSlot::Location(1), RegId::new(0, 0), 0xf),
            output(VaryingSlot::Location(3), RegId::new(1, 0), 0x7),
        ],
        position_reg: Some(RegId::new(2, 0)),
        ..VertexInfo::default()
    };
    let fs = FragmentInfo {
        inputs: vec![input(3, 1, 2, Interpolation::Smooth, 0)],
        ..FragmentInfo::default()
    };
    let l = link(&vs, &fs).unwrap();
    assert_eq!(
        l.outputs,
        vec![
            LinkedOutput {
                slot: VaryingSlot::Location(3),
                reg: RegId::new(1, 1),
                mask: 0x3,
                location: 0
            },
            LinkedOutput {
                slot: VaryingSlot::Position,
                reg: RegId::new(2, 0),
                mask: 0xf,
                location: 2
            },
        ]
    );
    assert_eq!((l.stride, l.point_size_location), (6, None));
    assert_eq!((l.enabled[0], l.flat[0]), (0x3, 0));
}

/// Clip and cull distances follow the position (and point size) in groups of four.
#[test]
fn distances_follow_the_position() {
    let vs = VertexInfo {
        outputs: vec![
            output(VaryingSlot::Position, RegId::new(0, 0), 0xf),
            output(VaryingSlot::ClipCullDistance(0), RegId::new(1, 0), 0xf),
            output(VaryingSlot::ClipCullDistance(1), RegId::new(2, 0), 0x1),
        ],
        position_reg: Some(RegId::new(0, 0)),
        clip_distances: 3,
        cull_distances: 2,
        ..VertexInfo::default()
    };
    let l = link(&vs, &FragmentInfo::default()).unwrap();
    assert_eq!(l.position_location, 0);
    assert_eq!(l.clip_cull_locations, [Some(4), Some(8)]);
    assert_eq!(l.stride, 12);
    assert_eq!(l.enabled, [0; 4]);
}

#[test]
fn an_input_nothing_writes_is_an_error() {
    let vs = VertexInfo {
        outputs: vec![output(VaryingSlot::Location(0), RegId::new(0, 0), 0x3)],
        ..VertexInfo::default()
    };
    let missing = FragmentInfo {
        inputs: vec![input(1, 0, 1, Interpolation::Smooth, 0)],
        ..FragmentInfo::default()
    };
    let e = link(&vs, &missing).unwrap_err().to_string();
    assert!(e.contains("location 1"), "{e}");
    let too_wide = FragmentInfo {
        inputs: vec![input(0, 0, 3, Interpolation::Smooth, 0)],
        ..FragmentInfo::default()
    };
    let e = link(&vs, &too_wide).unwrap_err().to_string();
    assert!(e.contains("components 0x7"), "{e}");
}

#[test]
fn regids_are_the_hardware_encoding() {
    assert_eq!(RegId::new(1, 1).0, 5);
    assert_eq!(RegId::UNUSED.to_string(), "r63.x");
    assert_eq!(RegId::field(None), 0xfc);
    assert_eq!(RegId::new(2, 3).offset(1), RegId::new(3, 0));
}
