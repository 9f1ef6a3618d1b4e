//! Per-chip indexes over the runtime table: register offset to register
//! (with the name freedreno's decoder prints, array index included), name
//! to offset, and opcode to packet payload domain.
//!
//! ```
//! use parsnip_registers::{lookup, Chip};
//! let t = lookup::chip_table(Chip::A6xx);
//! let r = t.register(0x8822).unwrap();
//! assert_eq!(r.name, "RB_MRT[0].BUF_INFO");
//! assert_eq!(t.offset_of("RB_MRT[1].BUF_INFO"), Some(0x882a));
//! assert_eq!(lookup::chip_table(Chip::A7xx).offset_of("HLSQ_INVALIDATE_CMD"), Some(0xab1f));
//! assert_eq!(lookup::chip_table(Chip::A7xx).offset_of("SP_UNKNOWN_0CE2+0x1"), Some(0xce3));
//! let imm = lookup::chip_table(Chip::A7xx).array_offsets("HLSQ_SHARED_CONSTS_IMM");
//! assert_eq!((imm.len(), imm[0], imm[63]), (64, 0xab40, 0xab7f));
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::chip::Chip;
use crate::table::{self, Domain, Elem, ElemKind, TypeInfo, ValueKind};

/// What sits at one register offset.
#[derive(Debug, Clone)]
pub struct RegisterEntry {
    /// The name freedreno's decoder prints for this offset:
    /// `RB_MRT[0x1].BUF_INFO`, `SP_UNKNOWN_0CE2+0x1` (second dword of a
    /// 64-bit register), `RB_BLIT_DST_HI` (second dword of an address),
    /// `VSC_PIPE_CONFIG[0x3]+0x1` (a gap in an array group).
    pub name: String,
    /// The register, `None` for a gap inside an array group.
    pub register: Option<&'static Elem>,
    /// The register's value layout (`None` for a gap).
    pub info: Option<&'static TypeInfo>,
    /// 32 or 64.
    pub width: u32,
    /// Offset of the register's first dword.
    pub start: u32,
    /// Which dword of the register this offset is (0, or 1 for the high
    /// half of a 64-bit register).
    pub part: u32,
    /// Array index, for registers in an array.
    pub index: Option<u32>,
}

/// The A6XX domain's registers as one chip sees them.
#[derive(Debug)]
pub struct ChipTable {
    pub chip: Chip,
    by_offset: HashMap<u32, RegisterEntry>,
    by_name: HashMap<String, u32>,
    /// Arrays: name to (first offset, stride, length).
    arrays: HashMap<&'static str, (u32, u32, u32)>,
}

/// An array index as freedreno prints it (`%#x`: `0`, `0x1`, `0x10`).
pub fn index_text(i: u32) -> String {
    if i == 0 {
        "0".to_string()
    } else {
        format!("{i:#x}")
    }
}

fn is_address(info: &TypeInfo) -> bool {
    matches!(info.kind, ValueKind::Address | ValueKind::WAddress)
}

impl ChipTable {
    fn build(chip: Chip) -> ChipTable {
        let mut t = ChipTable {
            chip,
            by_offset: HashMap::new(),
            by_name: HashMap::new(),
            arrays: HashMap::new(),
        };
        let dom = table::domain("A6XX").expect("the database has an A6XX domain");
        for e in dom.elems.iter().filter(|e| e.cond.on(chip)) {
            match &e.kind {
                ElemKind::Reg { .. } => t.add_reg(e, "", e.offset, None),
                ElemKind::Array { elems } => {
                    t.arrays.insert(e.name, (e.offset, e.stride, e.length));
                    for i in 0..e.length {
                        let base = e.offset + i * e.stride;
                        let prefix = if e.length != 1 {
                            format!("{}[{}]", e.name, index_text(i))
                        } else {
                            e.name.to_string()
                        };
                        for r in elems.iter().filter(|r| r.cond.on(chip)) {
                            t.add_reg(r, &format!("{prefix}."), base + r.offset, Some(i));
                        }
                        // Offsets of the group no register covers still
                        // belong to the array.
                        for o in 0..e.stride {
                            t.by_offset
                                .entry(base + o)
                                .or_insert_with(|| RegisterEntry {
                                    name: format!("{prefix}+{o:#x}"),
                                    register: None,
                                    info: None,
                                    width: 32,
                                    start: base + o,
                                    part: 0,
                                    index: Some(i),
                                });
                        }
                    }
                }
                ElemKind::Stripe { .. } => {}
            }
        }
        t
    }

    fn add_reg(&mut self, e: &'static Elem, prefix: &str, offset: u32, index: Option<u32>) {
        let ElemKind::Reg { width, info } = &e.kind else {
            return;
        };
        let width = u32::from(*width);
        let dwords = width / 32;
        let stride = if e.stride == 0 { dwords } else { e.stride };
        for i in 0..e.length {
            let start = offset + i * stride;
            let mut name = format!("{prefix}{}", e.name);
            if e.length != 1 {
                name = format!("{name}[{}]", index_text(i));
            }
            let index = if e.length != 1 { Some(i) } else { index };
            self.by_name.entry(name.clone()).or_insert(start);
            for part in 0..dwords {
                let shown = match part {
                    0 => name.clone(),
                    _ if is_address(info) => format!("{name}_HI"),
                    p => format!("{name}+{p:#x}"),
                };
                if part != 0 && !is_address(info) {
                    // The decoder's name of a later dword (freedreno's device
                    // table writes `SP_UNKNOWN_0CE2+1` on its own).
                    self.by_name.entry(shown.clone()).or_insert(start + part);
                }
                self.by_offset
                    .entry(start + part)
                    .or_insert_with(|| RegisterEntry {
                        name: shown,
                        register: Some(e),
                        info: Some(info),
                        width,
                        start,
                        part,
                        index,
                    });
            }
        }
    }

    /// What is at `offset` on this chip, `None` where nothing is.
    pub fn register(&self, offset: u32) -> Option<&RegisterEntry> {
        self.by_offset.get(&offset)
    }

    /// The offset of a register named as the decoder names it; array
    /// indexes may be written in decimal or hex (`RB_MRT[1].BUF_INFO`), and
    /// a later dword of a 64-bit register that is not an address is
    /// `NAME+0x1`.
    pub fn offset_of(&self, name: &str) -> Option<u32> {
        if let Some(o) = self.by_name.get(name) {
            return Some(*o);
        }
        // Normalise every `[n]` to the decoder's `%#x` spelling.
        let mut norm = String::new();
        let mut rest = name;
        while let Some(open) = rest.find('[') {
            let close = rest[open..].find(']')? + open;
            let idx = &rest[open + 1..close];
            let n = match idx.strip_prefix("0x") {
                Some(h) => u32::from_str_radix(h, 16).ok()?,
                None => idx.parse().ok()?,
            };
            norm.push_str(&rest[..open]);
            norm.push_str(&format!("[{}]", index_text(n)));
            rest = &rest[close + 1..];
        }
        norm.push_str(rest);
        self.by_name.get(&norm).copied()
    }

    /// The offset of each entry of array `name`, in index order: also for
    /// arrays of plain dwords, which hold no register to name
    /// (`HLSQ_SHARED_CONSTS_IMM`).
    pub fn array_offsets(&self, name: &str) -> Vec<u32> {
        self.arrays
            .get(name)
            .map_or_else(Vec::new, |&(offset, stride, length)| {
                (0..length).map(|i| offset + i * stride).collect()
            })
    }

    /// Every register offset this chip has (first dwords of registers).
    pub fn registers(&self) -> impl Iterator<Item = &RegisterEntry> {
        self.by_offset
            .values()
            .filter(|e| e.register.is_some() && e.part == 0)
    }
}

/// The register index of `chip`, built on first use.
pub fn chip_table(chip: Chip) -> &'static ChipTable {
    static TABLES: [OnceLock<ChipTable>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = match chip {
        Chip::A6xx => &TABLES[0],
        Chip::A7xx => &TABLES[1],
    };
    slot.get_or_init(|| ChipTable::build(chip))
}

/// The payload layout of `opcode` on `chip`, as freedreno's decoder picks
/// it: the domain named like the opcode (both `CP_LOAD_STATE6_GEOM` and
/// `_FRAG` use `CP_LOAD_STATE6`'s).
pub fn packet_domain(chip: Chip, opcode: u32) -> Option<&'static Domain> {
    let name = crate::pm4::opcode_name(chip, opcode)?;
    let name = match name {
        "CP_LOAD_STATE6_GEOM" | "CP_LOAD_STATE6_FRAG" => "CP_LOAD_STATE6",
        n => n,
    };
    table::domain(name)
}
