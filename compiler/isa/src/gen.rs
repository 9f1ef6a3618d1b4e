//! GPU generations whose instruction encodings differ, and how GPU names and
//! ids map to them.
//!
//! freedreno's ir3 ISA XML marks encodings with `<gen min max>` in units of
//! `gpu_id` (600 for a6xx, 700 for a7xx). Within a6xx and within a7xx the XML
//! has no further split, so two generations are enough for the encoding: the
//! forms that differ are `ldg.a`/`stg.a` (a6xx shifts the index, a7xx adds a
//! byte offset), the texture descriptor taken from `a1.x` (sampler on a6xx,
//! texture on a7xx) and the a7xx-only instructions (`stsc`, `ray_intersection`,
//! `ccinv`, `lock`, `unlock`, `alias`).

use std::fmt;

/// The instruction-set generation selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IsaGen {
    /// Adreno 6xx (a618 .. a690), `gpu_id` 600..=699.
    A6xx,
    /// Adreno 7xx (a730, a740, a750), `gpu_id` 700..=799.
    A7xx,
}

/// The marketing GPU names `parsnip-ir3 --gpu` accepts, with their generation.
pub const GPU_NAMES: &[(&str, IsaGen)] = &[
    ("a618", IsaGen::A6xx),
    ("a630", IsaGen::A6xx),
    ("a640", IsaGen::A6xx),
    ("a650", IsaGen::A6xx),
    ("a660", IsaGen::A6xx),
    ("a690", IsaGen::A6xx),
    ("a730", IsaGen::A7xx),
    ("a740", IsaGen::A7xx),
    ("a750", IsaGen::A7xx),
];

impl IsaGen {
    /// The generation of a GPU named as in [`GPU_NAMES`] (lower case, e.g. `a660`).
    pub fn from_gpu_name(name: &str) -> Option<IsaGen> {
        GPU_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, generation)| generation)
    }

    /// The generation of a numeric GPU id as freedreno writes it: a decimal
    /// `gpu_id` such as `630`, or a hexadecimal chip id such as `0x07030001`
    /// (FD730) or `0x43050a01` (a740, as Turnip reports it in
    /// `reference/turnip/README.md`). Chip ids carry the generation in their top
    /// byte: 6 and 7, and 0x43 for the a7xx parts that use the newer numbering.
    /// Ids of other generations (such as 420 or 540) give `None`.
    pub fn from_gpu_id(id: &str) -> Option<IsaGen> {
        let id = id.trim();
        if let Some(hex) = id.strip_prefix("0x").or_else(|| id.strip_prefix("0X")) {
            let chip = u64::from_str_radix(hex, 16).ok()?;
            return match (chip >> 24) & 0xff {
                0x06 => Some(IsaGen::A6xx),
                0x07 | 0x43 => Some(IsaGen::A7xx),
                _ => None,
            };
        }
        match id.parse::<u32>().ok()? {
            600..=699 => Some(IsaGen::A6xx),
            700..=799 => Some(IsaGen::A7xx),
            _ => None,
        }
    }

    /// True from a7xx on.
    pub fn is_a7xx(self) -> bool {
        self == IsaGen::A7xx
    }
}

impl fmt::Display for IsaGen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IsaGen::A6xx => "a6xx",
            IsaGen::A7xx => "a7xx",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ids_map_to_generations() {
        assert_eq!(IsaGen::from_gpu_name("a618"), Some(IsaGen::A6xx));
        assert_eq!(IsaGen::from_gpu_name("a690"), Some(IsaGen::A6xx));
        assert_eq!(IsaGen::from_gpu_name("a750"), Some(IsaGen::A7xx));
        assert_eq!(IsaGen::from_gpu_name("A660"), None);
        assert_eq!(IsaGen::from_gpu_name("a540"), None);
        assert_eq!(IsaGen::from_gpu_id("630"), Some(IsaGen::A6xx));
        assert_eq!(IsaGen::from_gpu_id("0x07030001"), Some(IsaGen::A7xx));
        assert_eq!(IsaGen::from_gpu_id("0x43050a01"), Some(IsaGen::A7xx));
        assert_eq!(IsaGen::from_gpu_id("0x060600ff"), Some(IsaGen::A6xx));
        assert_eq!(IsaGen::from_gpu_id("540"), None);
        assert_eq!(IsaGen::from_gpu_id("420"), None);
        assert_eq!(IsaGen::from_gpu_id("0xzz"), None);
    }
}
