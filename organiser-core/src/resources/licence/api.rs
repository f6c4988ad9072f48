//! The licence's operations (document 1, "Licence"; DESIGN.md: `PUT` and
//! `DELETE /licence` are session only), each declared once, and
//! [`Licensing`], their typed door. All are exempt from read-only mode:
//! adding a key is how the owner leaves it.

use serde::{Deserialize, Serialize};

use super::{Licence, add_key, get, onboard, remove_key};
use crate::auth::Auth;
use crate::engine::Organiser;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::input;

/// `{key}` of `PUT /licence` (not wrapped).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LicenceKey {
    key: Option<String>,
}

body_part!(
    LicenceKey,
    |body: Option<&serde_json::Value>| {
        let mut f = input::top(body)?;
        let key = f.string("key");
        f.finish()?;
        Ok(LicenceKey { key: key.value() })
    },
    None
);

/// `GET /licence`.
pub(crate) static GET: Operation<(), Licence> = Operation::new(
    "getLicence",
    Get,
    "/licence",
    "The licence",
    Run::Read(ReadOp::PLAIN, |cx, ()| get(cx)),
    Answer::data(200),
);

/// `PUT` (or `PATCH`) `/licence`.
pub(crate) static ADD_KEY: Operation<(Auth, LicenceKey), Licence> = Operation::new(
    "putLicence",
    Put,
    "/licence",
    "Add a licence key\n\nThe key already stored is 422 `already_added`. Session only: 403 `session_required` under an API token (the owner at the machine may). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, (auth, input): (Auth, LicenceKey)| {
        add_key(cx, &auth, input.key.as_deref())
    }),
    Answer::data(200),
)
.also(Patch, "patchLicence")
.session_only();

/// `DELETE /licence`.
pub(crate) static REMOVE_KEY: Operation<Auth, Licence> = Operation::new(
    "removeLicence",
    Delete,
    "/licence",
    "Remove the licence key\n\n404 when no key is stored. Session only: 403 `session_required` under an API token (the owner at the machine may). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, auth| remove_key(cx, &auth)),
    Answer::data(200),
)
.session_only();

/// `POST /licence/onboarding`.
pub(crate) static ONBOARD: Operation<Auth, Licence> = Operation::new(
    "onboard",
    Post,
    "/licence/onboarding",
    "Answer the welcome\n\nSession only: 403 `session_required` under an API token (the owner at the machine may). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, auth| onboard(cx, &auth)),
    Answer::data(200),
)
.session_only();

/// The licence's operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&GET, &ADD_KEY, &REMOVE_KEY, &ONBOARD];

/// The licence of a store (document 1, "Licence"), through a [`Door`]:
/// the store itself (`org.licence()`), or a server that holds it. Its
/// changes are the owner's: a remote door's token is refused them.
#[derive(Debug, Clone, Copy)]
pub struct Licensing<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Licensing<'d, D> {
    /// The licence of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Licensing { door }
    }

    /// The licence state: the trial, a key, or read-only.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn get(&self) -> Result<Licence> {
        self.door.call(&GET, ())
    }

    /// Adds licence key `key`, as the owner.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a key that does
    /// not verify; [`Error::AlreadyAdded`](crate::Error::AlreadyAdded) for
    /// the key already stored; [`Error::SessionRequired`](crate::Error::SessionRequired)
    /// through a remote door under an API token.
    pub fn add_key(&self, key: &str) -> Result<Licence> {
        let input = LicenceKey {
            key: Some(key.to_owned()),
        };
        self.door.call(&ADD_KEY, (Auth::Local, input))
    }

    /// Removes the stored key, as the owner.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) when no key is stored;
    /// [`Error::SessionRequired`](crate::Error::SessionRequired) as
    /// [`Licensing::add_key`].
    pub fn remove_key(&self) -> Result<Licence> {
        self.door.call(&REMOVE_KEY, Auth::Local)
    }

    /// Answers the welcome, as the owner.
    ///
    /// # Errors
    ///
    /// [`Error::SessionRequired`](crate::Error::SessionRequired) as
    /// [`Licensing::add_key`].
    pub fn finish_onboarding(&self) -> Result<Licence> {
        self.door.call(&ONBOARD, Auth::Local)
    }
}

impl Organiser {
    /// The store's licence.
    pub fn licence(&self) -> Licensing<'_> {
        Licensing::new(self)
    }
}
