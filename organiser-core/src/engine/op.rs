//! Operations declared once (document 1, "Read-only mode", "Idempotency",
//! "Authentication"): each API operation states here how it runs (on a
//! snapshot, on a settled snapshot, in a write transaction, or with no
//! transaction of its own), whether read-only mode refuses it, whether it
//! honours `Idempotency-Key` and whether it needs a principal. The typed
//! method for embedders and the route arm both run through the same
//! declaration, so the licence check, the transaction kind and idempotency
//! cannot drift apart between the two doors.

use super::bodies::Bodies;
use super::{Inner, ReadCx, WriteCx};
use crate::engine::request::{Request, Response};
use crate::error::Result;

/// An operation that only reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReadOp {
    /// Settle what the clock made due (expiry, the today set, permanent
    /// deletes) before reading: every read of records the clock changes.
    settled: bool,
    /// Its answer depends on the snapshot, the day and the request alone
    /// (not on the principal or the instant), so it is kept between
    /// requests of one commit generation (`engine::bodies`).
    kept: bool,
    /// Answers without a principal (a calendar subscription's feed, whose
    /// secret address is its credential).
    public: bool,
    /// Its work may take tens of milliseconds (a calendar feed written
    /// afresh): it runs where blocking is fine, never on the server's
    /// async workers.
    slow: bool,
}

impl ReadOp {
    /// Reads a snapshot as it is.
    pub(crate) const PLAIN: ReadOp = ReadOp {
        settled: false,
        kept: false,
        public: false,
        slow: false,
    };
    /// Reads a snapshot in which nothing the clock made due is left.
    pub(crate) const SETTLED: ReadOp = ReadOp {
        settled: true,
        kept: false,
        public: false,
        slow: false,
    };

    /// The same read, its answers kept between requests of one generation.
    pub(crate) const fn kept(self) -> ReadOp {
        ReadOp { kept: true, ..self }
    }

    /// The same read, for anyone: what it reads is named by a secret in
    /// its input, which it checks itself.
    pub(crate) const fn public(self) -> ReadOp {
        ReadOp {
            public: true,
            ..self
        }
    }

    /// Whether it answers without a principal.
    pub(crate) const fn is_public(&self) -> bool {
        self.public
    }

    /// The same read, run where blocking is fine: its work may take tens
    /// of milliseconds.
    pub(crate) const fn slow(self) -> ReadOp {
        ReadOp { slow: true, ..self }
    }

    /// The route arm of this operation: `f` runs on the snapshot.
    pub(crate) fn route<'r>(
        &'static self,
        f: impl FnOnce(&ReadCx<'_>) -> Result<Response> + 'r,
    ) -> Route<'r> {
        Route {
            kind: RouteKind::Read(self, Box::new(f)),
        }
    }
}

/// An operation that writes, in one write transaction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WriteOp {
    /// Allowed while the licence is read-only (document 1, "Read-only
    /// mode": the settings, the account, the licence itself).
    exempt: bool,
    /// A creating or restoring POST that honours `Idempotency-Key`.
    idempotent: bool,
}

/// Prepares a write before its transaction opens (parses the body); the
/// work then runs in the transaction.
type Prepare<'r> = Box<dyn FnOnce(&Inner) -> Result<WriteFn<'r>> + 'r>;
type WriteFn<'r> = Box<dyn FnOnce(&mut WriteCx<'_>) -> Result<Response> + 'r>;
type ReadFn<'r> = Box<dyn FnOnce(&ReadCx<'_>) -> Result<Response> + 'r>;
type PlainFn<'r> = Box<dyn FnOnce(&Inner) -> Result<Response> + 'r>;

impl WriteOp {
    /// A write that read-only mode refuses.
    pub(crate) const LICENSED: WriteOp = WriteOp {
        exempt: false,
        idempotent: false,
    };
    /// A write that read-only mode allows.
    pub(crate) const EXEMPT: WriteOp = WriteOp {
        exempt: true,
        idempotent: false,
    };

    /// The same write, honouring `Idempotency-Key`.
    pub(crate) const fn idempotent(self) -> WriteOp {
        WriteOp {
            idempotent: true,
            ..self
        }
    }

    /// Whether read-only mode refuses it.
    pub(crate) fn licensed(&self) -> bool {
        !self.exempt
    }

    /// The route arm of this operation: `prepare` reads the request (and
    /// does slow work such as decoding an upload) before the transaction
    /// opens; `run` does the work inside it.
    pub(crate) fn route_with<'r, I: 'r>(
        &'static self,
        prepare: impl FnOnce(&Inner) -> Result<I> + 'r,
        run: impl FnOnce(&mut WriteCx<'_>, I) -> Result<Response> + 'r,
    ) -> Route<'r> {
        let prepare = move |inner: &Inner| -> Result<WriteFn<'r>> {
            let input = prepare(inner)?;
            Ok(Box::new(move |cx: &mut WriteCx<'_>| run(cx, input)))
        };
        Route {
            kind: RouteKind::Write(self, Box::new(prepare)),
        }
    }
}

/// An operation with no transaction of its own: fixed data, data kept in
/// memory, or work that waits on the network and opens its own
/// transactions around the wait. Read-only mode refuses one declared
/// [`PlainOp::licensed`] before it runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlainOp {
    /// Answers without a principal.
    public: bool,
    /// Waits on the network or the disk (and so runs where blocking is fine).
    waits: bool,
    /// Refused while the licence is read-only (checked before it runs).
    licensed: bool,
}

impl PlainOp {
    /// Whether it answers without a principal.
    pub(crate) const fn is_public(&self) -> bool {
        self.public
    }

    /// Answers from memory, for a principal.
    pub(crate) const PRIVATE: PlainOp = PlainOp {
        public: false,
        waits: false,
        licensed: false,
    };
    /// Answers from memory, for anyone (discovery).
    pub(crate) const PUBLIC: PlainOp = PlainOp {
        public: true,
        waits: false,
        licensed: false,
    };
    /// Reads files, for anyone (a photo's bytes): off the server's async
    /// workers, as blocking work.
    pub(crate) const PUBLIC_FILES: PlainOp = PlainOp {
        public: true,
        waits: true,
        licensed: false,
    };
    /// Reads files, for a principal (a document's bytes): off the server's
    /// async workers, as blocking work.
    pub(crate) const PRIVATE_FILES: PlainOp = PlainOp {
        public: false,
        waits: true,
        licensed: false,
    };
    /// Waits on the network, then writes what it learnt (update checks).
    pub(crate) const WAITS: PlainOp = PlainOp {
        public: false,
        waits: true,
        licensed: false,
    };

    /// The same, refused while the licence is read-only (a feed sync, a
    /// call to a model): checked before it runs, by either door.
    pub(crate) const fn licensed(self) -> PlainOp {
        PlainOp {
            licensed: true,
            ..self
        }
    }

    /// Whether read-only mode refuses it.
    pub(crate) fn is_licensed(&self) -> bool {
        self.licensed
    }

    /// The route arm of this operation.
    pub(crate) fn route<'r>(
        &'static self,
        f: impl FnOnce(&Inner) -> Result<Response> + 'r,
    ) -> Route<'r> {
        Route {
            kind: RouteKind::Plain(self, Box::new(f)),
        }
    }
}

/// A matched route: its operation's declaration and its work.
pub(crate) struct Route<'r> {
    kind: RouteKind<'r>,
}

enum RouteKind<'r> {
    Read(&'static ReadOp, ReadFn<'r>),
    Write(&'static WriteOp, Prepare<'r>),
    Plain(&'static PlainOp, PlainFn<'r>),
}

impl Route<'_> {
    /// Answers without authentication.
    pub(crate) fn public(&self) -> bool {
        match self.kind {
            RouteKind::Plain(op, _) => op.public,
            RouteKind::Read(op, _) => op.public,
            RouteKind::Write(..) => false,
        }
    }

    /// Refused while the licence is read-only.
    pub(crate) fn licensed(&self) -> bool {
        match &self.kind {
            RouteKind::Write(op, _) => op.licensed(),
            RouteKind::Plain(op, _) => op.licensed,
            RouteKind::Read(..) => false,
        }
    }

    /// Honours `Idempotency-Key`.
    pub(crate) fn idempotent(&self) -> bool {
        matches!(self.kind, RouteKind::Write(op, _) if op.idempotent)
    }

    /// Answers now if that needs no wait on the disk or the network: a
    /// read with nothing for the clock to settle, or a plain operation
    /// that answers from memory; `None` (the route unused) for a write, a
    /// plain operation that fetches, a read that must settle first, or a
    /// slow one.
    pub(crate) fn answer_now(self, inner: &Inner, request: &Request) -> Result<Option<Response>> {
        match self.kind {
            RouteKind::Read(op, _) if op.slow => Ok(None),
            RouteKind::Read(op, f) if op.settled => {
                inner.read_settled_now(|cx| keep(inner, op, request, cx, f))
            }
            RouteKind::Read(op, f) => inner.read(|cx| keep(inner, op, request, cx, f)).map(Some),
            RouteKind::Plain(op, f) if !op.waits => f(inner).map(Some),
            RouteKind::Plain(..) | RouteKind::Write(..) => Ok(None),
        }
    }

    /// Runs the route; `after` runs inside a write's transaction once the
    /// work succeeded (to store an idempotent response with it).
    pub(crate) fn run(
        self,
        inner: &Inner,
        request: &Request,
        after: impl FnOnce(&mut WriteCx<'_>, &Response) -> Result<()>,
    ) -> Result<Response> {
        match self.kind {
            RouteKind::Read(op, f) => inner.read_op(op, |cx| keep(inner, op, request, cx, f)),
            RouteKind::Plain(_, f) => f(inner),
            RouteKind::Write(_, prepare) => {
                let f = prepare(inner)?;
                inner.write(|cx| {
                    let response = f(cx)?;
                    after(cx, &response)?;
                    Ok(response)
                })
            }
        }
    }
}

/// Runs the read `f` of `request` on `cx`, through the kept answers when
/// `op` says so.
fn keep(
    inner: &Inner,
    op: &ReadOp,
    request: &Request,
    cx: &ReadCx<'_>,
    f: ReadFn<'_>,
) -> Result<Response> {
    if op.kept {
        inner
            .ext
            .get::<Bodies>()
            .answer(cx, &request.cache_key(), f)
    } else {
        f(cx)
    }
}

impl Inner {
    /// Runs a read operation `f` as `op` declares.
    pub(crate) fn read_op<T>(
        &self,
        op: &ReadOp,
        f: impl FnOnce(&ReadCx<'_>) -> Result<T>,
    ) -> Result<T> {
        if op.settled {
            self.read_settled(f)
        } else {
            self.read(f)
        }
    }

    /// Runs a write operation `f` as `op` declares: refused (403
    /// `read_only`) while the licence is read-only unless `op` is exempt.
    pub(crate) fn write_op<T>(
        &self,
        op: &WriteOp,
        f: impl FnOnce(&mut WriteCx<'_>) -> Result<T>,
    ) -> Result<T> {
        self.write(|cx| {
            if op.licensed() {
                (self.wiring.require_writable_in_write)(cx)?;
            }
            f(cx)
        })
    }

    /// 403 `read_only` while the licence state is read-only.
    pub(crate) fn require_writable(&self) -> Result<()> {
        self.read(self.wiring.require_writable)
    }
}
