//! The typed operations for embedders: one method per API operation, each
//! one transaction, the same functions `handle` dispatches to.

use jiff::Timestamp;

use crate::account::{Auth, appearance, owner, sessions, tokens};
use crate::deletions::{self, DeletionQuery};
use crate::error::Result;
use crate::ids::Id;
use crate::{
    ApiToken, Appearance, AppearanceChange, Deletion, Licence, Me, NewToken, Organiser,
    OwnerChange, OwnerInit, Page, SignedIn, System, SystemChange,
};
use crate::{
    Task, TaskCounts, TaskCountsQuery, TaskInput, TaskList, TaskListInput, TaskListQuery, TaskQuery,
};
use crate::{licence, system, task_lists, tasks};

impl Organiser {
    /// `GET /me` as `auth` sees it.
    pub fn me(&self, auth: &Auth) -> Result<Me> {
        owner::me(&self.inner.no_tx(), auth)
    }

    /// Sets the owner up (`organiser init`); refused once set up.
    pub fn init_owner(&self, init: &OwnerInit) -> Result<Me> {
        self.inner.write(|cx| owner::init(cx, init))
    }

    /// Changes the owner's name or zone (session only).
    pub fn change_owner(&self, auth: &Auth, change: &OwnerChange) -> Result<Me> {
        self.inner.write(|cx| owner::change(cx, auth, change))
    }

    /// `GET /appearance`.
    pub fn appearance(&self) -> Result<Appearance> {
        self.inner.read(appearance::get)
    }

    /// `PATCH /appearance`.
    pub fn change_appearance(&self, change: AppearanceChange) -> Result<Appearance> {
        self.inner.write(|cx| appearance::change(cx, change))
    }

    /// Makes an API token (session only); the secret is shown only here.
    pub fn create_token(
        &self,
        auth: &Auth,
        name: &str,
        expires_at: Option<Timestamp>,
    ) -> Result<NewToken> {
        self.inner
            .write(|cx| tokens::create(cx, auth, name, expires_at))
    }

    /// Every API token (session only).
    pub fn tokens(&self, auth: &Auth) -> Result<Vec<ApiToken>> {
        self.inner.read(|cx| tokens::list(cx, auth))
    }

    /// Revokes an API token (session only).
    pub fn revoke_token(&self, auth: &Auth, id: u64) -> Result<()> {
        self.inner.write(|cx| tokens::revoke(cx, auth, id))
    }

    /// The principal a bearer token authenticates as; 401 when it does not.
    /// Reads the store only the first time a token is seen; its use is kept
    /// in memory until [`Organiser::flush_token_uses`].
    pub fn authenticate_token(&self, bearer: &str) -> Result<Auth> {
        tokens::authenticate(&self.inner, bearer).map(Auth::Token)
    }

    /// Writes the `last_used_at` of tokens used since the last flush (the
    /// server does this every minute and on shutdown); whether anything
    /// was written.
    pub fn flush_token_uses(&self) -> Result<bool> {
        tokens::flush_uses(&self.inner)
    }

    /// Signs the owner in with username and password.
    pub fn sign_in(&self, username: &str, password: &str) -> Result<SignedIn> {
        self.inner
            .write(|cx| sessions::sign_in(cx, username, password))
    }

    /// Ends a session.
    pub fn sign_out(&self, session_secret: &str) -> Result<()> {
        self.inner
            .write(|cx| sessions::sign_out(cx, session_secret))
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

    /// Sets the owner's password (session only).
    pub fn set_password(&self, auth: &Auth, current: Option<&str>, new: &str) -> Result<Me> {
        self.inner
            .write(|cx| owner::set_password(cx, auth, current, Some(new)))
    }

    /// `GET /system`.
    pub fn system(&self, plain_http: bool) -> Result<System> {
        self.inner.read(|cx| system::get(cx, plain_http))
    }

    /// `PATCH /system`.
    pub fn change_system(&self, change: SystemChange, plain_http: bool) -> Result<System> {
        self.inner
            .write(|cx| system::change(cx, change, plain_http))
    }

    /// `POST /system/update_check`: fetches the channel's manifest (waits up
    /// to 30 s; call it where blocking is fine).
    pub fn check_for_update(&self, plain_http: bool) -> Result<System> {
        system::update::check(&self.inner)?;
        self.system(plain_http)
    }

    /// Runs the daily (or queued) update check when one is due; whether it ran.
    pub fn run_scheduled_update_check(&self) -> Result<bool> {
        if self.inner.read(system::update::scheduled_due)? {
            system::update::check(&self.inner)?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// `GET /licence`.
    pub fn licence(&self) -> Result<Licence> {
        self.inner.read(licence::get)
    }

    /// `PUT /licence` (session only).
    pub fn add_licence_key(&self, auth: &Auth, key: &str) -> Result<Licence> {
        self.inner.write(|cx| licence::add_key(cx, auth, Some(key)))
    }

    /// Discovery for a server reached at `base_url` (`GET /.well-known/organiser`).
    pub fn discovery(&self, base_url: &str) -> crate::Discovery {
        crate::discovery::discovery(&self.inner.options.build.version, base_url)
    }

    /// `GET /task_lists`.
    pub fn task_lists(&self, query: &TaskListQuery) -> Result<Page<TaskList>> {
        self.inner.read_settled(|cx| task_lists::list(cx, query))
    }

    /// `POST /task_lists`.
    pub fn create_task_list(&self, input: &TaskListInput) -> Result<TaskList> {
        self.inner
            .write_licensed(|cx| task_lists::create(cx, input))
    }

    /// `GET /task_lists/{id}`.
    pub fn task_list(&self, id: Id) -> Result<TaskList> {
        self.inner.read_settled(|cx| task_lists::get(cx, id))
    }

    /// `PATCH /task_lists/{id}`.
    pub fn change_task_list(&self, id: Id, input: &TaskListInput) -> Result<TaskList> {
        self.inner
            .write_licensed(|cx| task_lists::change(cx, id, input))
    }

    /// `DELETE /task_lists/{id}`: the list and its tasks.
    pub fn delete_task_list(&self, id: Id) -> Result<()> {
        self.inner.write_licensed(|cx| task_lists::delete(cx, id))
    }

    /// `POST /task_lists/{id}/restoration`.
    pub fn restore_task_list(&self, id: Id) -> Result<TaskList> {
        self.inner.write_licensed(|cx| task_lists::restore(cx, id))
    }

    /// `GET /tasks`.
    pub fn tasks(&self, query: &TaskQuery) -> Result<Page<Task>> {
        self.inner.read_settled(|cx| tasks::list(cx, query))
    }

    /// `POST /tasks`.
    pub fn create_task(&self, input: &TaskInput) -> Result<Task> {
        self.inner.write_licensed(|cx| tasks::create(cx, input))
    }

    /// `GET /tasks/{id}`.
    pub fn task(&self, id: Id) -> Result<Task> {
        self.inner.read_settled(|cx| tasks::get(cx, id))
    }

    /// `PATCH /tasks/{id}`.
    pub fn change_task(&self, id: Id, input: &TaskInput) -> Result<Task> {
        self.inner.write_licensed(|cx| tasks::change(cx, id, input))
    }

    /// `DELETE /tasks/{id}`.
    pub fn delete_task(&self, id: Id) -> Result<()> {
        self.inner.write_licensed(|cx| tasks::delete(cx, id))
    }

    /// `POST /tasks/{id}/restoration`.
    pub fn restore_task(&self, id: Id) -> Result<Task> {
        self.inner.write_licensed(|cx| tasks::restore(cx, id))
    }

    /// `GET /task_counts`.
    pub fn task_counts(&self, query: &TaskCountsQuery) -> Result<TaskCounts> {
        self.inner.read_settled(|cx| tasks::counts(cx, query))
    }

    /// `GET /deletions`.
    pub fn deletions(&self, query: &DeletionQuery) -> Result<Page<Deletion>> {
        self.inner.read(|cx| deletions::list(cx, query))
    }
}
