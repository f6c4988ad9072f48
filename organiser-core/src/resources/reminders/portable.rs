//! Notification channels in the organiser's archive (EXTENSIONS.md §5):
//! a channel's line is the channel as the API shows it, which never
//! holds its secret; the archive holds no secret, so the line says
//! `secret_set: false`, and an imported channel has none unless it
//! replaces one here that still delivers to the same place (the owner
//! enters it again otherwise). The reminder settings and the
//! notifications log are the store's, not records, and stay out.

use serde_json::Value;

use super::channels::{self, ChannelKind, NAME_MAX, NotificationChannel, StoredChannel};
use super::tables::CHANNELS;
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable};

/// The channels' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "notification_channel",
    table: CHANNELS,
    export,
    import,
};

/// 422 on `base` for the line of channel `id`.
fn refused(id: Id, problem: &str) -> Error {
    let kind = PORTABLE.kind;
    Error::invalid(
        "base",
        format!("records/{kind}.jsonl: the {kind} {id} cannot be read: {problem}"),
    )
}

/// The line of channel `id`: without its secret.
fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    let Some(stored) = channels::load(cx, id)? else {
        return Ok(None);
    };
    let mut channel = stored.channel;
    channel.secret_set = false;
    portable::to_line(channel).map(Some)
}

/// Where a channel delivers: its address, or its mail server and
/// recipients.
fn destination(c: &NotificationChannel) -> (Option<&str>, Option<(&str, u16, &str)>) {
    (
        c.url.as_deref(),
        c.email
            .as_ref()
            .map(|e| (e.smtp_host.as_str(), e.smtp_port, e.to.as_str())),
    )
}

/// Writes a channel's line as the module's docs say.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut channel: NotificationChannel = portable::read_line(PORTABLE.kind, line)?;
    let before = channels::load(cx, channel.id)?;
    let did = portable::decide(
        paths,
        before.as_ref().map(|s| s.channel.updated_at),
        false,
        &mut channel.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    channels::check_line(&channel).map_err(|problem| refused(channel.id, problem))?;
    if matches!(channel.kind, ChannelKind::Email) != channel.email.is_some() {
        return Err(refused(channel.id, "its kind and its settings disagree"));
    }
    let secret = before.as_ref().and_then(|b| {
        let same = destination(&b.channel) == destination(&channel);
        b.secret.clone().filter(|_| same)
    });
    channel.secret_set = secret.is_some();
    if channels::name_taken(cx, &channel.name, Some(channel.id))? {
        channel.name = crate::restore::free_name(&channel.name, NAME_MAX, |n| {
            channels::name_taken(cx, n, Some(channel.id))
        })?
        .ok_or_else(|| refused(channel.id, "its name is taken"))?;
    }
    channels::save(cx, &StoredChannel { channel, secret })?;
    Ok(did)
}
