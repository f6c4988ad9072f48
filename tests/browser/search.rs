//! Search as you type (`/search`), by keyboard alone: a misspelt name
//! finds the task as the letters are typed, without Enter (misspellings
//! are forgiven in the names of people, projects, tasks and documents,
//! docs/api.md "Search"); the address follows, so a reload keeps the
//! results.

use thirtyfour::Key;

use crate::harness::{Browser, VARIANTS};
use crate::site::Site;
use crate::tasks::visit;

/// The links of the results, as `(group heading, title)`.
fn results(b: &Browser) -> Vec<(String, String)> {
    let v = b.js(
        "return [...document.querySelectorAll('#results a')].map(a => [\
           a.closest('section')?.querySelector('h2')?.innerText.trim() || '', a.innerText.trim()]);",
        vec![],
    );
    serde_json::from_value(v).unwrap_or_default()
}

#[test]
fn a_misspelt_name_is_found_as_it_is_typed() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        site.task(organiser::tasks::TaskInput::titled("Renew the passport"));
        site.task(organiser::tasks::TaskInput::titled("Water the plants"));
        site.sign_in(&b);

        // From the navigation, by keyboard.
        b.tab_to("Search", |f| f.tag == "a" && f.name == "Search");
        b.press(Key::Enter);
        // The Enter that followed the link can reach the search page's
        // field as it takes the focus, sending the empty form: the same
        // page at `/search?q=`.
        b.wait_for_path("/search*");
        b.check("search");
        assert_eq!(b.autofocus(), "q", "the search page starts in its field");

        // A misspelling, typed: the results come without Enter.
        b.press("pasport");
        let found = b.wait(
            "results as the words are typed",
            "return [...document.querySelectorAll('#results a')].some(a => a.innerText.trim() === 'Renew the passport')",
            vec![],
        );
        assert_eq!(found, true);
        let found = results(&b);
        assert!(
            found.contains(&("Tasks".to_owned(), "Renew the passport".to_owned())),
            "{found:?}"
        );
        assert!(
            !found.iter().any(|(_, t)| t == "Water the plants"),
            "{found:?}"
        );
        b.check("search (results)");
        assert_eq!(b.path(), "/search?q=pasport", "the address follows");

        // Reloaded (or sent without script): the same results.
        visit(&b, &site, "/search?q=pasport", "search (results)");
        assert!(results(&b).contains(&("Tasks".to_owned(), "Renew the passport".to_owned())));

        // Nothing found is said, as it is typed (no Enter: a key pressed
        // while the live search puts its results in place could land in
        // the middle of a navigation) and without script.
        b.goto(&site.url("/search"));
        b.wait_for_path("/search");
        b.autofocus();
        b.press("zzqqxx");
        b.wait(
            "the page to say nothing matches",
            "return document.querySelector('#results')?.innerText.includes('Nothing matches')",
            vec![],
        );
        b.check("search (nothing)");
        visit(
            &b,
            &site,
            "/search?q=zzqqxx",
            "search (nothing, without script)",
        );
        assert_eq!(
            b.js(
                "return document.querySelector('#results')?.innerText.includes('Nothing matches')",
                vec![]
            ),
            true
        );
    }
    b.finish();
}
