//! The depth, stencil and depth bounds tests of one sample, and the
//! buffers they read and write (Vulkan's "Depth Bounds Test", "Stencil
//! Test" and "Depth Test" over RB_DEPTH_CNTL, RB_STENCIL_CONTROL and the
//! reference and mask registers).
//!
//! Depth is compared in the buffer's representation: a fragment's depth is
//! converted like a stored one (clamped to [0, 1] and rounded to the
//! nearest unorm value for D16 and D24, kept as a float for D32F) before
//! the comparison, so a value the buffer holds compares equal to itself.
//! D24S8 keeps the stencil in the high byte of the depth texel; D32F and a
//! lone stencil aspect use the separate 8-bit stencil buffer
//! (RB_STENCIL_INFO.SEPARATE_STENCIL).

use parsnip_registers::enums::{AdrenoCompareFunc as Func, AdrenoStencilOp as Op};

use crate::memory::AddressSpace;
use crate::surface::format::DepthFormat;
use crate::surface::{Surface, SurfaceError};

/// Whether `a OP b` holds.
pub(crate) fn compare<T: PartialOrd>(f: Func, a: T, b: T) -> bool {
    match f {
        Func::FUNC_NEVER => false,
        Func::FUNC_LESS => a < b,
        Func::FUNC_EQUAL => a == b,
        Func::FUNC_LEQUAL => a <= b,
        Func::FUNC_GREATER => a > b,
        Func::FUNC_NOTEQUAL => a != b,
        Func::FUNC_GEQUAL => a >= b,
        _ => true,
    }
}

/// A stencil operation on the stored value, with `reference` for REPLACE.
fn stencil_op(op: Op, stored: u8, reference: u8) -> u8 {
    match op {
        Op::STENCIL_ZERO => 0,
        Op::STENCIL_REPLACE => reference,
        Op::STENCIL_INCR_CLAMP => stored.saturating_add(1),
        Op::STENCIL_DECR_CLAMP => stored.saturating_sub(1),
        Op::STENCIL_INVERT => !stored,
        Op::STENCIL_INCR_WRAP => stored.wrapping_add(1),
        Op::STENCIL_DECR_WRAP => stored.wrapping_sub(1),
        _ => stored,
    }
}

/// One face's stencil state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StencilFace {
    pub func: Func,
    pub fail: Op,
    pub zpass: Op,
    pub zfail: Op,
    pub reference: u8,
    pub mask: u8,
    pub write_mask: u8,
}

/// What the tests of a draw need. The buffers themselves (one layer's)
/// come with each test: [`DepthStencil::test`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct DepthStencil {
    /// The depth buffer's format, when there is one.
    pub depth: Option<DepthFormat>,
    pub test: bool,
    pub write: bool,
    pub func: Func,
    pub clamp: Option<(f32, f32)>,
    pub bounds: Option<(f32, f32)>,
    /// Stencil on, with the front and back state; it lives in the depth
    /// texel (D24S8) or, with `separate_stencil`, in its own buffer.
    pub stencil: Option<(StencilFace, StencilFace)>,
    pub separate_stencil: bool,
}

/// What the tests did to one sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub passed: bool,
}

/// The buffers of one layer the tests read and write.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TestBuffers<'a> {
    pub depth: Option<&'a Surface>,
    pub stencil: Option<&'a Surface>,
}

impl DepthStencil {
    /// Runs the depth bounds, stencil and depth tests on sample `s` of
    /// pixel (x, y) for a fragment of depth `z`, updating the buffers.
    #[allow(clippy::too_many_arguments)]
    pub fn test(
        &self,
        memory: &AddressSpace,
        buffers: TestBuffers,
        x: u32,
        y: u32,
        s: u32,
        z: f32,
        front: bool,
        stencil_ref: Option<u8>,
    ) -> Result<Outcome, SurfaceError> {
        let z = match self.clamp {
            Some((lo, hi)) => z.clamp(lo, hi),
            None => z,
        };
        let mut texel = [0u8; 4];
        let depth = match (self.depth, buffers.depth) {
            (Some(format), Some(surface)) => {
                surface.read_element(memory, x, y, s, &mut texel)?;
                Some((format, surface))
            }
            _ => None,
        };
        // The stored depth and the fragment's as the buffer would store it,
        // so that a stored value compares equal to itself.
        let (stored, frag) = match depth {
            Some((format, _)) => {
                let mut converted = texel;
                format.write_depth(z, &mut converted);
                (format.read_depth(&texel), format.read_depth(&converted))
            }
            None => (0.0, 0.0),
        };
        if let (Some((lo, hi)), Some(_)) = (self.bounds, depth) {
            if stored < lo || stored > hi {
                return Ok(Outcome { passed: false });
            }
        }
        let mut stencil_byte = [0u8; 1];
        let stored_stencil = match (self.stencil, self.separate_stencil) {
            (None, _) => 0,
            (Some(_), true) => match buffers.stencil {
                Some(sb) => {
                    sb.read_element(memory, x, y, s, &mut stencil_byte)?;
                    stencil_byte[0]
                }
                None => 0,
            },
            (Some(_), false) => depth
                .and_then(|(format, _)| format.read_stencil(&texel))
                .unwrap_or(0),
        };
        let face = self.stencil.map(|(f, b)| if front { f } else { b });
        let stencil_pass = match face {
            Some(f) => {
                let reference = stencil_ref.unwrap_or(f.reference);
                compare(f.func, reference & f.mask, stored_stencil & f.mask)
            }
            None => true,
        };
        let depth_pass = !self.test || depth.is_none() || compare(self.func, frag, stored);
        let passed = stencil_pass && depth_pass;
        let mut dirty = false;
        if let Some(f) = face {
            let reference = stencil_ref.unwrap_or(f.reference);
            let op = if !stencil_pass {
                f.fail
            } else if !depth_pass {
                f.zfail
            } else {
                f.zpass
            };
            let new = stencil_op(op, stored_stencil, reference);
            let new = (new & f.write_mask) | (stored_stencil & !f.write_mask);
            if new != stored_stencil {
                match (self.separate_stencil, buffers.stencil, depth) {
                    (true, Some(sb), _) => sb.write_element(memory, x, y, s, &[new])?,
                    (false, _, Some((format, _))) => {
                        format.write_stencil(new, &mut texel);
                        dirty = true;
                    }
                    _ => {}
                }
            }
        }
        if let Some((format, surface)) = depth {
            if passed && self.write {
                format.write_depth(z, &mut texel);
                dirty = true;
            }
            if dirty {
                surface.write_element(memory, x, y, s, &texel[..format.bytes as usize])?;
            }
        }
        Ok(Outcome { passed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stencil_operations_and_comparisons() {
        assert_eq!(stencil_op(Op::STENCIL_INCR_CLAMP, 255, 0), 255);
        assert_eq!(stencil_op(Op::STENCIL_INCR_WRAP, 255, 0), 0);
        assert_eq!(stencil_op(Op::STENCIL_DECR_CLAMP, 0, 0), 0);
        assert_eq!(stencil_op(Op::STENCIL_DECR_WRAP, 0, 0), 255);
        assert_eq!(stencil_op(Op::STENCIL_INVERT, 0x0f, 0), 0xf0);
        assert_eq!(stencil_op(Op::STENCIL_REPLACE, 3, 9), 9);
        assert!(compare(Func::FUNC_LEQUAL, 1, 1));
        assert!(!compare(Func::FUNC_LESS, 1, 1));
        assert!(compare(Func::FUNC_NOTEQUAL, 1, 2));
    }
}
