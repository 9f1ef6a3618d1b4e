//! Why one instruction could not complete, before the wave adds where it
//! was (work group, wave, PC and text) to make a [`ShaderFailure`].
//!
//! [`ShaderFailure`]: crate::report::ShaderFailure

use crate::memory::Fault;

/// What stopped an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Trap {
    /// An access to an address no buffer object covers.
    Fault(Fault),
    /// The program cannot run: an access a descriptor or the register
    /// footprint does not allow, an instruction the model does not execute,
    /// an operation whose result is not publicly documented...
    Error(String),
    /// The dispatch used up its instruction budget: a hang.
    Budget,
}

impl From<Fault> for Trap {
    fn from(f: Fault) -> Trap {
        Trap::Fault(f)
    }
}

/// Shorthand for an error trap.
pub(crate) fn error<T>(message: impl Into<String>) -> Result<T, Trap> {
    Err(Trap::Error(message.into()))
}
