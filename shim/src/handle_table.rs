//! Per-file handle spaces, as the kernel's idr gives them: GEM handles,
//! syncobj handles, kgsl ids. A new handle is the lowest free one from 1,
//! so a closed handle's number comes back (as it does on the kernel).

use std::collections::BTreeMap;

pub struct HandleTable<T> {
    entries: BTreeMap<u32, T>,
}

impl<T> Default for HandleTable<T> {
    fn default() -> Self {
        Self {
            entries: BTreeMap::new(),
        }
    }
}

impl<T> HandleTable<T> {
    pub fn insert(&mut self, value: T) -> u32 {
        let mut handle = 1;
        for &used in self.entries.keys() {
            if used != handle {
                break;
            }
            handle += 1;
        }
        self.entries.insert(handle, value);
        handle
    }

    pub fn get(&self, handle: u32) -> Option<&T> {
        self.entries.get(&handle)
    }

    pub fn entries_mut(&mut self, handle: u32) -> Option<&mut T> {
        self.entries.get_mut(&handle)
    }

    pub fn remove(&mut self, handle: u32) -> Option<T> {
        self.entries.remove(&handle)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&u32, &T)> {
        self.entries.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowest_free_handle_is_reused() {
        let mut t = HandleTable::default();
        assert_eq!((t.insert('a'), t.insert('b'), t.insert('c')), (1, 2, 3));
        t.remove(2);
        assert_eq!(t.insert('d'), 2);
        assert_eq!(t.insert('e'), 4);
        assert_eq!(t.get(2), Some(&'d'));
    }
}
