//! The server cannot be stalled by a stranger: a batch's work is bounded and refused
//! past the bound with the reason, work stops when its request is abandoned, JSON
//! routes read only JSON media types, every error under `/api` is the JSON error,
//! connections that never finish their headers are closed, Ctrl-C ends the server
//! within its grace whatever clients do, and under a mix of attacks an ordinary ruling
//! still answers about as fast as usual with the memory bounded. Each server here is
//! the `conditions` binary on an ephemeral loopback port, so that its CPU time and
//! memory are its own (`/proc/PID`).

#[path = "support/http.rs"]
mod http;

use http::{request, try_request};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// A `conditions serve` child on `127.0.0.1:0`, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

/// Held shared by every test, and alone by the load test: its measures are of its own
/// server, not of the other tests' running beside it.
static ALONE: RwLock<()> = RwLock::new(());

fn beside_others() -> std::sync::RwLockReadGuard<'static, ()> {
    ALONE.read().unwrap_or_else(|e| e.into_inner())
}

impl Server {
    /// Serves both bundled rulebooks; `shell` (for `ulimit`, say) runs before it.
    fn start(shell: &str) -> Server {
        let bin = env!("CARGO_BIN_EXE_conditions");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("{shell} exec '{bin}' serve --bind 127.0.0.1:0"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut err = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        let addr = loop {
            line.clear();
            if err.read_line(&mut line).unwrap_or(0) == 0 || Instant::now() > deadline {
                let _ = child.kill();
                panic!("the server said no address");
            }
            if let Some(rest) = line.trim().strip_prefix("serving on http://") {
                break rest.split('/').next().expect("address").parse().expect("an address");
            }
        };
        // The rest of what it says is read and dropped, so that it never blocks on it.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = err.read_to_end(&mut sink);
        });
        Server { child, addr }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// CPU time (user and system) of the server so far, in clock ticks.
    fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap_or_default();
        let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
        let f: Vec<u64> = after.split_whitespace().map(|x| x.parse().unwrap_or(0)).collect();
        f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)
    }

    /// Resident memory of the server, in kB.
    fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const FLIGHTS: &str = "/api/rulebooks/gnt/rulings/flights";
const ORDINARY: &str = r#"{"player": {"masterpoints": 2150, "life_master": true}}"#;

fn post(addr: SocketAddr, path: &str, body: &[u8], ty: &str) -> http::Response {
    request(addr, "POST", path, Some(body), ty)
}

/// As many lines of `{}` for DBF as keep within nine tenths of the bound on lines × rulings
/// (every ruling of DBF asked on each): seconds of work, whatever the rulebook's size.
fn near_the_bound() -> Vec<u8> {
    let rulings = conditions::api::Rulebook::bundled("dbf").expect("bundled").rulings().len();
    let lines = conditions::serve::safety::MAX_BATCH_RULINGS * 9 / 10 / rulings;
    assert!(lines >= 50, "{rulings} rulings leave {lines} lines");
    empty_lines(lines)
}

/// `n` lines of `{}`: every ruling of the rulebook is asked for on each.
fn empty_lines(n: usize) -> Vec<u8> {
    "{}\n".repeat(n).into_bytes()
}

/// The facts of a GNT qualifying game with `n` teams.
fn teams(n: usize) -> String {
    let teams: Vec<String> =
        (0..n).map(|i| format!(r#"{{"name": "team {i}", "victory_points": {}}}"#, (i * 37) % 101)).collect();
    format!(r#"{{"teams_entered": [{}]}}"#, teams.join(", "))
}

fn is_json_error(r: &http::Response, status: u16) -> serde_json::Value {
    assert_eq!(r.status, status, "{}", r.body);
    assert!(r.header("content-type").is_some_and(|t| t.starts_with("application/json")), "{:?}", r.headers);
    let j = r.json();
    assert_eq!(j["status"], status, "{j}");
    assert!(j["error"].as_str().is_some_and(|e| !e.is_empty()), "{j}");
    j
}

/// 30 KB of `{}` lines asks for every ruling of DBF on each line: refused at once with
/// the bound and what to do, whatever the number of lines past it; a batch within the
/// bound is ruled, one record a line.
#[test]
fn a_batch_past_the_bound_is_refused_at_once_with_the_reason() {
    let _beside = beside_others();
    let s = Server::start("");
    for lines in [10_000, 2_000, 1_000] {
        let started = Instant::now();
        let r = post(s.addr, "/api/rulebooks/dbf/batch", &empty_lines(lines), "application/x-ndjson");
        let j = is_json_error(&r, 413);
        let e = j["error"].as_str().unwrap_or("");
        assert!(e.contains(&format!("{lines} lines")) && e.contains("limit"), "{j}");
        assert!(j["help"].as_str().is_some_and(|h| h.contains("?ruling=")), "{j}");
        assert!(started.elapsed() < Duration::from_secs(3), "{lines} lines: {:?}", started.elapsed());
    }
    // The same lines asking for one ruling each are within it.
    let r = post(s.addr, "/api/rulebooks/gnt/batch?ruling=flights", &empty_lines(10_000), "application/x-ndjson");
    assert_eq!(r.status, 200, "{}", &r.body[..r.body.len().min(300)]);
    assert_eq!(r.body.lines().count(), 10_000);
    let r = post(s.addr, "/api/rulebooks/dbf/batch", &empty_lines(20), "application/x-ndjson");
    assert_eq!(r.status, 200, "{}", &r.body[..r.body.len().min(300)]);
    assert_eq!(r.body.lines().count(), 20);
}

/// A batch or ruling abandoned by its client stops: the server's CPU time stays still
/// soon after, where the work would have gone on for seconds.
#[test]
fn the_work_of_an_abandoned_request_stops() {
    let _beside = beside_others();
    let s = Server::start("");
    // Nearly the bound (lines × every ruling of DBF): seconds of work.
    let body = near_the_bound();
    let alone = Instant::now();
    let r = post(s.addr, "/api/rulebooks/dbf/batch", &body, "application/x-ndjson");
    assert_eq!(r.status, 200, "{}", &r.body[..r.body.len().min(300)]);
    let takes = alone.elapsed();
    for _ in 0..2 {
        let mut c = TcpStream::connect(s.addr).expect("connect");
        let head = format!(
            "POST /api/rulebooks/dbf/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        c.write_all(head.as_bytes()).expect("head");
        c.write_all(&body).expect("body");
        std::thread::sleep(Duration::from_millis(150));
        drop(c);
    }
    std::thread::sleep(Duration::from_millis(400));
    let before = s.cpu_ticks();
    std::thread::sleep(Duration::from_millis(1000));
    let spent = s.cpu_ticks() - before;
    assert!(spent <= 20, "the server went on working ({spent} ticks in a second); the batch alone takes {takes:?}");
    // The server still answers.
    assert_eq!(post(s.addr, FLIGHTS, ORDINARY.as_bytes(), "application/json").status, 200);
}

/// The JSON routes read `application/json` and `application/x-ndjson` only (a
/// parameter such as `charset` allowed): the types a page elsewhere may send without
/// asking first (a form's, `text/plain`, none at all) are a 415.
#[test]
fn json_routes_read_only_json_media_types() {
    let _beside = beside_others();
    let s = Server::start("");
    let batch = "/api/rulebooks/gnt/batch?ruling=flights";
    for path in [FLIGHTS, batch] {
        for ty in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "json"] {
            let r = post(s.addr, path, ORDINARY.as_bytes(), ty);
            let j = is_json_error(&r, 415);
            assert!(j["error"].as_str().is_some_and(|e| e.contains("application/json")), "{ty}: {j}");
        }
        for ty in ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/x-ndjson"] {
            let r = post(s.addr, path, ORDINARY.as_bytes(), ty);
            assert_eq!(r.status, 200, "{path} as `{ty}`: {}", r.body);
        }
    }
}

/// A query value the route does not take, a batch without lines, a method a route does
/// not answer: each a 4xx with the documented JSON error, naming what is allowed.
#[test]
fn bad_queries_and_requests_are_json_errors_naming_what_is_allowed() {
    let _beside = beside_others();
    let s = Server::start("");
    let j = is_json_error(&post(s.addr, &format!("{FLIGHTS}?strict=null"), b"{}", "application/json"), 400);
    assert!(j["error"].as_str().is_some_and(|e| e.contains("strict")), "{j}");
    for q in ["pretty=2", "strict=", "pretty=yes&strict=true"] {
        is_json_error(&post(s.addr, &format!("{FLIGHTS}?{q}"), b"{}", "application/json"), 400);
    }
    for bad in ["x", "FULL", "none", ""] {
        let j = is_json_error(&post(s.addr, &format!("{FLIGHTS}?explain={bad}"), b"{}", "application/json"), 400);
        assert!(j["error"].as_str().is_some_and(|e| e.contains("`brief`") && e.contains("`full`")), "{j}");
    }
    for ok in ["brief", "full"] {
        assert_eq!(post(s.addr, &format!("{FLIGHTS}?explain={ok}"), b"{}", "application/json").status, 200);
    }
    for bad in ["xx", "zz-Latn", "not a tag", ""] {
        let q = http::enc(bad);
        let j = is_json_error(&post(s.addr, &format!("{FLIGHTS}?lang={q}"), b"{}", "application/json"), 400);
        assert!(j["error"].as_str().is_some_and(|e| e.contains("`en`") && e.contains("`da`")), "{bad}: {j}");
    }
    for ok in ["en", "da", "DA"] {
        assert_eq!(post(s.addr, &format!("{FLIGHTS}?lang={ok}"), b"{}", "application/json").status, 200, "{ok}");
    }
    let batch = "/api/rulebooks/gnt/batch?ruling=flights";
    for empty in ["", "\n"] {
        let r = post(s.addr, batch, empty.as_bytes(), "application/x-ndjson");
        if empty.is_empty() {
            is_json_error(&r, 400);
        } else {
            // One blank line is a line: its error record.
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }
    // No body at all (and so no type): a 4xx too.
    let r = request(s.addr, "POST", batch, None, "");
    assert!((400..500).contains(&r.status), "{}", r.body);
    is_json_error(&r, r.status);
    for (method, path) in [("PUT", "/api/rulebooks"), ("DELETE", FLIGHTS), ("POST", "/api/rulebooks/gnt")] {
        let r = request(s.addr, method, path, Some(b"{}"), "application/json");
        let j = is_json_error(&r, 405);
        assert!(j["help"].as_str().is_some_and(|h| h.contains("GET /api")), "{j}");
    }
}

/// A partial request head, never finished.
fn stall(addr: SocketAddr) -> Option<TcpStream> {
    let mut c = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).ok()?;
    c.write_all(b"GET /api HTTP/1.1\r\nHost: x\r\nX-Slow: ").ok()?;
    Some(c)
}

/// A connection that never finishes its head is closed after the header timeout; so
/// is one idle between requests.
#[test]
fn a_connection_that_never_finishes_its_head_is_closed() {
    let _beside = beside_others();
    let s = Server::start("");
    let mut c = stall(s.addr).expect("a connection");
    c.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let started = Instant::now();
    let mut buf = [0u8; 256];
    let n = c.read(&mut buf);
    assert!(
        started.elapsed() < Duration::from_secs(20) && !matches!(n, Ok(k) if k > 0 && buf.starts_with(b"HTTP/1.1 2")),
        "held for {:?}: {n:?}",
        started.elapsed()
    );
    let mut idle = TcpStream::connect(s.addr).expect("connect");
    idle.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let started = Instant::now();
    let n = idle.read(&mut buf);
    assert!(started.elapsed() < Duration::from_secs(20) && matches!(n, Ok(0) | Err(_)), "{n:?}");
}

/// At a limit of 64 open files, 70 connections stalled in their heads do not lock
/// other clients out: the one idle longest is closed to make room, and an ordinary
/// ruling is answered within seconds (not after the header timeout of each in turn).
#[test]
fn stalled_connections_at_a_low_file_limit_do_not_lock_clients_out() {
    let _beside = beside_others();
    let s = Server::start("ulimit -n 64 &&");
    let stalled: Vec<TcpStream> = (0..70).filter_map(|_| stall(s.addr)).collect();
    assert!(stalled.len() >= 60, "{} connections", stalled.len());
    let started = Instant::now();
    let r = try_request(s.addr, "POST", FLIGHTS, Some(ORDINARY.as_bytes()), "application/json");
    assert_eq!(r.as_ref().map(|r| r.status).ok(), Some(200), "{:?}", r.err());
    assert!(started.elapsed() < Duration::from_secs(5), "answered after {:?}", started.elapsed());
    drop(stalled);
}

/// Ctrl-C (SIGINT) ends the server within its grace while a client stalls in its head
/// and another's request is under way.
#[test]
fn ctrl_c_ends_the_server_within_the_grace_whatever_clients_do() {
    let _beside = beside_others();
    let mut s = Server::start("");
    let _stalled = stall(s.addr).expect("a connection");
    let addr = s.addr;
    let busy = std::thread::spawn(move || {
        let _ = try_request(addr, "POST", "/api/rulebooks/dbf/batch", Some(&near_the_bound()), "application/x-ndjson");
    });
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let killed = Command::new("kill").args(["-INT", &s.pid().to_string()]).status().expect("kill");
    assert!(killed.success());
    let mut ended = None;
    while started.elapsed() < Duration::from_secs(15) {
        if let Ok(Some(st)) = s.child.try_wait() {
            ended = Some(st);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(ended.is_some(), "the server still runs {:?} after Ctrl-C", started.elapsed());
    assert!(started.elapsed() < Duration::from_secs(8), "{:?}", started.elapsed());
    let _ = busy.join();
}

/// Lowers the calling thread's scheduling priority (nice 19; on Linux a thread's own).
#[allow(unsafe_code)]
fn lower_priority() {
    // SAFETY: `setpriority` with integer arguments only; `who` 0 is the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS as _, 0, 19);
    }
}

/// The p-th percentile of `xs` (sorted here).
fn percentile(xs: &mut [Duration], p: f64) -> Duration {
    xs.sort();
    let i = ((xs.len() as f64 - 1.0) * p).round() as usize;
    xs[i.min(xs.len() - 1)]
}

fn ordinary_latencies(addr: SocketAddr, n: usize) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            let r = post(addr, FLIGHTS, ORDINARY.as_bytes(), "application/json");
            assert_eq!(r.status, 200, "{}", r.body);
            t.elapsed()
        })
        .collect()
}

/// The attacks together: batches (past the bound and within it), rankings of thousands
/// of teams, and dozens of connections stalled in their heads. An ordinary ruling still
/// answers within three times its usual p99 (measured first, in this run), and the
/// server's memory stays under 100 MB. Bounded: each attacker stops after 20 seconds or
/// its count of requests.
#[test]
fn an_ordinary_ruling_answers_in_time_under_attack() {
    let _alone = ALONE.write().unwrap_or_else(|e| e.into_inner());
    let s = Server::start("");
    let addr = s.addr;
    ordinary_latencies(addr, 10);
    let mut usual = ordinary_latencies(addr, 100);
    let p99 = percentile(&mut usual, 0.99);
    let stop = Arc::new(AtomicBool::new(false));
    let deadline = Instant::now() + Duration::from_secs(40);
    let mut attackers = Vec::new();
    let big_batch = Arc::new(empty_lines(10_000));
    let batch = Arc::new(near_the_bound());
    let ranking = Arc::new(teams(5_000).into_bytes());
    for k in 0..4 {
        let (stop, big_batch, batch, ranking) = (stop.clone(), big_batch.clone(), batch.clone(), ranking.clone());
        attackers.push(std::thread::spawn(move || {
            // The attackers stand for clients on other machines: their own sending takes no
            // turn from the server here.
            lower_priority();
            let mut statuses = Vec::new();
            for i in 0..200 {
                if stop.load(Ordering::Relaxed) || Instant::now() > deadline {
                    break;
                }
                let r = match (k + i) % 3 {
                    0 => {
                        try_request(addr, "POST", "/api/rulebooks/dbf/batch", Some(&big_batch), "application/x-ndjson")
                    }
                    1 => try_request(addr, "POST", "/api/rulebooks/dbf/batch", Some(&batch), "application/x-ndjson"),
                    _ => try_request(
                        addr,
                        "POST",
                        "/api/rulebooks/gnt/rulings/qualifiers",
                        Some(&ranking),
                        "application/json",
                    ),
                };
                statuses.push(r.map(|r| r.status).unwrap_or(0));
            }
            statuses
        }));
    }
    let stalled: Vec<TcpStream> = (0..50).filter_map(|_| stall(addr)).collect();
    std::thread::sleep(Duration::from_millis(500));
    let watch_stop = stop.clone();
    let watcher = {
        let pid = s.pid();
        std::thread::spawn(move || {
            let probe = |pid: u32| {
                let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                    .unwrap_or(0)
            };
            let mut most = 0;
            while !watch_stop.load(Ordering::Relaxed) && Instant::now() < deadline {
                most = most.max(probe(pid));
                std::thread::sleep(Duration::from_millis(50));
            }
            most
        })
    };
    let mut loaded = ordinary_latencies(addr, 60);
    stop.store(true, Ordering::Relaxed);
    let most_kb = watcher.join().expect("the watcher").max(s.rss_kb());
    let statuses: Vec<u16> = attackers.into_iter().flat_map(|a| a.join().expect("an attacker")).collect();
    drop(stalled);
    let p50 = percentile(&mut loaded, 0.5);
    let p90 = percentile(&mut loaded, 0.9);
    let loaded_p99 = percentile(&mut loaded, 0.99);
    let worst = percentile(&mut loaded, 1.0);
    eprintln!(
        "usual p99 {p99:?}; under attack p50 {p50:?}, p90 {p90:?}, p99 {loaded_p99:?}, worst {worst:?}; most memory {most_kb} kB; attackers' answers {statuses:?}"
    );
    assert!(statuses.contains(&413), "the batch past the bound was not refused: {statuses:?}");
    assert!(most_kb < 100 * 1024, "the server took {most_kb} kB");
    // A stalled server answers in seconds or not at all; a busy machine's noise (other
    // builds on its cores) can make tens of milliseconds of three times a quiet p99.
    let bound = (p99 * 3).max(Duration::from_millis(500));
    assert!(p90 <= bound, "under attack p90 {p90:?} against the usual p99 {p99:?} (bound {bound:?})");
}
