//! Descriptor set layout, pool, set, update and update-template entry
//! points.

use std::ffi::c_void;
use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;
use parsnip_driver::descriptor::inline_block;
use parsnip_driver::descriptor::pool::DescriptorPool;
use parsnip_driver::descriptor::set::{DescriptorSet, DescriptorWrite, SetMemory};
use parsnip_driver::descriptor::set_layout::{BindingDesc, DescriptorSetLayout, LayoutUse};
use parsnip_driver::descriptor::update_template::{DescriptorUpdateTemplate, TemplateEntry};
use parsnip_driver::descriptor::write::{self, DescriptorDestination};

use crate::commands::record;
use crate::ffi;
use crate::guard;
use crate::handles;
use crate::image::image_write;
use crate::objects::DescriptorPoolObject;
use crate::sampler::immutable_samplers;

/// The bindings of a layout create info.
///
/// # Safety
/// `info` is a valid create info.
unsafe fn bindings(info: &vk::DescriptorSetLayoutCreateInfo<'_>) -> Vec<BindingDesc> {
    // SAFETY: pBindings holds bindingCount structures.
    unsafe { ffi::slice(info.p_bindings, info.binding_count) }
        .iter()
        .map(|b| BindingDesc {
            binding: b.binding,
            ty: b.descriptor_type,
            count: b.descriptor_count,
            stages: b.stage_flags,
        })
        .collect()
}

/// Each binding's flags from `VkDescriptorSetLayoutBindingFlagsCreateInfo`
/// (empty without one).
///
/// # Safety
/// `info`'s chain is valid.
unsafe fn binding_flags(
    info: &vk::DescriptorSetLayoutCreateInfo<'_>,
) -> Vec<vk::DescriptorBindingFlags> {
    // SAFETY: the chain is valid.
    let Some(f) = (unsafe {
        ffi::find_in_chain::<vk::DescriptorSetLayoutBindingFlagsCreateInfo<'_>>(info.p_next)
    }) else {
        return Vec::new();
    };
    // SAFETY: pBindingFlags holds bindingCount flags (0 or the layout's bindingCount).
    unsafe { ffi::slice(f.p_binding_flags, f.binding_count) }.to_vec()
}

pub unsafe extern "system" fn vkCreateDescriptorSetLayout(
    _device: vk::Device,
    p_info: *const vk::DescriptorSetLayoutCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_layout: *mut vk::DescriptorSetLayout,
) -> vk::Result {
    guard::success(
        "vkCreateDescriptorSetLayout",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: pBindings holds bindingCount structures.
            let list = unsafe { ffi::slice(info.p_bindings, info.binding_count) };
            // SAFETY: the application's structures, as above.
            let (bindings, samplers) = unsafe { (bindings(info), immutable_samplers(list)?) };
            // SAFETY: the application's chain.
            let flags = unsafe { binding_flags(info) };
            let layout = DescriptorSetLayout::create_with_flags(
                &bindings,
                &flags,
                &samplers,
                LayoutUse::of(info.flags),
            )?;
            // SAFETY: pSetLayout is valid for a write.
            unsafe { ffi::write(p_layout, handles::new_set_layout(layout)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyDescriptorSetLayout(
    _device: vk::Device,
    layout: vk::DescriptorSetLayout,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyDescriptorSetLayout", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_set_layout(layout) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetDescriptorSetLayoutSupport(
    _device: vk::Device,
    p_info: *const vk::DescriptorSetLayoutCreateInfo<'_>,
    p_support: *mut vk::DescriptorSetLayoutSupport<'_>,
) {
    guard::void("vkGetDescriptorSetLayoutSupport", || {
        // SAFETY: the application's structures.
        let info = unsafe { ffi::input(p_info) }?;
        // SAFETY: as above.
        let (bindings, flags) = unsafe { (bindings(info), binding_flags(info)) };
        let support = DescriptorSetLayout::support(&bindings, &flags, LayoutUse::of(info.flags));
        // SAFETY: the output structure is valid.
        let out = unsafe { p_support.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        out.supported = if support.is_some() {
            vk::TRUE
        } else {
            vk::FALSE
        };
        let most = support.unwrap_or(0);
        // SAFETY: the application's output chain of writable structures.
        unsafe {
            ffi::walk_out_chain(out.p_next, |ty, ptr| {
                type Variable<'a> = vk::DescriptorSetVariableDescriptorCountLayoutSupport<'a>;
                if ty == <Variable<'_> as vk::TaggedStructure>::STRUCTURE_TYPE {
                    // SAFETY: a structure whose sType says so.
                    ffi::fill_out::<Variable<'_>>(ptr, |v| v.max_variable_descriptor_count = most);
                }
            })
        };
        Ok(())
    })
}

pub unsafe extern "system" fn vkCreateDescriptorPool(
    device: vk::Device,
    p_info: *const vk::DescriptorPoolCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pool: *mut vk::DescriptorPool,
) -> vk::Result {
    guard::success(
        "vkCreateDescriptorPool",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: pPoolSizes holds poolSizeCount structures.
            let sizes: Vec<(vk::DescriptorType, u32)> =
                unsafe { ffi::slice(info.p_pool_sizes, info.pool_size_count) }
                    .iter()
                    .map(|s| (s.ty, s.descriptor_count))
                    .collect();
            // SAFETY: the chain is valid.
            let inline_blocks = unsafe {
                ffi::find_in_chain::<vk::DescriptorPoolInlineUniformBlockCreateInfo<'_>>(
                    info.p_next,
                )
            }
            .map_or(0, |b| b.max_inline_uniform_block_bindings);
            let pool = DescriptorPool::with_inline_blocks(
                &device.device,
                info.max_sets,
                &sizes,
                inline_blocks,
            )?;
            let handle = handles::new_descriptor_pool(Arc::new(DescriptorPoolObject {
                pool,
                sets: Mutex::new(Vec::new()),
            }));
            // SAFETY: pDescriptorPool is valid for a write.
            unsafe { ffi::write(p_pool, handle) }
        },
    )
}

fn drop_pool_sets(object: &DescriptorPoolObject) {
    for set in object.sets.lock().drain(..) {
        // SAFETY: a child handle its parent retires; valid usage ends its use before the parent is destroyed or reset.
        unsafe { handles::drop_descriptor_set(set) };
    }
}

pub unsafe extern "system" fn vkDestroyDescriptorPool(
    _device: vk::Device,
    pool: vk::DescriptorPool,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyDescriptorPool", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        if let Some(object) = unsafe { handles::drop_descriptor_pool(pool) } {
            drop_pool_sets(&object);
        }
        Ok(())
    })
}

pub unsafe extern "system" fn vkResetDescriptorPool(
    _device: vk::Device,
    pool: vk::DescriptorPool,
    _flags: vk::DescriptorPoolResetFlags,
) -> vk::Result {
    guard::success(
        "vkResetDescriptorPool",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let object = unsafe { handles::descriptor_pool(pool) }?;
            drop_pool_sets(object);
            object.pool.reset();
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkAllocateDescriptorSets(
    _device: vk::Device,
    p_info: *const vk::DescriptorSetAllocateInfo<'_>,
    p_sets: *mut vk::DescriptorSet,
) -> vk::Result {
    guard::success(
        "vkAllocateDescriptorSets",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let object = unsafe { handles::descriptor_pool(info.descriptor_pool) }?;
            // SAFETY: pSetLayouts holds descriptorSetCount handles.
            let layouts = unsafe { ffi::slice(info.p_set_layouts, info.descriptor_set_count) };
            // SAFETY: the application's chain; pDescriptorCounts holds descriptorSetCount
            // counts (or none).
            let counts = unsafe {
                ffi::find_in_chain::<vk::DescriptorSetVariableDescriptorCountAllocateInfo<'_>>(
                    info.p_next,
                )
            }
            .map_or(&[][..], |v| unsafe {
                ffi::slice(v.p_descriptor_counts, v.descriptor_set_count)
            });
            let mut made = Vec::with_capacity(layouts.len());
            for (i, layout) in layouts.iter().enumerate() {
                let count = counts.get(i).copied();
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                match unsafe { handles::set_layout(*layout) }.and_then(|l| {
                    DescriptorSet::allocate_with_variable_count(&object.pool, l, count)
                }) {
                    Ok(set) => made.push(handles::new_descriptor_set(set)),
                    Err(e) => {
                        // Nothing is allocated when one allocation fails.
                        for h in made {
                            // SAFETY: a handle made just above and never handed to the application.
                            unsafe { handles::drop_descriptor_set(h) };
                        }
                        return Err(e);
                    }
                }
            }
            for (i, h) in made.iter().enumerate() {
                // SAFETY: pDescriptorSets holds descriptorSetCount handles.
                unsafe { p_sets.add(i).write(*h) };
            }
            object.sets.lock().extend(made);
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkFreeDescriptorSets(
    _device: vk::Device,
    pool: vk::DescriptorPool,
    count: u32,
    p_sets: *const vk::DescriptorSet,
) -> vk::Result {
    guard::success(
        "vkFreeDescriptorSets",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let object = unsafe { handles::descriptor_pool(pool) }?;
            // SAFETY: pDescriptorSets holds descriptorSetCount handles.
            let sets = unsafe { ffi::slice(p_sets, count) };
            let mut list = object.sets.lock();
            for set in sets.iter().filter(|s| **s != vk::DescriptorSet::null()) {
                // SAFETY: the application destroys the handle, which valid usage makes its last use.
                unsafe { handles::drop_descriptor_set(*set) };
                list.retain(|s| s != set);
            }
            Ok(())
        },
    )
}

/// One element of a descriptor update, as a driver value borrowing the
/// application's objects for the call.
///
/// # Safety
/// The handles in `info` are live for the call (valid usage).
unsafe fn buffer_write<'a>(
    info: &vk::DescriptorBufferInfo,
) -> Result<DescriptorWrite<'a>, vk::Result> {
    Ok(DescriptorWrite::Buffer {
        // SAFETY: the caller's promise.
        buffer: unsafe { handles::buffer(info.buffer) }?,
        offset: info.offset,
        range: info.range,
    })
}

/// A texel buffer element.
///
/// # Safety
/// As for [`buffer_write`].
unsafe fn texel_write<'a>(view: vk::BufferView) -> Result<DescriptorWrite<'a>, vk::Result> {
    // SAFETY: the caller's promise.
    Ok(DescriptorWrite::TexelBuffer(unsafe {
        handles::buffer_view(view)
    }?))
}

fn is_texel(ty: vk::DescriptorType) -> bool {
    matches!(
        ty,
        vk::DescriptorType::UNIFORM_TEXEL_BUFFER | vk::DescriptorType::STORAGE_TEXEL_BUFFER
    )
}

/// Whether a write of `ty` reads `VkDescriptorImageInfo`s.
fn is_image(ty: vk::DescriptorType) -> bool {
    matches!(
        ty,
        vk::DescriptorType::SAMPLER
            | vk::DescriptorType::COMBINED_IMAGE_SAMPLER
            | vk::DescriptorType::SAMPLED_IMAGE
            | vk::DescriptorType::STORAGE_IMAGE
            | vk::DescriptorType::INPUT_ATTACHMENT
    )
}

/// Applies one `VkWriteDescriptorSet` to `dst`.
///
/// # Safety
/// `w` is a valid structure whose arrays hold `descriptorCount` elements
/// of live objects (valid usage).
unsafe fn apply_write(
    dst: &mut impl DescriptorDestination,
    w: &vk::WriteDescriptorSet<'_>,
) -> Result<(), vk::Result> {
    let (binding, element, ty) = (w.dst_binding, w.dst_array_element, w.descriptor_type);
    let count = w.descriptor_count as usize;
    if is_image(ty) {
        // SAFETY: pImageInfo holds descriptorCount structures.
        let infos = unsafe { ffi::slice(w.p_image_info, w.descriptor_count) };
        // SAFETY: the views and samplers are live for the call (valid usage).
        write::write_each(dst, binding, element, ty, count, |i, b| unsafe {
            image_write(b, &infos[i])
        })
    } else if is_texel(ty) {
        // SAFETY: pTexelBufferView holds descriptorCount handles.
        let views = unsafe { ffi::slice(w.p_texel_buffer_view, w.descriptor_count) };
        // SAFETY: the views are live for the call (valid usage).
        write::write_each(dst, binding, element, ty, count, |i, _| unsafe {
            texel_write(views[i])
        })
    } else {
        // SAFETY: pBufferInfo holds descriptorCount structures.
        let infos = unsafe { ffi::slice(w.p_buffer_info, w.descriptor_count) };
        // SAFETY: the buffers are live for the call (valid usage).
        write::write_each(dst, binding, element, ty, count, |i, _| unsafe {
            buffer_write(&infos[i])
        })
    }
}

/// An inline uniform block write: descriptorCount bytes at byte
/// dstArrayElement, from the chained
/// `VkWriteDescriptorSetInlineUniformBlock`.
///
/// # Safety
/// `w`'s chain is valid; the chained structure's pData holds dataSize
/// bytes.
unsafe fn write_inline_block(
    set: &DescriptorSet,
    w: &vk::WriteDescriptorSet<'_>,
) -> Result<(), vk::Result> {
    // SAFETY: the caller's promise.
    let Some(block) =
        (unsafe { ffi::find_in_chain::<vk::WriteDescriptorSetInlineUniformBlock<'_>>(w.p_next) })
    else {
        eprintln!(
            "parsnip: vkUpdateDescriptorSets: an inline uniform block write without its \
             VkWriteDescriptorSetInlineUniformBlock"
        );
        return Err(vk::Result::ERROR_UNKNOWN);
    };
    let len = block.data_size.min(w.descriptor_count) as usize;
    // SAFETY: pData holds dataSize bytes.
    let bytes = unsafe { ffi::bytes(block.p_data, len) };
    set.write_inline(w.dst_binding, w.dst_array_element, bytes)
}

/// Applies `template` to `dst`, reading each element's info from `data`.
///
/// # Safety
/// `data` is laid out as the template says, with live objects in it
/// (valid usage).
unsafe fn apply_template(
    dst: &mut impl DescriptorDestination,
    template: &DescriptorUpdateTemplate,
    data: *const c_void,
) -> Result<(), vk::Result> {
    for e in template
        .entries
        .iter()
        .filter(|e| e.ty != inline_block::TYPE)
    {
        write::write_each(dst, e.binding, e.element, e.ty, e.count as usize, |i, b| {
            // SAFETY: the template says where each element's info is in
            // data, which the application laid out accordingly.
            let at = unsafe { data.cast::<u8>().add(e.offset + i * e.stride) };
            if is_image(e.ty) {
                // SAFETY: as above: a VkDescriptorImageInfo of live objects
                // there.
                unsafe { image_write(b, &at.cast::<vk::DescriptorImageInfo>().read_unaligned()) }
            } else if is_texel(e.ty) {
                // SAFETY: as above: a live VkBufferView there.
                unsafe { texel_write(at.cast::<vk::BufferView>().read_unaligned()) }
            } else {
                // SAFETY: as above: a VkDescriptorBufferInfo of a live
                // buffer there.
                unsafe { buffer_write(&at.cast::<vk::DescriptorBufferInfo>().read_unaligned()) }
            }
        })?;
    }
    Ok(())
}

pub unsafe extern "system" fn vkUpdateDescriptorSets(
    _device: vk::Device,
    write_count: u32,
    p_writes: *const vk::WriteDescriptorSet<'_>,
    copy_count: u32,
    p_copies: *const vk::CopyDescriptorSet<'_>,
) {
    guard::void("vkUpdateDescriptorSets", || {
        // SAFETY: pDescriptorWrites holds descriptorWriteCount structures.
        for w in unsafe { ffi::slice(p_writes, write_count) } {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let set = unsafe { handles::descriptor_set(w.dst_set) }?;
            if w.descriptor_type == inline_block::TYPE {
                // SAFETY: the chain is valid and holds the block's bytes.
                unsafe { write_inline_block(set, w) }?;
                continue;
            }
            // SAFETY: the application's structure and the objects it names.
            unsafe { apply_write(&mut SetMemory(set), w) }?;
        }
        // SAFETY: pDescriptorCopies holds descriptorCopyCount structures.
        for c in unsafe { ffi::slice(p_copies, copy_count) } {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let src = unsafe { handles::descriptor_set(c.src_set) }?;
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let dst = unsafe { handles::descriptor_set(c.dst_set) }?;
            dst.copy_from(
                c.dst_binding,
                c.dst_array_element,
                src,
                c.src_binding,
                c.src_array_element,
                c.descriptor_count,
            )?;
        }
        Ok(())
    })
}

pub unsafe extern "system" fn vkCreateDescriptorUpdateTemplate(
    _device: vk::Device,
    p_info: *const vk::DescriptorUpdateTemplateCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_template: *mut vk::DescriptorUpdateTemplate,
) -> vk::Result {
    guard::success(
        "vkCreateDescriptorUpdateTemplate",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            let (layout, push) = match info.template_type {
                vk::DescriptorUpdateTemplateType::PUSH_DESCRIPTORS_KHR => {
                    // The set layout is the pipeline layout's set `set`.
                    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                    let pipeline_layout =
                        unsafe { handles::pipeline_layout(info.pipeline_layout) }?;
                    let Some(Some(layout)) = pipeline_layout.sets.get(info.set as usize) else {
                        eprintln!(
                            "parsnip: vkCreateDescriptorUpdateTemplate: set {} is not in the \
                             pipeline layout",
                            info.set
                        );
                        return Err(vk::Result::ERROR_UNKNOWN);
                    };
                    (layout.clone(), Some(info.pipeline_bind_point))
                }
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                _ => (
                    unsafe { handles::set_layout(info.descriptor_set_layout) }?.clone(),
                    None,
                ),
            };
            // SAFETY: pDescriptorUpdateEntries holds descriptorUpdateEntryCount
            // structures.
            let entries = unsafe {
                ffi::slice(
                    info.p_descriptor_update_entries,
                    info.descriptor_update_entry_count,
                )
            }
            .iter()
            .map(|e| TemplateEntry {
                binding: e.dst_binding,
                element: e.dst_array_element,
                count: e.descriptor_count,
                ty: e.descriptor_type,
                offset: e.offset,
                stride: e.stride,
            })
            .collect();
            let template = DescriptorUpdateTemplate::new(layout, entries, push)?;
            // SAFETY: pDescriptorUpdateTemplate is valid for a write.
            unsafe { ffi::write(p_template, handles::new_update_template(template)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyDescriptorUpdateTemplate(
    _device: vk::Device,
    template: vk::DescriptorUpdateTemplate,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyDescriptorUpdateTemplate", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_update_template(template) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkUpdateDescriptorSetWithTemplate(
    _device: vk::Device,
    set: vk::DescriptorSet,
    template: vk::DescriptorUpdateTemplate,
    p_data: *const c_void,
) {
    guard::void("vkUpdateDescriptorSetWithTemplate", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let set = unsafe { handles::descriptor_set(set) }?;
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let template = unsafe { handles::update_template(template) }?;
        if template.push.is_some() {
            eprintln!(
                "parsnip: vkUpdateDescriptorSetWithTemplate: a push descriptor template updates \
                 no set"
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        for e in template
            .entries
            .iter()
            .filter(|e| e.ty == inline_block::TYPE)
        {
            // SAFETY: an inline block's entry holds its descriptorCount
            // bytes at its offset in pData (valid usage).
            let bytes =
                unsafe { ffi::bytes(p_data.cast::<u8>().add(e.offset).cast(), e.count as usize) };
            set.write_inline(e.binding, e.element, bytes)?;
        }
        // SAFETY: pData is laid out as the template says (valid usage).
        unsafe { apply_template(&mut SetMemory(set), template, p_data) }
    })
}

pub unsafe extern "system" fn vkCmdPushDescriptorSetKHR(
    command_buffer: vk::CommandBuffer,
    bind_point: vk::PipelineBindPoint,
    layout: vk::PipelineLayout,
    set: u32,
    write_count: u32,
    p_writes: *const vk::WriteDescriptorSet<'_>,
) {
    record("vkCmdPushDescriptorSetKHR", command_buffer, |rec| {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let layout = unsafe { handles::pipeline_layout(layout) }?;
        // SAFETY: pDescriptorWrites holds descriptorWriteCount structures.
        let writes = unsafe { ffi::slice(p_writes, write_count) };
        rec.push_descriptor_set(bind_point, layout, set, |dst| {
            for w in writes {
                // SAFETY: the application's structures and the objects
                // they name (valid usage: dstSet is ignored).
                unsafe { apply_write(dst, w) }?;
            }
            Ok(())
        })
    });
}

pub unsafe extern "system" fn vkCmdPushDescriptorSetWithTemplateKHR(
    command_buffer: vk::CommandBuffer,
    template: vk::DescriptorUpdateTemplate,
    layout: vk::PipelineLayout,
    set: u32,
    p_data: *const c_void,
) {
    record(
        "vkCmdPushDescriptorSetWithTemplateKHR",
        command_buffer,
        |rec| {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let template = unsafe { handles::update_template(template) }?;
            // SAFETY: as above.
            let layout = unsafe { handles::pipeline_layout(layout) }?;
            let Some(bind_point) = template.push else {
                eprintln!(
                    "parsnip: vkCmdPushDescriptorSetWithTemplateKHR: the template was made for \
                 descriptor sets, not push descriptors"
                );
                return Err(vk::Result::ERROR_UNKNOWN);
            };
            rec.push_descriptor_set(bind_point, layout, set, |dst| {
                // SAFETY: pData is laid out as the template says (valid usage).
                unsafe { apply_template(dst, template, p_data) }
            })
        },
    );
}
