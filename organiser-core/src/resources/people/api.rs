//! The people' operations (document 3, "People"), each declared once, and
//! [`People`], the typed door to them.

use super::avatars::{self, absolute, absolute_avatar};
use super::change::{change, create, set_avatar};
use super::companies::{self, Company, CompanyQuery};
use super::lifecycle::{delete, restore};
use super::list::list;
use super::parse::{PersonBody, parse};
use super::store::get;
use super::upcoming::{self, UpcomingKeyDates, UpcomingQuery};
use super::{Person, PersonInput, PersonQuery};
use crate::engine::Organiser;
use crate::engine::op::PlainOp;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::Prepare;
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::engine::request::Response;
use crate::engine::request::{FileBytes, RawBody};
use crate::error::Error;
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;
use crate::resources::uploads::{self, UploadKind, UploadParams};

body_part!(PersonBody, parse, Some("person"));
query_part!(PersonQuery, CompanyQuery, UpcomingQuery);

/// `GET /people`.
pub(crate) static LIST: Operation<PersonQuery, Page<Person>> = Operation::new(
    "listPeople",
    Get,
    "/people",
    "People",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| list(cx, &query)),
    // Photo addresses are absolute in answers.
    Answer::bare(200).absolute(|page, base| page.map(|p| absolute(p, base))),
);

/// `POST /people`.
pub(crate) static CREATE: Operation<PersonBody, Person> = Operation::new(
    "createPerson",
    Post,
    "/people",
    "Make a person\n\nNeeds a `name`; every other field of PersonFields is optional.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        create(cx, &input)
    }),
    Answer::data(201).absolute(absolute),
);

/// `GET /people/{id}`.
pub(crate) static GET: Operation<Id, Person> = Operation::new(
    "getPerson",
    Get,
    "/people/{id}",
    "A person",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200).absolute(absolute),
);

/// `PATCH` (or `PUT`) `/people/{id}`.
pub(crate) static CHANGE: Operation<(Id, PersonBody), Person> = Operation::new(
    "changePerson",
    Patch,
    "/people/{id}",
    "Change a person\n\nOnly the fields sent change; rows as the row rules say.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| change(cx, id, &input)),
    Answer::data(200).absolute(absolute),
)
.also(Put, "replacePerson");

/// `DELETE /people/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deletePerson",
    Delete,
    "/people/{id}",
    "Delete a person\n\nGone from every endpoint at once, with the tasks homed in the person; deletion records for the person and each of its rows (`key_date`, `email_address`, `phone_number`, `social_profile`, `position`). Restorable for 20 seconds.",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// `POST /people/{id}/restoration`.
pub(crate) static RESTORE: Operation<Id, Person> = Operation::new(
    "restorePerson",
    Post,
    "/people/{id}/restoration",
    "Restore a person\n\nWithin 20 seconds of its delete: the person returns with its rows and the tasks its delete took. A live person is returned as it is.",
    Run::write(WriteOp::LICENSED.idempotent(), restore),
    Answer::data(200).absolute(absolute),
);

/// `PUT` (or `PATCH`) `/people/{id}/avatar`: the photo's bytes are the
/// body; decoded and written to disk before the transaction.
pub(crate) static SET_PHOTO: Operation<(Id, RawBody), Person, (Id, uploads::Prepared)> =
    Operation::new(
        "setPersonPhoto",
        Put,
        "/people/{id}/avatar",
        "Set a person's photo\n\nThe body is the image itself (JPEG, PNG, WebP or GIF, at most 10 MB) with a `Content-Length`; its type is read from the bytes, and the `Content-Type` header must be one of the image types. It replaces any photo (whose files are deleted). Answers the person.",
        Run::Write(
            WriteOp::LICENSED,
            Prepare::with(|inner, (id, raw)| {
                let params = UploadParams {
                    kind: UploadKind::Avatar,
                    filename: "avatar".to_owned(),
                };
                Ok((id, uploads::prepare(inner, &raw, params)?))
            }),
            |cx, (id, prepared)| {
                let made = uploads::create(cx, prepared)?;
                set_avatar(cx, id, &made.signed_id)
            },
        ),
        Answer::data(200).absolute(absolute),
    )
    .also(Patch, "setPersonPhotoPatch")
    .raw_body(|_| Ok(UploadKind::Avatar.rule()));

/// `GET /avatars/{id}`: a redirect to the photo as uploaded.
pub(crate) static PHOTO: Operation<String, String> = Operation::new(
    "getPhoto",
    Get,
    "/avatars/{id}",
    "A photo\n\nRedirects to the photo as uploaded. No token: anyone with the link.",
    Run::Plain(PlainOp::PUBLIC_FILES, |inner, signed| {
        avatars::located(inner, &signed, "original")
    }),
    Answer::raw(avatars::redirect, avatars::read_redirect),
);

/// `GET /avatars/{id}/{size}`: a redirect to a thumbnail.
pub(crate) static PHOTO_SIZE: Operation<(String, String), String> = Operation::new(
    "getPhotoSize",
    Get,
    "/avatars/{id}/{size}",
    "A photo's thumbnail\n\n`thumb` (128 px square) or `large` (256 px), WebP: redirects to the image.",
    Run::Plain(PlainOp::PUBLIC_FILES, |inner, (signed, size)| {
        avatars::located(inner, &signed, &size)
    }),
    Answer::raw(avatars::redirect, avatars::read_redirect),
);

/// `GET /avatars/{id}/files/{size}`: the bytes.
pub(crate) static PHOTO_FILE: Operation<(String, String), FileBytes> = Operation::new(
    "getPhotoFile",
    Get,
    "/avatars/{id}/files/{size}",
    "A photo's bytes\n\n`original` (as uploaded), `thumb` or `large`.",
    Run::Plain(PlainOp::PUBLIC_FILES, |inner, (signed, size)| {
        avatars::file(inner, &signed, &size)
    }),
    Answer::raw(
        |file, _| Response::file(&file.content_type, file.bytes),
        avatars::read_file,
    ),
);

/// `GET /companies`.
pub(crate) static COMPANIES: Operation<CompanyQuery, Page<Company>> = Operation::new(
    "listCompanies",
    Get,
    "/companies",
    "Companies\n\nCompanies are made and removed through positions.",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| {
        companies::list(cx, &query)
    }),
    Answer::bare(200),
);

/// `GET /companies/{id}`.
pub(crate) static COMPANY: Operation<Id, Company> = Operation::new(
    "getCompany",
    Get,
    "/companies/{id}",
    "A company",
    Run::Read(ReadOp::SETTLED, |cx, id| {
        companies::get(cx, id)?.ok_or(Error::NotFound)
    }),
    Answer::data(200),
);

/// `GET /upcoming_key_dates`.
pub(crate) static UPCOMING: Operation<UpcomingQuery, UpcomingKeyDates> = Operation::new(
    "listUpcomingKeyDates",
    Get,
    "/upcoming_key_dates",
    "Upcoming key dates\n\nKey dates of live people from today through `days` days from today (owner's zone), soonest first; 29 February falls on 1 March in other years.",
    Run::Read(ReadOp::SETTLED, upcoming::upcoming),
    // Photo addresses are absolute in answers.
    Answer::bare(200).absolute(|mut found, base| {
        for item in &mut found.data {
            if let Some(avatar) = &mut item.person.avatar {
                absolute_avatar(avatar, base);
            }
        }
        found
    }),
);

/// The people' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &LIST,
    &CREATE,
    &GET,
    &CHANGE,
    &DELETE,
    &RESTORE,
    &SET_PHOTO,
    &PHOTO,
    &PHOTO_SIZE,
    &PHOTO_FILE,
    &COMPANIES,
    &COMPANY,
    &UPCOMING,
];

/// The people of a store (document 3, "People"), through a [`Door`]: the store
/// itself (`org.people()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct People<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> People<'d, D> {
    /// The people of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        People { door }
    }

    /// One page of the live people (all, those of a relationship, or those whose names begin with `q`), by name unless `query` names another order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses (an unknown order, a cursor of
    /// another listing).
    pub fn list(&self, query: &PersonQuery) -> Result<Page<Person>> {
        self.door.call(&LIST, query.clone())
    }

    /// The live people whose name is `name` (ignoring case and the
    /// spaces around it), at most two: how a name typed for a link or a
    /// membership is told apart from a new person (none), one person, or
    /// a name that needs choosing (two).
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn named(&self, name: &str) -> Result<Vec<crate::Id>> {
        let name = crate::text::fold_case(name.trim());
        if name.is_empty() {
            return Ok(Vec::new());
        }
        let query = PersonQuery {
            q: Some(name.clone()),
            params: crate::list::ListParams {
                limit: 20,
                ..crate::list::ListParams::default()
            },
            ..PersonQuery::default()
        };
        Ok(self
            .list(&query)?
            .items
            .into_iter()
            .filter(|p| crate::text::fold_case(&p.name) == name)
            .map(|p| p.id)
            .take(2)
            .collect())
    }

    /// Makes a person: a name, and any of PersonFields (rows, relationships, a photo).
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a field the
    /// rules refuse; [`Error::ReadOnly`](crate::Error::ReadOnly) while the
    /// licence is read-only.
    pub fn create(&self, input: PersonInput) -> Result<Person> {
        self.door.call(&CREATE, input.into())
    }

    /// The live person `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for one that is deleted
    /// or was never made.
    pub fn get(&self, id: Id) -> Result<Person> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends (and only those) of person `id`.
    ///
    /// # Errors
    ///
    /// As [`People::create`]; [`Error::NotFound`](crate::Error::NotFound) as
    /// [`People::get`].
    pub fn change(&self, id: Id, input: PersonInput) -> Result<Person> {
        self.door.call(&CHANGE, (id, input.into()))
    }

    /// Deletes person `id` with the tasks homed in the person, restorable for 20 seconds.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) as [`People::get`];
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// Brings back person `id` within 20 seconds of its delete; a live
    /// one is given back as it is.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) after the window.
    pub fn restore(&self, id: Id) -> Result<Person> {
        self.door.call(&RESTORE, id)
    }

    /// Gives person `id` the photo `bytes` (sent as `content_type`),
    /// replacing any (whose files go).
    ///
    /// # Errors
    ///
    /// As [`Uploads::create`](crate::Uploads::create) for an avatar;
    /// [`Error::NotFound`](crate::Error::NotFound) as [`People::get`].
    pub fn set_photo(&self, id: Id, content_type: &str, bytes: Vec<u8>) -> Result<Person> {
        let raw = RawBody {
            content_type: content_type.to_owned(),
            bytes,
        };
        self.door.call(&SET_PHOTO, (id, raw))
    }

    /// The bytes of a photo by its signed ID (as its addresses name it),
    /// in `size` `original`, `thumb` (128 px) or `large` (256 px).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a photo no person
    /// has, or another size.
    pub fn photo(&self, signed_id: &str, size: &str) -> Result<FileBytes> {
        self.door
            .call(&PHOTO_FILE, (signed_id.to_owned(), size.to_owned()))
    }

    /// One page of the companies (those whose names begin with `q`), by
    /// name unless `query` names another order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses.
    pub fn companies(&self, query: &CompanyQuery) -> Result<Page<Company>> {
        self.door.call(&COMPANIES, query.clone())
    }

    /// Company `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a company no
    /// position names.
    pub fn company(&self, id: Id) -> Result<Company> {
        self.door.call(&COMPANY, id)
    }

    /// The key dates of live people that fall from today through
    /// `query.days` days (in the owner's zone), soonest first, with the
    /// years each has then.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a `person_id` that
    /// is not a live person.
    pub fn upcoming_key_dates(&self, query: UpcomingQuery) -> Result<UpcomingKeyDates> {
        self.door.call(&UPCOMING, query)
    }
}

impl Organiser {
    /// The store's people.
    pub fn people(&self) -> People<'_> {
        People::new(self)
    }
}
