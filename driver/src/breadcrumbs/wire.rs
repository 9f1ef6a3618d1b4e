//! What the driver's breadcrumb thread sends its receiver, and what the
//! receiver keeps of it.
//!
//! UDP datagrams of text lines, one message a line, so a person can read
//! them with `nc -ul`:
//!
//! - `submit S N`: kernel submit `S` (from 1, in queue order) runs `N`
//!   breadcrumbs, described by the `command` lines that follow;
//! - `command S SERIAL ORDINAL NAME`: breadcrumb `SERIAL` (unique in the
//!   device) follows the `ORDINAL`-th command of its command buffer, `NAME`
//!   (the Vulkan command);
//! - `crumb S SERIAL`: the GPU finished the command before breadcrumb
//!   `SERIAL` of submit `S`;
//! - `break S SERIAL HIT`: the GPU waits at breadcrumb `SERIAL`, the
//!   `HIT`-th passage of the break point, until the receiver answers
//!   `release` to the datagram's sender;
//! - `lost S SERIAL`: the device was lost while submit `S` ran, after
//!   breadcrumb `SERIAL` (0: before its first).

use std::collections::BTreeMap;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Submit { submit: u32, crumbs: u32 },
    Command(Command),
    Crumb { submit: u32, serial: u32 },
    Break { submit: u32, serial: u32, hit: u32 },
    Lost { submit: u32, serial: u32 },
}

/// One breadcrumb of a submit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub submit: u32,
    pub serial: u32,
    pub ordinal: u32,
    pub name: String,
}

/// The receiver's answer that lets a stopped GPU go on.
pub const RELEASE: &str = "release";

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Submit { submit, crumbs } => write!(f, "submit {submit} {crumbs}"),
            Message::Command(c) => {
                write!(
                    f,
                    "command {} {} {} {}",
                    c.submit, c.serial, c.ordinal, c.name
                )
            }
            Message::Crumb { submit, serial } => write!(f, "crumb {submit} {serial}"),
            Message::Break {
                submit,
                serial,
                hit,
            } => write!(f, "break {submit} {serial} {hit}"),
            Message::Lost { submit, serial } => write!(f, "lost {submit} {serial}"),
        }
    }
}

impl Message {
    /// Parses one line; `None` if it is not a message.
    pub fn parse(line: &str) -> Option<Message> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let n = |i: usize| words.get(i)?.parse::<u32>().ok();
        Some(match (*words.first()?, words.len()) {
            ("submit", 3) => Message::Submit {
                submit: n(1)?,
                crumbs: n(2)?,
            },
            ("command", 5) => Message::Command(Command {
                submit: n(1)?,
                serial: n(2)?,
                ordinal: n(3)?,
                name: words[4].to_string(),
            }),
            ("crumb", 3) => Message::Crumb {
                submit: n(1)?,
                serial: n(2)?,
            },
            ("break", 4) => Message::Break {
                submit: n(1)?,
                serial: n(2)?,
                hit: n(3)?,
            },
            ("lost", 3) => Message::Lost {
                submit: n(1)?,
                serial: n(2)?,
            },
            _ => return None,
        })
    }
}

/// Splits messages into datagrams of whole lines of at most `limit` bytes.
pub fn datagrams(messages: &[Message], limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for m in messages {
        let line = format!("{m}\n");
        if !current.is_empty() && current.len() + line.len() > limit {
            out.push(std::mem::take(&mut current));
        }
        current.push_str(&line);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// How far one submit got.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubmitProgress {
    /// Its breadcrumbs, in order.
    pub commands: Vec<Command>,
    /// The last breadcrumb reached, by serial.
    pub last: Option<u32>,
    pub lost: bool,
}

impl SubmitProgress {
    fn position(&self, serial: u32) -> Option<usize> {
        self.commands.iter().position(|c| c.serial == serial)
    }

    /// The command that was running when progress stopped: the one after
    /// the last breadcrumb reached (the first if none was).
    pub fn running(&self) -> Option<&Command> {
        match self.last {
            None => self.commands.first(),
            Some(serial) => self.commands.get(self.position(serial)? + 1),
        }
    }
}

/// What the receiver knows: every submit's breadcrumbs and progress.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub submits: BTreeMap<u32, SubmitProgress>,
}

impl Progress {
    fn describe(c: &Command) -> String {
        format!(
            "command {} ({}, breadcrumb {})",
            c.ordinal, c.name, c.serial
        )
    }

    /// Takes in one message; returns the line to print, if any.
    pub fn apply(&mut self, message: &Message) -> Option<String> {
        match message {
            Message::Submit { submit, crumbs } => {
                self.submits.insert(*submit, SubmitProgress::default());
                Some(format!("submit {submit}: {crumbs} breadcrumbs"))
            }
            Message::Command(c) => {
                self.submits
                    .entry(c.submit)
                    .or_default()
                    .commands
                    .push(c.clone());
                None
            }
            Message::Crumb { submit, serial } => {
                let s = self.submits.entry(*submit).or_default();
                s.last = Some(*serial);
                let done = s.position(*serial).map(|i| &s.commands[i]);
                Some(match done {
                    Some(c) => format!("submit {submit}: done {}", Self::describe(c)),
                    None => format!("submit {submit}: breadcrumb {serial}"),
                })
            }
            Message::Break {
                submit,
                serial,
                hit,
            } => {
                let s = self.submits.entry(*submit).or_default();
                s.last = Some(*serial);
                let next = s
                    .running()
                    .map_or("the end of the submit".into(), Self::describe);
                Some(format!(
                    "submit {submit}: stopped at breadcrumb {serial} (passage {hit}), before {next}"
                ))
            }
            Message::Lost { submit, serial } => {
                let s = self.submits.entry(*submit).or_default();
                s.last = (*serial != 0).then_some(*serial);
                s.lost = true;
                let running = s
                    .running()
                    .map_or("after its last command".into(), Self::describe);
                Some(format!(
                    "submit {submit}: device lost; it was running {running}"
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(submit: u32, serial: u32, ordinal: u32, name: &str) -> Message {
        Message::Command(Command {
            submit,
            serial,
            ordinal,
            name: name.into(),
        })
    }

    #[test]
    fn messages_read_back_as_written() {
        let all = [
            Message::Submit {
                submit: 3,
                crumbs: 2,
            },
            command(3, 17, 1, "vkCmdDispatch"),
            Message::Crumb {
                submit: 3,
                serial: 17,
            },
            Message::Break {
                submit: 3,
                serial: 18,
                hit: 2,
            },
            Message::Lost {
                submit: 3,
                serial: 0,
            },
        ];
        let text = datagrams(&all, 40).concat();
        let back: Vec<Message> = text.lines().filter_map(Message::parse).collect();
        assert_eq!(back, all);
        assert!(datagrams(&all, 40).iter().all(|d| d.len() <= 40));
        assert_eq!(Message::parse("crumb 1"), None);
    }

    #[test]
    fn a_lost_submit_names_the_command_after_its_last_breadcrumb() {
        let mut p = Progress::default();
        for m in [
            Message::Submit {
                submit: 1,
                crumbs: 3,
            },
            command(1, 5, 1, "vkCmdFillBuffer"),
            command(1, 6, 2, "vkCmdPipelineBarrier"),
            command(1, 7, 3, "vkCmdDispatch"),
            Message::Crumb {
                submit: 1,
                serial: 6,
            },
        ] {
            p.apply(&m);
        }
        let line = p.apply(&Message::Lost {
            submit: 1,
            serial: 6,
        });
        assert_eq!(
            line.as_deref(),
            Some("submit 1: device lost; it was running command 3 (vkCmdDispatch, breadcrumb 7)")
        );
        assert_eq!(p.submits[&1].running().unwrap().serial, 7);
    }
}
