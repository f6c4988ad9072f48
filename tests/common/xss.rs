//! The note-body XSS vectors the core's sanitiser is tested with
//! (`tests/rules/notes/body.rs`), shared with the web app's tests, which
//! render them over HTTP and in a real browser.

/// One hostile input per row: what must not survive in `body_html`
/// (ignoring case), what must, and the `body_text` left. Nothing here is
/// a reference, a tag or an image.
pub const NOTE_BODY_VECTORS: &[(&str, &[&str], &[&str], &str)] = &[
    (
        "<p>Hi<script>alert(1)</script> there</p>",
        &["<script", "alert"],
        &["Hi"],
        "Hi there",
    ),
    (
        "<script src=\"https://evil.example/x.js\"></script><p>after</p>",
        &["<script", "evil"],
        &["<p>after</p>"],
        "after",
    ),
    (
        "<p onclick=\"steal()\">Click</p>",
        &["onclick", "steal"],
        &["<p>Click</p>"],
        "Click",
    ),
    (
        "<p>A<img src=\"x\" onerror=\"steal()\">B</p>",
        &["<img", "onerror", "steal"],
        &["A", "B"],
        "AB",
    ),
    (
        "<svg onload=\"steal()\"><circle r=\"1\"></circle></svg><p>s</p>",
        &["<svg", "onload", "steal", "circle"],
        &["<p>s</p>"],
        "s",
    ),
    (
        "<p><a href=\"javascript:steal()\">js</a></p>",
        &["javascript", "steal"],
        &[">js</a>"],
        "js",
    ),
    (
        "<p><a href=\"JaVaScRiPt:steal()\">mixed</a></p>",
        &["javascript", "steal"],
        &[">mixed</a>"],
        "mixed",
    ),
    (
        "<p><a href=\"java&#x09;script:steal()\">tab</a></p>",
        &["script:", "steal"],
        &[">tab</a>"],
        "tab",
    ),
    (
        "<p><a href=\"vbscript:steal()\">vb</a></p>",
        &["vbscript", "steal"],
        &[">vb</a>"],
        "vb",
    ),
    (
        "<p><a href=\"data:text/html;base64,PHNjcmlwdD4=\">data</a></p>",
        &["data:", "base64"],
        &[">data</a>"],
        "data",
    ),
    (
        "<p><img src=\"https://tracker.example/pixel.png\">seen</p>",
        &["<img", "tracker"],
        &["seen"],
        "seen",
    ),
    (
        "<p><img data-upload=\"forged-upload\">x</p>",
        &["<img", "forged"],
        &["x"],
        "x",
    ),
    (
        "<p><img data-upload=\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\">y</p>",
        &["<img", "aaaaaaaaaa"],
        &["y"],
        "y",
    ),
    (
        "<p style=\"background:url(https://evil.example/x)\">painted</p>",
        &["style", "evil"],
        &["<p>painted</p>"],
        "painted",
    ),
    (
        "<style>p { display: none }</style><p>after</p>",
        &["<style", "display"],
        &["<p>after</p>"],
        "after",
    ),
    (
        "<p>a<!-- hidden -->b</p>",
        &["<!--", "hidden"],
        &["a", "b"],
        "ab",
    ),
    (
        "<!--[if IE]><script>steal()</script><![endif]--><p>c</p>",
        &["<!--", "steal", "endif"],
        &["<p>c</p>"],
        "c",
    ),
    (
        "<iframe src=\"https://evil.example/\"></iframe><p>f</p>",
        &["iframe", "evil"],
        &["<p>f</p>"],
        "f",
    ),
    (
        "<object data=\"https://evil.example/x.swf\"></object><embed src=\"https://evil.example/y\"><p>o</p>",
        &["object", "embed", "evil"],
        &["<p>o</p>"],
        "o",
    ),
    (
        "<form action=\"https://evil.example/\"><input name=\"q\" value=\"v\"><button>Go</button></form>",
        &["<form", "<input", "<button", "evil"],
        &["Go"],
        "Go",
    ),
    (
        "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/\"><base href=\"https://evil.example/\"><p>m</p>",
        &["<meta", "<base", "evil"],
        &["<p>m</p>"],
        "m",
    ),
    (
        "<p><a href=\"https://ok.example/\" target=\"_blank\" onmouseover=\"steal()\">ok</a></p>",
        &["target", "onmouseover", "steal"],
        &["href=\"https://ok.example/\"", " rel=\""],
        "ok",
    ),
    (
        "<p><span class=\"x\" title=\"t\" data-foo=\"y\">plain</span></p><h1 id=\"top\">Head</h1>",
        &["class=", "title=", "data-foo", "id="],
        &["plain", "<h1>Head</h1>"],
        "plain\nHead",
    ),
    (
        "<p><span data-mention=\"not-an-id\" onclick=\"steal()\">@Bogus</span></p>",
        &["not-an-id", "onclick", "steal"],
        &["@Bogus"],
        "@Bogus",
    ),
    (
        "<div><p>in a div</p></div>",
        &["<div"],
        &["<p>in a div</p>"],
        "in a div",
    ),
    (
        // MathML is foreign content: ammonia drops it whole, text and all.
        "<math><mi xlink:href=\"javascript:steal()\">m</mi></math>",
        &["<math", "xlink", "steal"],
        &[],
        "",
    ),
    (
        "<p>&lt;script&gt;steal()&lt;/script&gt;</p>",
        &["<script"],
        &["&lt;script&gt;"],
        "<script>steal()</script>",
    ),
];
