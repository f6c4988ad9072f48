//! `ReqwestClient` against tiny HTTP servers on 127.0.0.1 (a thread and a
//! `TcpListener` each): the guard, redirects by hand, the body cap.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::*;

/// Answers every connection with what `answer` makes of the request's path
/// and keeps each request's head and body.
struct Server {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start(answer: impl Fn(&str) -> String + Send + 'static) -> Server {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = std::thread::spawn({
            let (seen, stop) = (seen.clone(), stop.clone());
            move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(mut stream) = stream else { continue };
                    let request = read_request(&mut stream);
                    let path = request.split_whitespace().nth(1).unwrap_or("").to_owned();
                    seen.lock().unwrap().push(request);
                    let _ = stream.write_all(answer(&path).as_bytes());
                }
            }
        });
        Server {
            addr,
            seen,
            stop,
            thread: Some(thread),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn requests(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The request's head and, when it declares a length, its body.
fn read_request(stream: &mut TcpStream) -> String {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut bytes = Vec::new();
    let mut buf = [0; 1024];
    while !bytes.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
        }
    }
    let head_len = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(bytes.len(), |i| i + 4);
    let length: usize = String::from_utf8_lossy(&bytes[..head_len])
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0);
    while bytes.len() < head_len + length {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn reply(status: &str, headers: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Length: {}\r\n{headers}\r\n{body}",
        body.len()
    )
}

fn redirect(status: &str, to: &str) -> String {
    reply(status, &format!("Location: {to}\r\n"), "")
}

fn allowed(url: &str) -> HttpRequest {
    let mut request = HttpRequest::get(url);
    request.allow_private = true;
    request
}

/// The guard, except that 127.0.0.1 counts as public: the test servers
/// stand in for servers on the internet.
fn loopback_is_public() -> ReqwestClient {
    ReqwestClient {
        refuses: |ip| ip != IpAddr::V4(Ipv4Addr::LOCALHOST) && guard::refuses(ip),
    }
}

#[test]
fn loopback_is_refused_unless_allowed() {
    let server = Server::start(|_| reply("200 OK", "Content-Type: text/plain\r\n", "hello"));
    let client = ReqwestClient::new();

    let refused = client.send(&HttpRequest::get(server.url("/a")));
    assert_eq!(
        refused,
        Err(HttpError::RefusedAddress(Ipv4Addr::LOCALHOST.into()))
    );
    let by_name = client.send(&HttpRequest::get(format!(
        "http://localhost:{}/a",
        server.addr.port()
    )));
    assert!(
        matches!(by_name, Err(HttpError::RefusedAddress(ip)) if ip.is_loopback()),
        "{by_name:?}"
    );
    assert!(server.requests().is_empty(), "nothing was sent");

    let answer = client.send(&allowed(&server.url("/a"))).unwrap();
    assert_eq!(answer.status, 200);
    assert!(answer.is_success());
    assert_eq!(answer.body, b"hello");
    assert_eq!(answer.header("content-type"), Some("text/plain"));
    assert_eq!(answer.final_url, server.url("/a"));
    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].contains(concat!("user-agent: organiser/", env!("CARGO_PKG_VERSION"))),
        "{}",
        sent[0]
    );
}

#[test]
fn a_redirect_to_a_refused_address_is_not_followed() {
    let server = Server::start(|path| match path {
        "/to-loopback" => redirect("302 Found", "http://127.0.0.2:1/secret"),
        "/to-mapped" => redirect("301 Moved Permanently", "http://[::ffff:7f00:2]:1/secret"),
        "/to-metadata" => redirect("307 Temporary Redirect", "http://169.254.169.254/latest"),
        _ => reply("404 Not Found", "", ""),
    });
    let client = loopback_is_public();
    for (path, address) in [
        ("/to-loopback", "127.0.0.2"),
        ("/to-mapped", "::ffff:127.0.0.2"),
        ("/to-metadata", "169.254.169.254"),
    ] {
        assert_eq!(
            client.send(&HttpRequest::get(server.url(path))),
            Err(HttpError::RefusedAddress(address.parse().unwrap())),
            "{path}"
        );
    }
    assert_eq!(server.requests().len(), 3, "only the first hops were sent");
}

#[test]
fn redirects_are_followed_up_to_the_limit() {
    let server = Server::start(|path| match path {
        "/one" => redirect("302 Found", "/two"),
        "/two" => redirect("308 Permanent Redirect", "three"),
        "/three" => reply("200 OK", "", "arrived"),
        "/loop" => redirect("302 Found", "/loop"),
        _ => reply("404 Not Found", "", ""),
    });
    let client = ReqwestClient::new();
    let mut request = allowed(&server.url("/one"));
    request.max_redirects = 2;
    let answer = client.send(&request).unwrap();
    assert_eq!(answer.body, b"arrived");
    assert_eq!(answer.final_url, server.url("/three"));

    request.max_redirects = 1;
    assert_eq!(
        client.send(&request),
        Err(HttpError::TooManyRedirects { limit: 1 })
    );
    request.max_redirects = 0;
    assert_eq!(
        client.send(&request),
        Err(HttpError::TooManyRedirects { limit: 0 })
    );

    let before = server.requests().len();
    let mut looping = allowed(&server.url("/loop"));
    looping.max_redirects = 3;
    assert_eq!(
        client.send(&looping),
        Err(HttpError::TooManyRedirects { limit: 3 })
    );
    assert_eq!(server.requests().len() - before, 4, "the first and 3 hops");
}

#[test]
fn credentials_stay_with_their_origin_and_303_turns_a_post_into_a_get() {
    let other = Server::start(|_| reply("200 OK", "", "elsewhere"));
    let to_other = other.url("/landing");
    let server = Server::start(move |path| match path {
        "/same" => redirect("303 See Other", "/landing"),
        "/cross" => redirect("307 Temporary Redirect", &to_other),
        _ => reply("200 OK", "", "here"),
    });
    let client = ReqwestClient::new();

    let post = |url: String| {
        let mut request = HttpRequest::post(url, b"{\"a\":1}".to_vec())
            .with_header("Authorization", "Bearer secret")
            .with_header("Content-Type", "application/json");
        request.allow_private = true;
        request
    };
    let same = client.send(&post(server.url("/same"))).unwrap();
    assert_eq!(same.body, b"here");
    let landing = &server.requests()[1];
    assert!(landing.starts_with("GET /landing "), "{landing}");
    assert!(
        landing.contains("authorization: Bearer secret"),
        "{landing}"
    );
    assert!(!landing.contains("content-type"), "{landing}");

    let cross = client.send(&post(server.url("/cross"))).unwrap();
    assert_eq!(cross.body, b"elsewhere");
    let landing = &other.requests()[0];
    assert!(landing.starts_with("POST /landing "), "{landing}");
    assert!(landing.ends_with("{\"a\":1}"), "{landing}");
    assert!(!landing.contains("authorization"), "{landing}");
}

#[test]
fn bodies_are_capped() {
    let server = Server::start(|path| match path {
        "/declared" => reply("200 OK", "", "0123456789"),
        // No length: the body runs until the connection closes.
        _ => "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n0123456789".to_owned(),
    });
    let client = ReqwestClient::new();
    for path in ["/declared", "/undeclared"] {
        let mut request = allowed(&server.url(path));
        request.max_body_bytes = 9;
        assert_eq!(
            client.send(&request),
            Err(HttpError::BodyTooBig { limit: 9 }),
            "{path}"
        );
        request.max_body_bytes = 10;
        assert_eq!(client.send(&request).unwrap().body, b"0123456789", "{path}");
    }
}

#[test]
fn failures_name_their_cause() {
    let client = ReqwestClient::new();
    for url in ["ftp://example.com/", "not a url", "file:///etc/passwd"] {
        assert!(
            matches!(client.send(&allowed(url)), Err(HttpError::InvalidUrl(_))),
            "{url}"
        );
    }

    let closed = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let refused = client.send(&allowed(&format!("http://127.0.0.1:{port}/")));
    assert!(matches!(refused, Err(HttpError::Connect(_))), "{refused:?}");

    // Plain HTTP where TLS was expected: the server reads the ClientHello
    // record whole, so it closes with nothing unread.
    let plain = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let url = format!("https://{}/", plain.local_addr().unwrap());
    let answering = std::thread::spawn(move || {
        let (mut stream, _) = plain.accept().unwrap();
        let mut header = [0; 5];
        stream.read_exact(&mut header).unwrap();
        let mut hello = vec![0; usize::from(u16::from_be_bytes([header[3], header[4]]))];
        stream.read_exact(&mut hello).unwrap();
        stream
            .write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n")
            .unwrap();
    });
    let tls = client.send(&allowed(&url));
    answering.join().unwrap();
    assert!(matches!(tls, Err(HttpError::Tls(_))), "{tls:?}");

    // Accepted by the kernel, never answered.
    let silent = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let mut request = allowed(&format!("http://{}/", silent.local_addr().unwrap()));
    request.timeout = Duration::from_millis(200);
    assert_eq!(client.send(&request), Err(HttpError::Timeout));
}

#[test]
fn a_redirects_own_user_and_password_are_never_sent() {
    let other = Server::start(|_| reply("200 OK", "", "elsewhere"));
    let to_other = other
        .url("/landing")
        .replacen("http://", "http://user:pw@", 1);
    let server = Server::start(move |path| match path {
        "/cross" => redirect("302 Found", &to_other),
        "/same" => redirect("302 Found", "/landing"),
        _ => reply("200 OK", "", "here"),
    });
    let client = ReqwestClient::new();
    let cross = client.send(&allowed(&server.url("/cross"))).unwrap();
    assert_eq!(cross.body, b"elsewhere");
    let landing = &other.requests()[0];
    assert!(
        !landing.to_lowercase().contains("authorization"),
        "{landing}"
    );

    // The owner's own credentials go to their origin, and stay there.
    let with_user = server
        .url("/same")
        .replacen("http://", "http://me:secret@", 1);
    client.send(&allowed(&with_user)).unwrap();
    let seen = server.requests();
    assert!(
        seen.iter()
            .rev()
            .take(2)
            .all(|r| r.contains("authorization: Basic")),
        "{seen:?}"
    );
}

/// A server that sends its head, then a byte every 100 ms (a feed that
/// answers and then drips).
fn dripping() -> (SocketAddr, JoinHandle<()>) {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let addr = listener.local_addr().unwrap();
    let thread = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        read_request(&mut stream);
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
        for _ in 0..1000 {
            if stream.write_all(b"x").is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    (addr, thread)
}

#[test]
fn the_timeout_is_a_deadline_across_slow_reads() {
    let (addr, server) = dripping();
    let mut request = allowed(&format!("http://{addr}/feed.ics"));
    request.timeout = Duration::from_secs(1);
    let started = Instant::now();
    assert_eq!(ReqwestClient::new().send(&request), Err(HttpError::Timeout));
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(1_500),
        "answered after {took:?}"
    );
    // The exchange's thread lets go of the connection at its next read.
    server.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
}
