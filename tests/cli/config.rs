//! The configuration file (issue 7, item 2): `$XDG_CONFIG_HOME/organiser/
//! config.toml` or the file `ORGANISER_CONFIG` names; for each key, a flag
//! beats the environment, which beats the file, which beats the default;
//! a mistake in it is a usage error (exit 2) naming the file, line and key.

use std::path::Path;

use crate::token::create;
use crate::util::{Cmd, Dir, Outcome};

/// `organiser ARGS...` reading `dir`'s configuration file, with no
/// `--data-dir`.
fn configured(dir: &Dir, args: &[&str]) -> Cmd {
    Cmd::new(args).env("XDG_CONFIG_HOME", dir.config_home())
}

fn has_store(dir: &Path) -> bool {
    dir.join("organiser.redb").is_file()
}

fn escapes(out: &Outcome) -> usize {
    out.stdout.matches('\x1b').count()
}

/// Exit 2 with one line on stderr, naming the file and line: the line.
#[track_caller]
fn config_error(out: Outcome, file: &Path, line: usize) -> String {
    let out = out.failure(2);
    assert_eq!(out.stdout, "", "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
    let said = out.stderr.trim_end().to_owned();
    assert!(
        said.starts_with("error: bad configuration file ")
            && said.contains(&file.display().to_string())
            && said.contains(&format!(", line {line}")),
        "{said}"
    );
    said
}

#[test]
fn data_dir_flag_beats_the_environment_beats_the_file() {
    let dir = Dir::empty();
    let [a, b, c] = ["a", "b", "c"].map(|name| dir.root().join(name));
    dir.config(&format!("data_dir = {:?}\n", a.to_str().unwrap()));

    configured(&dir, &["lists", "add", "In A"]).run().success();
    assert!(has_store(&a) && !b.exists() && !c.exists());

    configured(&dir, &["lists", "add", "In B"])
        .env("ORGANISER_DATA_DIR", &b)
        .run()
        .success();
    assert!(has_store(&b) && !c.exists());

    configured(&dir, &["lists", "add", "In C"])
        .env("ORGANISER_DATA_DIR", &b)
        .data_dir(&c)
        .run()
        .success();
    assert!(has_store(&c));

    let names = |d: &Path| {
        let out = Cmd::new(&["lists", "--json"]).data_dir(d).run().success();
        let lists = out.json()["data"].as_array().unwrap().clone();
        lists
            .iter()
            .map(|l| l["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&a), ["In A"]);
    assert_eq!(names(&b), ["In B"]);
    assert_eq!(names(&c), ["In C"]);

    // `~/` is the home directory.
    dir.config("data_dir = \"~/organiser-somewhere\"\n");
    let out = configured(&dir, &["config", "show", "--json"])
        .env("HOME", dir.root())
        .run()
        .success();
    let shown = &out.json()["data"][1];
    assert_eq!(shown["key"], "data_dir");
    assert_eq!(
        shown["value"],
        dir.root().join("organiser-somewhere").to_str().unwrap()
    );
    assert_eq!(shown["from"], "the configuration file");
}

#[test]
fn url_and_token_of_the_file_name_a_server_and_the_environment_beats_them() {
    let dir = Dir::new();
    let server = dir.serve();
    let token = create(&dir, "from the file");
    let elsewhere = dir.root().join("elsewhere");

    let other = Dir::new();
    other.config(&format!("url = {:?}\ntoken = {token:?}\n", server.url));
    configured(&other, &["lists", "add", "Via the file"])
        .data_dir(&elsewhere)
        .run()
        .success();
    assert!(!elsewhere.exists(), "the command ran on the server");
    let (_, lists) = server.get("/task_lists", Some(&server.token));
    assert_eq!(lists["data"][0]["name"], "Via the file", "{lists}");

    // The environment's pair beats the file's.
    other.config(&format!(
        "url = \"http://127.0.0.1:9\"\ntoken = {token:?}\n"
    ));
    let out = configured(&other, &["lists"]).data_dir(&elsewhere).run();
    assert!(out.error().contains("http://127.0.0.1:9"), "{out:?}");
    let out = configured(&other, &["lists"])
        .data_dir(&elsewhere)
        .env("ORGANISER_URL", &server.url)
        .env("ORGANISER_TOKEN", &token)
        .run()
        .success();
    assert!(out.stdout.contains("Via the file"), "{out:?}");
    let out = configured(&other, &["config", "show", "--json"])
        .env("ORGANISER_URL", &server.url)
        .env("ORGANISER_TOKEN", &token)
        .run()
        .success();
    let shown = out.json();
    assert_eq!(shown["data"][2]["value"], server.url.as_str());
    assert_eq!(shown["data"][2]["from"], "ORGANISER_URL");
    assert!(!out.stdout.contains(&token), "the token is never shown");
}

#[test]
fn color_flag_beats_the_environment_beats_the_file() {
    let dir = Dir::new();
    dir.ok(&["tasks", "add", "x"]);
    let inbox = |file: &str| {
        dir.config(file);
        dir.cmd(&["tasks", "inbox"])
    };
    // Standard output is a pipe: no colour by default.
    assert_eq!(escapes(&inbox("").run().success()), 0);
    assert!(escapes(&inbox("color = \"always\"").run().success()) > 0);
    let out = inbox("color = \"always\"").env("NO_COLOR", "1").run();
    assert_eq!(escapes(&out.success()), 0, "NO_COLOR beats the file");
    let out = inbox("color = \"never\"").env("CLICOLOR_FORCE", "1").run();
    assert!(escapes(&out.success()) > 0, "CLICOLOR_FORCE beats the file");
    let flagged = |file: &str, flag: &str| {
        dir.config(file);
        Cmd::new(&["--color", flag, "tasks", "inbox"])
            .env("XDG_CONFIG_HOME", dir.config_home())
            .data_dir(dir.data())
    };
    let out = flagged("color = \"always\"", "never").run();
    assert_eq!(escapes(&out.success()), 0, "--color beats the file");
    let out = flagged("", "always").env("NO_COLOR", "1").run();
    assert!(escapes(&out.success()) > 0, "--color beats NO_COLOR");
    let out = flagged("color = \"always\"", "auto").run();
    assert_eq!(escapes(&out.success()), 0, "--color auto beats the file");
}

#[test]
fn default_view_is_what_tasks_shows_with_no_subcommand() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "My work"]);
    dir.ok(&["tasks", "add", "In the inbox"]);
    dir.ok(&["tasks", "add", "Listed", "--list", "My work"]);
    let first_line = |out: Outcome| out.success().stdout.lines().next().unwrap_or("").to_owned();

    dir.config("default_view = \"inbox\"\n");
    assert!(first_line(dir.run(&["tasks"])).starts_with("Inbox"));
    // Every view the command line takes, `started` included.
    dir.config("default_view = \"started\"\n");
    assert!(first_line(dir.run(&["tasks"])).starts_with("Started"));
    dir.config("default_view = \"list My work\"\n");
    let out = dir.run(&["tasks"]).success();
    assert!(out.stdout.starts_with("My work"), "{out:?}");
    assert!(out.stdout.contains("Listed") && !out.stdout.contains("In the inbox"));
    // A subcommand on the command line beats the file.
    assert!(first_line(dir.run(&["tasks", "logbook"])).starts_with("Logbook"));
    // Its options apply to the configured view.
    let out = dir.run(&["tasks", "--json", "--limit", "1"]).success();
    assert_eq!(out.json()["data"][0]["title"], "Listed");
}

#[test]
fn date_format_is_how_tables_print_dates() {
    let dir = Dir::new();
    dir.ok(&["tasks", "add", "Due", "--deadline", "2030-01-31"]);
    assert!(dir.ok(&["tasks", "inbox"]).stdout.contains("2030-01-31"));
    dir.config("date_format = \"%d/%m/%Y\"\n");
    let out = dir.ok(&["tasks", "inbox"]);
    assert!(out.stdout.contains("31/01/2030"), "{out:?}");
    let out = dir.ok(&["tasks", "show", "1"]);
    assert!(out.stdout.contains("31/01/2030"), "{out:?}");
    // JSON is the API's, whatever the file says.
    let out = dir.json(&["tasks", "inbox"]);
    assert_eq!(out["data"][0]["deadline_on"], "2030-01-31");
    dir.config("date_format = \"iso\"\n");
    assert!(dir.ok(&["tasks", "inbox"]).stdout.contains("2030-01-31"));
}

#[test]
fn a_bad_file_is_a_usage_error_naming_the_file_line_and_key() {
    let dir = Dir::empty();
    for (text, line, says) in [
        (
            "color = \"never\"\ncolour = \"always\"\n",
            2,
            "key `colour`: unknown field `colour`",
        ),
        (
            "\ncolor = \"sometimes\"\n",
            2,
            "key `color`: unknown variant `sometimes`",
        ),
        ("color = 5\n", 1, "key `color`"),
        (
            "data_dir = \"relative/dir\"\n",
            1,
            "key `data_dir`: \"relative/dir\" is not an absolute path",
        ),
        (
            "url = \"http://localhost:7420\"\n",
            1,
            "key `url`: a url needs a `token`",
        ),
        (
            "url = \"localhost\"\ntoken = \"t\"\n",
            1,
            "key `url`: the url must start with http",
        ),
        ("token = \"t\"\n", 1, "key `token`: a token needs the `url`"),
        (
            "default_view = \"add milk\"\n",
            1,
            "key `default_view`: \"add milk\" is not a view",
        ),
        (
            "date_format = \"%H:%M\"\n",
            1,
            "key `date_format`: \"%H:%M\" cannot print a date",
        ),
        (
            "date_format = \"dd/mm\"\n",
            1,
            "key `date_format`: \"dd/mm\" is neither",
        ),
        ("# a comment\ndata_dir = /x\n", 2, "key `data_dir`"),
        ("[server]\nurl = \"x\"\n", 1, "unknown field `server`"),
    ] {
        let path = dir.config(text);
        let said = config_error(dir.run(&["tasks"]), &path, line);
        assert!(said.contains(says), "{text:?}: {said}");
    }
    assert!(
        !dir.data().exists(),
        "a bad file stops the command before the store"
    );

    // Commands that need no configuration still run, and `config path`
    // says which file to fix.
    dir.ok(&["completions", "bash"]);
    dir.ok(&["man"]);
    let out = dir.ok(&["config", "path"]);
    assert_eq!(
        out.stdout.trim_end(),
        dir.config_home()
            .join("organiser/config.toml")
            .to_str()
            .unwrap()
    );
    dir.run(&["config", "show"]).failure(2);
    // Not UTF-8, or not a file.
    std::fs::write(
        dir.config_home().join("organiser/config.toml"),
        b"color = \"\xff\"\n",
    )
    .unwrap();
    assert!(
        dir.run(&["tasks"])
            .failure(2)
            .stderr
            .contains("config.toml")
    );
}

#[test]
fn organiser_config_names_the_file() {
    let dir = Dir::empty();
    dir.config("date_format = \"%d/%m/%Y\"\n");
    dir.ok(&["tasks", "add", "Due", "--deadline", "2030-01-31"]);
    let own = dir.root().join("mine.toml");
    std::fs::write(&own, "date_format = \"%Y.%m.%d\"\n").unwrap();
    let out = dir
        .cmd(&["tasks", "inbox"])
        .env("ORGANISER_CONFIG", &own)
        .run();
    assert!(
        out.success().stdout.contains("2030.01.31"),
        "ORGANISER_CONFIG beats XDG_CONFIG_HOME"
    );
    let out = dir
        .cmd(&["config", "path"])
        .env("ORGANISER_CONFIG", &own)
        .run();
    assert_eq!(out.success().stdout.trim_end(), own.to_str().unwrap());

    // A file named on purpose must be there.
    let missing = dir.root().join("missing.toml");
    let out = dir
        .cmd(&["tasks"])
        .env("ORGANISER_CONFIG", &missing)
        .run()
        .failure(2);
    assert!(out.stderr.contains("missing.toml"), "{out:?}");
    // The default file may be missing.
    std::fs::remove_file(dir.config_home().join("organiser/config.toml")).unwrap();
    dir.ok(&["tasks"]);
}

#[test]
fn config_show_says_where_each_setting_came_from() {
    let dir = Dir::empty();
    let out = dir.ok(&["config", "show"]);
    for (key, from) in [
        ("config", "XDG_CONFIG_HOME"),
        ("data_dir", "--data-dir"),
        ("color", "the default"),
        ("default_view", "the default"),
        ("date_format", "the default"),
    ] {
        assert!(
            out.stdout
                .lines()
                .any(|l| l.starts_with(key) && l.trim_end().ends_with(from)),
            "{key} from {from}: {out:?}"
        );
    }
    dir.config("color = \"never\"\ndefault_view = \"inbox\"\n");
    let shown = dir.json(&["config", "show"]);
    let keys: Vec<&str> = shown["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "config",
            "data_dir",
            "url",
            "token",
            "color",
            "default_view",
            "date_format"
        ]
    );
    assert_eq!(shown["data"][4]["value"], "never");
    assert_eq!(shown["data"][4]["from"], "the configuration file");
    assert_eq!(shown["data"][5]["value"], "inbox");
    assert!(!dir.data().exists(), "config show makes no store");
}
