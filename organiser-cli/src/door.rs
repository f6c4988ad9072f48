//! The CLI's door to the API: the operations the core declares, run on the
//! store in this process (typed: no JSON is written or read) or sent to the
//! server that holds it, each as its declaration writes its request and
//! reads its answer ([`Backend`] carries the request). Commands use the
//! core's typed doors (`s.client.tasks().create(..)`, through [`Doors`]);
//! [`Client::reply`] keeps the JSON the API answers, for `--json`.

use std::cell::RefCell;

use organiser_core::{
    Error, Organiser, account::Account, ai::Ai, calendar::Calendar, calendar::CalendarFeeds,
    categories::Categories, documents::Documents, door::Door, door::Input, door::Operation,
    door::Output, folders::Folders, licence::Licensing, notes::Notes, people::People,
    people::PersonLinks, people::PersonOverviews, projects::ProjectActivity, projects::Projects,
    search::Search, system::SystemSettings, tags::Tags, task_lists::TaskLists, tasks::Tasks,
    uploads::Uploads,
};
use serde_json::Value;

use crate::backend::Backend;
use crate::error::CliError;

/// An answer of the API: the record read into the core's type, and the
/// body as the API writes it (what `--json` prints).
#[derive(Debug)]
pub(crate) struct Reply<T> {
    /// The record, or the page.
    pub(crate) data: T,
    /// The JSON body.
    pub(crate) body: Value,
}

/// The operations a command runs, where the store is.
pub(crate) struct Client {
    backend: Backend,
    /// The body of the last answer, kept while [`Client::reply`] asks.
    kept: RefCell<Option<Value>>,
    /// Whether [`Client::reply`] is asking.
    keeping: std::cell::Cell<bool>,
    /// Moved on as an upload's bytes go to a server.
    progress: RefCell<Option<indicatif::ProgressBar>>,
}

impl Client {
    pub(crate) fn new(backend: Backend) -> Client {
        Client {
            backend,
            kept: RefCell::new(None),
            keeping: std::cell::Cell::new(false),
            progress: RefCell::new(None),
        }
    }

    /// Whether the operations run in this process as the owner at the
    /// machine (not through a server, which may ask for the current
    /// password).
    pub(crate) fn is_local(&self) -> bool {
        matches!(self.backend, Backend::Local(_))
    }

    /// The store, when it is open in this process.
    pub(crate) fn local(&self) -> Option<&Organiser> {
        match &self.backend {
            Backend::Local(org) => Some(org),
            Backend::Remote(_) => None,
        }
    }

    /// Runs `f` (one operation) and keeps the JSON the API answers with
    /// it: the body a server sent, or (in process) the body the operation
    /// writes for its answer.
    pub(crate) fn reply<T>(
        &self,
        f: impl FnOnce(&Client) -> Result<T, Error>,
    ) -> Result<Reply<T>, CliError> {
        self.keeping.set(true);
        let data = f(self);
        self.keeping.set(false);
        let body = self.kept.borrow_mut().take().unwrap_or(Value::Null);
        Ok(Reply { data: data?, body })
    }

    /// Runs `f` (one operation that sends bytes) with `bar` moved on as
    /// they go to a server.
    pub(crate) fn with_progress<T>(
        &self,
        bar: Option<indicatif::ProgressBar>,
        f: impl FnOnce(&Client) -> T,
    ) -> T {
        *self.progress.borrow_mut() = bar;
        let done = f(self);
        *self.progress.borrow_mut() = None;
        done
    }

    fn keep(&self, body: impl FnOnce() -> Value) {
        if self.keeping.get() {
            *self.kept.borrow_mut() = Some(body());
        }
    }
}

impl Door for Client {
    fn call<I: Input, O: Output, P>(
        &self,
        op: &'static Operation<I, O, P>,
        input: I,
    ) -> Result<O, Error> {
        match &self.backend {
            Backend::Local(org) => {
                let out = org.call(op, input)?;
                self.keep(|| op.body(&out));
                Ok(out)
            }
            Backend::Remote(remote) => {
                let progress = self.progress.borrow();
                let response = remote
                    .call_with_progress(op.request(&input), progress.as_ref())
                    .map_err(|e| Error::Unreachable(e.to_string()))?;
                self.keep(|| response.json_value());
                op.read_answer(&response)
            }
        }
    }
}

/// The core's typed doors, over the CLI's [`Client`].
pub(crate) trait Doors: Door + Sized {
    fn account(&self) -> Account<'_, Self> {
        Account::new(self)
    }
    fn ai(&self) -> Ai<'_, Self> {
        Ai::new(self)
    }
    fn backups(&self) -> organiser_core::backups::Backups<'_, Self> {
        organiser_core::backups::Backups::new(self)
    }
    fn transfer(&self) -> organiser_core::transfer::Transfer<'_, Self> {
        organiser_core::transfer::Transfer::new(self)
    }
    fn calendar(&self) -> Calendar<'_, Self> {
        Calendar::new(self)
    }
    fn calendar_feeds(&self) -> CalendarFeeds<'_, Self> {
        CalendarFeeds::new(self)
    }
    fn calendar_subscriptions(
        &self,
    ) -> organiser_core::calendar_subscriptions::CalendarSubscriptions<'_, Self> {
        organiser_core::calendar_subscriptions::CalendarSubscriptions::new(self)
    }
    fn categories(&self) -> Categories<'_, Self> {
        Categories::new(self)
    }
    fn documents(&self) -> Documents<'_, Self> {
        Documents::new(self)
    }
    fn folders(&self) -> Folders<'_, Self> {
        Folders::new(self)
    }
    fn licence(&self) -> Licensing<'_, Self> {
        Licensing::new(self)
    }
    fn notes(&self) -> Notes<'_, Self> {
        Notes::new(self)
    }
    fn people(&self) -> People<'_, Self> {
        People::new(self)
    }
    fn person_links(&self) -> PersonLinks<'_, Self> {
        PersonLinks::new(self)
    }
    fn person_overviews(&self) -> PersonOverviews<'_, Self> {
        PersonOverviews::new(self)
    }
    fn project_activity(&self) -> ProjectActivity<'_, Self> {
        ProjectActivity::new(self)
    }
    fn projects(&self) -> Projects<'_, Self> {
        Projects::new(self)
    }
    fn reminders(&self) -> organiser_core::reminders::Reminders<'_, Self> {
        organiser_core::reminders::Reminders::new(self)
    }
    fn search(&self) -> Search<'_, Self> {
        Search::new(self)
    }
    fn system(&self) -> SystemSettings<'_, Self> {
        SystemSettings::new(self)
    }
    fn tags(&self) -> Tags<'_, Self> {
        Tags::new(self)
    }
    fn task_lists(&self) -> TaskLists<'_, Self> {
        TaskLists::new(self)
    }
    fn tasks(&self) -> Tasks<'_, Self> {
        Tasks::new(self)
    }
    fn uploads(&self) -> Uploads<'_, Self> {
        Uploads::new(self)
    }
}

impl Doors for Client {}
