//! Status transitions, changes that change nothing, reopening, and expiry
//! at midnight in the owner's zone.

use serde_json::{Value, json};

use crate::common::Core;
use crate::common::fixtures::{
    get_task, id, new_list, new_task, now_string, patch_task, set_zone, titles,
};

#[test]
fn status_transitions() {
    let s = Core::start();
    let statuses = ["open", "completed", "wont_do", "archived"];
    for from in statuses {
        for to in statuses {
            let made = new_task(&s, json!({"title": "t", "status": from}));
            s.advance(60);
            let now = now_string(&s);
            let changed = patch_task(&s, &id(&made), json!({ "status": to })).expect(200);
            let d = changed.data();
            let case = format!("{from} -> {to}: {d}");
            assert_eq!(d["status"], to, "{case}");
            if from == to {
                assert_eq!(d, &made, "no change: {case}");
                continue;
            }
            assert_eq!(d["updated_at"], now.as_str(), "{case}");
            assert_eq!(d["expired"], false, "{case}");
            match to {
                "completed" | "wont_do" => {
                    assert_eq!(d["completed_at"], now.as_str(), "{case}");
                    assert_eq!(d["archived_at"], Value::Null, "{case}");
                }
                "archived" => {
                    assert_eq!(d["archived_at"], now.as_str(), "{case}");
                    assert_eq!(d["completed_at"], Value::Null, "{case}");
                }
                _ => {
                    assert_eq!(d["completed_at"], Value::Null, "{case}");
                    assert_eq!(d["archived_at"], Value::Null, "{case}");
                }
            }
        }
    }
    // A new closed task has its timestamp from the start.
    let done = new_task(&s, json!({"title": "done", "status": "completed"}));
    assert_eq!(done["completed_at"], done["created_at"]);
    let put_away = new_task(&s, json!({"title": "away", "status": "archived"}));
    assert_eq!(put_away["archived_at"], put_away["created_at"]);
}

#[test]
fn a_change_that_changes_nothing_keeps_updated_at() {
    let s = Core::start();
    let list = new_list(&s, "Home");
    let t = new_task(
        &s,
        json!({"title": "Same", "task_list_id": list, "start_on": "2026-03-12"}),
    );
    s.advance(60);
    for fields in [
        json!({}),
        json!({"title": "  Same "}),
        json!({"status": "open"}),
        json!({"start_on": "2026-03-12", "task_list_id": list}),
        json!({"position": 1}),
    ] {
        let same = patch_task(&s, &id(&t), fields.clone()).expect(200);
        assert_eq!(same.data(), &t, "{fields}");
    }
}

#[test]
fn reopening_clears_an_expiry_that_has_passed() {
    let s = Core::start();
    let done = new_task(
        &s,
        json!({"title": "done", "expires_on": "2026-03-10", "status": "completed"}),
    );
    let keeps = new_task(
        &s,
        json!({"title": "keeps", "expires_on": "2026-03-20", "status": "completed"}),
    );
    s.advance(2 * 86400);
    let reopened = patch_task(&s, &id(&done), json!({"status": "open"})).expect(200);
    assert_eq!(reopened.data()["status"], "open");
    assert_eq!(reopened.data()["expires_on"], Value::Null);
    let kept = patch_task(&s, &id(&keeps), json!({"status": "open"})).expect(200);
    assert_eq!(kept.data()["expires_on"], "2026-03-20", "not passed: kept");
    // An open task archived by expiry comes back open without the expiry.
    let expiring = new_task(&s, json!({"title": "exp", "expires_on": "2026-03-12"}));
    s.advance(86400);
    let archived = get_task(&s, &id(&expiring));
    assert_eq!(
        (archived["status"].as_str(), archived["expired"].as_bool()),
        (Some("archived"), Some(true))
    );
    let back = patch_task(&s, &id(&expiring), json!({"status": "open"})).expect(200);
    let d = back.data();
    assert_eq!(d["status"], "open");
    assert_eq!(d["expires_on"], Value::Null);
    assert_eq!(d["expired"], false);
    assert_eq!(d["archived_at"], Value::Null);
}

#[test]
fn an_expired_task_is_archived_at_midnight_in_the_owners_zone() {
    let s = Core::start();
    set_zone(&s, "Tokyo");
    // 09:00Z is 18:00 on 2026-03-10 in Tokyo.
    let expiring = new_task(&s, json!({"title": "expiring", "expires_on": "2026-03-10"}));
    let later = new_task(&s, json!({"title": "later", "expires_on": "2026-03-11"}));
    let done = new_task(
        &s,
        json!({"title": "done", "expires_on": "2026-03-10", "status": "completed"}),
    );
    // 14:59:59Z is 23:59:59 in Tokyo: still open through its expiry day.
    s.advance(6 * 3600 - 1);
    assert_eq!(get_task(&s, &id(&expiring))["status"], "open");
    assert_eq!(s.get("/task_counts").data()["inbox"], 2);
    // Well after midnight in Tokyo: archived as of that midnight.
    s.advance(2 * 3600 + 1);
    let count = s.get("/task_counts").expect(200);
    assert_eq!(count.data()["inbox"], 1, "counts archive first");
    let t = get_task(&s, &id(&expiring));
    assert_eq!(t["status"], "archived");
    assert_eq!(t["archived_at"], "2026-03-10T15:00:00.000Z");
    assert_eq!(t["completed_at"], Value::Null);
    assert_eq!(t["expired"], true);
    assert_eq!(t["expires_on"], "2026-03-10");
    assert_eq!(get_task(&s, &id(&later))["status"], "open");
    assert_eq!(
        get_task(&s, &id(&done))["status"],
        "completed",
        "only open tasks expire"
    );
    assert_eq!(titles(&s, "/tasks?status=open"), ["later"]);
    assert_eq!(titles(&s, "/tasks?view=logbook"), ["expiring", "done"]);
    assert_eq!(
        s.get("/task_counts?inbox=true").data()["page"]["expired"],
        1
    );
    // The listing archives too, without a read of the task first.
    s.clock.set("2026-03-12T00:00:00Z".parse().unwrap());
    assert!(titles(&s, "/tasks?status=open").is_empty());
    let l = get_task(&s, &id(&later));
    assert_eq!(l["archived_at"], "2026-03-11T15:00:00.000Z");
}
