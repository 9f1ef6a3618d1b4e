//! What the specification requires of every Vulkan 1.1 device, through the
//! real loader on the null back end: the features it must report and
//! accept, the results it must give for what it refuses, the objects that
//! are plain data (render passes, framebuffers on image views, descriptor
//! set layouts of every type and stage, query pools), and graphics commands
//! given what they cannot draw failing cleanly.
//! One test, since the loader reads the environment once per process.

mod common;

use ash::vk;

use common::null_instance;

unsafe fn device_with(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    features: Option<&vk::PhysicalDeviceFeatures>,
    p_next: *const std::ffi::c_void,
) -> Result<ash::Device, vk::Result> {
    let priorities = [1.0];
    let queues = [vk::DeviceQueueCreateInfo::default().queue_priorities(&priorities)];
    let mut info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
    if let Some(f) = features {
        info = info.enabled_features(f);
    }
    info.p_next = p_next;
    // SAFETY: a valid create info whose chain the caller keeps alive.
    unsafe { instance.create_device(physical, &info, None) }
}

#[test]
fn a_vulkan_1_1_device_follows_the_specs_rules() {
    let (_entry, instance, physical) = null_instance("spec-rules", "a740");

    // SAFETY: Vulkan calls with valid arguments referring to locals alive
    // for each call.
    unsafe {
        // robustBufferAccess (every version requires it) and multiview
        // (Vulkan 1.1 requires it), in both forms of the query.
        let core = instance.get_physical_device_features(physical);
        assert_eq!(core.robust_buffer_access, vk::TRUE);
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut multiview = vk::PhysicalDeviceMultiviewFeatures::default();
        let mut storage16 = vk::PhysicalDevice16BitStorageFeatures::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut v11)
            .push_next(&mut multiview)
            .push_next(&mut storage16);
        instance.get_physical_device_features2(physical, &mut f2);
        assert_eq!(f2.features.robust_buffer_access, vk::TRUE);
        assert_eq!((v11.multiview, multiview.multiview), (vk::TRUE, vk::TRUE));
        // 16-bit storage in buffers and push constants, not in shader
        // inputs and outputs.
        assert_eq!(storage16.storage_buffer16_bit_access, vk::TRUE);
        assert_eq!(storage16.storage_input_output16, vk::FALSE);
        let mut views = vk::PhysicalDeviceMultiviewProperties::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut views);
        instance.get_physical_device_properties2(physical, &mut p2);
        // The spec's minimums: 6 views, instance index 2^27 - 1.
        assert!(views.max_multiview_view_count >= 6);
        assert!(views.max_multiview_instance_index >= (1 << 27) - 1);

        // Enabling what is reported works; an unsupported feature in any
        // feature structure is VK_ERROR_FEATURE_NOT_PRESENT
        // (api.device_init.create_device_unsupported_features.*).
        let robust = vk::PhysicalDeviceFeatures::default().robust_buffer_access(true);
        let enable_multiview = vk::PhysicalDeviceMultiviewFeatures::default().multiview(true);
        let device = device_with(
            &instance,
            physical,
            Some(&robust),
            std::ptr::from_ref(&enable_multiview).cast(),
        )
        .expect("robustBufferAccess and multiview are accepted");
        device.destroy_device(None);
        let have16 =
            vk::PhysicalDevice16BitStorageFeatures::default().storage_buffer16_bit_access(true);
        device_with(
            &instance,
            physical,
            None,
            std::ptr::from_ref(&have16).cast(),
        )
        .expect("storageBuffer16BitAccess is accepted")
        .destroy_device(None);
        let want16 = vk::PhysicalDevice16BitStorageFeatures::default().storage_input_output16(true);
        assert_eq!(
            device_with(
                &instance,
                physical,
                None,
                std::ptr::from_ref(&want16).cast()
            )
            .err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );
        let want_ycbcr = vk::PhysicalDeviceVulkan11Features::default()
            .multiview(true)
            .sampler_ycbcr_conversion(true);
        assert_eq!(
            device_with(
                &instance,
                physical,
                None,
                std::ptr::from_ref(&want_ycbcr).cast()
            )
            .err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );
        let want_geometry_views = vk::PhysicalDeviceMultiviewFeatures::default()
            .multiview(true)
            .multiview_geometry_shader(true);
        assert_eq!(
            device_with(
                &instance,
                physical,
                None,
                std::ptr::from_ref(&want_geometry_views).cast()
            )
            .err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );

        let device = device_with(&instance, physical, Some(&robust), std::ptr::null()).unwrap();

        // vkGetDeviceProcAddr: NULL for instance-level commands and for
        // extension commands the device did not enable; core ones resolve.
        let gdpa = |name: &std::ffi::CStr| {
            (instance.fp_v1_0().get_device_proc_addr)(device.handle(), name.as_ptr())
        };
        assert!(gdpa(c"vkCmdDispatch").is_some());
        assert!(gdpa(c"vkCreateRenderPass").is_some());
        assert!(gdpa(c"vkCmdDraw").is_some());
        for not_enabled in [
            c"vkResetQueryPoolEXT",
            c"vkGetSemaphoreCounterValueKHR",
            c"vkCmdPipelineBarrier2KHR",
            c"vkGetPipelineExecutablePropertiesKHR",
        ] {
            assert!(
                gdpa(not_enabled).is_none(),
                "{not_enabled:?} is not enabled"
            );
        }
        // The device's 1.2 and 1.3 commands by their core names, though
        // their extensions are not enabled.
        assert!(gdpa(c"vkGetSemaphoreCounterValue").is_some());
        assert!(gdpa(c"vkCmdDrawIndirectCount").is_some());
        assert!(gdpa(c"vkCmdPipelineBarrier2").is_some());
        assert!(gdpa(c"vkCmdBeginRendering").is_some());
        assert!(gdpa(c"vkGetPhysicalDeviceProperties").is_none());
        assert!(gdpa(c"vkCmdDrawIndirectCountKHR").is_none());

        // A buffer of UINT64_MAX bytes fails with an error the spec allows
        // (api.buffer.basic.size_max_uint64).
        let huge = vk::BufferCreateInfo::default()
            .size(u64::MAX)
            .usage(vk::BufferUsageFlags::STORAGE_BUFFER);
        assert_eq!(
            device.create_buffer(&huge, None).err(),
            Some(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
        );
        // A buffer needs no dedicated allocation either.
        let small = device
            .create_buffer(
                &vk::BufferCreateInfo::default()
                    .size(100)
                    .usage(vk::BufferUsageFlags::STORAGE_BUFFER),
                None,
            )
            .unwrap();
        let mut dedicated = vk::MemoryDedicatedRequirements::default()
            .prefers_dedicated_allocation(true)
            .requires_dedicated_allocation(true);
        let mut requirements2 = vk::MemoryRequirements2::default().push_next(&mut dedicated);
        device.get_buffer_memory_requirements2(
            &vk::BufferMemoryRequirementsInfo2::default().buffer(small),
            &mut requirements2,
        );
        let r = device.get_buffer_memory_requirements(small);
        let r2 = requirements2.memory_requirements;
        assert_eq!(
            (r2.size, r2.alignment, r2.memory_type_bits),
            (r.size, r.alignment, r.memory_type_bits)
        );
        assert_eq!(
            (
                dedicated.prefers_dedicated_allocation,
                dedicated.requires_dedicated_allocation
            ),
            (vk::FALSE, vk::FALSE)
        );
        device.destroy_buffer(small, None);

        // Descriptor set layouts of every core type, for every stage.
        let types = [
            vk::DescriptorType::SAMPLER,
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            vk::DescriptorType::SAMPLED_IMAGE,
            vk::DescriptorType::STORAGE_IMAGE,
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            vk::DescriptorType::STORAGE_TEXEL_BUFFER,
            vk::DescriptorType::UNIFORM_BUFFER,
            vk::DescriptorType::STORAGE_BUFFER,
            vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
            vk::DescriptorType::STORAGE_BUFFER_DYNAMIC,
            vk::DescriptorType::INPUT_ATTACHMENT,
        ];
        let bindings: Vec<vk::DescriptorSetLayoutBinding> = types
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i as u32)
                    .descriptor_type(ty)
                    .descriptor_count(2)
                    .stage_flags(if ty == vk::DescriptorType::INPUT_ATTACHMENT {
                        vk::ShaderStageFlags::FRAGMENT
                    } else {
                        vk::ShaderStageFlags::ALL
                    })
            })
            .collect();
        let layout_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        let mut support = vk::DescriptorSetLayoutSupport::default();
        device.get_descriptor_set_layout_support(&layout_info, &mut support);
        assert_eq!(support.supported, vk::TRUE);
        let set_layout = device
            .create_descriptor_set_layout(&layout_info, None)
            .unwrap();
        device.destroy_descriptor_set_layout(set_layout, None);

        // Occlusion query pools exist; pipeline statistics need a feature
        // the device does not report.
        let occlusion = device
            .create_query_pool(
                &vk::QueryPoolCreateInfo::default()
                    .query_type(vk::QueryType::OCCLUSION)
                    .query_count(4),
                None,
            )
            .unwrap();
        let statistics = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::PIPELINE_STATISTICS)
            .pipeline_statistics(vk::QueryPipelineStatisticFlags::COMPUTE_SHADER_INVOCATIONS)
            .query_count(1);
        assert_eq!(
            device.create_query_pool(&statistics, None).err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );

        // A multiview render pass and a framebuffer without attachments.
        let attachment = [vk::AttachmentDescription::default()
            .format(vk::Format::R8G8B8A8_UNORM)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .final_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)];
        let color = [vk::AttachmentReference {
            attachment: 0,
            layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
        }];
        let subpass = [vk::SubpassDescription::default().color_attachments(&color)];
        let masks = [0b0110];
        let mut multiview_info = vk::RenderPassMultiviewCreateInfo::default().view_masks(&masks);
        let pass = device
            .create_render_pass(
                &vk::RenderPassCreateInfo::default()
                    .attachments(&attachment)
                    .subpasses(&subpass)
                    .push_next(&mut multiview_info),
                None,
            )
            .unwrap();
        // GMEM's alignment on a7xx (freedreno_devices.py): 16 x 4.
        assert_eq!(
            device.get_render_area_granularity(pass),
            vk::Extent2D {
                width: 16,
                height: 4
            }
        );
        let empty_subpass = [vk::SubpassDescription::default()];
        let empty_pass = device
            .create_render_pass(
                &vk::RenderPassCreateInfo::default().subpasses(&empty_subpass),
                None,
            )
            .unwrap();
        let framebuffer = device
            .create_framebuffer(
                &vk::FramebufferCreateInfo::default()
                    .render_pass(empty_pass)
                    .width(256)
                    .height(128)
                    .layers(1),
                None,
            )
            .unwrap();
        assert_ne!(framebuffer, vk::Framebuffer::null());

        // A framebuffer of the multiview pass on an image view: views 1 and
        // 2 are layers 1 and 2, so a view of three layers will do and one
        // of two will not (the graphics work would render past it).
        let image = device
            .create_image(
                &vk::ImageCreateInfo::default()
                    .image_type(vk::ImageType::TYPE_2D)
                    .format(vk::Format::R8G8B8A8_UNORM)
                    .extent(vk::Extent3D {
                        width: 64,
                        height: 64,
                        depth: 1,
                    })
                    .mip_levels(1)
                    .array_layers(3)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .usage(vk::ImageUsageFlags::TRANSFER_DST),
                None,
            )
            .unwrap();
        let requirements = device.get_image_memory_requirements(image);
        // The 2 query gives the same, and no dedicated allocation (the
        // fields start true so that leaving them is seen).
        let mut dedicated = vk::MemoryDedicatedRequirements::default()
            .prefers_dedicated_allocation(true)
            .requires_dedicated_allocation(true);
        let mut requirements2 = vk::MemoryRequirements2::default().push_next(&mut dedicated);
        device.get_image_memory_requirements2(
            &vk::ImageMemoryRequirementsInfo2::default().image(image),
            &mut requirements2,
        );
        let r2 = requirements2.memory_requirements;
        assert_eq!(
            (r2.size, r2.alignment, r2.memory_type_bits),
            (
                requirements.size,
                requirements.alignment,
                requirements.memory_type_bits
            )
        );
        assert!(requirements.size >= 64 * 64 * 4 * 3);
        assert_eq!(
            (
                dedicated.prefers_dedicated_allocation,
                dedicated.requires_dedicated_allocation
            ),
            (vk::FALSE, vk::FALSE)
        );
        let memory = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(requirements.size)
                    .memory_type_index(requirements.memory_type_bits.trailing_zeros()),
                None,
            )
            .unwrap();
        device.bind_image_memory(image, memory, 0).unwrap();
        let view_of = |layers| {
            device
                .create_image_view(
                    &vk::ImageViewCreateInfo::default()
                        .image(image)
                        .view_type(vk::ImageViewType::TYPE_2D_ARRAY)
                        .format(vk::Format::R8G8B8A8_UNORM)
                        .subresource_range(vk::ImageSubresourceRange {
                            aspect_mask: vk::ImageAspectFlags::COLOR,
                            base_mip_level: 0,
                            level_count: 1,
                            base_array_layer: 0,
                            layer_count: layers,
                        }),
                    None,
                )
                .unwrap()
        };
        let (three, two) = (view_of(3), view_of(2));
        let on_view = |view: &vk::ImageView| {
            device.create_framebuffer(
                &vk::FramebufferCreateInfo::default()
                    .render_pass(pass)
                    .attachments(std::slice::from_ref(view))
                    .width(64)
                    .height(64)
                    .layers(1),
                None,
            )
        };
        let multiview_framebuffer = on_view(&three).unwrap();
        assert_ne!(multiview_framebuffer, vk::Framebuffer::null());
        assert!(on_view(&two).is_err(), "views past the attachment's layers");

        // A graphics pipeline without shaders: refused (an error any
        // command may return) with a null handle.
        let layout = device
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .unwrap();
        let graphics = [vk::GraphicsPipelineCreateInfo::default()
            .layout(layout)
            .render_pass(pass)];
        let (pipelines, result) = device
            .create_graphics_pipelines(vk::PipelineCache::null(), &graphics, None)
            .expect_err("no shaders");
        assert_eq!(result, vk::Result::ERROR_UNKNOWN);
        assert_eq!(pipelines, vec![vk::Pipeline::null()]);

        // A draw outside a render pass makes its command buffer fail: it
        // can never be submitted.
        let pool = device
            .create_command_pool(&vk::CommandPoolCreateInfo::default(), None)
            .unwrap();
        let cmd = device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(pool)
                    .command_buffer_count(1),
            )
            .unwrap()[0];
        device
            .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .unwrap();
        device.cmd_draw(cmd, 3, 1, 0, 0);
        assert_eq!(
            device.end_command_buffer(cmd).err(),
            Some(vk::Result::ERROR_UNKNOWN)
        );
        let submit = [vk::SubmitInfo::default().command_buffers(std::slice::from_ref(&cmd))];
        assert!(device
            .queue_submit(device.get_device_queue(0, 0), &submit, vk::Fence::null())
            .is_err());
        // The same buffer, re-recorded without graphics commands, works.
        device
            .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .unwrap();
        device.end_command_buffer(cmd).unwrap();

        // Sampler Ycbcr conversions need a feature the device does not
        // offer.
        let ycbcr = vk::SamplerYcbcrConversionCreateInfo::default()
            .format(vk::Format::G8_B8R8_2PLANE_420_UNORM)
            .ycbcr_model(vk::SamplerYcbcrModelConversion::YCBCR_709)
            .ycbcr_range(vk::SamplerYcbcrRange::ITU_FULL)
            .chroma_filter(vk::Filter::NEAREST);
        assert_eq!(
            device.create_sampler_ycbcr_conversion(&ycbcr, None).err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );
        device.destroy_sampler_ycbcr_conversion(vk::SamplerYcbcrConversion::null(), None);

        // A sparse bind with no binds is an ordered signal.
        let fence = device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .unwrap();
        let queue = device.get_device_queue(0, 0);
        device
            .queue_bind_sparse(queue, &[vk::BindSparseInfo::default()], fence)
            .unwrap();
        device.wait_for_fences(&[fence], true, u64::MAX).unwrap();

        device.destroy_fence(fence, None);
        device.destroy_command_pool(pool, None);
        device.destroy_pipeline_layout(layout, None);
        device.destroy_framebuffer(framebuffer, None);
        device.destroy_framebuffer(multiview_framebuffer, None);
        device.destroy_image_view(three, None);
        device.destroy_image_view(two, None);
        device.destroy_image(image, None);
        device.free_memory(memory, None);
        device.destroy_render_pass(empty_pass, None);
        device.destroy_render_pass(pass, None);
        device.destroy_query_pool(occlusion, None);
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
}
