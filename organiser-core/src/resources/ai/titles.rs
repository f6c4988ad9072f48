//! The built-in `note_titles` task (document 2, "AI tasks"; document 3,
//! "Note": `title_generated`; docs/api.md "AI: note titles"): saving a
//! note that has no title of the owner's queues it while the task runs;
//! a worker, one model call at a time, asks the model for a short title
//! in the note's own language, cleans the reply and writes it with
//! `title_generated` and a new `updated_at` (not `edited_at`). A failing
//! provider is recorded on it and tried again with backoff; the note whose
//! call failed goes to the back of the queue, so one the model cannot
//! title does not hold up the others.

use std::sync::Mutex;

use super::queue::{self, TASK};
use super::wire::{self, Ask};
use super::{providers, tasks};
use crate::engine::{Inner, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::resources::notes;
use crate::store::Tbl;

/// The instructions the model is given (docs/api.md quotes them).
pub(crate) const PROMPT: &str = "You write titles for notes. Reply with one title for the note the user sends: at most eight words, in the same language as the note, naming what it is about. Reply with the title alone: no quotes, no label, no full stop at the end.";
/// The most characters of a note sent to the model.
pub(crate) const TEXT_MAX: usize = 8_000;
/// The most characters of a title.
pub(crate) const TITLE_MAX: usize = 80;

/// Follows the notes this transaction touched (`touched`: their IDs), run
/// before it commits.
pub(crate) fn follow(cx: &mut WriteCx<'_>, touched: impl Iterator<Item = Id>) -> Result<()> {
    let mut touched = touched.peekable();
    if touched.peek().is_none() {
        return Ok(());
    }
    let running = tasks::running(cx, TASK)?.is_some();
    let mut queued = false;
    for id in touched {
        queued |= queue::follow_note(cx, id, running)?;
    }
    if queued {
        cx.on_commit(queue::wake);
    }
    Ok(())
}

/// The table whose touched keys are notes.
pub(crate) const NOTES: Tbl = notes::tables::NOTES;

/// One worker at a time.
#[derive(Default)]
struct Worker(Mutex<()>);

/// One queued note and what it is titled with.
struct Job {
    key: Vec<u8>,
    note: Id,
    /// The note's text, when it still wants a title.
    text: Option<String>,
    run: tasks::Running,
}

/// What the worker found to do.
enum Next {
    /// Nothing (empty queue, task off or without a model, or waiting out
    /// a backoff).
    Idle,
    Job(Box<Job>),
}

fn next(inner: &Inner) -> Result<Next> {
    inner.read(|cx| {
        let Some(run) = tasks::running(cx, TASK)? else {
            return Ok(Next::Idle);
        };
        if queue::backoff(cx)?.retry_at.is_some_and(|at| at > cx.now()) {
            return Ok(Next::Idle);
        }
        let Some((key, note)) = queue::first(cx)? else {
            return Ok(Next::Idle);
        };
        let text = notes::title_view(&cx.tx, note)?
            .filter(queue::wants_title)
            .map(|v| v.text);
        Ok(Next::Job(Box::new(Job {
            key,
            note,
            text,
            run,
        })))
    })
}

/// Works the queue until it is empty, the task is off or has no model,
/// or a failure makes it wait; how many titles it wrote. Returns at once
/// (0) while another call works, or while the licence is read-only.
pub(crate) fn run(inner: &Inner) -> Result<usize> {
    let worker = inner.ext.get::<Worker>();
    let Ok(_held) = worker.0.try_lock() else {
        return Ok(0);
    };
    if inner.require_writable().is_err() {
        return Ok(0);
    }
    let mut written = 0;
    loop {
        let Next::Job(job) = next(inner)? else {
            return Ok(written);
        };
        let Some(text) = &job.text else {
            // Deleted, titled by the owner or emptied meanwhile.
            inner.write(|cx| drop_if_still(cx, &job))?;
            continue;
        };
        let hash = queue::text_hash(text);
        let reply = ask(inner, &job.run, text);
        let provider = job.run.provider.provider.id;
        match reply {
            Ok(reply) => {
                let title = clean(&reply);
                if inner.write(|cx| write_title(cx, &job, hash, &title))? {
                    written += 1;
                }
            }
            Err(failure) => {
                tracing::warn!(
                    provider = %job.run.provider.provider.name,
                    reason = %failure.reason,
                    error = %failure.message,
                    "a note title could not be made; trying again later"
                );
                inner.write(|cx| {
                    providers::record_outcome(cx, provider, Err(&failure))?;
                    queue::to_back(cx, job.note, &job.key)?;
                    queue::failed(cx)
                })?;
                return Ok(written);
            }
        }
    }
}

fn drop_if_still(cx: &mut WriteCx<'_>, job: &Job) -> Result<()> {
    if queue::still_queued(cx, job.note, &job.key)? {
        queue::dequeue(cx, job.note)?;
    }
    Ok(())
}

/// Writes `title` made from text of hash `hash`, if the note still wants
/// one and its text is the same; records the success. Whether it wrote.
fn write_title(cx: &mut WriteCx<'_>, job: &Job, hash: [u8; 8], title: &str) -> Result<bool> {
    providers::record_outcome(cx, job.run.provider.provider.id, Ok(()))?;
    queue::reset_backoff(cx)?;
    if !queue::still_queued(cx, job.note, &job.key)? {
        return Ok(false);
    }
    let view = notes::title_view(&cx.tx, job.note)?;
    let Some(view) = view.filter(queue::wants_title) else {
        queue::dequeue(cx, job.note)?;
        return Ok(false);
    };
    if queue::text_hash(&view.text) != hash {
        // Changed while the model thought: it stays queued for the new text.
        return Ok(false);
    }
    queue::dequeue(cx, job.note)?;
    queue::made_from(cx, job.note, hash)?;
    if title.is_empty() {
        return Ok(false);
    }
    notes::write_generated_title(cx, job.note, title)?;
    Ok(true)
}

/// Asks the task's model for a title of `text`.
fn ask(
    inner: &Inner,
    run: &tasks::Running,
    text: &str,
) -> std::result::Result<String, wire::Failure> {
    let text: String = text.trim().chars().take(TEXT_MAX).collect();
    let ask = Ask {
        model: &run.model.identifier,
        system: Some(PROMPT),
        prompt: &text,
        max_tokens: run.max_output_tokens,
        reasoning: run.config.reasoning.as_deref(),
    };
    run.provider.with_connection(inner, |conn| {
        wire::complete(inner.options.http.as_ref(), conn, &ask)
    })
}

/// A model's reply made a title: thinking left out; the title line, not a
/// preamble (`Sure! Here is a title for your note:`); without a label
/// (`**Title:**`), Markdown emphasis, a heading or list marker, quotes,
/// invisible characters or trailing punctuation; squished; at most 80
/// characters cut at a word.
pub(crate) fn clean(reply: &str) -> String {
    let mut text = reply.to_owned();
    // Reasoning models may think aloud first.
    while let (Some(start), Some(end)) = (text.find("<think>"), text.find("</think>")) {
        if end < start {
            break;
        }
        text.replace_range(start..end + "</think>".len(), " ");
    }
    let mut title = text.lines().find_map(title_of_line).unwrap_or_default();
    const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', '…', '。', '、'];
    loop {
        let trimmed = title
            .trim_end_matches(TRAILING)
            .trim_matches(WRAPPERS)
            .to_owned();
        if trimmed == title {
            break;
        }
        title = trimmed;
    }
    if title.chars().count() <= TITLE_MAX {
        return title;
    }
    let cut: String = title.chars().take(TITLE_MAX).collect();
    match cut.rfind(' ') {
        Some(space) if space > 0 => cut[..space].trim_end_matches(TRAILING).to_owned(),
        _ => cut,
    }
}

/// What wraps a title: quotes, emphasis, spaces.
const WRAPPERS: &[char] = &[
    '"', '\'', '`', '*', '_', '“', '”', '‘', '’', '«', '»', '„', '「', '」', ' ',
];

/// Words a chatty reply opens with before it gets to the title.
const OPENERS: &[&str] = &[
    "sure",
    "certainly",
    "of course",
    "absolutely",
    "okay",
    "ok",
    "here is",
    "here's",
    "here are",
    "great",
    "alright",
    "voici",
    "bien sûr",
    "klar",
    "gerne",
    "claro",
];

/// The title in one line of a reply, if it holds one: `None` for a line
/// without words, and for a preamble (a line that ends in a colon with
/// nothing after its label, or that only opens the reply).
fn title_of_line(line: &str) -> Option<String> {
    let plain: String = crate::text::without_invisible(line)
        .replace("**", "")
        .replace("__", "")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    // A heading, a quote or a list item: its text.
    let mut line = plain.trim().trim_start_matches(['#', '>', '-', '•', ' ']);
    if let Some((number, rest)) = line.split_once(['.', ')'])
        && !number.is_empty()
        && number.len() <= 2
        && number.chars().all(|c| c.is_ascii_digit())
    {
        line = rest;
    }
    let mut line = line.trim().to_owned();
    // An opener ("Sure!", "Here's a title for your note:") is left out;
    // what follows its colon, or its exclamation, is the title.
    let lower = line.to_lowercase();
    let opens = OPENERS.iter().any(|o| {
        lower
            .strip_prefix(o)
            .is_some_and(|rest| rest.chars().next().is_none_or(|c| !c.is_alphanumeric()))
    });
    if opens {
        match line.rfind([':', '!']) {
            Some(at) => line = line[at + 1..].to_owned(),
            None => return None,
        }
    } else if let Some((label, rest)) = line.split_once(':') {
        // "Title: ...", "Suggested title: ...", "Titre : ...".
        let label = label.to_lowercase();
        let labelled = ["title", "titre", "titel", "título", "titolo"]
            .iter()
            .any(|t| label.contains(t))
            && label.split_whitespace().count() <= 4;
        if labelled {
            line = rest.to_owned();
        }
    }
    let title = crate::text::squish(line.trim_matches(WRAPPERS));
    title.chars().any(char::is_alphanumeric).then_some(title)
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn replies_are_cleaned_into_titles() {
        for (reply, title) in [
            ("Weekly groceries", "Weekly groceries"),
            ("\"Weekly groceries.\"", "Weekly groceries"),
            ("Title: Weekly groceries", "Weekly groceries"),
            (
                "**Weekly groceries**\n\nA list of things to buy.",
                "Weekly groceries",
            ),
            (
                "<think>It is a list.</think>\nCourses de la semaine",
                "Courses de la semaine",
            ),
            ("« Courses de la semaine »", "Courses de la semaine"),
            ("  Plan for   the trip!!  ", "Plan for the trip"),
            ("Wocheneinkauf…", "Wocheneinkauf"),
            ("", ""),
            ("...", ""),
            // What small local models answer (issue 22).
            ("**Title:** Notes on firewood", "Notes on firewood"),
            (
                "Sure! Here is a title for your note:\n\nNotes on firewood",
                "Notes on firewood",
            ),
            (
                "Sure, here's a short title for the note:\n**Winter Firewood Plan**",
                "Winter Firewood Plan",
            ),
            (
                "Here's a concise title: \"Firewood for the winter\"",
                "Firewood for the winter",
            ),
            (
                "Certainly! \"Winter Firewood Plan\"",
                "Winter Firewood Plan",
            ),
            (
                "Okay, here is a concise title:\n\n1. Winter Firewood Plan",
                "Winter Firewood Plan",
            ),
            ("## Firewood Stock Check", "Firewood Stock Check"),
            ("Suggested title: Firewood order", "Firewood order"),
            (
                "Winter Firewood Plan\n\nThis title captures the main point.",
                "Winter Firewood Plan",
            ),
            ("Titre : Bois pour l'hiver", "Bois pour l'hiver"),
            ("invoice\u{202E}fdp.exe", "invoicefdp.exe"),
            ("Meeting: budget review", "Meeting: budget review"),
        ] {
            assert_eq!(clean(reply), title, "{reply:?}");
        }
        let long = "word ".repeat(40);
        let t = clean(&long);
        assert!(t.chars().count() <= 80 && !t.ends_with(' '), "{t}");
    }
}
