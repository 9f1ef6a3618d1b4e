//! `VkPipelineCache`: compiled shaders keyed by a hash of everything that
//! decides the machine code (the SPIR-V, entry point, specialisation, the
//! descriptor layout the compiler saw, the GPU and the driver build), and
//! its serialised form: the header Vulkan defines
//! (`VkPipelineCacheHeaderVersionOne`), then the device's identity (the
//! driver's build id and the GPU's chip id, as Mesa's caches carry a build
//! id), then the entries, each with a hash of its key and body.
//!
//! Data from another device or build has a different header or identity and
//! is ignored whole, as the spec requires. An entry whose hash does not
//! match (a changed byte anywhere in it) is skipped, so its pipeline is
//! compiled again rather than loaded as damaged machine code.

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;

use super::binary::ShaderBinary;

/// A 128-bit key.
pub type CacheKey = [u8; 16];

/// Builds a key from parts, each length-prefixed so that moving bytes from
/// one part to the next changes the key.
#[derive(Clone)]
pub struct KeyHasher {
    a: u64,
    b: u64,
}

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher {
            a: 0xcbf2_9ce4_8422_2325,
            b: 0x6c62_272e_07bb_0142,
        }
    }
}

impl KeyHasher {
    pub fn bytes(&mut self, part: &[u8]) -> &mut Self {
        for byte in (part.len() as u64).to_le_bytes().iter().chain(part) {
            // Two FNV-1a streams with different starts, the second over a
            // rotated byte, so the halves differ.
            self.a = (self.a ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
            self.b = (self.b ^ u64::from(byte.rotate_left(3))).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    pub fn u32s(&mut self, words: &[u32]) -> &mut Self {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.bytes(&bytes)
    }

    pub fn finish(&self) -> CacheKey {
        let mut key = [0u8; 16];
        key[..8].copy_from_slice(&self.a.to_le_bytes());
        key[8..].copy_from_slice(&self.b.to_le_bytes());
        key
    }
}

/// The header that starts the cache data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheHeader {
    pub vendor_id: u32,
    pub device_id: u32,
    pub uuid: [u8; 16],
    /// The driver build that wrote the data.
    pub build_id: [u8; 16],
    /// The GPU whose machine code the entries hold.
    pub chip_id: u64,
}

/// `sizeof(VkPipelineCacheHeaderVersionOne)`.
pub const HEADER_SIZE: usize = 32;

/// What follows the header: the build id and the chip id.
const IDENTITY_SIZE: usize = 16 + 8;

/// An entry's fixed part: key, body length, hash of key and body.
const ENTRY_HEAD_SIZE: usize = 16 + 4 + 16;

/// The hash an entry carries: any changed byte of the key or the body
/// changes it (each FNV-1a step is a bijection of the state).
fn entry_hash(key: &[u8], body: &[u8]) -> CacheKey {
    KeyHasher::default()
        .bytes(b"parsnip cache entry")
        .bytes(key)
        .bytes(body)
        .finish()
}

impl CacheHeader {
    /// Vulkan's header, then the identity.
    fn to_bytes(self) -> [u8; HEADER_SIZE + IDENTITY_SIZE] {
        let mut out = [0u8; HEADER_SIZE + IDENTITY_SIZE];
        out[0..4].copy_from_slice(&(HEADER_SIZE as u32).to_le_bytes());
        out[4..8]
            .copy_from_slice(&(vk::PipelineCacheHeaderVersion::ONE.as_raw() as u32).to_le_bytes());
        out[8..12].copy_from_slice(&self.vendor_id.to_le_bytes());
        out[12..16].copy_from_slice(&self.device_id.to_le_bytes());
        out[16..32].copy_from_slice(&self.uuid);
        out[32..48].copy_from_slice(&self.build_id);
        out[48..56].copy_from_slice(&self.chip_id.to_le_bytes());
        out
    }
}

pub struct PipelineCache {
    pub header: CacheHeader,
    entries: Mutex<HashMap<CacheKey, Arc<ShaderBinary>>>,
}

impl PipelineCache {
    /// A cache, filled from `initial` data when it is this device's.
    pub fn new(header: CacheHeader, initial: &[u8]) -> Arc<PipelineCache> {
        let cache = PipelineCache {
            header,
            entries: Mutex::new(HashMap::new()),
        };
        cache.load(initial);
        Arc::new(cache)
    }

    fn load(&self, data: &[u8]) {
        let header = self.header.to_bytes();
        if data.get(..header.len()) != Some(&header[..]) {
            return;
        }
        let mut at = header.len();
        let mut entries = self.entries.lock();
        let read_u32 = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
        };
        let Some(count) = read_u32(at) else { return };
        at += 4;
        for _ in 0..count {
            let Some(head) = data.get(at..at + ENTRY_HEAD_SIZE) else {
                return;
            };
            let (key, rest) = head.split_at(16);
            let (len, hash) = rest.split_at(4);
            let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
            let start = at + ENTRY_HEAD_SIZE;
            let Some(body) = data.get(start..start.saturating_add(len)) else {
                return;
            };
            at = start + len;
            if hash != entry_hash(key, body) {
                // Damaged: compiled again when a pipeline asks for it.
                continue;
            }
            if let Some(binary) = ShaderBinary::from_bytes(body) {
                entries.insert(key.try_into().expect("16 bytes"), Arc::new(binary));
            }
        }
    }

    pub fn get(&self, key: &CacheKey) -> Option<Arc<ShaderBinary>> {
        self.entries.lock().get(key).cloned()
    }

    pub fn insert(&self, key: CacheKey, binary: Arc<ShaderBinary>) {
        self.entries.lock().insert(key, binary);
    }

    pub fn len(&self) -> usize {
        self.entries.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `vkGetPipelineCacheData`'s bytes.
    pub fn data(&self) -> Vec<u8> {
        let entries = self.entries.lock();
        let mut keys: Vec<&CacheKey> = entries.keys().collect();
        keys.sort();
        let mut out = self.header.to_bytes().to_vec();
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        for key in keys {
            let body = entries[key].to_bytes();
            out.extend_from_slice(key);
            out.extend_from_slice(&(body.len() as u32).to_le_bytes());
            out.extend_from_slice(&entry_hash(key, &body));
            out.extend_from_slice(&body);
        }
        out
    }

    /// `vkMergePipelineCaches`.
    pub fn merge(&self, sources: &[Arc<PipelineCache>]) {
        for src in sources {
            if std::ptr::eq(Arc::as_ptr(src), self) {
                continue;
            }
            let theirs: Vec<(CacheKey, Arc<ShaderBinary>)> = src
                .entries
                .lock()
                .iter()
                .map(|(k, v)| (*k, v.clone()))
                .collect();
            self.entries.lock().extend(theirs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::binary::tests::sample;
    use super::*;

    fn header() -> CacheHeader {
        CacheHeader {
            vendor_id: 0x5143,
            device_id: 0x0606_0001,
            uuid: [7; 16],
            build_id: [9; 16],
            chip_id: 0x0606_0001,
        }
    }

    #[test]
    fn the_data_starts_with_vulkans_header_and_reloads() {
        let cache = PipelineCache::new(header(), &[]);
        let key = KeyHasher::default().bytes(b"spirv").finish();
        cache.insert(key, Arc::new(sample()));
        let data = cache.data();
        // VkPipelineCacheHeaderVersionOne: size 32, version 1, vendor,
        // device, UUID.
        assert_eq!(&data[0..8], &[32, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(&data[8..12], &0x5143u32.to_le_bytes());
        assert_eq!(&data[16..32], &[7; 16]);
        let reloaded = PipelineCache::new(header(), &data);
        assert_eq!(reloaded.get(&key).as_deref(), Some(&sample()));
    }

    #[test]
    fn foreign_or_damaged_data_is_ignored() {
        let cache = PipelineCache::new(header(), &[]);
        cache.insert([1; 16], Arc::new(sample()));
        let data = cache.data();
        let other = CacheHeader {
            device_id: 0x4305_0a01,
            ..header()
        };
        assert!(PipelineCache::new(other, &data).is_empty());
        assert!(PipelineCache::new(header(), &data[..data.len() - 3]).is_empty());
        assert!(PipelineCache::new(header(), &data[..10]).is_empty());
        let other_build = CacheHeader {
            build_id: [8; 16],
            ..header()
        };
        assert!(PipelineCache::new(other_build, &data).is_empty());
    }

    #[test]
    fn the_identity_follows_vulkans_header() {
        let data = PipelineCache::new(header(), &[]).data();
        assert_eq!(&data[32..48], &[9; 16]);
        assert_eq!(&data[48..56], &0x0606_0001u64.to_le_bytes());
        assert_eq!(&data[56..60], &0u32.to_le_bytes(), "no entries");
    }

    #[test]
    fn every_changed_byte_of_an_entry_drops_that_entry_only() {
        let cache = PipelineCache::new(header(), &[]);
        cache.insert([1; 16], Arc::new(sample()));
        cache.insert([2; 16], Arc::new(sample()));
        let data = cache.data();
        let first_entry = HEADER_SIZE + IDENTITY_SIZE + 4;
        let entry_len = (data.len() - first_entry) / 2;
        for at in first_entry..first_entry + entry_len {
            for flip in [0x01u8, 0x80] {
                let mut damaged = data.clone();
                damaged[at] ^= flip;
                let loaded = PipelineCache::new(header(), &damaged);
                assert!(loaded.get(&[1; 16]).is_none(), "byte {at} ^ {flip:#x}");
                // The length field may now point elsewhere: what follows is
                // either read whole and intact, or not at all.
                if let Some(second) = loaded.get(&[2; 16]) {
                    assert_eq!(*second, sample());
                }
                assert!(loaded.len() <= 1);
            }
        }
        // Damage in the second entry leaves the first.
        let mut damaged = data.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 0x10;
        let loaded = PipelineCache::new(header(), &damaged);
        assert_eq!(loaded.len(), 1);
        assert!(loaded.get(&[1; 16]).is_some());
    }

    #[test]
    fn keys_depend_on_how_bytes_split_into_parts() {
        let ab = KeyHasher::default().bytes(b"ab").bytes(b"c").finish();
        let a_bc = KeyHasher::default().bytes(b"a").bytes(b"bc").finish();
        assert_ne!(ab, a_bc);
        let merged = PipelineCache::new(header(), &[]);
        let src = PipelineCache::new(header(), &[]);
        src.insert(ab, Arc::new(sample()));
        merged.merge(&[src.clone(), merged.clone()]);
        assert_eq!(merged.len(), 1);
    }
}
