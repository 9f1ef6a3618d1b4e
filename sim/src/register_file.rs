//! The GPU's register file as the command processor sees it, and strict mode.
//!
//! Type 4 packets (and CP_MEM_TO_REG, CP_REG_RMW, ...) write registers by
//! offset; the offsets differ between a6xx and a7xx, which the register
//! database resolves (`Register::offset(chip)`). Every write is stamped with
//! a serial number, so the model knows whether a register was programmed
//! since the context began, and which of two sources of the same state (a
//! descriptor register and a CP_LOAD_STATE6 of the same kind) came last.
//!
//! Context: a register file lives as long as its [`crate::Context`], which
//! is one per submit queue in the kernel interface's simulator back end and
//! one per trace in `parsnip-replay`. Nothing a context did before (and no
//! other queue) counts as "programmed": on hardware another process may run
//! in between and leave anything in the registers.
//!
//! Strict mode: when the model consumes a register for a dispatch, it reads it
//! through [`RegisterFile::programmed`], which fails with the register's name
//! if nothing wrote it. Registers the model does not consume are never
//! checked, so a stream is not punished for skipping state that does not
//! matter to what it does.

use std::fmt;

use parsnip_registers::lookup;
use parsnip_registers::regs::{ArrayRegister, Register};
use parsnip_registers::Chip;

/// Offsets a type 4 header can address (18 bits, adreno_pm4.xml's pkt4
/// layout), and so the size of the model's register space.
pub const REGISTER_SPACE: u32 = 1 << 18;

/// A register the model consumed that nothing programmed (strict mode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unprogrammed {
    /// The register as freedreno's decoder names it (`SP_CS_CNTL_0`,
    /// `SP_CS_BINDLESS_BASE[0x1].DESCRIPTOR`).
    pub register: String,
    pub offset: u32,
}

impl fmt::Display for Unprogrammed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "strict mode: {} ({:#06x}) is read but was never written since the context began",
            self.register, self.offset
        )
    }
}

impl std::error::Error for Unprogrammed {}

/// Why the model could not read a register it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegisterReadError {
    /// Strict mode: nothing programmed it.
    Unprogrammed(Unprogrammed),
    /// The register does not exist on this chip (a model bug: it asked for
    /// the wrong generation's register).
    NotOnChip { register: &'static str, chip: Chip },
}

impl fmt::Display for RegisterReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterReadError::Unprogrammed(u) => u.fmt(f),
            RegisterReadError::NotOnChip { register, chip } => {
                write!(f, "the model read {register}, which {chip} does not have")
            }
        }
    }
}

impl std::error::Error for RegisterReadError {}

/// The registers of one context.
pub struct RegisterFile {
    chip: Chip,
    strict: bool,
    values: Box<[u32]>,
    /// 0: never written in this context; otherwise the serial of the write.
    written: Box<[u64]>,
    serial: u64,
}

impl RegisterFile {
    /// A register file with nothing programmed.
    pub fn new(chip: Chip, strict: bool) -> Self {
        Self {
            chip,
            strict,
            values: vec![0; REGISTER_SPACE as usize].into_boxed_slice(),
            written: vec![0; REGISTER_SPACE as usize].into_boxed_slice(),
            serial: 0,
        }
    }

    pub fn chip(&self) -> Chip {
        self.chip
    }

    pub fn strict(&self) -> bool {
        self.strict
    }

    /// A new serial number, later than every write so far (the CP stamps
    /// state it loads by other means with these).
    pub fn next_serial(&mut self) -> u64 {
        self.serial += 1;
        self.serial
    }

    /// Writes one dword. Offsets past the register space wrap as the 18-bit
    /// offset field of the packets that carry them does.
    pub fn write(&mut self, offset: u32, value: u32) {
        let i = (offset % REGISTER_SPACE) as usize;
        self.values[i] = value;
        self.written[i] = self.next_serial();
    }

    /// The value at `offset` (0 where nothing wrote it), with no strict check:
    /// what a CP packet that copies registers sees.
    pub fn read(&self, offset: u32) -> u32 {
        self.values[(offset % REGISTER_SPACE) as usize]
    }

    /// The serial of the last write to `offset`, 0 if none.
    pub fn written_at(&self, offset: u32) -> u64 {
        self.written[(offset % REGISTER_SPACE) as usize]
    }

    /// Whether `offset` was written since the context began.
    pub fn is_programmed(&self, offset: u32) -> bool {
        self.written_at(offset) != 0
    }

    /// The name of the register at `offset` on this chip, as the decoder
    /// prints it, or its offset in hex where the database has none.
    pub fn name_of(&self, offset: u32) -> String {
        lookup::chip_table(self.chip)
            .register(offset)
            .map(|r| r.name.clone())
            .unwrap_or_else(|| format!("register {offset:#06x}"))
    }

    /// The raw value (both dwords of a 64-bit register) at `offset`; in
    /// strict mode, an error naming the register if any dword was never
    /// written.
    pub fn programmed_raw(&self, offset: u32, is_64: bool) -> Result<u64, RegisterReadError> {
        let dwords = if is_64 { 2 } else { 1 };
        for part in 0..dwords {
            if self.strict && !self.is_programmed(offset + part) {
                return Err(RegisterReadError::Unprogrammed(Unprogrammed {
                    register: self.name_of(offset + part),
                    offset: offset + part,
                }));
            }
        }
        let lo = u64::from(self.read(offset));
        let hi = if is_64 {
            u64::from(self.read(offset + 1))
        } else {
            0
        };
        Ok(lo | hi << 32)
    }

    /// The raw value of register `R`, checked in strict mode.
    pub fn programmed<R: Register>(&self) -> Result<u64, RegisterReadError> {
        let offset = self.offset_of::<R>()?;
        self.programmed_raw(offset, R::IS_64)
    }

    /// The raw value of entry `index` of array register `R`, checked in
    /// strict mode.
    pub fn programmed_at<R: ArrayRegister>(&self, index: u32) -> Result<u64, RegisterReadError> {
        let offset = R::offset(self.chip, index).map_err(|_| RegisterReadError::NotOnChip {
            register: R::NAME,
            chip: self.chip,
        })?;
        self.programmed_raw(offset, R::IS_64)
    }

    /// Whether entry `index` of `R` was written (all its dwords), without
    /// failing in strict mode: for state that is optional (a bindless base a
    /// shader may not use).
    pub fn is_programmed_at<R: ArrayRegister>(&self, index: u32) -> bool {
        let dwords = if R::IS_64 { 2 } else { 1 };
        R::offset(self.chip, index)
            .map(|o| (0..dwords).all(|p| self.is_programmed(o + p)))
            .unwrap_or(false)
    }

    /// The serial of the last write to register `R` (0: never).
    pub fn register_written_at<R: Register>(&self) -> u64 {
        R::offset(self.chip).map_or(0, |o| self.written_at(o))
    }

    /// The offset of `R` on this chip.
    pub fn offset_of<R: Register>(&self) -> Result<u32, RegisterReadError> {
        R::offset(self.chip).ok_or(RegisterReadError::NotOnChip {
            register: R::NAME,
            chip: self.chip,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::regs::{self, SpCsBindlessBaseDescriptor};

    #[test]
    fn strict_reads_name_the_register_nothing_wrote() {
        let mut r = RegisterFile::new(Chip::A6xx, true);
        // SP_CS_CTRL_REG0 is at 0xa9b0 on a6xx (a6xx.xml).
        let err = r.programmed::<regs::SpCsCtrlReg0>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "strict mode: SP_CS_CTRL_REG0 (0xa9b0) is read but was never written since the \
             context began"
        );
        r.write(0xa9b0, 0x8000_0080);
        assert_eq!(r.programmed::<regs::SpCsCtrlReg0>().unwrap(), 0x8000_0080);
    }

    #[test]
    fn a_64_bit_register_needs_both_halves() {
        let mut r = RegisterFile::new(Chip::A7xx, true);
        // SP_CS_BINDLESS_BASE[1].DESCRIPTOR: 0xa9e8 + 2 (a6xx.xml).
        r.write(0xa9ea, 0x0002_7003);
        let err = r
            .programmed_at::<SpCsBindlessBaseDescriptor>(1)
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("SP_CS_BINDLESS_BASE[0x1].DESCRIPTOR+0x1 (0xa9eb)"),
            "{err}"
        );
        assert!(!r.is_programmed_at::<SpCsBindlessBaseDescriptor>(1));
        r.write(0xa9eb, 1);
        assert_eq!(
            r.programmed_at::<SpCsBindlessBaseDescriptor>(1).unwrap(),
            0x1_0002_7003
        );
    }

    #[test]
    fn without_strict_mode_unwritten_registers_read_zero() {
        let r = RegisterFile::new(Chip::A6xx, false);
        assert_eq!(r.programmed::<regs::SpCsInstrlen>().unwrap(), 0);
    }

    #[test]
    fn later_writes_have_later_serials() {
        let mut r = RegisterFile::new(Chip::A6xx, true);
        r.write(0xa9f2, 1);
        let load = r.next_serial();
        r.write(0xa9f2, 2);
        assert!(r.written_at(0xa9f2) > load);
        assert_eq!(r.read(0xa9f2), 2);
    }
}
