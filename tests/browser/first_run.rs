//! First run: a store without a password, the one-time sign-in link (as
//! `organiser serve` logs it), choosing a password, signing out, the link
//! spent, and signing in with the password, by keyboard alone.

use thirtyfour::Key;

use crate::harness::{Browser, VARIANTS};
use crate::site::{PASSWORD, Site};

#[test]
fn first_run_with_the_one_time_link_then_sign_out_and_in() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        b.forget();
        let site = Site::new();
        site.theme(variant);

        // Nothing is open to an anonymous visitor: the sign-in page says
        // how to get a link.
        b.goto(&site.url("/tasks"));
        b.wait_for_path("/sign-in");
        b.check("sign-in");
        assert!(
            b.text("main").contains("organiser web link"),
            "the first run's sign-in page tells how to get a link: {}",
            b.text("main")
        );

        // The link: the page asks for a password first.
        let link = site.org().account().sign_in_link().unwrap().url;
        b.goto(&site.url(&link));
        b.wait_for_path("/welcome");
        b.check("welcome");
        assert_eq!(
            b.autofocus(),
            "password",
            "the welcome page starts in its password"
        );

        // Two passwords that differ are refused, and said so.
        b.press(PASSWORD);
        b.press(Key::Tab);
        assert_eq!(b.focused().id, "confirmation");
        b.press("something else");
        b.press(Key::Enter);
        b.wait(
            "the passwords' refusal",
            "return document.querySelector('[role=alert]')?.innerText",
            vec![],
        );
        b.check("welcome (refused)");
        assert!(!site.org().account().me().unwrap().has_password);

        // Then the same twice (the page is back with its focus in the
        // password): today.
        assert_eq!(b.autofocus(), "password");
        b.press(PASSWORD);
        b.press(Key::Tab);
        b.press(PASSWORD);
        b.press(Key::Enter);
        b.wait_for_path("/");
        assert_eq!(b.heading(), "Today");
        b.check("today");
        assert!(site.org().account().me().unwrap().has_password);

        // Sign out, by keyboard.
        b.tab_to("Sign out", |f| f.name == "Sign out");
        b.press(Key::Enter);
        b.wait_for_path("/sign-in");
        assert!(
            !b.text("main").contains("organiser web link"),
            "a store with a password does not offer a link"
        );
        b.goto(&site.url("/"));
        b.wait_for_path("/sign-in");

        // The link was spent by its first visit.
        b.goto(&site.url(&link));
        assert!(
            b.heading().contains("does not work"),
            "a spent link: {}",
            b.heading()
        );
        b.check("spent link");

        // A wrong password is refused; the right one signs in.
        b.goto(&site.url("/sign-in"));
        b.wait_for_path("/sign-in");
        assert_eq!(b.autofocus(), "username");
        b.press(site.username());
        b.press(Key::Tab);
        b.press("not the password");
        b.press(Key::Enter);
        b.wait(
            "the sign-in's refusal",
            "return document.querySelector('[role=alert]')?.innerText",
            vec![],
        );
        b.check("sign-in (refused)");
        // The page is back with the username kept, the focus in it or
        // already in the password.
        if b.autofocus() == "username" {
            b.press(Key::Tab);
        }
        assert_eq!(b.focused().id, "password");
        b.press(PASSWORD);
        b.press(Key::Enter);
        b.wait_for_path("/");
        assert_eq!(b.heading(), "Today");
    }
    b.finish();
}
