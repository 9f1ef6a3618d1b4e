//! `vkCmdPipelineBarrier` and `vkCmdPipelineBarrier2`: the cache operations
//! each dependency needs are added to those owed before the next GPU work.
//! Buffer barriers are memory barriers over a range: the caches have no
//! finer control, so their range does not matter.

use ash::vk;

use super::buffer::Recording;
use super::cache::CacheOps;
use crate::error::VkResult;

/// One memory dependency, in synchronization2 terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dependency {
    pub src_stages: vk::PipelineStageFlags2,
    pub src_access: vk::AccessFlags2,
    pub dst_stages: vk::PipelineStageFlags2,
    pub dst_access: vk::AccessFlags2,
}

impl Dependency {
    /// A Vulkan 1.0 barrier's memory dependency: the 1.0 flags are the low
    /// bits of the synchronization2 ones.
    pub fn from_v1(
        src_stages: vk::PipelineStageFlags,
        src_access: vk::AccessFlags,
        dst_stages: vk::PipelineStageFlags,
        dst_access: vk::AccessFlags,
    ) -> Dependency {
        Dependency {
            src_stages: vk::PipelineStageFlags2::from_raw(u64::from(src_stages.as_raw())),
            src_access: vk::AccessFlags2::from_raw(u64::from(src_access.as_raw())),
            dst_stages: vk::PipelineStageFlags2::from_raw(u64::from(dst_stages.as_raw())),
            dst_access: vk::AccessFlags2::from_raw(u64::from(dst_access.as_raw())),
        }
    }

    pub fn cache_ops(&self) -> CacheOps {
        CacheOps::for_dependency(
            self.src_stages,
            self.src_access,
            self.dst_stages,
            self.dst_access,
        )
    }
}

impl Recording {
    /// A barrier made of `dependencies` (an execution-only barrier is one
    /// dependency with no access flags).
    pub fn pipeline_barrier(&mut self, dependencies: &[Dependency]) -> VkResult<()> {
        for d in dependencies {
            self.pending = self.pending.union(d.cache_ops());
        }
        if self.device.debug.flushall && !dependencies.is_empty() {
            self.pending = super::cache::CacheOps::all();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_1_flags_keep_their_meaning() {
        let d = Dependency::from_v1(
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_WRITE,
            vk::PipelineStageFlags::HOST,
            vk::AccessFlags::HOST_READ,
        );
        assert_eq!(d.src_stages, vk::PipelineStageFlags2::COMPUTE_SHADER);
        assert_eq!(d.dst_access, vk::AccessFlags2::HOST_READ);
        let ops = d.cache_ops();
        assert!(ops.flush && ops.wait_for_idle);
    }
}
