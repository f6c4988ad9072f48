//! The account's operations (document 1, "Me", "Appearance", "API
//! tokens"; DESIGN.md session-only operations), each declared once, and
//! [`Account`], their typed door. The account is exempt from read-only
//! mode: the owner can always fix their settings and their licence.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::sessions::SignInLink;
use super::{appearance, owner, sessions, tokens};
use std::time::Duration;

use crate::auth::{ApiToken, Auth};
use crate::engine::Organiser;
use crate::engine::jobs::{Job, Pace, Ran};
use crate::engine::op::{PlainOp, ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::input::{self, Field};
use crate::{Appearance, AppearanceChange, Me, NewToken, OwnerChange, OwnerInit, SignedIn};

/// A new username: `{username}` (not wrapped).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UsernameChange {
    /// The username.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub username: Field<String>,
}

/// A new password: `{password, current_password?}` (not wrapped).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PasswordChange {
    /// The new password.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// The current one, required once a password is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_password: Option<String>,
}

/// A new API token: `{api_token: {name, expires_at?}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiTokenInput {
    /// The owner's label for it.
    pub name: String,
    /// When it stops working; none for never.
    #[serde(
        with = "crate::time::serde_timestamp::option",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub expires_at: Option<Timestamp>,
}

body_part!(
    OwnerChange,
    |body| input::parse_record(body, "me", owner::parse_change),
    Some("me")
);
body_part!(
    UsernameChange,
    |body| owner::parse_username(body).map(|username| UsernameChange { username }),
    None
);
body_part!(
    PasswordChange,
    |body| {
        owner::parse_password(body).map(|(current_password, password)| PasswordChange {
            password,
            current_password,
        })
    },
    None
);
body_part!(
    AppearanceChange,
    |body| input::parse_record(body, "appearance", appearance::parse),
    Some("appearance")
);
body_part!(
    ApiTokenInput,
    |body| tokens::parse(body).map(|(name, expires_at)| ApiTokenInput { name, expires_at }),
    Some("api_token")
);

pub(crate) static ME: Operation<Auth, Me> = Operation::new(
    "getMe",
    Get,
    "/me",
    "The owner",
    Run::Plain(PlainOp::PRIVATE, |inner, auth| {
        owner::me(&inner.no_tx(), &auth)
    }),
    Answer::data(200),
);

pub(crate) static CHANGE_ME: Operation<(Auth, OwnerChange), Me> = Operation::new(
    "patchMe",
    Patch,
    "/me",
    "Change the owner's name or zone\n\nNot in the spec (which leaves it to the web UI). Session only: 403 `session_required` under an API token (the owner at the machine may). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, (auth, change): (Auth, OwnerChange)| {
        owner::change(cx, &auth, &change)
    }),
    Answer::data(200),
)
.also(Put, "putMe");

pub(crate) static SET_USERNAME: Operation<(Auth, UsernameChange), Me> = Operation::new(
    "putUsername",
    Put,
    "/me/username",
    "Change the username\n\nSession only: 403 `session_required` under an API token (the owner at the machine may). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, (auth, input): (Auth, UsernameChange)| {
        owner::set_username(cx, &auth, input.username)
    }),
    Answer::data(200),
)
.also(Patch, "patchUsername");

pub(crate) static SET_PASSWORD: Operation<(Auth, PasswordChange), Me> = Operation::new(
    "putPassword",
    Put,
    "/me/password",
    "Set the password\n\nA wrong `current_password` is 422 on it. Session only: 403 `session_required` under an API token (the owner at the machine may). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, (auth, input): (Auth, PasswordChange)| {
        owner::set_password(
            cx,
            &auth,
            input.current_password.as_deref(),
            input.password.as_deref(),
        )
    }),
    Answer::data(200),
)
.also(Patch, "patchPassword");

pub(crate) static APPEARANCE: Operation<(), Appearance> = Operation::new(
    "getAppearance",
    Get,
    "/appearance",
    "Appearance",
    Run::Read(ReadOp::PLAIN, |cx, ()| appearance::get(cx)),
    Answer::data(200),
);

pub(crate) static CHANGE_APPEARANCE: Operation<AppearanceChange, Appearance> = Operation::new(
    "patchAppearance",
    Patch,
    "/appearance",
    "Change the appearance\n\nAllowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, appearance::change),
    Answer::data(200),
)
.also(Put, "putAppearance");

pub(crate) static TOKENS: Operation<Auth, Vec<ApiToken>> = Operation::new(
    "listApiTokens",
    Get,
    "/api_tokens",
    "API tokens\n\nSession only: 403 `session_required` under an API token (the owner at the machine may).",
    Run::Read(ReadOp::PLAIN, |cx, auth| tokens::list(cx, &auth)),
    Answer::data(200),
);

pub(crate) static CREATE_TOKEN: Operation<(Auth, ApiTokenInput), NewToken> = Operation::new(
    "createApiToken",
    Post,
    "/api_tokens",
    "Make an API token\n\nSession only: 403 `session_required` under an API token (the owner at the machine may). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT.idempotent(), |cx, (auth, input): (Auth, ApiTokenInput)| {
        tokens::create(cx, &auth, &input.name, input.expires_at)
    }),
    Answer::data(201),
)
.session_only();

/// `POST /sign_in_links`.
pub(crate) static CREATE_SIGN_IN_LINK: Operation<(), SignInLink> = Operation::new(
    "createSignInLink",
    Post,
    "/sign_in_links",
    "Make a one-time sign-in link\n\nThe web app's address `/sign-in/once/{secret}` (EXTENSIONS.md §6), shown in this answer only: it signs in once, within 15 minutes, and asks for a password when none is set. It replaces the link made before. Session only (the owner at the machine may: `organiser web link`). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, ()| sessions::make_link(cx)),
    Answer::data(201).absolute(sessions::absolute),
)
.session_only();

pub(crate) static REVOKE_TOKEN: Operation<(Auth, u64), ()> = Operation::new(
    "revokeApiToken",
    Delete,
    "/api_tokens/{id}",
    "Revoke an API token\n\nSession only: 403 `session_required` under an API token (the owner at the machine may). Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, (auth, id)| {
        tokens::revoke(cx, &auth, id)
    }),
    Answer::empty(),
);

/// The account's operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &ME,
    &CHANGE_ME,
    &SET_USERNAME,
    &SET_PASSWORD,
    &APPEARANCE,
    &CHANGE_APPEARANCE,
    &TOKENS,
    &CREATE_TOKEN,
    &REVOKE_TOKEN,
    &CREATE_SIGN_IN_LINK,
];

/// The owner's account (document 1, "Me", "Appearance", "API tokens"),
/// through a [`Door`]: the store itself (`org.account()`), as the owner
/// at the machine, or a server that holds it, as its token.
#[derive(Debug, Clone, Copy)]
pub struct Account<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Account<'d, D> {
    /// The account of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Account { door }
    }

    /// The owner: name, username, zone and today in it.
    ///
    /// # Errors
    ///
    /// [`Error::Unauthorized`](crate::Error::Unauthorized) before the
    /// owner is set up.
    pub fn me(&self) -> Result<Me> {
        self.door.call(&ME, Auth::Local)
    }

    /// Changes the owner's name or zone, as `change` sends.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a blank name or
    /// an unknown zone; [`Error::SessionRequired`](crate::Error::SessionRequired)
    /// under an API token.
    pub fn change_me(&self, change: OwnerChange) -> Result<Me> {
        self.door.call(&CHANGE_ME, (Auth::Local, change))
    }

    /// Changes the username.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a blank or
    /// malformed one; as [`Account::change_me`] under an API token.
    pub fn set_username(&self, username: &str) -> Result<Me> {
        let input = UsernameChange {
            username: Field::Value(username.to_owned()),
        };
        self.door.call(&SET_USERNAME, (Auth::Local, input))
    }

    /// Sets the password; `current` is required once one is set.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a wrong current
    /// password or a new one too short; as [`Account::change_me`] under an
    /// API token.
    pub fn set_password(&self, current: Option<&str>, new: &str) -> Result<Me> {
        let input = PasswordChange {
            password: Some(new.to_owned()),
            current_password: current.map(str::to_owned),
        };
        self.door.call(&SET_PASSWORD, (Auth::Local, input))
    }

    /// The appearance: accent, theme, date format, code theme.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn appearance(&self) -> Result<Appearance> {
        self.door.call(&APPEARANCE, ())
    }

    /// Changes what `change` sends of the appearance.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a value the
    /// vocabulary does not have.
    pub fn change_appearance(&self, change: AppearanceChange) -> Result<Appearance> {
        self.door.call(&CHANGE_APPEARANCE, change)
    }

    /// The API tokens (their secrets are never shown again).
    ///
    /// # Errors
    ///
    /// [`Error::SessionRequired`](crate::Error::SessionRequired) under an
    /// API token.
    pub fn tokens(&self) -> Result<Vec<ApiToken>> {
        self.door.call(&TOKENS, Auth::Local)
    }

    /// Makes an API token named `name`, expiring at `expires_at` (none for
    /// never); its secret is shown only here.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a blank name or
    /// an expiry in the past; as [`Account::tokens`].
    pub fn create_token(&self, name: &str, expires_at: Option<Timestamp>) -> Result<NewToken> {
        let input = ApiTokenInput {
            name: name.to_owned(),
            expires_at,
        };
        self.door.call(&CREATE_TOKEN, (Auth::Local, input))
    }

    /// Revokes API token number `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown number;
    /// as [`Account::tokens`].
    pub fn revoke_token(&self, id: u64) -> Result<()> {
        self.door.call(&REVOKE_TOKEN, (Auth::Local, id))
    }

    /// A new one-time sign-in link for the web app (EXTENSIONS.md §6),
    /// valid for 15 minutes and spent by its first visit; it replaces the
    /// one made before. `organiser serve` makes one when no password is
    /// set, and `organiser web link` on demand: whoever can run those may
    /// sign in. In process its `url` is the path; a server answers it
    /// absolute.
    ///
    /// # Errors
    ///
    /// [`Error::SessionRequired`](crate::Error::SessionRequired) under an
    /// API token.
    pub fn sign_in_link(&self) -> Result<SignInLink> {
        self.door.call(&CREATE_SIGN_IN_LINK, ())
    }
}

impl Organiser {
    /// The owner's account.
    pub fn account(&self) -> Account<'_> {
        Account::new(self)
    }

    /// The owner as `auth` sees it (`GET /me`: a token's principal
    /// carries its token).
    ///
    /// # Errors
    ///
    /// [`Error::Unauthorized`](crate::Error::Unauthorized) for an anonymous
    /// caller; the store's.
    pub fn me(&self, auth: &Auth) -> Result<Me> {
        owner::me(&self.inner.no_tx(), auth)
    }

    /// Sets the owner up (`organiser init`): username, password, name and
    /// zone; the owner as set.
    ///
    /// # Errors
    ///
    /// [`Error::Conflict`](crate::Error::Conflict) once set up;
    /// [`Error::Validation`](crate::Error::Validation) on a field the rules
    /// refuse; the store's.
    pub fn init_owner(&self, init: &OwnerInit) -> Result<Me> {
        self.inner
            .write_op(&WriteOp::EXEMPT, |cx| owner::init(cx, init))
    }

    /// The principal a bearer token authenticates as; 401 when it does not.
    /// Reads the store only the first time a token is seen; its use is kept
    /// in memory until [`Organiser::flush_token_uses`].
    ///
    /// # Errors
    ///
    /// [`Error::Unauthorized`](crate::Error::Unauthorized) for a token that
    /// is unknown, revoked or expired; the store's.
    pub fn authenticate_token(&self, bearer: &str) -> Result<Auth> {
        tokens::authenticate(&self.inner, bearer).map(Auth::Token)
    }

    /// Writes the `last_used_at` of tokens used since the last flush (the
    /// server does this every minute and on shutdown); whether anything
    /// was written.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn flush_token_uses(&self) -> Result<bool> {
        tokens::flush_uses(&self.inner)
    }

    /// Signs the owner in with username and password: the session's
    /// secret and when it expires.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `base` when the
    /// username or the password is wrong (which one is not said) or the
    /// owner has no password yet; the store's.
    pub fn sign_in(&self, username: &str, password: &str) -> Result<SignedIn> {
        self.inner.write_op(&WriteOp::EXEMPT, |cx| {
            sessions::sign_in(cx, username, password)
        })
    }

    /// Ends the session whose secret this is (an unknown one is already
    /// ended).
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn sign_out(&self, session_secret: &str) -> Result<()> {
        self.inner.write_op(&WriteOp::EXEMPT, |cx| {
            sessions::sign_out(cx, session_secret)
        })
    }

    /// Signs in with a one-time link's secret, spending it: a new session.
    ///
    /// # Errors
    ///
    /// [`Error::Unauthorized`](crate::Error::Unauthorized) for a link that
    /// is unknown, spent, replaced or expired; the store's.
    pub fn sign_in_with_link(&self, secret: &str) -> Result<SignedIn> {
        self.inner
            .write_op(&WriteOp::EXEMPT, |cx| sessions::spend_link(cx, secret))
    }

    /// The principal a session cookie authenticates as; `csrf` must match
    /// for an unsafe method. 401 when it does not.
    pub fn authenticate_session(
        &self,
        session_secret: &str,
        csrf: Option<&str>,
        unsafe_method: bool,
    ) -> Result<Auth> {
        sessions::authenticate(&self.inner, session_secret, csrf, unsafe_method)
    }
}

/// Writes down the tokens' uses every minute, and once more when the
/// runner stops (they are kept in memory between).
pub(crate) const TOKEN_USES: Job = Job {
    name: "token_uses",
    pace: Pace::Every(Duration::from_secs(60)),
    announce: None,
    run: write_token_uses,
    at_stop: Some(write_token_uses),
};

fn write_token_uses(org: &Organiser) -> Result<Ran> {
    Ok(if org.flush_token_uses()? {
        Ran::Did("token uses written".to_owned())
    } else {
        Ran::Nothing
    })
}
