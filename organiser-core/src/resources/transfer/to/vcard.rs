//! The `vcard` foreign export (EXTENSIONS.md §5, "Foreign exports"):
//! people as one vCard 4.0 file (RFC 6350), one card per person, in the
//! order given, as khard and the contacts apps read it. Lines end with
//! CRLF and are folded and parameters written by the `ical` crate's
//! generator; values are escaped here (`\\`, `\n`, `\,`, `\;`), as the
//! crate does not.
//!
//! - `UID`: the person's id as it is (`01J...`), so a card keeps its
//!   identity in the tool that reads it and an import of the file into
//!   the organiser knows it again.
//! - `FN`: the name; `N`: the name split at its last space, the last word
//!   the family name and the rest the given names (a one-word name is a
//!   given name).
//! - `EMAIL` and `TEL` for each address and number. A label made of
//!   vCard's own types is written as `TYPE` (`home`, `work`; for phones
//!   also `fax`, `text`, `video`, `pager`, `textphone`, and `mobile` as
//!   `cell`; several words as several types: `home fax` is
//!   `TYPE=home,fax`); any other label is written the way Apple, Google
//!   and khard write their own labels, as a group with an `X-ABLabel`
//!   (`item1.EMAIL:...` and `item1.X-ABLabel:Chess club`).
//! - Key dates: the first `birthday` is `BDAY` and the first
//!   `anniversary` is `ANNIVERSARY`, as `19900412`, or `--0412` without a
//!   year (their labels are not written; vCard has no place for one). Every
//!   other key date is an `X-ABDATE` in a group with an `X-ABLabel`: its
//!   label, else its kind in words (`work anniversary`, `first met`,
//!   `name day`, `memorial`), which the `vcard` import reads back as that
//!   kind.
//! - `ORG` (the company's name) and `TITLE` for each position, in order;
//!   where a position lacks one of them and a later position has it, an
//!   empty `ORG:` or `TITLE:` keeps the pairs in step.
//! - `URL` for each social profile (its platform and label are not
//!   written).
//! - `PHOTO:data:<type>;base64,...` when a photo is given.
//! - `REV`: when the person last changed (`20240312T101522Z`).
//!
//! Relationships and connections to other people have no place in a
//! vCard and are not written.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use ical::generator::{Emitter, IcalVcardBuilder};
use ical::property::Property;

use crate::resources::people::{KeyDate, Person};

/// A person to write, with what the card needs beyond the record.
pub(crate) struct PersonCard<'a> {
    /// The person as the API shows it.
    pub(crate) person: &'a Person,
    /// The company name of each of the person's positions, in order
    /// (`None` for a position without a company).
    pub(crate) companies: Vec<Option<String>>,
    /// The photo: its media type (`image/jpeg`) and its bytes.
    pub(crate) photo: Option<(&'a str, Vec<u8>)>,
}

/// The vCard 4.0 file of `people`, one card each, in order.
pub(crate) fn write(people: &[PersonCard<'_>]) -> String {
    people.iter().map(card).collect()
}

/// Phone types of vCard 4.0 written as `TYPE` (with `mobile` for `cell`).
const PHONE_TYPES: &[&str] = &[
    "home",
    "work",
    "mobile",
    "fax",
    "text",
    "video",
    "pager",
    "textphone",
];

/// E-mail types of vCard 4.0 written as `TYPE`.
const EMAIL_TYPES: &[&str] = &["home", "work"];

/// One person's card.
fn card(entry: &PersonCard<'_>) -> String {
    let person = entry.person;
    let name = person.name.trim();
    let (given, family) = match name.rsplit_once(' ') {
        Some((given, family)) => (given.trim(), family.trim()),
        None => (name, ""),
    };
    let mut card = Card::default();
    card.add("UID", person.id.to_string(), Vec::new());
    for email in &person.email_addresses {
        card.labelled("EMAIL", &email.address, email.label.as_deref(), EMAIL_TYPES);
    }
    for phone in &person.phone_numbers {
        card.labelled("TEL", &phone.number, phone.label.as_deref(), PHONE_TYPES);
    }
    let mut birthday = false;
    let mut anniversary = false;
    for date in &person.key_dates {
        match date.kind.as_str() {
            "birthday" if !birthday => {
                birthday = true;
                card.add("BDAY", date_value(date), Vec::new());
            }
            "anniversary" if !anniversary => {
                anniversary = true;
                card.add("ANNIVERSARY", date_value(date), Vec::new());
            }
            kind => {
                let label = date
                    .label
                    .as_deref()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .unwrap_or_else(|| kind.replace('_', " "));
                card.grouped("X-ABDATE", date_value(date), Vec::new(), &label);
            }
        }
    }
    let titles: Vec<Option<&str>> = person
        .positions
        .iter()
        .map(|p| p.title.as_deref().map(str::trim).filter(|t| !t.is_empty()))
        .collect();
    let companies: Vec<Option<&str>> = (0..person.positions.len())
        .map(|i| {
            entry
                .companies
                .get(i)
                .and_then(Option::as_deref)
                .map(str::trim)
                .filter(|c| !c.is_empty())
        })
        .collect();
    let last_title = titles.iter().rposition(Option::is_some);
    let last_company = companies.iter().rposition(Option::is_some);
    for (i, (title, company)) in titles.iter().zip(&companies).enumerate() {
        if company.is_none() && title.is_none() {
            continue;
        }
        if last_company.is_some_and(|last| i <= last) {
            card.add("ORG", escape(company.unwrap_or_default()), Vec::new());
        }
        if last_title.is_some_and(|last| i <= last) {
            card.add("TITLE", escape(title.unwrap_or_default()), Vec::new());
        }
    }
    for profile in &person.social_profiles {
        let url = profile.url.trim();
        if !url.is_empty() {
            card.add("URL", url.to_owned(), Vec::new());
        }
    }
    if let Some((mime, bytes)) = &entry.photo
        && !bytes.is_empty()
    {
        let mime = if is_media_type(mime) {
            mime
        } else {
            "application/octet-stream"
        };
        card.add(
            "PHOTO",
            format!("data:{mime};base64,{}", STANDARD.encode(bytes)),
            Vec::new(),
        );
    }
    card.add("REV", crate::time::basic_utc(person.updated_at), Vec::new());
    let mut builder = IcalVcardBuilder::version("4.0")
        .names(Some(escape(family)), Some(escape(given)), None, None, None)
        .formatted_name(escape(name));
    for property in card.properties {
        builder = builder.set(property);
    }
    builder.build().generate()
}

/// The properties of a card after its `VERSION`, `N` and `FN`, and how
/// many groups (`item1`, ...) they have.
#[derive(Default)]
struct Card {
    /// The properties, in order.
    properties: Vec<Property>,
    /// The groups used so far.
    groups: usize,
}

impl Card {
    /// Adds property `name` with a value already escaped and `params`.
    fn add(&mut self, name: &str, value: String, params: Vec<(String, Vec<String>)>) {
        let property = Property {
            name: name.to_owned(),
            params: (!params.is_empty()).then_some(params),
            value: Some(value),
        };
        self.properties.push(property);
    }

    /// Adds property `name` in a new group with an `X-ABLabel` of `label`.
    fn grouped(
        &mut self,
        name: &str,
        value: String,
        params: Vec<(String, Vec<String>)>,
        label: &str,
    ) {
        self.groups += 1;
        let group = format!("item{}", self.groups);
        self.add(&format!("{group}.{name}"), value, params);
        self.add(
            &format!("{group}.X-ABLabel"),
            escape(label.trim()),
            Vec::new(),
        );
    }

    /// Adds an `EMAIL` or `TEL` with its label: as `TYPE` when every word
    /// of it is one of `types` (once), else as a group's `X-ABLabel`.
    fn labelled(&mut self, name: &str, value: &str, label: Option<&str>, types: &[&str]) {
        let value = escape(value.trim());
        let Some(label) = label.map(str::trim).filter(|l| !l.is_empty()) else {
            self.add(name, value, Vec::new());
            return;
        };
        let words: Vec<&str> = label.split(' ').collect();
        let all_types = words.iter().all(|w| types.contains(w))
            && words
                .iter()
                .enumerate()
                .all(|(i, w)| !words.get(..i).unwrap_or_default().contains(w));
        if all_types {
            let values = words
                .iter()
                .map(|&w| if w == "mobile" { "cell" } else { w }.to_owned())
                .collect();
            self.add(name, value, vec![("TYPE".to_owned(), values)]);
        } else {
            self.grouped(name, value, Vec::new(), label);
        }
    }
}

/// A key date as vCard 4.0 writes a date: `19900412`, or `--0412`
/// without a year.
fn date_value(date: &KeyDate) -> String {
    match date.year {
        Some(year) => format!("{year:04}{:02}{:02}", date.month, date.day),
        None => format!("--{:02}{:02}", date.month, date.day),
    }
}

/// Whether `mime` is a plain media type (`image/jpeg`), safe inside a
/// `data:` address.
fn is_media_type(mime: &str) -> bool {
    let mut parts = mime.split('/');
    let plain = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    };
    matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None) if plain(a) && plain(b))
}

/// A text value escaped as vCard writes it: `\\`, `\n`, `\,`, `\;`
/// (carriage returns dropped).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            ',' => out.push_str("\\,"),
            ';' => out.push_str("\\;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use jiff::Timestamp;

    use super::*;
    use crate::ids::Id;
    use crate::resources::people::{EmailAddress, PhoneNumber, Position, SocialProfile};
    use crate::resources::transfer::draft::{DraftKeyDate, DraftPerson, DraftPosition, Labelled};
    use crate::resources::transfer::from::vcard::read;

    const ID: &str = "01HV0000000000000000000001";

    fn id(n: u32) -> Id {
        Id::parse(&format!("01HV{n:022}")).unwrap()
    }

    fn at() -> Timestamp {
        "2024-03-12T10:15:22Z".parse().unwrap()
    }

    fn person(name: &str) -> Person {
        Person {
            id: Id::parse(ID).unwrap(),
            name: name.to_owned(),
            avatar: None,
            key_dates: Vec::new(),
            email_addresses: Vec::new(),
            phone_numbers: Vec::new(),
            social_profiles: Vec::new(),
            positions: Vec::new(),
            relationships: vec!["friend".to_owned()],
            connections: Vec::new(),
            created_at: at(),
            updated_at: at(),
        }
    }

    fn email(address: &str, label: Option<&str>) -> EmailAddress {
        EmailAddress {
            id: id(2),
            address: address.to_owned(),
            label: label.map(str::to_owned),
            created_at: at(),
            updated_at: at(),
        }
    }

    fn phone(number: &str, label: Option<&str>) -> PhoneNumber {
        PhoneNumber {
            id: id(3),
            number: number.to_owned(),
            label: label.map(str::to_owned),
            created_at: at(),
            updated_at: at(),
        }
    }

    fn key_date(kind: &str, label: Option<&str>, year: Option<i16>, month: i8, day: i8) -> KeyDate {
        KeyDate {
            id: id(4),
            kind: kind.to_owned(),
            label: label.map(str::to_owned),
            day,
            month,
            year,
            created_at: at(),
            updated_at: at(),
        }
    }

    fn job(title: Option<&str>) -> Position {
        Position {
            id: id(5),
            title: title.map(str::to_owned),
            company_id: None,
            created_at: at(),
            updated_at: at(),
        }
    }

    fn profile(url: &str) -> SocialProfile {
        SocialProfile {
            id: id(6),
            url: url.to_owned(),
            platform: "website".to_owned(),
            platform_detected: true,
            label: None,
            created_at: at(),
            updated_at: at(),
        }
    }

    fn one(person: &Person) -> String {
        write(&[PersonCard {
            person,
            companies: Vec::new(),
            photo: None,
        }])
    }

    #[test]
    fn a_plain_person_is_this_card() {
        let mut ann = person("Ann Marie Example");
        ann.email_addresses
            .push(email("ann@example.com", Some("home")));
        ann.phone_numbers
            .push(phone("+44 20 7946 0001", Some("mobile")));
        ann.key_dates.push(key_date("birthday", None, None, 4, 12));
        ann.positions.push(job(Some("Engineer")));
        ann.social_profiles.push(profile("https://example.com/ann"));
        let written = write(&[PersonCard {
            person: &ann,
            companies: vec![Some("Acme; Inc.".to_owned())],
            photo: Some(("image/gif", b"GIF89a".to_vec())),
        }]);
        assert_eq!(
            written,
            "BEGIN:VCARD\r\n\
             VERSION:4.0\r\n\
             N:Example;Ann Marie;;;\r\n\
             FN:Ann Marie Example\r\n\
             UID:01HV0000000000000000000001\r\n\
             EMAIL;TYPE=home:ann@example.com\r\n\
             TEL;TYPE=cell:+44 20 7946 0001\r\n\
             BDAY:--0412\r\n\
             ORG:Acme\\; Inc.\r\n\
             TITLE:Engineer\r\n\
             URL:https://example.com/ann\r\n\
             PHOTO:data:image/gif;base64,R0lGODlh\r\n\
             REV:20240312T101522Z\r\n\
             END:VCARD\r\n"
        );
    }

    #[test]
    fn labels_are_types_or_groups() {
        let cases: &[(&str, Option<&str>, &str)] = &[
            ("EMAIL", None, "EMAIL:x\r\n"),
            ("EMAIL", Some("work"), "EMAIL;TYPE=work:x\r\n"),
            (
                "EMAIL",
                Some("mobile"),
                "item1.EMAIL:x\r\nitem1.X-ABLabel:mobile\r\n",
            ),
            (
                "EMAIL",
                Some("Chess club"),
                "item1.EMAIL:x\r\nitem1.X-ABLabel:Chess club\r\n",
            ),
            ("TEL", Some("mobile"), "TEL;TYPE=cell:x\r\n"),
            ("TEL", Some("home fax"), "TEL;TYPE=home,fax:x\r\n"),
            (
                "TEL",
                Some("home home"),
                "item1.TEL:x\r\nitem1.X-ABLabel:home home\r\n",
            ),
            (
                "TEL",
                Some("Home"),
                "item1.TEL:x\r\nitem1.X-ABLabel:Home\r\n",
            ),
            (
                "TEL",
                Some("iphone"),
                "item1.TEL:x\r\nitem1.X-ABLabel:iphone\r\n",
            ),
            (
                "TEL",
                Some("voice"),
                "item1.TEL:x\r\nitem1.X-ABLabel:voice\r\n",
            ),
            (
                "TEL",
                Some("a;b,c:d\"e"),
                "item1.TEL:x\r\nitem1.X-ABLabel:a\\;b\\,c:d\"e\r\n",
            ),
        ];
        for (kind, label, want) in cases {
            let mut p = person("A");
            if *kind == "EMAIL" {
                p.email_addresses.push(email("x", *label));
            } else {
                p.phone_numbers.push(phone("x", *label));
            }
            let written = one(&p);
            assert!(
                written.contains(&format!("UID:{ID}\r\n{want}REV:")),
                "{label:?}: {written}"
            );
            let back = read(written.as_bytes()).unwrap();
            let person = back.people.first().unwrap();
            let got = person.emails.first().or(person.phones.first()).unwrap();
            assert_eq!(got.label.as_deref(), *label, "{label:?}");
        }
    }

    #[test]
    fn positions_stay_in_step() {
        // (title, company) of each position, and the ORG and TITLE lines.
        type Case = (
            &'static [(Option<&'static str>, Option<&'static str>)],
            &'static str,
        );
        let cases: &[Case] = &[
            (&[(Some("Clerk"), None)], "TITLE:Clerk\r\n"),
            (&[(None, Some("Acme"))], "ORG:Acme\r\n"),
            (&[(None, None)], ""),
            (
                &[(Some("One"), None), (Some("Two"), Some("B"))],
                "ORG:\r\nTITLE:One\r\nORG:B\r\nTITLE:Two\r\n",
            ),
            (
                &[(Some("One"), Some("A")), (None, Some("B"))],
                "ORG:A\r\nTITLE:One\r\nORG:B\r\n",
            ),
            (
                &[(None, Some("A")), (Some("Two"), None), (None, Some("C"))],
                "ORG:A\r\nTITLE:\r\nORG:\r\nTITLE:Two\r\nORG:C\r\n",
            ),
        ];
        for (positions, want) in cases {
            let mut p = person("A");
            p.positions = positions.iter().map(|(t, _)| job(*t)).collect();
            let companies = positions
                .iter()
                .map(|(_, c)| c.map(str::to_owned))
                .collect();
            let written = write(&[PersonCard {
                person: &p,
                companies,
                photo: None,
            }]);
            assert!(
                written.contains(&format!("UID:{ID}\r\n{want}REV:")),
                "{written}"
            );
            let back = read(written.as_bytes()).unwrap();
            let expected: Vec<DraftPosition> = positions
                .iter()
                .filter(|(t, c)| t.is_some() || c.is_some())
                .map(|(t, c)| DraftPosition {
                    title: t.map(str::to_owned),
                    company: c.map(str::to_owned),
                })
                .collect();
            assert_eq!(back.people.first().unwrap().positions, expected);
        }
    }

    #[test]
    fn key_dates_are_written_by_kind() {
        let cases: &[(KeyDate, &str)] = &[
            (
                key_date("birthday", None, Some(1990), 4, 12),
                "BDAY:19900412\r\n",
            ),
            (
                key_date("birthday", Some("real one"), None, 2, 29),
                "BDAY:--0229\r\n",
            ),
            (
                key_date("anniversary", None, Some(2015), 6, 20),
                "ANNIVERSARY:20150620\r\n",
            ),
            (
                key_date("other", Some("Moved, at last"), None, 9, 1),
                "item1.X-ABDATE:--0901\r\nitem1.X-ABLabel:Moved\\, at last\r\n",
            ),
            (
                key_date("work_anniversary", None, Some(2001), 1, 2),
                "item1.X-ABDATE:20010102\r\nitem1.X-ABLabel:work anniversary\r\n",
            ),
            (
                key_date("memorial", None, Some(2001), 1, 2),
                "item1.X-ABDATE:20010102\r\nitem1.X-ABLabel:memorial\r\n",
            ),
        ];
        for (date, want) in cases {
            let mut p = person("A");
            p.key_dates.push(date.clone());
            let written = one(&p);
            assert!(
                written.contains(&format!("UID:{ID}\r\n{want}REV:")),
                "{written}"
            );
        }
    }

    #[test]
    fn names_split_at_the_last_space_and_values_are_escaped() {
        let cases: &[(&str, &str)] = &[
            ("Cher", "N:;Cher;;;\r\nFN:Cher\r\n"),
            ("Ada Lovelace", "N:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\n"),
            (
                "Mary Ann de Vries",
                "N:Vries;Mary Ann de;;;\r\nFN:Mary Ann de Vries\r\n",
            ),
            (
                "Smith, Jane; Dr\\",
                "N:Dr\\\\;Smith\\, Jane\\;;;;\r\nFN:Smith\\, Jane\\; Dr\\\\\r\n",
            ),
        ];
        for (name, want) in cases {
            let written = one(&person(name));
            assert!(written.contains(want), "{written}");
            let back = read(written.as_bytes()).unwrap();
            assert_eq!(back.people.first().map(|p| p.name.as_str()), Some(*name));
        }
    }

    #[test]
    fn long_lines_are_folded() {
        let mut p = person("A");
        p.social_profiles
            .push(profile(&format!("https://example.com/{}", "a ".repeat(60))));
        let photo: Vec<u8> = (0..=255).collect();
        let written = write(&[PersonCard {
            person: &p,
            companies: Vec::new(),
            photo: Some(("image/jpeg", photo.clone())),
        }]);
        assert!(written.split("\r\n").all(|line| line.chars().count() <= 75));
        let back = read(written.as_bytes()).unwrap();
        let person = back.people.first().unwrap();
        assert_eq!(person.photo.as_ref(), Some(&photo));
        assert_eq!(
            person.urls,
            vec![format!(
                "https://example.com/{}",
                "a ".repeat(60).trim_end()
            )]
        );
    }

    #[test]
    fn written_cards_read_back_to_the_same_drafts() {
        let mut ada = person("Ada King Lovelace");
        ada.email_addresses = vec![
            email("ada@example.org", Some("home")),
            email("ada@work.example", Some("work")),
            email("ada@club.example", Some("Chess club")),
            email("ada@plain.example", None),
        ];
        ada.phone_numbers = vec![
            phone("+44 20 7946 0001", Some("mobile")),
            phone("+44 20 7946 0002", Some("home fax")),
            phone("+44 20 7946 0003", Some("iphone")),
            phone("+44 20 7946 0004", None),
        ];
        ada.key_dates = vec![
            key_date("birthday", None, Some(1915), 12, 10),
            key_date("anniversary", None, None, 7, 8),
            key_date("first_met", None, Some(2001), 5, 6),
            key_date("other", Some("Moved house"), None, 2, 29),
        ];
        ada.positions = vec![job(Some("Programmer")), job(None), job(Some("Advisor"))];
        ada.social_profiles = vec![
            profile("https://example.org/ada"),
            profile("https://x.com/ada"),
        ];
        let mut bob = person("Bob");
        bob.id = id(7);
        let photo = vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F'];
        let written = write(&[
            PersonCard {
                person: &ada,
                companies: vec![
                    Some("Analytical, Engine; Society".into()),
                    Some("Babbage & Co".into()),
                    None,
                ],
                photo: Some(("image/jpeg", photo.clone())),
            },
            PersonCard {
                person: &bob,
                companies: Vec::new(),
                photo: None,
            },
        ]);
        let back = read(written.as_bytes()).unwrap();
        let lab = |v: &str, l: Option<&str>| Labelled {
            value: v.to_owned(),
            label: l.map(str::to_owned),
        };
        let date = |kind, label: Option<&str>, year, month, day| DraftKeyDate {
            kind,
            label: label.map(str::to_owned),
            month,
            day,
            year,
        };
        let want_ada = DraftPerson {
            source: ID.to_owned(),
            at: format!("card 1 (UID {ID})"),
            name: "Ada King Lovelace".to_owned(),
            emails: vec![
                lab("ada@example.org", Some("home")),
                lab("ada@work.example", Some("work")),
                lab("ada@club.example", Some("Chess club")),
                lab("ada@plain.example", None),
            ],
            phones: vec![
                lab("+44 20 7946 0001", Some("mobile")),
                lab("+44 20 7946 0002", Some("home fax")),
                lab("+44 20 7946 0003", Some("iphone")),
                lab("+44 20 7946 0004", None),
            ],
            key_dates: vec![
                date("birthday", None, Some(1915), 12, 10),
                date("anniversary", None, None, 7, 8),
                date("first_met", None, Some(2001), 5, 6),
                date("other", Some("Moved house"), None, 2, 29),
            ],
            positions: vec![
                DraftPosition {
                    title: Some("Programmer".into()),
                    company: Some("Analytical, Engine; Society".into()),
                },
                DraftPosition {
                    title: None,
                    company: Some("Babbage & Co".into()),
                },
                DraftPosition {
                    title: Some("Advisor".into()),
                    company: None,
                },
            ],
            urls: vec!["https://example.org/ada".into(), "https://x.com/ada".into()],
            photo: Some(photo),
        };
        let bob_id = id(7).to_string();
        let want_bob = DraftPerson {
            source: bob_id.clone(),
            at: format!("card 2 (UID {bob_id})"),
            name: "Bob".to_owned(),
            ..DraftPerson::default()
        };
        assert_eq!(back.people, vec![want_ada, want_bob]);
        assert!(back.skipped.is_empty(), "{:?}", back.skipped);
    }

    #[test]
    fn nothing_to_write_is_an_empty_file() {
        assert_eq!(write(&[]), "");
    }

    #[test]
    fn a_strange_media_type_is_not_written_into_the_address() {
        let p = person("A");
        let written = write(&[PersonCard {
            person: &p,
            companies: Vec::new(),
            photo: Some(("image/jpeg;x=,y", vec![1, 2, 3])),
        }]);
        assert!(written.contains("PHOTO:data:application/octet-stream;base64,AQID\r\n"));
    }
}
