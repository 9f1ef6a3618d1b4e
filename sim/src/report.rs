//! What ends a submit early, reported so a user recognises it: a fault reads
//! like the msm kernel's iova fault, a hang like its hangcheck, and both say
//! which packet (IB level, IB address, dword offset, opcode) or which shader
//! instruction (dispatch, wave, PC, instruction text) was running.

use std::fmt;
use std::time::Duration;

use parsnip_registers::pm4::HeaderError;

use crate::memory::Fault;
use crate::register_file::RegisterReadError;

/// Which of the CP's instruction fetchers ran a packet. The a6xx/a7xx CP has
/// one per level: IB1 (what the kernel's ring calls), IB2 (what an IB1
/// calls) and SDS, the draw-state fetcher (a6xx.xml's CP_IB1_BASE,
/// CP_IB2_BASE and CP_SDS_BASE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbLevel {
    Ib1,
    Ib2,
    DrawState,
}

impl fmt::Display for IbLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IbLevel::Ib1 => "IB1",
            IbLevel::Ib2 => "IB2",
            IbLevel::DrawState => "SDS",
        })
    }
}

/// One packet being executed: where it is and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PacketSite {
    pub level: IbLevel,
    /// The iova of the IB's first dword.
    pub ib: u64,
    /// The IB's length in dwords.
    pub ib_dwords: u32,
    /// The offset of the packet's header in the IB, in dwords.
    pub dword: u32,
    /// The opcode's name (`CP_EXEC_CS`), `type 4` for a register write, or
    /// the raw header for an undecodable one.
    pub packet: String,
}

impl fmt::Display for PacketSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {} {:#x} dword {} (iova {:#x})",
            self.packet,
            self.level,
            self.ib,
            self.dword,
            self.ib + u64::from(self.dword) * 4
        )
    }
}

/// The chain of packets that led to an event, outermost (the submitted IB1)
/// first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpSite(pub Vec<PacketSite>);

impl CpSite {
    /// The packet that was executing (the innermost).
    pub fn packet(&self) -> Option<&PacketSite> {
        self.0.last()
    }
}

impl fmt::Display for CpSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut frames = self.0.iter().rev();
        match frames.next() {
            None => f.write_str("no packet"),
            Some(inner) => {
                write!(f, "{inner}")?;
                for outer in frames {
                    write!(f, ", called by {outer}")?;
                }
                Ok(())
            }
        }
    }
}

/// The graphics shader stages the model runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphicsStage {
    Vertex,
    Fragment,
}

impl fmt::Display for GraphicsStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GraphicsStage::Vertex => "vertex shader",
            GraphicsStage::Fragment => "fragment shader",
        })
    }
}

/// Which launch of waves an instruction belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Launch {
    /// A compute dispatch: which of the submit (0 for the first
    /// CP_EXEC_CS), and the work group, as (x, y, z).
    Dispatch { dispatch: u32, work_group: [u32; 3] },
    /// A stage of a draw: which draw of the submit (0 for the first).
    Draw { draw: u32, stage: GraphicsStage },
}

impl fmt::Display for Launch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Launch::Dispatch {
                dispatch,
                work_group: [x, y, z],
            } => write!(f, "dispatch {dispatch}, work group ({x}, {y}, {z})"),
            Launch::Draw { draw, stage } => write!(f, "draw {draw}, {stage}"),
        }
    }
}

/// A shader instruction that was executing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderSite {
    pub launch: Launch,
    /// The wave's number in its work group, or in its draw's stage.
    pub wave: u32,
    /// The instruction's index in the program.
    pub pc: u32,
    /// The instruction as the disassembler prints it, or its raw word.
    pub instruction: String,
}

impl ShaderSite {
    /// The work group, for an instruction of a compute dispatch.
    pub fn work_group(&self) -> Option<[u32; 3]> {
        match self.launch {
            Launch::Dispatch { work_group, .. } => Some(work_group),
            Launch::Draw { .. } => None,
        }
    }
}

impl fmt::Display for ShaderSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, wave {}, pc {}: {}",
            self.launch, self.wave, self.pc, self.instruction
        )
    }
}

/// What the shader processor reports when a dispatch does not complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShaderFailure {
    /// An access no buffer object covers.
    Fault { fault: Fault, at: ShaderSite },
    /// The instruction budget ran out.
    Hang { executed: u64, at: ShaderSite },
    /// The program cannot run (an undecodable word, an access a descriptor
    /// does not allow, shared memory out of range...).
    Error {
        message: String,
        at: Option<ShaderSite>,
    },
}

/// Why the model stopped on a command stream that is not well formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamProblem {
    /// The dword is not a valid packet header.
    BadHeader(HeaderError),
    /// A type 7 opcode this GPU generation does not have.
    UnknownOpcode { opcode: u32 },
    /// A packet the hardware has that the model does not execute (yet).
    NotModelled { what: String },
    /// The packet's payload runs past the end of its IB.
    PastEnd { needed: u32, left: u32 },
    /// An IB called from a level that cannot call one.
    TooDeep { from: IbLevel },
    /// A payload that is the wrong size or holds a value the packet does not
    /// allow.
    BadPayload { why: String },
    /// A dispatch the registers describe wrongly (a wave size the GPU lacks,
    /// two registers that must agree and do not...).
    BadState { why: String },
}

impl fmt::Display for StreamProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamProblem::BadHeader(e) => write!(f, "bad packet header {e}"),
            StreamProblem::UnknownOpcode { opcode } => {
                write!(f, "unknown type 7 opcode {opcode:#04x}")
            }
            StreamProblem::NotModelled { what } => f.write_str(what),
            StreamProblem::PastEnd { needed, left } => {
                write!(f, "packet needs {needed} dwords but its IB has {left} left")
            }
            StreamProblem::TooDeep { from } => write!(
                f,
                "an IB called from {from}: the CP has no fetcher below it"
            ),
            StreamProblem::BadPayload { why } => f.write_str(why),
            StreamProblem::BadState { why } => f.write_str(why),
        }
    }
}

/// Why a CP hang was declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HangCause {
    /// A wait whose condition never became true.
    Wait {
        /// The condition, e.g. `(mem[0x100004000] & 0xffffffff) == 0x1`.
        condition: String,
        /// The value the condition saw last.
        last_value: u64,
        waited: Duration,
    },
    /// A dispatch that exhausted its instruction budget.
    Shader { executed: u64, at: ShaderSite },
}

/// The graphics units of the model, as the hardware names its blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// The primitive controller: draw parameters, indices, primitive
    /// assembly.
    Pc,
    /// Vertex fetch and decode.
    Vfd,
    /// The sequencer that loads shader state and launches waves.
    Hlsq,
    /// The varying and position cache between the stages.
    Vpc,
    /// Clipping, setup, rasterization.
    Gras,
    /// The render backend: depth, stencil, blending, render targets.
    Rb,
    /// The visibility stream compressor of the binning pass.
    Vsc,
    /// The low-resolution Z unit.
    Lrz,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Pc => "PC",
            Unit::Vfd => "VFD",
            Unit::Hlsq => "HLSQ",
            Unit::Vpc => "VPC",
            Unit::Gras => "GRAS",
            Unit::Rb => "RB",
            Unit::Vsc => "VSC",
            Unit::Lrz => "LRZ",
        })
    }
}

/// What stopped a graphics unit during a draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitProblem {
    /// Strict mode, or a register the unit could not read.
    Register(RegisterReadError),
    /// The registers describe something the hardware cannot do.
    BadState(String),
    /// Something the hardware does that the model does not (yet), or whose
    /// behaviour is not publicly documented.
    NotModelled(String),
    /// The unit touched an address no buffer object covers.
    Fault(Fault),
}

impl fmt::Display for UnitProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitProblem::Register(e) => e.fmt(f),
            UnitProblem::BadState(why) => f.write_str(why),
            UnitProblem::NotModelled(what) => write!(f, "not modelled: {what}"),
            UnitProblem::Fault(fault) => fault.fmt(f),
        }
    }
}

/// What ended a submit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An access to an address no buffer object covers, by the packet in
    /// the error's site or by a shader it launched.
    /// (The sites are boxed to keep errors small: they travel in
    /// `Result`s.)
    Fault {
        fault: Fault,
        shader: Option<Box<ShaderSite>>,
    },
    Hang(HangCause),
    BadStream(StreamProblem),
    /// Strict mode, or a register the model could not read.
    Register(RegisterReadError),
    /// The shader could not run.
    Shader {
        message: String,
        at: Option<Box<ShaderSite>>,
    },
    /// A graphics unit could not complete a draw.
    Unit {
        unit: Unit,
        problem: UnitProblem,
    },
    /// The context was lost by an earlier error; nothing runs on it.
    ContextLost,
}

/// A submit that did not complete: what happened and which packet ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuError {
    pub kind: ErrorKind,
    pub site: CpSite,
}

impl GpuError {
    pub fn is_fault(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::Fault { .. }
                | ErrorKind::Unit {
                    problem: UnitProblem::Fault(_),
                    ..
                }
        )
    }

    pub fn is_hang(&self) -> bool {
        matches!(self.kind, ErrorKind::Hang(_))
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            // The msm kernel: "*** gpu fault: ttbr0=... iova=... dir=READ
            // type=TRANSLATION source=CP ...".
            ErrorKind::Fault { fault, shader } => {
                write!(f, "*** {fault}")?;
                match shader {
                    Some(s) => write!(f, " source=SP ({s}), launched by {}", self.site),
                    None => write!(f, " source=CP ({})", self.site),
                }
            }
            // The msm kernel: "hangcheck detected gpu lockup rb 0!".
            ErrorKind::Hang(HangCause::Wait {
                condition,
                last_value,
                waited,
            }) => write!(
                f,
                "hangcheck detected gpu lockup: {} waited {:.3} s for {condition} \
                 (last value {last_value:#x})",
                self.site,
                waited.as_secs_f64()
            ),
            ErrorKind::Hang(HangCause::Shader { executed, at }) => write!(
                f,
                "hangcheck detected gpu lockup: shader still running after {executed} \
                 instructions ({at}), launched by {}",
                self.site
            ),
            ErrorKind::BadStream(p) => write!(f, "CP error: {p} ({})", self.site),
            ErrorKind::Register(e) => write!(f, "{e} ({})", self.site),
            ErrorKind::Shader { message, at } => {
                write!(f, "shader error: {message}")?;
                if let Some(at) = at {
                    write!(f, " ({at})")?;
                }
                write!(f, ", launched by {}", self.site)
            }
            // A unit's fault names the unit as the kernel names the
            // client that faulted.
            ErrorKind::Unit {
                unit,
                problem: UnitProblem::Fault(fault),
            } => write!(f, "*** {fault} source={unit} ({})", self.site),
            ErrorKind::Unit { unit, problem } => write!(f, "{unit}: {problem} ({})", self.site),
            ErrorKind::ContextLost => {
                f.write_str("the context was lost by an earlier fault or hang")
            }
        }
    }
}

impl std::error::Error for GpuError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> CpSite {
        CpSite(vec![
            PacketSite {
                level: IbLevel::Ib1,
                ib: 0x1_0002_8000,
                ib_dwords: 185,
                dword: 0x7f,
                packet: "CP_INDIRECT_BUFFER".into(),
            },
            PacketSite {
                level: IbLevel::Ib2,
                ib: 0x1_0000_5700,
                ib_dwords: 38,
                dword: 3,
                packet: "CP_MEM_WRITE".into(),
            },
        ])
    }

    #[test]
    fn a_fault_reads_like_the_kernels_and_names_the_packet_chain() {
        let e = GpuError {
            kind: ErrorKind::Fault {
                fault: Fault {
                    iova: 0xdead_0000,
                    len: 4,
                    write: true,
                },
                shader: None,
            },
            site: site(),
        };
        assert_eq!(
            e.to_string(),
            "*** gpu fault: iova=0x00000000dead0000 dir=WRITE len=4 source=CP (CP_MEM_WRITE at \
             IB2 0x100005700 dword 3 (iova 0x10000570c), called by CP_INDIRECT_BUFFER at IB1 \
             0x100028000 dword 127 (iova 0x1000281fc))"
        );
    }

    #[test]
    fn a_wait_hang_names_the_condition() {
        let e = GpuError {
            kind: ErrorKind::Hang(HangCause::Wait {
                condition: "(mem[0x100004000] & 0xffffffff) == 0x1".into(),
                last_value: 0,
                waited: Duration::from_millis(20),
            }),
            site: CpSite(site().0[..1].to_vec()),
        };
        assert!(e.is_hang());
        assert_eq!(
            e.to_string(),
            "hangcheck detected gpu lockup: CP_INDIRECT_BUFFER at IB1 0x100028000 dword 127 \
             (iova 0x1000281fc) waited 0.020 s for (mem[0x100004000] & 0xffffffff) == 0x1 \
             (last value 0x0)"
        );
    }
}
