//! `GET /project_task_counts` (document 2, "ProjectTaskCount" and "Rules
//! for `/project_task_counts`"; DESIGN.md: `project_id`, `open`,
//! `completed`, `next_task`), and the completed tasks of a home that a
//! project's activity shows. Counts come from the per-home counters; the
//! next task from the covering index of the project's own tasks, so
//! neither reads a task outside the projects it answers for.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::home::Home;
use super::index::{Attrs, counter, keys};
use super::{Task, TaskStatus};
use crate::engine::Cx;
use crate::error::Result;
use crate::ids::Id;
use crate::resources::tasks::tables::TASKS_BY_HOME;
use crate::store::key::tail_id;
use crate::store::{Dir, Tables};

/// One project's task counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectTaskCount {
    /// The project.
    pub project_id: Id,
    /// Its live open tasks.
    pub open: u64,
    /// Its live completed tasks.
    pub completed: u64,
    /// The open task to do next: started ones first, then by deadline
    /// (none last), position and id; null when none is open.
    pub next_task: Option<Task>,
}

/// The covering attributes of every live task of `home`.
fn attrs_of<T: Tables>(cx: &Cx<'_, T>, home: Home) -> Result<Vec<(Id, Attrs)>> {
    let prefix = keys::home_prefix(home).into_vec();
    let mut found = Vec::new();
    cx.scan_prefix(TASKS_BY_HOME, &prefix, Dir::Asc, &mut |k, v| {
        found.push((tail_id(k), Attrs::decode_keyed(k, v)));
        Ok(true)
    })?;
    Ok(found)
}

/// The live completed tasks of `home` with when each was completed.
pub(crate) fn completed_in<T: Tables>(cx: &Cx<'_, T>, home: Home) -> Result<Vec<(Timestamp, Id)>> {
    Ok(attrs_of(cx, home)?
        .into_iter()
        .filter(|(_, a)| a.status == TaskStatus::Completed)
        .filter_map(|(id, a)| Some((a.closed?, id)))
        .collect())
}

/// `GET /project_task_counts`: one entry per project with live open or
/// completed tasks, by project ID. A deleted project's tasks left the
/// counters with it.
pub(crate) fn project_task_counts<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<ProjectTaskCount>> {
    let open = counter::by_home(cx, TaskStatus::Open.code())?;
    let completed = counter::by_home(cx, TaskStatus::Completed.code())?;
    let mut projects: Vec<Id> = open
        .iter()
        .chain(completed.iter())
        .filter(|(_, n)| **n > 0)
        .filter_map(|(home, _)| home.project_id())
        .collect();
    projects.sort();
    projects.dedup();
    let today = cx.today();
    let mut counts = Vec::with_capacity(projects.len());
    for project in projects {
        let home = Home::Project(project);
        let open = open.get(&home).copied().unwrap_or(0);
        let next = match open {
            0 => None,
            _ => attrs_of(cx, home)?
                .into_iter()
                .filter(|(_, a)| a.is_open())
                .min_by_key(|(id, a)| {
                    let started = a.start.is_none_or(|s| s <= today);
                    (!started, a.deadline.is_none(), a.deadline, a.position, *id)
                })
                .map(|(id, _)| id),
        };
        counts.push(ProjectTaskCount {
            project_id: project,
            open,
            completed: completed.get(&home).copied().unwrap_or(0),
            next_task: next.map(|id| super::get(cx, id)).transpose()?,
        });
    }
    Ok(counts)
}
