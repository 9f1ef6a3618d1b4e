//! The register-database generations: which variant of the A6XX register
//! domain a GPU implements.

use std::fmt;

/// A generation of the A6XX register domain. Freedreno's XML keeps a6xx and
/// a7xx in one domain and selects between them with `variants="A6XX"`,
/// `"A7XX-"`, ... on its `chip` selector (a6xx.xml, adreno_common.xml).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Chip {
    /// Adreno 6xx (a6xx gen 1 to 4, e.g. a618, a630, a640, a650, a660).
    A6xx,
    /// Adreno 7xx (a7xx gen 1 to 3, e.g. a730, a740, a750).
    A7xx,
}

impl Chip {
    pub const ALL: [Chip; 2] = [Chip::A6xx, Chip::A7xx];

    /// The variant name the XML uses (`A6XX`, `A7XX`).
    pub fn variant_name(self) -> &'static str {
        match self {
            Chip::A6xx => "A6XX",
            Chip::A7xx => "A7XX",
        }
    }

    /// The generation number (6 or 7), as freedreno's `fd_dev_id` chip.
    pub fn generation(self) -> u32 {
        match self {
            Chip::A6xx => 6,
            Chip::A7xx => 7,
        }
    }

    pub(crate) fn bit(self) -> u8 {
        match self {
            Chip::A6xx => 1,
            Chip::A7xx => 2,
        }
    }
}

impl fmt::Display for Chip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Chip::A6xx => "a6xx",
            Chip::A7xx => "a7xx",
        })
    }
}

/// The chips an item of the database exists on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChipSet(pub(crate) u8);

impl ChipSet {
    pub const ALL: ChipSet = ChipSet(3);
    pub const A6XX: ChipSet = ChipSet(1);
    pub const A7XX: ChipSet = ChipSet(2);

    pub fn contains(self, chip: Chip) -> bool {
        self.0 & chip.bit() != 0
    }

    pub fn chips(self) -> impl Iterator<Item = Chip> {
        Chip::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}
