//! The desk in a real browser: headless Chromium driven over WebDriver
//! (Debian's `chromium` and `chromium-driver`, which `.ci/run` installs).
//! The WebDriver protocol is JSON over HTTP, spoken here with the same
//! small client as the API tests.
//!
//! Without Chromium on the machine the test says so and passes, so that
//! `cargo test` works on a fresh machine; CI sets
//! `KATAZUKE_BROWSER_TESTS=required`, where a missing browser fails it.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::http::{send, Desk};
use super::PRACTICE_KTZ_PATH;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver process, stopped when dropped.
struct Driver {
    child: Child,
    address: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser, driven.
struct Browser<'d> {
    driver: &'d Driver,
    session: String,
}

impl Driver {
    fn start() -> Option<Driver> {
        if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
            let required = std::env::var("KATAZUKE_BROWSER_TESTS").is_ok_and(|v| v == "required");
            assert!(!required, "{CHROMIUM} and {CHROMEDRIVER} are needed (apt-get install chromium chromium-driver)");
            eprintln!("browser test skipped: no {CHROMIUM} or {CHROMEDRIVER} on this machine");
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver {
            child,
            address: format!("127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if std::net::TcpStream::connect(&driver.address).is_ok()
                && send(
                    &driver.address,
                    "GET",
                    "/status",
                    "",
                    "application/json",
                    None,
                )
                .json()["value"]["ready"]
                    == true
            {
                return Some(driver);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("chromedriver did not become ready");
    }

    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        let reply = send(
            &self.address,
            method,
            path,
            &body.to_string(),
            "application/json",
            None,
        );
        assert_eq!(reply.status, 200, "{method} {path}: {}", reply.body);
        reply.json()["value"].clone()
    }

    fn browser(&self, profile: &Path) -> Browser<'_> {
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,900",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args }
        }}});
        let session = self.call("POST", "/session", &capabilities)["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        Browser {
            driver: self,
            session,
        }
    }
}

impl Browser<'_> {
    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        self.driver
            .call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", &json!({ "url": url }));
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            &json!({ "script": script, "args": [] }),
        )
    }

    fn text(&self, selector: &str) -> String {
        let script = format!(
            "const e = document.querySelector({selector:?}); return e ? (e.value ?? e.textContent) : null;"
        );
        self.script(&script)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn click(&self, selector: &str) {
        let found = self.call(
            "POST",
            "/element",
            &json!({ "using": "css selector", "value": selector }),
        );
        let id = found
            .as_object()
            .and_then(|object| object.values().next())
            .and_then(Value::as_str)
            .expect("the element")
            .to_string();
        self.call("POST", &format!("/element/{id}/click"), &json!({}));
    }

    /// Waits until `selector`'s text contains `wanted`.
    fn wait_for(&self, selector: &str, wanted: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let text = self.text(selector);
            if text.contains(wanted) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{selector}: {text:?}, waiting for {wanted:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self, path: &Path) -> tiny_skia::Pixmap {
        let encoded = self.call("GET", "/screenshot", &json!({}));
        let png = base64(encoded.as_str().expect("base64"));
        std::fs::write(path, &png).expect("saved");
        tiny_skia::Pixmap::decode_png(&png).expect("a PNG")
    }
}

impl Drop for Browser<'_> {
    fn drop(&mut self) {
        let _ = send(
            &self.driver.address,
            "DELETE",
            &format!("/session/{}", self.session),
            "",
            "application/json",
            None,
        );
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let sextets: Vec<u8> = text.bytes().filter_map(value).collect();
    sextets
        .chunks(4)
        .flat_map(|chunk| {
            let bits = chunk
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, &s)| acc | u32::from(s) << (18 - 6 * i));
            let bytes = bits.to_be_bytes();
            bytes[1..chunk.len()].to_vec()
        })
        .collect()
}

/// Pixels of team A's territory ink (the replay's deep orange, `draw/inks.rs`).
fn a_territory_pixels(pixmap: &tiny_skia::Pixmap) -> usize {
    pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == (190, 100, 0))
        .count()
}

/// Where the screenshots are kept for people to look at.
fn shots() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("desk-screenshots");
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

#[test]
fn a_turn_clicked_on_the_desk_shows_on_the_audience_screen_and_the_clocks_run() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("m.ktz");
    let desk = Desk::start(&[
        "--params",
        PRACTICE_KTZ_PATH,
        "--record",
        &record.to_string_lossy(),
    ]);
    let base = format!("http://{}", desk.address);
    let operator = driver.browser(&dir.path().join("desk-profile"));
    let audience = driver.browser(&dir.path().join("screen-profile"));
    operator.open(&format!("{base}/"));
    audience.open(&format!("{base}/screen"));
    operator.wait_for("#phase", "game 1 has not started");
    let before = audience.screenshot(&shots().join("screen-before.png"));
    operator.click("#start");
    operator.wait_for("#phase", "Game 1 · turn 1 · A to move");
    audience.wait_for("#phase", "Game 1 · turn 1 · A to move");
    // The clocks move, on both pages.
    let desk_clock = operator.text("#clocks .time.team-a");
    let screen_clock = audience.text("#clocks .time.team-a");
    std::thread::sleep(Duration::from_millis(1_500));
    assert_ne!(operator.text("#clocks .time.team-a"), desk_clock);
    assert_ne!(audience.text("#clocks .time.team-a"), screen_clock);
    assert!(operator.text("#clocks .time.team-a").starts_with("0:1"));
    // A clears b1 and a2, two objects each, by clicking the board.
    operator.wait_for("#board", "");
    operator.script("return document.querySelectorAll('.cell-hit').length");
    for cell in ["b1", "b1", "a2", "a2"] {
        operator.click(&format!(".cell-hit[data-cell=\"{cell}\"]"));
    }
    assert_eq!(operator.text("#steps"), "clear b1:2 a2:2");
    operator.click("#end-turn");
    operator.wait_for("#phase", "turn 2 · B to move");
    audience.wait_for("#caption", "clear b1:2 a2:2");
    let desk_shot = operator.screenshot(&shots().join("desk.png"));
    let after = audience.screenshot(&shots().join("screen.png"));
    assert_eq!(desk_shot.width(), 1400);
    assert!(desk_shot.height() > 600, "{}", desk_shot.height());
    // The desk's board shows them too, and the clock of B, to move, is
    // highlighted in the replay's pale yellow.
    assert!(a_territory_pixels(&desk_shot) > 2_000);
    let highlighted = desk_shot
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == (255, 243, 170))
        .count();
    assert!(highlighted > 1_000, "{highlighted}");
    // The screen's board now shows A's two new cells in A's ink.
    assert!(
        a_territory_pixels(&after) > a_territory_pixels(&before) + 1_000,
        "{} then {}",
        a_territory_pixels(&before),
        a_territory_pixels(&after)
    );
    // A rule broken is said on the desk, and nothing is applied.
    operator.script("document.getElementById('steps').value = 'clear e5'; return null;");
    operator.click("#end-turn");
    operator.wait_for("#error", "E-NOT-ADJACENT");
    let text = std::fs::read_to_string(&record).expect("the record");
    assert!(text.contains(" 1. A "), "{text}");
    assert!(!text.contains(" 2. B "), "{text}");
}
