//! What is due today, and who has a birthday this week: the first program
//! an embedder writes. It opens a throwaway store, adds a few tasks and
//! people, then reads the two lists a morning glance needs, with the
//! typed library alone.
//!
//! Run with `cargo run --example due_today`; point it at a real store with
//! `Organiser::open` on its data directory instead of `in_memory`.

use organiser::people::{KeyDateFields, PersonInput, RowInput, UpcomingQuery};
use organiser::tasks::{TaskInput, TaskQuery, View};
use organiser::{Field, Organiser};

fn main() -> organiser::Result<()> {
    let org = Organiser::in_memory();
    let today = org.today();

    // A little to look at: two tasks due today, one due next week, and a
    // friend whose birthday is in three days.
    org.tasks().create(TaskInput {
        deadline_on: Field::Value(today),
        ..TaskInput::titled("Send the invoice")
    })?;
    org.tasks().create(TaskInput {
        start_on: Field::Value(today),
        ..TaskInput::titled("Water the plants")
    })?;
    org.tasks().create(TaskInput {
        deadline_on: Field::Value(today.saturating_add(jiff::Span::new().days(7))),
        ..TaskInput::titled("Renew the passport")
    })?;
    let birthday = today.saturating_add(jiff::Span::new().days(3));
    org.people().create(PersonInput {
        name: Some("Grace Hopper".into()),
        key_dates: Some(vec![RowInput::add(KeyDateFields {
            kind: Field::Value("birthday".into()),
            day: Field::Value(birthday.day().into()),
            month: Field::Value(birthday.month().into()),
            ..KeyDateFields::default()
        })]),
        ..PersonInput::default()
    })?;

    // The day's queue: open tasks overdue, due today, or started.
    let due = org.tasks().list(&TaskQuery {
        view: Some(View::TodayQueue),
        ..TaskQuery::default()
    })?;
    println!("Today, {today}:");
    for task in &due.items {
        match task.deadline_on {
            Some(deadline) if deadline <= today => println!("  - {} (due)", task.title),
            _ => println!("  - {}", task.title),
        }
    }

    // Key dates in the next seven days, soonest first.
    let week = org.people().upcoming_key_dates(UpcomingQuery {
        days: 7,
        ..UpcomingQuery::default()
    })?;
    println!("This week:");
    for upcoming in week.data.iter().filter(|u| u.key_date.kind == "birthday") {
        let age = upcoming
            .years
            .map(|y| format!(", turns {y}"))
            .unwrap_or_default();
        println!(
            "  - {}: {}'s birthday{age}",
            upcoming.date, upcoming.person.name
        );
    }
    Ok(())
}
