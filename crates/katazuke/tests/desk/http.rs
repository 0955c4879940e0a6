//! A desk process and a small HTTP/1.1 client for it: one connection per
//! request, as a browser's fetch may be, over real loopback sockets.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use super::common::KATAZUKE;

/// A running `katazuke desk`, stopped when dropped.
pub struct Desk {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// The token it printed, when bound off loopback.
    pub token: Option<String>,
}

/// A status and a body.
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("JSON: {}", self.body))
    }
}

impl Desk {
    /// `katazuke desk --port 0 ARGS`, once it has said where it listens.
    pub fn start(args: &[&str]) -> Desk {
        let mut child = Command::new(KATAZUKE)
            .arg("desk")
            .args(["--port", "0"])
            .args(args)
            .current_dir(env!("CARGO_TARGET_TMPDIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the desk starts");
        let mut lines = BufReader::new(child.stdout.take().expect("its output"));
        let (mut address, mut token) = (None, None);
        loop {
            let mut line = String::new();
            if lines.read_line(&mut line).expect("a line") == 0 {
                panic!("the desk ended before it said where it listens");
            }
            if let Some(url) = line.trim().strip_prefix("desk: http://") {
                address = url.split('/').next().map(str::to_string);
            }
            if let Some(rest) = line.trim().strip_prefix("token: ") {
                token = rest.split_whitespace().next().map(str::to_string);
            }
            if line.starts_with("record: ") {
                break;
            }
        }
        Desk {
            child,
            address: address.expect("an address"),
            token,
        }
    }

    pub fn get(&self, path: &str) -> Reply {
        send(&self.address, "GET", path, "", "application/json", None)
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.post_with(path, body, None)
    }

    pub fn post_with(&self, path: &str, body: &Value, token: Option<&str>) -> Reply {
        send(
            &self.address,
            "POST",
            path,
            &body.to_string(),
            "application/json",
            token,
        )
    }

    pub fn post_raw(&self, path: &str, body: &str, content_type: &str) -> Reply {
        send(&self.address, "POST", path, body, content_type, None)
    }

    /// Kills the desk as a power cut would: SIGKILL, no chance to tidy.
    pub fn kill_hard(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Desk {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request on a connection of its own, read to the end.
pub fn send(
    address: &str,
    method: &str,
    path: &str,
    body: &str,
    content_type: &str,
    token: Option<&str>,
) -> Reply {
    let mut stream = TcpStream::connect(address).expect("a connection");
    let token = token.map_or(String::new(), |token| format!("X-Desk-Token: {token}\r\n"));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{token}Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("sent");
    // A reply is read by its length: some servers (chromedriver) keep the
    // connection open after saying they close it.
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .expect("a timeout");
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        // The server may close before reading a body it refuses.
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {head:?}"));
    let lower = head.to_ascii_lowercase();
    let length = lower
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|length| length.trim().parse::<usize>().ok());
    let mut body = Vec::new();
    match length {
        Some(length) => {
            body.resize(length, 0);
            reader.read_exact(&mut body).expect("the body");
        }
        None => {
            let _ = reader.read_to_end(&mut body);
        }
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    let body = if lower.contains("transfer-encoding: chunked") {
        unchunk(&body)
    } else {
        body
    };
    Reply { status, body }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}
