//! Private data (VK_EXT_private_data, core in Vulkan 1.3): a slot holds one
//! 64-bit value per device object, which the application sets and reads
//! back. The GPU never sees them.
//!
//! The values live with the object they belong to, not in the slot: a
//! handle is the address of the object's allocation, so once an object is
//! destroyed its address may be the handle of a new object, which must read
//! 0 in every slot. Retiring a handle therefore drops every value kept for
//! it ([`PrivateValues::forget_object`]), and a slot has an id of its own
//! that no later slot reuses, so a slot made where a destroyed one was does
//! not inherit its values either.

use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// A slot: only its id, under which objects keep their values.
pub struct PrivateDataSlot {
    id: u64,
}

impl PrivateDataSlot {
    pub fn new() -> PrivateDataSlot {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        PrivateDataSlot {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }
}

impl Default for PrivateDataSlot {
    fn default() -> Self {
        Self::new()
    }
}

/// Every private value of every live object, by the object's handle, then
/// by slot. Handles of live objects are distinct addresses whatever their
/// type, so the handle alone names the object.
pub struct PrivateValues {
    by_object: Mutex<BTreeMap<u64, Vec<(u64, u64)>>>,
}

impl PrivateValues {
    pub const fn new() -> PrivateValues {
        PrivateValues {
            by_object: Mutex::new(BTreeMap::new()),
        }
    }

    pub fn set(&self, slot: &PrivateDataSlot, object: u64, value: u64) {
        let mut by_object = self.by_object.lock();
        let values = by_object.entry(object).or_default();
        match values.iter_mut().find(|(id, _)| *id == slot.id) {
            Some(entry) => entry.1 = value,
            None => values.push((slot.id, value)),
        }
    }

    /// The value last set for the object in the slot, or 0 if none was
    /// since the object was made.
    pub fn get(&self, slot: &PrivateDataSlot, object: u64) -> u64 {
        self.by_object
            .lock()
            .get(&object)
            .and_then(|values| values.iter().find(|(id, _)| *id == slot.id))
            .map_or(0, |&(_, value)| value)
    }

    /// Drops the values of an object being destroyed, whose handle a new
    /// object may get next.
    pub fn forget_object(&self, object: u64) {
        let mut by_object = self.by_object.lock();
        if !by_object.is_empty() {
            by_object.remove(&object);
        }
    }

    /// Drops the values every object keeps in a slot being destroyed.
    pub fn forget_slot(&self, slot: &PrivateDataSlot) {
        self.by_object.lock().retain(|_, values| {
            values.retain(|(id, _)| *id != slot.id);
            !values.is_empty()
        });
    }
}

impl Default for PrivateValues {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_object_keeps_its_own_value_per_slot_and_unset_objects_read_zero() {
        let values = PrivateValues::new();
        let (a, b) = (PrivateDataSlot::new(), PrivateDataSlot::new());
        values.set(&a, 0x1000, 7);
        values.set(&a, 0x2000, 9);
        values.set(&b, 0x1000, 5);
        values.set(&a, 0x1000, 11);
        assert_eq!(values.get(&a, 0x1000), 11);
        assert_eq!(values.get(&b, 0x1000), 5);
        assert_eq!(values.get(&a, 0x2000), 9);
        assert_eq!(values.get(&b, 0x2000), 0);
        assert_eq!(values.get(&a, 0x3000), 0);
    }

    #[test]
    fn an_object_made_at_a_destroyed_objects_handle_reads_zero() {
        let values = PrivateValues::new();
        let (a, b) = (PrivateDataSlot::new(), PrivateDataSlot::new());
        values.set(&a, 0x1000, 7);
        values.set(&b, 0x1000, 8);
        values.set(&a, 0x2000, 9);
        values.forget_object(0x1000);
        assert_eq!(values.get(&a, 0x1000), 0);
        assert_eq!(values.get(&b, 0x1000), 0);
        assert_eq!(values.get(&a, 0x2000), 9, "another object keeps its value");
    }

    #[test]
    fn a_new_slot_starts_empty_and_a_destroyed_slots_values_go() {
        let values = PrivateValues::new();
        let (a, b) = (PrivateDataSlot::new(), PrivateDataSlot::new());
        values.set(&a, 0x1000, 7);
        values.set(&b, 0x1000, 8);
        values.forget_slot(&a);
        assert_eq!(values.get(&a, 0x1000), 0);
        assert_eq!(values.get(&b, 0x1000), 8);
        let c = PrivateDataSlot::new();
        assert_eq!(values.get(&c, 0x1000), 0);
    }
}
