//! An axum app served on a loopback port by a thread of its own until
//! dropped: the stand-ins for servers outside the program (the release
//! team's update server, calendar feeds) run on it.

use std::net::SocketAddr;
use std::sync::mpsc;

/// A running loopback server; dropping it stops it and waits for its
/// thread.
pub struct Loopback {
    pub addr: SocketAddr,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Loopback {
    /// Serves `app` on `127.0.0.1` and a free port.
    pub fn serve(app: axum::Router) -> Loopback {
        let (addr_tx, addr_rx) = mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stop_rx.await;
                    })
                    .await
                    .unwrap();
            });
        });
        Loopback {
            addr: addr_rx.recv().unwrap(),
            shutdown: Some(stop_tx),
            thread: Some(thread),
        }
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
