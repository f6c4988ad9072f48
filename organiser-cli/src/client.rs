//! The API as typed calls, one method per operation (named as the core's
//! own: `tasks`, `create_task`, `change_task`, ...). Each builds the one
//! [`Request`] of its operation, with a body that wraps the core's input
//! under the record's singular name (`{task: {...}}`), sends it where the
//! [`Backend`] says, and reads the answer into the core's records: `{data}`
//! into the record, `{data, meta}` into a [`Page`].

use organiser_core::{
    ActivityEntry, ActivityQuery, AddedModels, AiModel, AiModelInput, AiModelQuery, AiProvider,
    AiProviderInput, AiProviderQuery, AiTask, AiTaskInput, AiTaskQueue, ApiToken, Auth,
    CalendarFeed, CalendarFeedInput, CalendarFeedQuery, CalendarQuery, CalendarRange, Category,
    CategoryInput, CategoryNoteCount, CategoryQuery, Company, Document, DocumentLink,
    DocumentLinkQuery, DocumentQuery, Field, Folder, FolderCount, FolderInput, FolderQuery, Home,
    Id, Licence, ListParams, Me, Method, ModelAdditions, ModelCount, ModelList, NewToken, Note,
    NoteInput, NoteQuery, NoteSummary, OwnerChange, Page, Person, PersonLink, PersonLinkQuery,
    PersonOverview, PersonQuery, Project, ProjectInput, ProjectMember, ProjectMemberInput,
    ProjectQuery, ProjectTaskCount, ProviderTest, Query, Request, Response, SearchGroup,
    SearchQuery, System, Tag, TagQuery, Task, TaskCounts, TaskCountsQuery, TaskInput, TaskList,
    TaskListInput, TaskListQuery, TaskQuery, TrialReply, UpcomingDeadline, UpcomingDeadlinesQuery,
    UpcomingKeyDates, UpcomingQuery, time::format_timestamp,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::backend::Backend;
use crate::error::CliError;

use Method::{Delete, Get, Patch, Post, Put};

/// An answer of the API: the record read into the core's type, and the
/// body as it came (what `--json` prints).
#[derive(Debug)]
pub(crate) struct Reply<T> {
    /// The record, or the page.
    pub(crate) data: T,
    /// The JSON body, unchanged.
    pub(crate) body: Value,
}

/// The typed API over a [`Backend`].
pub(crate) struct Client {
    backend: Backend,
}

/// `{data: ...}`.
#[derive(Deserialize)]
struct Data<T> {
    data: T,
}

/// `{error: {code, message}}`.
#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorFields,
}

#[derive(Deserialize)]
struct ErrorFields {
    code: Option<String>,
    message: Option<String>,
    details: Option<Value>,
}

/// `PUT /me/password` (not wrapped): the core reads it into no input type.
#[derive(Serialize)]
struct PasswordChange<'a> {
    password: &'a str,
    current_password: Option<&'a str>,
}

/// `{api_token: {name, expires_at}}`: the core reads it into no input type.
/// `expires_at` goes as typed, for the API to judge.
#[derive(Serialize)]
struct TokenRequest<'a> {
    name: &'a str,
    expires_at: Option<&'a str>,
}

/// `{tag: {name}}`: the core reads it into no input type.
#[derive(Serialize)]
struct TagRename<'a> {
    name: &'a str,
}

/// `POST /tags/{id}/merge` with `{into_id}` (not wrapped).
#[derive(Serialize)]
struct TagMerge {
    into_id: Id,
}

/// `{document: {...}}` as the CLI writes it (the core's `DocumentInput`
/// is read from a body, not written to one): `upload` on create only;
/// each id array sent replaces that kind's links.
#[derive(Debug, Default, Serialize)]
pub(crate) struct DocumentWrite {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) upload: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub(crate) folder_id: Field<Id>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note_ids: Option<Vec<Id>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) project_ids: Option<Vec<Id>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) task_ids: Option<Vec<Id>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) person_ids: Option<Vec<Id>>,
}

/// `{document_link: {document_id, and one of note_id, project_id,
/// task_id, person_id}}` (the core's `DocumentLinkInput` is read only).
#[derive(Debug, Serialize)]
pub(crate) struct DocumentLinkWrite {
    pub(crate) document_id: Id,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note_id: Option<Id>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) project_id: Option<Id>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) task_id: Option<Id>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) person_id: Option<Id>,
}

/// What `POST /ai_tasks/{key}/backfill` answers (the core returns a
/// bare count).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Backfilled {
    /// How many records were queued now (those queued already are not
    /// counted again).
    pub(crate) queued: u64,
}

/// What `POST /uploads` answers, as far as the CLI reads it (the core's
/// `Upload` is written, not read).
#[derive(Debug, Deserialize)]
pub(crate) struct Uploaded {
    /// What a document's `upload` or a task's `document_uploads` names.
    pub(crate) signed_id: String,
}

impl Client {
    pub(crate) fn new(backend: Backend) -> Client {
        Client { backend }
    }

    /// Whether requests run in this process as the owner at the machine
    /// (not through a server, which may ask for the current password).
    pub(crate) fn is_local(&self) -> bool {
        matches!(self.backend, Backend::Local(_))
    }

    /// `GET /me`.
    pub(crate) fn me(&self) -> Result<Reply<Me>, CliError> {
        self.data(request(Get, "/me"))
    }

    /// `PATCH /me`.
    pub(crate) fn change_owner(&self, change: &OwnerChange) -> Result<Reply<Me>, CliError> {
        self.data(request(Patch, "/me").with_body(wrapped("me", change)?))
    }

    /// `PUT /me/password`.
    pub(crate) fn set_password(
        &self,
        new: &str,
        current: Option<&str>,
    ) -> Result<Reply<Me>, CliError> {
        let body = to_json(&PasswordChange {
            password: new,
            current_password: current,
        })?;
        self.data(request(Put, "/me/password").with_body(body))
    }

    /// `GET /api_tokens`.
    pub(crate) fn tokens(&self) -> Result<Reply<Vec<ApiToken>>, CliError> {
        self.data(request(Get, "/api_tokens"))
    }

    /// `POST /api_tokens`.
    pub(crate) fn create_token(
        &self,
        name: &str,
        expires_at: Option<&str>,
    ) -> Result<Reply<NewToken>, CliError> {
        let body = wrapped("api_token", &TokenRequest { name, expires_at })?;
        self.data(request(Post, "/api_tokens").with_body(body))
    }

    /// `DELETE /api_tokens/{id}`.
    pub(crate) fn revoke_token(&self, id: u64) -> Result<(), CliError> {
        self.send(request(Delete, format!("/api_tokens/{id}")))
            .map(drop)
    }

    /// `GET /system`.
    pub(crate) fn system(&self) -> Result<Reply<System>, CliError> {
        self.data(request(Get, "/system"))
    }

    /// `POST /system/update_check`.
    pub(crate) fn check_for_update(&self) -> Result<Reply<System>, CliError> {
        self.data(request(Post, "/system/update_check"))
    }

    /// `PATCH /system` with `update_checks`.
    pub(crate) fn set_update_checks(&self, on: bool) -> Result<Reply<System>, CliError> {
        let body = serde_json::json!({"system": {"update_checks": on}});
        self.data(request(Patch, "/system").with_body(body))
    }

    /// `GET /licence`.
    pub(crate) fn licence(&self) -> Result<Reply<Licence>, CliError> {
        self.data(request(Get, "/licence"))
    }

    /// `PUT /licence` with `{key}`.
    pub(crate) fn add_licence_key(&self, key: &str) -> Result<Reply<Licence>, CliError> {
        let body = serde_json::json!({ "key": key });
        self.data(request(Put, "/licence").with_body(body))
    }

    /// `DELETE /licence`.
    pub(crate) fn remove_licence_key(&self) -> Result<Reply<Licence>, CliError> {
        self.data(request(Delete, "/licence"))
    }

    /// `GET /tasks`.
    pub(crate) fn tasks(&self, query: &TaskQuery) -> Result<Reply<Page<Task>>, CliError> {
        read(self.send(request(Get, "/tasks").with_query(task_query(query)))?)
    }

    /// `GET /tasks/{id}`.
    pub(crate) fn task(&self, id: Id) -> Result<Reply<Task>, CliError> {
        self.data(request(Get, format!("/tasks/{id}")))
    }

    /// `POST /tasks`.
    pub(crate) fn create_task(&self, input: &TaskInput) -> Result<Reply<Task>, CliError> {
        self.data(request(Post, "/tasks").with_body(wrapped("task", input)?))
    }

    /// `PATCH /tasks/{id}`.
    pub(crate) fn change_task(&self, id: Id, input: &TaskInput) -> Result<Reply<Task>, CliError> {
        let body = wrapped("task", input)?;
        self.data(request(Patch, format!("/tasks/{id}")).with_body(body))
    }

    /// `DELETE /tasks/{id}`.
    pub(crate) fn delete_task(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/tasks/{id}"))).map(drop)
    }

    /// `POST /tasks/{id}/restoration`.
    pub(crate) fn restore_task(&self, id: Id) -> Result<Reply<Task>, CliError> {
        self.data(request(Post, format!("/tasks/{id}/restoration")))
    }

    /// `GET /task_counts`.
    pub(crate) fn task_counts(
        &self,
        query: &TaskCountsQuery,
    ) -> Result<Reply<TaskCounts>, CliError> {
        let mut pairs = Vec::new();
        if let Some(view) = query.view {
            pairs.push(("view", view.as_str().to_owned()));
        }
        home(query.home, &mut pairs);
        self.data(request(Get, "/task_counts").with_query(Query::from_pairs(pairs)))
    }

    /// `GET /task_lists`.
    pub(crate) fn task_lists(
        &self,
        query: &TaskListQuery,
    ) -> Result<Reply<Page<TaskList>>, CliError> {
        let mut pairs = Vec::new();
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/task_lists").with_query(query))?)
    }

    /// `GET /task_lists/{id}`.
    pub(crate) fn task_list(&self, id: Id) -> Result<Reply<TaskList>, CliError> {
        self.data(request(Get, format!("/task_lists/{id}")))
    }

    /// `POST /task_lists`.
    pub(crate) fn create_task_list(
        &self,
        input: &TaskListInput,
    ) -> Result<Reply<TaskList>, CliError> {
        self.data(request(Post, "/task_lists").with_body(wrapped("task_list", input)?))
    }

    /// `PATCH /task_lists/{id}`.
    pub(crate) fn change_task_list(
        &self,
        id: Id,
        input: &TaskListInput,
    ) -> Result<Reply<TaskList>, CliError> {
        let body = wrapped("task_list", input)?;
        self.data(request(Patch, format!("/task_lists/{id}")).with_body(body))
    }

    /// `DELETE /task_lists/{id}`: the list and its tasks.
    pub(crate) fn delete_task_list(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/task_lists/{id}")))
            .map(drop)
    }

    /// `POST /task_lists/{id}/restoration`.
    pub(crate) fn restore_task_list(&self, id: Id) -> Result<Reply<TaskList>, CliError> {
        self.data(request(Post, format!("/task_lists/{id}/restoration")))
    }

    /// `GET /people`.
    pub(crate) fn people(&self, query: &PersonQuery) -> Result<Reply<Page<Person>>, CliError> {
        let mut pairs = Vec::new();
        if let Some(relationship) = &query.relationship {
            pairs.push(("relationship", relationship.clone()));
        }
        if let Some(q) = &query.q {
            pairs.push(("q", q.clone()));
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/people").with_query(query))?)
    }

    /// `GET /people/{id}`.
    pub(crate) fn person(&self, id: Id) -> Result<Reply<Person>, CliError> {
        self.data(request(Get, format!("/people/{id}")))
    }

    /// `POST /people` with the person's fields (PersonFields: `name`,
    /// `relationships`, the row arrays), as the API reads them.
    pub(crate) fn create_person(
        &self,
        fields: &Map<String, Value>,
    ) -> Result<Reply<Person>, CliError> {
        self.data(request(Post, "/people").with_body(wrapped("person", fields)?))
    }

    /// `PATCH /people/{id}`: only the fields sent change; rows as the
    /// API's row rules say.
    pub(crate) fn change_person(
        &self,
        id: Id,
        fields: &Map<String, Value>,
    ) -> Result<Reply<Person>, CliError> {
        let body = wrapped("person", fields)?;
        self.data(request(Patch, format!("/people/{id}")).with_body(body))
    }

    /// `DELETE /people/{id}`.
    pub(crate) fn delete_person(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/people/{id}")))
            .map(drop)
    }

    /// `POST /people/{id}/restoration`.
    pub(crate) fn restore_person(&self, id: Id) -> Result<Reply<Person>, CliError> {
        self.data(request(Post, format!("/people/{id}/restoration")))
    }

    /// `GET /companies/{id}`.
    pub(crate) fn company(&self, id: Id) -> Result<Reply<Company>, CliError> {
        self.data(request(Get, format!("/companies/{id}")))
    }

    /// `GET /upcoming_key_dates`.
    pub(crate) fn upcoming_key_dates(
        &self,
        query: UpcomingQuery,
    ) -> Result<Reply<UpcomingKeyDates>, CliError> {
        let mut pairs = vec![
            ("days", query.days.to_string()),
            ("limit", query.limit.to_string()),
        ];
        if let Some(person) = query.person_id {
            pairs.push(("person_id", person.to_string()));
        }
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/upcoming_key_dates").with_query(query))?)
    }

    /// `GET /people/{id}/overview`.
    pub(crate) fn person_overview(&self, id: Id) -> Result<Reply<PersonOverview>, CliError> {
        self.data(request(Get, format!("/people/{id}/overview")))
    }

    /// `GET /search`: the API judges the query (400 when it is too long,
    /// holds a NUL, or names an unknown type).
    pub(crate) fn search(&self, query: &SearchQuery) -> Result<Reply<Vec<SearchGroup>>, CliError> {
        let types: Vec<&str> = query.types.iter().map(|t| t.name()).collect();
        let query = Query::from_pairs(vec![
            ("q", query.q.clone()),
            ("types", types.join(",")),
            ("limit", query.limit.to_string()),
        ]);
        self.data(request(Get, "/search").with_query(query))
    }

    /// `GET /calendar`: the API judges the range (400 when `to` is before
    /// `from` or the range is longer than it allows).
    pub(crate) fn calendar(&self, query: CalendarQuery) -> Result<Reply<CalendarRange>, CliError> {
        let query = Query::from_pairs(vec![
            ("from", query.from.to_string()),
            ("to", query.to.to_string()),
        ]);
        self.data(request(Get, "/calendar").with_query(query))
    }

    /// `GET /calendar_feeds`.
    pub(crate) fn calendar_feeds(
        &self,
        query: &CalendarFeedQuery,
    ) -> Result<Reply<Page<CalendarFeed>>, CliError> {
        let mut pairs = Vec::new();
        if let Some(address) = &query.address {
            pairs.push(("address", address.clone()));
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/calendar_feeds").with_query(query))?)
    }

    /// `GET /calendar_feeds/{id}`.
    pub(crate) fn calendar_feed(&self, id: Id) -> Result<Reply<CalendarFeed>, CliError> {
        self.data(request(Get, format!("/calendar_feeds/{id}")))
    }

    /// `POST /calendar_feeds`: the API fetches the address first (up to
    /// 30 seconds).
    pub(crate) fn create_calendar_feed(
        &self,
        input: &CalendarFeedInput,
    ) -> Result<Reply<CalendarFeed>, CliError> {
        let body = wrapped("calendar_feed", input)?;
        self.data(request(Post, "/calendar_feeds").with_body(body))
    }

    /// `DELETE /calendar_feeds/{id}`: permanent, with its events.
    pub(crate) fn delete_calendar_feed(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/calendar_feeds/{id}")))
            .map(drop)
    }

    /// `POST /calendar_feeds/{id}/sync`: the feed after the attempt (a
    /// failure is in its `sync_error`, not an error).
    pub(crate) fn sync_calendar_feed(&self, id: Id) -> Result<Reply<CalendarFeed>, CliError> {
        self.data(request(Post, format!("/calendar_feeds/{id}/sync")))
    }

    /// `GET /person_links`.
    pub(crate) fn person_links(
        &self,
        query: &PersonLinkQuery,
    ) -> Result<Reply<Page<PersonLink>>, CliError> {
        let mut pairs = Vec::new();
        if let Some(person) = query.person_id {
            pairs.push(("person_id", person.to_string()));
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/person_links").with_query(query))?)
    }

    /// `POST /person_links`: `person_id` has the role `kind` (a key, as
    /// typed) to `related_person_id`.
    pub(crate) fn create_person_link(
        &self,
        person_id: Id,
        kind: &str,
        related_person_id: Id,
    ) -> Result<Reply<PersonLink>, CliError> {
        let body = serde_json::json!({"person_link": {
            "person_id": person_id,
            "kind": kind,
            "related_person_id": related_person_id,
        }});
        self.data(request(Post, "/person_links").with_body(body))
    }

    /// `DELETE /person_links/{id}`: permanent (a link has no restore).
    pub(crate) fn delete_person_link(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/person_links/{id}")))
            .map(drop)
    }

    /// `GET /projects`.
    pub(crate) fn projects(&self, query: &ProjectQuery) -> Result<Reply<Page<Project>>, CliError> {
        let mut pairs = Vec::new();
        if !query.statuses.is_empty() {
            let keys: Vec<&str> = query.statuses.iter().map(|s| s.key()).collect();
            pairs.push(("status", keys.join(",")));
        }
        if let Some(person) = query.person_id {
            pairs.push(("person_id", person.to_string()));
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/projects").with_query(query))?)
    }

    /// `GET /projects/{id}`.
    pub(crate) fn project(&self, id: Id) -> Result<Reply<Project>, CliError> {
        self.data(request(Get, format!("/projects/{id}")))
    }

    /// `POST /projects`.
    pub(crate) fn create_project(&self, input: &ProjectInput) -> Result<Reply<Project>, CliError> {
        self.data(request(Post, "/projects").with_body(wrapped("project", input)?))
    }

    /// `PATCH /projects/{id}`.
    pub(crate) fn change_project(
        &self,
        id: Id,
        input: &ProjectInput,
    ) -> Result<Reply<Project>, CliError> {
        let body = wrapped("project", input)?;
        self.data(request(Patch, format!("/projects/{id}")).with_body(body))
    }

    /// `DELETE /projects/{id}`: the project with its members, events and tasks.
    pub(crate) fn delete_project(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/projects/{id}")))
            .map(drop)
    }

    /// `POST /projects/{id}/restoration`.
    pub(crate) fn restore_project(&self, id: Id) -> Result<Reply<Project>, CliError> {
        self.data(request(Post, format!("/projects/{id}/restoration")))
    }

    /// `GET /projects/{id}/activity`.
    pub(crate) fn project_activity(
        &self,
        id: Id,
        query: &ActivityQuery,
    ) -> Result<Reply<Page<ActivityEntry>>, CliError> {
        let mut pairs = vec![("limit", query.limit.to_string())];
        if let Some(cursor) = &query.cursor {
            pairs.push(("cursor", cursor.clone()));
        }
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, format!("/projects/{id}/activity")).with_query(query))?)
    }

    /// `POST /project_members`.
    pub(crate) fn create_project_member(
        &self,
        input: &ProjectMemberInput,
    ) -> Result<Reply<ProjectMember>, CliError> {
        let body = wrapped("project_member", input)?;
        self.data(request(Post, "/project_members").with_body(body))
    }

    /// `DELETE /project_members/{id}`: permanent.
    pub(crate) fn delete_project_member(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/project_members/{id}")))
            .map(drop)
    }

    /// `GET /upcoming_deadlines`.
    pub(crate) fn upcoming_deadlines(
        &self,
        query: UpcomingDeadlinesQuery,
    ) -> Result<Reply<Vec<UpcomingDeadline>>, CliError> {
        let mut pairs = Vec::new();
        if let Some(days) = query.days {
            pairs.push(("days", days.to_string()));
        }
        if let Some(limit) = query.limit {
            pairs.push(("limit", limit.to_string()));
        }
        let query = Query::from_pairs(pairs);
        self.data(request(Get, "/upcoming_deadlines").with_query(query))
    }

    /// `GET /project_task_counts`.
    pub(crate) fn project_task_counts(&self) -> Result<Reply<Vec<ProjectTaskCount>>, CliError> {
        self.data(request(Get, "/project_task_counts"))
    }

    /// `GET /notes`.
    pub(crate) fn notes(&self, query: &NoteQuery) -> Result<Reply<Page<NoteSummary>>, CliError> {
        let mut pairs = Vec::new();
        if let Some(q) = &query.q {
            pairs.push(("q", q.clone()));
        }
        for (name, id) in [
            ("category_id", query.category_id),
            ("tag_id", query.tag_id),
            ("person_id", query.person_id),
            ("project_id", query.project_id),
        ] {
            if let Some(id) = id {
                pairs.push((name, id.to_string()));
            }
        }
        if let Some(pinned) = query.pinned {
            pairs.push(("pinned", pinned.to_string()));
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/notes").with_query(query))?)
    }

    /// `GET /notes/{id}`.
    pub(crate) fn note(&self, id: Id) -> Result<Reply<Note>, CliError> {
        self.data(request(Get, format!("/notes/{id}")))
    }

    /// `POST /notes`.
    pub(crate) fn create_note(&self, input: &NoteInput) -> Result<Reply<Note>, CliError> {
        self.data(request(Post, "/notes").with_body(wrapped("note", input)?))
    }

    /// `PATCH /notes/{id}` (409 `conflict` when `edit_version` is behind).
    pub(crate) fn change_note(&self, id: Id, input: &NoteInput) -> Result<Reply<Note>, CliError> {
        let body = wrapped("note", input)?;
        self.data(request(Patch, format!("/notes/{id}")).with_body(body))
    }

    /// `DELETE /notes/{id}`.
    pub(crate) fn delete_note(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/notes/{id}"))).map(drop)
    }

    /// `POST /notes/{id}/restoration`.
    pub(crate) fn restore_note(&self, id: Id) -> Result<Reply<Note>, CliError> {
        self.data(request(Post, format!("/notes/{id}/restoration")))
    }

    /// `POST /notes/{id}/pin` (`pinned`), or `DELETE /notes/{id}/pin`.
    pub(crate) fn pin_note(&self, id: Id, pinned: bool) -> Result<Reply<Note>, CliError> {
        let method = if pinned { Post } else { Delete };
        self.data(request(method, format!("/notes/{id}/pin")))
    }

    /// `GET /categories`.
    pub(crate) fn categories(
        &self,
        query: &CategoryQuery,
    ) -> Result<Reply<Page<Category>>, CliError> {
        let mut pairs = Vec::new();
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/categories").with_query(query))?)
    }

    /// `GET /categories/{id}`.
    pub(crate) fn category(&self, id: Id) -> Result<Reply<Category>, CliError> {
        self.data(request(Get, format!("/categories/{id}")))
    }

    /// `POST /categories`.
    pub(crate) fn create_category(
        &self,
        input: &CategoryInput,
    ) -> Result<Reply<Category>, CliError> {
        self.data(request(Post, "/categories").with_body(wrapped("category", input)?))
    }

    /// `PATCH /categories/{id}`.
    pub(crate) fn change_category(
        &self,
        id: Id,
        input: &CategoryInput,
    ) -> Result<Reply<Category>, CliError> {
        let body = wrapped("category", input)?;
        self.data(request(Patch, format!("/categories/{id}")).with_body(body))
    }

    /// `DELETE /categories/{id}`, with `?if_unused=true` when `if_unused`.
    pub(crate) fn delete_category(&self, id: Id, if_unused: bool) -> Result<(), CliError> {
        let mut request = request(Delete, format!("/categories/{id}"));
        if if_unused {
            request = request.with_query(Query::from_pairs(vec![("if_unused", "true".to_owned())]));
        }
        self.send(request).map(drop)
    }

    /// `GET /category_note_counts`.
    pub(crate) fn category_note_counts(&self) -> Result<Reply<Vec<CategoryNoteCount>>, CliError> {
        self.data(request(Get, "/category_note_counts"))
    }

    /// `GET /tags`.
    pub(crate) fn tags(&self, query: &TagQuery) -> Result<Reply<Page<Tag>>, CliError> {
        let mut pairs = Vec::new();
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/tags").with_query(query))?)
    }

    /// `GET /tags/{id}`.
    pub(crate) fn tag(&self, id: Id) -> Result<Reply<Tag>, CliError> {
        self.data(request(Get, format!("/tags/{id}")))
    }

    /// `PATCH /tags/{id}` with a new name.
    pub(crate) fn rename_tag(&self, id: Id, name: &str) -> Result<Reply<Tag>, CliError> {
        let body = wrapped("tag", &TagRename { name })?;
        self.data(request(Patch, format!("/tags/{id}")).with_body(body))
    }

    /// `POST /tags/{id}/merge`: the surviving tag.
    pub(crate) fn merge_tag(&self, id: Id, into: Id) -> Result<Reply<Tag>, CliError> {
        let body = to_json(&TagMerge { into_id: into })?;
        self.data(request(Post, format!("/tags/{id}/merge")).with_body(body))
    }

    /// `DELETE /tags/{id}`.
    pub(crate) fn delete_tag(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/tags/{id}"))).map(drop)
    }

    /// `GET /vocabulary`, as JSON (the CLI reads the few lists it needs).
    pub(crate) fn vocabulary(&self) -> Result<Reply<Value>, CliError> {
        self.data(request(Get, "/vocabulary"))
    }

    /// `POST /uploads?kind=KIND&filename=NAME` with the file's bytes; a
    /// server is sent them with `progress` moving on.
    pub(crate) fn upload(
        &self,
        kind: &str,
        filename: &str,
        content_type: &str,
        bytes: Vec<u8>,
        progress: Option<&indicatif::ProgressBar>,
    ) -> Result<Reply<Uploaded>, CliError> {
        let query = Query::from_pairs(vec![
            ("kind", kind.to_owned()),
            ("filename", filename.to_owned()),
        ]);
        let request = request(Post, "/uploads")
            .with_query(query)
            .with_raw(content_type, bytes);
        let response = self.backend.call_with_progress(request, progress)?;
        let reply: Reply<Data<Uploaded>> = read(checked(response)?.json_value())?;
        Ok(Reply {
            data: reply.data.data,
            body: reply.body,
        })
    }

    /// `GET /documents`.
    pub(crate) fn documents(
        &self,
        query: &DocumentQuery,
    ) -> Result<Reply<Page<Document>>, CliError> {
        let mut pairs = Vec::new();
        match query.folder_id {
            None => {}
            Some(None) => pairs.push(("folder_id", "none".to_owned())),
            Some(Some(id)) => pairs.push(("folder_id", id.to_string())),
        }
        if let Some(q) = &query.q {
            pairs.push(("q", q.clone()));
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/documents").with_query(query))?)
    }

    /// `GET /documents/{id}`.
    pub(crate) fn document(&self, id: Id) -> Result<Reply<Document>, CliError> {
        self.data(request(Get, format!("/documents/{id}")))
    }

    /// `POST /documents`.
    pub(crate) fn create_document(
        &self,
        input: &DocumentWrite,
    ) -> Result<Reply<Document>, CliError> {
        self.data(request(Post, "/documents").with_body(wrapped("document", input)?))
    }

    /// `PATCH /documents/{id}`.
    pub(crate) fn change_document(
        &self,
        id: Id,
        input: &DocumentWrite,
    ) -> Result<Reply<Document>, CliError> {
        let body = wrapped("document", input)?;
        self.data(request(Patch, format!("/documents/{id}")).with_body(body))
    }

    /// `DELETE /documents/{id}`.
    pub(crate) fn delete_document(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/documents/{id}")))
            .map(drop)
    }

    /// `POST /documents/{id}/restoration`.
    pub(crate) fn restore_document(&self, id: Id) -> Result<Reply<Document>, CliError> {
        self.data(request(Post, format!("/documents/{id}/restoration")))
    }

    /// The bytes at a document's `file.url` (absolute, or below
    /// `/api/v1`), fetched through the backend like any request.
    pub(crate) fn document_file(&self, url: &str) -> Result<Vec<u8>, CliError> {
        let path = match url.find("/api/v1/") {
            Some(at) => &url[at + "/api/v1".len()..],
            None => url,
        };
        let (path, query) = match path.split_once('?') {
            Some((path, query)) => (
                path,
                Query::parse(query).map_err(|e| CliError::msg(format!("a file address: {e}")))?,
            ),
            None => (path, Query::default()),
        };
        let response = self.backend.call(request(Get, path).with_query(query))?;
        Ok(checked(response)?.body.unwrap_or_default())
    }

    /// `POST /document_links`.
    pub(crate) fn create_document_link(
        &self,
        input: &DocumentLinkWrite,
    ) -> Result<Reply<DocumentLink>, CliError> {
        let body = wrapped("document_link", input)?;
        self.data(request(Post, "/document_links").with_body(body))
    }

    /// `DELETE /document_links/{id}`: permanent.
    pub(crate) fn delete_document_link(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/document_links/{id}")))
            .map(drop)
    }

    /// `GET /document_links`: the links of one document, or to one record
    /// (`target`: its field, `task_id`, ..., and its ID).
    pub(crate) fn document_links(
        &self,
        query: &DocumentLinkQuery,
    ) -> Result<Reply<Page<DocumentLink>>, CliError> {
        let mut pairs = Vec::new();
        if let Some(document) = query.document_id {
            pairs.push(("document_id", document.to_string()));
        }
        let target = query
            .target
            .as_ref()
            .map(|(field, id)| (field.as_str(), id));
        match target {
            None => {}
            Some(("note_id", id)) => pairs.push(("note_id", id.to_string())),
            Some(("project_id", id)) => pairs.push(("project_id", id.to_string())),
            Some(("task_id", id)) => pairs.push(("task_id", id.to_string())),
            Some(("person_id", id)) => pairs.push(("person_id", id.to_string())),
            Some((field, _)) => {
                return Err(CliError::msg(format!(
                    "{field} is not a target of a document link"
                )));
            }
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/document_links").with_query(query))?)
    }

    /// `GET /folders`.
    pub(crate) fn folders(&self, query: &FolderQuery) -> Result<Reply<Page<Folder>>, CliError> {
        let mut pairs = Vec::new();
        match query.parent_id {
            None => {}
            Some(None) => pairs.push(("parent_id", "none".to_owned())),
            Some(Some(id)) => pairs.push(("parent_id", id.to_string())),
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/folders").with_query(query))?)
    }

    /// `GET /folders/{id}`.
    pub(crate) fn folder(&self, id: Id) -> Result<Reply<Folder>, CliError> {
        self.data(request(Get, format!("/folders/{id}")))
    }

    /// `POST /folders`.
    pub(crate) fn create_folder(&self, input: &FolderInput) -> Result<Reply<Folder>, CliError> {
        self.data(request(Post, "/folders").with_body(wrapped("folder", input)?))
    }

    /// `PATCH /folders/{id}`.
    pub(crate) fn change_folder(
        &self,
        id: Id,
        input: &FolderInput,
    ) -> Result<Reply<Folder>, CliError> {
        let body = wrapped("folder", input)?;
        self.data(request(Patch, format!("/folders/{id}")).with_body(body))
    }

    /// `DELETE /folders/{id}` (409 `folder_not_empty` unless empty).
    pub(crate) fn delete_folder(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/folders/{id}")))
            .map(drop)
    }

    /// `GET /folder_counts`.
    pub(crate) fn folder_counts(&self) -> Result<Reply<Vec<FolderCount>>, CliError> {
        self.data(request(Get, "/folder_counts"))
    }

    /// `GET /ai_providers`.
    pub(crate) fn ai_providers(
        &self,
        query: &AiProviderQuery,
    ) -> Result<Reply<Page<AiProvider>>, CliError> {
        let mut pairs = Vec::new();
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/ai_providers").with_query(query))?)
    }

    /// `GET /ai_providers/{id}`.
    pub(crate) fn ai_provider(&self, id: Id) -> Result<Reply<AiProvider>, CliError> {
        self.data(request(Get, format!("/ai_providers/{id}")))
    }

    /// `POST /ai_providers`.
    pub(crate) fn create_ai_provider(
        &self,
        input: &AiProviderInput,
    ) -> Result<Reply<AiProvider>, CliError> {
        self.data(request(Post, "/ai_providers").with_body(wrapped("ai_provider", input)?))
    }

    /// `DELETE /ai_providers/{id}`: permanent, with its models.
    pub(crate) fn delete_ai_provider(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/ai_providers/{id}")))
            .map(drop)
    }

    /// `POST /ai_providers/test` (not wrapped): lists the models with
    /// settings that are not saved, and says how many there are (waits
    /// up to 90 seconds).
    pub(crate) fn test_ai_provider(
        &self,
        settings: &ProviderTest,
    ) -> Result<Reply<ModelCount>, CliError> {
        self.data(request(Post, "/ai_providers/test").with_body(to_json(settings)?))
    }

    /// `POST /ai_providers/{id}/check`: the models the provider lists; the
    /// outcome is recorded on it (waits up to 90 seconds).
    pub(crate) fn check_ai_provider(&self, id: Id) -> Result<Reply<ModelList>, CliError> {
        self.data(request(Post, format!("/ai_providers/{id}/check")))
    }

    /// `POST /ai_providers/{id}/model_additions` (not wrapped).
    pub(crate) fn add_ai_models(
        &self,
        provider: Id,
        additions: &ModelAdditions,
    ) -> Result<Reply<AddedModels>, CliError> {
        let body = to_json(additions)?;
        self.data(
            request(Post, format!("/ai_providers/{provider}/model_additions")).with_body(body),
        )
    }

    /// `GET /ai_models`.
    pub(crate) fn ai_models(&self, query: &AiModelQuery) -> Result<Reply<Page<AiModel>>, CliError> {
        let mut pairs = Vec::new();
        if let Some(provider) = query.ai_provider_id {
            pairs.push(("ai_provider_id", provider.to_string()));
        }
        list_params(&query.params, query.params.order.as_deref(), &mut pairs);
        let query = Query::from_pairs(pairs);
        read(self.send(request(Get, "/ai_models").with_query(query))?)
    }

    /// `GET /ai_models/{id}`.
    pub(crate) fn ai_model(&self, id: Id) -> Result<Reply<AiModel>, CliError> {
        self.data(request(Get, format!("/ai_models/{id}")))
    }

    /// `PATCH /ai_models/{id}`.
    pub(crate) fn change_ai_model(
        &self,
        id: Id,
        input: &AiModelInput,
    ) -> Result<Reply<AiModel>, CliError> {
        let body = wrapped("ai_model", input)?;
        self.data(request(Patch, format!("/ai_models/{id}")).with_body(body))
    }

    /// `DELETE /ai_models/{id}`: permanent.
    pub(crate) fn delete_ai_model(&self, id: Id) -> Result<(), CliError> {
        self.send(request(Delete, format!("/ai_models/{id}")))
            .map(drop)
    }

    /// `POST /ai_models/{id}/trial` with `{prompt}`: the model's reply (waits
    /// up to 90 seconds); the outcome is recorded on its provider.
    pub(crate) fn try_ai_model(&self, id: Id, prompt: &str) -> Result<Reply<TrialReply>, CliError> {
        let body = serde_json::json!({ "prompt": prompt });
        self.data(request(Post, format!("/ai_models/{id}/trial")).with_body(body))
    }

    /// `GET /ai_tasks`: every built-in task.
    pub(crate) fn ai_tasks(&self) -> Result<Reply<Vec<AiTask>>, CliError> {
        self.data(request(Get, "/ai_tasks"))
    }

    /// `GET /ai_tasks/{key}`.
    pub(crate) fn ai_task(&self, key: &str) -> Result<Reply<AiTask>, CliError> {
        self.data(request(Get, format!("/ai_tasks/{}", segment(key))))
    }

    /// `PATCH /ai_tasks/{key}`.
    pub(crate) fn change_ai_task(
        &self,
        key: &str,
        input: &AiTaskInput,
    ) -> Result<Reply<AiTask>, CliError> {
        let body = wrapped("ai_task", input)?;
        self.data(request(Patch, format!("/ai_tasks/{}", segment(key))).with_body(body))
    }

    /// `GET /ai_tasks/{key}/queue`: how many records wait for the task.
    pub(crate) fn ai_task_queue(&self, key: &str) -> Result<Reply<AiTaskQueue>, CliError> {
        self.data(request(Get, format!("/ai_tasks/{}/queue", segment(key))))
    }

    /// `POST /ai_tasks/{key}/backfill`: how many records were queued now.
    pub(crate) fn backfill_ai_task(&self, key: &str) -> Result<Reply<Backfilled>, CliError> {
        self.data(request(
            Post,
            format!("/ai_tasks/{}/backfill", segment(key)),
        ))
    }

    /// Works the AI tasks' queues in this process (the core's
    /// `Organiser::run_ai_tasks`): how many records it wrote. `None` when
    /// requests go to a server, whose own worker works them.
    pub(crate) fn run_ai_tasks(&self) -> Result<Option<usize>, CliError> {
        match &self.backend {
            Backend::Local(org) => Ok(Some(org.run_ai_tasks()?)),
            Backend::Remote { .. } => Ok(None),
        }
    }

    /// Sends a request whose answer is `{data: T}`.
    fn data<T: DeserializeOwned>(&self, request: Request) -> Result<Reply<T>, CliError> {
        let reply: Reply<Data<T>> = read(self.send(request)?)?;
        Ok(Reply {
            data: reply.data.data,
            body: reply.body,
        })
    }

    /// Sends a request and returns its JSON body (null when it has none);
    /// an error status becomes the API's message.
    fn send(&self, request: Request) -> Result<Value, CliError> {
        let response = self.backend.call(request)?;
        Ok(checked(response)?.json_value())
    }
}

/// The response when its status is a success; else its error, with the
/// API's message.
fn checked(response: Response) -> Result<Response, CliError> {
    if (200..300).contains(&response.status) {
        return Ok(response);
    }
    let json = response.json_value();
    let error = serde_json::from_value::<ErrorBody>(json).ok();
    let (code, message, details) = error.map_or((None, None, None), |b| {
        (b.error.code, b.error.message, b.error.details)
    });
    Err(CliError::Api {
        status: response.status,
        code: code.unwrap_or_else(|| "error".to_owned()),
        message: message.unwrap_or_else(|| format!("the server answered {}", response.status)),
        details: details.filter(|d| d.as_object().is_some_and(|o| !o.is_empty())),
    })
}

/// A request of the owner at the machine (a server the CLI reaches over
/// HTTP authenticates it by its token instead).
fn request(method: Method, path: impl Into<String>) -> Request {
    Request::new(method, path, Auth::Local)
}

/// `text` as one segment of a path: every byte but ASCII letters, digits
/// and `-._~` percent-encoded, so that a key typed with `/` or `?` is one
/// unknown key (404), in this process as over HTTP.
fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Reads `body` into `T`, keeping the body.
fn read<T: DeserializeOwned>(body: Value) -> Result<Reply<T>, CliError> {
    match T::deserialize(&body) {
        Ok(data) => Ok(Reply { data, body }),
        Err(e) => Err(CliError::msg(format!(
            "the server's answer is not what this version of organiser reads ({e}); is the server a different version?"
        ))),
    }
}

fn to_json(value: &impl Serialize) -> Result<Value, CliError> {
    serde_json::to_value(value).map_err(|e| CliError::msg(format!("cannot write the request: {e}")))
}

/// `{name: input}`: the body of a write, wrapped under the record's name.
fn wrapped(name: &str, input: &impl Serialize) -> Result<Value, CliError> {
    let mut body = Map::new();
    body.insert(name.to_owned(), to_json(input)?);
    Ok(Value::Object(body))
}

/// The query of `GET /tasks`.
fn task_query(query: &TaskQuery) -> Query {
    let mut pairs = Vec::new();
    if let Some(view) = query.view {
        pairs.push(("view", view.as_str().to_owned()));
    }
    if let Some(statuses) = &query.statuses {
        let names: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
        pairs.push(("status", names.join(",")));
    }
    home(query.home, &mut pairs);
    let order = query.order.map(|o| o.as_str());
    list_params(
        &query.params,
        order.or(query.params.order.as_deref()),
        &mut pairs,
    );
    Query::from_pairs(pairs)
}

/// The home filter of `GET /tasks` and `GET /task_counts`.
fn home(home: Option<Home>, pairs: &mut Vec<(&'static str, String)>) {
    match home {
        None => {}
        Some(Home::Inbox) => pairs.push(("inbox", "true".to_owned())),
        Some(Home::List(id)) => pairs.push(("task_list_id", id.to_string())),
        Some(Home::Person(id)) => pairs.push(("person_id", id.to_string())),
        Some(Home::Project(id)) => pairs.push(("project_id", id.to_string())),
    }
}

/// The shared list parameters; `limit` always goes, `count` when true.
fn list_params(p: &ListParams, order: Option<&str>, pairs: &mut Vec<(&'static str, String)>) {
    if let Some(order) = order {
        pairs.push(("order", order.to_owned()));
    }
    if let Some(direction) = p.direction {
        pairs.push(("direction", direction.as_str().to_owned()));
    }
    if let Some(since) = p.updated_since {
        pairs.push(("updated_since", format_timestamp(since)));
    }
    if let Some(cursor) = &p.cursor {
        pairs.push(("cursor", cursor.clone()));
    }
    pairs.push(("limit", p.limit.to_string()));
    if p.count {
        pairs.push(("count", "true".to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use organiser_core::{Direction, Field, Organiser, ProjectStatus, TaskOrder, TaskStatus, View};

    use super::*;

    /// Every query the client writes is read by the core as the same
    /// query: its page is the page of the typed call.
    #[test]
    fn queries_mean_what_the_typed_calls_mean() {
        let org = Organiser::in_memory();
        let list = org
            .task_lists()
            .create(TaskListInput {
                name: Some("Errands".into()),
                ..TaskListInput::default()
            })
            .unwrap();
        for title in ["a", "b", "c"] {
            org.tasks().create(TaskInput::titled(title)).unwrap();
        }
        let milk = org
            .tasks()
            .create(TaskInput {
                task_list_id: Some(list.id).into(),
                ..TaskInput::titled("milk")
            })
            .unwrap();
        org.tasks()
            .change(
                milk.id,
                TaskInput {
                    status: Some(TaskStatus::Completed),
                    ..TaskInput::default()
                },
            )
            .unwrap();
        let client = Client::new(Backend::Local(org.clone()));
        let params = |limit, count| ListParams {
            limit,
            count,
            ..ListParams::default()
        };
        let queries = [
            TaskQuery::default(),
            TaskQuery {
                view: Some(View::Logbook),
                params: params(2, true),
                ..TaskQuery::default()
            },
            TaskQuery {
                statuses: Some(vec![TaskStatus::Open, TaskStatus::Completed]),
                home: Some(Home::List(list.id)),
                ..TaskQuery::default()
            },
            TaskQuery {
                statuses: Some(vec![TaskStatus::Open]),
                home: Some(Home::Inbox),
                order: Some(TaskOrder::Id),
                params: ListParams {
                    direction: Some(Direction::Desc),
                    ..params(2, false)
                },
                ..TaskQuery::default()
            },
            TaskQuery {
                params: ListParams {
                    updated_since: Some("2000-01-01T00:00:00Z".parse().unwrap()),
                    ..params(3, true)
                },
                ..TaskQuery::default()
            },
        ];
        for query in queries {
            let typed = org.tasks().list(&query).unwrap();
            let page = client.tasks(&query).unwrap();
            assert_eq!(page.data, typed, "{query:?}");
            assert_eq!(page.body, typed.to_body(), "{query:?}");
            if let Some(cursor) = typed.next_cursor {
                let mut next = query.clone();
                next.params.cursor = Some(cursor);
                assert_eq!(
                    client.tasks(&next).unwrap().data,
                    org.tasks().list(&next).unwrap()
                );
            }
        }
        for query in [
            TaskCountsQuery::default(),
            TaskCountsQuery {
                view: Some(View::Logbook),
                home: Some(Home::List(list.id)),
            },
            TaskCountsQuery {
                view: None,
                home: Some(Home::Inbox),
            },
        ] {
            let counts = client.task_counts(&query).unwrap().data;
            assert_eq!(counts, org.tasks().counts(&query).unwrap(), "{query:?}");
        }
        let query = TaskListQuery {
            params: ListParams {
                order: Some("name".into()),
                ..params(1, true)
            },
        };
        assert_eq!(
            client.task_lists(&query).unwrap().data,
            org.task_lists().list(&query).unwrap()
        );
    }

    /// The projects' queries too: the listing with its status filter and
    /// cursors, the activity feed, the upcoming deadlines.
    #[test]
    fn project_queries_mean_what_the_typed_calls_mean() {
        let org = Organiser::in_memory();
        let today = org.me(&Auth::Local).unwrap().today;
        let mut ids = Vec::new();
        for (name, status, days) in [
            ("Apollo", "active", Some(-2)),
            ("Gemini", "done", Some(3)),
            ("Mercury", "planned", Some(40)),
            ("Artemis", "on_hold", None),
        ] {
            let project = org
                .projects()
                .create(ProjectInput {
                    name: Some(name.into()),
                    status: Field::Value(status.into()),
                    deadline: days.map_or(Field::Absent, |d: i64| {
                        Field::Value(today.checked_add(jiff::Span::new().days(d)).unwrap())
                    }),
                    ..ProjectInput::default()
                })
                .unwrap();
            ids.push(project.id);
        }
        org.projects()
            .change(
                ids[0],
                ProjectInput {
                    status: Field::Value("on_hold".into()),
                    ..ProjectInput::default()
                },
            )
            .unwrap();
        let client = Client::new(Backend::Local(org.clone()));
        for query in [
            ProjectQuery::default(),
            ProjectQuery {
                statuses: vec![ProjectStatus::Planned, ProjectStatus::Done],
                ..ProjectQuery::default()
            },
            ProjectQuery {
                params: ListParams {
                    limit: 1,
                    count: true,
                    order: Some("created_at".into()),
                    ..ListParams::default()
                },
                ..ProjectQuery::default()
            },
        ] {
            let typed = org.projects().list(&query).unwrap();
            assert_eq!(client.projects(&query).unwrap().data, typed, "{query:?}");
            if let Some(cursor) = typed.next_cursor {
                let mut next = query.clone();
                next.params.cursor = Some(cursor);
                assert_eq!(
                    client.projects(&next).unwrap().data,
                    org.projects().list(&next).unwrap()
                );
            }
        }
        let activity = ActivityQuery {
            cursor: None,
            limit: 1,
        };
        let first = client.project_activity(ids[0], &activity).unwrap().data;
        assert_eq!(
            first,
            org.project_activity().list(ids[0], &activity).unwrap()
        );
        let next = ActivityQuery {
            cursor: first.next_cursor.clone(),
            limit: 1,
        };
        assert!(next.cursor.is_some(), "{first:?}");
        assert_eq!(
            client.project_activity(ids[0], &next).unwrap().data,
            org.project_activity().list(ids[0], &next).unwrap()
        );
        for (days, limit) in [
            (None, None),
            (Some(0), None),
            (None, Some(1)),
            (Some(60), Some(2)),
        ] {
            let query = UpcomingDeadlinesQuery { days, limit };
            assert_eq!(
                client.upcoming_deadlines(query).unwrap().data,
                org.projects().upcoming_deadlines(query).unwrap(),
                "{query:?}"
            );
        }
        assert_eq!(
            client.project_task_counts().unwrap().data,
            org.tasks().project_counts().unwrap()
        );
    }

    /// The notes' filters, the categories' and tags' listings, and the
    /// writes the note commands make, as the typed calls.
    #[test]
    fn note_queries_and_writes_mean_what_the_typed_calls_mean() {
        let org = Organiser::in_memory();
        let client = Client::new(Backend::Local(org.clone()));
        let work = client
            .create_category(&CategoryInput {
                name: Some("Work".into()),
                ..CategoryInput::default()
            })
            .unwrap()
            .data;
        let mut fields = Map::new();
        fields.insert("name".into(), Value::from("Ada"));
        let ada = client.create_person(&fields).unwrap().data;
        let body = format!(
            "<p>Hi <span data-mention=\"{}\">@Ada</span> #garden</p>",
            ada.id
        );
        let made = client
            .create_note(&NoteInput {
                title: Field::Value("Plan".into()),
                category_id: Field::Value(work.id),
                body_html: Field::Value(body),
                edit_version: None,
            })
            .unwrap()
            .data;
        client.create_note(&NoteInput::default()).unwrap();
        client.pin_note(made.id, true).unwrap();
        let tag = made.tag_ids[0];
        let params = ListParams {
            limit: 1,
            count: true,
            ..ListParams::default()
        };
        for query in [
            NoteQuery::default(),
            NoteQuery {
                q: Some("pla".into()),
                ..NoteQuery::default()
            },
            NoteQuery {
                category_id: Some(work.id),
                tag_id: Some(tag),
                person_id: Some(ada.id),
                pinned: Some(true),
                ..NoteQuery::default()
            },
            NoteQuery {
                pinned: Some(false),
                params: params.clone(),
                ..NoteQuery::default()
            },
        ] {
            let typed = org.notes().list(&query).unwrap();
            assert_eq!(client.notes(&query).unwrap().data, typed, "{query:?}");
        }
        let query = CategoryQuery {
            params: params.clone(),
        };
        assert_eq!(
            client.categories(&query).unwrap().data,
            org.categories().list(&query).unwrap()
        );
        let query = TagQuery { params };
        assert_eq!(
            client.tags(&query).unwrap().data,
            org.tags().list(&query).unwrap()
        );
        // A change from an old version is the API's conflict.
        let stale = NoteInput {
            title: Field::Value("Other".into()),
            edit_version: Some(made.edit_version - 1),
            ..NoteInput::default()
        };
        match client.change_note(made.id, &stale).unwrap_err() {
            CliError::Api { status, code, .. } => {
                assert_eq!((status, code.as_str()), (409, "conflict"))
            }
            other => panic!("{other:?}"),
        }
        let renamed = client.rename_tag(tag, "yard").unwrap().data;
        assert_eq!(renamed.name, "yard");
        let other = client.create_note(&NoteInput {
            body_html: Field::Value("<p>#lawn</p>".into()),
            ..NoteInput::default()
        });
        let lawn = other.unwrap().data.tag_ids[0];
        assert_eq!(client.merge_tag(lawn, tag).unwrap().data.id, tag);
        client.delete_tag(tag).unwrap();
        client.delete_category(work.id, true).unwrap_err();
        client.delete_category(work.id, false).unwrap();
        assert!(client.category_note_counts().unwrap().data.is_empty());
    }

    /// The calendar's reads as the typed calls: the range, a person's
    /// meetings, the feeds' listing; a range too long is the API's refusal.
    #[test]
    fn calendar_reads_mean_what_the_typed_calls_mean() {
        let org = Organiser::in_memory();
        let today = org.me(&Auth::Local).unwrap().today;
        let client = Client::new(Backend::Local(org.clone()));
        let mut fields = Map::new();
        fields.insert("name".into(), Value::from("Ada"));
        let ada = client.create_person(&fields).unwrap().data;
        client
            .create_task(&TaskInput {
                deadline_on: Field::Value(today),
                ..TaskInput::titled("Pay")
            })
            .unwrap();
        let query = CalendarQuery {
            from: today,
            to: today,
        };
        let range = client.calendar(query).unwrap().data;
        assert_eq!(range, org.calendar().range(query).unwrap());
        let far = CalendarQuery {
            from: today,
            to: today.checked_add(jiff::Span::new().days(42)).unwrap(),
        };
        match client.calendar(far).unwrap_err() {
            CliError::Api { status, code, .. } => {
                assert_eq!((status, code.as_str()), (400, "invalid_parameter"))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            client.person_overview(ada.id).unwrap().data,
            org.person_overviews().get(ada.id).unwrap()
        );
        let feeds = CalendarFeedQuery::default();
        assert_eq!(
            client.calendar_feeds(&feeds).unwrap().data,
            org.calendar_feeds().list(&feeds).unwrap()
        );
    }

    /// The document links' filters as the typed call: every link, those to
    /// one record, those of one document.
    #[test]
    fn document_link_queries_mean_what_the_typed_calls_mean() {
        let org = Organiser::in_memory();
        let client = Client::new(Backend::Local(org.clone()));
        let task = client.create_task(&TaskInput::titled("Pay")).unwrap().data;
        let pdf = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n".to_vec();
        let upload = client
            .upload("document", "a.pdf", "application/pdf", pdf, None)
            .unwrap()
            .data;
        let document = client
            .create_document(&DocumentWrite {
                upload: Some(upload.signed_id),
                task_ids: Some(vec![task.id]),
                ..DocumentWrite::default()
            })
            .unwrap()
            .data;
        let to = |field: &str, id| DocumentLinkQuery {
            target: Some((field.to_owned(), id)),
            ..DocumentLinkQuery::default()
        };
        for query in [
            DocumentLinkQuery::default(),
            to("task_id", task.id),
            to("person_id", task.id),
            DocumentLinkQuery {
                document_id: Some(document.id),
                ..DocumentLinkQuery::default()
            },
        ] {
            let typed = org.documents().links(&query).unwrap();
            assert_eq!(
                client.document_links(&query).unwrap().data,
                typed,
                "{query:?}"
            );
        }
        assert_eq!(
            client
                .document_links(&to("task_id", task.id))
                .unwrap()
                .data
                .items
                .len(),
            1
        );
    }

    #[test]
    fn writes_wrap_the_input_and_errors_carry_the_api_message() {
        let client = Client::new(Backend::Local(Organiser::in_memory()));
        let made = client.create_task(&TaskInput::titled("Call")).unwrap();
        assert_eq!(made.data.title, "Call");
        assert_eq!(made.body["data"]["id"], made.data.id.to_string());
        let error = client.create_task(&TaskInput::default()).unwrap_err();
        match error {
            CliError::Api { status, code, .. } => {
                assert_eq!((status, code.as_str()), (422, "validation_failed"))
            }
            other => panic!("{other:?}"),
        }
        client.delete_task(made.data.id).unwrap();
        let back = client.restore_task(made.data.id).unwrap();
        assert_eq!(back.data.id, made.data.id);
    }
}
