//! The owner's zone: picker names of the Rails time-zone list mapped to
//! IANA zones (Me's `time_zone` and `time_zone_iana`), and the calendar
//! arithmetic that "today" and expiry need.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};
use serde::Serialize;

/// The Rails picker list, in its own order: picker name, IANA zone.
const PICKER: &[(&str, &str)] = &[
    ("International Date Line West", "Pacific/Midway"),
    ("Midway Island", "Pacific/Midway"),
    ("American Samoa", "Pacific/Pago_Pago"),
    ("Hawaii", "Pacific/Honolulu"),
    ("Alaska", "America/Juneau"),
    ("Pacific Time (US & Canada)", "America/Los_Angeles"),
    ("Tijuana", "America/Tijuana"),
    ("Mountain Time (US & Canada)", "America/Denver"),
    ("Arizona", "America/Phoenix"),
    ("Chihuahua", "America/Chihuahua"),
    ("Mazatlan", "America/Mazatlan"),
    ("Central Time (US & Canada)", "America/Chicago"),
    ("Saskatchewan", "America/Regina"),
    ("Guadalajara", "America/Mexico_City"),
    ("Mexico City", "America/Mexico_City"),
    ("Monterrey", "America/Monterrey"),
    ("Central America", "America/Guatemala"),
    ("Eastern Time (US & Canada)", "America/New_York"),
    ("Indiana (East)", "America/Indiana/Indianapolis"),
    ("Bogota", "America/Bogota"),
    ("Lima", "America/Lima"),
    ("Quito", "America/Lima"),
    ("Atlantic Time (Canada)", "America/Halifax"),
    ("Caracas", "America/Caracas"),
    ("La Paz", "America/La_Paz"),
    ("Santiago", "America/Santiago"),
    ("Newfoundland", "America/St_Johns"),
    ("Brasilia", "America/Sao_Paulo"),
    ("Buenos Aires", "America/Argentina/Buenos_Aires"),
    ("Montevideo", "America/Montevideo"),
    ("Georgetown", "America/Guyana"),
    ("Puerto Rico", "America/Puerto_Rico"),
    ("Greenland", "America/Godthab"),
    ("Mid-Atlantic", "Atlantic/South_Georgia"),
    ("Azores", "Atlantic/Azores"),
    ("Cape Verde Is.", "Atlantic/Cape_Verde"),
    ("Dublin", "Europe/Dublin"),
    ("Edinburgh", "Europe/London"),
    ("Lisbon", "Europe/Lisbon"),
    ("London", "Europe/London"),
    ("Casablanca", "Africa/Casablanca"),
    ("Monrovia", "Africa/Monrovia"),
    ("UTC", "Etc/UTC"),
    ("Belgrade", "Europe/Belgrade"),
    ("Bratislava", "Europe/Bratislava"),
    ("Budapest", "Europe/Budapest"),
    ("Ljubljana", "Europe/Ljubljana"),
    ("Prague", "Europe/Prague"),
    ("Sarajevo", "Europe/Sarajevo"),
    ("Skopje", "Europe/Skopje"),
    ("Warsaw", "Europe/Warsaw"),
    ("Zagreb", "Europe/Zagreb"),
    ("Brussels", "Europe/Brussels"),
    ("Copenhagen", "Europe/Copenhagen"),
    ("Madrid", "Europe/Madrid"),
    ("Paris", "Europe/Paris"),
    ("Amsterdam", "Europe/Amsterdam"),
    ("Berlin", "Europe/Berlin"),
    ("Bern", "Europe/Zurich"),
    ("Zurich", "Europe/Zurich"),
    ("Rome", "Europe/Rome"),
    ("Stockholm", "Europe/Stockholm"),
    ("Vienna", "Europe/Vienna"),
    ("West Central Africa", "Africa/Algiers"),
    ("Bucharest", "Europe/Bucharest"),
    ("Cairo", "Africa/Cairo"),
    ("Helsinki", "Europe/Helsinki"),
    ("Kyiv", "Europe/Kiev"),
    ("Riga", "Europe/Riga"),
    ("Sofia", "Europe/Sofia"),
    ("Tallinn", "Europe/Tallinn"),
    ("Vilnius", "Europe/Vilnius"),
    ("Athens", "Europe/Athens"),
    ("Istanbul", "Europe/Istanbul"),
    ("Minsk", "Europe/Minsk"),
    ("Jerusalem", "Asia/Jerusalem"),
    ("Harare", "Africa/Harare"),
    ("Pretoria", "Africa/Johannesburg"),
    ("Kaliningrad", "Europe/Kaliningrad"),
    ("Moscow", "Europe/Moscow"),
    ("St. Petersburg", "Europe/Moscow"),
    ("Volgograd", "Europe/Volgograd"),
    ("Samara", "Europe/Samara"),
    ("Kuwait", "Asia/Kuwait"),
    ("Riyadh", "Asia/Riyadh"),
    ("Nairobi", "Africa/Nairobi"),
    ("Baghdad", "Asia/Baghdad"),
    ("Tehran", "Asia/Tehran"),
    ("Abu Dhabi", "Asia/Muscat"),
    ("Muscat", "Asia/Muscat"),
    ("Baku", "Asia/Baku"),
    ("Tbilisi", "Asia/Tbilisi"),
    ("Yerevan", "Asia/Yerevan"),
    ("Kabul", "Asia/Kabul"),
    ("Ekaterinburg", "Asia/Yekaterinburg"),
    ("Islamabad", "Asia/Karachi"),
    ("Karachi", "Asia/Karachi"),
    ("Tashkent", "Asia/Tashkent"),
    ("Chennai", "Asia/Kolkata"),
    ("Kolkata", "Asia/Kolkata"),
    ("Mumbai", "Asia/Kolkata"),
    ("New Delhi", "Asia/Kolkata"),
    ("Kathmandu", "Asia/Kathmandu"),
    ("Astana", "Asia/Dhaka"),
    ("Dhaka", "Asia/Dhaka"),
    ("Sri Jayawardenepura", "Asia/Colombo"),
    ("Almaty", "Asia/Almaty"),
    ("Novosibirsk", "Asia/Novosibirsk"),
    ("Rangoon", "Asia/Rangoon"),
    ("Bangkok", "Asia/Bangkok"),
    ("Hanoi", "Asia/Bangkok"),
    ("Jakarta", "Asia/Jakarta"),
    ("Krasnoyarsk", "Asia/Krasnoyarsk"),
    ("Beijing", "Asia/Shanghai"),
    ("Chongqing", "Asia/Chongqing"),
    ("Hong Kong", "Asia/Hong_Kong"),
    ("Urumqi", "Asia/Urumqi"),
    ("Kuala Lumpur", "Asia/Kuala_Lumpur"),
    ("Singapore", "Asia/Singapore"),
    ("Taipei", "Asia/Taipei"),
    ("Perth", "Australia/Perth"),
    ("Irkutsk", "Asia/Irkutsk"),
    ("Ulaanbaatar", "Asia/Ulaanbaatar"),
    ("Seoul", "Asia/Seoul"),
    ("Osaka", "Asia/Tokyo"),
    ("Sapporo", "Asia/Tokyo"),
    ("Tokyo", "Asia/Tokyo"),
    ("Yakutsk", "Asia/Yakutsk"),
    ("Darwin", "Australia/Darwin"),
    ("Adelaide", "Australia/Adelaide"),
    ("Canberra", "Australia/Melbourne"),
    ("Melbourne", "Australia/Melbourne"),
    ("Sydney", "Australia/Sydney"),
    ("Brisbane", "Australia/Brisbane"),
    ("Hobart", "Australia/Hobart"),
    ("Vladivostok", "Asia/Vladivostok"),
    ("Guam", "Pacific/Guam"),
    ("Port Moresby", "Pacific/Port_Moresby"),
    ("Magadan", "Asia/Magadan"),
    ("Srednekolymsk", "Asia/Srednekolymsk"),
    ("Solomon Is.", "Pacific/Guadalcanal"),
    ("New Caledonia", "Pacific/Noumea"),
    ("Fiji", "Pacific/Fiji"),
    ("Kamchatka", "Asia/Kamchatka"),
    ("Marshall Is.", "Pacific/Majuro"),
    ("Auckland", "Pacific/Auckland"),
    ("Wellington", "Pacific/Auckland"),
    ("Nuku'alofa", "Pacific/Tongatapu"),
    ("Tokelau Is.", "Pacific/Fakaofo"),
    ("Chatham Is.", "Pacific/Chatham"),
    ("Samoa", "Pacific/Apia"),
];

/// The time zone database bundled into the binary: the same rules on every
/// machine, whether or not it has `/usr/share/zoneinfo`, and no directory to
/// read at start-up.
fn database() -> &'static jiff::tz::TimeZoneDatabase {
    static DB: std::sync::OnceLock<jiff::tz::TimeZoneDatabase> = std::sync::OnceLock::new();
    DB.get_or_init(jiff::tz::TimeZoneDatabase::bundled)
}

/// One entry of the picker list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ZoneInfo {
    /// The picker name, e.g. "Eastern Time (US & Canada)".
    pub name: &'static str,
    /// The IANA zone, e.g. "America/New_York".
    pub iana: &'static str,
}

/// The whole picker list, in the picker's order.
pub fn zones() -> impl Iterator<Item = ZoneInfo> {
    PICKER.iter().map(|&(name, iana)| ZoneInfo { name, iana })
}

/// The owner's zone: a picker name with its IANA zone.
#[derive(Debug, Clone)]
pub struct Zone {
    info: ZoneInfo,
    tz: TimeZone,
}

impl PartialEq for Zone {
    fn eq(&self, other: &Self) -> bool {
        self.info == other.info
    }
}

impl Zone {
    /// The zone for a picker name ("London"), matched ignoring case, or for
    /// an IANA zone that the picker lists ("Europe/London" gives "London").
    /// `None` for anything else.
    pub fn find(name: &str) -> Option<Zone> {
        let name = name.trim();
        let info = zones()
            .find(|z| z.name.eq_ignore_ascii_case(name))
            .or_else(|| {
                // Several picker names share an IANA zone: prefer the one the
                // zone is named after ("London" over "Edinburgh").
                let mut matching = zones().filter(|z| z.iana.eq_ignore_ascii_case(name));
                let first = matching.next()?;
                let city =
                    |z: &ZoneInfo| z.iana.rsplit('/').next() == Some(&z.name.replace(' ', "_"));
                Some(
                    std::iter::once(first)
                        .chain(matching)
                        .find(city)
                        .unwrap_or(first),
                )
            })?;
        let tz = database().get(info.iana).ok()?;
        Some(Zone { info, tz })
    }

    /// The picker names that `text` could mean, for a suggestion: those
    /// whose name, or IANA zone's city, contains it (ignoring case and
    /// `_`; "New York" offers "Eastern Time (US & Canada)"), at most
    /// `most`, in the picker's order.
    pub fn suggestions(text: &str, most: usize) -> Vec<&'static str> {
        let wanted = text.trim().to_lowercase().replace('_', " ");
        if wanted.len() < 2 {
            return Vec::new();
        }
        let mut found: Vec<&'static str> = Vec::new();
        for z in zones() {
            let city = z.iana.to_lowercase().replace('_', " ");
            if (z.name.to_lowercase().contains(&wanted) || city.contains(&wanted))
                && !found.contains(&z.name)
            {
                found.push(z.name);
            }
        }
        found.truncate(most);
        found
    }

    /// UTC, the zone of a new store.
    pub fn utc() -> Zone {
        Zone::find("UTC").expect("UTC is in the picker list")
    }

    /// The picker name.
    pub fn name(&self) -> &'static str {
        self.info.name
    }

    /// The IANA zone.
    pub fn iana(&self) -> &'static str {
        self.info.iana
    }

    /// The date at `now` in this zone.
    pub fn today(&self, now: Timestamp) -> Date {
        now.to_zoned(self.tz.clone()).date()
    }

    /// The instant `now` in this zone.
    pub fn zoned(&self, now: Timestamp) -> Zoned {
        now.to_zoned(self.tz.clone())
    }

    /// The first instant of `date` in this zone (midnight, or the first
    /// moment after a daylight-saving gap at midnight).
    pub fn start_of(&self, date: Date) -> Timestamp {
        date.to_zoned(self.tz.clone())
            .and_then(|z| z.start_of_day())
            .map(|z| z.timestamp())
            .unwrap_or(Timestamp::MAX)
    }

    /// The jiff zone.
    pub fn time_zone(&self) -> &TimeZone {
        &self.tz
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_picker_zone_is_in_the_bundled_database() {
        for z in zones() {
            assert!(database().get(z.iana).is_ok(), "{} -> {}", z.name, z.iana);
        }
        assert_eq!(zones().count(), 151);
    }

    #[test]
    fn zones_are_found_by_picker_name_or_iana_zone() {
        let cases = [
            ("London", Some(("London", "Europe/London"))),
            ("london", Some(("London", "Europe/London"))),
            ("Europe/London", Some(("London", "Europe/London"))),
            (
                "Eastern Time (US & Canada)",
                Some(("Eastern Time (US & Canada)", "America/New_York")),
            ),
            (
                "America/New_York",
                Some(("Eastern Time (US & Canada)", "America/New_York")),
            ),
            ("Asia/Tokyo", Some(("Tokyo", "Asia/Tokyo"))),
            ("UTC", Some(("UTC", "Etc/UTC"))),
            ("Mars/Olympus_Mons", None),
            ("", None),
        ];
        for (name, expected) in cases {
            let found = Zone::find(name).map(|z| (z.name(), z.iana()));
            assert_eq!(found, expected, "{name}");
        }
    }

    #[test]
    fn today_is_the_date_in_the_zone() {
        let now: Timestamp = "2026-06-30T23:30:00Z".parse().unwrap();
        assert_eq!(
            Zone::find("UTC").unwrap().today(now).to_string(),
            "2026-06-30"
        );
        assert_eq!(
            Zone::find("Tokyo").unwrap().today(now).to_string(),
            "2026-07-01"
        );
        assert_eq!(
            Zone::find("Hawaii").unwrap().today(now).to_string(),
            "2026-06-30"
        );
        assert_eq!(
            Zone::find("Samoa").unwrap().today(now).to_string(),
            "2026-07-01"
        );
    }

    #[test]
    fn start_of_a_day_follows_daylight_saving() {
        let london = Zone::find("London").unwrap();
        let winter = london.start_of("2026-01-15".parse().unwrap());
        let summer = london.start_of("2026-07-15".parse().unwrap());
        assert_eq!(winter.to_string(), "2026-01-15T00:00:00Z");
        assert_eq!(summer.to_string(), "2026-07-14T23:00:00Z");
    }
}
