//! The page of `eqmap serve` in real headless Chromium (Debian's `chromium` and
//! `chromium-driver`, installed by `.ci/browser.sh`), driven through WebDriver: the attention
//! line's rows, hovering a row lights its part of the formula and the reverse, English
//! changes the questions, an unclosed `\frac{a}{` shows its caret, the numbers view shows the
//! softmax rows summing to 1. With `EQMAP_SCREENSHOT=docs/serve-attention.png` it saves the picture
//! the README shows.
//!
//! Without chromedriver it skips, unless `CI` or `EQMAP_REQUIRE_BROWSER` is set: then it fails.

mod serve_common;

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use serve_common::{Server, ATTENTION};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver, killed when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn find_program(names: &[&str]) -> Option<String> {
    names.iter().find(|path| std::path::Path::new(path).exists()).map(|p| p.to_string())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// Waits until `check` gives `Some`, or fails with `what`.
async fn until<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Evaluates `script` in the page and returns its value.
async fn js(client: &Client, script: &str) -> serde_json::Value {
    client.execute(script, vec![]).await.expect("script runs")
}

/// Moves the mouse to `x`, `y` from the centre of the element that `css` selects.
async fn hover(client: &Client, css: &str, x: f64, y: f64) {
    let element = client.find(Locator::Css(css)).await.expect("element to hover");
    let actions = MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
        element,
        duration: Some(Duration::from_millis(50)),
        x,
        y,
    });
    client.perform_actions(actions).await.expect("mouse moved");
}

/// Puts `formula` in the box and maps it.
async fn map(client: &Client, formula: &str) {
    let area = client.find(Locator::Id("formula")).await.expect("the box");
    area.clear().await.expect("cleared");
    area.send_keys(formula).await.expect("typed");
    client.find(Locator::Id("go")).await.expect("the button").click().await.expect("clicked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_maps_lights_translates_and_counts() {
    let required = std::env::var_os("CI").is_some() || std::env::var_os("EQMAP_REQUIRE_BROWSER").is_some();
    let driver = find_program(&["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]);
    let browser = find_program(&["/usr/bin/chromium", "/usr/lib/chromium/chromium"]);
    let (Some(driver), Some(browser)) = (driver, browser) else {
        assert!(
            !required,
            "chromium and chromedriver are missing: run .ci/browser.sh (the browser test may not skip in CI)"
        );
        eprintln!("skipped: no chromium/chromedriver (run .ci/browser.sh)");
        return;
    };
    let server = Server::start(&[]);
    let port = free_port();
    let _driver = Driver(
        Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let profile = std::env::temp_dir().join(format!("eqmap-chromium-{}", std::process::id()));
    let arguments = [
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--window-size=1200,1500".into(),
        "--lang=ko".into(),
        format!("--user-data-dir={}", profile.display()),
    ];
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), json!({ "binary": browser, "args": arguments }));
    let webdriver = format!("http://127.0.0.1:{port}");
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = until("chromedriver to accept a session", || {
        let capabilities = capabilities.clone();
        let connector = connector.clone();
        let webdriver = webdriver.clone();
        async move { ClientBuilder::new(connector).capabilities(capabilities).connect(&webdriver).await.ok() }
    })
    .await;
    // Run in a task, so that a failed check still closes the browser before it is reported.
    let page = format!("http://{}/", server.addr);
    let session = client.clone();
    let outcome = tokio::spawn(async move { exercise(&session, &page).await }).await;
    let _ = client.close().await;
    let _ = std::fs::remove_dir_all(&profile);
    if let Err(failure) = outcome {
        std::panic::resume_unwind(failure.into_panic());
    }
}

async fn exercise(client: &Client, url: &str) {
    client.goto(url).await.expect("the page opens");
    map(client, ATTENTION).await;
    let rows_text = until("the map's rows", || async {
        let text = js(client, "return [...document.querySelectorAll('#slots tbody tr')].map(r => r.cells[0].textContent + '|' + r.cells[1].textContent)").await;
        let rows: Vec<String> = serde_json::from_value(text).unwrap_or_default();
        (rows.len() >= 5 && rows.iter().any(|r| r.starts_with(r"\sqrt{d_k}|"))).then_some(rows)
    })
    .await;
    for slot in [r"\mathrm{softmax}|", r"QK^\top|", r"\sqrt{d_k}|", "V|"] {
        assert!(rows_text.iter().any(|r| r.starts_with(slot)), "no row {slot} in {rows_text:?}");
    }
    let hidden = js(client, "return document.querySelectorAll('#hidden li').length").await;
    assert!(hidden.as_u64().unwrap_or(0) >= 2, "hidden slots listed apart: {hidden}");
    let reading =
        js(client, "return document.querySelector('#typeset math').getAttribute('aria-label')").await;
    assert!(
        reading.as_str().is_some_and(|r| r.contains("제곱근")),
        "the formula's label is its reading: {reading}"
    );
    let path = js(client, "return document.querySelector('#path').textContent").await;
    assert!(path.as_str().is_some_and(|p| p.contains("40")), "{path}");
    assert!(client.current_url().await.expect("url").fragment().is_some_and(|f| f.contains("f=")));

    // The √d_k row lights the radical; the radical lights the row.
    let row = r"[...document.querySelectorAll('#slots tbody tr')].find(r => r.cells[0].textContent === '\\sqrt{d_k}')";
    js(client, &format!("{row}.id = 'sqrt-row'; return null")).await;
    hover(client, "#sqrt-row", 0.0, 0.0).await;
    let lit = js(client, "return document.querySelector('#typeset msqrt').classList.contains('lit')").await;
    assert_eq!(lit, json!(true), "hovering the row lights the radical");
    // The shipped picture (`docs/serve-attention.png`) is refreshed only when asked for
    // (`EQMAP_SCREENSHOT=docs/serve-attention.png`), so a test run leaves the tree as it was.
    let png = client.screenshot().await.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
    if let Some(path) = std::env::var_os("EQMAP_SCREENSHOT") {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        std::fs::write(path, png).expect("screenshot saved");
    }
    hover(client, "h1", 0.0, 0.0).await;
    let unlit = js(client, "return document.querySelector('#typeset msqrt').classList.contains('lit')").await;
    assert_eq!(unlit, json!(false), "leaving the row puts the radical out");
    let width =
        js(client, "return document.querySelector('#typeset msqrt').getBoundingClientRect().width").await;
    let width = width.as_f64().unwrap_or(20.0);
    hover(client, "#typeset msqrt", -width / 2.0 + 4.0, 0.0).await;
    let row_lit = js(client, "return document.getElementById('sqrt-row').classList.contains('lit')").await;
    assert_eq!(row_lit, json!(true), "hovering the radical lights its row");
    hover(client, "h1", 0.0, 0.0).await;

    // English changes the questions.
    let korean = js(client, "return document.getElementById('sqrt-row').cells[1].textContent").await;
    client.find(Locator::Id("lang-en")).await.expect("English").click().await.expect("clicked");
    let english = until("English questions", || async {
        let header = js(client, "return document.querySelector('#slots th:nth-child(2)').textContent").await;
        let question = js(
            client,
            r"const r = [...document.querySelectorAll('#slots tbody tr')].find(r => r.cells[0].textContent === '\\sqrt{d_k}'); return r ? r.cells[1].textContent : null",
        )
        .await;
        let question = question.as_str().map(str::to_string)?;
        let hangul = question.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
        (header == json!("Question that blocks") && !hangul && !question.is_empty()).then_some(question)
    })
    .await;
    assert_ne!(json!(english), korean);
    assert!(client.current_url().await.expect("url").fragment().is_some_and(|f| f.contains("lang=en")));

    // The numbers view: softmax rows sum to 1.
    client.find(Locator::Css("#numbers summary")).await.expect("numbers").click().await.expect("opened");
    client.find(Locator::Id("eval")).await.expect("evaluate").click().await.expect("clicked");
    let sums = until("the softmax row sums", || async {
        let sums = js(
            client,
            r"const r = [...document.querySelectorAll('#trace tbody tr')].find(r => r.cells[0].textContent === '\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})'); return r ? r.cells[6].textContent : null",
        )
        .await;
        sums.as_str().filter(|s| !s.is_empty()).map(str::to_string)
    })
    .await;
    let values: Vec<f64> = sums.split(',').filter_map(|s| s.trim().parse().ok()).collect();
    assert!(!values.is_empty() && values.iter().all(|v| (v - 1.0).abs() < 1e-3), "row sums {sums}");

    // Compare with the cross-entropy line (the box's default second formula).
    client.find(Locator::Css("#compare summary")).await.expect("compare").click().await.expect("opened");
    client.find(Locator::Id("compare-go")).await.expect("compare button").click().await.expect("clicked");
    let compared = until("the comparison", || async {
        let text = js(client, "return document.getElementById('comparison').textContent").await;
        text.as_str().filter(|t| t.contains("Articles both need")).map(str::to_string)
    })
    .await;
    assert!(compared.contains("Only this formula") && compared.contains("#"), "{compared}");

    // An unclosed brace: the message and its caret.
    map(client, r"\frac{a}{").await;
    let caret = until("the caret message", || async {
        let visible = js(client, "return !document.getElementById('error').hidden").await;
        let caret = js(client, "return document.getElementById('error-caret').textContent").await;
        let caret = caret.as_str().map(str::to_string)?;
        (visible == json!(true) && caret.contains('^')).then_some(caret)
    })
    .await;
    assert!(caret.contains(r"\frac{a}{"), "{caret}");
    let message = js(client, "return document.getElementById('error-message').textContent").await;
    assert!(message.as_str().is_some_and(|m| m.contains('}')), "{message}");

    // A link reopens the page as it was: the formula and the language from the address.
    client.goto("about:blank").await.expect("away");
    client
        .goto(&format!("{url}#f=-%5Csum_i%20y_i%20%5Clog%20%5Chat%20y_i&lang=en"))
        .await
        .expect("the link opens");
    until("the linked formula's rows", || async {
        let rows = js(
            client,
            "return [...document.querySelectorAll('#slots tbody tr')].map(r => r.cells[0].textContent)",
        )
        .await;
        let header = js(client, "return document.querySelector('#slots th:nth-child(2)').textContent").await;
        let rows: Vec<String> = serde_json::from_value(rows).unwrap_or_default();
        (rows.iter().any(|r| r == r"\log") && header == json!("Question that blocks")).then_some(())
    })
    .await;
    let typed = js(client, "return document.getElementById('formula').value").await;
    assert_eq!(typed, json!(r"-\sum_i y_i \log \hat y_i"));

    // The keyboard: Tab from the box reaches the formula's slots, and a focused slot lights its row.
    client.find(Locator::Id("formula")).await.expect("the box").click().await.expect("focused");
    let mut reached = false;
    for _ in 0..12 {
        let focused = client.active_element().await.expect("focus");
        focused.send_keys(&fantoccini::key::Key::Tab.to_string()).await.expect("Tab");
        let state = js(
            client,
            "const a = document.activeElement; return a && a.closest('#typeset') && a.dataset.slot !== undefined ? document.querySelectorAll('#slots tbody tr.lit').length : -1",
        )
        .await;
        if state.as_i64().unwrap_or(-1) >= 1 {
            reached = true;
            break;
        }
    }
    assert!(reached, "Tab reaches a slot of the formula, which lights its row");
}
