//! Compute pipelines: specialization constants, and what
//! VK_KHR_pipeline_executable_properties reports about the compiled code.

use super::one_dispatch::check_one_dispatch;
use super::pseudo_random::Sequence;
use super::step::{self, step, WORDS};
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Bind, Dependency, Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;
use std::ffi::CStr;

pub const CASES: &[Case] = &[
    Case {
        name: "pipelines.shader_reuse_differing_layouts",
        run: shader_reuse_differing_layouts,
    },
    Case {
        name: "pipelines.specialization",
        run: specialization,
    },
    Case {
        name: "pipelines.executable_properties",
        run: executable_properties,
    },
    Case {
        name: "pipelines.long_straight_line",
        run: long_straight_line,
    },
];

/// One pipeline of the specialization case: the constants given and what
/// the shader then stores.
struct Specialized {
    name: &'static str,
    constants: &'static [(u32, u32)],
    want: [u32; 7],
}

/// `specialization.comp` with its defaults, then with every constant but
/// one specialized: an int, a uint that sizes an array, a float, a bool.
fn specialization(h: &mut Harness) -> Result<CaseResult, Stop> {
    let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let sets: &[&[Slot]] = &[&[Slot::STORAGE]];
    let runs = [
        Specialized {
            name: "defaults",
            constants: &[],
            want: [-7i32 as u32, 40, 0x3fc0_0000, 0, 12345, 81, 80 * 80],
        },
        Specialized {
            name: "specialized",
            // -12345, 20, 2.75 (0x40300000), VK_TRUE.
            constants: &[(3, 0xffff_cfc7), (4, 20), (5, 0x4030_0000), (6, vk::TRUE)],
            want: [-12345i32 as u32, 20, 0x4030_0000, 1, 12345, 41, 40 * 40],
        },
    ];
    let mut result = CaseResult::new();
    for run in &runs {
        let output = h.host_buffer(4 * 7, storage)?;
        let pipeline = h.pipeline(
            &PipelineDesc::new(&shaders::SPECIALIZATION, sets).specialize(run.constants),
        )?;
        let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&output)])?;
        h.dispatch_and_wait(&pipeline, &[set], [1, 1, 1])?;
        result.check(run.name, &h.read_as::<u32>(&output)?, &run.want);
    }
    Ok(result)
}

fn text(bytes: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = bytes.iter().map(|c| *c as u8).collect();
    CStr::from_bytes_until_nul(&bytes)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// With the capture flags, a compute pipeline has a compute executable with
/// named statistics and at least one NUL-terminated text representation;
/// the pipeline still computes correctly. Only these facts are outputs:
/// the statistics themselves belong to each driver.
fn executable_properties(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().pipeline_executable_info {
        return Err(Stop::NotSupported(
            "VK_KHR_pipeline_executable_properties with pipelineExecutableInfo".into(),
        ));
    }
    let sets: &[&[Slot]] = &[&[Slot::STORAGE, Slot::STORAGE]];
    let flags = vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
        | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR;
    let pipeline = h.pipeline(
        &PipelineDesc::new(&shaders::STEP, sets)
            .push_constants(4)
            .flags(flags),
    )?;
    let ext = ash::khr::pipeline_executable_properties::Device::new(h.instance(), h.device());
    let info = vk::PipelineInfoKHR::default().pipeline(pipeline.pipeline);
    // SAFETY: the pipeline is alive and was created with the capture flags.
    let executables = unsafe { ext.get_pipeline_executable_properties(&info) }
        .or_stop("vkGetPipelineExecutablePropertiesKHR")?;
    let mut result = CaseResult::new();
    let compute = executables
        .iter()
        .position(|e| e.stages.contains(vk::ShaderStageFlags::COMPUTE));
    result.require(compute.is_some(), "no executable for the compute stage");
    let mut statistics = 0;
    let mut texts = 0;
    if let Some(index) = compute {
        let exec_info = vk::PipelineExecutableInfoKHR::default()
            .pipeline(pipeline.pipeline)
            .executable_index(index as u32);
        // SAFETY: as above; `index` is one of the pipeline's executables.
        let stats = unsafe { ext.get_pipeline_executable_statistics(&exec_info) }
            .or_stop("vkGetPipelineExecutableStatisticsKHR")?;
        statistics = stats.len();
        for s in &stats {
            result.require(!text(&s.name).is_empty(), "a statistic without a name");
        }
        // SAFETY: as above.
        let mut reps = unsafe { ext.get_pipeline_executable_internal_representations(&exec_info) }
            .or_stop("vkGetPipelineExecutableInternalRepresentationsKHR")?;
        let mut storage: Vec<Vec<u8>> = reps.iter().map(|r| vec![0xa5; r.data_size]).collect();
        for (rep, bytes) in reps.iter_mut().zip(&mut storage) {
            rep.p_data = bytes.as_mut_ptr().cast();
        }
        let mut count = reps.len() as u32;
        // SAFETY: each `p_data` points at `data_size` writable bytes that
        // outlive the call; `count` matches the array.
        let code = unsafe {
            (ext.fp()
                .get_pipeline_executable_internal_representations_khr)(
                h.device().handle(),
                &exec_info,
                &mut count,
                reps.as_mut_ptr(),
            )
        };
        result.require(
            code == vk::Result::SUCCESS,
            format!("reading the representations returned {code:?}"),
        );
        for (rep, bytes) in reps.iter().zip(&storage) {
            if rep.is_text == vk::TRUE {
                texts += 1;
                let terminated = bytes[..rep.data_size.min(bytes.len())].contains(&0);
                result.require(
                    terminated,
                    format!("representation {} is not NUL-terminated", text(&rep.name)),
                );
            }
        }
    }
    result.require(statistics > 0, "the compute executable has no statistics");
    result.require(
        texts > 0,
        "the compute executable has no text representation",
    );
    let initial = Sequence::new(93).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let set = step::set(h, &pipeline, &a, &b)?;
    h.run(|r| {
        step::record(r, &pipeline, set, 6);
        r.barrier(Dependency::TO_HOST);
    })?;
    result.check("output", &h.read_as::<u32>(&b)?, &step(&initial, 6));
    Ok(result)
}

/// dEQP's `binding_model.dynamic_offset.shader_reuse_differing_layout_compute`:
/// one shader, writing through binding 1, in two pipelines whose layouts
/// differ before that binding (a dynamic uniform buffer at binding 0, or no
/// binding 0 at all). Each pipeline must find binding 1 and its dynamic
/// offset where its own layout puts them.
fn shader_reuse_differing_layouts(h: &mut Harness) -> Result<CaseResult, Stop> {
    // The largest minStorageBufferOffsetAlignment the spec allows: every
    // driver takes the offset and leaves the same bytes.
    let align = 256u64;
    let unused = h.host_buffer(48, vk::BufferUsageFlags::UNIFORM_BUFFER)?;
    let target = h.host_buffer(2 * align, vk::BufferUsageFlags::STORAGE_BUFFER)?;
    h.write(&target, 0, &vec![0u8; 2 * align as usize])?;
    let with_unused: &[Slot] = &[Slot::UNIFORM_DYNAMIC, Slot::STORAGE_DYNAMIC];
    let alone: &[Slot] = &[Slot::UNIFORM_DYNAMIC.array(0), Slot::STORAGE_DYNAMIC];
    let first = h.compute(&shaders::BINDING_ONE, &[with_unused])?;
    let second = h.compute(&shaders::BINDING_ONE, &[alone])?;
    let first_set = h.descriptor_set(
        &first,
        0,
        &[Bind::range(&unused, 0, 16), Bind::range(&target, 0, 16)],
    )?;
    let second_set = h.descriptor_set(&second, 0, &[Bind::range(&target, 0, 16)])?;
    h.run(|r| {
        r.bind_with_offsets(&first, &[first_set], &[0, 0]);
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::COMPUTE_TO_COMPUTE);
        r.bind_with_offsets(&second, &[second_set], &[align as u32]);
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let words = h.read_as::<f32>(&target)?;
    let quarter = (align / 4) as usize;
    let vec4 = [1.0f32, 2.0, 3.0, 4.0];
    let mut want = vec![0.0f32; 2 * quarter];
    want[..4].copy_from_slice(&vec4);
    want[quarter..quarter + 4].copy_from_slice(&vec4);
    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
    let mut result = CaseResult::new();
    result.check("target", &bits(&words), &bits(&want));
    Ok(result)
}

/// 4,480 dependent multiply-adds in a straight line over 14 live words per
/// invocation: a pipeline with little register pressure and a long program.
fn long_straight_line(h: &mut Harness) -> Result<CaseResult, Stop> {
    let invocations = 128;
    let words = Sequence::new(51).u32s(14 * invocations);
    let mut want = words.clone();
    for a in want.chunks_mut(14) {
        for _ in 0..8 * 40 {
            for j in 0..14 {
                let k = 1025 + 2 * j as u32;
                a[j] = a[j].wrapping_mul(k).wrapping_add(a[(j + 1) % 14]);
            }
        }
    }
    check_one_dispatch(
        h,
        &shaders::MAD_CHAIN,
        &to_bytes(&words),
        &want,
        (invocations / 64) as u32,
    )
}
