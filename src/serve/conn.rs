//! The server's connections: accepted up to a cap (under the process's limit of open
//! files), served by hyper with a timeout on reading a request's head (a client idle
//! between requests is timed out the same way), a timeout on the whole of a request,
//! and a shutdown that stops accepting, lets the requests under way finish within a
//! grace period, then closes whatever is left, whatever the clients do. At the cap (or
//! out of files), the connection idle longest (no request under way: still sending its
//! head, or between requests) is closed to make room, so that clients that stall cannot
//! keep others out.

use super::safety::{ApiError, is_api};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::{Notify, Semaphore, watch};
use tokio::task::JoinSet;

/// How long a client has to send a request's head, and how long a connection may sit
/// idle between requests.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a whole request may take, its body read and its answer worked out.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The most connections open at once (fewer under a low limit of open files).
pub const MAX_CONNECTIONS: usize = 256;

/// Open files kept for the server itself (rulebook files, the listener, the runtime).
pub const RESERVED_FILES: usize = 32;

/// How long the requests under way may go on once the server is told to stop.
pub const GRACE: Duration = Duration::from_secs(5);

/// The connection cap: [`MAX_CONNECTIONS`], or the process's soft limit of open files
/// less [`RESERVED_FILES`] when that is lower.
pub fn cap() -> usize {
    let soft = std::fs::read_to_string("/proc/self/limits").ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("Max open files"))
            .and_then(|l| l.split_whitespace().nth(3).and_then(|n| n.parse::<usize>().ok()))
    });
    match soft {
        Some(n) => MAX_CONNECTIONS.min(n.saturating_sub(RESERVED_FILES)).max(1),
        None => MAX_CONNECTIONS,
    }
}

/// A request that takes longer than [`REQUEST_TIMEOUT`] (a body sent slowly, say) is
/// answered 408 and its work dropped.
pub async fn in_time(req: Request<Body>, next: Next) -> Response {
    let api = is_api(req.uri().path());
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(req)).await {
        Ok(res) => res,
        Err(_) => {
            let why =
                format!("the request took longer than {} seconds to arrive and be answered", REQUEST_TIMEOUT.as_secs());
            if api {
                ApiError::new(StatusCode::REQUEST_TIMEOUT, why).into_response()
            } else {
                super::layout::error_page(StatusCode::REQUEST_TIMEOUT, crate::show::Lang::En, "timeout", &why)
            }
        }
    }
}

/// One open connection, as the cap sees it.
struct Open {
    /// Requests under way on it.
    busy: AtomicUsize,
    /// When it last became idle (opened, or finished a request).
    idle_since: Mutex<Instant>,
    /// Told to close.
    close: Notify,
}

/// The open connections.
#[derive(Default)]
struct Registry {
    open: Mutex<Vec<Arc<Open>>>,
}

impl Registry {
    fn add(&self) -> Arc<Open> {
        let c =
            Arc::new(Open { busy: AtomicUsize::new(0), idle_since: Mutex::new(Instant::now()), close: Notify::new() });
        self.open.lock().unwrap_or_else(|e| e.into_inner()).push(c.clone());
        c
    }

    fn remove(&self, c: &Arc<Open>) {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).retain(|o| !Arc::ptr_eq(o, c));
    }

    /// Closes the connection idle longest, if any is idle.
    fn close_idlest(&self) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let idlest = open
            .iter()
            .filter(|c| c.busy.load(Ordering::Acquire) == 0)
            .min_by_key(|c| *c.idle_since.lock().unwrap_or_else(|e| e.into_inner()));
        if let Some(c) = idlest {
            // Not idle any more as far as the next look goes: it is closing.
            c.busy.fetch_add(1, Ordering::AcqRel);
            c.close.notify_one();
        }
    }
}

/// Counts a request under way on its connection until its answer's head is ready.
struct Busy(Arc<Open>);

impl Busy {
    fn new(c: &Arc<Open>) -> Busy {
        c.busy.fetch_add(1, Ordering::AcqRel);
        Busy(c.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        *self.0.idle_since.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then as [`GRACE`] says.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(cap()));
    let registry = Arc::new(Registry::default());
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut conns = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        // At the cap: the connection idle longest makes room (looked for again while none
        // is idle and none ends).
        let permit = loop {
            if slots.available_permits() == 0 {
                registry.close_idlest();
            }
            tokio::select! {
                _ = &mut shutdown => break None,
                p = tokio::time::timeout(Duration::from_millis(100), slots.clone().acquire_owned()) => match p {
                    Ok(Ok(p)) => break Some(p),
                    Ok(Err(_)) => break None,
                    Err(_) => continue,
                },
            }
        };
        let Some(permit) = permit else { break };
        let stream = tokio::select! {
            _ = &mut shutdown => break,
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                // Out of files or the like: make room, and wait a little rather than spin.
                Err(_) => {
                    drop(permit);
                    registry.close_idlest();
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        // Known to the cap from its accepting on, before its task first runs.
        let me = registry.add();
        let (app, mut stop, registry) = (app.clone(), stop_rx.clone(), registry.clone());
        conns.spawn(async move {
            let _permit = permit;
            let counted = me.clone();
            let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                let busy = Busy::new(&counted);
                let svc = TowerToHyperService::new(app.clone());
                async move {
                    let res = hyper::service::Service::call(&svc, req).await;
                    drop(busy);
                    res
                }
            });
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT);
            let conn = http.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = me.close.notified() => {}
                _ = async { stop.wait_for(|s| *s).await.is_ok() } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(GRACE, conn).await;
                }
            }
            registry.remove(&me);
        });
        while conns.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = stop_tx.send(true);
    let _ =
        tokio::time::timeout(GRACE + Duration::from_millis(100), async { while conns.join_next().await.is_some() {} })
            .await;
    // What is left is dropped: its requests' evaluations are cancelled.
    conns.abort_all();
    Ok(())
}
