//! Folders and documents (document 3): the operations, their strategies and their requests.

use super::*;

/// The operations on folders (document 3, "Folder").
#[derive(Debug, Clone)]
pub(crate) enum FolderOp {
    Create { name: String, parent: Option<Pick> },
    Move { folder: Pick, parent: Option<Pick> },
    Delete { folder: Pick },
}

pub(super) fn folder_op() -> BoxedStrategy<FolderOp> {
    prop_oneof![
        2 => (person_name(), prop::option::weighted(0.4, pick()))
            .prop_map(|(name, parent)| FolderOp::Create { name, parent }),
        1 => (pick(), prop::option::weighted(0.6, pick()))
            .prop_map(|(folder, parent)| FolderOp::Move { folder, parent }),
        1 => pick().prop_map(|folder| FolderOp::Delete { folder }),
    ]
    .boxed()
}

/// The operations on documents: made from a fresh PDF upload, linked by
/// kind, moved between folders, deleted and restored.
#[derive(Debug, Clone)]
pub(crate) enum DocumentOp {
    Create {
        folder: Option<Pick>,
        task: Option<Pick>,
        note: Option<Pick>,
    },
    Change {
        document: Pick,
        folder: Option<Option<Pick>>,
        tasks: Option<Vec<Pick>>,
        people: Option<Vec<Pick>>,
    },
    Delete {
        document: Pick,
    },
    Restore {
        document: Pick,
    },
}

pub(super) fn document_op() -> BoxedStrategy<DocumentOp> {
    prop_oneof![
        2 => (
            prop::option::weighted(0.4, pick()),
            prop::option::weighted(0.4, pick()),
            prop::option::weighted(0.3, pick()),
        )
            .prop_map(|(folder, task, note)| DocumentOp::Create { folder, task, note }),
        2 => (
            pick(),
            prop::option::weighted(0.3, prop::option::of(pick())),
            prop::option::weighted(0.4, prop::collection::vec(pick(), 0..3)),
            prop::option::weighted(0.3, prop::collection::vec(pick(), 0..2)),
        )
            .prop_map(|(document, folder, tasks, people)| DocumentOp::Change {
                document,
                folder,
                tasks,
                people,
            }),
        1 => pick().prop_map(|document| DocumentOp::Delete { document }),
        1 => deleted().prop_map(|document| DocumentOp::Restore { document }),
    ]
    .boxed()
}

impl World {
    pub(super) fn folder_call(&self, op: &FolderOp) -> Planned {
        let at = |f: &Pick| format!("/folders/{}", self.pick("folders", *f));
        let parent = |p: &Option<Pick>| p.map(|p| self.pick("folders", p));
        match op {
            FolderOp::Create { name, parent: p } => Planned {
                call: Call::new(Method::Post, "/folders")
                    .body(json!({"folder": {"name": name, "parent_id": parent(p)}})),
                creates: Some("folders"),
            },
            FolderOp::Move { folder, parent: p } => Planned {
                call: Call::new(Method::Patch, at(folder))
                    .body(json!({"folder": {"parent_id": parent(p)}})),
                creates: None,
            },
            FolderOp::Delete { folder } => Planned {
                call: Call::new(Method::Delete, at(folder)),
                creates: None,
            },
        }
    }

    pub(super) fn document_call(&self, op: &DocumentOp) -> Planned {
        let at = |d: &Pick| format!("/documents/{}", self.pick("documents", *d));
        let plain = |call: Call| Planned {
            call,
            creates: None,
        };
        match op {
            DocumentOp::Create { folder, task, note } => {
                let signed = self
                    .store
                    .org
                    .uploads()
                    .create(
                        organiser::uploads::UploadKind::Document,
                        "Scan 1.pdf",
                        "application/pdf",
                        b"%PDF-1.4\n%%EOF\n".to_vec(),
                    )
                    .map(|u| u.signed_id)
                    .unwrap_or_default();
                let mut f = Map::new();
                f.insert("upload".into(), json!(signed));
                if let Some(p) = folder {
                    f.insert("folder_id".into(), json!(self.pick("folders", *p)));
                }
                if let Some(p) = task {
                    f.insert("task_ids".into(), json!([self.pick("tasks", *p)]));
                }
                if let Some(p) = note {
                    f.insert("note_ids".into(), json!([self.pick("notes", *p)]));
                }
                Planned {
                    call: Call::new(Method::Post, "/documents").body(json!({ "document": f })),
                    creates: Some("documents"),
                }
            }
            DocumentOp::Change {
                document,
                folder,
                tasks,
                people,
            } => {
                let mut f = Map::new();
                if let Some(folder) = folder {
                    let id = folder.map(|p| self.pick("folders", p));
                    f.insert("folder_id".into(), json!(id));
                }
                if let Some(tasks) = tasks {
                    let ids: Vec<String> = tasks.iter().map(|p| self.pick("tasks", *p)).collect();
                    f.insert("task_ids".into(), json!(ids));
                }
                if let Some(people) = people {
                    let ids: Vec<String> = people.iter().map(|p| self.pick("people", *p)).collect();
                    f.insert("person_ids".into(), json!(ids));
                }
                plain(Call::new(Method::Patch, at(document)).body(json!({ "document": f })))
            }
            DocumentOp::Delete { document } => plain(Call::new(Method::Delete, at(document))),
            DocumentOp::Restore { document } => plain(Call::new(
                Method::Post,
                format!("{}/restoration", at(document)),
            )),
        }
    }
}
