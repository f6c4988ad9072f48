//! Projects and project members (document 2): the operations, their strategies and their requests.

use super::*;

/// The operations on projects (document 2): fields, status and deadline
/// changes (events and their 10-minute rule), delete and restore.
#[derive(Debug, Clone)]
pub(crate) enum ProjectOp {
    Create {
        name: String,
        status: Option<&'static str>,
        deadline: Day,
    },
    Change {
        project: Pick,
        name: Option<String>,
        status: Option<&'static str>,
        deadline: Day,
        url: Option<&'static str>,
    },
    Delete {
        project: Pick,
    },
    Restore {
        project: Pick,
    },
}

pub(super) fn project_status() -> impl Strategy<Value = Option<&'static str>> {
    prop::option::weighted(
        0.5,
        prop::sample::select(vec![
            "planned",
            "active",
            "on_hold",
            "done",
            "cancelled",
            "nope",
        ]),
    )
}

pub(super) fn project_op() -> BoxedStrategy<ProjectOp> {
    prop_oneof![
        3 => (person_name(), project_status(), day(-3, 40))
            .prop_map(|(name, status, deadline)| ProjectOp::Create { name, status, deadline }),
        4 => (
            pick(),
            prop::option::weighted(0.3, person_name()),
            project_status(),
            day(-3, 40),
            prop::option::weighted(0.2, prop::sample::select(vec!["example.org", "ftp://x", ""])),
        )
            .prop_map(|(project, name, status, deadline, url)| ProjectOp::Change {
                project,
                name,
                status,
                deadline,
                url,
            }),
        1 => pick().prop_map(|project| ProjectOp::Delete { project }),
        1 => deleted().prop_map(|project| ProjectOp::Restore { project }),
    ]
    .boxed()
}

/// The operations on project members.
#[derive(Debug, Clone)]
pub(crate) enum MemberOp {
    Create {
        project: Pick,
        person: Pick,
        role: Option<&'static str>,
    },
    CreatePerson {
        project: Pick,
        name: String,
    },
    Change {
        member: Pick,
        role: Option<&'static str>,
    },
    Delete {
        member: Pick,
    },
}

pub(super) fn member_role() -> impl Strategy<Value = Option<&'static str>> {
    prop::option::weighted(
        0.5,
        prop::sample::select(vec!["lead", " ", "client  contact"]),
    )
}

pub(super) fn member_op() -> BoxedStrategy<MemberOp> {
    prop_oneof![
        4 => (pick(), pick(), member_role())
            .prop_map(|(project, person, role)| MemberOp::Create { project, person, role }),
        1 => (pick(), person_name()).prop_map(|(project, name)| MemberOp::CreatePerson { project, name }),
        2 => (pick(), member_role()).prop_map(|(member, role)| MemberOp::Change { member, role }),
        1 => pick().prop_map(|member| MemberOp::Delete { member }),
    ]
    .boxed()
}

impl World {
    pub(super) fn project_call(&self, op: &ProjectOp) -> Planned {
        let fields = |name: Option<&String>, status: Option<&str>, deadline: Day| {
            let mut f = Map::new();
            if let Some(n) = name {
                f.insert("name".into(), json!(n));
            }
            if let Some(s) = status {
                f.insert("status".into(), json!(s));
            }
            self.put_day(&mut f, "deadline", deadline);
            f
        };
        let at = |project: &Pick| format!("/projects/{}", self.pick("projects", *project));
        match op {
            ProjectOp::Create {
                name,
                status,
                deadline,
            } => Planned {
                call: Call::new(Method::Post, "/projects")
                    .body(json!({ "project": fields(Some(name), *status, *deadline) })),
                creates: Some("projects"),
            },
            ProjectOp::Change {
                project,
                name,
                status,
                deadline,
                url,
            } => {
                let mut f = fields(name.as_ref(), *status, *deadline);
                if let Some(u) = url {
                    f.insert("external_url".into(), json!(u));
                }
                Planned {
                    call: Call::new(Method::Patch, at(project)).body(json!({ "project": f })),
                    creates: None,
                }
            }
            ProjectOp::Delete { project } => Planned {
                call: Call::new(Method::Delete, at(project)),
                creates: None,
            },
            ProjectOp::Restore { project } => Planned {
                call: Call::new(Method::Post, format!("{}/restoration", at(project))),
                creates: None,
            },
        }
    }

    pub(super) fn member_call(&self, op: &MemberOp) -> Planned {
        let at =
            |member: &Pick| format!("/project_members/{}", self.pick("project_members", *member));
        match op {
            MemberOp::Create {
                project,
                person,
                role,
            } => Planned {
                call: Call::new(Method::Post, "/project_members").body(json!({"project_member": {
                    "project_id": self.pick("projects", *project),
                    "person_id": self.pick("people", *person),
                    "role": role,
                }})),
                creates: Some("project_members"),
            },
            MemberOp::CreatePerson { project, name } => Planned {
                call: Call::new(Method::Post, "/project_members").body(json!({"project_member": {
                    "project_id": self.pick("projects", *project),
                    "new_person_name": name,
                }})),
                creates: Some("project_members"),
            },
            MemberOp::Change { member, role } => Planned {
                call: Call::new(Method::Patch, at(member))
                    .body(json!({"project_member": {"role": role}})),
                creates: None,
            },
            MemberOp::Delete { member } => Planned {
                call: Call::new(Method::Delete, at(member)),
                creates: None,
            },
        }
    }
}
