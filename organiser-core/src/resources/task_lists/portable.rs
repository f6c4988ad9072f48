//! Task lists in the organiser's archive (EXTENSIONS.md §5): a line is the
//! list as the API shows it; a live list keeps nothing the API does not
//! show, so no line has `"stored"`. An import writes the list with its ID,
//! timestamps and position as the line says, and its index entries as a
//! create does; no other list is renumbered.

use serde_json::Value;

use super::{KIND, ListRow, TaskList, insert_live, load_row, restored_name, update};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::Field;
use crate::limits;
use crate::portable::{self, Imported, Paths, Portable};
use crate::resources::task_lists::tables::TASK_LISTS;
use crate::resources::vocabulary::palette;
use crate::text::squished_required;

/// Task lists: `records/task_list.jsonl`.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "task_list",
    table: TASK_LISTS,
    export,
    import,
};

/// The line of live list `id`; `None` when it is deleted.
fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    portable::line_of(super::get(cx, id))
}

/// Writes a list line: made as the line says, or replacing an older live
/// list of its ID. A name another live list has meanwhile (ignoring case)
/// is numbered as a restore numbers it (`Work (2)`), so names stay unique.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut list: TaskList = portable::read_line(KIND.name, line)?;
    check(&list)?;
    let row = load_row(cx, list.id)?;
    let (stored, deleted) = match &row {
        Some(r) => (Some(r.list.updated_at), r.deleted.is_some()),
        None => (None, false),
    };
    let did = portable::decide(paths, stored, deleted, &mut list.updated_at);
    match (did, row) {
        (Imported::Created, _) => insert_live(cx, &unique(cx, list)?)?,
        (
            Imported::Updated,
            Some(ListRow {
                list: before,
                deleted: None,
            }),
        ) => update(cx, &before, &unique(cx, list)?)?,
        _ => return Ok(Imported::Unchanged),
    }
    Ok(did)
}

/// A 422 on `base` unless the line's name, colour and icon are ones a
/// create could have saved.
fn check(list: &TaskList) -> Result<()> {
    let mut details = Details::new();
    let name = squished_required(
        &mut details,
        "name",
        &list.name,
        limits::text::TASK_LIST_NAME,
    );
    if name != list.name {
        details.add("name", "is not squished");
    }
    if palette::check_color(&mut details, &Field::Value(list.color.clone())) == Some(None) {
        details.add("color", "can't be blank");
    }
    if let Some(icon) = &list.icon {
        palette::check_icon(&mut details, &Field::Value(icon.clone()));
    }
    if details.is_empty() {
        return Ok(());
    }
    Err(Error::invalid(
        "base",
        format!(
            "records/{}.jsonl: the {} {} cannot be read: {}",
            KIND.name,
            KIND.name,
            list.id,
            details.sentence()
        ),
    ))
}

/// `list` under a name no other live list has (its own when free).
fn unique(cx: &WriteCx<'_>, mut list: TaskList) -> Result<TaskList> {
    list.name = restored_name(cx, &list.name, list.id)?.ok_or_else(|| {
        Error::invalid(
            "base",
            format!(
                "records/{}.jsonl: the {} {} is named {:?} like another list here, and no numbered variant is free",
                KIND.name, KIND.name, list.id, list.name
            ),
        )
    })?;
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::list::{ListParams, Query};
    use crate::portable::round_trip;
    use crate::resources::task_lists::{TaskListInput, TaskListQuery};

    fn make(org: &crate::Organiser, name: &str, icon: Option<&str>) -> TaskList {
        org.task_lists()
            .create(TaskListInput {
                name: Some(name.into()),
                icon: icon.map_or(Field::Absent, |i| Field::Value(i.into())),
                ..TaskListInput::default()
            })
            .unwrap()
    }

    fn names(org: &crate::Organiser, order: &str) -> Vec<String> {
        let q = TaskListQuery::parse(&Query::parse(&format!("order={order}")).unwrap()).unwrap();
        org.task_lists()
            .list(&q)
            .unwrap()
            .items
            .into_iter()
            .map(|l| l.name)
            .collect()
    }

    #[test]
    fn lists_round_trip_exactly_and_a_second_import_changes_nothing() {
        let a = crate::Organiser::in_memory();
        let work = make(&a, "Work", Some("shopping-cart"));
        let home = make(&a, "home", None);
        let gone = make(&a, "Gone", None);
        make(&a, "Errands", None);
        a.task_lists()
            .change(
                home.id,
                TaskListInput {
                    position: Some(1),
                    color: Field::Value("blue".into()),
                    ..TaskListInput::default()
                },
            )
            .unwrap();
        a.task_lists().delete(gone.id).unwrap();
        let b = crate::Organiser::in_memory();
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(first[0].len(), 3, "the deleted list is left out");
        assert!(first[0].iter().all(|l| l.get("stored").is_none()));
        assert_eq!(
            serde_json::to_vec(&first).unwrap(),
            serde_json::to_vec(&again).unwrap()
        );
        assert!(did[0].iter().all(|d| *d == Imported::Created), "{did:?}");
        let (_, again2, did2) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(again2, first);
        assert!(
            did2[0].iter().all(|d| *d == Imported::Unchanged),
            "{did2:?}"
        );
        // The indexes: every order, name lookups, a new list goes last.
        assert_eq!(names(&b, "position"), ["home", "Work", "Errands"]);
        assert_eq!(names(&b, "name"), ["Errands", "home", "Work"]);
        assert_eq!(names(&b, "position"), names(&a, "position"));
        assert_eq!(names(&b, "updated_at"), names(&a, "updated_at"));
        assert_eq!(
            b.task_lists().get(work.id).unwrap().icon.as_deref(),
            Some("shopping-cart")
        );
        let taken = b.task_lists().create(TaskListInput {
            name: Some("WORK".into()),
            ..TaskListInput::default()
        });
        assert!(matches!(taken, Err(Error::Validation(_))), "{taken:?}");
        let last = make(&b, "Later", None);
        assert_eq!(last.position, 4);
        let count = TaskListQuery {
            params: ListParams {
                count: true,
                ..ListParams::default()
            },
        };
        assert_eq!(b.task_lists().list(&count).unwrap().total_count, Some(4));
    }

    #[test]
    fn a_newer_line_replaces_an_older_list_and_a_taken_name_is_numbered() {
        let clock = crate::clock::ManualClock::at("2026-03-10T09:00:00Z");
        let options = || crate::config::Options {
            clock: std::sync::Arc::new(clock.clone()),
            ..crate::config::Options::default()
        };
        let a = crate::Organiser::in_memory_with(options());
        let work = make(&a, "Work", None);
        let b = crate::Organiser::in_memory_with(options());
        round_trip(&a, &b, &[&PORTABLE]);
        clock.advance_secs(5);
        a.task_lists()
            .change(
                work.id,
                TaskListInput {
                    name: Some("Office".into()),
                    ..TaskListInput::default()
                },
            )
            .unwrap();
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(did[0], [Imported::Updated]);
        assert_eq!(first, again);
        assert_eq!(names(&b, "name"), ["Office"]);
        // Another store's list of the same name comes in numbered.
        let c = crate::Organiser::in_memory_with(options());
        make(&c, "office", None);
        let (_, again, did) = round_trip(&a, &c, &[&PORTABLE]);
        assert_eq!(did[0], [Imported::Created]);
        assert_eq!(again[0][0]["name"], "Office (2)");
    }

    #[test]
    fn a_line_that_does_not_read_is_422_on_base() {
        let b = crate::Organiser::in_memory();
        let bad = serde_json::json!({
            "id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "name": "  ", "color": "green", "icon": null,
            "position": 1, "created_at": "2026-03-09T08:00:00.000Z",
            "updated_at": "2026-03-09T08:00:00.000Z",
        });
        let missing = serde_json::json!({"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "name": "x"});
        for line in [bad, missing] {
            let e = b
                .inner
                .write(|cx| {
                    let paths = Paths::new(&cx.org.secret);
                    import(cx, &paths, line.clone())
                })
                .unwrap_err();
            match e {
                Error::Validation(d) => assert!(d.has("base"), "{d:?}"),
                e => panic!("{e:?}"),
            }
        }
    }
}
