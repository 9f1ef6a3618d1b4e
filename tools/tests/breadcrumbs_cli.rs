//! parsnip-breadcrumbs as a developer runs it: it listens where it is
//! told, prints each submit's progress from the driver's datagrams (the
//! wire format in parsnip-driver's `breadcrumbs::wire`), names the command
//! that was running when the device was lost, and at a break point lets
//! the GPU go when a line arrives on its standard input.

use std::io::{BufRead, BufReader, Write};
use std::net::UdpSocket;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn the_receiver_prints_progress_releases_a_break_and_names_the_lost_command() {
    // A port the system just gave out and took back: free a moment later.
    let address = UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_parsnip-breadcrumbs"))
        .arg(&address)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let expect = |want: &str| {
        let got = lines.recv_timeout(WAIT).expect("a line from the receiver");
        assert_eq!(got, want);
    };
    expect(&format!("parsnip-breadcrumbs: listening on {address}"));

    let driver = UdpSocket::bind("127.0.0.1:0").unwrap();
    driver.set_read_timeout(Some(WAIT)).unwrap();
    let send = |text: &str| {
        driver.send_to(text.as_bytes(), &address).unwrap();
    };
    send(
        "submit 1 3\n\
         command 1 5 1 vkCmdFillBuffer\n\
         command 1 6 2 vkCmdPipelineBarrier\n\
         command 1 7 3 vkCmdDispatch\n",
    );
    expect("submit 1: 3 breadcrumbs");
    send("crumb 1 5\n");
    expect("submit 1: done command 1 (vkCmdFillBuffer, breadcrumb 5)");

    // The GPU waits at breadcrumb 6, before the dispatch; a line on the
    // receiver's input answers "release" to the sender.
    send("break 1 6 1\n");
    expect(
        "submit 1: stopped at breadcrumb 6 (passage 1), before command 3 \
         (vkCmdDispatch, breadcrumb 7)",
    );
    expect("press Enter to release the GPU");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    let mut answer = [0u8; 64];
    let (n, _) = driver.recv_from(&mut answer).expect("the release");
    assert_eq!(&answer[..n], b"release");

    // The dispatch hangs: the device is lost after breadcrumb 6.
    send("lost 1 6\n");
    expect("submit 1: device lost; it was running command 3 (vkCmdDispatch, breadcrumb 7)");

    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn bad_arguments_exit_with_status_2() {
    for args in [
        &[][..],
        &["127.0.0.1:1", "extra"][..],
        &["not-an-address"][..],
    ] {
        let run = Command::new(env!("CARGO_BIN_EXE_parsnip-breadcrumbs"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&run.stderr).contains("parsnip-breadcrumbs"),
            "{args:?}"
        );
    }
}
