//! The records read back what they write, and what the API answers reads
//! into the same record as the typed call returns: clients (the CLI) can
//! deserialise the API's JSON into the core's own types.

use std::fmt::Debug;
use std::sync::Arc;

use organiser_core::{
    Auth, Options, Organiser, Page, clock::ManualClock, deletions::DeletionQuery, server::Method,
    server::Request, task_lists::TaskListInput, task_lists::TaskListQuery, tasks::TaskCountsQuery,
    tasks::TaskInput, tasks::TaskQuery, tasks::View,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn org() -> Organiser {
    Organiser::in_memory_with(Options {
        clock: Arc::new(ManualClock::at("2026-03-10T09:00:00Z")),
        ..Options::default()
    })
}

/// `record` writes JSON that reads back as itself.
#[track_caller]
fn round_trips<T: Serialize + DeserializeOwned + PartialEq + Debug>(record: &T) {
    let json = serde_json::to_value(record).unwrap();
    let read: T = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(&read, record, "{json}");
}

/// The body `org` answers to `GET path` (as `auth`).
#[track_caller]
fn answer(org: &Organiser, auth: Auth, path: &str, query: &str) -> Value {
    let request = Request::new(Method::Get, path, auth)
        .with_query(organiser_core::list::Query::parse(query).unwrap());
    let response = org.handle(&Request {
        plain_http: false,
        ..request
    });
    assert_eq!(response.status, 200, "{path}");
    response.json_value()
}

/// The `data` of the API's answer reads into `typed`, and `typed` round-trips.
#[track_caller]
fn reads_as<T: Serialize + DeserializeOwned + PartialEq + Debug>(body: &Value, typed: &T) {
    let read: T = serde_json::from_value(body["data"].clone()).unwrap();
    assert_eq!(&read, typed, "{body}");
    assert_eq!(serde_json::to_value(typed).unwrap(), body["data"]);
    round_trips(typed);
}

#[test]
fn tasks_lists_and_counts_read_back() {
    let org = org();
    let list = org
        .task_lists()
        .create(TaskListInput {
            name: Some("Errands".into()),
            ..TaskListInput::default()
        })
        .unwrap();
    let task = org
        .tasks()
        .create(TaskInput {
            task_list_id: Some(list.id).into(),
            start_on: Some("2026-03-10".parse().unwrap()).into(),
            description_html: Some("<p>milk</p>".into()).into(),
            ..TaskInput::titled("Buy milk")
        })
        .unwrap();
    let done = org
        .tasks()
        .create(TaskInput {
            status: Some(organiser_core::tasks::TaskStatus::Completed),
            ..TaskInput::titled("Done already")
        })
        .unwrap();
    reads_as(
        &answer(&org, Auth::Local, &format!("/tasks/{}", task.id), ""),
        &task,
    );
    reads_as(
        &answer(&org, Auth::Local, &format!("/tasks/{}", done.id), ""),
        &done,
    );
    reads_as(
        &answer(&org, Auth::Local, &format!("/task_lists/{}", list.id), ""),
        &list,
    );

    let counts = org
        .tasks()
        .counts(&TaskCountsQuery {
            view: Some(View::Today),
            home: None,
        })
        .unwrap();
    assert!(counts.page.is_some());
    reads_as(
        &answer(&org, Auth::Local, "/task_counts", "view=today"),
        &counts,
    );
    let counts = org.tasks().counts(&TaskCountsQuery::default()).unwrap();
    assert!(counts.page.is_none());
    reads_as(&answer(&org, Auth::Local, "/task_counts", ""), &counts);
}

#[test]
fn pages_read_back_with_their_meta() {
    let org = org();
    for title in ["a", "b", "c"] {
        org.tasks().create(TaskInput::titled(title)).unwrap();
    }
    let mut query = TaskQuery::default();
    query.params.limit = 2;
    query.params.count = true;
    let page = org.tasks().list(&query).unwrap();
    assert!(page.next_cursor.is_some() && page.total_count == Some(3));
    let body = answer(&org, Auth::Local, "/tasks", "limit=2&count=true");
    assert_eq!(serde_json::to_value(&page).unwrap(), body);
    assert_eq!(serde_json::to_value(&page).unwrap(), page.to_body());
    assert_eq!(serde_json::from_value::<Page<_>>(body).unwrap(), page);

    // Without `count`, the meta has no total_count.
    let lists = org.task_lists().list(&TaskListQuery::default()).unwrap();
    let body = answer(&org, Auth::Local, "/task_lists", "");
    assert!(body["meta"].get("total_count").is_none(), "{body}");
    assert_eq!(serde_json::to_value(&lists).unwrap(), body);
    assert_eq!(serde_json::from_value::<Page<_>>(body).unwrap(), lists);

    let task = org.tasks().list(&TaskQuery::default()).unwrap().items[0].clone();
    org.tasks().delete(task.id).unwrap();
    let deletions = org.deletions().list(&DeletionQuery::default()).unwrap();
    assert_eq!(deletions.items.len(), 1);
    let body = answer(&org, Auth::Local, "/deletions", "");
    assert_eq!(serde_json::from_value::<Page<_>>(body).unwrap(), deletions);
    round_trips(&deletions.items[0]);
}

#[test]
fn the_account_and_the_system_read_back() {
    let org = org();
    reads_as(
        &answer(&org, Auth::Local, "/me", ""),
        &org.me(&Auth::Local).unwrap(),
    );
    let made = org.account().create_token("phone", None).unwrap();
    round_trips(&made);
    let by_token = Auth::Token(made.token.clone());
    let me = org.me(&by_token).unwrap();
    assert!(me.token.is_some());
    reads_as(&answer(&org, by_token, "/me", ""), &me);
    let tokens = org.account().tokens().unwrap();
    reads_as(&answer(&org, Auth::Local, "/api_tokens", ""), &tokens);
    reads_as(
        &answer(&org, Auth::Local, "/appearance", ""),
        &org.account().appearance().unwrap(),
    );
    reads_as(
        &answer(&org, Auth::Local, "/system", ""),
        &org.system().get(false).unwrap(),
    );
    reads_as(
        &answer(&org, Auth::Local, "/licence", ""),
        &org.licence().get().unwrap(),
    );
}
