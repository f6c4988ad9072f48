//! People and person links (document 3): the operations, their strategies and their requests.

use super::*;

/// The operations on people (document 3): rows added, changed by id and
/// removed, relationships, companies by name; delete and restore.
#[derive(Debug, Clone)]
pub(crate) enum PersonOp {
    Create {
        name: String,
        fields: PersonFields,
    },
    Change {
        person: Pick,
        name: Option<String>,
        fields: PersonFields,
        /// Change or remove the nth stored row of each array.
        row: Option<(u8, bool)>,
    },
    Delete {
        person: Pick,
    },
    Restore {
        person: Pick,
    },
}

/// The optional fields of a person a request sends.
#[derive(Debug, Clone)]
pub(crate) struct PersonFields {
    relationships: Option<Vec<&'static str>>,
    email: Option<&'static str>,
    key_date: Option<(u8, u8, Option<i16>)>,
    company: Option<&'static str>,
}

pub(super) fn person_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["Ada", "ada", "Bob", "Cy Twombly", "Dee"]).prop_map(str::to_owned),
        2 => "[A-Za-z]{1,8}( [A-Za-z]{1,8})?",
        1 => Just(" ".to_owned()),
    ]
}

pub(super) fn person_fields() -> impl Strategy<Value = PersonFields> {
    (
        prop::option::weighted(
            0.4,
            prop::collection::vec(
                prop::sample::select(vec!["friend", "parent", "colleague", "nemesis"]),
                0..3,
            ),
        ),
        prop::option::weighted(
            0.4,
            prop::sample::select(vec!["a@b.org", "c@d.net", "nope", ""]),
        ),
        prop::option::weighted(0.4, (1u8..=31, 1u8..=13, prop::option::of(1890i16..=2027))),
        prop::option::weighted(
            0.4,
            prop::sample::select(vec!["Acme", "acme", "Initech", ""]),
        ),
    )
        .prop_map(|(relationships, email, key_date, company)| PersonFields {
            relationships,
            email,
            key_date,
            company,
        })
}

pub(super) fn person_create() -> BoxedStrategy<PersonOp> {
    (person_name(), person_fields())
        .prop_map(|(name, fields)| PersonOp::Create { name, fields })
        .boxed()
}

pub(super) fn person_op() -> BoxedStrategy<PersonOp> {
    prop_oneof![
        4 => person_create(),
        3 => (pick(), prop::option::weighted(0.3, person_name()), person_fields(), prop::option::weighted(0.4, (any::<u8>(), any::<bool>())))
            .prop_map(|(person, name, fields, row)| PersonOp::Change { person, name, fields, row }),
        2 => pick().prop_map(|person| PersonOp::Delete { person }),
        2 => deleted().prop_map(|person| PersonOp::Restore { person }),
    ]
    .boxed()
}

/// The operations on person links.
#[derive(Debug, Clone)]
pub(crate) enum LinkOp {
    Create {
        person: Pick,
        kind: &'static str,
        related: Pick,
    },
    Change {
        link: Pick,
        kind: &'static str,
    },
    Delete {
        link: Pick,
    },
}

pub(super) fn link_kind() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "parent", "child", "friend", "sibling", "manager", "report", "nemesis",
    ])
}

pub(super) fn link_op() -> BoxedStrategy<LinkOp> {
    prop_oneof![
        4 => (pick(), link_kind(), pick()).prop_map(|(person, kind, related)| LinkOp::Create { person, kind, related }),
        2 => (pick(), link_kind()).prop_map(|(link, kind)| LinkOp::Change { link, kind }),
        1 => pick().prop_map(|link| LinkOp::Delete { link }),
    ]
    .boxed()
}

impl World {
    /// `{person: ...}` of a create or change.
    pub(super) fn person_body(
        &self,
        name: Option<&String>,
        fields: &PersonFields,
        row: Option<(u8, bool)>,
        stored: &Value,
    ) -> Value {
        let mut f = Map::new();
        if let Some(n) = name {
            f.insert("name".into(), json!(n));
        }
        if let Some(r) = &fields.relationships {
            f.insert("relationships".into(), json!(r));
        }
        let mut emails = Vec::new();
        if let Some(e) = fields.email {
            emails.push(json!({"address": e}));
        }
        let mut dates = Vec::new();
        if let Some((day, month, year)) = fields.key_date {
            dates.push(json!({"kind": "anniversary", "day": day, "month": month, "year": year}));
        }
        let mut positions = Vec::new();
        if let Some(c) = fields.company {
            positions.push(json!({"company_name": c}));
        }
        // Change or remove a stored row of each array.
        if let Some((n, destroy)) = row {
            for (array, rows) in [
                ("email_addresses", &mut emails),
                ("key_dates", &mut dates),
                ("positions", &mut positions),
            ] {
                if let Some(stored) = stored[array].as_array().filter(|a| !a.is_empty()) {
                    let id = &stored[usize::from(n) % stored.len()]["id"];
                    rows.push(if destroy {
                        json!({"id": id, "_destroy": true})
                    } else {
                        json!({"id": id, "label": "changed"})
                    });
                }
            }
        }
        for (array, rows) in [
            ("email_addresses", emails),
            ("key_dates", dates),
            ("positions", positions),
        ] {
            if !rows.is_empty() {
                f.insert(array.into(), Value::Array(rows));
            }
        }
        json!({ "person": f })
    }

    pub(super) fn person_call(&self, op: &PersonOp) -> Planned {
        match op {
            PersonOp::Create { name, fields } => Planned {
                call: Call::new(Method::Post, "/people").body(self.person_body(
                    Some(name),
                    fields,
                    None,
                    &Value::Null,
                )),
                creates: Some("people"),
            },
            PersonOp::Change {
                person,
                name,
                fields,
                row,
            } => {
                let id = self.pick("people", *person);
                let stored = self.store.call(&Call::get(format!("/people/{id}")));
                let stored = if stored.status == 200 {
                    stored.data().clone()
                } else {
                    Value::Null
                };
                Planned {
                    call: Call::new(Method::Patch, format!("/people/{id}")).body(self.person_body(
                        name.as_ref(),
                        fields,
                        *row,
                        &stored,
                    )),
                    creates: None,
                }
            }
            PersonOp::Delete { person } => Planned {
                call: Call::new(
                    Method::Delete,
                    format!("/people/{}", self.pick("people", *person)),
                ),
                creates: None,
            },
            PersonOp::Restore { person } => Planned {
                call: Call::new(
                    Method::Post,
                    format!("/people/{}/restoration", self.pick("people", *person)),
                ),
                creates: None,
            },
        }
    }

    pub(super) fn link_call(&self, op: &LinkOp) -> Planned {
        match op {
            LinkOp::Create {
                person,
                kind,
                related,
            } => Planned {
                call: Call::new(Method::Post, "/person_links").body(json!({"person_link": {
                    "person_id": self.pick("people", *person),
                    "kind": kind,
                    "related_person_id": self.pick("people", *related),
                }})),
                creates: Some("person_links"),
            },
            LinkOp::Change { link, kind } => Planned {
                call: Call::new(
                    Method::Patch,
                    format!("/person_links/{}", self.pick("person_links", *link)),
                )
                .body(json!({"person_link": {"kind": kind}})),
                creates: None,
            },
            LinkOp::Delete { link } => Planned {
                call: Call::new(
                    Method::Delete,
                    format!("/person_links/{}", self.pick("person_links", *link)),
                ),
                creates: None,
            },
        }
    }
}
