//! The folders' operations (document 3, "Folders"), each declared once, and
//! [`Folders`], the typed door to them.

use super::{Folder, FolderInput, FolderQuery, change, create, delete, get, list, parse};
use crate::engine::Organiser;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;

body_part!(FolderInput, parse, Some("folder"));
query_part!(FolderQuery);

/// `GET /folders`.
pub(crate) static LIST: Operation<FolderQuery, Page<Folder>> = Operation::new(
    "listFolders",
    Get,
    "/folders",
    "Folders",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// `POST /folders`.
pub(crate) static CREATE: Operation<FolderInput, Folder> = Operation::new(
    "createFolder",
    Post,
    "/folders",
    "Make a folder\n\nNeeds a `name`, unique among its siblings ignoring case. A blank or absent `color` takes the first colour no sibling uses.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        create(cx, &input)
    }),
    Answer::data(201),
);

/// `GET /folders/{id}`.
pub(crate) static GET: Operation<Id, Folder> = Operation::new(
    "getFolder",
    Get,
    "/folders/{id}",
    "A folder",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/folders/{id}`.
pub(crate) static CHANGE: Operation<(Id, FolderInput), Folder> = Operation::new(
    "changeFolder",
    Patch,
    "/folders/{id}",
    "Change a folder\n\nOnly the fields sent change. A name a sibling has, ignoring case, is 422 on `name`; a parent that is the folder itself or one of its descendants is 422 on `parent_id`.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| change(cx, id, &input)),
    Answer::data(200),
)
.also(Put, "replaceFolder");

/// `DELETE /folders/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteFolder",
    Delete,
    "/folders/{id}",
    "Delete a folder\n\nOnly an empty folder: one with documents (live, or deleted and still restorable) or subfolders is 409 `folder_not_empty` and nothing changes. Otherwise permanent, with a `folder` deletion record; a deleted document still in it (restorable) gets `folder_id` null and a new `updated_at`.",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// The folders' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&LIST, &CREATE, &GET, &CHANGE, &DELETE];

/// The folders of a store (document 3, "Folders"), through a [`Door`]: the store
/// itself (`org.folders()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Folders<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Folders<'d, D> {
    /// The folders of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Folders { door }
    }

    /// One page of the live folders (all of them, or the children of one), by name unless `query` names another order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses (an unknown order, a cursor of
    /// another listing).
    pub fn list(&self, query: &FolderQuery) -> Result<Page<Folder>> {
        self.door.call(&LIST, query.clone())
    }

    /// Makes a folder, its name unique among its siblings (ignoring case); a blank colour takes the first one no sibling uses.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a field the
    /// rules refuse; [`Error::ReadOnly`](crate::Error::ReadOnly) while the
    /// licence is read-only.
    pub fn create(&self, input: FolderInput) -> Result<Folder> {
        self.door.call(&CREATE, input)
    }

    /// The live folder `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for one that is deleted
    /// or was never made.
    pub fn get(&self, id: Id) -> Result<Folder> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends (and only those) of folder `id`.
    ///
    /// # Errors
    ///
    /// As [`Folders::create`]; [`Error::NotFound`](crate::Error::NotFound) as
    /// [`Folders::get`].
    pub fn change(&self, id: Id, input: FolderInput) -> Result<Folder> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Deletes folder `id`, permanently, when it holds no folder and no
    /// live document.
    ///
    /// # Errors
    ///
    /// [`Error::Conflict`](crate::Error::Conflict) (`folder_not_empty`)
    /// for a folder that holds any; [`Error::NotFound`](crate::Error::NotFound)
    /// as [`Folders::get`].
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }
}

impl Organiser {
    /// The store's folders.
    pub fn folders(&self) -> Folders<'_> {
        Folders::new(self)
    }
}
