//! The identity of this build of the driver (see build.rs): 16 bytes that
//! change whenever the sources that decide compiled shaders and command
//! streams change.

/// The build id as 32 hex digits.
pub const BUILD_ID_HEX: &str = env!("PARSNIP_BUILD_ID");

/// The build id as bytes.
pub fn build_id() -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        // Two hex digits per byte; build.rs always writes 32 of them.
        *byte = u8::from_str_radix(&BUILD_ID_HEX[2 * i..2 * i + 2], 16).unwrap_or(0);
    }
    out
}

/// A 16-byte UUID derived from the build id and `salt` (what the UUID
/// identifies: the driver, a device, a pipeline cache format and GPU).
pub fn derived_uuid(salt: &[u8]) -> [u8; 16] {
    let id = build_id();
    let mut lo = 0xcbf2_9ce4_8422_2325u64;
    let mut hi = 0x8422_2325_cbf2_9ce4u64;
    for b in id.iter().chain(salt) {
        lo = (lo ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
        hi = (hi ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut uuid = [0u8; 16];
    uuid[..8].copy_from_slice(&lo.to_le_bytes());
    uuid[8..].copy_from_slice(&hi.to_le_bytes());
    uuid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_id_is_32_hex_digits_and_salts_give_different_uuids() {
        assert_eq!(BUILD_ID_HEX.len(), 32);
        assert!(BUILD_ID_HEX.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(build_id(), [0; 16]);
        assert_ne!(derived_uuid(b"driver"), derived_uuid(b"device"));
        assert_eq!(derived_uuid(b"x"), derived_uuid(b"x"));
    }
}
