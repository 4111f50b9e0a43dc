//! Load benchmark of `conditions serve` (not a timed test): 20,000 ruling requests at
//! 64 concurrent keep-alive connections on loopback, against a native baseline of the
//! same JSON round trip (a minimal axum handler that reads the same facts JSON and writes
//! the same report JSON, ruling nothing). Prints requests/s, p50/p99 latency, the ratio,
//! and the server's resident memory (peak, and after a warm-up and at the end).
//!
//! `cargo bench --bench serve_load` (release build). `LOAD_REQUESTS` and `LOAD_CONNECTIONS`
//! override the counts. Figures are recorded in docs/performance.md.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The two requests of the mix: a GNT and a DBF ruling with brief JSON explanations.
fn requests() -> Vec<(String, String)> {
    let gnt = r#"{"player": {"masterpoints": 2150, "life_master": true}}"#.to_string();
    let dbf = r#"{"s304.turnering": "Anden_turnering304", "s304.propositionerne_yder_transportgodtgørelse": true, "s304.kilometersats": "2.00 DKK per km", "s304.bro_og_færgeafgift": "0 DKK", "s304.afstand_uden_for_danmark": "0 km", "s304.rejse_til_eller_fra_bornholm": false, "s304.afstande_til_spillestedet": [{"by": "Kolding", "afstand": "100.5 km"}], "s304.rejsehold": {"navn": "Kolding BK 1", "spillere": [{"navn": "Anne", "bopæl": "Kolding"}, {"navn": "Bent", "bopæl": "Kolding"}, {"navn": "Carl", "bopæl": "Kolding"}, {"navn": "Dorte", "bopæl": "Vejle"}]}}"#.to_string();
    vec![
        ("/api/rulebooks/gnt/rulings/flights".to_string(), gnt),
        ("/api/rulebooks/dbf/rulings/transportgodtg%C3%B8relse".to_string(), dbf),
    ]
}

/// One request on a kept-alive connection; the body of the answer.
fn round_trip(s: &mut BufReader<TcpStream>, addr: SocketAddr, path: &str, body: &str) -> (u16, Vec<u8>) {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.get_mut().write_all(req.as_bytes()).expect("write");
    let mut line = String::new();
    s.read_line(&mut line).expect("status line");
    let status: u16 = line.split(' ').nth(1).and_then(|c| c.parse().ok()).expect("status");
    let mut len = 0;
    loop {
        line.clear();
        s.read_line(&mut line).expect("header");
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            len = v.trim().parse().expect("length");
        }
    }
    let mut buf = vec![0; len];
    s.read_exact(&mut buf).expect("body");
    (status, buf)
}

struct Run {
    per_sec: f64,
    p50: Duration,
    p99: Duration,
    max: Duration,
}

fn load(addr: SocketAddr, total: usize, conns: usize) -> Run {
    let reqs = requests();
    let start = Instant::now();
    let handles: Vec<_> = (0..conns)
        .map(|c| {
            let reqs = reqs.clone();
            let n = total / conns + usize::from(c < total % conns);
            std::thread::spawn(move || {
                let stream = TcpStream::connect(addr).expect("connect");
                stream.set_nodelay(true).expect("nodelay");
                let mut s = BufReader::new(stream);
                let mut lat = Vec::with_capacity(n);
                for i in 0..n {
                    let (path, body) = &reqs[(c + i) % reqs.len()];
                    let t = Instant::now();
                    let (status, _) = round_trip(&mut s, addr, path, body);
                    lat.push(t.elapsed());
                    assert_eq!(status, 200);
                }
                lat
            })
        })
        .collect();
    let mut lat: Vec<Duration> = handles.into_iter().flat_map(|h| h.join().expect("client")).collect();
    let elapsed = start.elapsed();
    lat.sort();
    let at = |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)];
    Run {
        per_sec: lat.len() as f64 / elapsed.as_secs_f64(),
        p50: at(0.50),
        p99: at(0.99),
        max: *lat.last().expect("some"),
    }
}

fn status_kb(pid: u32, key: &str) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The baseline: the same JSON in and out, through axum and serde_json, ruling nothing.
fn baseline(reports: Vec<(String, String)>) -> SocketAddr {
    use axum::body::Bytes;
    use axum::extract::Path;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
        rt.block_on(async move {
            let reports: std::sync::Arc<Vec<(String, serde_json::Value)>> = std::sync::Arc::new(
                reports.into_iter().map(|(k, v)| (k, serde_json::from_str(&v).expect("report"))).collect(),
            );
            let app = axum::Router::new().route(
                "/api/rulebooks/{book}/rulings/{ruling}",
                axum::routing::post(move |Path((book, _r)): Path<(String, String)>, body: Bytes| {
                    let reports = reports.clone();
                    async move {
                        let facts: serde_json::Value = serde_json::from_slice(&body).expect("facts");
                        let report = &reports.iter().find(|(b, _)| *b == book).expect("book").1;
                        assert!(facts.is_object());
                        (
                            [(axum::http::header::CONTENT_TYPE, "application/json")],
                            serde_json::to_string_pretty(report).expect("json"),
                        )
                    }
                }),
            );
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
            tx.send(l.local_addr().expect("addr")).expect("send");
            axum::serve(l, app).await.expect("serve");
        });
    });
    rx.recv().expect("baseline starts")
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let total = env_or("LOAD_REQUESTS", 20_000);
    let conns = env_or("LOAD_CONNECTIONS", 64);
    // The server, as a user starts it: the release binary on an ephemeral loopback port.
    let mut child = Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("conditions serve starts");
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    err.read_line(&mut line).expect("the address");
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in `{line}`"));
    let pid = child.id();
    // The reports the server gives, for the baseline to write.
    let mut reports = Vec::new();
    {
        let mut s = BufReader::new(TcpStream::connect(addr).expect("connect"));
        for (path, body) in requests() {
            let (status, out) = round_trip(&mut s, addr, &path, &body);
            assert_eq!(status, 200, "{}", String::from_utf8_lossy(&out));
            let book = path.split('/').nth(3).expect("book").to_string();
            reports.push((book, String::from_utf8(out).expect("utf-8")));
        }
    }
    let warm = load(addr, 2_000, conns);
    let rss_warm = status_kb(pid, "VmRSS:");
    let served = load(addr, total, conns);
    let rss_end = status_kb(pid, "VmRSS:");
    let peak = status_kb(pid, "VmHWM:");
    let base_addr = baseline(reports);
    let _ = load(base_addr, 2_000, conns);
    let base = load(base_addr, total, conns);
    let _ = child.kill();
    let _ = child.wait();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("serve_load: {total} requests, {conns} connections, loopback");
    println!(
        "  conditions serve   {:>9.0} req/s   p50 {:>6.2} ms   p99 {:>6.2} ms   max {:>7.2} ms",
        served.per_sec,
        ms(served.p50),
        ms(served.p99),
        ms(served.max)
    );
    println!(
        "  native baseline    {:>9.0} req/s   p50 {:>6.2} ms   p99 {:>6.2} ms   max {:>7.2} ms",
        base.per_sec,
        ms(base.p50),
        ms(base.p99),
        ms(base.max)
    );
    println!("  ratio (serve / baseline throughput): {:.3}", served.per_sec / base.per_sec);
    println!(
        "  server memory: peak {} MiB; {} MiB after warm-up ({:.0} req/s), {} MiB after the run",
        peak / 1024,
        rss_warm / 1024,
        warm.per_sec,
        rss_end / 1024
    );
}
