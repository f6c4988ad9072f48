//! A task's home (document 2, "Task", `task_list_id`, `person_id`,
//! `project_id`): at most one is set; none is the Inbox.

use crate::engine::WriteCx;
use crate::error::Result;
use crate::ids::Id;
use crate::store::key::{Key, Reader};

/// Where a task lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Home {
    /// No home: the Inbox.
    Inbox,
    /// A task list.
    List(Id),
    /// A person.
    Person(Id),
    /// A project.
    Project(Id),
}

impl Home {
    /// The home named by the three fields (at most one set).
    pub fn from_fields(
        task_list_id: Option<Id>,
        person_id: Option<Id>,
        project_id: Option<Id>,
    ) -> Home {
        match (task_list_id, person_id, project_id) {
            (Some(id), _, _) => Home::List(id),
            (_, Some(id), _) => Home::Person(id),
            (_, _, Some(id)) => Home::Project(id),
            _ => Home::Inbox,
        }
    }

    /// `task_list_id`.
    pub fn task_list_id(self) -> Option<Id> {
        match self {
            Home::List(id) => Some(id),
            _ => None,
        }
    }

    /// `person_id`.
    pub fn person_id(self) -> Option<Id> {
        match self {
            Home::Person(id) => Some(id),
            _ => None,
        }
    }

    /// `project_id`.
    pub fn project_id(self) -> Option<Id> {
        match self {
            Home::Project(id) => Some(id),
            _ => None,
        }
    }

    /// The field that names this home (`None` for the Inbox).
    pub(crate) fn field(self) -> Option<&'static str> {
        match self {
            Home::Inbox => None,
            Home::List(_) => Some("task_list_id"),
            Home::Person(_) => Some("person_id"),
            Home::Project(_) => Some("project_id"),
        }
    }

    pub(crate) fn tag(self) -> u8 {
        match self {
            Home::Inbox => 0,
            Home::List(_) => 1,
            Home::Person(_) => 2,
            Home::Project(_) => 3,
        }
    }

    fn id(self) -> Option<Id> {
        match self {
            Home::Inbox => None,
            Home::List(id) | Home::Person(id) | Home::Project(id) => Some(id),
        }
    }

    /// The home as a fixed-length key part (tag and 16 bytes).
    pub(crate) fn key(self, key: Key) -> Key {
        let key = key.tag(self.tag());
        match self.id() {
            Some(id) => key.id(id),
            None => key.bytes(&[0; 16]),
        }
    }

    /// Reads a home written by [`Home::key`].
    pub(crate) fn read(r: &mut Reader<'_>) -> Home {
        let tag = r.tag();
        Home::from_tag(tag, r.id())
    }

    /// The home of [`Home::tag`] `tag` and `id` (the Inbox for tag 0).
    pub(crate) fn from_tag(tag: u8, id: Id) -> Home {
        match tag {
            1 => Home::List(id),
            2 => Home::Person(id),
            3 => Home::Project(id),
            _ => Home::Inbox,
        }
    }
}

/// Whether `home` can hold tasks now: the Inbox always; a list, person or
/// project while it is live (a kind this build does not store has no live
/// records).
pub(crate) fn is_live(cx: &WriteCx<'_>, home: Home) -> Result<bool> {
    Ok(match home {
        Home::Inbox => true,
        Home::List(id) => cx.is_live("task_list", id)?,
        Home::Person(id) => cx.is_live("person", id)?,
        Home::Project(id) => cx.is_live("project", id)?,
    })
}

/// The home filter of `GET /tasks` and `GET /task_counts`, as a query.
pub(crate) fn to_query(home: Option<Home>, pairs: &mut Vec<(&'static str, String)>) {
    match home {
        None => {}
        Some(Home::Inbox) => pairs.push(("inbox", "true".to_owned())),
        Some(Home::List(id)) => pairs.push(("task_list_id", id.to_string())),
        Some(Home::Person(id)) => pairs.push(("person_id", id.to_string())),
        Some(Home::Project(id)) => pairs.push(("project_id", id.to_string())),
    }
}
