//! `eqmap serve`'s JSON API over real HTTP: every endpoint answers with what the CLI prints
//! for `--format json`, and every hostile request gets a clean 4xx while the server keeps
//! serving.

mod serve_common;

use serde_json::{json, Value};
use serve_common::{cli, Server, ATTENTION};
use std::io::Write;
use std::time::{Duration, Instant};

fn body(value: Value) -> String {
    value.to_string()
}

/// The server still answers a plain map after whatever came before.
fn still_serves(server: &Server) {
    let reply = server.post("/api/map", &body(json!({ "formula": "x^2" })));
    assert_eq!(reply.status, 200, "{}", reply.body);
}

#[test]
fn map_answers_with_the_cli_json() {
    let server = Server::start(&[]);
    for lang in ["ko", "en"] {
        let reply = server.post("/api/map", &body(json!({ "formula": ATTENTION, "lang": lang })));
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(reply.body, cli(&["map", "--format", "json", "--lang", lang, ATTENTION]));
        assert!(reply.header("content-type").is_some_and(|v| v.starts_with("application/json")));
    }
    let reply = server.post(
        "/api/map",
        &body(json!({ "formula": ATTENTION, "curriculum": "transformer-series", "lang": "en" })),
    );
    assert_eq!(
        reply.body,
        cli(&["map", "--format", "json", "--lang", "en", "--curriculum", "transformer-series", ATTENTION])
    );
    // A pasted formula: spans point into the text as pasted, as the CLI's do.
    let pasted = "$QKᵀ/√dₖ$";
    let reply = server.post("/api/map", &body(json!({ "formula": pasted })));
    assert_eq!(reply.body, cli(&["map", "--format", "json", pasted]));
}

#[test]
fn read_parse_and_compare_answer_as_the_cli_does() {
    let server = Server::start(&[]);
    for lang in ["ko", "en"] {
        let reply = server.post("/api/read", &body(json!({ "formula": ATTENTION, "lang": lang })));
        assert_eq!(reply.status, 200, "{}", reply.body);
        let reading = reply.json()["reading"].as_str().map(str::to_string);
        assert_eq!(reading.as_deref(), Some(cli(&["read", "--lang", lang, ATTENTION]).trim_end()));
        assert_eq!(reply.json()["lang"], lang);
    }

    let reply = server.post("/api/parse", &body(json!({ "formula": ATTENTION })));
    assert_eq!(reply.status, 200);
    let mut answer = reply.json();
    let mathml = answer.as_object_mut().and_then(|o| o.remove("mathml")).expect("a mathml field");
    let expected: Value =
        serde_json::from_str(&cli(&["parse", "--format", "json", ATTENTION])).expect("JSON");
    assert_eq!(answer, expected);
    assert_eq!(
        mathml.as_str().map(|m| format!("{m}\n")),
        Some(cli(&["parse", "--format", "mathml", ATTENTION]))
    );
    assert!(mathml.as_str().is_some_and(|m| m.contains("<msqrt data-s=\"25\" data-e=\"35\">")));

    let other = r"-\sum_i y_i \log \hat y_i";
    let reply = server.post("/api/compare", &body(json!({ "formulas": [ATTENTION, other], "lang": "en" })));
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body, cli(&["compare", "--format", "json", "--lang", "en", ATTENTION, other]));

    let reply = server.post("/api/curriculum", &body(json!({ "lang": "en" })));
    assert_eq!(reply.status, 200);
    let articles = reply.json()["articles"].as_array().cloned().unwrap_or_default();
    let forty = articles.iter().find(|a| a["number"] == 40).expect("article 40");
    assert!(forty["title"].as_str().is_some_and(|t| !t.is_empty()), "{forty}");
}

#[test]
fn eval_answers_with_the_cli_json_and_takes_let_dim_seed_trace() {
    let server = Server::start(&[]);
    let v = "[[1,2],[3,4],[5,6]]";
    let request = json!({
        "formula": ATTENTION,
        "seed": 7,
        "dim": { "d_k": 4, "n": 2 },
        "let": { "V": [[1, 2], [3, 4], [5, 6]] },
        "trace": true,
    });
    let reply = server.post("/api/eval", &body(request));
    assert_eq!(reply.status, 200, "{}", reply.body);
    let expected = cli(&[
        "eval",
        "--format",
        "json",
        "--seed",
        "7",
        "--dim",
        "d_k=4",
        "--dim",
        "n=2",
        "--let",
        &format!("V={v}"),
        "--trace",
        ATTENTION,
    ]);
    assert_eq!(reply.body, expected);
    let answer = reply.json();
    let softmax = answer["trace"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["row_sums"].is_array()))
        .expect("a softmax row");
    for sum in softmax["row_sums"].as_array().into_iter().flatten() {
        assert!((sum.as_f64().unwrap_or(0.0) - 1.0).abs() < 1e-9, "{softmax}");
    }
    // The command line's list form works too.
    let reply = server.post(
        "/api/eval",
        &body(json!({ "formula": "x + y", "let": ["x=1", "y=2"], "dim": ["n=3"], "seed": "3" })),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["value"], 3.0);
}

#[test]
fn formula_errors_are_422_with_their_span_and_caret() {
    let server = Server::start(&[]);
    for endpoint in ["map", "read", "parse", "eval"] {
        let reply =
            server.post(&format!("/api/{endpoint}"), &body(json!({ "formula": r"\frac{a}{", "lang": "en" })));
        assert_eq!(reply.status, 422, "{endpoint}: {}", reply.body);
        let answer = reply.json();
        assert_eq!(answer["error"], "unclosed", "{answer}");
        assert_eq!(answer["span"], json!([9, 9]));
        assert_eq!(answer["opened"], json!([8, 9]));
        let rendered = answer["rendered"].as_str().unwrap_or("");
        assert!(rendered.contains(r"\frac{a}{") && rendered.contains('^'), "{rendered}");
        assert!(answer["message"].as_str().is_some_and(|m| m.contains('}')), "{answer}");
    }
    // An evaluation error: a shape mismatch, with its slot's span and a hint.
    let reply = server.post(
        "/api/eval",
        &body(json!({ "formula": "QK", "let": { "Q": [[1, 2]], "K": [[1, 2]] }, "lang": "en" })),
    );
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(reply.json()["span"].is_array());
    // compare says which formula failed.
    let reply = server.post("/api/compare", &body(json!({ "formulas": ["x", r"\sqrt{"] })));
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["which"], 1);
    still_serves(&server);
}

#[test]
fn hostile_bodies_get_a_clean_4xx_and_the_server_keeps_serving() {
    let server = Server::start(&["--max-body", "65536"]);
    let check = |reply: serve_common::Reply, status: u16, kind: &str| {
        assert_eq!(reply.status, status, "{kind}: {}", reply.body);
        assert_eq!(reply.json()["error"], kind, "{}", reply.body);
        assert!(reply.json()["message"].as_str().is_some_and(|m| !m.is_empty()));
    };
    // Too big: declared, and sent chunked with no length.
    let big = format!("{{\"formula\": \"{}\"}}", "x".repeat(70_000));
    check(server.post("/api/map", &big), 413, "too_large");
    let mut chunked = format!(
        "POST /api/map HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .into_bytes();
    for piece in big.as_bytes().chunks(8192) {
        chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    check(server.raw(&chunked), 413, "too_large");
    // Not UTF-8, not JSON, not the JSON expected.
    let json_headers = [("Content-Type", "application/json")];
    check(
        server.request("POST", "/api/map", &json_headers, b"{\"formula\": \"\xff\xfe\"}"),
        400,
        "invalid_utf8",
    );
    check(server.post("/api/map", "{\"formula\": "), 400, "invalid_json");
    check(server.post("/api/map", "[1, 2]"), 400, "bad_option");
    check(server.post("/api/map", &body(json!({ "formula": "x", "format": "table" }))), 400, "bad_option");
    check(server.post("/api/map", &body(json!({ "formula": 3 }))), 400, "bad_option");
    check(server.post("/api/map", "{}"), 400, "missing_formula");
    check(server.post("/api/compare", &body(json!({ "formulas": ["x"] }))), 400, "missing_formula");
    check(server.post("/api/map", &body(json!({ "formula": "x", "lang": "fr" }))), 400, "bad_option");
    // The server reads no files: not a curriculum file, not `--let NAME=@FILE`.
    check(
        server.post("/api/map", &body(json!({ "formula": "x", "curriculum": "/etc/passwd" }))),
        400,
        "bad_option",
    );
    check(
        server.post("/api/eval", &body(json!({ "formula": "x", "let": ["x=@/etc/passwd"] }))),
        400,
        "bad_option",
    );
    check(server.post("/api/eval", &body(json!({ "formula": "x", "seed": -1 }))), 400, "bad_option");
    // Wrong media type, method, path, Host.
    check(
        server.request("POST", "/api/map", &[("Content-Type", "text/plain")], b"{}"),
        415,
        "unsupported_media_type",
    );
    check(server.request("GET", "/api/map", &[], b""), 405, "method_not_allowed");
    check(server.request("GET", "/nothing-here", &[], b""), 404, "not_found");
    let rebinding = b"GET / HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n";
    check(server.raw(rebinding), 403, "forbidden_host");
    // Not HTTP at all: the connection is answered 400 or closed, and nothing else changes.
    let garbage = server.raw(b"\x00\x01\x02 hello\r\n\r\n");
    assert!(garbage.status == 400 || garbage.status == 0, "{garbage:?}");
    still_serves(&server);
}

#[test]
fn formulas_over_the_limits_are_refused_as_formula_errors() {
    let server = Server::start(&[]);
    let deep = format!("{}x{}", "{".repeat(5_000), "}".repeat(5_000));
    let reply = server.post("/api/map", &body(json!({ "formula": deep })));
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.json()["error"], "too_deep");
    let long = "x+".repeat(60_000) + "x";
    let reply = server.post("/api/map", &body(json!({ "formula": long })));
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["error"], "too_long");
    // Nested sums past the step budget, and a value past the element limit.
    let steps = r"\sum_{i=1}^{100000}\sum_{j=1}^{100000}\sum_{k=1}^{100000} i j k";
    let reply = server.post("/api/eval", &body(json!({ "formula": steps })));
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.json()["error"], "too_much_work");
    let column: Vec<Vec<u32>> = (0..1001).map(|i| vec![i]).collect();
    let reply = server.post("/api/eval", &body(json!({ "formula": "x x^\\top", "let": { "x": column } })));
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.json()["error"], "too_large");
    let started = Instant::now();
    still_serves(&server);
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// The server's limits are fixed: an error about one names it and no command-line flag, in
/// both languages, where the command line names the flag that raises it.
#[test]
fn limit_errors_name_the_servers_limit_and_no_flag() {
    let server = Server::start(&[]);
    let large = r"A \in \mathbb{R}^{n \times n}, A";
    for lang in ["en", "ko"] {
        // 2000 × 2000 = 4,000,000 elements, past the server's 1,000,000.
        let request = json!({ "formula": large, "dim": { "n": 2000 }, "seed": 1, "lang": lang });
        let reply = server.post("/api/eval", &body(request));
        assert_eq!(reply.status, 422, "{}", reply.body);
        let answer = reply.json();
        assert_eq!(answer["error"], "too_large", "{answer}");
        assert_eq!(answer["elements"], 4_000_000, "{answer}");
        assert_eq!(answer["limit"], 1_000_000, "{answer}");
        let (server_word, limit_word) = if lang == "en" { ("server", "limit") } else { ("서버", "한도") };
        for field in ["message", "rendered"] {
            let text = answer[field].as_str().unwrap_or("");
            assert!(!text.contains("--max"), "{lang} {field}: {text}");
            assert!(text.contains("1000000") && text.contains(limit_word), "{lang} {field}: {text}");
            assert!(text.contains(server_word), "{lang} {field}: {text}");
        }
        // The command line, on the same formula and limit, names the flag that raises it.
        let cli_record: Value = serde_json::from_str(&cli(&[
            "eval",
            "--format",
            "json",
            "--lang",
            lang,
            "--seed",
            "1",
            "--dim",
            "n=2000",
            "--max-elements",
            "1000000",
            large,
        ]))
        .expect("a JSON record");
        let cli_message = cli_record["message"].as_str().unwrap_or("");
        assert!(cli_message.contains("--max-elements") && cli_message.contains("1000000"), "{cli_message}");
        assert_ne!(cli_message, answer["message"].as_str().unwrap_or(""));

        // The step limit, the nesting and length limits, and a dimension past any size.
        let steps = r"\sum_{i=1}^{100000}\sum_{j=1}^{100000}\sum_{k=1}^{100000} i j k";
        let deep = format!("{}x{}", "{".repeat(300), "}".repeat(300));
        let long = "x+".repeat(60_000) + "x";
        let dimension = json!({ "formula": large, "dim": { "n": "99999999999999999999999" }, "lang": lang });
        let replies = [
            (server.post("/api/eval", &body(json!({ "formula": steps, "lang": lang }))), "too_much_work"),
            (server.post("/api/map", &body(json!({ "formula": deep, "lang": lang }))), "too_deep"),
            (server.post("/api/map", &body(json!({ "formula": long, "lang": lang }))), "too_long"),
            (server.post("/api/eval", &body(dimension)), "dimension_too_large"),
        ];
        for (reply, kind) in replies {
            assert_eq!(reply.status, 422, "{kind}: {}", reply.body);
            let answer = reply.json();
            assert_eq!(answer["error"], kind, "{answer}");
            for field in ["message", "rendered"] {
                let text = answer[field].as_str().unwrap_or("");
                assert!(
                    !text.contains("--max") && text.contains(server_word),
                    "{kind} {lang} {field}: {text}"
                );
                if let Some(limit) = answer["limit"].as_u64() {
                    assert!(text.contains(&limit.to_string()), "{kind} {lang} {field}: {text}");
                }
            }
        }
    }
    still_serves(&server);
}

#[test]
fn slow_clients_time_out_without_holding_the_server() {
    let server = Server::start(&["--timeout-ms", "600"]);
    // A head that never ends: the connection is closed after the deadline.
    let mut idle = server.connect();
    idle.write_all(b"POST /api/map HTTP/1.1\r\nHost: 127.0.0.1\r\n").expect("written");
    // A body that never comes: 408.
    let mut slow = server.connect();
    let head = format!(
        "POST /api/map HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{{\"formula\"",
        server.addr
    );
    slow.write_all(head.as_bytes()).expect("written");
    still_serves(&server);
    let started = Instant::now();
    let reply = serve_common::read_reply(&mut slow);
    assert_eq!(reply.status, 408, "{reply:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let reply = serve_common::read_reply(&mut idle);
    assert!(reply.status == 408 || reply.status == 0, "{reply:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    still_serves(&server);
}

#[test]
fn a_slow_formula_does_not_stall_the_others() {
    let server = Server::start(&[]);
    // Seconds of work on a blocking thread, until the step budget stops it.
    let heavy = json!({ "formula": r"\sum_{i=1}^{4000}\sum_{j=1}^{4000} i j" }).to_string();
    let addr = server.addr;
    let worker = std::thread::spawn(move || {
        let started = Instant::now();
        let reply = serve_common::post_at(addr, "/api/eval", &heavy);
        (reply.status, started.elapsed())
    });
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    for _ in 0..5 {
        still_serves(&server);
    }
    let quick = started.elapsed();
    let (status, slow) = worker.join().expect("joined");
    assert_eq!(status, 422, "the step budget stops it");
    assert!(quick * 2 < slow, "five quick maps took {quick:?} beside a slow eval ({slow:?})");
}

#[test]
fn the_page_is_served_with_a_strict_policy() {
    let server = Server::start(&[]);
    let page = server.request("GET", "/", &[], b"");
    assert_eq!(page.status, 200);
    assert!(page.header("content-type").is_some_and(|v| v.starts_with("text/html")));
    let policy = page.header("content-security-policy").unwrap_or_default();
    assert!(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"), "{policy}");
    assert!(!policy.contains("unsafe"), "{policy}");
    assert_eq!(page.header("x-content-type-options").as_deref(), Some("nosniff"));
    assert!(page.body.contains("<script src=\"/app.js\""));
    assert!(!page.body.contains("<script>") && !page.body.contains("style=\""), "nothing inline");
    let script = server.request("GET", "/app.js", &[], b"");
    assert!(script.header("content-type").is_some_and(|v| v.starts_with("text/javascript")));
    assert!(!script.body.contains("innerHTML"), "the page sets no markup from strings");
    let style = server.request("GET", "/style.css", &[], b"");
    assert!(style.header("content-type").is_some_and(|v| v.starts_with("text/css")));
    // The API's answers carry the policy too.
    let reply = server.post("/api/map", &body(json!({ "formula": "<script>alert(1)</script>" })));
    assert!(reply.header("content-security-policy").is_some());
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let server = Server::start(&[]);
    still_serves(&server);
    let status = server.interrupt(Duration::from_secs(10)).expect("stopped within 10 s");
    assert!(status.success(), "{status:?}");
}

#[test]
fn another_host_than_loopback_is_warned_about() {
    let server = Server::start(&["--host", "0.0.0.0"]);
    assert!(server.before.iter().any(|line| line.contains("warning")), "{:?}", server.before);
    let reply = server.request("GET", "/", &[], b"");
    assert_eq!(reply.status, 200, "any Host is served when listening beyond loopback");
    let loopback = Server::start(&[]);
    assert!(loopback.before.iter().all(|line| !line.contains("warning")), "{:?}", loopback.before);
}
