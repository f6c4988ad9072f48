//! Embedding Organiser: open a throwaway store, make a list and two tasks,
//! and print today's view, using only the public API.
//!
//! Run with `cargo run --example embed`.

use organiser::task_lists::TaskListInput;
use organiser::tasks::{TaskInput, TaskQuery, View};
use organiser::{Field, Organiser};

fn main() -> organiser::Result<()> {
    let org = Organiser::in_memory();
    let groceries = org.task_lists().create(TaskListInput {
        name: Some("Groceries".into()),
        ..TaskListInput::default()
    })?;
    org.tasks().create(TaskInput {
        task_list_id: Field::Value(groceries.id),
        start_on: Field::Value(org.today()),
        ..TaskInput::titled("Buy oat milk")
    })?;
    org.tasks().create(TaskInput::titled("Call the plumber"))?;

    let today = org.tasks().list(&TaskQuery {
        view: Some(View::Today),
        ..TaskQuery::default()
    })?;
    println!("Today, {}:", org.today());
    for task in today.items {
        println!("  - {} ({})", task.title, groceries.name);
    }
    Ok(())
}
