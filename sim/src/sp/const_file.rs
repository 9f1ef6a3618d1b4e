//! The dispatch's const file: what CP_LOAD_STATE6 loaded, and what the
//! shader itself stores there (`stc`, `ldc.k`, `ldg.k`, in a preamble).
//!
//! A const nothing defined is an error when read: on hardware it holds
//! whatever an earlier draw or dispatch left, and a program that depends on
//! it is the stale-state bug strict mode exists to catch. The command
//! processor hands over the consts within HLSQ_CS_CNTL.CONSTLEN that were
//! loaded; a const past CONSTLEN is therefore "not loaded" too.
//!
//! Half-precision const reads (`hc1.x`) read the full 32-bit const and
//! convert it ("constant demotion"): f32 to f16 for float operations, the
//! low 16 bits otherwise. Turnip and freedreno always set
//! SP_MODE_CONTROL.CONSTANT_DEMOTION_ENABLE, and Mesa's ir3 relies on it
//! (`ir3_nir_lower_load_const_instr`: "CONSTANT_DEMOTION_ENABLE means we
//! get automatic 32b-to-16b conversions when we ask for 16b from it"); with
//! it clear, hcN would read packed halves instead, which the model does not
//! do (the dispatch does not carry SP_MODE_CONTROL).

use parsnip_isa::eval::float::f32_to_f16;
use parsnip_isa::Round;

use super::trap::{error, Trap};
use crate::shader_state::{SharedConsts, SHARED_CONSTS_VEC4};

/// Dwords in the const file: HLSQ_CS_CNTL.CONSTLEN counts up to 1024 vec4s
/// (sim/src/cp/state_blocks.rs).
pub(crate) const CONST_DWORDS: usize = 1024 * 4;

pub(crate) struct ConstFile {
    values: Vec<u32>,
    defined: Vec<bool>,
}

/// `c5.y` for const component 21.
pub(crate) fn const_name(n: u32) -> String {
    format!("c{}.{}", n / 4, ['x', 'y', 'z', 'w'][(n % 4) as usize])
}

impl ConstFile {
    pub fn new(loaded: &[u32]) -> ConstFile {
        let n = loaded.len().min(CONST_DWORDS);
        ConstFile {
            values: loaded[..n].to_vec(),
            defined: vec![true; n],
        }
    }

    /// The const file of a stage whose shared consts are `shared`: on a6xx
    /// the loaded ones of an enabled pool appear from c504 on, whatever
    /// CONSTLEN says (a6xx.xml's HLSQ_SHARED_CONSTS: they are reserved in
    /// the stage's const pool).
    pub fn with_shared(loaded: &[u32], shared: &SharedConsts) -> ConstFile {
        let mut c = ConstFile::new(loaded);
        if let Some(pool) = &shared.mapped {
            for (i, v) in pool.iter().enumerate() {
                if let Some(v) = *v {
                    // Within the file: the pool is 8 vec4s from c504.
                    let _ = c.write((SHARED_CONSTS_VEC4 * 4 + i) as i64, v);
                }
            }
        }
        c
    }

    /// The 32-bit const component `n`.
    #[inline]
    pub fn read(&self, n: i64) -> Result<u32, Trap> {
        let i = usize::try_from(n).ok().filter(|&i| i < CONST_DWORDS);
        match i {
            Some(i) if self.defined.get(i) == Some(&true) => Ok(self.values[i]),
            Some(i) => error(format!(
                "{} is read but was neither loaded (CP_LOAD_STATE6 ST6_CONSTANTS within \
                 HLSQ_CS_CNTL.CONSTLEN) nor written by the shader",
                const_name(i as u32)
            )),
            None => error(format!("const component {n} is outside the const file")),
        }
    }

    /// The const read at half precision, demoted from its 32 bits.
    pub fn read_half(&self, n: i64, float: bool) -> Result<u32, Trap> {
        let v = self.read(n)?;
        Ok(if float {
            u32::from(f32_to_f16(f32::from_bits(v), Round::Even))
        } else {
            v & 0xffff
        })
    }

    pub fn write(&mut self, n: i64, value: u32) -> Result<(), Trap> {
        match usize::try_from(n).ok().filter(|&i| i < CONST_DWORDS) {
            Some(i) => {
                if i >= self.values.len() {
                    self.values.resize(i + 1, 0);
                    self.defined.resize(i + 1, false);
                }
                self.values[i] = value;
                self.defined[i] = true;
                Ok(())
            }
            None => error(format!(
                "a store to const component {n}, outside the const file"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unloaded_consts_are_an_error_and_halves_are_demoted() {
        let mut c = ConstFile::new(&[1.5f32.to_bits(), 7]);
        assert_eq!(c.read(0), Ok(1.5f32.to_bits()));
        // f16 1.5 is 0x3e00.
        assert_eq!(c.read_half(0, true), Ok(0x3e00));
        assert_eq!(c.read_half(1, false), Ok(7));
        let Err(Trap::Error(e)) = c.read(5) else {
            panic!("c1.y was not loaded")
        };
        assert!(e.starts_with("c1.y is read but was neither loaded"), "{e}");
        c.write(5, 9).unwrap();
        assert_eq!(c.read(5), Ok(9));
        assert!(c.write(CONST_DWORDS as i64, 0).is_err());
    }

    #[test]
    fn a6xx_shared_consts_appear_from_c504() {
        let shared = SharedConsts {
            mapped: Some(vec![Some(37), None, Some(7)]),
            imm: Vec::new(),
        };
        let c = ConstFile::with_shared(&[1, 2], &shared);
        assert_eq!(c.read(1), Ok(2));
        assert_eq!(c.read(504 * 4), Ok(37));
        assert_eq!(c.read(504 * 4 + 2), Ok(7));
        assert!(c.read(504 * 4 + 1).is_err(), "never loaded");
        assert!(c.read(8).is_err(), "past CONSTLEN");
    }
}
