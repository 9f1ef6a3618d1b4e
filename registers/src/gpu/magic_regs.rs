//! Each GPU's "magic" register values: debug, eco and chicken bits whose
//! meaning is not public, which a driver sets to fixed per-GPU dwords at the
//! start of every command buffer. The values are Mesa 25.1's
//! `src/freedreno/common/freedreno_devices.py` (each GPU entry's
//! `magic_regs` and `raw_magic_regs`), the table Turnip's `tu6_init_hw`
//! writes from, as Turnip writes them (TPL1_DBG_ECO_CNTL1's UBWC flag hint
//! follows another property of the entry); the captures in
//! `turnip/{a660,a740}/compute.log` show Turnip writing these same values.
//!
//! Three entries of freedreno's `magic_regs` are not here, because Turnip
//! writes them with graphics state rather than at the start of a command
//! buffer, and Parsnip emits no graphics state: `RB_DBG_ECO_CNTL_blit`
//! (RB_DBG_ECO_CNTL's value during blits), `PC_POWER_CNTL` (with the
//! binning pass) and `RB_UNKNOWN_8E06` (a7xx, with render-pass state).
//!
//! ```
//! use parsnip_registers::{gpu, Chip};
//! let a660 = gpu::by_name("a660").unwrap();
//! let tpl1 = a660.magic_regs.in_write_order().find(|m| m.name() == Some("TPL1_DBG_ECO_CNTL")).unwrap();
//! let w = tpl1.write(Chip::A6xx).unwrap();
//! assert_eq!((w.offset, w.value, w.is_64), (0xb600, 0x0500_8000, false));
//! ```

use std::fmt;

use crate::chip::Chip;
use crate::lookup;
use crate::regs::{RegWrite, RegisterError};

/// Where a magic value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MagicRegister {
    /// A register as the decoder names it; `NAME+0x1` is the second dword
    /// of a 64-bit register, which the table sets on its own.
    Named(&'static str),
    /// An offset the register database has no register at: freedreno's
    /// table gives only the number (a750's 0x930a and 0x960a).
    Offset(u32),
}

/// One whole-dword value for one register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MagicReg {
    pub register: MagicRegister,
    pub value: u32,
}

impl MagicReg {
    const fn named(name: &'static str, value: u32) -> MagicReg {
        MagicReg {
            register: MagicRegister::Named(name),
            value,
        }
    }

    const fn offset(offset: u32, value: u32) -> MagicReg {
        MagicReg {
            register: MagicRegister::Offset(offset),
            value,
        }
    }

    /// The register's name, `None` for a bare offset.
    pub fn name(&self) -> Option<&'static str> {
        match self.register {
            MagicRegister::Named(n) => Some(n),
            MagicRegister::Offset(_) => None,
        }
    }

    /// The write that sets the whole dword on `chip`. This is the one way
    /// magic values are written, and unlike a typed register's write it does
    /// not check the value against the database's fields: the table sets
    /// bits that a6xx.xml does not describe (it gives TPL1_DBG_ECO_CNTL bits
    /// 0-25 and no fields, and the a660's value is 0x05008000; PC_MODE_CNTL
    /// bits 0-7, and the a750's is 0x3f1f). What those bits do is not
    /// public; the table's dword is the fact.
    pub fn write(&self, chip: Chip) -> Result<RegWrite, RegisterError> {
        let offset = match self.register {
            MagicRegister::Named(name) => {
                lookup::chip_table(chip)
                    .offset_of(name)
                    .ok_or(RegisterError::NotOnChip {
                        register: name,
                        chip,
                    })?
            }
            MagicRegister::Offset(offset) => offset,
        };
        Ok(RegWrite {
            offset,
            value: u64::from(self.value),
            is_64: false,
        })
    }
}

impl fmt::Display for MagicReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.register {
            MagicRegister::Named(n) => write!(f, "{n} = {:#010x}", self.value),
            MagicRegister::Offset(o) => write!(f, "{o:#06x} = {:#010x}", self.value),
        }
    }
}

/// One GPU's magic values: the registers every GPU's table names, and the
/// GPU's list of others (`raw_magic_regs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MagicRegs {
    pub rb_dbg_eco_cntl: u32,
    pub sp_dbg_eco_cntl: u32,
    pub tpl1_dbg_eco_cntl: u32,
    pub vpc_dbg_eco_cntl: u32,
    pub gras_dbg_eco_cntl: u32,
    /// a6xx only: the register is not on a7xx.
    pub hlsq_dbg_eco_cntl: Option<u32>,
    pub sp_chicken_bits: u32,
    pub uche_unknown_0e12: u32,
    pub uche_client_pf: u32,
    pub rb_unknown_8e01: u32,
    pub pc_mode_cntl: u32,
    /// The GPU's other registers, in the table's order.
    pub raw: &'static [MagicReg],
}

impl MagicRegs {
    /// Every value, in the order Turnip writes them: the GPU's other
    /// registers, then the named ones.
    pub fn in_write_order(&self) -> impl Iterator<Item = MagicReg> + '_ {
        let named = [
            Some(("RB_DBG_ECO_CNTL", self.rb_dbg_eco_cntl)),
            Some(("SP_DBG_ECO_CNTL", self.sp_dbg_eco_cntl)),
            Some(("TPL1_DBG_ECO_CNTL", self.tpl1_dbg_eco_cntl)),
            Some(("VPC_DBG_ECO_CNTL", self.vpc_dbg_eco_cntl)),
            Some(("GRAS_DBG_ECO_CNTL", self.gras_dbg_eco_cntl)),
            self.hlsq_dbg_eco_cntl.map(|v| ("HLSQ_DBG_ECO_CNTL", v)),
            Some(("SP_CHICKEN_BITS", self.sp_chicken_bits)),
            Some(("UCHE_UNKNOWN_0E12", self.uche_unknown_0e12)),
            Some(("UCHE_CLIENT_PF", self.uche_client_pf)),
            Some(("RB_UNKNOWN_8E01", self.rb_unknown_8e01)),
            Some(("PC_MODE_CNTL", self.pc_mode_cntl)),
        ];
        self.raw.iter().copied().chain(
            named
                .into_iter()
                .flatten()
                .map(|(name, value)| MagicReg::named(name, value)),
        )
    }
}

/// The placeholder of the catalogue's per-generation base entries, never a
/// GPU's (a test checks that every GPU names its own).
pub const UNSET: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0,
    sp_dbg_eco_cntl: 0,
    tpl1_dbg_eco_cntl: 0,
    vpc_dbg_eco_cntl: 0,
    gras_dbg_eco_cntl: 0,
    hlsq_dbg_eco_cntl: None,
    sp_chicken_bits: 0,
    uche_unknown_0e12: 0,
    uche_client_pf: 0,
    rb_unknown_8e01: 0,
    pc_mode_cntl: 0,
    raw: &[],
};

/// The entry for GPUId 615, 616, 618 and 619.
pub const A618: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0x0410_0000,
    sp_dbg_eco_cntl: 0,
    tpl1_dbg_eco_cntl: 0x0010_8000,
    vpc_dbg_eco_cntl: 0,
    gras_dbg_eco_cntl: 0x0000_0880,
    hlsq_dbg_eco_cntl: Some(0x0008_0000),
    sp_chicken_bits: 0x0000_0430,
    uche_unknown_0e12: 0x0000_0001,
    uche_client_pf: 0x0000_0004,
    rb_unknown_8e01: 0x0000_0001,
    pc_mode_cntl: 0x1f,
    raw: &[],
};

/// The GPUId(630) entry.
pub const A630: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0x0410_0000,
    sp_dbg_eco_cntl: 0,
    tpl1_dbg_eco_cntl: 0x0010_8000,
    vpc_dbg_eco_cntl: 0,
    gras_dbg_eco_cntl: 0x0000_0880,
    hlsq_dbg_eco_cntl: Some(0x0008_0000),
    sp_chicken_bits: 0x0000_1430,
    uche_unknown_0e12: 0x1000_0001,
    uche_client_pf: 0x0000_0004,
    rb_unknown_8e01: 0x0000_0001,
    pc_mode_cntl: 0x1f,
    raw: &[],
};

/// The GPUId(640) entry.
pub const A640: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0x0410_0000,
    sp_dbg_eco_cntl: 0,
    tpl1_dbg_eco_cntl: 0x0000_8000,
    vpc_dbg_eco_cntl: 0x0200_0000,
    gras_dbg_eco_cntl: 0,
    hlsq_dbg_eco_cntl: Some(0),
    sp_chicken_bits: 0x0000_0420,
    uche_unknown_0e12: 0x0000_0001,
    uche_client_pf: 0x0000_0004,
    rb_unknown_8e01: 0x0000_0001,
    pc_mode_cntl: 0x1f,
    raw: &[],
};

/// The GPUId(650) entry.
pub const A650: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0x0410_0000,
    sp_dbg_eco_cntl: 0x0100_0000,
    tpl1_dbg_eco_cntl: 0x0100_8000,
    vpc_dbg_eco_cntl: 0x0200_0000,
    gras_dbg_eco_cntl: 0,
    hlsq_dbg_eco_cntl: Some(0),
    sp_chicken_bits: 0x0000_1400,
    uche_unknown_0e12: 0x0000_0001,
    uche_client_pf: 0x0000_0004,
    rb_unknown_8e01: 0,
    pc_mode_cntl: 0x1f,
    raw: &[],
};

/// The GPUId(660) entry.
pub const A660: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0x0410_0000,
    sp_dbg_eco_cntl: 0x0100_0000,
    tpl1_dbg_eco_cntl: 0x0500_8000,
    vpc_dbg_eco_cntl: 0x0200_0000,
    gras_dbg_eco_cntl: 0,
    hlsq_dbg_eco_cntl: Some(0),
    sp_chicken_bits: 0x0000_1400,
    uche_unknown_0e12: 0x0000_0001,
    uche_client_pf: 0x0000_0084,
    rb_unknown_8e01: 0,
    pc_mode_cntl: 0x1f,
    raw: &[],
};

/// The GPUId(690) entry.
pub const A690: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0x0010_0000,
    sp_dbg_eco_cntl: 0x0120_0000,
    tpl1_dbg_eco_cntl: 0x04c0_0000,
    vpc_dbg_eco_cntl: 0x0200_0400,
    gras_dbg_eco_cntl: 0,
    hlsq_dbg_eco_cntl: Some(0),
    sp_chicken_bits: 0x0000_1400,
    uche_unknown_0e12: 0x0000_0001,
    uche_client_pf: 0x0000_0084,
    rb_unknown_8e01: 0,
    pc_mode_cntl: 0x1f,
    raw: &[MagicReg::named("SP_UNKNOWN_AAF2", 0x00c0_0000)],
};

/// The FD730 entry (`a730_magic_regs`, `a730_raw_magic_regs`).
pub const A730: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0,
    sp_dbg_eco_cntl: 0x1000_0000,
    tpl1_dbg_eco_cntl: 0x0100_0000,
    vpc_dbg_eco_cntl: 0x0200_0000,
    gras_dbg_eco_cntl: 0x0000_0800,
    hlsq_dbg_eco_cntl: None,
    sp_chicken_bits: 0x0000_1440,
    uche_unknown_0e12: 0x0320_0000,
    uche_client_pf: 0x0000_0084,
    rb_unknown_8e01: 0,
    pc_mode_cntl: 0x3f,
    raw: &[
        MagicReg::named("UCHE_CACHE_WAYS", 0x0084_0004),
        // TP_UBWC_FLAG_HINT (bit 18, a6xx.xml) stays set: Turnip sets it from
        // the GPU's `enable_tp_ubwc_flag_hint`, which a7xx_gen1 makes true.
        MagicReg::named("TPL1_DBG_ECO_CNTL1", 0x0004_0724),
        MagicReg::named("SP_UNKNOWN_AE08", 0x0000_2400),
        MagicReg::named("SP_UNKNOWN_AE09", 0),
        MagicReg::named("SP_UNKNOWN_AE0A", 0),
        MagicReg::named("UCHE_UNKNOWN_0E10", 0),
        MagicReg::named("UCHE_UNKNOWN_0E11", 0x0000_0040),
        MagicReg::named("SP_UNKNOWN_AE6C", 0x0000_8000),
        MagicReg::named("PC_DBG_ECO_CNTL", 0x2008_0000),
        MagicReg::named("PC_UNKNOWN_9E24", 0x21fc_7f00),
        MagicReg::named("VFD_UNKNOWN_A600", 0),
        MagicReg::named("SP_UNKNOWN_AE06", 0),
        MagicReg::named("SP_UNKNOWN_AE6A", 0),
        MagicReg::named("SP_UNKNOWN_AE6B", 0x0000_0080),
        MagicReg::named("SP_UNKNOWN_AE73", 0),
        MagicReg::named("SP_UNKNOWN_AB02", 0),
        MagicReg::named("SP_UNKNOWN_AB01", 0),
        MagicReg::named("SP_UNKNOWN_AB22", 0),
        MagicReg::named("SP_UNKNOWN_B310", 0),
        MagicReg::named("GRAS_UNKNOWN_8120", 0x0951_0840),
        MagicReg::named("GRAS_UNKNOWN_8121", 0x0000_0a62),
        MagicReg::named("SP_UNKNOWN_0CE2", 0),
        MagicReg::named("SP_UNKNOWN_0CE2+0x1", 0),
        MagicReg::named("SP_UNKNOWN_0CE4", 0),
        MagicReg::named("SP_UNKNOWN_0CE4+0x1", 0),
        MagicReg::named("SP_UNKNOWN_0CE6", 0),
        MagicReg::named("SP_UNKNOWN_0CE6+0x1", 0),
        MagicReg::named("GRAS_UNKNOWN_80A7", 0),
        MagicReg::named("RB_UNKNOWN_8E79", 0),
        MagicReg::named("RB_UNKNOWN_8899", 0),
        MagicReg::named("RB_UNKNOWN_88F5", 0),
    ],
};

/// The FD740 entry (`a740_magic_regs`, `a740_raw_magic_regs`).
pub const A740: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0,
    sp_dbg_eco_cntl: 0x1000_0000,
    tpl1_dbg_eco_cntl: 0x1110_0000,
    vpc_dbg_eco_cntl: 0x0200_0000,
    gras_dbg_eco_cntl: 0x0000_4800,
    hlsq_dbg_eco_cntl: None,
    sp_chicken_bits: 0x1000_1400,
    uche_unknown_0e12: 0,
    uche_client_pf: 0x0000_0084,
    rb_unknown_8e01: 0,
    pc_mode_cntl: 0x3f,
    raw: &[
        MagicReg::named("UCHE_CACHE_WAYS", 0x0004_0004),
        // The table's 0x00040724 without TP_UBWC_FLAG_HINT (bit 18, a6xx.xml):
        // Turnip sets that bit from the GPU's `enable_tp_ubwc_flag_hint`,
        // which a7xx_gen2 (the FD740 entry) leaves false so that blits agree
        // with the system driver of most a740 devices.
        MagicReg::named("TPL1_DBG_ECO_CNTL1", 0x0000_0724),
        MagicReg::named("SP_UNKNOWN_AE08", 0x0000_0400),
        MagicReg::named("SP_UNKNOWN_AE09", 0x0043_0800),
        MagicReg::named("SP_UNKNOWN_AE0A", 0),
        MagicReg::named("UCHE_UNKNOWN_0E10", 0),
        MagicReg::named("UCHE_UNKNOWN_0E11", 0),
        MagicReg::named("SP_UNKNOWN_AE6C", 0),
        MagicReg::named("PC_DBG_ECO_CNTL", 0x0010_0000),
        MagicReg::named("PC_UNKNOWN_9E24", 0x2158_5600),
        MagicReg::named("VFD_UNKNOWN_A600", 0x0000_8000),
        MagicReg::named("SP_UNKNOWN_AE06", 0),
        MagicReg::named("SP_UNKNOWN_AE6A", 0),
        MagicReg::named("SP_UNKNOWN_AE6B", 0x0000_0080),
        MagicReg::named("SP_UNKNOWN_AE73", 0),
        MagicReg::named("SP_UNKNOWN_AB02", 0),
        MagicReg::named("SP_UNKNOWN_AB01", 0),
        MagicReg::named("SP_UNKNOWN_AB22", 0),
        MagicReg::named("SP_UNKNOWN_B310", 0),
        MagicReg::named("GRAS_UNKNOWN_8120", 0x0951_0840),
        MagicReg::named("GRAS_UNKNOWN_8121", 0x0000_0a62),
        MagicReg::named("GRAS_UNKNOWN_8009", 0),
        MagicReg::named("GRAS_UNKNOWN_800A", 0),
        MagicReg::named("GRAS_UNKNOWN_800B", 0),
        MagicReg::named("GRAS_UNKNOWN_800C", 0),
        MagicReg::named("SP_UNKNOWN_0CE2", 0),
        MagicReg::named("SP_UNKNOWN_0CE2+0x1", 0),
        MagicReg::named("SP_UNKNOWN_0CE4", 0),
        MagicReg::named("SP_UNKNOWN_0CE4+0x1", 0),
        MagicReg::named("SP_UNKNOWN_0CE6", 0),
        MagicReg::named("SP_UNKNOWN_0CE6+0x1", 0),
        MagicReg::named("GRAS_UNKNOWN_80A7", 0),
        MagicReg::named("RB_UNKNOWN_8E79", 0),
        MagicReg::named("RB_UNKNOWN_8899", 0),
        MagicReg::named("RB_UNKNOWN_88F5", 0),
        MagicReg::named("RB_UNKNOWN_8C34", 0),
        MagicReg::named("GRAS_UNKNOWN_8008", 0),
    ],
};

/// The FD750 entry. Its `magic_regs` has no UCHE_CLIENT_PF, so the field
/// is 0 in freedreno's C table, and Turnip writes that 0.
pub const A750: MagicRegs = MagicRegs {
    rb_dbg_eco_cntl: 0x0000_0001,
    sp_dbg_eco_cntl: 0x1000_0000,
    tpl1_dbg_eco_cntl: 0x1110_0000,
    vpc_dbg_eco_cntl: 0x0200_0000,
    gras_dbg_eco_cntl: 0x0000_4800,
    hlsq_dbg_eco_cntl: None,
    sp_chicken_bits: 0x1000_0400,
    uche_unknown_0e12: 0x4000_0000,
    uche_client_pf: 0,
    rb_unknown_8e01: 0,
    pc_mode_cntl: 0x0000_3f1f,
    raw: &[
        MagicReg::named("UCHE_CACHE_WAYS", 0),
        MagicReg::named("UCHE_UNKNOWN_0E10", 0),
        MagicReg::named("UCHE_UNKNOWN_0E11", 0x0000_0080),
        MagicReg::named("SP_UNKNOWN_AE08", 0),
        MagicReg::named("SP_UNKNOWN_AE09", 0x0043_1800),
        MagicReg::named("SP_UNKNOWN_AE0A", 0x0080_0000),
        MagicReg::named("SP_UNKNOWN_AE6C", 0),
        MagicReg::named("PC_DBG_ECO_CNTL", 0x0010_0000),
        MagicReg::named("PC_UNKNOWN_9E24", 0x0158_5600),
        MagicReg::named("VFD_UNKNOWN_A600", 0x0000_8000),
        MagicReg::named("SP_UNKNOWN_AE06", 0),
        MagicReg::named("SP_UNKNOWN_AE6A", 0),
        MagicReg::named("SP_UNKNOWN_AE6B", 0x0000_0080),
        MagicReg::named("SP_UNKNOWN_AE73", 0),
        MagicReg::named("SP_UNKNOWN_AB02", 0),
        MagicReg::named("SP_UNKNOWN_AB01", 0),
        MagicReg::named("SP_UNKNOWN_AB22", 0),
        MagicReg::named("SP_UNKNOWN_B310", 0),
        MagicReg::named("GRAS_UNKNOWN_8120", 0x0951_0840),
        MagicReg::named("GRAS_UNKNOWN_8121", 0x0000_0a62),
        MagicReg::named("GRAS_UNKNOWN_8009", 0),
        MagicReg::named("GRAS_UNKNOWN_800A", 0),
        MagicReg::named("GRAS_UNKNOWN_800B", 0),
        MagicReg::named("GRAS_UNKNOWN_800C", 0),
        MagicReg::named("SP_UNKNOWN_0CE2", 0),
        MagicReg::named("SP_UNKNOWN_0CE2+0x1", 0),
        MagicReg::named("SP_UNKNOWN_0CE4", 0),
        MagicReg::named("SP_UNKNOWN_0CE4+0x1", 0),
        MagicReg::named("SP_UNKNOWN_0CE6", 0),
        MagicReg::named("SP_UNKNOWN_0CE6+0x1", 0),
        MagicReg::named("GRAS_UNKNOWN_80A7", 0),
        MagicReg::named("RB_UNKNOWN_8899", 0),
        MagicReg::named("RB_UNKNOWN_88F5", 0),
        MagicReg::named("RB_UNKNOWN_8C34", 0),
        MagicReg::named("GRAS_UNKNOWN_8008", 0),
        MagicReg::offset(0x930a, 0),
        MagicReg::offset(0x960a, 1),
        MagicReg::named("SP_PS_ALIASED_COMPONENTS_CONTROL", 0),
        MagicReg::named("SP_PS_ALIASED_COMPONENTS", 0),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::GPUS;

    #[test]
    fn every_gpu_has_its_own_values_and_each_resolves_on_its_chip() {
        for g in GPUS {
            assert_ne!(*g.magic_regs, UNSET, "{} has no magic registers", g.name);
            let table = lookup::chip_table(g.chip);
            let mut offsets = Vec::new();
            for m in g.magic_regs.in_write_order() {
                let w = m
                    .write(g.chip)
                    .unwrap_or_else(|e| panic!("{}: {m}: {e}", g.name));
                // A bare offset is only for what the database cannot name.
                if let MagicRegister::Offset(o) = m.register {
                    assert!(table.register(o).is_none(), "{}: {o:#x} has a name", g.name);
                }
                offsets.push(w.offset);
            }
            let count = offsets.len();
            offsets.sort_unstable();
            offsets.dedup();
            assert_eq!(offsets.len(), count, "{} sets a register twice", g.name);
            // HLSQ_DBG_ECO_CNTL is on a6xx only (a6xx.xml).
            assert_eq!(
                g.magic_regs.hlsq_dbg_eco_cntl.is_some(),
                g.chip == Chip::A6xx,
                "{}",
                g.name
            );
        }
    }

    #[test]
    fn the_second_dword_of_a_64_bit_register_is_its_own_write() {
        let m = MagicReg::named("SP_UNKNOWN_0CE4+0x1", 7);
        let w = m.write(Chip::A7xx).unwrap();
        // a6xx.xml: SP_UNKNOWN_0CE4 is a reg64 at 0x0ce4 on a7xx only.
        assert_eq!((w.offset, w.value, w.is_64), (0x0ce5, 7, false));
        let e = m.write(Chip::A6xx).unwrap_err();
        assert!(e.to_string().contains("SP_UNKNOWN_0CE4+0x1"), "{e}");
    }
}
