//! LRZ (low-resolution Z) decisions: per draw, whether the LRZ unit may
//! test and write with that draw's state, and for the pass, whether its
//! LRZ buffer still bounds the depth buffer.
//!
//! The LRZ buffer holds, per block of pixels, a depth no nearer (for the
//! LESS direction) than any the depth buffer holds there; a fragment
//! farther than that bound is rejected before the fragment shader runs
//! (freedreno's lrz.rst; the model's sim/src/lrz). That is only right
//! while every draw that writes depth moves it one way, and every
//! fragment LRZ writes into the buffer is one the later stages keep.
//! [`draw_decision`] checks the rules for one draw; [`PassLrz`] carries
//! the pass's direction and, once a rule is broken, the reason LRZ is off
//! for the rest of the pass:
//!
//! - the direction comes from the depth compare op: LESS and LESS_OR_EQUAL
//!   one way, GREATER and GREATER_OR_EQUAL the other; a draw of the other
//!   direction than the pass's so far, or a non-directional op (EQUAL,
//!   NOT_EQUAL, ALWAYS, NEVER) with depth writes, leaves the buffer no
//!   bound, and LRZ is off for the rest of the pass. A non-directional op
//!   without depth writes only skips LRZ for that draw.
//! - a draw whose fragments may be dropped or changed after LRZ saw them
//!   would write a bound the depth buffer never got: fragment shaders that
//!   discard or write depth, alpha-to-coverage, the depth bounds test, and
//!   stencil tests that can fail. Blending, logic ops and colour write
//!   masks with depth writes leave what is behind visible where LRZ
//!   would record the draw as hiding it. Each turns LRZ off for the rest
//!   of the pass.
//! - a fragment LRZ rejects must be one whose rejection nobody sees:
//!   fragment shaders with side effects (storage writes) and stencil
//!   tests that update the stencil when the depth test fails (depth-fail
//!   ops other than KEEP) see it; LRZ is off for the rest of the pass.
//! - without a depth test the draw does not touch depth: it skips LRZ.
//!
//! Every draw recomputes its decision from its whole state (pipeline and
//! dynamic state together), so a dynamic state changed between draws is
//! checked as the draw that uses it.

use std::fmt;

use parsnip_registers::enums::{AdrenoCompareFunc, AdrenoStencilOp};

/// The way the draws of a pass move depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// LESS, LESS_OR_EQUAL: nearer fragments win; LRZ keeps the farthest.
    Less,
    /// GREATER, GREATER_OR_EQUAL: the other way (GRAS_LRZ_CNTL.GREATER).
    Greater,
}

/// The direction of a depth compare op, `None` for the ops with none.
pub fn direction(op: AdrenoCompareFunc) -> Option<Direction> {
    match op {
        AdrenoCompareFunc::FUNC_LESS | AdrenoCompareFunc::FUNC_LEQUAL => Some(Direction::Less),
        AdrenoCompareFunc::FUNC_GREATER | AdrenoCompareFunc::FUNC_GEQUAL => {
            Some(Direction::Greater)
        }
        _ => None,
    }
}

/// One face's stencil state, as LRZ sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilFace {
    pub compare: AdrenoCompareFunc,
    pub depth_fail: AdrenoStencilOp,
    pub write_mask: u32,
}

/// What of a draw's state decides LRZ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawState {
    pub depth_test: bool,
    pub depth_write: bool,
    pub depth_compare: AdrenoCompareFunc,
    /// Front and back, when the stencil test is enabled.
    pub stencil: Option<[StencilFace; 2]>,
    pub depth_bounds: bool,
    /// Some colour attachment blends or has a logic op.
    pub blend_or_logic_op: bool,
    /// Some written colour attachment does not write all its components.
    pub color_write_masked: bool,
    pub alpha_to_coverage: bool,
    pub fs_discards: bool,
    pub fs_writes_depth: bool,
    /// Stores to buffers or images (side effects LRZ would skip).
    pub fs_side_effects: bool,
}

impl Default for DrawState {
    /// A draw with a LESS depth test and writes, and nothing else.
    fn default() -> Self {
        DrawState {
            depth_test: true,
            depth_write: true,
            depth_compare: AdrenoCompareFunc::FUNC_LESS,
            stencil: None,
            depth_bounds: false,
            blend_or_logic_op: false,
            color_write_masked: false,
            alpha_to_coverage: false,
            fs_discards: false,
            fs_writes_depth: false,
            fs_side_effects: false,
        }
    }
}

/// Why LRZ is off for the rest of a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disabled {
    /// `PARSNIP_DEBUG=nolrz`.
    DebugFlag,
    /// The depth attachment has no LRZ buffer, or the view is not of its
    /// level 0.
    NoBuffer,
    DirectionChanged,
    NonDirectionalWrite,
    BlendWithDepthWrite,
    ColorMaskWithDepthWrite,
    FragmentDiscard,
    FragmentDepthWrite,
    FragmentSideEffects,
    Stencil,
    AlphaToCoverage,
    DepthBounds,
    /// The depth image was written since its LRZ buffer was cleared,
    /// outside a pass that kept it (copies, clears, storage, a pass
    /// without LRZ), and this pass does not clear depth.
    NotCleared,
}

impl fmt::Display for Disabled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Disabled::DebugFlag => "PARSNIP_DEBUG=nolrz",
            Disabled::NoBuffer => "the depth view has no LRZ buffer",
            Disabled::DirectionChanged => "a draw changed the depth test's direction",
            Disabled::NonDirectionalWrite => {
                "a draw writes depth with a compare op that has no direction"
            }
            Disabled::BlendWithDepthWrite => "a draw blends (or has a logic op) and writes depth",
            Disabled::ColorMaskWithDepthWrite => "a draw masks colour components and writes depth",
            Disabled::FragmentDiscard => "a fragment shader discards",
            Disabled::FragmentDepthWrite => "a fragment shader writes depth",
            Disabled::FragmentSideEffects => "a fragment shader has side effects",
            Disabled::Stencil => "a stencil test can drop or update fragments LRZ would not",
            Disabled::AlphaToCoverage => "a draw uses alpha-to-coverage",
            Disabled::DepthBounds => "a draw uses the depth bounds test",
            Disabled::NotCleared => {
                "the depth image was written outside an LRZ pass and the pass does not clear it"
            }
        })
    }
}

/// What one draw does with LRZ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawDecision {
    /// Test (and with `write`, update) LRZ in `direction`.
    Use { direction: Direction, write: bool },
    /// This draw leaves depth as LRZ bounds it but cannot be tested.
    Skip,
    /// The buffer is no bound after this draw: LRZ off for the rest.
    Disable(Disabled),
}

/// The rules for one draw, given the direction the pass has so far.
pub fn draw_decision(s: &DrawState, pass_direction: Option<Direction>) -> DrawDecision {
    if !s.depth_test {
        return DrawDecision::Skip;
    }
    if s.fs_side_effects {
        return DrawDecision::Disable(Disabled::FragmentSideEffects);
    }
    if s.fs_writes_depth {
        return DrawDecision::Disable(Disabled::FragmentDepthWrite);
    }
    if let Some(faces) = s.stencil {
        let fails = faces
            .iter()
            .any(|f| f.compare != AdrenoCompareFunc::FUNC_ALWAYS);
        let depth_fail_writes = faces
            .iter()
            .any(|f| f.write_mask != 0 && f.depth_fail != AdrenoStencilOp::STENCIL_KEEP);
        if depth_fail_writes || (fails && s.depth_write) {
            return DrawDecision::Disable(Disabled::Stencil);
        }
    }
    if s.depth_bounds {
        return DrawDecision::Disable(Disabled::DepthBounds);
    }
    let Some(dir) = direction(s.depth_compare) else {
        return if s.depth_write {
            DrawDecision::Disable(Disabled::NonDirectionalWrite)
        } else {
            DrawDecision::Skip
        };
    };
    if pass_direction.is_some_and(|d| d != dir) {
        return DrawDecision::Disable(Disabled::DirectionChanged);
    }
    if s.depth_write {
        if s.fs_discards {
            return DrawDecision::Disable(Disabled::FragmentDiscard);
        }
        if s.alpha_to_coverage {
            return DrawDecision::Disable(Disabled::AlphaToCoverage);
        }
        if s.blend_or_logic_op {
            return DrawDecision::Disable(Disabled::BlendWithDepthWrite);
        }
        if s.color_write_masked {
            return DrawDecision::Disable(Disabled::ColorMaskWithDepthWrite);
        }
    }
    DrawDecision::Use {
        direction: dir,
        write: s.depth_write,
    }
}

/// A pass's LRZ state while its draws are recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassLrz {
    /// The direction of the draws that used LRZ so far.
    pub direction: Option<Direction>,
    /// Set once LRZ is off for the rest of the pass.
    pub disabled: Option<Disabled>,
}

impl PassLrz {
    /// A pass that may use LRZ, or one that may not, for `why`.
    pub fn new(why_not: Option<Disabled>) -> PassLrz {
        PassLrz {
            direction: None,
            disabled: why_not,
        }
    }

    /// Records one draw; what it does with LRZ (`Skip` once disabled).
    pub fn draw(&mut self, s: &DrawState) -> DrawDecision {
        if self.disabled.is_some() {
            return DrawDecision::Skip;
        }
        let d = draw_decision(s, self.direction);
        match d {
            DrawDecision::Use { direction, .. } => self.direction = Some(direction),
            DrawDecision::Disable(why) => self.disabled = Some(why),
            DrawDecision::Skip => {}
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AdrenoCompareFunc as F;

    fn decide(s: DrawState) -> DrawDecision {
        draw_decision(&s, None)
    }

    const LESS_WRITE: DrawDecision = DrawDecision::Use {
        direction: Direction::Less,
        write: true,
    };

    #[test]
    fn compare_ops_have_the_direction_of_their_inequality() {
        assert_eq!(direction(F::FUNC_LESS), Some(Direction::Less));
        assert_eq!(direction(F::FUNC_LEQUAL), Some(Direction::Less));
        assert_eq!(direction(F::FUNC_GREATER), Some(Direction::Greater));
        assert_eq!(direction(F::FUNC_GEQUAL), Some(Direction::Greater));
        for op in [
            F::FUNC_EQUAL,
            F::FUNC_NOTEQUAL,
            F::FUNC_ALWAYS,
            F::FUNC_NEVER,
        ] {
            assert_eq!(direction(op), None, "{op:?}");
        }
    }

    #[test]
    fn a_plain_depth_tested_draw_uses_lrz() {
        assert_eq!(decide(DrawState::default()), LESS_WRITE);
        let read_only = DrawState {
            depth_write: false,
            depth_compare: F::FUNC_GEQUAL,
            ..DrawState::default()
        };
        assert_eq!(
            decide(read_only),
            DrawDecision::Use {
                direction: Direction::Greater,
                write: false
            }
        );
    }

    #[test]
    fn no_depth_test_or_a_non_directional_read_skips_the_draw_only() {
        let untested = DrawState {
            depth_test: false,
            fs_side_effects: true,
            ..DrawState::default()
        };
        assert_eq!(decide(untested), DrawDecision::Skip);
        let equal = DrawState {
            depth_write: false,
            depth_compare: F::FUNC_EQUAL,
            ..DrawState::default()
        };
        assert_eq!(decide(equal), DrawDecision::Skip);
    }

    #[test]
    fn each_rule_disables_lrz_for_the_rest_of_the_pass() {
        let d = DrawState::default();
        let stencil_face = StencilFace {
            compare: F::FUNC_ALWAYS,
            depth_fail: AdrenoStencilOp::STENCIL_KEEP,
            write_mask: 0xff,
        };
        let cases = [
            (
                DrawState {
                    depth_compare: F::FUNC_ALWAYS,
                    ..d
                },
                Disabled::NonDirectionalWrite,
            ),
            (
                DrawState {
                    depth_compare: F::FUNC_NOTEQUAL,
                    ..d
                },
                Disabled::NonDirectionalWrite,
            ),
            (
                DrawState {
                    blend_or_logic_op: true,
                    ..d
                },
                Disabled::BlendWithDepthWrite,
            ),
            (
                DrawState {
                    color_write_masked: true,
                    ..d
                },
                Disabled::ColorMaskWithDepthWrite,
            ),
            (
                DrawState {
                    fs_discards: true,
                    ..d
                },
                Disabled::FragmentDiscard,
            ),
            (
                DrawState {
                    fs_writes_depth: true,
                    depth_write: false,
                    ..d
                },
                Disabled::FragmentDepthWrite,
            ),
            (
                DrawState {
                    fs_side_effects: true,
                    depth_write: false,
                    ..d
                },
                Disabled::FragmentSideEffects,
            ),
            (
                DrawState {
                    alpha_to_coverage: true,
                    ..d
                },
                Disabled::AlphaToCoverage,
            ),
            (
                DrawState {
                    depth_bounds: true,
                    depth_write: false,
                    ..d
                },
                Disabled::DepthBounds,
            ),
            // A stencil test that can fail drops fragments LRZ would
            // record as written.
            (
                DrawState {
                    stencil: Some([
                        StencilFace {
                            compare: F::FUNC_EQUAL,
                            ..stencil_face
                        },
                        stencil_face,
                    ]),
                    ..d
                },
                Disabled::Stencil,
            ),
            // A depth-fail op updates the stencil of fragments LRZ rejects,
            // even without depth writes.
            (
                DrawState {
                    stencil: Some([
                        stencil_face,
                        StencilFace {
                            depth_fail: AdrenoStencilOp::STENCIL_INCR_WRAP,
                            ..stencil_face
                        },
                    ]),
                    depth_write: false,
                    ..d
                },
                Disabled::Stencil,
            ),
        ];
        for (state, why) in cases {
            let mut pass = PassLrz::new(None);
            assert_eq!(pass.draw(&state), DrawDecision::Disable(why), "{state:?}");
            // A plain draw after it no longer uses LRZ.
            assert_eq!(pass.draw(&d), DrawDecision::Skip);
            assert_eq!(pass.disabled, Some(why));
        }
    }

    #[test]
    fn what_does_not_break_the_rules_keeps_lrz() {
        let d = DrawState::default();
        let keep = StencilFace {
            compare: F::FUNC_ALWAYS,
            depth_fail: AdrenoStencilOp::STENCIL_INCR_WRAP,
            write_mask: 0,
        };
        for state in [
            // Blending, masks, discard and coverage without depth writes.
            DrawState {
                depth_write: false,
                blend_or_logic_op: true,
                color_write_masked: true,
                fs_discards: true,
                alpha_to_coverage: true,
                ..d
            },
            // A stencil test that always passes and writes nothing on
            // depth failure.
            DrawState {
                stencil: Some([keep; 2]),
                ..d
            },
        ] {
            assert!(
                matches!(decide(state), DrawDecision::Use { .. }),
                "{state:?}"
            );
        }
    }

    #[test]
    fn a_change_of_direction_disables_lrz_even_without_writes() {
        let mut pass = PassLrz::new(None);
        assert_eq!(pass.draw(&DrawState::default()), LESS_WRITE);
        let greater = DrawState {
            depth_write: false,
            depth_compare: F::FUNC_GREATER,
            ..DrawState::default()
        };
        assert_eq!(
            pass.draw(&greater),
            DrawDecision::Disable(Disabled::DirectionChanged)
        );
        // LEQUAL after LESS is the same direction.
        let mut pass = PassLrz::new(None);
        pass.draw(&DrawState::default());
        let lequal = DrawState {
            depth_compare: F::FUNC_LEQUAL,
            ..DrawState::default()
        };
        assert_eq!(pass.draw(&lequal), LESS_WRITE);
    }

    #[test]
    fn a_pass_refused_lrz_skips_every_draw() {
        let mut pass = PassLrz::new(Some(Disabled::DebugFlag));
        assert_eq!(pass.draw(&DrawState::default()), DrawDecision::Skip);
        assert_eq!(pass.disabled, Some(Disabled::DebugFlag));
    }
}
