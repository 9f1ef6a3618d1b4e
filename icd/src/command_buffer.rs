//! Command pool and command buffer life cycle entry points.

use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;
use parsnip_driver::attachment_formats::AttachmentFormats;
use parsnip_driver::cmd::buffer::Level;
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::cmd::secondary::InheritedPass;

use crate::ffi;
use crate::guard;
use crate::handles;
use crate::objects::CommandPoolObject;
use crate::render_pass::{FRAMEBUFFERS, RENDER_PASSES};

pub unsafe extern "system" fn vkCreateCommandPool(
    device: vk::Device,
    p_info: *const vk::CommandPoolCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pool: *mut vk::CommandPool,
) -> vk::Result {
    guard::success(
        "vkCreateCommandPool",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            let pool = CommandPool::new(&device.device, info.queue_family_index, info.flags)?;
            let handle = handles::new_command_pool(Arc::new(CommandPoolObject {
                pool,
                buffers: Mutex::new(Vec::new()),
            }));
            // SAFETY: pCommandPool is valid for a write.
            unsafe { ffi::write(p_pool, handle) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyCommandPool(
    _device: vk::Device,
    pool: vk::CommandPool,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyCommandPool", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        if let Some(object) = unsafe { handles::drop_command_pool(pool) } {
            for cmd in object.buffers.lock().drain(..) {
                // SAFETY: a child handle its parent retires; valid usage ends its use before the parent is destroyed or reset.
                unsafe { handles::drop_command_buffer(cmd) };
            }
        }
        Ok(())
    })
}

pub unsafe extern "system" fn vkResetCommandPool(
    _device: vk::Device,
    pool: vk::CommandPool,
    _flags: vk::CommandPoolResetFlags,
) -> vk::Result {
    guard::success(
        "vkResetCommandPool",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            unsafe { handles::command_pool(pool) }?.pool.reset();
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkTrimCommandPool(
    _device: vk::Device,
    pool: vk::CommandPool,
    _flags: vk::CommandPoolTrimFlags,
) {
    guard::void("vkTrimCommandPool", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::command_pool(pool) }?.pool.trim();
        Ok(())
    })
}

pub unsafe extern "system" fn vkAllocateCommandBuffers(
    _device: vk::Device,
    p_info: *const vk::CommandBufferAllocateInfo<'_>,
    p_buffers: *mut vk::CommandBuffer,
) -> vk::Result {
    guard::success(
        "vkAllocateCommandBuffers",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let object = unsafe { handles::command_pool(info.command_pool) }?;
            let level = if info.level == vk::CommandBufferLevel::SECONDARY {
                Level::Secondary
            } else {
                Level::Primary
            };
            let mut list = object.buffers.lock();
            for i in 0..info.command_buffer_count as usize {
                let handle = handles::new_command_buffer(object.pool.allocate(level));
                list.push(handle);
                // SAFETY: pCommandBuffers holds commandBufferCount handles.
                unsafe { p_buffers.add(i).write(handle) };
            }
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkFreeCommandBuffers(
    _device: vk::Device,
    pool: vk::CommandPool,
    count: u32,
    p_buffers: *const vk::CommandBuffer,
) {
    guard::void("vkFreeCommandBuffers", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let object = unsafe { handles::command_pool(pool) }?;
        // SAFETY: pCommandBuffers holds commandBufferCount handles.
        let buffers = unsafe { ffi::slice(p_buffers, count) };
        let mut list = object.buffers.lock();
        for cmd in buffers.iter().filter(|c| !vk::Handle::is_null(**c)) {
            // SAFETY: the application destroys the handle, which valid usage makes its last use.
            unsafe { handles::drop_command_buffer(*cmd) };
            list.retain(|c| c != cmd);
        }
        Ok(())
    })
}

pub unsafe extern "system" fn vkBeginCommandBuffer(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::CommandBufferBeginInfo<'_>,
) -> vk::Result {
    guard::success(
        "vkBeginCommandBuffer",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let cmd = unsafe { handles::command_buffer(command_buffer) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            let continues = if cmd.level == Level::Secondary
                && info
                    .flags
                    .contains(vk::CommandBufferUsageFlags::RENDER_PASS_CONTINUE)
            {
                // SAFETY: a secondary's begin info has valid inheritance.
                Some(unsafe { inherited_pass(info.p_inheritance_info) }?)
            } else {
                None
            };
            cmd.begin(continues)
        },
    )
}

/// The render pass instance a secondary continues, from its inheritance.
///
/// # Safety
/// `p_inheritance` is the application's valid inheritance info.
unsafe fn inherited_pass(
    p_inheritance: *const vk::CommandBufferInheritanceInfo<'_>,
) -> Result<InheritedPass, vk::Result> {
    // SAFETY: the caller's promise.
    let inheritance = unsafe { ffi::input(p_inheritance) }?;
    if inheritance.render_pass == vk::RenderPass::null() {
        // SAFETY: the inheritance's chain is valid.
        return unsafe { inherited_rendering(inheritance.p_next) };
    }
    // SAFETY: handles the application passed; valid usage keeps them live for the call.
    let pass = unsafe { RENDER_PASSES.get(vk::Handle::as_raw(inheritance.render_pass)) }?.clone();
    let framebuffer = if inheritance.framebuffer == vk::Framebuffer::null() {
        None
    } else {
        // SAFETY: as above.
        Some(unsafe { FRAMEBUFFERS.get(vk::Handle::as_raw(inheritance.framebuffer)) }?.clone())
    };
    Ok(InheritedPass {
        pass,
        subpass: inheritance.subpass,
        framebuffer,
    })
}

/// The dynamic rendering a secondary continues: the formats of the
/// `VkCommandBufferInheritanceRenderingInfo` in its inheritance's chain,
/// recorded into as the one subpass of a pass of them.
///
/// # Safety
/// `p_next` starts a valid chain.
unsafe fn inherited_rendering(
    p_next: *const std::ffi::c_void,
) -> Result<InheritedPass, vk::Result> {
    let command = "vkBeginCommandBuffer";
    // SAFETY: the caller's promise.
    let rendering =
        unsafe { ffi::find_in_chain::<vk::CommandBufferInheritanceRenderingInfo<'_>>(p_next) };
    let Some(r) = rendering else {
        eprintln!(
            "parsnip: {command}: RENDER_PASS_CONTINUE with no render pass and no \
             VkCommandBufferInheritanceRenderingInfo"
        );
        return Err(vk::Result::ERROR_UNKNOWN);
    };
    // SAFETY: pColorAttachmentFormats holds colorAttachmentCount formats.
    let colors = unsafe { ffi::slice(r.p_color_attachment_formats, r.color_attachment_count) };
    let formats = AttachmentFormats::of_rendering(
        colors,
        r.depth_attachment_format,
        r.stencil_attachment_format,
        r.rasterization_samples,
        r.view_mask,
        command,
    )?;
    Ok(InheritedPass {
        pass: formats.pass()?,
        subpass: 0,
        framebuffer: None,
    })
}

pub unsafe extern "system" fn vkEndCommandBuffer(command_buffer: vk::CommandBuffer) -> vk::Result {
    guard::success(
        "vkEndCommandBuffer",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::command_buffer(command_buffer) }?.end(),
    )
}

pub unsafe extern "system" fn vkResetCommandBuffer(
    command_buffer: vk::CommandBuffer,
    _flags: vk::CommandBufferResetFlags,
) -> vk::Result {
    guard::success(
        "vkResetCommandBuffer",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            unsafe { handles::command_buffer(command_buffer) }?.reset();
            Ok(())
        },
    )
}
