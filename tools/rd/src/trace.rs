//! A whole trace in memory: its sections, the device it was captured on,
//! and its submits, each with its command streams and the buffers they see.
//!
//! Submits follow freedreno's decoder: the first `RD_GPUADDR` after an
//! `RD_CMDSTREAM_ADDR` drops every buffer known so far and starts the next
//! submit, so each submit carries its own copy of what it uses. Every
//! section's payload is held once, in its record; submits refer to records
//! by index.

use std::fmt;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

use crate::error::Error;
use crate::memory::{Memory, Uncaptured};
use crate::reader::SectionReader;
use crate::section::{Record, Section};
use crate::writer::Writer;

/// What identifies the GPU a trace was captured on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceId {
    /// `RD_GPU_ID`, such as 630.
    GpuId(u32),
    /// `RD_CHIP_ID`, such as 0x43050a01.
    ChipId(u64),
}

impl fmt::Display for DeviceId {
    /// As freedreno's decoder prints it: `gpu_id: 630`, `chip_id: 0x43050a01`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::GpuId(id) => write!(f, "gpu_id: {id}"),
            Self::ChipId(id) => write!(f, "chip_id: {id:#x}"),
        }
    }
}

/// The device: the first non-zero `RD_GPU_ID` or `RD_CHIP_ID`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Device {
    pub id: DeviceId,
    /// Index of the section it came from.
    pub record: usize,
}

/// A submitted IB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmdstream {
    /// Position among all command streams of the trace: freedreno's decoder
    /// prints it as `cmdstream[N]` and `--frame N` selects it.
    pub number: usize,
    pub iova: u64,
    pub dwords: u32,
    /// Index of its `RD_CMDSTREAM_ADDR` section.
    pub record: usize,
}

/// A captured buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub iova: u64,
    pub size: u32,
    /// Index of its `RD_GPUADDR` section.
    pub address_record: usize,
    /// Index of its `RD_BUFFER_CONTENTS` section.
    pub contents_record: usize,
}

/// One submit: the buffers dumped for it, in dump order, and its command
/// streams, which all see all of those buffers (freedreno's decoder decodes a
/// stream as soon as its address is read, with the buffers dumped so far;
/// writers dump every buffer of a submit before its streams, so the two
/// agree).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Submit {
    /// Index of the section that started it: its first `RD_GPUADDR` (or
    /// whichever section first needed a submit). Sections before it, such as
    /// the `RD_CMD` a writer puts first, fall in the previous submit's span.
    pub first_record: usize,
    pub buffers: Vec<Buffer>,
    pub cmdstreams: Vec<Cmdstream>,
    /// Ranges declared by `RD_GPUADDR` with no contents after them.
    pub uncaptured: Vec<Uncaptured>,
}

/// A trace read whole.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    records: Vec<Record>,
    trailing_padding: u64,
    len: u64,
    device: Option<Device>,
    submits: Vec<Submit>,
}

impl Trace {
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Error> {
        Self::from_sections(SectionReader::<File>::open(path)?)
    }

    /// Reads a `.rd` or `.rd.gz` from `input`.
    pub fn read(input: impl Read) -> Result<Self, Error> {
        Self::from_sections(SectionReader::new(input)?)
    }

    /// Reads the rest of what `reader` yields.
    pub fn from_sections<R: Read>(mut reader: SectionReader<R>) -> Result<Self, Error> {
        let mut builder = SubmitBuilder::default();
        let mut records = Vec::new();
        while let Some(record) = reader.next_record()? {
            builder.add(records.len(), &record);
            records.push(record);
        }
        let (device, submits) = builder.finish();
        Ok(Self {
            records,
            trailing_padding: reader.trailing_padding(),
            len: reader.offset(),
            device,
            submits,
        })
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Padding pairs after the last section.
    pub fn trailing_padding(&self) -> u64 {
        self.trailing_padding
    }

    /// Length of the uncompressed stream.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn device(&self) -> Option<Device> {
        self.device
    }

    pub fn submits(&self) -> &[Submit] {
        &self.submits
    }

    /// Every command stream with the index of its submit, in trace order.
    pub fn cmdstreams(&self) -> impl Iterator<Item = (usize, &Cmdstream)> {
        self.submits
            .iter()
            .enumerate()
            .flat_map(|(i, submit)| submit.cmdstreams.iter().map(move |c| (i, c)))
    }

    /// The submit whose sections include the section at `record`: from its
    /// first record up to the next submit's. `None` before the first submit.
    /// A decoder walking the records finds the memory of a
    /// `RD_CMDSTREAM_ADDR` this way.
    pub fn submit_of_record(&self, record: usize) -> Option<usize> {
        self.submits
            .partition_point(|s| s.first_record <= record)
            .checked_sub(1)
    }

    /// The captured bytes of a buffer of this trace (empty for a buffer that
    /// is not one of its own).
    pub fn contents(&self, buffer: &Buffer) -> &[u8] {
        match self.records.get(buffer.contents_record) {
            Some(Record {
                section: Section::BufferContents(bytes),
                ..
            }) => bytes,
            _ => &[],
        }
    }

    /// The memory a submit's command streams see, or `None` past the last
    /// submit.
    pub fn memory(&self, submit: usize) -> Option<Memory<'_>> {
        let submit = self.submits.get(submit)?;
        let dumps = submit
            .buffers
            .iter()
            .map(|buffer| (buffer.iova, self.contents(buffer)));
        Some(Memory::from_dumps(dumps).with_uncaptured(submit.uncaptured.iter().copied()))
    }

    /// Writes the trace back: the same bytes it was read from, uncompressed.
    pub fn write<W: Write>(&self, writer: &mut Writer<W>) -> Result<(), Error> {
        for record in &self.records {
            writer.write_record(record)?;
        }
        writer.write_padding(self.trailing_padding)
    }
}

/// Groups sections into submits as they arrive.
#[derive(Default)]
struct SubmitBuilder {
    device: Option<Device>,
    submits: Vec<Submit>,
    current: Option<Submit>,
    /// A command stream was seen since the last `RD_GPUADDR`.
    after_cmdstream: bool,
    /// The last `RD_GPUADDR`, and whether contents followed it.
    pending: Option<(Uncaptured, usize, bool)>,
    cmdstreams: usize,
}

impl SubmitBuilder {
    fn add(&mut self, index: usize, record: &Record) {
        match &record.section {
            Section::GpuAddr(address) => {
                self.settle_pending();
                if self.after_cmdstream {
                    self.submits.extend(self.current.take());
                    self.after_cmdstream = false;
                }
                self.current_submit(index);
                let declared = Uncaptured {
                    iova: address.iova(),
                    size: address.len(),
                    offset: record.offset,
                };
                self.pending = Some((declared, index, false));
            }
            Section::BufferContents(_) => {
                // The reader refuses contents without an address, so the
                // `None` case only drops what could not be placed anyway.
                if let Some((declared, address_record, has_contents)) = &mut self.pending {
                    *has_contents = true;
                    let buffer = Buffer {
                        iova: declared.iova,
                        size: declared.size,
                        address_record: *address_record,
                        contents_record: index,
                    };
                    self.current_submit(index).buffers.push(buffer);
                }
            }
            Section::CmdstreamAddr(address) => {
                let cmdstream = Cmdstream {
                    number: self.cmdstreams,
                    iova: address.iova(),
                    dwords: address.len(),
                    record: index,
                };
                self.cmdstreams += 1;
                self.current_submit(index).cmdstreams.push(cmdstream);
                self.after_cmdstream = true;
            }
            Section::GpuId(id) if *id != 0 && self.device.is_none() => {
                self.device = Some(Device {
                    id: DeviceId::GpuId(*id),
                    record: index,
                });
            }
            Section::ChipId(id) if *id != 0 && self.device.is_none() => {
                self.device = Some(Device {
                    id: DeviceId::ChipId(*id),
                    record: index,
                });
            }
            _ => {}
        }
    }

    fn current_submit(&mut self, index: usize) -> &mut Submit {
        self.current.get_or_insert_with(|| Submit {
            first_record: index,
            ..Submit::default()
        })
    }

    /// Records the pending address as uncaptured if no contents followed it.
    fn settle_pending(&mut self) {
        if let Some((declared, _, false)) = self.pending.take() {
            if let Some(submit) = &mut self.current {
                submit.uncaptured.push(declared);
            }
        }
    }

    fn finish(mut self) -> (Option<Device>, Vec<Submit>) {
        self.settle_pending();
        self.submits.extend(self.current.take());
        (self.device, self.submits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::{Compression, Writer};

    fn read(write: impl FnOnce(&mut Writer<Vec<u8>>) -> Result<(), Error>) -> Trace {
        let mut writer = Writer::new(Vec::new(), Compression::None);
        write(&mut writer).unwrap();
        Trace::read(&writer.finish().unwrap()[..]).unwrap()
    }

    #[test]
    fn the_first_address_after_a_cmdstream_starts_the_next_submit() {
        let trace = read(|w| {
            w.cmd("first")?;
            w.buffer(0x1000, &[1; 8])?;
            w.cmdstream_addr(0x1000, 2)?;
            w.cmdstream_addr(0x1004, 1)?;
            w.cmd("second")?;
            w.buffer(0x2000, &[2; 8])?;
            w.cmdstream_addr(0x2000, 2)
        });
        let submits = trace.submits();
        assert_eq!(submits.len(), 2);
        assert_eq!(submits[0].first_record, 1);
        assert_eq!(submits[1].first_record, 6);
        let numbers: Vec<_> = trace
            .cmdstreams()
            .map(|(s, c)| (s, c.number, c.iova))
            .collect();
        assert_eq!(numbers, [(0, 0, 0x1000), (0, 1, 0x1004), (1, 2, 0x2000)]);
        // Each submit sees only its own buffers.
        let second = trace.memory(1).unwrap();
        assert_eq!(second.read_u32(0x2000).unwrap(), 0x0202_0202);
        assert!(second.read_u32(0x1000).is_err());
        assert!(trace.memory(2).is_none());
        // The second RD_CMD comes before the address that starts submit 1.
        let of: Vec<_> = (0..trace.records().len())
            .map(|i| trace.submit_of_record(i))
            .collect();
        assert_eq!(
            of,
            [
                None,
                Some(0),
                Some(0),
                Some(0),
                Some(0),
                Some(0),
                Some(1),
                Some(1),
                Some(1)
            ]
        );
    }

    #[test]
    fn declared_but_not_dumped_ranges_explain_lookups() {
        let trace = read(|w| {
            w.write_section(&Section::GpuAddr(crate::Address::new(0x8000, 64)))?;
            w.buffer(0x1000, &[0; 4])?;
            w.cmdstream_addr(0x8000, 4)
        });
        let submit = &trace.submits()[0];
        assert_eq!(submit.buffers.len(), 1);
        assert_eq!(
            submit.uncaptured,
            [Uncaptured {
                iova: 0x8000,
                size: 64,
                offset: 0
            }]
        );
        let err = trace.memory(0).unwrap().dwords(0x8000, 4).unwrap_err();
        assert!(err
            .to_string()
            .contains("the RD_GPUADDR at offset 0x0 declared 64 bytes at 0x8000"));
    }

    #[test]
    fn the_device_is_the_first_non_zero_id() {
        let trace = read(|w| {
            w.gpu_id(0)?;
            w.chip_id(0x0703_0001)?;
            w.gpu_id(630)
        });
        assert_eq!(
            trace.device(),
            Some(Device {
                id: DeviceId::ChipId(0x0703_0001),
                record: 1
            })
        );
        assert_eq!(
            DeviceId::ChipId(0x0703_0001).to_string(),
            "chip_id: 0x7030001"
        );
        assert_eq!(DeviceId::GpuId(630).to_string(), "gpu_id: 630");
        assert_eq!(read(|w| w.gpu_id(0)).device(), None);
    }

    #[test]
    fn contents_re_dumped_in_a_submit_take_over() {
        let trace = read(|w| {
            w.buffer(0x1000, &[1; 16])?;
            w.buffer(0x1000, &[2; 4])?;
            w.cmdstream_addr(0x1000, 1)
        });
        assert_eq!(trace.submits()[0].buffers.len(), 2);
        let memory = trace.memory(0).unwrap();
        assert_eq!(memory.read_u64(0x1000).unwrap(), 0x0101_0101_0202_0202);
    }
}
