//! VK_EXT_pipeline_creation_cache_control and
//! VK_EXT_pipeline_creation_feedback (core in Vulkan 1.3): a pipeline asked
//! for with FAIL_ON_PIPELINE_COMPILE_REQUIRED that the application's cache
//! does not hold is not compiled but refused with VK_PIPELINE_COMPILE_REQUIRED
//! and a NULL handle; once the cache holds it, it is made from the cache and
//! the feedback says so; a failure under EARLY_RETURN_ON_FAILURE leaves every
//! later pipeline of the batch NULL; a cache created externally
//! synchronized works as any other. The pipeline made from the cache runs.
//!
//! What is kept is what the specification decides: the codes, which handles
//! are NULL, no cache hit where nothing could have been cached, and the
//! pipeline's output. Whether a pipeline comes from the cache a second
//! time, and which feedback is VALID, is each driver's; the case checks
//! only that the answers agree with each other.

use super::draws::{target, SIZE};
use super::pseudo_random::Sequence;
use super::step::{self, step, WORDS};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{ComputePipeline, Dependency, GraphicsDesc, Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "pipeline_cache_control.compute",
        run: compute,
    },
    Case {
        name: "pipeline_cache_control.early_return",
        run: early_return,
    },
    Case {
        name: "pipeline_cache_control.graphics_feedback",
        run: graphics_feedback,
    },
];

const FAIL_ON_COMPILE: vk::PipelineCreateFlags =
    vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED;

fn needs_cache_control(h: &Harness) -> Result<(), Stop> {
    if !h.caps().pipeline_creation_cache_control || !h.caps().pipeline_creation_feedback {
        return Err(Stop::NotSupported(
            "pipelineCreationCacheControl with pipeline creation feedback".into(),
        ));
    }
    Ok(())
}

/// An empty cache the application promises to synchronise itself.
fn external_cache(h: &mut Harness) -> Result<vk::PipelineCache, Stop> {
    let info = vk::PipelineCacheCreateInfo::default()
        .flags(vk::PipelineCacheCreateFlags::EXTERNALLY_SYNCHRONIZED);
    // SAFETY: the device is alive; the info is valid for the call.
    let cache = unsafe { h.device().create_pipeline_cache(&info, None) }
        .or_stop("vkCreatePipelineCache")?;
    Ok(h.own(cache))
}

/// One compute create info's outcome: its handle and feedback.
struct Outcome {
    pipeline: vk::Pipeline,
    feedback: vk::PipelineCreationFeedback,
    stage: vk::PipelineCreationFeedback,
}

/// `vkCreateComputePipelines` of the step shader in `layout`, one create
/// info per entry of `flags`, each asking for feedback: the command's
/// code and each outcome. The pipelines made are owned by the harness.
fn create(
    h: &mut Harness,
    layout: vk::PipelineLayout,
    cache: vk::PipelineCache,
    flags: &[vk::PipelineCreateFlags],
) -> Result<(vk::Result, Vec<Outcome>), Stop> {
    let module = h.shader_module(&shaders::STEP)?;
    let n = flags.len();
    let mut feedback = vec![vk::PipelineCreationFeedback::default(); n];
    let mut stages = vec![vk::PipelineCreationFeedback::default(); n];
    let mut chains: Vec<vk::PipelineCreationFeedbackCreateInfo> = feedback
        .iter_mut()
        .zip(stages.iter_mut())
        .map(|(f, s)| {
            vk::PipelineCreationFeedbackCreateInfo::default()
                .pipeline_creation_feedback(f)
                .pipeline_stage_creation_feedbacks(std::slice::from_mut(s))
        })
        .collect();
    let stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module)
        .name(c"main");
    let infos: Vec<vk::ComputePipelineCreateInfo> = flags
        .iter()
        .zip(chains.iter_mut())
        .map(|(f, chain)| {
            vk::ComputePipelineCreateInfo::default()
                .flags(*f)
                .stage(stage)
                .layout(layout)
                .push_next(chain)
        })
        .collect();
    // Filled with a value no driver writes, to see each one written.
    let mut pipelines = vec![vk::Pipeline::from_raw(u64::MAX); n];
    // SAFETY: the module, layout and cache are alive; the infos, their
    // chains and the output array are valid for the call.
    let code = unsafe {
        (h.device().fp_v1_0().create_compute_pipelines)(
            h.device().handle(),
            cache,
            n as u32,
            infos.as_ptr(),
            std::ptr::null(),
            pipelines.as_mut_ptr(),
        )
    };
    drop(infos);
    drop(chains);
    let mut out = Vec::new();
    for (i, p) in pipelines.into_iter().enumerate() {
        if p != vk::Pipeline::null() && p != vk::Pipeline::from_raw(u64::MAX) {
            h.own(p);
        }
        out.push(Outcome {
            pipeline: p,
            feedback: feedback[i],
            stage: stages[i],
        });
    }
    Ok((code, out))
}

use vk::Handle as _;

fn has(f: &vk::PipelineCreationFeedback, bit: vk::PipelineCreationFeedbackFlags) -> u32 {
    u32::from(f.flags.contains(bit))
}

const VALID: vk::PipelineCreationFeedbackFlags = vk::PipelineCreationFeedbackFlags::VALID;
const HIT: vk::PipelineCreationFeedbackFlags =
    vk::PipelineCreationFeedbackFlags::APPLICATION_PIPELINE_CACHE_HIT;

/// The step pipeline's layout, from a pipeline made without a cache.
fn step_layout(h: &mut Harness) -> Result<ComputePipeline, Stop> {
    let sets: &[&[Slot]] = &[&[Slot::STORAGE, Slot::STORAGE]];
    h.pipeline(&PipelineDesc::new(&shaders::STEP, sets).push_constants(4))
}

/// Refused on an empty cache; made into it (VALID, no hit: the cache was
/// empty); then made from it under FAIL_ON_PIPELINE_COMPILE_REQUIRED, and
/// run.
fn compute(h: &mut Harness) -> Result<CaseResult, Stop> {
    needs_cache_control(h)?;
    let base = step_layout(h)?;
    let cache = external_cache(h)?;
    let mut result = CaseResult::new();

    let (code, first) = create(h, base.layout, cache, &[FAIL_ON_COMPILE])?;
    let refused =
        code == vk::Result::PIPELINE_COMPILE_REQUIRED && first[0].pipeline == vk::Pipeline::null();
    result.require(refused, format!("a miss under FAIL_ON_...: {code}"));

    let (code, made) = create(h, base.layout, cache, &[vk::PipelineCreateFlags::empty()])?;
    let made = &made[0];
    let compiled = code == vk::Result::SUCCESS && made.pipeline != vk::Pipeline::null();
    result.require(compiled, format!("compiling: {code}"));

    // Now the cache may hold it: made from it, and the feedback says it
    // was, or refused again, and the handle is NULL. Which one is the
    // driver's choice (lavapipe keeps no compute pipeline in the
    // application's cache; Parsnip does, its pipeline/compute.rs tests).
    let (code, again) = create(h, base.layout, cache, &[FAIL_ON_COMPILE])?;
    let again = &again[0];
    let from_cache = code == vk::Result::SUCCESS
        && again.pipeline != vk::Pipeline::null()
        && again.feedback.flags.contains(VALID | HIT);
    let refused_again =
        code == vk::Result::PIPELINE_COMPILE_REQUIRED && again.pipeline == vk::Pipeline::null();
    result.require(
        from_cache || refused_again,
        format!(
            "a second time under FAIL_ON_...: {code}, {:?}",
            again.feedback.flags
        ),
    );
    // Nothing can come from an empty cache: no hit, whatever else the
    // feedback holds.
    result.check(
        "outcomes",
        &[
            u32::from(refused),
            u32::from(compiled),
            has(&made.feedback, HIT),
            has(&made.stage, HIT),
            u32::from(from_cache || refused_again),
        ],
        &[1, 1, 0, 0, 1],
    );
    // The pipeline made (from the cache if it was) computes the step.
    let mut pipeline = base.clone();
    pipeline.pipeline = if from_cache {
        again.pipeline
    } else {
        made.pipeline
    };
    let initial = Sequence::new(93).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let set = step::set(h, &pipeline, &a, &b)?;
    h.run(|r| {
        step::record(r, &pipeline, set, 5);
        r.barrier(Dependency::TO_HOST);
    })?;
    result.check("output", &h.read_as::<u32>(&b)?, &step(&initial, 5));
    Ok(result)
}

/// A batch on an empty cache whose first create info fails under
/// FAIL_ON_PIPELINE_COMPILE_REQUIRED and EARLY_RETURN_ON_FAILURE: the
/// command returns VK_PIPELINE_COMPILE_REQUIRED and every handle is NULL,
/// the later create infos (which could be compiled) never made. Without
/// early return, the later ones are made.
fn early_return(h: &mut Harness) -> Result<CaseResult, Stop> {
    needs_cache_control(h)?;
    let base = step_layout(h)?;
    let none = vk::PipelineCreateFlags::empty();
    let early = FAIL_ON_COMPILE | vk::PipelineCreateFlags::EARLY_RETURN_ON_FAILURE;
    let cache = external_cache(h)?;
    let (code, batch) = create(h, base.layout, cache, &[early, none, none])?;
    let nulls: Vec<u32> = batch
        .iter()
        .map(|o| u32::from(o.pipeline == vk::Pipeline::null()))
        .collect();
    let other = external_cache(h)?;
    let (code_on, on) = create(h, base.layout, other, &[FAIL_ON_COMPILE, none])?;
    let nulls_on: Vec<u32> = on
        .iter()
        .map(|o| u32::from(o.pipeline == vk::Pipeline::null()))
        .collect();
    let mut result = CaseResult::new();
    result.check(
        "codes",
        &[code.as_raw(), code_on.as_raw()],
        &[vk::Result::PIPELINE_COMPILE_REQUIRED.as_raw(); 2],
    );
    result.check("early_return_nulls", &nulls, &[1, 1, 1]);
    result.check("carry_on_nulls", &nulls_on, &[1, 0]);
    Ok(result)
}

/// A graphics pipeline: refused under FAIL_ON_PIPELINE_COMPILE_REQUIRED
/// without a cache (nothing can hold it), made without the flag; its
/// feedback and its two stages' say no cache hit (there was no cache).
fn graphics_feedback(h: &mut Harness) -> Result<CaseResult, Stop> {
    needs_cache_control(h)?;
    let t = target(h, false)?;
    let desc = GraphicsDesc::new(&shaders::TRIANGLE_VERT, &shaders::COLOUR_FRAG, t.pass, SIZE);
    // SAFETY: the device is alive; an empty layout.
    let layout = unsafe {
        h.device()
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
    }
    .or_stop("vkCreatePipelineLayout")?;
    let layout = h.own(layout);
    let mut codes = Vec::new();
    let mut flags = Vec::new();
    for create_flags in [FAIL_ON_COMPILE, vk::PipelineCreateFlags::empty()] {
        let mut feedback = vk::PipelineCreationFeedback::default();
        let mut stage_feedback = [vk::PipelineCreationFeedback::default(); 2];
        let mut chain = vk::PipelineCreationFeedbackCreateInfo::default()
            .pipeline_creation_feedback(&mut feedback)
            .pipeline_stage_creation_feedbacks(&mut stage_feedback);
        let (code, pipeline) =
            h.try_graphics_pipeline(&desc, layout, create_flags, Some(&mut chain))?;
        codes.push(code.as_raw());
        codes.push(i32::from(pipeline == vk::Pipeline::null()));
        if create_flags.is_empty() {
            flags.extend([
                has(&feedback, HIT),
                has(&stage_feedback[0], HIT),
                has(&stage_feedback[1], HIT),
            ]);
        }
    }
    let mut result = CaseResult::new();
    result.check(
        "codes_and_nulls",
        &codes,
        &[vk::Result::PIPELINE_COMPILE_REQUIRED.as_raw(), 1, 0, 0],
    );
    result.check("cache_hits", &flags, &[0, 0, 0]);
    Ok(result)
}
