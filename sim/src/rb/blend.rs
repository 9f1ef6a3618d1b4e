//! Blending and logic operations, as Vulkan's "Blending" and "Logical
//! Operations" chapters define them over the RB's factor, equation and ROP
//! encodings (adreno_common.xml: adreno_rb_blend_factor,
//! a3xx_rb_blend_opcode, a3xx_rop_code).

use parsnip_registers::enums::{A3xxRbBlendOpcode as Op, AdrenoRbBlendFactor as F};

/// What one blend factor is computed from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlendInputs {
    pub src: [f32; 4],
    pub src1: [f32; 4],
    pub dst: [f32; 4],
    pub constant: [f32; 4],
}

/// Factor `f` for colour component `c` (3: alpha).
fn factor(f: F, c: usize, i: &BlendInputs) -> Result<f32, String> {
    let a = 3;
    Ok(match f {
        F::FACTOR_ZERO => 0.0,
        F::FACTOR_ONE => 1.0,
        F::FACTOR_SRC_COLOR => i.src[c],
        F::FACTOR_ONE_MINUS_SRC_COLOR => 1.0 - i.src[c],
        F::FACTOR_SRC_ALPHA => i.src[a],
        F::FACTOR_ONE_MINUS_SRC_ALPHA => 1.0 - i.src[a],
        F::FACTOR_DST_COLOR => i.dst[c],
        F::FACTOR_ONE_MINUS_DST_COLOR => 1.0 - i.dst[c],
        F::FACTOR_DST_ALPHA => i.dst[a],
        F::FACTOR_ONE_MINUS_DST_ALPHA => 1.0 - i.dst[a],
        F::FACTOR_CONSTANT_COLOR => i.constant[c],
        F::FACTOR_ONE_MINUS_CONSTANT_COLOR => 1.0 - i.constant[c],
        F::FACTOR_CONSTANT_ALPHA => i.constant[a],
        F::FACTOR_ONE_MINUS_CONSTANT_ALPHA => 1.0 - i.constant[a],
        F::FACTOR_SRC_ALPHA_SATURATE if c == a => 1.0,
        F::FACTOR_SRC_ALPHA_SATURATE => i.src[a].min(1.0 - i.dst[a]),
        F::FACTOR_SRC1_COLOR => i.src1[c],
        F::FACTOR_ONE_MINUS_SRC1_COLOR => 1.0 - i.src1[c],
        F::FACTOR_SRC1_ALPHA => i.src1[a],
        F::FACTOR_ONE_MINUS_SRC1_ALPHA => 1.0 - i.src1[a],
        other => return Err(format!("blend factor {:#x} is not one the RB has", other.0)),
    })
}

/// The blend equation of one component: `op(s * sf, d * df)`.
pub(crate) fn blend_component(
    op: Op,
    sf: F,
    df: F,
    c: usize,
    i: &BlendInputs,
) -> Result<f32, String> {
    let (s, d) = (i.src[c], i.dst[c]);
    Ok(match op {
        Op::BLEND_MIN_DST_SRC => s.min(d),
        Op::BLEND_MAX_DST_SRC => s.max(d),
        _ => {
            let (s, d) = (s * factor(sf, c, i)?, d * factor(df, c, i)?);
            match op {
                Op::BLEND_DST_PLUS_SRC => s + d,
                Op::BLEND_SRC_MINUS_DST => s - d,
                Op::BLEND_DST_MINUS_SRC => d - s,
                other => return Err(format!("blend opcode {} is not one the RB has", other.0)),
            }
        }
    })
}

/// Logic operation `code` on source and destination bits: each result bit
/// is bit `(s << 1) | d` of the code (COPY is 0b1100, NOOP 0b1010).
pub(crate) fn logic_op(code: u32, s: u128, d: u128) -> u128 {
    let mut r = 0;
    if code & 1 != 0 {
        r |= !s & !d;
    }
    if code & 2 != 0 {
        r |= !s & d;
    }
    if code & 4 != 0 {
        r |= s & !d;
    }
    if code & 8 != 0 {
        r |= s & d;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::enums::A3xxRopCode as Rop;

    #[test]
    fn rop_codes_are_truth_tables() {
        let (s, d) = (0b1100u128, 0b1010u128);
        assert_eq!(logic_op(Rop::ROP_COPY.0, s, d), s);
        assert_eq!(logic_op(Rop::ROP_NOOP.0, s, d), d);
        assert_eq!(logic_op(Rop::ROP_XOR.0, s, d), 0b0110);
        assert_eq!(logic_op(Rop::ROP_AND_REVERSE.0, s, d) & 0xf, 0b0100);
        assert_eq!(logic_op(Rop::ROP_OR_INVERTED.0, s, d) & 0xf, 0b1011);
        assert_eq!(logic_op(Rop::ROP_SET.0, s, d), u128::MAX);
    }

    #[test]
    fn alpha_blending_and_saturate() {
        let i = BlendInputs {
            src: [1.0, 0.5, 0.0, 0.25],
            src1: [0.0; 4],
            dst: [0.0, 1.0, 1.0, 0.5],
            constant: [0.0; 4],
        };
        let over = |c| {
            blend_component(
                Op::BLEND_DST_PLUS_SRC,
                F::FACTOR_SRC_ALPHA,
                F::FACTOR_ONE_MINUS_SRC_ALPHA,
                c,
                &i,
            )
            .unwrap()
        };
        assert_eq!(over(0), 0.25);
        assert_eq!(over(1), 0.125 + 0.75);
        let sat = blend_component(
            Op::BLEND_DST_PLUS_SRC,
            F::FACTOR_SRC_ALPHA_SATURATE,
            F::FACTOR_ZERO,
            0,
            &i,
        )
        .unwrap();
        assert_eq!(sat, 0.25, "min(As, 1 - Ad) = min(0.25, 0.5)");
        assert_eq!(
            blend_component(Op::BLEND_MIN_DST_SRC, F::FACTOR_ZERO, F::FACTOR_ZERO, 1, &i).unwrap(),
            0.5,
            "min and max ignore the factors"
        );
    }
}
