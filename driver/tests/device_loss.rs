//! Device loss is per device: each device is its own kernel context, so a
//! fault in one device's work loses that device only. A device that existed
//! before, and one created after the lost one is gone, keep working (the
//! issue's reproduction: both used to return the old hang report).

mod common;

use std::sync::Arc;

use ash::vk;
use common::{simulated_device_on, simulated_physical, submit_and_wait};
use parsnip_driver::buffer::Buffer;
use parsnip_driver::device::Device;
use parsnip_driver::device_memory::DeviceMemory;

/// Writes `value` to a fresh buffer on `device` with vkCmdUpdateBuffer and
/// reads it back.
fn write_and_read(device: &Arc<Device>, value: u32) -> Result<u32, vk::Result> {
    let memory = DeviceMemory::allocate(device, 4096, 0)?;
    let buffer = Buffer::new(64, vk::BufferUsageFlags::TRANSFER_DST)?;
    buffer.bind(memory.clone(), 0)?;
    submit_and_wait(device, |c| {
        c.record(|r| r.update_buffer(&buffer, 8, &value.to_le_bytes()))
    })?;
    let mut word = [0u8; 4];
    memory
        .bo
        .read(8, &mut word)
        .map_err(|_| vk::Result::ERROR_UNKNOWN)?;
    Ok(u32::from_le_bytes(word))
}

/// A submit whose CP write faults: a buffer never bound to memory is at
/// address 0, which no BO covers.
fn fault(device: &Arc<Device>) -> Result<(), vk::Result> {
    let unbound = Buffer::new(64, vk::BufferUsageFlags::TRANSFER_DST)?;
    submit_and_wait(device, |c| {
        c.record(|r| r.update_buffer(&unbound, 0, &[1, 2, 3, 4]))
    })
}

#[test]
fn a_fault_loses_only_the_device_whose_work_faulted() {
    for gpu in ["a660", "a740"] {
        let physical = simulated_physical(gpu);
        let before = simulated_device_on(&physical);
        let faulting = simulated_device_on(&physical);
        assert_eq!(write_and_read(&faulting, 0x1111), Ok(0x1111), "{gpu}");
        assert_eq!(
            fault(&faulting),
            Err(vk::Result::ERROR_DEVICE_LOST),
            "{gpu}"
        );
        assert_eq!(
            faulting.wait_idle(),
            Err(vk::Result::ERROR_DEVICE_LOST),
            "{gpu}: the lost device stays lost"
        );
        assert_eq!(
            write_and_read(&faulting, 1),
            Err(vk::Result::ERROR_DEVICE_LOST),
            "{gpu}"
        );
        assert_eq!(
            write_and_read(&before, 0x2222),
            Ok(0x2222),
            "{gpu}: a device that existed before"
        );
        before.wait_idle().unwrap();
        drop(faulting);
        let after = simulated_device_on(&physical);
        assert_eq!(
            write_and_read(&after, 0x3333),
            Ok(0x3333),
            "{gpu}: a device created after the lost one"
        );
    }
}
