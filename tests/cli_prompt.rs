//! The prompt (`eqmap` with no command on a terminal), driven over a pseudo-terminal made by
//! util-linux `script`: what is written to `script`'s standard input reaches the prompt as
//! keys, as a terminal sends them. Skipped where `script` is missing.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A prompt running on a pseudo-terminal, its output gathered as it comes.
struct Prompt {
    child: Child,
    input: Option<ChildStdin>,
    output: Arc<Mutex<Vec<u8>>>,
}

impl Prompt {
    /// Starts `eqmap --lang en` on a pseudo-terminal and waits for its prompt; `None` where
    /// `script` cannot run.
    fn start() -> Option<Prompt> {
        let binary = assert_cmd::cargo::cargo_bin("eqmap");
        let command = format!("{} --lang en", binary.display());
        let mut child = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .env("NO_COLOR", "1")
            .env("HOME", std::env::temp_dir())
            .env_remove("EQMAP_LANG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let mut stdout = child.stdout.take()?;
        let output = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend_from_slice(chunk.get(..n).unwrap_or(&[]));
            }
        });
        let input = child.stdin.take();
        let mut prompt = Prompt { child, input, output };
        if !prompt.wait_for("eqmap> ", 1) {
            let _ = prompt.child.kill();
            return None;
        }
        Some(prompt)
    }

    fn shown(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }

    /// Waits (up to a minute) until `text` has been shown `times` times.
    fn wait_for(&self, text: &str, times: usize) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            if self.shown().matches(text).count() >= times {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Sends `keys` in one write, as a terminal sends a paste without bracketed paste.
    fn send(&mut self, keys: &str) {
        if let Some(input) = self.input.as_mut() {
            input.write_all(keys.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            input.flush().unwrap_or_else(|e| panic!("{e}"));
        }
    }

    /// Sends `keys` one at a time, as someone types them.
    fn type_keys(&mut self, keys: &str) {
        for key in keys.chars() {
            self.send(&key.to_string());
            std::thread::sleep(Duration::from_millis(80));
        }
    }

    /// Sends `line`, then Enter as a key of its own: the line runs.
    fn enter(&mut self, line: &str) {
        self.send(line);
        std::thread::sleep(Duration::from_millis(150));
        self.send("\r");
    }

    /// Ends the input (the terminal's end of file) and waits for the prompt to leave; all it
    /// showed.
    fn finish(mut self) -> String {
        drop(self.input.take());
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return self.shown();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("the prompt did not leave at the end of its input: {}", self.shown());
    }
}

#[test]
fn a_paste_of_several_lines_without_bracketed_paste_is_one_input() {
    let Some(mut prompt) = Prompt::start() else { return };
    // Two lines arriving together, line breaks as Enter keys: one formula, held until Enter.
    prompt.send("x + y\rz^2\r");
    std::thread::sleep(Duration::from_millis(500));
    let held = prompt.shown();
    assert!(!held.contains("Reading"), "nothing runs before Enter: {held}");
    prompt.send("\r");
    assert!(prompt.wait_for("Reading", 1), "{}", prompt.shown());
    // A line typed key by key runs on its Enter.
    prompt.type_keys("a+b\r");
    assert!(prompt.wait_for("Reading", 2), "a typed line runs on its Enter: {}", prompt.shown());
    let shown = prompt.finish();
    let readings: Vec<&str> = shown.lines().filter(|l| l.contains("Reading:")).collect();
    assert_eq!(readings.len(), 2, "{shown}");
    let pasted = readings.first().copied().unwrap_or_default();
    assert!(pasted.contains("x plus") && pasted.contains("z squared"), "both lines in one reading: {pasted}");
    assert!(readings.get(1).is_some_and(|r| r.contains("a plus b")), "{readings:?}");
}

#[test]
fn grad_differentiates_through_the_definitions_and_values_of_the_session() {
    let Some(mut prompt) = Prompt::start() else { return };
    let lines = [
        ":let x=[1,2,3]",
        r":eval \mu = \frac{1}{3}\sum_{i=1}^{3} x_i",
        // d(μ²)/dx = 2μ/3 = 4/3 each: μ is differentiated through, not taken as a constant.
        r":grad \mu^2 --wrt x",
        r":grad x --wrt x --cotangent ones",
        r":grad \mu^2",
        r":grad x --wrt x",
        ":help",
        ":ko",
        ":help",
    ];
    for (shown, line) in lines.iter().enumerate() {
        // Each line once the prompt is back, so no key arrives before it reads them.
        prompt.enter(line);
        assert!(prompt.wait_for("eqmap> ", shown + 2), "{line}: {}", prompt.shown());
    }
    let shown = prompt.finish();
    let after = |text: &str, n: usize| {
        shown.split(text).nth(n).unwrap_or_default().lines().nth(1).unwrap_or_default().to_string()
    };
    assert!(after("∂L/∂x [3]", 1).split_whitespace().eq(["1.333333"; 3]), "{shown}");
    assert!(after("∂L/∂x [3]", 2).split_whitespace().eq(["1"; 3]), "the sum of x's entries: {shown}");
    assert!(
        shown.contains(":grad FORMULA --wrt NAME [--cotangent ones|JSON]"),
        "no --wrt: the usage: {shown}"
    );
    assert!(shown.contains("not a number: give --cotangent"), "a vector value without a cotangent: {shown}");
    assert!(shown.contains(":grad FORMULA --wrt NAME…   its gradient"), "{shown}");
    assert!(shown.contains(":grad 수식 --wrt 이름…   이름에 대한 기울기"), "{shown}");
}
