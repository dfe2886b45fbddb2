//! Standard input and output framing (`Content-Length` headers), bounded: lsp-server's own
//! stdio transport stops reading at the first message that is not JSON and allocates
//! whatever length a header claims. Here a message that does not parse is dropped and the
//! next one read, a header line or body over its cap is skipped without being held, and
//! only the end of input (or a read error) stops the reader.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{Receiver, Sender};
use lsp_server::Message;

/// The largest message body read: a document at the server's keep limit, with room for
/// JSON escaping.
pub const MAX_MESSAGE: usize = 8 * crate::document::MAX_KEPT;

/// Header lines are short; a longer one is not a header.
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// The connection's threads; joined when the server stops.
pub struct Threads {
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Threads {
    pub fn join(self) -> io::Result<()> {
        // The reader may be blocked on input the client never sends; it ends with the
        // process.
        drop(self.reader);
        self.writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("writer thread panicked")))
    }
}

pub fn stdio() -> (Sender<Message>, Receiver<Message>, Threads) {
    let (to_server, from_client) = crossbeam_channel::bounded::<Message>(0);
    let (to_client, from_server) = crossbeam_channel::bounded::<Message>(0);
    let reader = thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        read_all(&mut input, &to_server);
    });
    let writer = thread::spawn(move || {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for m in from_server {
            m.write(&mut out)?;
            out.flush()?;
        }
        Ok(())
    });
    (to_client, from_client, Threads { reader, writer })
}

/// Reads messages until the end of `input`, sending each to `to`.
pub fn read_all(input: &mut impl BufRead, to: &Sender<Message>) {
    loop {
        match read_one(input) {
            Ok(Some(Some(m))) => {
                let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                if to.send(m).is_err() || exit {
                    return;
                }
            }
            // A message that is not one (bad JSON, over the cap): dropped.
            Ok(Some(None)) => {}
            Ok(None) | Err(_) => return,
        }
    }
}

/// One framed message: `None` at the end of input, `Some(None)` for a frame whose body is
/// not a message.
fn read_one(input: &mut impl BufRead) -> io::Result<Option<Option<Message>>> {
    let mut length: Option<usize> = None;
    let mut any = false;
    loop {
        let mut line = Vec::new();
        let n = input.take(MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(None);
        }
        if !line.ends_with(b"\n") {
            // Too long to be a header: skip to the end of this line and start again.
            skip_line(input)?;
            return Ok(Some(None));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if any {
                break;
            }
            continue;
        }
        any = true;
        if let Some((k, v)) = text.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().ok();
            }
        }
    }
    let Some(len) = length else {
        return Ok(Some(None));
    };
    if len > MAX_MESSAGE {
        io::copy(&mut input.take(len as u64), &mut io::sink())?;
        eprintln!(
            "cannctl server: a message of {len} bytes was over {MAX_MESSAGE} and was dropped"
        );
        return Ok(Some(None));
    }
    let mut body = vec![0; len];
    input.read_exact(&mut body)?;
    Ok(Some(serde_json::from_slice(&body).ok()))
}

fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|b| *b == b'\n') {
            input.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        input.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn bad_frames_are_dropped_and_reading_goes_on() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = format!(
            "{}{}Content-Length: 99999999999\r\n\r\n{}{}",
            frame("{not json"),
            frame("\u{1F600}"),
            "x".repeat(10),
            frame(good)
        );
        let (tx, rx) = crossbeam_channel::unbounded();
        read_all(&mut input.as_bytes(), &tx);
        drop(tx);
        let got: Vec<Message> = rx.iter().collect();
        assert_eq!(
            got.len(),
            0,
            "the huge frame swallowed what followed, as framed"
        );
        let input = format!("{}{}{}", frame("{not json"), frame("\"x\""), frame(good));
        let (tx, rx) = crossbeam_channel::unbounded();
        read_all(&mut input.as_bytes(), &tx);
        drop(tx);
        let got: Vec<Message> = rx.iter().collect();
        assert_eq!(got.len(), 1);
    }
}
