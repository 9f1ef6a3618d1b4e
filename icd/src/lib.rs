//! The Vulkan ICD: C entry points the loader calls, forwarding to the driver.
