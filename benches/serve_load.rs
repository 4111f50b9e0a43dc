//! Load benchmark of `conditions serve` (not a timed test): 20,000 ruling requests at
//! 64 concurrent keep-alive connections on loopback, against a native baseline of the
//! same JSON round trip (a minimal axum handler that reads the same facts JSON and writes
//! the same report JSON, ruling nothing). Prints requests/s, p50/p99 latency, the ratio,
//! and the server's resident memory (peak, and after a warm-up and at the end).
//!
//! The server and the baseline are loaded in interleaved rounds (`LOAD_ROUNDS`, default 5) and
//! each one's figures are those of its median round.
//!
//! `cargo bench --bench serve_load` (release build). `LOAD_REQUESTS` (a round's, default
//! 20,000) and `LOAD_CONNECTIONS` override the counts. Figures are recorded in docs/performance.md.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
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
        ("/api/rulebooks/dbf/rulings/s304.transportgodtg%C3%B8relse".to_string(), dbf),
    ]
}

/// One kept-alive connection of the load client: the request's bytes, built once, and
/// a buffer for the answer, reused.
struct Conn {
    stream: tokio::net::TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    async fn open(addr: SocketAddr) -> Conn {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        Conn { stream, buf: Vec::with_capacity(64 * 1024) }
    }

    /// Sends one request and reads its whole answer; the status.
    async fn round_trip(&mut self, req: &[u8]) -> u16 {
        let mut sent = 0;
        while sent < req.len() {
            self.stream.writable().await.expect("writable");
            match self.stream.try_write(&req[sent..]) {
                Ok(n) => sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("write: {e}"),
            }
        }
        self.buf.clear();
        let mut need: Option<usize> = None;
        loop {
            if let Some(n) = need
                && self.buf.len() >= n
            {
                break;
            }
            if self.buf.capacity() - self.buf.len() < 16 * 1024 {
                self.buf.reserve(64 * 1024);
            }
            self.stream.readable().await.expect("readable");
            let len = self.buf.len();
            let cap = self.buf.capacity();
            self.buf.resize(cap, 0);
            match self.stream.try_read(&mut self.buf[len..]) {
                Ok(0) => panic!("the server closed the connection"),
                Ok(n) => self.buf.truncate(len + n),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    self.buf.truncate(len);
                    continue;
                }
                Err(e) => panic!("read: {e}"),
            }
            if need.is_none() {
                need = head_and_body(&self.buf);
            }
        }
        std::str::from_utf8(&self.buf[9..12]).ok().and_then(|s| s.parse().ok()).expect("status")
    }

    fn body(&self) -> &[u8] {
        let head = self.buf.windows(4).position(|w| w == b"\r\n\r\n").expect("head") + 4;
        &self.buf[head..]
    }
}

/// The length of a whole answer (head and body) once its head has arrived.
fn head_and_body(buf: &[u8]) -> Option<usize> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&buf[..end]).expect("head is text");
    let len = head
        .split("\r\n")
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .map(|(_, v)| v.trim().parse::<usize>().expect("length"))
        .expect("a content-length");
    Some(end + 4 + len)
}

/// Each request of the mix as the bytes sent, built once.
fn request_bytes(addr: SocketAddr) -> Vec<Vec<u8>> {
    requests()
        .into_iter()
        .map(|(path, body)| {
            format!(
                "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_bytes()
        })
        .collect()
}

struct Run {
    per_sec: f64,
    p50: Duration,
    p99: Duration,
    max: Duration,
}

/// `total` requests over `conns` kept-alive connections, from one client thread (the
/// client shares the cores with the server, so it is kept cheap: one thread, no
/// allocation per request, the request bytes built once).
fn load(addr: SocketAddr, total: usize, conns: usize) -> Run {
    let reqs = std::rc::Rc::new(request_bytes(addr));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("client runtime");
    let (lat, elapsed) = rt.block_on(async move {
        let set = tokio::task::LocalSet::new();
        set.run_until(async move {
            let mut open = Vec::with_capacity(conns);
            for _ in 0..conns {
                open.push(Conn::open(addr).await);
            }
            let start = Instant::now();
            let tasks: Vec<_> = open
                .into_iter()
                .enumerate()
                .map(|(c, mut conn)| {
                    let reqs = reqs.clone();
                    let n = total / conns + usize::from(c < total % conns);
                    tokio::task::spawn_local(async move {
                        let mut lat = Vec::with_capacity(n);
                        for i in 0..n {
                            let req = &reqs[(c + i) % reqs.len()];
                            let t = Instant::now();
                            let status = conn.round_trip(req).await;
                            lat.push(t.elapsed());
                            assert_eq!(status, 200, "{}", String::from_utf8_lossy(conn.body()));
                        }
                        lat
                    })
                })
                .collect();
            let mut lat = Vec::with_capacity(total);
            for t in tasks {
                lat.extend(t.await.expect("client task"));
            }
            (lat, start.elapsed())
        })
        .await
    });
    let mut lat = lat;
    lat.sort();
    let at = |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)];
    Run {
        per_sec: lat.len() as f64 / elapsed.as_secs_f64(),
        p50: at(0.50),
        p99: at(0.99),
        max: *lat.last().expect("some"),
    }
}

/// The run of median throughput.
fn median(mut runs: Vec<Run>) -> Run {
    runs.sort_by(|a, b| a.per_sec.total_cmp(&b.per_sec));
    runs.swap_remove(runs.len() / 2)
}

/// CPU time (user and system) used so far by the threads of a process whose name
/// starts with `prefix` (all threads when empty), in clock ticks of 10 ms.
fn cpu_ticks(pid: u32, prefix: &str) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return 0 };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("stat")).ok())
        .filter_map(|stat| {
            let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
            if !name.starts_with(prefix) {
                return None;
            }
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .sum()
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
        let rt =
            tokio::runtime::Builder::new_multi_thread().enable_all().thread_name("baseline").build().expect("runtime");
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

/// The server's process, killed when the bench ends, also when it fails half-way.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let total = env_or("LOAD_REQUESTS", 20_000);
    let rounds = env_or("LOAD_ROUNDS", 5).max(1);
    let conns = env_or("LOAD_CONNECTIONS", 64);
    // The server, as a user starts it: the release binary on an ephemeral loopback port.
    let mut child = Server(
        Command::new(env!("CARGO_BIN_EXE_conditions"))
            .args(["serve", "--bind", "127.0.0.1:0"])
            .stderr(Stdio::piped())
            .spawn()
            .expect("conditions serve starts"),
    );
    let mut err = BufReader::new(child.0.stderr.take().expect("stderr"));
    let mut line = String::new();
    err.read_line(&mut line).expect("the address");
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in `{line}`"));
    let pid = child.0.id();
    // The reports the server gives, for the baseline to write.
    let reports = {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("client runtime");
        rt.block_on(async {
            let mut conn = Conn::open(addr).await;
            let mut reports = Vec::new();
            for ((path, _), req) in requests().into_iter().zip(request_bytes(addr)) {
                let status = conn.round_trip(&req).await;
                let out = String::from_utf8(conn.body().to_vec()).expect("utf-8");
                assert_eq!(status, 200, "{out}");
                let book = path.split('/').nth(3).expect("book").to_string();
                reports.push((book, out));
            }
            reports
        })
    };
    let warm = load(addr, 2_000, conns);
    let rss_warm = status_kb(pid, "VmRSS:");
    let base_addr = baseline(reports);
    let _ = load(base_addr, 2_000, conns);
    // Interleaved rounds (server, baseline, server, …) so that a busy moment of the shared
    // machine slows both alike; each one's figure is the median round.
    let me = std::process::id();
    let (mut served_runs, mut base_runs) = (Vec::new(), Vec::new());
    let (mut served_cpu, mut base_cpu) = (0, 0);
    for _ in 0..rounds {
        let ticks = cpu_ticks(pid, "");
        served_runs.push(load(addr, total, conns));
        served_cpu += cpu_ticks(pid, "") - ticks;
        let ticks = cpu_ticks(me, "baseline");
        base_runs.push(load(base_addr, total, conns));
        base_cpu += cpu_ticks(me, "baseline") - ticks;
    }
    let rss_end = status_kb(pid, "VmRSS:");
    let peak = status_kb(pid, "VmHWM:");
    drop(child);
    let rounds_of = |runs: &[Run]| runs.iter().map(|r| format!("{:.0}", r.per_sec)).collect::<Vec<_>>().join(", ");
    let each = format!("conditions serve {}; native baseline {}", rounds_of(&served_runs), rounds_of(&base_runs));
    let served = median(served_runs);
    let base = median(base_runs);
    let total = total * rounds;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("serve_load: {rounds} rounds of {} requests each, {conns} connections, loopback", total / rounds);
    println!("  rounds, req/s: {each}");
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
    let r = served.per_sec / base.per_sec;
    let verdict = if r >= 0.8 { "met" } else { "not met" };
    println!("  ratio (serve / baseline throughput, medians): {r:.3} (target ≥ 0.8: {verdict})");
    let per = |ticks: u64| ticks as f64 * 10_000.0 / total as f64;
    println!(
        "  server CPU per request: conditions serve {:.0} µs, native baseline {:.0} µs (user + system, all threads)",
        per(served_cpu),
        per(base_cpu)
    );
    println!(
        "  server memory: peak {} MiB; {} MiB after warm-up ({:.0} req/s), {} MiB after the run",
        peak / 1024,
        rss_warm / 1024,
        warm.per_sec,
        rss_end / 1024
    );
}
