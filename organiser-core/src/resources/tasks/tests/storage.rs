//! Unit tests of what the tasks keep: completion counters, the migration
//! of stores of schema 1, and the JSON kept between reads.

use super::*;

/// Completes a new task titled `title` in `list` (the Inbox for `None`).
fn complete_new(org: &Organiser, title: &str, list: Option<Id>) {
    let mut input = TaskInput::titled(title);
    input.task_list_id = list.into();
    let task = org.tasks().create(input).unwrap();
    let done = TaskInput {
        status: Some(TaskStatus::Completed),
        ..TaskInput::default()
    };
    org.tasks().change(task.id, done).unwrap();
}

fn completed_today(org: &Organiser, query: &str) -> u64 {
    counts(org, query).page.unwrap().completed_today
}

#[test]
fn completed_today_follows_the_owners_day_and_zone() {
    // 23:50 in London on 10 March (UTC+0 then).
    let (org, clock) = org_at("2026-03-10T23:50:00Z", "London");
    let work = list(&org, "Work");
    complete_new(&org, "inbox late", None);
    complete_new(&org, "work late", Some(work));
    assert_eq!(completed_today(&org, "view=today"), 2);
    assert_eq!(
        completed_today(&org, "view=planned"),
        1,
        "all but the Inbox"
    );
    assert_eq!(completed_today(&org, "inbox=true"), 1);
    assert_eq!(completed_today(&org, &format!("task_list_id={work}")), 1);

    // Past midnight: a new day with nothing completed yet.
    clock.advance_secs(15 * 60);
    assert_eq!(completed_today(&org, "view=today"), 0);
    complete_new(&org, "work early", Some(work));
    assert_eq!(completed_today(&org, "view=today"), 1);

    // In Kathmandu (UTC+5:45) it is 11 March 05:55: all three are today's.
    org.account()
        .change_me(OwnerChange {
            time_zone: Some("Kathmandu".into()),
            ..OwnerChange::default()
        })
        .unwrap();
    assert_eq!(completed_today(&org, "view=today"), 3);
    assert_eq!(completed_today(&org, &format!("task_list_id={work}")), 2);

    // Reopening a task takes it out of the count.
    let q = TaskQuery::parse(&Query::parse("status=completed&order=id").unwrap()).unwrap();
    let first = org.tasks().list(&q).unwrap().items[0].id;
    let reopen = TaskInput {
        status: Some(TaskStatus::Open),
        ..TaskInput::default()
    };
    org.tasks().change(first, reopen).unwrap();
    assert_eq!(completed_today(&org, "view=today"), 2);
    assert_eq!(completed_today(&org, "inbox=true"), 0);
}

/// Rewrites a current store in the formats of schema 1: JSON records,
/// fixed-width covering values, no completion counters.
fn downgrade_to_schema_1(path: &std::path::Path) {
    use crate::resources::task_lists::tables::TASK_LISTS;
    use crate::resources::tasks::tables::TASK_COUNTERS;
    use crate::store::key::{Key, tail_id};
    use crate::store::schema::META;
    use crate::store::{Dir, Store, Tables};
    use std::ops::Bound;

    let store = Store::open(path).unwrap();
    let tx = store.begin_write().unwrap();
    let all = |t| {
        let mut entries = Vec::new();
        tx.scan(
            t,
            Bound::Unbounded,
            Bound::Unbounded,
            Dir::Asc,
            &mut |k, v| {
                entries.push((k.to_vec(), v.to_vec()));
                Ok(true)
            },
        )
        .unwrap();
        entries
    };
    for (k, v) in all(crate::resources::tasks::tables::TASKS) {
        let row = crate::store::codec::decode::<record::TaskRecord>(&v)
            .unwrap()
            .into_row(tail_id(&k));
        tx.insert(
            crate::resources::tasks::tables::TASKS,
            &k,
            &serde_json::to_vec(&row).unwrap(),
        )
        .unwrap();
    }
    for (k, v) in all(TASK_LISTS) {
        let json = crate::resources::task_lists::json_row_of_schema_2(tail_id(&k), &v);
        tx.insert(TASK_LISTS, &k, &json).unwrap();
    }
    for table in index::COVERING {
        let keyed = index::home_in_key(table);
        for (k, v) in all(table) {
            let attrs = match keyed {
                true => index::Attrs::decode_keyed(&k, &v),
                false => index::Attrs::decode(&v),
            };
            tx.insert(table, &k, &attrs.encode_fixed()).unwrap();
        }
    }
    let (lo, hi) = (Key::new().tag(13), Key::new().tag(14));
    let mut counters = Vec::new();
    tx.scan(
        TASK_COUNTERS,
        Bound::Included(lo.as_slice()),
        Bound::Excluded(hi.as_slice()),
        Dir::Asc,
        &mut |k, _| {
            counters.push(k.to_vec());
            Ok(true)
        },
    )
    .unwrap();
    assert!(!counters.is_empty(), "completion counters to take away");
    for k in counters {
        tx.remove(TASK_COUNTERS, &k).unwrap();
    }
    tx.insert(META, b"schema_version", &1u32.to_be_bytes())
        .unwrap();
    tx.commit().unwrap();
}

/// What a client sees of every task, list and count.
fn everything(org: &Organiser) -> Vec<serde_json::Value> {
    let get = |path: &str, query: &str| {
        let request = crate::Request::new(crate::Method::Get, path, Auth::Local)
            .with_query(Query::parse(query).unwrap());
        let response = org.handle(&request);
        assert_eq!(response.status, 200, "{path}?{query}");
        response.json_value()
    };
    let mut seen = vec![
        get(
            "/tasks",
            "status=open,completed,wont_do,archived&order=id&limit=100&count=true",
        ),
        get("/task_lists", "order=id&count=true"),
        get("/deletions", ""),
    ];
    for view in [
        "overview", "today", "planned", "one_day", "due_soon", "logbook",
    ] {
        seen.push(get("/tasks", &format!("view={view}&limit=100&count=true")));
    }
    for view in ["overview", "today", "planned", "one_day", "logbook"] {
        seen.push(get("/task_counts", &format!("view={view}")));
    }
    seen
}

#[test]
fn a_store_of_schema_1_is_migrated_to_compact_records_and_completion_counters() {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::at("2026-03-10T12:00:00Z");
    let options = Options {
        clock: Arc::new(clock.clone()),
        ..Options::default()
    };
    let before = {
        let org = Organiser::open_with(dir.path(), options.clone()).unwrap();
        let work = list(&org, "Work");
        let gone = list(&org, "Gone");
        complete_new(&org, "done", None);
        complete_new(&org, "done too", Some(work));
        t("open, due").deadline("2026-03-12").list(work).make(&org);
        t("started").start("2026-03-01").make(&org);
        t("taken with its list").list(gone).make(&org);
        org.task_lists().delete(gone).unwrap();
        assert_eq!(completed_today(&org, "view=today"), 2);
        everything(&org)
    };
    downgrade_to_schema_1(&dir.path().join(crate::STORE_FILE));
    let org = Organiser::open_with(dir.path(), options).unwrap();
    assert_eq!(everything(&org), before);
    assert_eq!(completed_today(&org, "inbox=true"), 1);
    // The list deleted before the migration comes back with its task.
    let gone = org
        .deletions()
        .list(&crate::DeletionQuery::default())
        .unwrap()
        .items
        .into_iter()
        .find(|d| d.kind == "task_list")
        .unwrap()
        .id;
    org.task_lists().restore(gone).unwrap();
    assert!(titles(&org, "status=open").contains(&"taken with its list".to_owned()));
}

#[test]
fn the_json_of_a_page_is_the_typed_page_and_never_stale() {
    let (org, _clock, work) = sample();
    let get = |query: &str| {
        let request = crate::Request::new(crate::Method::Get, "/tasks", Auth::Local)
            .with_query(Query::parse(query).unwrap());
        org.handle(&request).json_value()
    };
    let typed = |query: &str| {
        let q = TaskQuery::parse(&Query::parse(query).unwrap()).unwrap();
        serde_json::to_value(org.tasks().list(&q).unwrap()).unwrap()
    };
    for query in [
        "",
        "view=today",
        "view=logbook",
        &format!("task_list_id={work}"),
    ] {
        // Rendered once, then copied from what was kept: the same either way.
        assert_eq!(get(query), typed(query), "{query}");
        assert_eq!(get(query), typed(query), "{query}");
    }
    // Changed in the same millisecond: the next page shows the change.
    let first = typed("order=id")["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = Id::parse(&first).unwrap();
    for title in ["renamed", "renamed again"] {
        let input = TaskInput::titled(title);
        org.tasks().change(id, input).unwrap();
        assert_eq!(get("order=id")["data"][0]["title"], title);
    }
    org.tasks().delete(id).unwrap();
    assert_ne!(get("order=id")["data"][0]["id"], first.as_str());
}

#[test]
fn completion_counters_older_than_two_days_go_when_the_day_moves() {
    use crate::store::Tables;
    use crate::store::key::Key;
    use tables::TASK_COUNTERS;

    let (org, clock) = org_at("2026-03-10T09:00:00Z", "UTC");
    complete_new(&org, "old", None);
    let completions = || {
        org.inner
            .read(|cx| {
                let mut n = 0;
                cx.scan_prefix(
                    TASK_COUNTERS,
                    Key::new().tag(13).as_slice(),
                    crate::store::Dir::Asc,
                    &mut |_, _| {
                        n += 1;
                        Ok(true)
                    },
                )?;
                Ok(n)
            })
            .unwrap()
    };
    assert_eq!(completions(), 1);
    clock.advance_secs(86_400);
    complete_new(&org, "yesterday's", None);
    assert_eq!(
        completions(),
        2,
        "kept while it may still be today somewhere"
    );
    clock.advance_secs(3 * 86_400);
    assert_eq!(completed_today(&org, "view=today"), 0);
    assert_eq!(completions(), 0, "gone once the day moved on");
    // Reopening an old completion leaves today's count alone.
    let q = TaskQuery::parse(&Query::parse("status=completed&order=id").unwrap()).unwrap();
    let old = org.tasks().list(&q).unwrap().items[0].id;
    let reopen = TaskInput {
        status: Some(TaskStatus::Open),
        ..TaskInput::default()
    };
    org.tasks().change(old, reopen).unwrap();
    complete_new(&org, "today's", None);
    assert_eq!(completed_today(&org, "view=today"), 1);
}

#[test]
fn a_store_of_schema_12_indexes_the_people_descriptions_mention() {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::at("2026-03-10T12:00:00Z");
    let options = Options {
        clock: Arc::new(clock.clone()),
        ..Options::default()
    };
    let named = |name: &str| crate::PersonInput {
        name: Some(name.to_owned()),
        ..crate::PersonInput::default()
    };
    let (ada, task) = {
        let org = Organiser::open_with(dir.path(), options.clone()).unwrap();
        let ada = org.people().create(named("Ada Byron")).unwrap().id;
        let mut input = TaskInput::titled("Call");
        input.description_html = crate::input::Field::Value(format!(
            "<p>Ask <span data-mention=\"{ada}\">@Ada Byron</span></p>"
        ));
        (ada, org.tasks().create(input).unwrap().id)
    };
    // Back to schema 12: no index of mentions.
    {
        use crate::store::Store;
        let store = Store::open(&dir.path().join(crate::STORE_FILE)).unwrap();
        let tx = store.begin_write().unwrap();
        tx.drop_table("tasks_by_mention").unwrap();
        tx.insert(
            crate::store::schema::META,
            b"schema_version",
            &12u32.to_be_bytes(),
        )
        .unwrap();
        tx.commit().unwrap();
    }
    let org = Organiser::open_with(dir.path(), options).unwrap();
    org.people().change(ada, named("Ada Lovelace")).unwrap();
    let html = org.tasks().get(task).unwrap().description_html.unwrap();
    assert!(html.contains("@Ada Lovelace"), "{html}");
}
