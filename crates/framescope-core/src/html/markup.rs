//! Markup that cannot carry a file's text unescaped, by construction.
//!
//! An [`Html`] grows only three ways: a `&'static str` literal of this crate's source
//! ([`Html::raw`]), another [`Html`], or the [`html!`] macro, whose format string must
//! be a literal and whose every argument is written through [`ToMarkup`] — text
//! (`str`, `String`, `char`, paths…) is escaped for element content and quoted
//! attribute values, numbers are written as numbers, an [`Html`] as the markup it is.
//! The macro refuses, at compile time, a format string that names a variable
//! (`{name}`): an implicit capture would bypass the escaping. A type with no
//! [`ToMarkup`] does not compile as an argument, so nothing reaches a page by accident.
//!
//! The page's own script and style are literals; its data is JSON in a
//! `<script type="application/json">` element ([`Html::json`], which escapes `<`).

use std::fmt::{self, Display, Write as _};

/// A piece of a page: markup whose every piece of text was escaped.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Html(String);

impl Html {
    /// Empty markup.
    #[must_use]
    pub fn new() -> Self {
        Self(String::new())
    }

    /// Appends markup written in this crate's source.
    pub fn raw(&mut self, markup: &'static str) {
        self.0.push_str(markup);
    }

    /// Appends other markup.
    pub fn push(&mut self, other: &Html) {
        self.0.push_str(&other.0);
    }

    /// Appends a JSON document for a `<script type="application/json">` element: `<`
    /// written as `\u003c`, so no text in it can close the element.
    pub fn json(&mut self, json: &str) {
        self.0.push_str(&json.replace('<', "\\u003c"));
    }

    /// Appends formatted markup; use [`html!`], which escapes every argument.
    #[doc(hidden)]
    pub fn push_fmt(&mut self, args: fmt::Arguments<'_>) {
        let _ = self.0.write_fmt(args);
    }

    /// The markup, to write out.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Appends formatted markup to an [`Html`]: `html!(out, "<td>{}</td>", text)`. The
/// format string is a literal without named arguments; every argument goes through
/// [`ToMarkup`] (text escaped, numbers as they are, [`Html`] as markup).
macro_rules! html {
    ($out:expr, $fmt:literal $(, $arg:expr)* $(,)?) => {{
        const _: () = assert!(
            $crate::html::markup::no_named_arguments($fmt),
            "html!: name no variable in the format string (it would not be escaped)"
        );
        $out.push_fmt(format_args!($fmt $(, $crate::html::markup::Escaped(&$arg))*))
    }};
}
pub(crate) use html;

/// Markup of its own: `html!` in an expression.
macro_rules! markup {
    ($fmt:literal $(, $arg:expr)* $(,)?) => {{
        let mut out = $crate::html::markup::Html::new();
        $crate::html::markup::html!(out, $fmt $(, $arg)*);
        out
    }};
}
pub(crate) use markup;

/// True when `fmt` has no `{name}` argument (only `{}`, `{:…}`, `{0}` and `{{`).
#[must_use]
pub const fn no_named_arguments(fmt: &str) -> bool {
    let b = fmt.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            if i + 1 < b.len() && b[i + 1] == b'{' {
                i += 2;
                continue;
            }
            if i + 1 < b.len() && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_') {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// What may be an argument of [`html!`], and how it is written.
pub trait ToMarkup {
    /// Writes `self` into markup (escaped, when it is text).
    fn to_markup(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// An argument of [`html!`].
#[doc(hidden)]
pub struct Escaped<'a, T: ?Sized>(pub &'a T);

impl<T: ToMarkup + ?Sized> Display for Escaped<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.to_markup(f)
    }
}

impl<T: ToMarkup + ?Sized> ToMarkup for &T {
    fn to_markup(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).to_markup(f)
    }
}

impl ToMarkup for Html {
    fn to_markup(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Text: escaped.
macro_rules! text_markup {
    ($($t:ty),*) => {$(
        impl ToMarkup for $t {
            fn to_markup(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut s = String::new();
                let _ = write!(s, "{self}");
                let mut out = String::with_capacity(s.len());
                push_escaped(&mut out, &s);
                f.pad(&out)
            }
        }
    )*};
}
text_markup!(str, String, char, std::borrow::Cow<'_, str>, std::path::Display<'_>);

/// Numbers: written as `Display` writes them (with the format's precision and width).
macro_rules! number_markup {
    ($($t:ty),*) => {$(
        impl ToMarkup for $t {
            fn to_markup(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                Display::fmt(self, f)
            }
        }
    )*};
}
number_markup!(f64, f32, u8, u16, u32, u64, usize, i32, i64);

/// Text for an element's content or a quoted attribute value.
fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// The page's Content-Security-Policy: nothing from the network, no inline event
/// handler, no script or style but the page's own (allowed by their SHA-256), no
/// plug-ins, forms or `<base>`. A missed escape could not run.
#[must_use]
pub fn content_security_policy(scripts: &[&str], styles: &[&str]) -> String {
    let hashes = |parts: &[&str]| {
        parts
            .iter()
            .map(|p| format!("'sha256-{}'", super::encode::base64(&sha256(p.as_bytes()))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
        hashes(scripts),
        hashes(styles)
    )
}

/// SHA-256's round constants (FIPS 180-4 §4.2.2).
const K: [u32; 64] = [
    0x428a_2f98,
    0x7137_4491,
    0xb5c0_fbcf,
    0xe9b5_dba5,
    0x3956_c25b,
    0x59f1_11f1,
    0x923f_82a4,
    0xab1c_5ed5,
    0xd807_aa98,
    0x1283_5b01,
    0x2431_85be,
    0x550c_7dc3,
    0x72be_5d74,
    0x80de_b1fe,
    0x9bdc_06a7,
    0xc19b_f174,
    0xe49b_69c1,
    0xefbe_4786,
    0x0fc1_9dc6,
    0x240c_a1cc,
    0x2de9_2c6f,
    0x4a74_84aa,
    0x5cb0_a9dc,
    0x76f9_88da,
    0x983e_5152,
    0xa831_c66d,
    0xb003_27c8,
    0xbf59_7fc7,
    0xc6e0_0bf3,
    0xd5a7_9147,
    0x06ca_6351,
    0x1429_2967,
    0x27b7_0a85,
    0x2e1b_2138,
    0x4d2c_6dfc,
    0x5338_0d13,
    0x650a_7354,
    0x766a_0abb,
    0x81c2_c92e,
    0x9272_2c85,
    0xa2bf_e8a1,
    0xa81a_664b,
    0xc24b_8b70,
    0xc76c_51a3,
    0xd192_e819,
    0xd699_0624,
    0xf40e_3585,
    0x106a_a070,
    0x19a4_c116,
    0x1e37_6c08,
    0x2748_774c,
    0x34b0_bcb5,
    0x391c_0cb3,
    0x4ed8_aa4a,
    0x5b9c_ca4f,
    0x682e_6ff3,
    0x748f_82ee,
    0x78a5_636f,
    0x84c8_7814,
    0x8cc7_0208,
    0x90be_fffa,
    0xa450_6ceb,
    0xbef9_a3f7,
    0xc671_78f2,
];

/// SHA-256's initial hash value (FIPS 180-4 §5.3.3).
const H0: [u32; 8] =
    [0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19];

/// SHA-256 (FIPS 180-4) of `data`, for the policy's hashes.
#[must_use]
pub fn sha256(data: &[u8]) -> [u8; 32] {
    let mut h = H0;
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64).wrapping_mul(8)).to_be_bytes());
    for block in message.chunks_exact(64) {
        compress(&mut h, block);
    }
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// One 64-byte block into the hash value `h`.
fn compress(h: &mut [u32; 8], block: &[u8]) {
    let mut w = [0u32; 64];
    for (i, word) in block.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
    }
    for i in 16..64 {
        let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
        let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
    for i in 0..64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(maj);
        hh = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
        *x = x.wrapping_add(y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
    }

    /// FIPS 180-4's examples ("abc", the 448-bit message) and the empty message.
    #[test]
    fn sha256_of_the_standard_examples() {
        assert_eq!(hex(&sha256(b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(hex(&sha256(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(
            hex(&sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            hex(&sha256(&vec![b'a'; 1_000_000])),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn arguments_are_escaped_and_markup_is_not() {
        let name = "t\"><img src=x onerror=alert(1)>";
        let inner = markup!("<b>{}</b>", "a&b");
        let mut out = Html::new();
        html!(
            out,
            "<td data-key=\"{}\" title='{}'>{} {:.2} {}</td>",
            name,
            String::from("'"),
            inner,
            1.5_f64,
            3_usize
        );
        assert_eq!(
            out.as_str(),
            "<td data-key=\"t&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\" title='&#39;'><b>a&amp;b</b> 1.50 3</td>"
        );
        out.json(r#"{"f":"</script><!--"}"#);
        assert!(out.as_str().ends_with(r#"{"f":"\u003c/script>\u003c!--"}"#));
    }

    #[test]
    fn named_arguments_are_refused() {
        assert!(no_named_arguments("<td>{}</td>{{x}}{:.2}{0}"));
        assert!(!no_named_arguments("<td data-key=\"{key}\">"));
        assert!(!no_named_arguments("{_x}"));
    }
}
