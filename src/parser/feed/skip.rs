//! Stepping over an XML element without reading it: the content of a car
//! nested deeper than a record may be (`docs/parser.md`, "Limits and
//! hostile input") is skipped in one pass over its bytes, nothing kept.

/// The offset just past the end of the element whose start tag ends at
/// `from`, read without keeping anything (content too deep for a record):
/// tags counted, comments, CDATA, instructions and quoted attribute values
/// stepped over. `None`: the document ends first.
pub(super) fn skip_element(bytes: &[u8], from: usize) -> Option<usize> {
    let find = |at: usize, what: &[u8]| -> Option<usize> {
        bytes
            .get(at..)?
            .windows(what.len())
            .position(|w| w == what)
            .map(|p| at + p + what.len())
    };
    let mut at = from;
    let mut depth = 1usize;
    loop {
        at += bytes.get(at..)?.iter().position(|b| *b == b'<')?;
        let rest = &bytes[at + 1..];
        if rest.starts_with(b"!--") {
            at = find(at + 4, b"-->")?;
        } else if rest.starts_with(b"![CDATA[") {
            at = find(at + 9, b"]]>")?;
        } else if rest.starts_with(b"?") {
            at = find(at + 2, b"?>")?;
        } else if rest.starts_with(b"!") {
            at = find(at + 2, b">")?;
        } else if rest.starts_with(b"/") {
            at = find(at + 2, b">")?;
            depth -= 1;
            if depth == 0 {
                return Some(at);
            }
        } else {
            let mut quote = None;
            let mut i = at + 1;
            loop {
                let b = *bytes.get(i)?;
                match quote {
                    Some(q) if b == q => quote = None,
                    Some(_) => {}
                    None if b == b'"' || b == b'\'' => quote = Some(b),
                    None if b == b'>' => break,
                    None => {}
                }
                i += 1;
            }
            if bytes[i - 1] != b'/' {
                depth += 1;
            }
            at = i + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_over_nested_elements_comments_cdata_and_quoted_brackets() {
        let xml = b"<a><b x='>'><!-- </a> --><![CDATA[</a>]]><c/></b></a><next/>";
        // The start tag <a> ends at 3.
        let end = skip_element(xml, 3).unwrap();
        assert_eq!(&xml[end..], b"<next/>");
        assert_eq!(skip_element(b"<a><b>", 3), None, "the document ends first");
    }
}
