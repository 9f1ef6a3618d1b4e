//! Splitting an IB into PM4 packets.
//!
//! a5xx and later command streams hold two packet types (`adreno_pm4.xml`,
//! parity rules in [`parsnip_registers::pm4`]): type 4 writes consecutive
//! registers, type 7 runs an opcode with a payload. The walker checks each
//! header's type and parity bits and that its payload fits in what is left
//! of the IB; a dword that is not a header is reported and skipped up to the
//! next dword that is one (as freedreno's decoder resynchronises), a packet
//! that runs past the end of the IB ends the walk.

use std::fmt;

use parsnip_registers::pm4::{HeaderError, Pm4Header};

/// One packet of an IB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet<'a> {
    /// Dword index of the header in the IB.
    pub index: usize,
    pub header: Pm4Header,
    /// The header and its payload.
    pub dwords: &'a [u32],
}

impl<'a> Packet<'a> {
    /// The dwords after the header.
    pub fn payload(&self) -> &'a [u32] {
        &self.dwords[1..]
    }
}

/// What is wrong at a place in an IB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkError {
    /// The dword at `index` is not a valid packet header; the walk goes on
    /// `skipped` dwords later, at the next valid header (or ends).
    BadHeader {
        index: usize,
        error: HeaderError,
        skipped: usize,
    },
    /// The packet at `index` counts `payload` dwords after its header, but
    /// only `available` are left in the IB; the walk ends.
    PastEnd {
        index: usize,
        header: Pm4Header,
        payload: u32,
        available: usize,
    },
}

impl WalkError {
    /// Dword index in the IB where the problem is.
    pub fn index(&self) -> usize {
        match *self {
            WalkError::BadHeader { index, .. } | WalkError::PastEnd { index, .. } => index,
        }
    }
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkError::BadHeader { error, skipped, .. } => {
                write!(f, "bad packet header {error}; skipped {skipped} dwords")
            }
            WalkError::PastEnd {
                header,
                payload,
                available,
                ..
            } => write!(
                f,
                "packet {:08x} counts {payload} payload dwords but only {available} are left in the IB",
                header.encode()
            ),
        }
    }
}

/// Iterates over the packets of an IB's dwords.
#[derive(Clone, Debug)]
pub struct PacketWalker<'a> {
    dwords: &'a [u32],
    next: usize,
}

impl<'a> PacketWalker<'a> {
    pub fn new(dwords: &'a [u32]) -> Self {
        Self { dwords, next: 0 }
    }

    /// Whether the packet that starts at `index` is a whole, valid packet.
    fn fits(&self, index: usize) -> bool {
        Pm4Header::parse(self.dwords[index])
            .is_ok_and(|h| (h.payload_dwords() as usize) < self.dwords.len() - index)
    }
}

impl<'a> Iterator for PacketWalker<'a> {
    type Item = Result<Packet<'a>, WalkError>;

    fn next(&mut self) -> Option<Self::Item> {
        let index = self.next;
        let header = *self.dwords.get(index)?;
        match Pm4Header::parse(header) {
            Ok(header) => {
                let payload = header.payload_dwords();
                let available = self.dwords.len() - index - 1;
                if payload as usize > available {
                    self.next = self.dwords.len();
                    return Some(Err(WalkError::PastEnd {
                        index,
                        header,
                        payload,
                        available,
                    }));
                }
                let end = index + 1 + payload as usize;
                self.next = end;
                Some(Ok(Packet {
                    index,
                    header,
                    dwords: &self.dwords[index..end],
                }))
            }
            Err(error) => {
                let resume = (index + 1..self.dwords.len())
                    .find(|&i| self.fits(i))
                    .unwrap_or(self.dwords.len());
                self.next = resume;
                Some(Err(WalkError::BadHeader {
                    index,
                    error,
                    skipped: resume - index,
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::pm4::{pkt4, pkt7};

    #[test]
    fn walks_type4_and_type7_packets() {
        // The first packets of fd-clouds.log's cmdstream[0].
        let ib = [0x70460001, 0x00000031, 0x40bb0801, 0x000fffff, 0x70268000];
        let packets: Vec<_> = PacketWalker::new(&ib).map(Result::unwrap).collect();
        assert_eq!(packets.len(), 3);
        assert_eq!(
            packets[0].header,
            Pm4Header::Type7 {
                opcode: 0x46,
                count: 1
            }
        );
        assert_eq!(packets[0].payload(), &[0x31]);
        assert_eq!(
            packets[1].header,
            Pm4Header::Type4 {
                offset: 0xbb08,
                count: 1
            }
        );
        assert_eq!((packets[2].index, packets[2].dwords.len()), (4, 1));
    }

    #[test]
    fn a_packet_past_the_end_ends_the_walk() {
        let ib = [pkt7(0x26, 0), pkt4(0x8800, 3), 1, 2];
        let items: Vec<_> = PacketWalker::new(&ib).collect();
        assert_eq!(items.len(), 2);
        assert_eq!(
            items[1],
            Err(WalkError::PastEnd {
                index: 1,
                header: Pm4Header::Type4 {
                    offset: 0x8800,
                    count: 3
                },
                payload: 3,
                available: 2
            })
        );
        assert_eq!(
            items[1].unwrap_err().to_string(),
            "packet 48880083 counts 3 payload dwords but only 2 are left in the IB"
        );
    }

    #[test]
    fn a_bad_header_is_skipped_up_to_the_next_valid_packet() {
        // 0x70460000 has a wrong count parity bit; 0xdeadbeef is no header.
        let ib = [0xdead_beef, 0x7046_0000, pkt7(0x26, 0), 0];
        let items: Vec<_> = PacketWalker::new(&ib).collect();
        assert!(matches!(
            items[0],
            Err(WalkError::BadHeader {
                index: 0,
                skipped: 2,
                ..
            })
        ));
        assert_eq!(items[1].unwrap().index, 2);
        // The trailing zero is not a header either, and nothing follows it.
        assert!(matches!(
            items[2],
            Err(WalkError::BadHeader {
                index: 3,
                skipped: 1,
                ..
            })
        ));
        assert_eq!(items.len(), 3);
    }
}
