//! Vulkan conformance tests run through the loader
