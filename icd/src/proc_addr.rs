//! Which entry point a name resolves to, at which level, and when it is
//! available: the tables behind `vkGetInstanceProcAddr`,
//! `vkGetDeviceProcAddr` and `vk_icdGetPhysicalDeviceProcAddr`. Only
//! implemented entry points are listed: an unknown name resolves to NULL.

use std::ffi::CStr;
use std::sync::LazyLock;

use ash::vk;

use crate::{
    command_buffer as cb, commands as cmd, descriptor as ds, device as dev, graphics as gr,
    instance as inst, render_pass as rp,
};
use crate::{physical_device as pd, pipeline as pl, query as qp, queue as q, sync as sy};

/// Where an entry point belongs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Callable with no instance (`vkCreateInstance` and friends).
    Global,
    /// Dispatched on an instance.
    Instance,
    /// Dispatched on a physical device.
    PhysicalDevice,
    /// Dispatched on a device, queue or command buffer; `Some` names the
    /// device extension that must be enabled for it.
    Device(Option<&'static CStr>),
}

pub struct Entry {
    pub name: &'static CStr,
    pub scope: Scope,
    pub pfn: unsafe extern "system" fn(),
}

macro_rules! entries {
    ($($scope:expr => $name:literal $f:path;)*) => {
        vec![$(Entry {
            name: $name,
            scope: $scope,
            // SAFETY: function pointers and data pointers have the same
            // size on every platform the loader runs on; the loader casts
            // the pointer back to the entry point's own type before calling.
            pfn: unsafe {
                std::mem::transmute::<*const (), unsafe extern "system" fn()>($f as *const ())
            },
        }),*]
    };
}

const G: Scope = Scope::Global;
const I: Scope = Scope::Instance;
const P: Scope = Scope::PhysicalDevice;
const D: Scope = Scope::Device(None);
const TIMELINE: Scope = Scope::Device(Some(ash::khr::timeline_semaphore::NAME));
const SYNC2: Scope = Scope::Device(Some(ash::khr::synchronization2::NAME));
const HOST_RESET: Scope = Scope::Device(Some(ash::ext::host_query_reset::NAME));
const EXEC: Scope = Scope::Device(Some(ash::khr::pipeline_executable_properties::NAME));

static TABLE: LazyLock<Vec<Entry>> = LazyLock::new(|| {
    entries! {
        G => c"vkCreateInstance" inst::vkCreateInstance;
        G => c"vkEnumerateInstanceExtensionProperties" inst::vkEnumerateInstanceExtensionProperties;
        G => c"vkEnumerateInstanceVersion" inst::vkEnumerateInstanceVersion;
        G => c"vkEnumerateInstanceLayerProperties" inst::vkEnumerateInstanceLayerProperties;

        I => c"vkGetInstanceProcAddr" crate::loader::vkGetInstanceProcAddr;
        I => c"vkDestroyInstance" inst::vkDestroyInstance;
        I => c"vkEnumeratePhysicalDevices" inst::vkEnumeratePhysicalDevices;
        I => c"vkEnumeratePhysicalDeviceGroups" inst::vkEnumeratePhysicalDeviceGroups;
        I => c"vkEnumeratePhysicalDeviceGroupsKHR" inst::vkEnumeratePhysicalDeviceGroups;

        P => c"vkGetPhysicalDeviceProperties" pd::vkGetPhysicalDeviceProperties;
        P => c"vkGetPhysicalDeviceProperties2" pd::vkGetPhysicalDeviceProperties2;
        P => c"vkGetPhysicalDeviceProperties2KHR" pd::vkGetPhysicalDeviceProperties2;
        P => c"vkGetPhysicalDeviceFeatures" pd::vkGetPhysicalDeviceFeatures;
        P => c"vkGetPhysicalDeviceFeatures2" pd::vkGetPhysicalDeviceFeatures2;
        P => c"vkGetPhysicalDeviceFeatures2KHR" pd::vkGetPhysicalDeviceFeatures2;
        P => c"vkGetPhysicalDeviceFormatProperties" pd::vkGetPhysicalDeviceFormatProperties;
        P => c"vkGetPhysicalDeviceFormatProperties2" pd::vkGetPhysicalDeviceFormatProperties2;
        P => c"vkGetPhysicalDeviceFormatProperties2KHR" pd::vkGetPhysicalDeviceFormatProperties2;
        P => c"vkGetPhysicalDeviceImageFormatProperties" pd::vkGetPhysicalDeviceImageFormatProperties;
        P => c"vkGetPhysicalDeviceImageFormatProperties2" pd::vkGetPhysicalDeviceImageFormatProperties2;
        P => c"vkGetPhysicalDeviceImageFormatProperties2KHR" pd::vkGetPhysicalDeviceImageFormatProperties2;
        P => c"vkGetPhysicalDeviceSparseImageFormatProperties" pd::vkGetPhysicalDeviceSparseImageFormatProperties;
        P => c"vkGetPhysicalDeviceSparseImageFormatProperties2" pd::vkGetPhysicalDeviceSparseImageFormatProperties2;
        P => c"vkGetPhysicalDeviceSparseImageFormatProperties2KHR" pd::vkGetPhysicalDeviceSparseImageFormatProperties2;
        P => c"vkGetPhysicalDeviceQueueFamilyProperties" pd::vkGetPhysicalDeviceQueueFamilyProperties;
        P => c"vkGetPhysicalDeviceQueueFamilyProperties2" pd::vkGetPhysicalDeviceQueueFamilyProperties2;
        P => c"vkGetPhysicalDeviceQueueFamilyProperties2KHR" pd::vkGetPhysicalDeviceQueueFamilyProperties2;
        P => c"vkGetPhysicalDeviceMemoryProperties" pd::vkGetPhysicalDeviceMemoryProperties;
        P => c"vkGetPhysicalDeviceMemoryProperties2" pd::vkGetPhysicalDeviceMemoryProperties2;
        P => c"vkGetPhysicalDeviceMemoryProperties2KHR" pd::vkGetPhysicalDeviceMemoryProperties2;
        P => c"vkGetPhysicalDeviceExternalBufferProperties" pd::vkGetPhysicalDeviceExternalBufferProperties;
        P => c"vkGetPhysicalDeviceExternalFenceProperties" pd::vkGetPhysicalDeviceExternalFenceProperties;
        P => c"vkGetPhysicalDeviceExternalSemaphoreProperties" pd::vkGetPhysicalDeviceExternalSemaphoreProperties;
        P => c"vkEnumerateDeviceExtensionProperties" pd::vkEnumerateDeviceExtensionProperties;
        P => c"vkEnumerateDeviceLayerProperties" pd::vkEnumerateDeviceLayerProperties;
        P => c"vkCreateDevice" pd::vkCreateDevice;

        D => c"vkGetDeviceProcAddr" crate::loader::vkGetDeviceProcAddr;
        D => c"vkDestroyDevice" dev::vkDestroyDevice;
        D => c"vkGetDeviceQueue" dev::vkGetDeviceQueue;
        D => c"vkGetDeviceQueue2" dev::vkGetDeviceQueue2;
        D => c"vkDeviceWaitIdle" dev::vkDeviceWaitIdle;
        D => c"vkGetDeviceGroupPeerMemoryFeatures" dev::vkGetDeviceGroupPeerMemoryFeatures;
        D => c"vkAllocateMemory" dev::vkAllocateMemory;
        D => c"vkFreeMemory" dev::vkFreeMemory;
        D => c"vkMapMemory" dev::vkMapMemory;
        D => c"vkUnmapMemory" dev::vkUnmapMemory;
        D => c"vkFlushMappedMemoryRanges" dev::vkFlushMappedMemoryRanges;
        D => c"vkInvalidateMappedMemoryRanges" dev::vkInvalidateMappedMemoryRanges;
        D => c"vkGetDeviceMemoryCommitment" dev::vkGetDeviceMemoryCommitment;
        D => c"vkCreateBuffer" dev::vkCreateBuffer;
        D => c"vkDestroyBuffer" dev::vkDestroyBuffer;
        D => c"vkGetBufferMemoryRequirements" dev::vkGetBufferMemoryRequirements;
        D => c"vkGetBufferMemoryRequirements2" dev::vkGetBufferMemoryRequirements2;
        D => c"vkBindBufferMemory" dev::vkBindBufferMemory;
        D => c"vkBindBufferMemory2" dev::vkBindBufferMemory2;
        D => c"vkCreateBufferView" dev::vkCreateBufferView;
        D => c"vkDestroyBufferView" dev::vkDestroyBufferView;

        D => c"vkCreateDescriptorSetLayout" ds::vkCreateDescriptorSetLayout;
        D => c"vkDestroyDescriptorSetLayout" ds::vkDestroyDescriptorSetLayout;
        D => c"vkGetDescriptorSetLayoutSupport" ds::vkGetDescriptorSetLayoutSupport;
        D => c"vkCreateDescriptorPool" ds::vkCreateDescriptorPool;
        D => c"vkDestroyDescriptorPool" ds::vkDestroyDescriptorPool;
        D => c"vkResetDescriptorPool" ds::vkResetDescriptorPool;
        D => c"vkAllocateDescriptorSets" ds::vkAllocateDescriptorSets;
        D => c"vkFreeDescriptorSets" ds::vkFreeDescriptorSets;
        D => c"vkUpdateDescriptorSets" ds::vkUpdateDescriptorSets;
        D => c"vkCreateDescriptorUpdateTemplate" ds::vkCreateDescriptorUpdateTemplate;
        D => c"vkDestroyDescriptorUpdateTemplate" ds::vkDestroyDescriptorUpdateTemplate;
        D => c"vkUpdateDescriptorSetWithTemplate" ds::vkUpdateDescriptorSetWithTemplate;

        D => c"vkCreatePipelineLayout" pl::vkCreatePipelineLayout;
        D => c"vkDestroyPipelineLayout" pl::vkDestroyPipelineLayout;
        D => c"vkCreateShaderModule" pl::vkCreateShaderModule;
        D => c"vkDestroyShaderModule" pl::vkDestroyShaderModule;
        D => c"vkCreatePipelineCache" pl::vkCreatePipelineCache;
        D => c"vkDestroyPipelineCache" pl::vkDestroyPipelineCache;
        D => c"vkGetPipelineCacheData" pl::vkGetPipelineCacheData;
        D => c"vkMergePipelineCaches" pl::vkMergePipelineCaches;
        D => c"vkCreateComputePipelines" pl::vkCreateComputePipelines;
        D => c"vkDestroyPipeline" pl::vkDestroyPipeline;
        EXEC => c"vkGetPipelineExecutablePropertiesKHR" pl::vkGetPipelineExecutablePropertiesKHR;
        EXEC => c"vkGetPipelineExecutableStatisticsKHR" pl::vkGetPipelineExecutableStatisticsKHR;
        EXEC => c"vkGetPipelineExecutableInternalRepresentationsKHR" pl::vkGetPipelineExecutableInternalRepresentationsKHR;

        D => c"vkCreateFence" sy::vkCreateFence;
        D => c"vkDestroyFence" sy::vkDestroyFence;
        D => c"vkResetFences" sy::vkResetFences;
        D => c"vkGetFenceStatus" sy::vkGetFenceStatus;
        D => c"vkWaitForFences" sy::vkWaitForFences;
        D => c"vkCreateSemaphore" sy::vkCreateSemaphore;
        D => c"vkDestroySemaphore" sy::vkDestroySemaphore;
        TIMELINE => c"vkGetSemaphoreCounterValueKHR" sy::vkGetSemaphoreCounterValue;
        TIMELINE => c"vkWaitSemaphoresKHR" sy::vkWaitSemaphores;
        TIMELINE => c"vkSignalSemaphoreKHR" sy::vkSignalSemaphore;
        D => c"vkCreateEvent" sy::vkCreateEvent;
        D => c"vkDestroyEvent" sy::vkDestroyEvent;
        D => c"vkGetEventStatus" sy::vkGetEventStatus;
        D => c"vkSetEvent" sy::vkSetEvent;
        D => c"vkResetEvent" sy::vkResetEvent;

        D => c"vkCreateQueryPool" qp::vkCreateQueryPool;
        D => c"vkDestroyQueryPool" qp::vkDestroyQueryPool;
        D => c"vkGetQueryPoolResults" qp::vkGetQueryPoolResults;
        HOST_RESET => c"vkResetQueryPoolEXT" qp::vkResetQueryPool;

        D => c"vkCreateCommandPool" cb::vkCreateCommandPool;
        D => c"vkDestroyCommandPool" cb::vkDestroyCommandPool;
        D => c"vkResetCommandPool" cb::vkResetCommandPool;
        D => c"vkTrimCommandPool" cb::vkTrimCommandPool;
        D => c"vkAllocateCommandBuffers" cb::vkAllocateCommandBuffers;
        D => c"vkFreeCommandBuffers" cb::vkFreeCommandBuffers;
        D => c"vkBeginCommandBuffer" cb::vkBeginCommandBuffer;
        D => c"vkEndCommandBuffer" cb::vkEndCommandBuffer;
        D => c"vkResetCommandBuffer" cb::vkResetCommandBuffer;

        D => c"vkCmdBindPipeline" cmd::vkCmdBindPipeline;
        D => c"vkCmdBindDescriptorSets" cmd::vkCmdBindDescriptorSets;
        D => c"vkCmdPushConstants" cmd::vkCmdPushConstants;
        D => c"vkCmdDispatch" cmd::vkCmdDispatch;
        D => c"vkCmdDispatchBase" cmd::vkCmdDispatchBase;
        D => c"vkCmdDispatchIndirect" cmd::vkCmdDispatchIndirect;
        D => c"vkCmdSetDeviceMask" cmd::vkCmdSetDeviceMask;
        D => c"vkCmdPipelineBarrier" cmd::vkCmdPipelineBarrier;
        SYNC2 => c"vkCmdPipelineBarrier2KHR" cmd::vkCmdPipelineBarrier2;
        D => c"vkCmdCopyBuffer" cmd::vkCmdCopyBuffer;
        D => c"vkCmdFillBuffer" cmd::vkCmdFillBuffer;
        D => c"vkCmdUpdateBuffer" cmd::vkCmdUpdateBuffer;
        D => c"vkCmdSetEvent" cmd::vkCmdSetEvent;
        D => c"vkCmdResetEvent" cmd::vkCmdResetEvent;
        D => c"vkCmdWaitEvents" cmd::vkCmdWaitEvents;
        SYNC2 => c"vkCmdSetEvent2KHR" cmd::vkCmdSetEvent2;
        SYNC2 => c"vkCmdResetEvent2KHR" cmd::vkCmdResetEvent2;
        SYNC2 => c"vkCmdWaitEvents2KHR" cmd::vkCmdWaitEvents2;
        D => c"vkCmdWriteTimestamp" cmd::vkCmdWriteTimestamp;
        SYNC2 => c"vkCmdWriteTimestamp2KHR" cmd::vkCmdWriteTimestamp2;
        D => c"vkCmdResetQueryPool" cmd::vkCmdResetQueryPool;
        D => c"vkCmdCopyQueryPoolResults" cmd::vkCmdCopyQueryPoolResults;
        D => c"vkCmdExecuteCommands" cmd::vkCmdExecuteCommands;

        D => c"vkQueueSubmit" q::vkQueueSubmit;
        SYNC2 => c"vkQueueSubmit2KHR" q::vkQueueSubmit2;
        D => c"vkQueueWaitIdle" q::vkQueueWaitIdle;
        D => c"vkQueueBindSparse" q::vkQueueBindSparse;

        D => c"vkCreateRenderPass" rp::vkCreateRenderPass;
        D => c"vkDestroyRenderPass" rp::vkDestroyRenderPass;
        D => c"vkGetRenderAreaGranularity" rp::vkGetRenderAreaGranularity;
        D => c"vkCreateFramebuffer" rp::vkCreateFramebuffer;
        D => c"vkDestroyFramebuffer" rp::vkDestroyFramebuffer;
        D => c"vkCreateGraphicsPipelines" gr::vkCreateGraphicsPipelines;
        D => c"vkCmdSetViewport" gr::vkCmdSetViewport;
        D => c"vkCmdSetScissor" gr::vkCmdSetScissor;
        D => c"vkCmdSetLineWidth" gr::vkCmdSetLineWidth;
        D => c"vkCmdSetDepthBias" gr::vkCmdSetDepthBias;
        D => c"vkCmdSetBlendConstants" gr::vkCmdSetBlendConstants;
        D => c"vkCmdSetDepthBounds" gr::vkCmdSetDepthBounds;
        D => c"vkCmdSetStencilCompareMask" gr::vkCmdSetStencilCompareMask;
        D => c"vkCmdSetStencilWriteMask" gr::vkCmdSetStencilWriteMask;
        D => c"vkCmdSetStencilReference" gr::vkCmdSetStencilReference;
        D => c"vkCmdBindIndexBuffer" gr::vkCmdBindIndexBuffer;
        D => c"vkCmdBindVertexBuffers" gr::vkCmdBindVertexBuffers;
        D => c"vkCmdDraw" gr::vkCmdDraw;
        D => c"vkCmdDrawIndexed" gr::vkCmdDrawIndexed;
        D => c"vkCmdDrawIndirect" gr::vkCmdDrawIndirect;
        D => c"vkCmdDrawIndexedIndirect" gr::vkCmdDrawIndexedIndirect;
        D => c"vkCmdClearAttachments" gr::vkCmdClearAttachments;
        D => c"vkCmdBeginQuery" gr::vkCmdBeginQuery;
        D => c"vkCmdEndQuery" gr::vkCmdEndQuery;
        D => c"vkCmdBeginRenderPass" gr::vkCmdBeginRenderPass;
        D => c"vkCmdNextSubpass" gr::vkCmdNextSubpass;
        D => c"vkCmdEndRenderPass" gr::vkCmdEndRenderPass;
    }
});

/// Every entry point the ICD has.
pub fn entries() -> &'static [Entry] {
    &TABLE
}

pub fn find(name: &CStr) -> Option<&'static Entry> {
    TABLE.iter().find(|e| e.name == name)
}

/// The entry point as the loader's void function type.
pub fn void_function(entry: &Entry) -> vk::PFN_vkVoidFunction {
    Some(entry.pfn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_device_extension_named_is_offered() {
        for (i, e) in TABLE.iter().enumerate() {
            assert!(
                TABLE[i + 1..].iter().all(|o| o.name != e.name),
                "{:?}",
                e.name
            );
            if let Scope::Device(Some(ext)) = e.scope {
                assert!(
                    parsnip_driver::extensions::DEVICE_EXTENSIONS
                        .iter()
                        .any(|x| x.name == ext),
                    "{:?} needs {ext:?}",
                    e.name
                );
            }
        }
        assert_eq!(find(c"vkCmdDispatch").unwrap().scope, D);
    }
}
