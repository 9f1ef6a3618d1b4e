//! Private data slots (VK_EXT_private_data): a slot holds one 64-bit value
//! per device object, which the application sets and reads back. The GPU
//! never sees them; a slot is a map from (object type, handle) to the
//! value, 0 for an object never set.

use ash::vk;
use parking_lot::Mutex;
use std::collections::HashMap;

#[derive(Default)]
pub struct PrivateDataSlot {
    values: Mutex<HashMap<(vk::ObjectType, u64), u64>>,
}

impl PrivateDataSlot {
    pub fn new() -> PrivateDataSlot {
        PrivateDataSlot::default()
    }

    pub fn set(&self, ty: vk::ObjectType, handle: u64, value: u64) {
        self.values.lock().insert((ty, handle), value);
    }

    /// The value last set for the object, or 0 if none was.
    pub fn get(&self, ty: vk::ObjectType, handle: u64) -> u64 {
        self.values.lock().get(&(ty, handle)).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_object_keeps_its_own_value_and_unset_objects_read_zero() {
        let slot = PrivateDataSlot::new();
        slot.set(vk::ObjectType::BUFFER, 0x1000, 7);
        slot.set(vk::ObjectType::IMAGE, 0x2000, 9);
        slot.set(vk::ObjectType::BUFFER, 0x1000, 11);
        assert_eq!(slot.get(vk::ObjectType::BUFFER, 0x1000), 11);
        assert_eq!(slot.get(vk::ObjectType::IMAGE, 0x2000), 9);
        assert_eq!(slot.get(vk::ObjectType::IMAGE, 0x1000), 0);
        assert_eq!(slot.get(vk::ObjectType::FENCE, 0x3000), 0);
    }
}
