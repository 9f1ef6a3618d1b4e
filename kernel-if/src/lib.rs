//! The kernel boundary: a GPU device trait with msm, null and simulator back ends
