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
    /// Fragments drawn by this page, to be kept once the page is sent
    /// ([`Placed::keep`]): their key and HTML, which may hold tokens of
    /// the fragments drawn into them (a grid's cards).
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

    /// Notes `html`, drawn for `key`, to be kept after the page
    /// ([`Placed::keep`]); its token.
    pub(super) fn drawn(&mut self, key: String, html: Arc<str>) -> String {
        self.drawn.push((key, html.clone()));
        self.place(html)
    }

    /// The HTML drawn for `key` by this page, not kept yet.
    pub(super) fn drawn_for(&self, key: &str) -> Option<Arc<str>> {
        self.drawn
            .iter()
            .find(|(drawn, _)| drawn == key)
            .map(|(_, html)| html.clone())
    }

    /// Hands each fragment this page drew to `keep` (its key and its HTML,
    /// its tokens expanded), and forgets the page's fragments.
    pub(super) fn keep(&mut self, mut keep: impl FnMut(&str, &str)) {
        for (key, html) in std::mem::take(&mut self.drawn) {
            keep(&key, &self.expand(&html));
        }
        self.html.clear();
    }

    /// Whether the page holds fragments not kept yet.
    pub(super) fn keeps_any(&self) -> bool {
        !self.drawn.is_empty()
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

    /// `text` with each token of this page replaced by its fragment's HTML,
    /// and the tokens in that HTML by theirs (a grid drawn by this page
    /// holds its cards' tokens).
    pub(super) fn expand(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.expand_into(text, &mut out, usize::MAX);
        out
    }

    /// [`Placed::expand`] into `out`, of tokens before `below` only: a
    /// fragment holds tokens placed before its own, so nothing is expanded
    /// into itself.
    fn expand_into(&self, text: &str, out: &mut String, below: usize) {
        let mut rest = text;
        while let Some(at) = rest.find(Self::OPEN) {
            out.push_str(&rest[..at]);
            let after = &rest[at + Self::OPEN.len_utf8()..];
            let found = after.find(Self::CLOSE).and_then(|end| {
                let (nonce, index) = after[..end].split_once(':')?;
                let index = (nonce == self.nonce)
                    .then(|| index.parse::<usize>().ok())
                    .flatten()
                    .filter(|&i| i < below)?;
                let html = self.html.get(index)?;
                Some((index, html, end + Self::CLOSE.len_utf8()))
            });
            match found {
                Some((index, html, used)) => {
                    if html.contains(Self::OPEN) {
                        self.expand_into(html, out, index);
                    } else {
                        out.push_str(html);
                    }
                    rest = &after[used..];
                }
                None => {
                    out.push(Self::OPEN);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
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
    fn fragments_drawn_into_fragments_are_expanded_and_kept_after_the_page() {
        let mut placed = Placed::new();
        let card = placed.drawn("card".into(), Arc::from("<b>карта</b>"));
        let grid = placed.drawn("grid".into(), Arc::from(format!("<div>{card}{card}</div>")));
        assert_eq!(
            placed.expand(&format!("<main>{grid}</main>")),
            "<main><div><b>карта</b><b>карта</b></div></main>"
        );
        assert_eq!(
            placed.drawn_for("grid").as_deref(),
            Some(&*format!("<div>{card}{card}</div>"))
        );
        // A fragment's own token inside it (made up) is not expanded into itself.
        let forged = placed.place(Arc::from(format!("<i>\u{1}{}:3\u{2}</i>", placed.nonce)));
        assert_eq!(
            placed.expand(&forged),
            format!("<i>\u{1}{}:3\u{2}</i>", placed.nonce)
        );
        let mut kept = Vec::new();
        assert!(placed.keeps_any());
        placed.keep(|key, html| kept.push((key.to_string(), html.to_string())));
        assert_eq!(
            kept,
            [
                ("card".to_string(), "<b>карта</b>".to_string()),
                (
                    "grid".to_string(),
                    "<div><b>карта</b><b>карта</b></div>".to_string()
                )
            ]
        );
        assert!(!placed.keeps_any() && placed.html.is_empty());
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
