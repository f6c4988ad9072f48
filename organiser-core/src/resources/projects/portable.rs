//! Projects, their members and their events in the organiser's archive
//! (EXTENSIONS.md §5): `records/project.jsonl`,
//! `records/project_member.jsonl` and `records/project_event.jsonl`, each
//! line the record as the API shows it (the store keeps nothing more of a
//! live one).
//!
//! An import writes the stored records and their indexes directly, as the
//! resource's own saves do, and never through the functions that log
//! events: importing a project or a member makes no event, and events are
//! written as the archive holds them. A project's `members` are derived:
//! they are not read from its line but come back with the members (an
//! imported member gives its live project its brief and index entries,
//! keeping the project's `updated_at`). A member or an event is written
//! only while its project, and its person, are live here: the source shows
//! no other.

use jiff::Timestamp;
use serde_json::Value;

use super::events::{EventRecord, ProjectEvent};
use super::members::{self, MemberRecord, ProjectMember};
use super::shown::{self, Gone, Row};
use super::tables::{EVENTS, MEMBERS, MEMBERS_BY_PROJECT, PROJECTS};
use super::{Project, ProjectRecord};
use crate::engine::{ReadCx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable};
use crate::resources::people;

/// The projects' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "project",
    table: PROJECTS,
    export: export_project,
    import: import_project,
};

/// The project members' part of the archive.
pub(crate) static MEMBERS_PORTABLE: Portable = Portable {
    kind: "project_member",
    table: MEMBERS,
    export: export_member,
    import: import_member,
};

/// The project events' part of the archive.
pub(crate) static EVENTS_PORTABLE: Portable = Portable {
    kind: "project_event",
    table: EVENTS,
    export: export_event,
    import: import_event,
};

/// The line of project `id`: the project as the API shows it.
fn export_project(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    portable::line_of(super::get(cx, id))
}

/// Writes a project's line: its record exactly (its members those stored
/// here), with every index a create writes; no event, no follower told.
fn import_project(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut project: Project = portable::read_line(PORTABLE.kind, line)?;
    let row = super::load_row(cx, project.id)?;
    let (stored, deleted) = match &row {
        Some(r) => (
            r.deleted_at.is_none().then_some(r.project.updated_at),
            r.deleted_at.is_some(),
        ),
        None => (None, false),
    };
    let did = portable::decide(paths, stored, deleted, &mut project.updated_at);
    if did == Imported::Unchanged {
        return Ok(did);
    }
    // The name stays unique here: taken by another project, it takes the
    // first free numbered one, as a restoration does.
    let Some(name) = super::restored_name(cx, &project.name, project.id)? else {
        return Ok(Imported::Unchanged);
    };
    project.name = name;
    project.members = members::briefs_of(cx, project.id)?;
    match row {
        Some(ProjectRecord {
            project: before, ..
        }) => super::update(cx, &before, &project)?,
        None => {
            cx.set_indexes(&super::entries(&project), true)?;
            super::save(cx, &project, None)?;
        }
    }
    Ok(did)
}

/// The line of member `id`: the member as the API shows it.
fn export_member(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    portable::line_of(members::get(cx, id))
}

/// What to do with a row of a project (a member, an event) whose line
/// says `updated_at`: by the stored row (a deletion record here was read
/// by `portable::import`), and only while `owners_live`.
fn decide_row<R: Row>(
    paths: &Paths<'_>,
    stored: Option<&R>,
    updated_at: &mut Timestamp,
    stored_at: impl Fn(&R) -> Timestamp,
    owners_live: bool,
) -> Imported {
    let (at, deleted) = match stored {
        Some(r) => {
            let gone = r.gone();
            let shown = !gone.project && !gone.person;
            (shown.then(|| stored_at(r)), !shown)
        }
        None => (None, false),
    };
    match portable::decide(paths, at, deleted, updated_at) {
        _ if !owners_live => Imported::Unchanged,
        did => did,
    }
}

/// Writes `after` in place of `before` (none: a new row), moving every
/// index entry of both.
fn put_row<R: Row>(cx: &WriteCx<'_>, before: Option<&R>, after: &R) -> Result<()> {
    if let Some(before) = before {
        shown::remove(cx, before)?;
    }
    shown::insert(cx, after)
}

/// Whether the project `project` and the person `person` (when there is
/// one) are live here.
fn owners_live(cx: &WriteCx<'_>, project: Id, person: Option<Id>) -> Result<bool> {
    Ok(super::exists(cx, project)?
        && match person {
            Some(person) => people::exists(cx, person)?,
            None => true,
        })
}

/// Gives live project `id` the briefs of its shown members and their
/// index entries, keeping its `updated_at` (its line holds the one its
/// last member change gave it).
fn rebrief(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    let Some(before) = super::live(cx, id)? else {
        return Ok(());
    };
    let mut after = before.clone();
    after.members = members::briefs_of(cx, id)?;
    if after != before {
        super::update(cx, &before, &after)?;
    }
    Ok(())
}

/// Whether the store holds another member (shown or hidden) of the
/// member's project naming its person: a person is on a project once.
fn another_member(cx: &WriteCx<'_>, member: &ProjectMember) -> Result<bool> {
    for id in shown::ids_under(cx, MEMBERS_BY_PROJECT, member.project_id)? {
        if id != member.id
            && shown::load::<MemberRecord, _>(cx, id)?
                .is_some_and(|r| r.member.person_id == member.person_id)
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Writes a member's line: its record exactly, with every index an added
/// member has, and its project's briefs; no event.
fn import_member(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut member: ProjectMember = portable::read_line(MEMBERS_PORTABLE.kind, line)?;
    let stored = shown::load::<MemberRecord, _>(cx, member.id)?;
    let live = owners_live(cx, member.project_id, Some(member.person_id))?;
    let did = decide_row(
        paths,
        stored.as_ref(),
        &mut member.updated_at,
        |r: &MemberRecord| r.member.updated_at,
        live,
    );
    if did == Imported::Unchanged || another_member(cx, &member)? {
        return Ok(Imported::Unchanged);
    }
    let project = member.project_id;
    let before_project = stored.as_ref().map(|r| r.member.project_id);
    let after = MemberRecord {
        member,
        gone: Gone::default(),
    };
    put_row(cx, stored.as_ref(), &after)?;
    if let Some(other) = before_project.filter(|&p| p != project) {
        rebrief(cx, other)?;
    }
    rebrief(cx, project)?;
    Ok(did)
}

/// The line of event `id`: the event as the API shows it.
fn export_event(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    shown::load_shown::<EventRecord, _>(cx, id)?
        .map(|r| portable::to_line(r.event))
        .transpose()
}

/// Writes an event's line: its record exactly, with its indexes.
fn import_event(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut event: ProjectEvent = portable::read_line(EVENTS_PORTABLE.kind, line)?;
    let stored = shown::load::<EventRecord, _>(cx, event.id)?;
    let live = owners_live(cx, event.project_id, event.person_id)?;
    let did = decide_row(
        paths,
        stored.as_ref(),
        &mut event.updated_at,
        |r: &EventRecord| r.event.updated_at,
        live,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    let after = EventRecord {
        event,
        gone: Gone::default(),
    };
    put_row(cx, stored.as_ref(), &after)?;
    Ok(did)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use jiff::civil::Date;

    use super::*;
    use crate::clock::ManualClock;
    use crate::config::Options;
    use crate::error::Error;
    use crate::input::Field;
    use crate::list::{ListOrder, ListParams};
    use crate::portable::round_trip;
    use crate::resources::people::PersonInput;
    use crate::resources::projects::{
        ProjectEventQuery, ProjectInput, ProjectMemberInput, ProjectMemberQuery, ProjectQuery,
        ProjectStatus, UpcomingDeadlinesQuery,
    };
    use crate::{Organiser, ProjectMember};

    /// A store whose clock stands at `now` and moves when told.
    fn org_at(now: &str) -> (Organiser, ManualClock) {
        let clock = ManualClock::at(now);
        let org = Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        });
        (org, clock)
    }

    /// The date `s` (ISO).
    fn date(s: &str) -> Date {
        s.parse().unwrap()
    }

    /// The lines as the archive writes them.
    fn text(lines: &[Vec<Value>]) -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|kind| kind.iter().map(|l| l.to_string()).collect())
            .collect()
    }

    /// Whether every import did `want`.
    fn all(did: &[Vec<Imported>], want: Imported) -> bool {
        did.iter().flatten().all(|&d| d == want)
    }

    /// `v` as a sent field.
    fn value(v: &str) -> Field<String> {
        Field::Value(v.into())
    }

    /// Projects with every field, status and deadline changes (events),
    /// one deleted; no members. Returns the clock and the live projects'
    /// IDs (`Apollo`, `Borealis`).
    fn projects(org: &Organiser, clock: &ManualClock) -> (Id, Id) {
        let apollo = org
            .projects()
            .create(ProjectInput {
                name: Some("Apollo".into()),
                status: value("planned"),
                start_date: Field::Value(date("2026-03-01")),
                deadline: Field::Value(date("2026-04-15")),
                my_role: value("Lead"),
                external_reference: value("PRJ-42"),
                external_url: value("example.com/apollo"),
                description_html: value("<p>Go to the <strong>moon</strong>.</p>"),
            })
            .unwrap();
        clock.advance_secs(60);
        let borealis = org
            .projects()
            .create(ProjectInput {
                name: Some("borealis".into()),
                deadline: Field::Value(date("2026-03-20")),
                ..ProjectInput::default()
            })
            .unwrap();
        clock.advance_secs(60);
        let gone = org
            .projects()
            .create(ProjectInput {
                name: Some("Gone".into()),
                ..ProjectInput::default()
            })
            .unwrap();
        org.projects().delete(gone.id).unwrap();
        clock.advance_secs(11 * 60);
        org.projects()
            .change(
                apollo.id,
                ProjectInput {
                    status: value("active"),
                    deadline: Field::Value(date("2026-05-01")),
                    ..ProjectInput::default()
                },
            )
            .unwrap();
        clock.advance_secs(11 * 60);
        org.projects()
            .change(
                borealis.id,
                ProjectInput {
                    status: value("done"),
                    ..ProjectInput::default()
                },
            )
            .unwrap();
        clock.advance_secs(60);
        (apollo.id, borealis.id)
    }

    /// The shown events of `project`.
    fn events_of(org: &Organiser, project: Id) -> Vec<ProjectEvent> {
        org.projects()
            .events(&ProjectEventQuery {
                project_id: Some(project),
                ..ProjectEventQuery::default()
            })
            .unwrap()
            .items
    }

    /// The names of the projects `q` lists, in its order.
    fn names(org: &Organiser, q: &ProjectQuery) -> Vec<String> {
        org.projects()
            .list(q)
            .unwrap()
            .items
            .into_iter()
            .map(|p| p.name)
            .collect()
    }

    /// Projects and their events come back exactly in an empty store,
    /// with their indexes; importing them again changes nothing.
    #[test]
    fn projects_and_events_round_trip_exactly() {
        let (a, clock) = org_at("2026-03-10T09:00:00Z");
        let (apollo, borealis) = projects(&a, &clock);
        let (b, _) = org_at("2026-03-10T12:00:00Z");
        let kinds = [&PORTABLE, &MEMBERS_PORTABLE, &EVENTS_PORTABLE];
        let (first, again, did) = round_trip(&a, &b, &kinds);
        assert_eq!(first[0].len(), 2, "the deleted project is not exported");
        assert_eq!(first[2].len(), 3, "two status changes and a deadline's");
        assert_eq!(text(&first), text(&again));
        assert!(all(&did, Imported::Created), "{did:?}");
        let (_, third, did) = round_trip(&a, &b, &kinds);
        assert!(all(&did, Imported::Unchanged), "{did:?}");
        assert_eq!(text(&first), text(&third));

        // The records and indexes work in the new store.
        assert_eq!(
            b.projects().get(apollo).unwrap(),
            a.projects().get(apollo).unwrap()
        );
        assert_eq!(names(&b, &ProjectQuery::default()), ["Apollo", "borealis"]);
        let done = ProjectQuery {
            statuses: vec![ProjectStatus::Done],
            ..ProjectQuery::default()
        };
        assert_eq!(names(&b, &done), ["borealis"]);
        let by_updated = ProjectQuery {
            params: ListParams {
                order: Some(ListOrder::UpdatedAt),
                ..ListParams::default()
            },
            ..ProjectQuery::default()
        };
        assert_eq!(names(&b, &by_updated), ["Apollo", "borealis"]);
        let upcoming = b
            .projects()
            .upcoming_deadlines(UpcomingDeadlinesQuery {
                days: Some(365),
                limit: None,
            })
            .unwrap();
        let due: Vec<_> = upcoming.iter().map(|d| d.project.id).collect();
        assert_eq!(due, [apollo], "a done project has no open deadline");
        let starts = b
            .inner
            .read(|cx| {
                super::super::open_dated_between(cx, false, date("2026-03-01"), date("2026-03-01"))
            })
            .unwrap();
        assert_eq!(starts, [apollo]);
        assert_eq!(events_of(&b, apollo), events_of(&a, apollo));
        assert_eq!(events_of(&b, borealis).len(), 1);
        // The name is taken in the new store.
        let taken = b.projects().create(ProjectInput {
            name: Some("APOLLO".into()),
            ..ProjectInput::default()
        });
        assert!(matches!(taken, Err(Error::Validation(_))), "{taken:?}");
    }

    /// Importing projects alone makes no event, and a newer line replaces
    /// the project, moving its indexes, again without an event.
    #[test]
    fn importing_projects_makes_no_events_and_newer_lines_replace() {
        let (a, clock) = org_at("2026-03-10T09:00:00Z");
        let (apollo, _) = projects(&a, &clock);
        let (b, _) = org_at("2026-03-10T12:00:00Z");
        let (_, _, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert!(all(&did, Imported::Created));
        assert!(events_of(&b, apollo).is_empty());

        a.projects()
            .change(
                apollo,
                ProjectInput {
                    name: Some("Artemis".into()),
                    status: value("cancelled"),
                    ..ProjectInput::default()
                },
            )
            .unwrap();
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(did, [vec![Imported::Updated, Imported::Unchanged]]);
        assert_eq!(text(&first), text(&again));
        assert!(events_of(&b, apollo).is_empty());
        assert_eq!(names(&b, &ProjectQuery::default()), ["Artemis", "borealis"]);
        let upcoming = b
            .projects()
            .upcoming_deadlines(UpcomingDeadlinesQuery {
                days: Some(365),
                limit: None,
            })
            .unwrap();
        assert!(upcoming.is_empty(), "a cancelled project is not due");
        // The old name is free again.
        b.projects()
            .create(ProjectInput {
                name: Some("Apollo".into()),
                ..ProjectInput::default()
            })
            .unwrap();
    }

    /// A new person named `name`.
    fn person(org: &Organiser, name: &str) -> Id {
        org.people()
            .create(PersonInput {
                name: Some(name.into()),
                ..PersonInput::default()
            })
            .unwrap()
            .id
    }

    /// `person` added to `project` with `role`.
    fn member(org: &Organiser, project: Id, person: Id, role: Option<&str>) -> ProjectMember {
        org.projects()
            .add_member(ProjectMemberInput {
                project_id: Field::Value(project),
                person_id: Field::Value(person),
                role: role.map_or(Field::Absent, value),
                ..ProjectMemberInput::default()
            })
            .unwrap()
    }

    /// A store with members: Ada leads Apollo, Bob writes on Apollo and
    /// reviews Borealis; Ada was on Borealis and removed; Cy was on
    /// Apollo and is deleted. Returns the projects, Ada, Bob and Ada's
    /// member of Apollo.
    fn with_members(a: &Organiser, clock: &ManualClock) -> (Id, Id, Id, Id, ProjectMember) {
        let (apollo, borealis) = projects(a, clock);
        let ada = person(a, "Ada");
        let bob = person(a, "Bob");
        let cy = person(a, "Cy");
        let lead = member(a, apollo, ada, Some("Lead"));
        clock.advance_secs(60);
        let second = member(a, apollo, bob, None);
        member(a, borealis, bob, Some("Reviewer"));
        clock.advance_secs(60);
        a.projects()
            .change_member(
                second.id,
                ProjectMemberInput {
                    role: value("Writer"),
                    ..ProjectMemberInput::default()
                },
            )
            .unwrap();
        let removed = member(a, borealis, ada, None);
        a.projects().remove_member(removed.id).unwrap();
        member(a, apollo, cy, None);
        a.people().delete(cy).unwrap();
        clock.advance_secs(60);
        (apollo, borealis, ada, bob, lead)
    }

    /// The names of `person`'s projects, by name.
    fn of_person(org: &Organiser, person: Id) -> Vec<String> {
        names(
            org,
            &ProjectQuery {
                person_id: Some(person),
                ..ProjectQuery::default()
            },
        )
    }

    /// With their people imported first, members and their events come
    /// back exactly in an empty store, with the projects' member briefs
    /// and the indexes by person; importing again changes nothing.
    #[test]
    fn members_round_trip_exactly_with_their_people() {
        let (a, clock) = org_at("2026-03-10T09:00:00Z");
        let (apollo, borealis, ada, bob, _) = with_members(&a, &clock);
        let (b, _) = org_at("2026-03-10T12:00:00Z");
        let kinds = [
            &crate::resources::people::portable::PORTABLE,
            &PORTABLE,
            &MEMBERS_PORTABLE,
            &EVENTS_PORTABLE,
        ];
        let (first, again, did) = round_trip(&a, &b, &kinds);
        assert_eq!(
            first[2].len(),
            3,
            "the removed and the hidden member are not exported"
        );
        assert_eq!(text(&first[1..]), text(&again[1..]));
        assert!(all(&did[1..], Imported::Created), "{did:?}");
        let (_, third, did) = round_trip(&a, &b, &kinds);
        assert!(all(&did[1..], Imported::Unchanged), "{did:?}");
        assert_eq!(text(&first[1..]), text(&third[1..]));

        assert_eq!(
            b.projects().get(apollo).unwrap(),
            a.projects().get(apollo).unwrap()
        );
        assert_eq!(of_person(&b, ada), ["Apollo"]);
        assert_eq!(of_person(&b, bob), ["Apollo", "borealis"]);
        let of_bob = b
            .projects()
            .members(&ProjectMemberQuery {
                person_id: Some(bob),
                ..ProjectMemberQuery::default()
            })
            .unwrap()
            .items;
        assert_eq!(of_bob.len(), 2);
        assert_eq!(events_of(&b, borealis), events_of(&a, borealis));
        // The person is a member already; removing one logs its event.
        let again = b.projects().add_member(ProjectMemberInput {
            project_id: Field::Value(apollo),
            person_id: Field::Value(ada),
            ..ProjectMemberInput::default()
        });
        assert!(matches!(again, Err(Error::Validation(_))), "{again:?}");
        b.projects().remove_member(of_bob[0].id).unwrap();
        assert_eq!(events_of(&b, apollo).len(), events_of(&a, apollo).len() + 1);
    }

    /// Members and their events, re-imported into the store they came
    /// from, change nothing; into a store without their people they are
    /// not written (their people are not there).
    #[test]
    fn members_re_imported_into_their_store_change_nothing() {
        let (a, clock) = org_at("2026-03-10T09:00:00Z");
        let (apollo, borealis, _, _, lead) = with_members(&a, &clock);
        let kinds = [&PORTABLE, &MEMBERS_PORTABLE, &EVENTS_PORTABLE];
        let (first, again, did) = round_trip(&a, &a, &kinds);
        assert_eq!(
            first[1].len(),
            3,
            "the removed and the hidden member are not exported"
        );
        assert!(all(&did, Imported::Unchanged), "{did:?}");
        assert_eq!(text(&first), text(&again));
        let shown = a.projects().get(apollo).unwrap().members;
        assert_eq!(shown.len(), 2);
        assert_eq!(shown[0].id, lead.id);
        assert_eq!(shown[1].role.as_deref(), Some("Writer"));

        // Without the people the members and their events are skipped.
        let (b, _) = org_at("2026-03-10T12:00:00Z");
        let (_, again, did) = round_trip(&a, &b, &kinds);
        assert!(did[1].iter().all(|&d| d == Imported::Unchanged));
        assert!(again[1].is_empty());
        assert!(b.projects().get(apollo).unwrap().members.is_empty());
        let kinds_here: Vec<_> = events_of(&b, borealis).iter().map(|e| e.kind).collect();
        assert_eq!(kinds_here, [crate::resources::projects::EventKind::Status]);
    }
}
