//! Typed values to and from the little-endian bytes of a Vulkan buffer.
//!
//! Cases compute expectations as `u32`, `i32`, `f32`, ... and read buffers as
//! bytes; the conversion is spelled out here rather than by reinterpreting
//! memory, so it is the same on any host.

/// A value stored in a buffer as `SIZE` little-endian bytes.
pub trait Word: Copy {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    /// `bytes` holds exactly `SIZE` bytes.
    fn take(bytes: &[u8]) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn take(bytes: &[u8]) -> Self {
                let mut raw = [0u8; std::mem::size_of::<$t>()];
                raw.copy_from_slice(bytes);
                <$t>::from_le_bytes(raw)
            }
        }
    )*};
}
word!(u8, u16, u32, i32, u64, i64, f32);

/// The bytes of `values`, in order.
pub fn to_bytes<T: Word>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * T::SIZE);
    for v in values {
        v.put(&mut out);
    }
    out
}

/// The values stored in `bytes`; a trailing partial value is ignored.
pub fn from_bytes<T: Word>(bytes: &[u8]) -> Vec<T> {
    bytes.chunks_exact(T::SIZE).map(T::take).collect()
}

/// Builds a buffer's bytes field by field at explicit offsets, the way a
/// case lays out a std140 or std430 block by hand from the layout rules.
#[derive(Default)]
pub struct Layout {
    bytes: Vec<u8>,
}

impl Layout {
    pub fn with_size(size: usize) -> Layout {
        Layout::filled(size, 0)
    }

    /// `size` bytes of `byte`: padding a reader must skip stands out.
    pub fn filled(size: usize, byte: u8) -> Layout {
        Layout {
            bytes: vec![byte; size],
        }
    }

    /// Stores `values` one after another from `offset`, growing the buffer
    /// as needed.
    pub fn put<T: Word>(&mut self, offset: usize, values: &[T]) -> &mut Layout {
        let encoded = to_bytes(values);
        let end = offset + encoded.len();
        if self.bytes.len() < end {
            self.bytes.resize(end, 0);
        }
        self.bytes[offset..end].copy_from_slice(&encoded);
        self
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_little_endian() {
        assert_eq!(to_bytes(&[0x0403_0201u32]), [1, 2, 3, 4]);
        assert_eq!(to_bytes(&[1.0f32]), [0, 0, 0x80, 0x3f]);
        assert_eq!(to_bytes(&[-2i32]), [0xfe, 0xff, 0xff, 0xff]);
        assert_eq!(
            from_bytes::<u64>(&[1, 0, 0, 0, 0, 0, 0, 0x80, 9]),
            [0x8000_0000_0000_0001]
        );
    }

    #[test]
    fn layout_places_fields_at_offsets() {
        let mut l = Layout::with_size(4);
        l.put(8, &[7u32]).put(0, &[1u16, 2u16]);
        assert_eq!(l.bytes(), [1, 0, 2, 0, 0, 0, 0, 0, 7, 0, 0, 0]);
    }
}
