//! `VkQueryPool` of timestamps or occlusion queries, one slot per query in
//! one BO: an availability word (1 once written), then the values. A
//! timestamp's slot is 16 bytes: availability, the 64-bit timestamp. An
//! occlusion query's is 32: availability, then the three counts the
//! hardware writes (`parsnip_hw_state::occlusion`): the sample count at
//! its begin, the result (samples that passed), the count at its end. The
//! CPU reads results through the mapping; command buffers write, reset
//! and copy them with CP packets (cmd/query.rs).
//!
//! Pipeline statistics are refused: the model keeps the counters
//! (RBBM_PRIMCTR_*), but the driver does not program or read them yet, so
//! the pipelineStatisticsQuery feature is not offered.

use std::sync::Arc;

use ash::vk;
use parsnip_hw_state::occlusion::OcclusionSlot;

use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;

/// Where a slot's availability word is.
pub const AVAILABLE_OFFSET: u64 = 0;
/// A timestamp slot's bytes, and where its value is.
const TIMESTAMP_SLOT_BYTES: u64 = 16;
const TIMESTAMP_VALUE_OFFSET: u64 = 8;
/// An occlusion slot's bytes, and where its begin count is (the result
/// follows it).
const OCCLUSION_SLOT_BYTES: u64 = 32;
const OCCLUSION_BEGIN_OFFSET: u64 = 8;

pub struct QueryPool {
    pub device: Arc<Device>,
    pub ty: vk::QueryType,
    pub count: u32,
    pub bo: Arc<DeviceBo>,
    /// Bytes per query, and where in a slot the value is.
    pub slot_bytes: u64,
    value_offset: u64,
}

impl QueryPool {
    pub fn new(device: &Arc<Device>, ty: vk::QueryType, count: u32) -> VkResult<Arc<QueryPool>> {
        match ty {
            vk::QueryType::TIMESTAMP | vk::QueryType::OCCLUSION => {}
            vk::QueryType::PIPELINE_STATISTICS => {
                // Only with the pipelineStatisticsQuery feature, which the
                // device does not report.
                eprintln!(
                    "parsnip: vkCreateQueryPool: pipeline statistics need the \
                     pipelineStatisticsQuery feature, which Parsnip does not offer"
                );
                return Err(vk::Result::ERROR_FEATURE_NOT_PRESENT);
            }
            _ => {
                eprintln!(
                    "parsnip: vkCreateQueryPool: {ty:?} queries belong to an extension Parsnip \
                     does not offer"
                );
                return Err(vk::Result::ERROR_FEATURE_NOT_PRESENT);
            }
        }
        let (slot_bytes, value_offset) = if ty == vk::QueryType::OCCLUSION {
            (
                OCCLUSION_SLOT_BYTES,
                OCCLUSION_BEGIN_OFFSET + (OcclusionSlot { begin: 0 }).result(),
            )
        } else {
            (TIMESTAMP_SLOT_BYTES, TIMESTAMP_VALUE_OFFSET)
        };
        let bo = device.allocate_bo(u64::from(count.max(1)) * slot_bytes, BoKind::DriverData)?;
        Ok(Arc::new(QueryPool {
            device: device.clone(),
            ty,
            count,
            bo,
            slot_bytes,
            value_offset,
        }))
    }

    pub fn slot_iova(&self, query: u32) -> u64 {
        self.bo.iova() + u64::from(query) * self.slot_bytes
    }

    /// Where query `query`'s availability word is.
    pub fn available_iova(&self, query: u32) -> u64 {
        self.slot_iova(query) + AVAILABLE_OFFSET
    }

    /// Where query `query`'s value (its result) is.
    pub fn value_iova(&self, query: u32) -> u64 {
        self.slot_iova(query) + self.value_offset
    }

    /// An occlusion query's counts.
    pub fn occlusion_slot(&self, query: u32) -> OcclusionSlot {
        OcclusionSlot {
            begin: self.slot_iova(query) + OCCLUSION_BEGIN_OFFSET,
        }
    }

    fn read_u64(&self, offset: u64) -> VkResult<u64> {
        let mut b = [0u8; 8];
        self.bo.read(offset, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// (available, value) of one query.
    pub fn read(&self, query: u32) -> VkResult<(bool, u64)> {
        let at = u64::from(query) * self.slot_bytes;
        Ok((
            self.read_u64(at + AVAILABLE_OFFSET)? != 0,
            self.read_u64(at + self.value_offset)?,
        ))
    }

    /// `vkResetQueryPool` from the host.
    pub fn host_reset(&self, first: u32, count: u32) -> VkResult<()> {
        if first.checked_add(count).is_none_or(|end| end > self.count) {
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let zeros = vec![0u8; (u64::from(count) * self.slot_bytes) as usize];
        self.bo.write(u64::from(first) * self.slot_bytes, &zeros)
    }

    /// `vkGetQueryPoolResults` into `out`: `NOT_READY` when a query without
    /// `WAIT` is unavailable (its value is then not written, unless
    /// `PARTIAL` asks for what it has counted so far).
    pub fn results(
        &self,
        first: u32,
        count: u32,
        out: &mut [u8],
        stride: u64,
        flags: vk::QueryResultFlags,
    ) -> VkResult<vk::Result> {
        let wide = flags.contains(vk::QueryResultFlags::TYPE_64);
        let size = if wide { 8 } else { 4 };
        let with_availability = flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY);
        let mut result = vk::Result::SUCCESS;
        for i in 0..count {
            let query = first + i;
            let (mut available, mut value) = self.read(query)?;
            if flags.contains(vk::QueryResultFlags::WAIT) {
                // The query was submitted: wait for the device, checking it
                // is alive rather than spinning on a lost one.
                while !available {
                    self.device.wait_idle()?;
                    (available, value) = self.read(query)?;
                    if !available {
                        // Submitted in a batch still waiting for a
                        // semaphore: give the other threads time.
                        std::thread::sleep(std::time::Duration::from_micros(100));
                    }
                }
            }
            let at = (u64::from(i) * stride) as usize;
            let mut put = |index: usize, v: u64| {
                let start = at + index * size;
                if let Some(dst) = out.get_mut(start..start + size) {
                    if wide {
                        dst.copy_from_slice(&v.to_le_bytes());
                    } else {
                        dst.copy_from_slice(&(v as u32).to_le_bytes());
                    }
                }
            };
            if available || flags.contains(vk::QueryResultFlags::PARTIAL) {
                put(0, value);
            }
            if !available {
                result = vk::Result::NOT_READY;
            }
            if with_availability {
                put(1, u64::from(available));
            }
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_report_availability_and_respect_the_width() {
        let device = crate::device::tests::null_device("a660");
        let pool = QueryPool::new(&device, vk::QueryType::TIMESTAMP, 2).unwrap();
        pool.bo.write(16, &[1, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        pool.bo.write(24, &0x1_0000_0002u64.to_le_bytes()).unwrap();
        let mut out = vec![0xffu8; 32];
        let r = pool
            .results(
                0,
                2,
                &mut out,
                16,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY,
            )
            .unwrap();
        assert_eq!(r, vk::Result::NOT_READY);
        assert_eq!(
            &out[0..8],
            &[0xff; 8],
            "an unavailable value is not written"
        );
        assert_eq!(&out[8..16], &[0; 8]);
        assert_eq!(
            u64::from_le_bytes(out[16..24].try_into().unwrap()),
            0x1_0000_0002
        );
        assert_eq!(u64::from_le_bytes(out[24..32].try_into().unwrap()), 1);
        let mut narrow = vec![0u8; 4];
        assert_eq!(
            pool.results(1, 1, &mut narrow, 4, vk::QueryResultFlags::empty())
                .unwrap(),
            vk::Result::SUCCESS
        );
        assert_eq!(u32::from_le_bytes(narrow.try_into().unwrap()), 2);
        pool.host_reset(0, 2).unwrap();
        assert_eq!(pool.read(1).unwrap(), (false, 0));
    }

    #[test]
    fn occlusion_pools_start_unavailable_and_statistics_need_their_feature() {
        let device = crate::device::tests::null_device("a660");
        let pool = QueryPool::new(&device, vk::QueryType::OCCLUSION, 3).unwrap();
        assert_eq!(pool.ty, vk::QueryType::OCCLUSION);
        let mut out = [0u8; 24];
        assert_eq!(
            pool.results(0, 3, &mut out, 8, vk::QueryResultFlags::TYPE_64),
            Ok(vk::Result::NOT_READY)
        );
        assert_eq!(
            QueryPool::new(&device, vk::QueryType::PIPELINE_STATISTICS, 1).err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );
    }

    #[test]
    fn occlusion_results_are_the_word_after_the_begin_count_and_partial_gives_it_early() {
        let device = crate::device::tests::null_device("a740");
        let pool = QueryPool::new(&device, vk::QueryType::OCCLUSION, 2).unwrap();
        assert_eq!(pool.slot_bytes, 32);
        let slot = pool.occlusion_slot(1);
        assert_eq!(slot.begin, pool.slot_iova(1) + 8);
        assert_eq!(pool.value_iova(1), slot.result());
        // The end count is the slot's last word.
        assert_eq!(slot.end() + 8, pool.slot_iova(2));
        // Query 1: begun at 100, 40 samples so far, not ended.
        pool.bo.write(40, &100u64.to_le_bytes()).unwrap();
        pool.bo.write(48, &40u64.to_le_bytes()).unwrap();
        let mut out = [0xffu8; 8];
        let flags = vk::QueryResultFlags::TYPE_64;
        assert_eq!(
            pool.results(1, 1, &mut out, 8, flags),
            Ok(vk::Result::NOT_READY)
        );
        assert_eq!(out, [0xff; 8]);
        assert_eq!(
            pool.results(1, 1, &mut out, 8, flags | vk::QueryResultFlags::PARTIAL),
            Ok(vk::Result::NOT_READY)
        );
        assert_eq!(u64::from_le_bytes(out), 40);
    }
}
