//! `organiser serve`: serves the JSON API until SIGINT or SIGTERM.

use std::net::SocketAddr;

use clap::Args;
use organiser_server::{Config, ServerFile, ServerInfo};

use super::Global;
use crate::backend::{data_dir, open_error, open_store};
use crate::error::CliError;

/// The address `serve` listens on unless `--listen` says otherwise.
pub(crate) const DEFAULT_LISTEN: &str = "127.0.0.1:7420";

#[derive(Debug, Args)]
pub(crate) struct Serve {
    /// The address to listen on.
    #[arg(long, default_value = DEFAULT_LISTEN, value_name = "ADDR")]
    listen: SocketAddr,
}

impl Serve {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        init_logging();
        let mut config = Config::from_env().map_err(CliError::msg)?;
        let dir = data_dir(global.data_dir.as_deref())?;
        let org = open_store(&dir).map_err(|e| open_error(&dir, e))?;
        let token = ServerFile::new_token();
        config.local_token = Some(token.clone());
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| CliError::msg(format!("cannot start the runtime: {e}")))?;
        runtime.block_on(async move {
            // Signals are caught from here on, before server.json tells
            // anyone the server is up.
            let shutdown = organiser_server::shutdown_signal()
                .map_err(|e| CliError::msg(format!("cannot catch signals: {e}")))?;
            let listener = tokio::net::TcpListener::bind(self.listen)
                .await
                .map_err(|e| CliError::msg(format!("cannot listen on {}: {e}", self.listen)))?;
            let addr = listener.local_addr()?;
            let url = format!("http://{addr}");
            let _file = ServerFile::write(
                &dir,
                &ServerInfo {
                    url: url.clone(),
                    token,
                    pid: std::process::id(),
                },
            )
            .map_err(|e| {
                CliError::msg(format!(
                    "cannot write server.json in {}: {e}",
                    dir.display()
                ))
            })?;
            tracing::info!(%url, data_dir = %dir.display(), "serving");
            // With JSON logs, standard error holds only JSON lines.
            if !json_logs() {
                eprintln!("Serving {} on {url} (Ctrl-C to stop)", dir.display());
            }
            first_run_link(&org, config.public_url.as_deref().unwrap_or(&url));
            organiser_server::serve(listener, org, config, shutdown)
                .await
                .map_err(|e| CliError::msg(format!("the server stopped: {e}")))
        })
    }
}

/// With no password set, a one-time sign-in link for the web app in the
/// log (EXTENSIONS.md §6): the way in on a first run.
fn first_run_link(org: &organiser_core::Organiser, base: &str) {
    let has_password = org.account().me().map_or(true, |me| me.has_password);
    if has_password {
        return;
    }
    match org.account().sign_in_link() {
        Ok(link) => {
            let url = format!("{}{}", base.trim_end_matches('/'), link.url);
            tracing::info!(%url, "no password is set: open this link within 15 minutes to sign in once and choose one");
            if !json_logs() {
                eprintln!(
                    "No password is set yet: open {url} within 15 minutes to sign in and choose one (`organiser web link` makes a new link)."
                );
            }
        }
        Err(error) => tracing::warn!(%error, "no sign-in link could be made"),
    }
}

/// Structured request logs on standard error: `ORGANISER_LOG=json` for JSON
/// lines; `RUST_LOG` filters (default `info`).
fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    if json_logs() {
        let _ = builder.json().flatten_event(true).try_init();
    } else {
        let _ = builder.try_init();
    }
}

/// Whether `ORGANISER_LOG=json` asks for JSON logs.
fn json_logs() -> bool {
    std::env::var("ORGANISER_LOG").is_ok_and(|v| v.trim() == "json")
}
