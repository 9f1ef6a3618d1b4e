//! a7xx's `alias.tex`: the texture instruction that follows reads a
//! register of the table as the value the table maps it to (a register,
//! const or immediate) instead. Mesa's `ir3_alias.c` uses it to hand a
//! texture instruction sources that are not in consecutive registers.
//!
//! The table collects the `alias.tex` instructions since the last texture
//! instruction and is cleared by it. `alias.rt` (render targets) and
//! `alias.mem` belong to stages or instructions the model does not run with
//! aliases and are errors.

use parsnip_isa::{Alias, AliasScope, AliasSrc};

use super::trap::{error, Trap};

#[derive(Default)]
pub(crate) struct AliasTable {
    /// (register number, full precision, source).
    entries: Vec<(u8, bool, AliasSrc)>,
}

impl AliasTable {
    pub fn add(&mut self, a: &Alias) -> Result<(), Trap> {
        if a.scope != AliasScope::Tex {
            return error(format!(
                "alias.{} is not modelled (only alias.tex)",
                match a.scope {
                    AliasScope::Rt => "rt",
                    _ => "mem",
                }
            ));
        }
        self.entries.retain(|e| (e.0, e.1) != (a.dst, a.size32));
        self.entries.push((a.dst, a.size32, a.src));
        Ok(())
    }

    /// What a texture instruction reads for register `num`.
    pub fn lookup(&self, num: u32, half: bool) -> Option<AliasSrc> {
        self.entries
            .iter()
            .find(|e| u32::from(e.0) == num && e.1 != half)
            .map(|e| e.2)
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }
}
