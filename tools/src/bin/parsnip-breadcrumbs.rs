//! parsnip-breadcrumbs HOST:PORT
//!
//! Receives the breadcrumbs a driver run with
//! `PARSNIP_BREADCRUMBS=HOST:PORT[,break=N:HITS]` streams, and prints how
//! far each submit got: each command as its work finishes, and on a lost
//! device the command that was running. When the GPU stops at the break
//! point it says before which command, and a line on standard input (or
//! its end) releases the GPU. Bad arguments exit with status 2.

use std::io::BufRead;
use std::net::UdpSocket;
use std::process::ExitCode;

use parsnip_driver::breadcrumbs::wire::{Message, Progress, RELEASE};

const USAGE: &str = "usage: parsnip-breadcrumbs HOST:PORT";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if parsnip_tools::cli_help::asks_for_help(&args) {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let [address] = args.as_slice() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let socket = match UdpSocket::bind(address) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("parsnip-breadcrumbs: cannot listen on {address}: {e}");
            return ExitCode::from(2);
        }
    };
    println!("parsnip-breadcrumbs: listening on {address}");
    let mut progress = Progress::default();
    let mut buf = vec![0u8; 65536];
    let stdin = std::io::stdin();
    loop {
        let (n, from) = match socket.recv_from(&mut buf) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("parsnip-breadcrumbs: {e}");
                return ExitCode::FAILURE;
            }
        };
        let text = String::from_utf8_lossy(&buf[..n]).into_owned();
        for message in text.lines().filter_map(Message::parse) {
            if let Some(line) = progress.apply(&message) {
                println!("{line}");
            }
            if matches!(message, Message::Break { .. }) {
                println!("press Enter to release the GPU");
                let _ = stdin.lock().read_line(&mut String::new());
                if let Err(e) = socket.send_to(RELEASE.as_bytes(), from) {
                    eprintln!("parsnip-breadcrumbs: cannot release the GPU: {e}");
                }
            }
        }
    }
}
