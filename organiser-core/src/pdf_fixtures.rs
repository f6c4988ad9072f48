//! PDFs written by hand for the thumbnail's tests and `benches/pdf.rs`
//! (which includes this file), so both render the very same pages, and
//! the writer of a PDF's objects that `tests/common/hostile.rs` (which
//! includes it too) builds its hostile PDFs with. Test code only: not part
//! of the library.

/// A PDF of one page per content stream, `width` by `height` points,
/// Helvetica available as /F1 (not embedded: one of the 14 standard
/// fonts), with a correct cross-reference table.
pub(crate) fn pdf_with_pages(width: u32, height: u32, contents: &[&str]) -> Vec<u8> {
    let n = contents.len();
    // 1 catalog, 2 pages, 3 font, then a page and its content per page.
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 4 + 2 * i)).collect();
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_owned(),
    ];
    for (i, content) in contents.iter().enumerate() {
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] \
             /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
            5 + 2 * i
        ));
        objects.push(format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ));
    }
    assemble("1.4", &objects)
}

/// A PDF of `version` holding `objects` (numbered from 1, the first the
/// catalog), with a correct cross-reference table and trailer. The
/// hostile PDFs of `tests/common/hostile.rs` are written by it too.
pub(crate) fn assemble(version: &str, objects: &[impl AsRef<[u8]>]) -> Vec<u8> {
    let mut out = format!("%PDF-{version}\n%").into_bytes();
    out.extend_from_slice(b"\xE2\xE3\xCF\xD3\n");
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(object.as_ref());
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// A US Letter page like an invoice or a letter: a heading, a grey box,
/// ruled lines and 50 lines of text; and a second page.
pub(crate) fn typical_pdf() -> Vec<u8> {
    let mut content = String::from(
        "0.9 g 50 700 512 60 re f 0 g BT /F1 24 Tf 60 720 Td (Invoice 2024-117) Tj ET\n",
    );
    for i in 0..50 {
        let y = 660 - i * 12;
        content.push_str(&format!(
            "BT /F1 10 Tf 60 {y} Td (Line {i}: the quick brown fox jumps over the lazy dog, \
             12.50 EUR, reference ABC-{i:04}) Tj ET\n0.5 G 0.5 w 60 {} m 552 {} l S\n",
            y - 3,
            y - 3
        ));
    }
    pdf_with_pages(612, 792, &[&content, "0 0 1 rg 10 10 100 100 re f"])
}
