//! `CP_SET_DRAW_STATE` groups: IBs the CP runs before each draw, kept per
//! group id until replaced or disabled.
//!
//! Entries are parsed with the register database's typed payload dwords
//! (adreno_pm4.xml's `CP_SET_DRAW_STATE`), the ones the model uses: `COUNT`,
//! the flags `DIRTY`, `DISABLE`, `DISABLE_ALL_GROUPS`, `LOAD_IMMED`, the
//! render passes the group is enabled for (`BINNING`, `GMEM`, `SYSMEM`) and
//! `GROUP_ID`; dwords 1-2 are the group's IB address.

use std::io::Write;

use parsnip_registers::packets::{CpSetDrawStateDw0, CpSetDrawStateDw1, CpSetDrawStateDw2};

use super::decoder::{Decoder, MODE_BINNING, MODE_GMEM, MODE_SYSMEM};
use super::memory::GpuMemory;

/// Group ids are 5 bits.
const GROUPS: usize = 32;

/// One group as `CP_SET_DRAW_STATE` set it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct DrawStateGroup {
    /// Render passes the group runs in (`MODE_BINNING` ...).
    pub(crate) enable_mask: u8,
    /// The entry's first dword.
    pub(crate) control: CpSetDrawStateDw0,
    /// Dwords in the group's IB; 0 for no group.
    pub(crate) count: u32,
    pub(crate) iova: u64,
}

/// One `CP_SET_DRAW_STATE` entry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DrawStateEntry {
    pub(crate) group_id: usize,
    pub(crate) group: DrawStateGroup,
}

impl DrawStateEntry {
    pub(crate) fn parse(dwords: [u32; 3]) -> Self {
        let [control, lo, hi] = dwords;
        let control = CpSetDrawStateDw0::from_raw(control);
        let pass = |on: bool, mode: u8| if on { mode } else { 0 };
        Self {
            group_id: control.group_id as usize,
            group: DrawStateGroup {
                enable_mask: pass(control.binning, MODE_BINNING)
                    | pass(control.gmem, MODE_GMEM)
                    | pass(control.sysmem, MODE_SYSMEM),
                control,
                count: control.count,
                iova: u64::from(CpSetDrawStateDw2::from_raw(hi).addr_hi) << 32
                    | u64::from(CpSetDrawStateDw1::from_raw(lo).addr_lo),
            },
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct DrawStates {
    groups: [DrawStateGroup; GROUPS],
}

impl DrawStates {
    pub(crate) fn disable_all(&mut self) {
        self.groups = [DrawStateGroup::default(); GROUPS];
    }

    pub(crate) fn set(&mut self, id: usize, group: DrawStateGroup) {
        self.groups[id] = group;
    }

    pub(crate) fn disable(&mut self, id: usize) {
        self.groups[id] = DrawStateGroup::default();
    }

    pub(crate) fn get(&self, id: usize) -> DrawStateGroup {
        self.groups[id]
    }
}

impl<W: Write> Decoder<W> {
    /// `CP_SET_DRAW_STATE`: records (or disables, or runs at once) groups.
    pub(crate) fn set_draw_state(&mut self, mem: &dyn GpuMemory, payload: &[u32], level: usize) {
        let mut entries = payload.chunks_exact(3);
        for entry in entries.by_ref() {
            let entry = DrawStateEntry::parse([entry[0], entry[1], entry[2]]);
            let c = entry.group.control;
            if c.disable_all_groups {
                self.draw_states.disable_all();
            } else if c.disable {
                self.draw_states.disable(entry.group_id);
            } else {
                self.draw_states.set(entry.group_id, entry.group);
                if c.load_immed {
                    self.load_group(mem, entry.group_id, level);
                    self.draw_states.disable(entry.group_id);
                }
            }
        }
        if !entries.remainder().is_empty() {
            self.note(
                mem,
                None,
                format!(
                    "CP_SET_DRAW_STATE: {} payload dwords are not a whole number of 3-dword entries; \
                     the last {} ignored",
                    payload.len(),
                    entries.remainder().len()
                ),
            );
        }
    }

    /// Runs every group, as the CP does before a draw, then forgets them.
    pub(crate) fn load_all_groups(&mut self, mem: &dyn GpuMemory, level: usize) {
        if self.loading_groups {
            self.note(
                mem,
                None,
                "a draw inside a draw state group would load the groups again; not followed"
                    .to_string(),
            );
            return;
        }
        self.loading_groups = true;
        for id in 0..GROUPS {
            self.load_group(mem, id, level);
        }
        self.loading_groups = false;
        self.draw_states.disable_all();
    }

    /// One group: its settings, then (when enabled for the current render
    /// pass) its IB in hex and decoded.
    fn load_group(&mut self, mem: &dyn GpuMemory, id: usize, level: usize) {
        let group = self.draw_states.get(id);
        if group.count == 0 {
            return;
        }
        self.print_at(level, &format!("group_id: {id}"));
        self.print_at(level, &format!("count: {}", group.count));
        self.print_at(level, &format!("addr: {:016x}", group.iova));
        // freedreno's decoder prints the four flag bits as one nibble
        // (DIRTY first), as the dword holds them.
        let flags = [
            group.control.dirty,
            group.control.disable,
            group.control.disable_all_groups,
            group.control.load_immed,
        ]
        .iter()
        .rev()
        .fold(0u8, |n, &f| n << 1 | u8::from(f));
        self.print_at(level, &format!("flags: {flags:x}"));
        self.print_at(level, &format!("enable_mask: {:#x}", group.enable_mask));
        if group.enable_mask & self.render.enable_mask == 0 {
            self.print_at(level, "\tskipped!");
            self.print("");
            return;
        }
        let Some(buffer) = mem.buffer_at(group.iova) else {
            self.note(
                mem,
                Some(group.iova),
                format!("draw state group {id}: nothing was captured at its IB"),
            );
            return;
        };
        if !self.quiet() {
            let dwords = buffer.dwords(group.iova, group.count as usize);
            self.out.hex_dump(group.iova, &dwords, level + 1);
        }
        self.walk_ib(mem, group.iova, group.count, level + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_an_entry_as_turnip_writes_it() {
        // From triangle_sysmem.log (a660): 01610024 00005900 00000001 is
        // { COUNT = 36 | DIRTY | GMEM | SYSMEM | GROUP_ID = 1 }.
        let e = DrawStateEntry::parse([0x0161_0024, 0x0000_5900, 0x0000_0001]);
        assert_eq!(e.group_id, 1);
        assert_eq!(e.group.enable_mask, MODE_GMEM | MODE_SYSMEM);
        assert_eq!((e.group.count, e.group.iova), (36, 0x1_0000_5900));
        assert!(e.group.control.dirty && !e.group.control.disable);
        // 0a720000: DISABLE, group 10.
        let e = DrawStateEntry::parse([0x0a72_0000, 0, 0]);
        assert_eq!((e.group_id, e.group.control.disable), (10, true));
    }
}
