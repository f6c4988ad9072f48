//! The site a scenario visits: a real server on loopback over a fresh
//! store (`TestServer`, whose clock the test moves: it is 2026-03-10
//! 09:00 UTC there), its owner's appearance, the records a scenario
//! starts from, and signing in as a person does.

use organiser::Id;
use organiser::account::AppearanceChange;
use organiser::task_lists::TaskListInput;
use organiser::tasks::{Task, TaskInput, TaskQuery, TaskStatus};
use thirtyfour::Key;

use crate::common::TestServer;
use crate::harness::{Browser, Variant};

/// The owner's password once set.
pub(crate) const PASSWORD: &str = "correct horse 42";

/// A server over a fresh store.
pub(crate) struct Site {
    pub(crate) server: TestServer,
}

impl Site {
    /// A fresh store with no password: its owner has not signed in yet.
    pub(crate) fn new() -> Site {
        Site {
            server: TestServer::start(),
        }
    }

    /// A fresh store whose owner has a password and the appearance of
    /// `variant` (the browser's colour scheme is the variant's too).
    pub(crate) fn ready(variant: Variant) -> Site {
        let site = Site::new();
        site.server
            .org
            .account()
            .set_password(None, PASSWORD)
            .expect("a password");
        site.theme(variant);
        site
    }

    /// The owner's theme: the variant's, set in the appearance settings.
    pub(crate) fn theme(&self, variant: Variant) {
        self.server
            .org
            .account()
            .change_appearance(AppearanceChange {
                theme: Some(variant.theme().to_owned()),
                ..AppearanceChange::default()
            })
            .expect("the appearance");
    }

    pub(crate) fn org(&self) -> &organiser::Organiser {
        &self.server.org
    }

    /// The address of `path` on this server.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url)
    }

    pub(crate) fn username(&self) -> String {
        self.org().account().me().unwrap().username
    }

    /// Signs in as a person does, by keyboard: the sign-in page puts the
    /// focus in its username; Tab to the password, Enter to send.
    pub(crate) fn sign_in(&self, b: &Browser) {
        b.forget();
        b.goto(&self.url("/sign-in"));
        b.wait_for_path("/sign-in");
        b.check("sign-in");
        assert_eq!(
            b.autofocus(),
            "username",
            "the sign-in page starts in its username"
        );
        b.press(self.username());
        b.press(Key::Tab);
        assert_eq!(b.focused().id, "password");
        b.press(PASSWORD);
        b.press(Key::Enter);
        b.wait_for_path("/");
    }

    /// A task made through the core.
    pub(crate) fn task(&self, input: TaskInput) -> Task {
        self.org().tasks().create(input).expect("a task")
    }

    /// A task list made through the core.
    pub(crate) fn list(&self, name: &str) -> Id {
        self.org()
            .task_lists()
            .create(TaskListInput {
                name: Some(name.to_owned()),
                ..TaskListInput::default()
            })
            .expect("a list")
            .id
    }

    /// Every task titled `title`, open or closed.
    pub(crate) fn tasks_titled(&self, title: &str) -> Vec<Task> {
        let query = TaskQuery {
            statuses: Some(TaskStatus::ALL.to_vec()),
            ..TaskQuery::default()
        };
        let page = self.org().tasks().list(&query).expect("the tasks");
        page.items
            .into_iter()
            .filter(|t| t.title == title)
            .collect()
    }

    /// Waits (a little) until the core holds a task titled `title`: a
    /// form the script sends in the background has been answered.
    #[track_caller]
    pub(crate) fn wait_for_task(&self, title: &str) -> Task {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            if let Some(t) = self.tasks_titled(title).pop() {
                return t;
            }
            if std::time::Instant::now() > deadline {
                let all: Vec<String> = self
                    .org()
                    .tasks()
                    .list(&TaskQuery::default())
                    .map(|p| p.items.into_iter().map(|t| t.title).collect())
                    .unwrap_or_default();
                panic!("no task titled {title:?} was made; the tasks are {all:?}");
            }
            std::thread::sleep(std::time::Duration::from_millis(30));
        }
    }
}
