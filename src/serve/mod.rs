//! `conditions serve`: the rulebooks in a browser and over a JSON API, on axum and
//! tokio. Owns the server's set-up (binding, shutdown, the shared shelf of rulebooks);
//! the routes live by concern: [`api`] (JSON for programs), [`pages`] (the rulebook
//! and clause pages), [`forms`] (the ruling page and its form of still-needed inputs),
//! [`openapi`] (the API's description), [`watch`] (reloading a folder on change),
//! [`site`] (the same pages as static files), [`safety`] (limits, timeouts,
//! headers, errors) and [`conn`] (connections: their cap and timeouts, the shutdown). All ruling goes through
//! [`crate::api`]; nothing is ruled differently here.

pub mod api;
pub mod conn;
pub mod find;
pub mod forms;
pub mod layout;
pub mod openapi;
pub mod pages;
pub mod safety;
pub mod shelf;
pub mod site;
pub mod watch;
pub mod words;

use axum::Router;
use axum::routing::{get, post};
use std::net::SocketAddr;
use std::sync::Arc;

pub use shelf::{Shelf, Source};

/// How to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// The rulebooks: bundled names or folders.
    pub rulebooks: Vec<Source>,
    pub bind: SocketAddr,
    /// Reload folders when their files change.
    pub watch: bool,
}

/// The default address: loopback only.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";

/// Every route of the server, over the shelf.
pub fn router(shelf: Arc<Shelf>) -> Router {
    Router::new()
        .route("/", get(pages::index))
        .route("/style.css", get(layout::style))
        .route("/icon.svg", get(layout::icon))
        .route("/api", get(api::index))
        .route("/api/openapi.json", get(api::openapi))
        .route("/api/rulebooks", get(api::rulebooks))
        .route("/api/rulebooks/{rulebook}", get(api::rulebook))
        .route("/api/rulebooks/{rulebook}/rulings", get(api::rulings))
        .route("/api/rulebooks/{rulebook}/find", get(find::find))
        .route("/api/rulebooks/{rulebook}/rulings/{ruling}", get(api::describe).post(api::rule))
        .route("/api/rulebooks/{rulebook}/rulings/{ruling}/schema", get(api::schema))
        .route("/api/rulebooks/{rulebook}/batch", post(api::batch))
        .route("/{book}", get(pages::rulebook))
        .route("/{book}/clause/{clause}", get(pages::clause))
        .route("/{book}/ruling/{ruling}", get(forms::ruling))
        .route("/{book}/ruling/{ruling}/facts.json", get(forms::facts_file))
        .fallback(safety::not_found)
        .with_state(shelf)
        .layer(axum::Extension(safety::Gate::new(safety::large_slots())))
        .layer(axum::middleware::from_fn(safety::json_errors))
        .layer(axum::middleware::from_fn(conn::in_time))
        .layer(axum::middleware::from_fn(safety::headers))
        .layer(axum::extract::DefaultBodyLimit::max(safety::MAX_BODY))
}

/// Why the server could not start.
#[derive(Debug)]
pub enum StartError {
    /// The address is taken or cannot be bound.
    Bind(SocketAddr, std::io::Error),
    /// A rulebook named on the command line could not be loaded.
    Load(String),
    Runtime(std::io::Error),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Bind(a, e) if e.kind() == std::io::ErrorKind::AddrInUse => {
                write!(f, "the address `{a}` is already in use; stop the other server or give another with `--bind`")
            }
            StartError::Bind(a, e) => write!(f, "cannot listen on `{a}`: {e}"),
            StartError::Load(m) => f.write_str(m),
            StartError::Runtime(e) => write!(f, "cannot start the server: {e}"),
        }
    }
}

/// The number of cores: the server's worker threads, and its evaluator threads.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The tokio runtime of the server: one worker thread a core, and as many blocking
/// threads (the evaluations, with the evaluator's stack) and one more: more would only
/// take turns on the same cores, and a queue of evaluations waiting is fairer to every
/// request than dozens of threads sliced thin. Large work takes no more than
/// [`safety::large_slots`] of them, so that small rulings always find one.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .worker_threads(cores())
        .max_blocking_threads(cores() + 1)
        .thread_stack_size(crate::syntax::parser::STACK_BYTES)
        .build()
}

/// Serves until Ctrl-C; `ready` is told the address bound (an ephemeral port, say).
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), StartError> {
    let shelf = Arc::new(Shelf::open(&config.rulebooks).map_err(StartError::Load)?);
    let rt = runtime().map_err(StartError::Runtime)?;
    let res = rt.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(config.bind).await.map_err(|e| StartError::Bind(config.bind, e))?;
        let addr = listener.local_addr().map_err(StartError::Runtime)?;
        let mode = if config.watch { Some(watch::spawn(shelf.clone())) } else { None };
        ready(addr);
        match mode {
            Some(watch::Mode::Notified) => eprintln!("watching the rulebook folders for changes"),
            Some(watch::Mode::Polling(why)) => {
                eprintln!("warning: {why}; looking at the folders every {} ms instead", watch::EVERY.as_millis())
            }
            Some(watch::Mode::Nothing) => eprintln!("warning: `--watch` has no folder to watch: serve a folder"),
            None => {}
        }
        serve(listener, shelf, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(StartError::Runtime)
    });
    // Evaluations still running are cancelled by now; none is waited for long.
    rt.shutdown_timeout(std::time::Duration::from_secs(1));
    res
}

/// Serves on a bound listener until `shutdown` completes, then finishes the requests
/// under way within [`conn::GRACE`].
pub async fn serve(
    listener: tokio::net::TcpListener,
    shelf: Arc<Shelf>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    conn::serve(listener, router(shelf), shutdown).await
}
