//! Usage the spec lets a driver refuse, through the real loader: each gets
//! the result the spec names (on the null back end, which needs no GPU).
//! One test, since the loader reads the environment once per process.

mod common;

use ash::vk;

use common::null_instance;

/// SPIR-V of a shader using doubles, which ir3 has no instructions for.
fn float64_spirv() -> Vec<u32> {
    common::glslang(
        "spirv",
        "#version 450\nlayout(local_size_x = 1) in;\n\
         layout(set = 0, binding = 0) buffer B { double d[]; };\n\
         void main() { d[0] = d[1] * 2.0lf; }\n",
    )
}

#[test]
fn refused_usage_returns_the_results_the_spec_names() {
    let (_entry, instance, physical) = null_instance("bad-usage", "a660");

    // SAFETY: Vulkan calls with valid create infos referring to locals
    // alive for each call.
    unsafe {
        // Input attachments are not read yet: an image format query for
        // one is unsupported.
        let image = instance.get_physical_device_image_format_properties(
            physical,
            vk::Format::R8G8B8A8_UNORM,
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            vk::ImageUsageFlags::INPUT_ATTACHMENT,
            vk::ImageCreateFlags::empty(),
        );
        assert_eq!(image.err(), Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));

        // An extension or a feature the device does not have.
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_priorities(&priorities)];
        let video = [ash::khr::video_queue::NAME.as_ptr()];
        let with_ext = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&video);
        assert_eq!(
            instance.create_device(physical, &with_ext, None).err(),
            Some(vk::Result::ERROR_EXTENSION_NOT_PRESENT)
        );
        let float64 = vk::PhysicalDeviceFeatures::default().shader_float64(true);
        let with_feature = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_features(&float64);
        assert_eq!(
            instance.create_device(physical, &with_feature, None).err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );

        let device = instance
            .create_device(
                physical,
                &vk::DeviceCreateInfo::default().queue_create_infos(&queues),
                None,
            )
            .unwrap();

        // An allocation larger than the heap.
        let heap = instance
            .get_physical_device_memory_properties(physical)
            .memory_heaps[0]
            .size;
        let too_big = vk::MemoryAllocateInfo::default()
            .allocation_size(heap + 4096)
            .memory_type_index(0);
        assert_eq!(
            device.allocate_memory(&too_big, None).err(),
            Some(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
        );

        // A buffer view of a format buffers cannot hold.
        let buffer = device
            .create_buffer(
                &vk::BufferCreateInfo::default()
                    .size(256)
                    .usage(vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER),
                None,
            )
            .unwrap();
        let memory = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(256)
                    .memory_type_index(0),
                None,
            )
            .unwrap();
        device.bind_buffer_memory(buffer, memory, 0).unwrap();
        let view = vk::BufferViewCreateInfo::default()
            .buffer(buffer)
            .format(vk::Format::D16_UNORM)
            .range(vk::WHOLE_SIZE);
        assert_eq!(
            device.create_buffer_view(&view, None).err(),
            Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED)
        );

        // A shader the compiler cannot take: pipeline creation fails with
        // VK_ERROR_UNKNOWN (and stderr names the instruction), and the
        // pipeline handle is null.
        let binding = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(1)
            .stage_flags(vk::ShaderStageFlags::COMPUTE)];
        let set_layout = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding),
                None,
            )
            .unwrap();
        let layouts = [set_layout];
        let layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts),
                None,
            )
            .unwrap();
        let code = float64_spirv();
        let module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
            .unwrap();
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let created = device.create_compute_pipelines(
            vk::PipelineCache::null(),
            &[vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(layout)],
            None,
        );
        let (pipelines, result) = created.expect_err("the compiler refuses doubles");
        assert_eq!(result, vk::Result::ERROR_UNKNOWN);
        assert_eq!(pipelines, vec![vk::Pipeline::null()]);

        device.destroy_shader_module(module, None);
        device.destroy_pipeline_layout(layout, None);
        device.destroy_descriptor_set_layout(set_layout, None);
        device.destroy_buffer(buffer, None);
        device.free_memory(memory, None);
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
}
