//! The route table the property draws from: every route of the spec and of
//! docs/api.md with its methods and the error statuses its endpoint lists.

use organiser::server::Method;

use Method::{Delete, Get, Patch, Post, Put};

/// A route: the methods its path takes, the path (`{id}` for a record's
/// ID, `{n}` for a token's number), the error statuses the spec lists for
/// it (`None` for the routes docs/api.md adds, held to the Errors table
/// alone), whether it is a list, and the collection a 201 adds to.
pub(crate) struct Route {
    pub(super) methods: &'static [Method],
    pub(super) path: &'static str,
    pub(super) errors: Option<&'static [u16]>,
    pub(super) list: bool,
    pub(super) creates: Option<&'static str>,
}

pub(super) const fn route(
    methods: &'static [Method],
    path: &'static str,
    errors: &'static [u16],
) -> Route {
    Route {
        methods,
        path,
        errors: Some(errors),
        list: false,
        creates: None,
    }
}

pub(super) const fn ours(methods: &'static [Method], path: &'static str) -> Route {
    Route {
        methods,
        path,
        errors: None,
        list: false,
        creates: None,
    }
}

pub(super) const fn list(path: &'static str, errors: &'static [u16]) -> Route {
    Route {
        methods: &[Get],
        path,
        errors: Some(errors),
        list: true,
        creates: None,
    }
}

pub(super) const fn create(
    path: &'static str,
    errors: &'static [u16],
    creates: &'static str,
) -> Route {
    Route {
        methods: &[Post],
        path,
        errors: Some(errors),
        list: false,
        creates: Some(creates),
    }
}

pub(super) const READ: &[u16] = &[401, 429];
pub(super) const READ_ONE: &[u16] = &[401, 404, 429];
pub(super) const LIST: &[u16] = &[400, 401, 429];
pub(super) const CHANGE_SETTING: &[u16] = &[400, 401, 403, 415, 422, 429];
pub(super) const CREATE: &[u16] = &[400, 401, 403, 409, 415, 422, 429];
pub(super) const CHANGE: &[u16] = &[400, 401, 403, 404, 415, 422, 429];
pub(super) const DELETE: &[u16] = &[401, 403, 404, 429];

/// The core's routes (`organiser::server::endpoints()`, which
/// `the_route_table_is_the_cores` holds this to), with the spec's error
/// statuses per endpoint (documents 1 and 2). A later resource adds its
/// routes here.
pub(crate) const ROUTES: &[Route] = &[
    route(&[Get], "/.well-known/organiser", &[]),
    ours(&[Get], "/openapi.json"),
    route(&[Get], "/me", READ),
    ours(&[Patch, Put], "/me"),
    ours(&[Put, Patch], "/me/username"),
    ours(&[Put, Patch], "/me/password"),
    route(&[Get], "/appearance", READ),
    route(&[Patch, Put], "/appearance", CHANGE_SETTING),
    ours(&[Get], "/api_tokens"),
    ours(&[Post], "/api_tokens"),
    ours(&[Delete], "/api_tokens/{n}"),
    ours(&[Post], "/sign_in_links"),
    ours(&[Get], "/backup_settings"),
    ours(&[Patch, Put], "/backup_settings"),
    ours(&[Get], "/backups"),
    ours(&[Post], "/backups"),
    ours(&[Get], "/backups/{n}"),
    ours(&[Delete], "/backups/{n}"),
    ours(&[Get], "/backups/{n}/file"),
    ours(&[Get], "/export"),
    ours(&[Post], "/imports"),
    ours(&[Get], "/calendar_subscriptions"),
    ours(&[Post], "/calendar_subscriptions"),
    ours(&[Get], "/calendar_subscriptions/{id}"),
    ours(&[Patch, Put], "/calendar_subscriptions/{id}"),
    ours(&[Delete], "/calendar_subscriptions/{id}"),
    ours(&[Post], "/calendar_subscriptions/{id}/rotation"),
    ours(&[Get], "/notification_channels"),
    ours(&[Post], "/notification_channels"),
    ours(&[Get], "/notification_channels/{id}"),
    ours(&[Patch, Put], "/notification_channels/{id}"),
    ours(&[Delete], "/notification_channels/{id}"),
    ours(&[Post], "/notification_channels/{id}/test"),
    ours(&[Get], "/reminder_settings"),
    ours(&[Patch, Put], "/reminder_settings"),
    ours(&[Get], "/notifications"),
    route(&[Get], "/system", READ),
    route(&[Patch, Put], "/system", CHANGE_SETTING),
    route(&[Post], "/system/update_check", &[401, 403, 415, 422, 429]),
    route(&[Get], "/licence", READ),
    ours(&[Put, Patch], "/licence"),
    ours(&[Delete], "/licence"),
    ours(&[Post], "/licence/onboarding"),
    route(&[Get], "/vocabulary", READ),
    route(&[Get], "/licences", READ),
    list("/deletions", LIST),
    list("/task_lists", LIST),
    create("/task_lists", CREATE, "task_lists"),
    route(&[Get], "/task_lists/{id}", READ_ONE),
    route(&[Patch, Put], "/task_lists/{id}", CHANGE),
    route(&[Delete], "/task_lists/{id}", DELETE),
    route(
        &[Post],
        "/task_lists/{id}/restoration",
        &[400, 401, 403, 404, 409, 415, 422, 429],
    ),
    list("/tasks", LIST),
    create("/tasks", CREATE, "tasks"),
    route(&[Get], "/tasks/{id}", READ_ONE),
    route(&[Patch, Put], "/tasks/{id}", CHANGE),
    route(&[Delete], "/tasks/{id}", DELETE),
    route(
        &[Post],
        "/tasks/{id}/restoration",
        &[400, 401, 403, 404, 409, 415, 429],
    ),
    route(&[Get], "/task_counts", LIST),
    route(&[Get], "/project_task_counts", READ),
    // Members before projects and people: deletes run in this order.
    list("/project_members", LIST),
    create("/project_members", CREATE, "project_members"),
    route(&[Get], "/project_members/{id}", READ_ONE),
    route(&[Patch, Put], "/project_members/{id}", CHANGE),
    route(&[Delete], "/project_members/{id}", DELETE),
    list("/project_events", LIST),
    route(&[Get], "/upcoming_deadlines", LIST),
    // Links, then documents, before the records they link: deletes run
    // in this order.
    list("/document_links", LIST),
    create("/document_links", CREATE, "document_links"),
    route(&[Delete], "/document_links/{id}", DELETE),
    list("/documents", LIST),
    create("/documents", CREATE, "documents"),
    route(&[Get], "/documents/{id}", READ_ONE),
    ours(&[Get], "/documents/{id}/file"),
    ours(&[Get], "/documents/{id}/thumbnail"),
    route(&[Patch, Put], "/documents/{id}", CHANGE),
    route(&[Delete], "/documents/{id}", DELETE),
    route(
        &[Post],
        "/documents/{id}/restoration",
        &[400, 401, 403, 404, 409, 415, 422, 429],
    ),
    list("/calendar_feeds", LIST),
    create("/calendar_feeds", CREATE, "calendar_feeds"),
    route(&[Post], "/calendar_feeds/sync", &[400, 401, 403, 415, 429]),
    route(&[Get], "/calendar_feeds/{id}", READ_ONE),
    route(&[Patch, Put], "/calendar_feeds/{id}", CHANGE),
    route(
        &[Post],
        "/calendar_feeds/{id}/sync",
        &[400, 401, 403, 404, 415, 429],
    ),
    route(&[Delete], "/calendar_feeds/{id}", DELETE),
    route(&[Get], "/calendar", &[400, 401, 429]),
    // Models before providers: deletes run in this order.
    list("/ai_models", LIST),
    create("/ai_models", CREATE, "ai_models"),
    route(&[Get], "/ai_models/{id}", READ_ONE),
    route(&[Patch, Put], "/ai_models/{id}", CHANGE),
    route(
        &[Post],
        "/ai_models/{id}/trial",
        &[400, 401, 403, 404, 415, 422, 429],
    ),
    route(&[Delete], "/ai_models/{id}", DELETE),
    list("/ai_providers", LIST),
    create("/ai_providers", CREATE, "ai_providers"),
    route(
        &[Post],
        "/ai_providers/test",
        &[400, 401, 403, 404, 415, 422, 429],
    ),
    route(&[Get], "/ai_providers/{id}", READ_ONE),
    route(&[Patch, Put], "/ai_providers/{id}", CHANGE),
    route(
        &[Post],
        "/ai_providers/{id}/check",
        &[400, 401, 403, 404, 415, 422, 429],
    ),
    route(
        &[Get],
        "/ai_providers/{id}/available_models",
        &[401, 403, 404, 422, 429],
    ),
    route(
        &[Post],
        "/ai_providers/{id}/model_additions",
        &[400, 401, 403, 404, 409, 415, 422],
    ),
    route(&[Delete], "/ai_providers/{id}", DELETE),
    route(&[Get], "/ai_tasks", READ),
    route(&[Get], "/ai_tasks/{key}", READ_ONE),
    route(&[Patch, Put], "/ai_tasks/{key}", CHANGE),
    route(
        &[Post],
        "/ai_tasks/{key}/backfill",
        &[400, 401, 403, 404, 409, 415, 422, 429],
    ),
    ours(&[Get], "/ai_tasks/{key}/queue"),
    route(&[Get], "/search", &[400, 401, 429]),
    list("/folders", LIST),
    create("/folders", CREATE, "folders"),
    route(&[Get], "/folders/{id}", READ_ONE),
    route(&[Patch, Put], "/folders/{id}", CHANGE),
    route(&[Delete], "/folders/{id}", &[401, 403, 404, 409, 429]),
    route(&[Get], "/folder_counts", READ),
    list("/notes", LIST),
    create("/notes", CREATE, "notes"),
    route(&[Get], "/notes/{id}", READ_ONE),
    // Before the note's delete: deletes run in this order.
    ours(&[Post, Delete], "/notes/{id}/pin"),
    route(
        &[Patch, Put],
        "/notes/{id}",
        &[400, 401, 403, 404, 409, 415, 422, 429],
    ),
    route(&[Delete], "/notes/{id}", DELETE),
    route(
        &[Post],
        "/notes/{id}/restoration",
        &[400, 401, 403, 404, 409, 415, 422, 429],
    ),
    list("/categories", LIST),
    create("/categories", CREATE, "categories"),
    route(&[Get], "/categories/{id}", READ_ONE),
    route(&[Patch, Put], "/categories/{id}", CHANGE),
    route(
        &[Delete],
        "/categories/{id}",
        &[400, 401, 403, 404, 409, 429],
    ),
    route(&[Get], "/category_choices", READ),
    route(&[Get], "/category_note_counts", READ),
    list("/tags", LIST),
    route(&[Get], "/tags/{id}", READ_ONE),
    route(&[Patch, Put], "/tags/{id}", CHANGE),
    route(&[Delete], "/tags/{id}", DELETE),
    route(
        &[Post],
        "/tags/{id}/merge",
        &[400, 401, 403, 404, 409, 415, 422, 429],
    ),
    list("/projects", LIST),
    create("/projects", CREATE, "projects"),
    route(&[Get], "/projects/{id}", READ_ONE),
    route(&[Patch, Put], "/projects/{id}", CHANGE),
    route(&[Delete], "/projects/{id}", DELETE),
    route(
        &[Post],
        "/projects/{id}/restoration",
        &[400, 401, 403, 404, 409, 415, 422, 429],
    ),
    route(&[Get], "/projects/{id}/activity", &[400, 401, 404, 429]),
    // Links before people: deletes run in this order, and a person's
    // delete takes its links.
    list("/person_links", LIST),
    create("/person_links", CREATE, "person_links"),
    route(&[Get], "/person_links/{id}", READ_ONE),
    route(&[Patch, Put], "/person_links/{id}", CHANGE),
    route(&[Delete], "/person_links/{id}", DELETE),
    list("/people", LIST),
    create("/people", CREATE, "people"),
    route(&[Get], "/people/{id}", READ_ONE),
    route(&[Patch, Put], "/people/{id}", CHANGE),
    route(&[Delete], "/people/{id}", DELETE),
    route(
        &[Post],
        "/people/{id}/restoration",
        &[400, 401, 403, 404, 409, 415, 429],
    ),
    route(&[Get], "/people/{id}/meetings", &[400, 401, 404, 429]),
    ours(&[Get], "/people/{id}/overview"),
    ours(&[Put, Patch], "/people/{id}/avatar"),
    ours(&[Get], "/avatars/{id}"),
    ours(&[Get], "/avatars/{id}/{size}"),
    ours(&[Get], "/avatars/{id}/files/{size}"),
    list("/companies", LIST),
    route(&[Get], "/companies/{id}", READ_ONE),
    // 404 for a `person_id` that is not a live person (ours).
    route(&[Get], "/upcoming_key_dates", &[400, 401, 404, 429]),
    route(
        &[Post],
        "/uploads",
        &[400, 401, 403, 411, 413, 415, 422, 429],
    ),
];

/// The routes that answer without credentials; `/openapi.json` answers
/// the document bare, not wrapped in `data`.
pub(super) const PUBLIC: &[&str] = &[
    "/.well-known/organiser",
    "/openapi.json",
    "/avatars/{id}",
    "/avatars/{id}/{size}",
    "/avatars/{id}/files/{size}",
];

/// The routes that answer a file's bytes, not JSON.
pub(super) const FILES: &[&str] = &[
    "/documents/{id}/file",
    "/documents/{id}/thumbnail",
    "/avatars/{id}/files/{size}",
    "/export",
];

/// Paths of the spec that this build does not serve yet (404), and others
/// that no route has.
pub(super) const UNSERVED: &[&str] = &[
    "/search",
    "/session",
    "/",
    "/api/v1/tasks",
    "/TASKS",
    "/tasks/{id}/restoration/{id}",
    "/task_lists/{id}/tasks",
    "/.well-known/other",
];

/// The spec's Errors table: the codes each status may carry.
pub(super) fn codes(status: u16) -> &'static [&'static str] {
    match status {
        400 => &["invalid_parameter", "invalid_json"],
        401 => &["unauthorized"],
        403 => &["session_required", "read_only"],
        404 => &["not_found"],
        409 => &[
            "conflict",
            "folder_not_empty",
            "in_use",
            "idempotency_key_in_use",
        ],
        411 => &["length_required"],
        413 => &["payload_too_large"],
        415 => &["unsupported_media_type"],
        422 => &[
            "validation_failed",
            "idempotency_key_reused",
            "provider_error",
            "key_required",
            "already_added",
            "delivery_failed",
        ],
        429 => &["rate_limited"],
        _ => &[],
    }
}
