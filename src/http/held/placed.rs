//! The fragments a page being drawn takes from the store: the script holds
//! a short token for each, and the page's markup gets their HTML here, after
//! the script is done (`docs/rendering.md`, "Drawn once: fragments").

use std::sync::Arc;

/// Fragments placed in the page being drawn, named in its markup by tokens
/// `\u{1}NONCE:INDEX\u{2}`. The nonce is random per runtime, so a text of
/// the page cannot name a fragment.
pub(super) struct Placed {
    nonce: String,
    pub(super) html: Vec<Arc<str>>,
    /// Fragments drawn by this page, kept in the store as they are and to
    /// be kept deflated once the page is sent ([`Placed::keep`]).
    drawn: Vec<(String, Arc<str>)>,
}

impl Placed {
    const OPEN: char = '\u{1}';
    const CLOSE: char = '\u{2}';

    pub(super) fn new() -> Placed {
        Placed {
            nonce: format!("{:016x}", rand::random::<u64>()),
            html: Vec::new(),
            drawn: Vec::new(),
        }
    }

    /// Notes `html`, drawn for `key`, to be kept deflated after the page.
    pub(super) fn note_drawn(&mut self, key: String, html: Arc<str>) {
        self.drawn.push((key, html));
    }

    /// Hands each fragment this page drew to `keep` (its key and HTML), and
    /// forgets the page's fragments.
    pub(super) fn keep(&mut self, mut keep: impl FnMut(&str, &str)) {
        for (key, html) in self.drawn.drain(..) {
            keep(&key, &html);
        }
        self.html.clear();
    }

    /// The token of `html`, placed.
    pub(super) fn place(&mut self, html: Arc<str>) -> String {
        self.html.push(html);
        format!(
            "{}{}:{}{}",
            Self::OPEN,
            self.nonce,
            self.html.len() - 1,
            Self::CLOSE
        )
    }

    /// `text` with each token of this page replaced by its fragment's HTML
    /// (which holds no tokens: a fragment is expanded before it is kept).
    pub(super) fn expand(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find(Self::OPEN) {
            out.push_str(&rest[..at]);
            let after = &rest[at + Self::OPEN.len_utf8()..];
            let found = after.find(Self::CLOSE).and_then(|end| {
                let (nonce, index) = after[..end].split_once(':')?;
                let html = (nonce == self.nonce)
                    .then(|| index.parse::<usize>().ok())
                    .flatten()
                    .and_then(|i| self.html.get(i))?;
                Some((html, end + Self::CLOSE.len_utf8()))
            });
            match found {
                Some((html, used)) => {
                    out.push_str(html);
                    rest = &after[used..];
                }
                None => {
                    out.push(Self::OPEN);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// `html` (a fragment) with its first picture as the page's largest paint
/// is drawn (`ui/src/components/ui/Img.tsx` with `priority`): loaded at
/// once, decoded with the frame, fetched first. A card is kept drawn
/// without that priority, so the card that opens a list comes from the
/// store like the others (`drawnOnceOnServer`'s `firstPicture`).
pub(super) fn eager_first_picture(html: &str) -> String {
    let Some(start) = html.find("<img ") else {
        return html.to_string();
    };
    let Some(length) = html[start..].find('>') else {
        return html.to_string();
    };
    let tag = &html[start..start + length];
    let eager = tag
        .replacen(" loading=\"lazy\"", " loading=\"eager\"", 1)
        .replacen(" decoding=\"async\"", " decoding=\"sync\"", 1)
        .replacen(" fetchpriority=\"auto\"", " fetchpriority=\"high\"", 1);
    [&html[..start], &eager, &html[start + length..]].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fragments_a_page_drew_are_handed_over_once_and_forgotten() {
        let mut placed = Placed::new();
        let card: Arc<str> = Arc::from("<b>карта</b>");
        let token = placed.place(card.clone());
        placed.note_drawn("card".into(), card);
        assert_eq!(
            placed.expand(&format!("<p>{token}</p>")),
            "<p><b>карта</b></p>"
        );
        let mut kept = Vec::new();
        placed.keep(|key, html| kept.push(format!("{key}={html}")));
        assert_eq!(kept, ["card=<b>карта</b>"]);
        placed.keep(|key, _| panic!("{key} handed over twice"));
        assert!(placed.html.is_empty());
    }

    #[test]
    fn the_first_picture_is_made_eager_and_nothing_else() {
        let card = r#"<article><img src="/a.webp" alt="A" loading="lazy" decoding="async" fetchpriority="auto" width="800"><p loading="lazy"></p><img src="/b.webp" loading="lazy" decoding="async" fetchpriority="auto"></article>"#;
        assert_eq!(
            eager_first_picture(card),
            r#"<article><img src="/a.webp" alt="A" loading="eager" decoding="sync" fetchpriority="high" width="800"><p loading="lazy"></p><img src="/b.webp" loading="lazy" decoding="async" fetchpriority="auto"></article>"#
        );
        // No picture (a card without photos): as it was.
        let empty = r#"<div class="card-gallery-empty" role="img"></div>"#;
        assert_eq!(eager_first_picture(empty), empty);
    }
}
