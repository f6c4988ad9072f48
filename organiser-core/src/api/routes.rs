//! The route table: method and path to the core operation, with the
//! read-only, idempotency and authentication flags of each route.

use serde_json::Value;

use super::{Method, Request, Response, Route};
use crate::account::{appearance, owner, tokens};
use crate::deletions::{self, DeletionQuery};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::input::{self, Field};
use crate::task_lists::{self, TaskListQuery};
use crate::tasks::{self, TaskCountsQuery, TaskQuery};
use crate::{discovery, licence, notices, system, vocabulary};

use Method::{Delete, Get, Patch, Post, Put};

const MAX_SEGMENTS: usize = 6;

pub(crate) fn route(req: &Request) -> Result<Route<'_>> {
    // No route has more than a few segments: keep them on the stack.
    let mut parts = [""; MAX_SEGMENTS];
    let mut n = 0;
    for segment in req.path.split('/').filter(|s| !s.is_empty()) {
        if n == MAX_SEGMENTS {
            return Err(Error::NotFound);
        }
        parts[n] = segment;
        n += 1;
    }
    let segments = &parts[..n];
    let auth = &req.auth;
    let body = req.body.as_ref();
    let q = &req.query;
    let plain_http = req.plain_http;

    let route = match (req.method, segments) {
        (Get, [".well-known", "organiser"]) => Route::plain(move |inner| {
            Ok(Response::data(
                200,
                &discovery::discovery(&inner.options.build.version, &req.base_url),
            ))
        })
        .public(),

        // Account
        (Get, ["me"]) => {
            Route::plain(move |inner| Ok(Response::data(200, &owner::me(&inner.no_tx(), auth)?)))
        }
        (Patch | Put, ["me"]) => Route::write(move |cx| {
            let mut f = input::record(body, "me")?;
            let change = owner::parse_change(&mut f);
            f.finish()?;
            Ok(Response::data(200, &owner::change(cx, auth, &change)?))
        })
        .exempt(),
        (Put | Patch, ["me", "username"]) => Route::write(move |cx| {
            let mut f = input::top(body)?;
            let username = f.string("username");
            f.finish()?;
            Ok(Response::data(
                200,
                &owner::set_username(cx, auth, username)?,
            ))
        })
        .exempt(),
        (Put | Patch, ["me", "password"]) => Route::write(move |cx| {
            let mut f = input::top(body)?;
            let current = f.string("current_password");
            let new = f.string("password");
            f.finish()?;
            let current = field_str(&current);
            let new = field_str(&new);
            Ok(Response::data(
                200,
                &owner::set_password(cx, auth, current, new)?,
            ))
        })
        .exempt(),
        (Get, ["appearance"]) => Route::read(|cx| Ok(Response::data(200, &appearance::get(cx)?))),
        (Patch | Put, ["appearance"]) => Route::write(move |cx| {
            let mut f = input::record(body, "appearance")?;
            let change = appearance::parse(&mut f);
            f.finish()?;
            Ok(Response::data(200, &appearance::change(cx, change)?))
        })
        .exempt(),

        // API tokens (session only)
        (Get, ["api_tokens"]) => {
            Route::read(move |cx| Ok(Response::data(200, &tokens::list(cx, auth)?)))
        }
        (Post, ["api_tokens"]) => Route::write(move |cx| {
            auth.require_session()?;
            let mut f = input::record(body, "api_token")?;
            let name = f.string("name");
            let expires_at = match f.raw("expires_at") {
                Field::Value(Value::String(s)) => match crate::time::parse_timestamp(s) {
                    Some(t) => Some(t),
                    None => {
                        f.add(
                            "expires_at",
                            "must be an ISO 8601 date-time with Z or a UTC offset",
                        );
                        None
                    }
                },
                Field::Value(_) => {
                    f.add(
                        "expires_at",
                        "must be an ISO 8601 date-time with Z or a UTC offset",
                    );
                    None
                }
                _ => None,
            };
            f.finish()?;
            let name = field_str(&name).unwrap_or_default();
            let made = tokens::create(cx, auth, name, expires_at)?;
            Ok(Response::data(201, &made))
        })
        .exempt()
        .idempotent(),
        (Delete, ["api_tokens", id]) => {
            let id: u64 = id.parse().map_err(|_| Error::NotFound)?;
            Route::write(move |cx| {
                tokens::revoke(cx, auth, id)?;
                Ok(Response::no_content())
            })
            .exempt()
        }

        // System and updates
        (Get, ["system"]) => {
            Route::read(move |cx| Ok(Response::data(200, &system::get(cx, plain_http)?)))
        }
        (Patch | Put, ["system"]) => Route::write(move |cx| {
            let mut f = input::record(body, "system")?;
            let change = system::parse(&mut f);
            f.finish()?;
            Ok(Response::data(
                200,
                &system::change(cx, change, plain_http)?,
            ))
        })
        .exempt(),
        (Post, ["system", "update_check"]) => Route::plain(move |inner| {
            system::update::check(inner)?;
            inner.read(|cx| Ok(Response::data(200, &system::get(cx, plain_http)?)))
        })
        .exempt(),

        // Licence
        (Get, ["licence"]) => Route::read(|cx| Ok(Response::data(200, &licence::get(cx)?))),
        (Put | Patch, ["licence"]) => Route::write(move |cx| {
            auth.require_session()?;
            let mut f = input::top(body)?;
            let key = f.string("key");
            f.finish()?;
            Ok(Response::data(
                200,
                &licence::add_key(cx, auth, field_str(&key))?,
            ))
        })
        .exempt(),
        (Delete, ["licence"]) => {
            Route::write(move |cx| Ok(Response::data(200, &licence::remove_key(cx, auth)?)))
                .exempt()
        }
        (Post, ["licence", "onboarding"]) => {
            Route::write(move |cx| Ok(Response::data(200, &licence::onboard(cx, auth)?))).exempt()
        }

        // Fixed lists
        (Get, ["vocabulary"]) => Route::plain(|inner| {
            Ok(Response::data(
                200,
                &vocabulary::vocabulary(inner.options.build.is_dev()),
            ))
        }),
        (Get, ["licences"]) => Route::plain(|_| Ok(Response::data(200, notices::notices()))),

        // Sync
        (Get, ["deletions"]) => {
            let query = DeletionQuery::parse(q)?;
            Route::read(move |cx| Ok(Response::json(200, &deletions::list(cx, &query)?.to_body())))
        }

        // Task lists
        (Get, ["task_lists"]) => {
            let query = TaskListQuery::parse(q)?;
            Route::read_settled(move |cx| {
                Ok(Response::json(
                    200,
                    &task_lists::list(cx, &query)?.to_body(),
                ))
            })
        }
        (Post, ["task_lists"]) => Route::write(move |cx| {
            let input = task_lists::parse(body)?;
            Ok(Response::data(201, &task_lists::create(cx, &input)?))
        })
        .idempotent(),
        (Get, ["task_lists", id]) => {
            let id = path_id(id)?;
            Route::read_settled(move |cx| Ok(Response::data(200, &task_lists::get(cx, id)?)))
        }
        (Patch | Put, ["task_lists", id]) => {
            let id = path_id(id)?;
            Route::write(move |cx| {
                let input = task_lists::parse(body)?;
                Ok(Response::data(200, &task_lists::change(cx, id, &input)?))
            })
        }
        (Delete, ["task_lists", id]) => {
            let id = path_id(id)?;
            Route::write(move |cx| {
                task_lists::delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["task_lists", id, "restoration"]) => {
            let id = path_id(id)?;
            Route::write(move |cx| Ok(Response::data(200, &task_lists::restore(cx, id)?)))
                .idempotent()
        }

        // Tasks
        (Get, ["tasks"]) => {
            let query = TaskQuery::parse(q)?;
            Route::read_settled(move |cx| {
                Ok(Response::json(200, &tasks::list(cx, &query)?.to_body()))
            })
        }
        (Post, ["tasks"]) => Route::write(move |cx| {
            let input = tasks::parse(body)?;
            Ok(Response::data(201, &tasks::create(cx, &input)?))
        })
        .idempotent(),
        (Get, ["tasks", id]) => {
            let id = path_id(id)?;
            Route::read_settled(move |cx| Ok(Response::data(200, &tasks::get(cx, id)?)))
        }
        (Patch | Put, ["tasks", id]) => {
            let id = path_id(id)?;
            Route::write(move |cx| {
                let input = tasks::parse(body)?;
                Ok(Response::data(200, &tasks::change(cx, id, &input)?))
            })
        }
        (Delete, ["tasks", id]) => {
            let id = path_id(id)?;
            Route::write(move |cx| {
                tasks::delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["tasks", id, "restoration"]) => {
            let id = path_id(id)?;
            Route::write(move |cx| Ok(Response::data(200, &tasks::restore(cx, id)?))).idempotent()
        }
        (Get, ["task_counts"]) => {
            let query = TaskCountsQuery::parse(q)?;
            Route::read_settled(move |cx| Ok(Response::data(200, &tasks::counts(cx, &query)?)))
        }

        _ => return Err(Error::NotFound),
    };
    Ok(route)
}

/// A path segment that must be an ID; anything else is 404.
fn path_id(segment: &str) -> Result<Id> {
    Id::parse(segment).ok_or(Error::NotFound)
}

fn field_str(f: &Field<String>) -> Option<&str> {
    match f {
        Field::Value(s) => Some(s.as_str()),
        _ => None,
    }
}
