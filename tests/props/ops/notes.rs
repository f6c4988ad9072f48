//! Notes, categories and tags (document 3 "Note", document 2 "Categories" and "Tags"): the operations, their strategies and their requests.

use super::*;

/// A note body: text with bare tags, and a mention and a project
/// reference of picked records.
#[derive(Debug, Clone)]
pub(crate) struct NoteBody {
    text: &'static str,
    mention: Option<Pick>,
    reference: Option<Pick>,
}

/// The operations on notes, categories and tags (document 3 "Note",
/// document 2 "Categories" and "Tags").
#[derive(Debug, Clone)]
pub(crate) enum NoteOp {
    Create {
        title: Option<&'static str>,
        body: NoteBody,
        category: Option<Pick>,
    },
    Change {
        note: Pick,
        title: Option<&'static str>,
        body: Option<NoteBody>,
        category: Option<Option<Pick>>,
        /// Sends an edit_version this far behind (0: the current one).
        behind: Option<u8>,
    },
    Pin {
        note: Pick,
        pinned: bool,
    },
    Delete {
        note: Pick,
    },
    Restore {
        note: Pick,
    },
}

pub(super) fn note_body() -> impl Strategy<Value = NoteBody> {
    (
        prop::sample::select(vec![
            "",
            "plain words",
            "an #idea and #Idea",
            "#alpha #beta, <b>bold</b> <code>#no</code>",
            "<script>x</script>#gamma.",
        ]),
        prop::option::weighted(0.4, pick()),
        prop::option::weighted(0.3, pick()),
    )
        .prop_map(|(text, mention, reference)| NoteBody {
            text,
            mention,
            reference,
        })
}

pub(super) fn note_op() -> BoxedStrategy<NoteOp> {
    prop_oneof![
        3 => (
            prop::option::weighted(0.5, prop::sample::select(vec!["Plan", "plan", " ", "Ideas"])),
            note_body(),
            prop::option::weighted(0.3, pick()),
        )
            .prop_map(|(title, body, category)| NoteOp::Create { title, body, category }),
        3 => (
            pick(),
            prop::option::weighted(0.3, prop::sample::select(vec!["Plan", "Later", ""])),
            prop::option::weighted(0.5, note_body()),
            prop::option::weighted(0.2, prop::option::of(pick())),
            prop::option::weighted(0.3, 0u8..2),
        )
            .prop_map(|(note, title, body, category, behind)| NoteOp::Change {
                note,
                title,
                body,
                category,
                behind,
            }),
        1 => (pick(), any::<bool>()).prop_map(|(note, pinned)| NoteOp::Pin { note, pinned }),
        1 => pick().prop_map(|note| NoteOp::Delete { note }),
        1 => deleted().prop_map(|note| NoteOp::Restore { note }),
    ]
    .boxed()
}

/// The operations on categories.
#[derive(Debug, Clone)]
pub(crate) enum CategoryOp {
    Create { name: String, position: Option<i64> },
    Change { category: Pick, position: i64 },
    Delete { category: Pick, if_unused: bool },
}

pub(super) fn category_op() -> BoxedStrategy<CategoryOp> {
    prop_oneof![
        2 => (person_name(), prop::option::weighted(0.3, -1i64..5))
            .prop_map(|(name, position)| CategoryOp::Create { name, position }),
        1 => (pick(), -1i64..5).prop_map(|(category, position)| CategoryOp::Change { category, position }),
        1 => (pick(), any::<bool>()).prop_map(|(category, if_unused)| CategoryOp::Delete { category, if_unused }),
    ]
    .boxed()
}

/// The operations on tags.
#[derive(Debug, Clone)]
pub(crate) enum TagOp {
    Rename { tag: Pick, name: &'static str },
    Merge { tag: Pick, into: Pick },
    Delete { tag: Pick },
}

pub(super) fn tag_op() -> BoxedStrategy<TagOp> {
    prop_oneof![
        2 => (pick(), prop::sample::select(vec!["alpha", "ALPHA", "new name", "a,b", "#"]))
            .prop_map(|(tag, name)| TagOp::Rename { tag, name }),
        1 => (pick(), pick()).prop_map(|(tag, into)| TagOp::Merge { tag, into }),
        1 => pick().prop_map(|tag| TagOp::Delete { tag }),
    ]
    .boxed()
}

impl World {
    pub(super) fn note_html(&self, body: &NoteBody) -> String {
        let mut html = format!("<p>{}", body.text);
        if let Some(p) = body.mention {
            html.push_str(&format!(
                " <span data-mention=\"{}\">@x</span>",
                self.pick("people", p)
            ));
        }
        if let Some(p) = body.reference {
            html.push_str(&format!(
                " <span data-project=\"{}\">^x</span>",
                self.pick("projects", p)
            ));
        }
        html.push_str("</p>");
        html
    }

    pub(super) fn note_call(&self, op: &NoteOp) -> Planned {
        let at = |note: &Pick| format!("/notes/{}", self.pick("notes", *note));
        let plain = |call: Call| Planned {
            call,
            creates: None,
        };
        match op {
            NoteOp::Create {
                title,
                body,
                category,
            } => {
                let mut f = Map::new();
                if let Some(t) = title {
                    f.insert("title".into(), json!(t));
                }
                f.insert("body_html".into(), json!(self.note_html(body)));
                if let Some(c) = category {
                    f.insert("category_id".into(), json!(self.pick("categories", *c)));
                }
                Planned {
                    call: Call::new(Method::Post, "/notes").body(json!({ "note": f })),
                    creates: Some("notes"),
                }
            }
            NoteOp::Change {
                note,
                title,
                body,
                category,
                behind,
            } => {
                let mut f = Map::new();
                if let Some(t) = title {
                    f.insert("title".into(), json!(t));
                }
                if let Some(b) = body {
                    f.insert("body_html".into(), json!(self.note_html(b)));
                }
                if let Some(c) = category {
                    let id = c.map(|c| self.pick("categories", c));
                    f.insert("category_id".into(), json!(id));
                }
                if let Some(behind) = behind {
                    let id = self.pick("notes", *note);
                    let stored = self.store.call(&Call::get(format!("/notes/{id}")));
                    if stored.status == 200 {
                        let version = stored.data()["edit_version"].as_i64().unwrap_or(1);
                        f.insert("edit_version".into(), json!(version - i64::from(*behind)));
                    }
                }
                plain(Call::new(Method::Patch, at(note)).body(json!({ "note": f })))
            }
            NoteOp::Pin { note, pinned } => {
                let method = if *pinned {
                    Method::Post
                } else {
                    Method::Delete
                };
                plain(Call::new(method, format!("{}/pin", at(note))))
            }
            NoteOp::Delete { note } => plain(Call::new(Method::Delete, at(note))),
            NoteOp::Restore { note } => {
                plain(Call::new(Method::Post, format!("{}/restoration", at(note))))
            }
        }
    }

    pub(super) fn category_call(&self, op: &CategoryOp) -> Planned {
        let at = |c: &Pick| format!("/categories/{}", self.pick("categories", *c));
        match op {
            CategoryOp::Create { name, position } => {
                let mut f = Map::new();
                f.insert("name".into(), json!(name));
                if let Some(p) = position {
                    f.insert("position".into(), json!(p));
                }
                Planned {
                    call: Call::new(Method::Post, "/categories").body(json!({ "category": f })),
                    creates: Some("categories"),
                }
            }
            CategoryOp::Change { category, position } => Planned {
                call: Call::new(Method::Patch, at(category))
                    .body(json!({"category": {"position": position}})),
                creates: None,
            },
            CategoryOp::Delete {
                category,
                if_unused,
            } => Planned {
                call: Call::new(Method::Delete, at(category))
                    .param("if_unused", if_unused.to_string()),
                creates: None,
            },
        }
    }

    pub(super) fn tag_call(&self, op: &TagOp) -> Planned {
        let at = |t: &Pick| format!("/tags/{}", self.pick("tags", *t));
        let call = match op {
            TagOp::Rename { tag, name } => {
                Call::new(Method::Patch, at(tag)).body(json!({"tag": {"name": name}}))
            }
            TagOp::Merge { tag, into } => Call::new(Method::Post, format!("{}/merge", at(tag)))
                .body(json!({"into_id": self.pick("tags", *into)})),
            TagOp::Delete { tag } => Call::new(Method::Delete, at(tag)),
        };
        Planned {
            call,
            creates: None,
        }
    }
}
