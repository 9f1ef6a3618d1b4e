//! What the pipeline creation commands share: a batch of create infos made
//! one by one into the application's array, with the flags of
//! VK_EXT_pipeline_creation_cache_control (a pipeline that would have to be
//! compiled fails with `VK_PIPELINE_COMPILE_REQUIRED` under
//! FAIL_ON_PIPELINE_COMPILE_REQUIRED; a failure under
//! EARLY_RETURN_ON_FAILURE ends the batch, every later pipeline
//! `VK_NULL_HANDLE`), and the report VK_EXT_pipeline_creation_feedback
//! asks for: how long each pipeline and each stage took, and whether the
//! application's pipeline cache gave it without compiling.

use std::ffi::c_void;
use std::time::{Duration, Instant};

use ash::vk;

use crate::ffi;

/// A create info of either bind point.
pub trait PipelineInfo {
    fn flags(&self) -> vk::PipelineCreateFlags;
    fn p_next(&self) -> *const c_void;
}

impl PipelineInfo for vk::ComputePipelineCreateInfo<'_> {
    fn flags(&self) -> vk::PipelineCreateFlags {
        self.flags
    }
    fn p_next(&self) -> *const c_void {
        self.p_next
    }
}

impl PipelineInfo for vk::GraphicsPipelineCreateInfo<'_> {
    fn flags(&self) -> vk::PipelineCreateFlags {
        self.flags
    }
    fn p_next(&self) -> *const c_void {
        self.p_next
    }
}

/// What is known of how one pipeline or one stage was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feedback {
    /// Made from the application's pipeline cache, without compiling.
    pub cache_hit: bool,
    pub duration: Duration,
}

impl Feedback {
    fn to_vk(self) -> vk::PipelineCreationFeedback {
        let mut flags = vk::PipelineCreationFeedbackFlags::VALID;
        if self.cache_hit {
            flags |= vk::PipelineCreationFeedbackFlags::APPLICATION_PIPELINE_CACHE_HIT;
        }
        vk::PipelineCreationFeedback {
            flags,
            duration: u64::try_from(self.duration.as_nanos()).unwrap_or(u64::MAX),
        }
    }
}

/// A pipeline made, with what its stages report, in `pStages` order.
pub struct Made {
    pub pipeline: vk::Pipeline,
    pub cache_hit: bool,
    pub stages: Vec<Feedback>,
}

/// Writes the feedback `info`'s chain asks for, if it asks.
///
/// # Safety
/// `p_next` starts a valid chain; a feedback structure in it points at
/// writable feedback for the pipeline and for as many stages as it says.
unsafe fn report(p_next: *const c_void, pipeline: Feedback, stages: &[Feedback]) {
    // SAFETY: the caller's promise.
    let Some(info) =
        (unsafe { ffi::find_in_chain::<vk::PipelineCreationFeedbackCreateInfo<'_>>(p_next) })
    else {
        return;
    };
    if !info.p_pipeline_creation_feedback.is_null() {
        // SAFETY: pPipelineCreationFeedback is writable.
        unsafe { info.p_pipeline_creation_feedback.write(pipeline.to_vk()) };
    }
    if info.p_pipeline_stage_creation_feedbacks.is_null() {
        return;
    }
    // The count is the create info's stage count (valid usage); a stage the
    // driver knows nothing of is left without the VALID bit.
    for i in 0..info.pipeline_stage_creation_feedback_count as usize {
        let feedback = stages
            .get(i)
            .map_or_else(vk::PipelineCreationFeedback::default, |s| s.to_vk());
        // SAFETY: pPipelineStageCreationFeedbacks holds that many.
        unsafe {
            info.p_pipeline_stage_creation_feedbacks
                .add(i)
                .write(feedback)
        };
    }
}

/// Makes a pipeline of each of `infos` with `make` into `p_pipelines`,
/// `VK_NULL_HANDLE` for each that fails, and what the command returns: the
/// first error, else `VK_PIPELINE_COMPILE_REQUIRED` if a pipeline needed
/// compiling, else success.
///
/// # Safety
/// `infos` are valid create infos with valid chains; `p_pipelines` holds
/// as many writable handles.
pub unsafe fn create_batch<T: PipelineInfo>(
    infos: &[T],
    p_pipelines: *mut vk::Pipeline,
    mut make: impl FnMut(&T) -> Result<Made, vk::Result>,
) -> Result<vk::Result, vk::Result> {
    let mut first_error = None;
    let mut compile_required = false;
    for (i, info) in infos.iter().enumerate() {
        let started = Instant::now();
        let handle = match make(info) {
            Ok(made) => {
                let pipeline = Feedback {
                    cache_hit: made.cache_hit,
                    duration: started.elapsed(),
                };
                // SAFETY: the caller's promise.
                unsafe { report(info.p_next(), pipeline, &made.stages) };
                made.pipeline
            }
            Err(vk::Result::PIPELINE_COMPILE_REQUIRED) => {
                compile_required = true;
                vk::Pipeline::null()
            }
            Err(e) => {
                first_error.get_or_insert(e);
                vk::Pipeline::null()
            }
        };
        // SAFETY: pPipelines holds one handle per create info.
        unsafe { ffi::write(p_pipelines.add(i), handle) }?;
        if handle == vk::Pipeline::null()
            && info
                .flags()
                .contains(vk::PipelineCreateFlags::EARLY_RETURN_ON_FAILURE)
        {
            for j in i + 1..infos.len() {
                // SAFETY: as above.
                unsafe { ffi::write(p_pipelines.add(j), vk::Pipeline::null()) }?;
            }
            break;
        }
    }
    match (first_error, compile_required) {
        (Some(e), _) => Err(e),
        (None, true) => Ok(vk::Result::PIPELINE_COMPILE_REQUIRED),
        (None, false) => Ok(vk::Result::SUCCESS),
    }
}

/// Whether `info` forbids compiling (FAIL_ON_PIPELINE_COMPILE_REQUIRED).
pub fn must_not_compile(info: &impl PipelineInfo) -> bool {
    info.flags()
        .contains(vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use vk::Handle as _;

    const HIT: vk::PipelineCreationFeedbackFlags =
        vk::PipelineCreationFeedbackFlags::APPLICATION_PIPELINE_CACHE_HIT;

    #[test]
    fn a_batch_reports_feedback_and_stops_early_when_asked() {
        let mut feedback = [vk::PipelineCreationFeedback::default(); 3];
        let mut stages = [vk::PipelineCreationFeedback::default(); 3];
        let mut chains: Vec<_> = feedback
            .iter_mut()
            .zip(stages.iter_mut())
            .map(|(f, s)| {
                vk::PipelineCreationFeedbackCreateInfo::default()
                    .pipeline_creation_feedback(f)
                    .pipeline_stage_creation_feedbacks(std::slice::from_mut(s))
            })
            .collect();
        let flags = [
            vk::PipelineCreateFlags::empty(),
            vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED
                | vk::PipelineCreateFlags::EARLY_RETURN_ON_FAILURE,
            vk::PipelineCreateFlags::empty(),
        ];
        let infos: Vec<_> = chains
            .iter_mut()
            .zip(flags)
            .map(|(c, f)| {
                vk::ComputePipelineCreateInfo::default()
                    .flags(f)
                    .push_next(c)
            })
            .collect();
        let mut made = 0;
        let mut handles = [vk::Pipeline::from_raw(99); 3];
        // SAFETY: the infos' chains and the handles are valid.
        let code = unsafe {
            create_batch(&infos, handles.as_mut_ptr(), |info| {
                made += 1;
                if must_not_compile(info) {
                    return Err(vk::Result::PIPELINE_COMPILE_REQUIRED);
                }
                Ok(Made {
                    pipeline: vk::Pipeline::from_raw(7),
                    cache_hit: true,
                    stages: vec![Feedback {
                        cache_hit: true,
                        duration: Duration::from_nanos(5),
                    }],
                })
            })
        };
        drop(infos);
        drop(chains);
        assert_eq!(code, Ok(vk::Result::PIPELINE_COMPILE_REQUIRED));
        assert_eq!(made, 2, "the third create info is never made");
        assert_eq!(
            handles,
            [
                vk::Pipeline::from_raw(7),
                vk::Pipeline::null(),
                vk::Pipeline::null()
            ]
        );
        assert_eq!(
            feedback[0].flags,
            vk::PipelineCreationFeedbackFlags::VALID | HIT
        );
        assert_eq!(stages[0].duration, 5);
        assert!(
            feedback[1].flags.is_empty(),
            "a failed pipeline reports nothing"
        );
    }

    #[test]
    fn an_error_outranks_compile_required() {
        let infos = [vk::ComputePipelineCreateInfo::default(); 2];
        let mut handles = [vk::Pipeline::null(); 2];
        let mut results = [
            Err(vk::Result::PIPELINE_COMPILE_REQUIRED),
            Err(vk::Result::ERROR_OUT_OF_HOST_MEMORY),
        ]
        .into_iter();
        // SAFETY: the infos have no chains; the handles are valid.
        let code = unsafe {
            create_batch(&infos, handles.as_mut_ptr(), |_| {
                results.next().expect("one result per create info")
            })
        };
        assert_eq!(code, Err(vk::Result::ERROR_OUT_OF_HOST_MEMORY));
    }
}
