//! The Vulkan implementation
