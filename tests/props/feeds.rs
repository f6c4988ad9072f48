//! The calendar servers the properties' feeds are read from, offline: the
//! address's path says what comes back, so operations can make feeds that
//! read, fail, or serve a malformed body.

use organiser::{HttpError, HttpRequest, HttpResponse};

/// A small calendar: one weekly event and one all-day event.
pub(crate) const CALENDAR: &str = "BEGIN:VCALENDAR\r\nX-WR-CALNAME:Props\r\nBEGIN:VEVENT\r\nUID:weekly\r\nSUMMARY:Weekly\r\nDTSTART;TZID=Europe/London:20260302T090000\r\nDTEND;TZID=Europe/London:20260302T100000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\nATTENDEE;CN=Ann:mailto:ann@example.com\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:day\r\nSUMMARY:Day off\r\nDTSTART;VALUE=DATE:20260312\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

/// Answers a fetch by the address's last path segment: `404`, `500`,
/// `html`, `refused`, `timeout`, or (anything else) [`CALENDAR`].
pub(crate) fn answer(request: &HttpRequest) -> Result<HttpResponse, HttpError> {
    let last = request.url.rsplit('/').next().unwrap_or("");
    let body = |status: u16, text: &str| {
        Ok(HttpResponse::new(
            status,
            request.url.clone(),
            text.as_bytes().to_vec(),
        ))
    };
    match last {
        "404" => body(404, ""),
        "500" => body(500, ""),
        "html" => body(200, "<html><body>hello</body></html>"),
        "refused" => Err(HttpError::RefusedAddress(
            "127.0.0.1".parse().expect("an address"),
        )),
        "timeout" => Err(HttpError::Timeout),
        _ => body(200, CALENDAR),
    }
}
