//! `VkEvent`: one dword of GPU memory, 1 when set and 0 when reset. The CPU
//! reads and writes it through the mapping; command buffers write it with
//! CP_MEM_WRITE and wait for it with CP_WAIT_REG_MEM.

use std::sync::Arc;

use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;

/// The values the event's dword holds.
pub const EVENT_SET: u32 = 1;
pub const EVENT_RESET: u32 = 0;

pub struct Event {
    pub bo: Arc<DeviceBo>,
}

impl Event {
    pub fn new(device: &Device) -> VkResult<Arc<Event>> {
        let bo = device.allocate_bo(4, BoKind::DriverData)?;
        Ok(Arc::new(Event { bo }))
    }

    pub fn iova(&self) -> u64 {
        self.bo.iova()
    }

    pub fn is_set(&self) -> VkResult<bool> {
        let mut word = [0u8; 4];
        self.bo.read(0, &mut word)?;
        Ok(u32::from_le_bytes(word) == EVENT_SET)
    }

    pub fn set(&self) -> VkResult<()> {
        self.bo.write_dwords(0, &[EVENT_SET])
    }

    pub fn reset(&self) -> VkResult<()> {
        self.bo.write_dwords(0, &[EVENT_RESET])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_starts_reset_and_toggles() {
        let device = crate::device::tests::null_device("a660");
        let e = Event::new(&device).unwrap();
        assert!(!e.is_set().unwrap());
        e.set().unwrap();
        assert!(e.is_set().unwrap());
        e.reset().unwrap();
        assert!(!e.is_set().unwrap());
    }
}
