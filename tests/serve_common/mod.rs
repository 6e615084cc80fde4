//! The real `eqmap serve`, started on an ephemeral loopback port for a test, and a plain
//! HTTP/1.1 client over a TCP socket to talk to it (so that any bytes at all can be sent).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A running server; killed when dropped.
pub struct Server {
    child: Option<Child>,
    /// Where it listens.
    pub addr: SocketAddr,
    /// What it wrote on standard error, line by line, as it goes.
    pub stderr: mpsc::Receiver<String>,
    /// The lines it wrote before the one that says where it listens.
    pub before: Vec<String>,
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The head, lower-cased names: `name: value` lines.
    pub head: String,
    /// The body.
    pub body: String,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<String> {
        let prefix = format!("{}:", name.to_ascii_lowercase());
        self.head
            .lines()
            .find(|line| line.to_ascii_lowercase().starts_with(&prefix))
            .map(|line| line[prefix.len()..].trim().to_string())
    }
}

impl Server {
    /// `eqmap serve --port 0` with `extra` arguments, once it says where it listens.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_eqmap"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("eqmap serve starts");
        let stderr = child.stderr.take().expect("stderr piped");
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut before = Vec::new();
        let addr = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = receiver.recv_timeout(left).expect("eqmap serve says where it listens");
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let addr = rest.split('/').next().expect("an address");
                break addr.parse().expect("a socket address");
            }
            before.push(line);
        };
        Server { child: Some(child), addr, stderr: receiver, before }
    }

    /// A request with `body` to `path`, as JSON.
    pub fn post(&self, path: &str, body: &str) -> Reply {
        post_at(self.addr, path, body)
    }

    /// A request built from its parts (Host and Content-Length added).
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        let mut bytes = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", self.addr);
        for (name, value) in headers {
            bytes.push_str(&format!("{name}: {value}\r\n"));
        }
        bytes.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let mut bytes = bytes.into_bytes();
        bytes.extend_from_slice(body);
        self.raw(&bytes)
    }

    /// Sends `bytes` as they are and reads the answer until the server closes.
    pub fn raw(&self, bytes: &[u8]) -> Reply {
        raw_at(self.addr, bytes)
    }

    /// A connection to the server.
    pub fn connect(&self) -> TcpStream {
        connect_to(self.addr)
    }

    /// Ctrl-C: SIGINT, then its exit status (within `wait`).
    pub fn interrupt(mut self, wait: Duration) -> Option<ExitStatus> {
        let mut child = self.child.take()?;
        let _ = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        None
    }

    /// The lines written on standard error so far.
    pub fn stderr_lines(&self) -> Vec<String> {
        self.stderr.try_iter().collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A JSON request with `body` to `path` of the server at `addr`.
pub fn post_at(addr: SocketAddr, path: &str, body: &str) -> Reply {
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    raw_at(addr, &[head.as_bytes(), body.as_bytes()].concat())
}

/// Sends `bytes` to `addr` as they are and reads the answer until the server closes.
pub fn raw_at(addr: SocketAddr, bytes: &[u8]) -> Reply {
    let mut stream = connect_to(addr);
    stream.write_all(bytes).expect("request written");
    read_reply(&mut stream)
}

/// A connection to `addr`.
pub fn connect_to(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout set");
    stream
}

/// Reads one answer from `stream` until it closes: status, head and body.
pub fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    Reply { status, head: head.to_string(), body: body.to_string() }
}

/// What the CLI prints for `args` on standard output.
pub fn cli(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_eqmap")).args(args).output().expect("eqmap runs");
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The attention line of the seeds.
pub const ATTENTION: &str = r"\mathrm{softmax}(QK^\top/\sqrt{d_k})V";
