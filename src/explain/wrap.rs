//! Wrapping text to the terminal's width: words go onto a line while they fit, a bracketed
//! citation is not split over two lines, and a no-break space holds its words together. A
//! text of words separated by single spaces (most texts) is wrapped in one pass over its
//! bytes, eight at a time, checked for plainness as it goes; any other is wrapped word by word.
//!
//! Kept beside `textwrap` (in the build through miette) because the library is the
//! bottleneck: `cargo bench --bench hand_written` (7 December 2026, load average 12) wraps
//! the 37 texts of a GNT flights and a DBF § 304B1 explanation (4,507 characters) in 14 µs
//! at 40 columns and 8 µs at 80, textwrap (first fit, a bracketed citation made one word by
//! a custom word separator, widths in characters) in 201 and 217 µs: 14× and 26× slower,
//! for the same lines. textwrap also needs that separator to keep a citation on one line,
//! keeps one that is wider than the line whole where this module breaks it at its words,
//! and counts display width where this module counts characters.

/// `text` wrapped to `width` columns (characters), each line after `indent` and ending in a
/// line break.
pub fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16 * (indent.len() + 1) + indent.len() + 1);
    wrap_into(&mut out, text, indent, width);
    out
}

/// [`wrap`], appended to `out`.
pub fn wrap_into(out: &mut String, text: &str, indent: &str, width: usize) {
    let room = width.saturating_sub(indent.len());
    if plain(text) {
        wrap_plain(out, text, indent, room);
    } else {
        wrap_words(out, text, indent, room);
    }
}

/// Whether `text`'s words are separated by single ASCII spaces, with none before or after
/// and no other white space at which a line may break (most texts): a pass over its bytes
/// sixteen at a time, written so that the compiler compares them side by side, and a look
/// byte by byte at a block that may hold such white space.
fn plain(text: &str) -> bool {
    let b = text.as_bytes();
    if b.first().is_none_or(|&c| c == b' ') || b.last() == Some(&b' ') {
        return false;
    }
    let mut i = 0;
    while i + 17 <= b.len() {
        let (Ok(x), Ok(y)) = (<&[u8; 16]>::try_from(&b[i..i + 16]), <&[u8; 16]>::try_from(&b[i + 1..i + 17])) else {
            break;
        };
        if suspect(x, y) && !plain_at(b, i, i + 16) {
            return false;
        }
        i += 16;
    }
    // The last bytes, after them letters.
    while i < b.len() {
        let mut w = [b'a'; 17];
        let k = (b.len() - i).min(17);
        w[..k].copy_from_slice(&b[i..i + k]);
        let (Ok(x), Ok(y)) = (<&[u8; 16]>::try_from(&w[..16]), <&[u8; 16]>::try_from(&w[1..])) else {
            break;
        };
        if suspect(x, y) && !plain_at(b, i, (i + 16).min(b.len())) {
            return false;
        }
        i += 16;
    }
    true
}

/// Whether a character beginning at one of the sixteen bytes `x` (each followed by the
/// byte of `y` at its place) may make a text not plain: a space before a space, a byte
/// below 0x20, or the first two bytes of white space beyond ASCII at which a line may break
/// (C2 85, E1 9A, E2 80, E2 81, E3 80; a few other characters begin so too, among them the
/// dashes and quotation marks).
#[inline(always)]
fn suspect(x: &[u8; 16], y: &[u8; 16]) -> bool {
    let mut odd = 0u8;
    for j in 0..16 {
        let (x, y) = (x[j], y[j]);
        odd |= (u8::from(x == b' ') & u8::from(y == b' '))
            | u8::from(x < 0x20)
            | (u8::from(x == 0xc2) & u8::from(y == 0x85))
            | (u8::from(x & 0xfc == 0xe0) & (u8::from(y & 0xfe == 0x80) | u8::from(y == 0x9a)));
    }
    odd != 0
}

/// Whether the characters beginning at the bytes `b[from..to]` keep the text plain, one by
/// one: no space before a space, no white space at which a line may break but a space.
fn plain_at(b: &[u8], from: usize, to: usize) -> bool {
    for i in from..to {
        match b[i] {
            b' ' if b.get(i + 1) == Some(&b' ') => return false,
            b'\t'..=b'\r' => return false,
            0xc2 | 0xe1 | 0xe2 | 0xe3 if breaking_space_at(b, i) => return false,
            _ => {}
        }
    }
    true
}

/// The first byte of `b` from `from` on that is beyond ASCII (`b.len()` when there is none),
/// looked for sixteen bytes at a time.
fn ascii_until(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(w) = b.get(i..i + 16).and_then(|w| <&[u8; 16]>::try_from(w).ok()) {
        let mut high = 0u8;
        for x in w {
            high |= x & 0x80;
        }
        if high != 0 {
            break;
        }
        i += 16;
    }
    b[i..].iter().position(|&c| c >= 0x80).map_or(b.len(), |k| i + k)
}

/// Whether the character at `b[i]` is white space beyond ASCII at which a line may break
/// ([`breaks`]), by its bytes.
fn breaking_space_at(b: &[u8], i: usize) -> bool {
    let at = |k: usize| b.get(i + k).copied().unwrap_or(0);
    match b[i] {
        0xc2 => at(1) == 0x85,
        0xe1 => (at(1), at(2)) == (0x9a, 0x80),
        0xe2 => match (at(1), at(2)) {
            (0x80, x) => matches!(x, 0x80..=0x86 | 0x88..=0x8a | 0xa8 | 0xa9),
            (0x81, x) => x == 0x9f,
            _ => false,
        },
        0xe3 => (at(1), at(2)) == (0x80, 0x80),
        _ => false,
    }
}

/// [`wrap_words`] for a [`plain`] text, a line at a time: each line is the longest run of
/// words that fits (found by counting characters up to the room and looking back for the
/// last space), copied whole.
fn wrap_plain(out: &mut String, text: &str, indent: &str, room: usize) {
    let b = text.as_bytes();
    // Up to the first byte beyond ASCII, characters are bytes (looked for only when the text
    // needs more than a line).
    let ascii = if b.len() <= room { b.len() } else { ascii_until(b, 0) };
    let mut start = 0usize;
    loop {
        let p = if start + room <= ascii {
            // Characters are bytes up to there.
            (start + room).min(b.len())
        } else if start < ascii {
            char_at(b, ascii, room - (ascii - start))
        } else {
            char_at(b, start, room)
        };
        let end = if p >= b.len() {
            b.len()
        } else if b[p] == b' ' {
            p
        } else {
            match b[start..p].iter().rposition(|&c| c == b' ') {
                Some(i) => start + i,
                // A word longer than the room: alone on its line.
                None => b[p..].iter().position(|&c| c == b' ').map_or(b.len(), |i| p + i),
            }
        };
        let end = if end < b.len() { keep_citation(b, start, end, room) } else { end };
        out.reserve(indent.len() + end - start + 1);
        out.push_str(indent);
        out.push_str(&text[start..end]);
        out.push('\n');
        if end >= b.len() {
            return;
        }
        start = end + 1;
    }
}

/// The index of the byte that begins character number `n` (from 0) of `b[start..]`, or
/// `b.len()` when it has no more than `n` characters.
fn char_at(b: &[u8], start: usize, n: usize) -> usize {
    if b.len() - start <= n {
        return b.len();
    }
    // The first `n` bytes hold at most `n` characters: counted sixteen at a time.
    let mut i = start + n;
    let mut seen = 0usize;
    let mut chunks = b[start..i].chunks_exact(16);
    for c in &mut chunks {
        if let Ok(w) = <&[u8; 16]>::try_from(c) {
            let mut k = 0u32;
            for x in w {
                k += u32::from(x & 0xc0 != 0x80);
            }
            seen += k as usize;
        }
    }
    seen += chunks.remainder().iter().filter(|&&c| c & 0xc0 != 0x80).count();
    while i < b.len() {
        if b[i] & 0xc0 != 0x80 {
            if seen == n {
                return i;
            }
            seen += 1;
        }
        i += 1;
    }
    b.len()
}

/// Where a line `b[start..end]` that breaks at the space `end` ends instead when a
/// bracketed citation begun on it would be split (see [`unbroken_width`]): before the
/// first `[` after its last `]` whose citation fits in `room`.
fn keep_citation(b: &[u8], start: usize, end: usize, room: usize) -> usize {
    let line = &b[start..end];
    // The line's last `[`, and its last `]` if that comes after.
    let Some(open) = last_byte(line, b'[') else { return end };
    if line[open..].contains(&b']') {
        return end;
    }
    let from = last_byte(&line[..open], b']').map_or(0, |i| i + 1);
    let mut q = start + from;
    while let Some(i) = first_byte(&b[q..end], b'[') {
        q += i;
        if q > start && b[q - 1] == b' ' {
            let word_end = b[q..end].iter().position(|&c| c == b' ').map_or(end, |i| q + i);
            let w = b[q..word_end].iter().filter(|&&c| c & 0xc0 != 0x80).count();
            if unbroken_width(b, q, word_end, w, room) != w {
                return q - 1;
            }
        }
        q += 1;
    }
    end
}

/// Whether any of the sixteen bytes `w` is `x` (written so that the compiler compares them
/// side by side).
#[inline(always)]
fn holds(w: &[u8; 16], x: u8) -> bool {
    let mut any = 0u8;
    for c in w {
        any |= u8::from(*c == x);
    }
    any != 0
}

/// The place of the first byte of `b` that is `x`, looked for sixteen bytes at a time.
fn first_byte(b: &[u8], x: u8) -> Option<usize> {
    let mut i = 0;
    while let Some(w) = b.get(i..i + 16).and_then(|w| <&[u8; 16]>::try_from(w).ok()) {
        if holds(w, x) {
            break;
        }
        i += 16;
    }
    b[i..].iter().position(|&c| c == x).map(|k| i + k)
}

/// The place of the last byte of `b` that is `x`, looked for sixteen bytes at a time from
/// the end.
fn last_byte(b: &[u8], x: u8) -> Option<usize> {
    let mut end = b.len();
    while end >= 16 {
        let Ok(w) = <&[u8; 16]>::try_from(&b[end - 16..end]) else { break };
        if holds(w, x) {
            break;
        }
        end -= 16;
    }
    b[..end].iter().rposition(|&c| c == x)
}

/// [`wrap`] for any text: its words as `split_whitespace` finds them.
fn wrap_words(out: &mut String, text: &str, indent: &str, room: usize) {
    let mut line_len = 0usize;
    let mut words = text_words(text);
    while let Some((word, w)) = words.next() {
        // A bracketed citation that fits on a line is kept on one (see `unbroken_width`).
        let mut keep = w;
        if word.starts_with('[') && !word.contains(']') {
            let mut ahead = words.clone();
            let mut group = w;
            while group <= room {
                let Some((next, nw)) = ahead.next() else { break };
                group += 1 + nw;
                if next.contains(']') {
                    if group <= room {
                        keep = group;
                    }
                    break;
                }
            }
        }
        if line_len > 0 && line_len + 1 + keep > room {
            out.push('\n');
            line_len = 0;
        }
        if line_len == 0 {
            out.push_str(indent);
        } else {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += w;
    }
    if line_len > 0 {
        out.push('\n');
    }
}

/// The width a line needs from the word at `start..end` (of width `w`) on before it may
/// break: the word's own, or, when it opens a bracketed citation (`[Rule 12]`, `[Part
/// 4.2]`) that fits in `room`, the whole citation's, so that a citation is never split
/// over two lines. Only the group's first word needs this: once it starts a line, or fits
/// on the current one, the rest of the group fits after it. `b` has single spaces.
fn unbroken_width(b: &[u8], start: usize, end: usize, w: usize, room: usize) -> usize {
    if b[start] != b'[' || b[start..end].contains(&b']') {
        return w;
    }
    let mut n = w;
    let mut i = end;
    while i < b.len() && n <= room {
        n += usize::from(b[i] & 0xc0 != 0x80);
        if b[i] == b']' {
            // The citation ends with the word this bracket closes.
            i += 1;
            while i < b.len() && b[i] != b' ' {
                n += usize::from(b[i] & 0xc0 != 0x80);
                i += 1;
            }
            return if n <= room { n } else { w };
        }
        i += 1;
    }
    w
}

/// Whether a line may break at this character: any white space but the no-break spaces
/// (U+00A0, the figure space U+2007, the narrow no-break space U+202F), which hold a
/// number's digit groups or a unit to its number.
fn breaks(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{2007}' | '\u{202f}')
}

/// The words of `text`: runs of characters between white space at which a line may break
/// ([`breaks`]), each with its length in characters, in one pass over the bytes
/// (characters are decoded only outside ASCII).
fn text_words(text: &str) -> impl Iterator<Item = (&str, usize)> + Clone {
    let b = text.as_bytes();
    let mut i = 0;
    // The character at `i` if it is whitespace (its length in bytes), else `None`.
    let space_at = move |i: usize| -> (bool, usize) {
        let c = b[i];
        if c < 0x80 {
            return (matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'), 1);
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        (breaks(ch), ch.len_utf8())
    };
    std::iter::from_fn(move || {
        while i < b.len() {
            let (space, len) = space_at(i);
            if !space {
                break;
            }
            i += len;
        }
        if i >= b.len() {
            return None;
        }
        let (start, mut n) = (i, 0);
        while i < b.len() {
            let (space, len) = space_at(i);
            if space {
                break;
            }
            i += len;
            n += 1;
        }
        Some((&text[start..i], n))
    })
}

#[cfg(test)]
mod tests {
    use super::text_words;

    /// The wrapping of words as `split_whitespace` finds them, one by one.
    fn wrap_slowly(text: &str, indent: &str, width: usize) -> String {
        let mut out = String::new();
        super::wrap_words(&mut out, text, indent, width.saturating_sub(indent.len()));
        out
    }

    #[test]
    fn plain_texts_wrap_as_any_text() {
        let long = "the amount under the second rule: 474.60 æøå ✗ 2,150 · x ".repeat(5);
        for t in [
            "",
            " ",
            "a",
            "a b",
            " a",
            "a ",
            "a  b",
            "a\tb",
            "a\u{a0}b",
            "ord\u{2009}mellemrum",
            long.trim_end(),
            &long,
            "“quoted” — dash",
            "one-very-long-word-that-is-longer-than-the-room-of-the-line-by-itself-alone",
            // Lines already wrapped before the text turns out not to be plain.
            &format!("{} a\tb", long.trim_end()),
            &format!("{}  x", long.trim_end()),
            &format!("{} a\u{2003}b", long.trim_end()),
            "whether it is so (Rule 12): no [Rule 12] and [Part 4.2 and 4.3] [x] [unclosed words here",
            "[Rule\u{a0}12] [a b]c [ [ ] ]",
        ] {
            for width in [0, 1, 5, 12, 13, 14, 15, 16, 17, 20, 25, 40, 100] {
                let mut ours = String::new();
                super::wrap_into(&mut ours, t, "    ", width);
                assert_eq!(ours, wrap_slowly(t, "    ", width), "{t:?} at {width}");
            }
        }
    }

    #[test]
    fn generated_texts_wrap_as_any_text() {
        let words = [
            "a",
            "bb",
            "the",
            "[Rule",
            "12]",
            "[§",
            "304B1]",
            "[x]",
            "]",
            "[",
            "æøå",
            "×",
            "−",
            "“quoted”",
            "2\u{a0}150",
            "kr.",
            "one-rather-long-word-of-its-own",
            "[a",
            "b]c",
            "·",
            "✗",
            "",
            "a\tb",
            "x\u{85}y",
            "\u{3000}",
            "thin\u{2009}space",
            "\u{202f}",
            "\u{2007}7",
            "–",
            "…",
            "\r",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..6000 {
            let n = 1 + next(40);
            let t: Vec<&str> = (0..n).map(|_| words[next(words.len())]).collect();
            let t = t.join(" ");
            let width = next(50);
            let mut ours = String::new();
            super::wrap_into(&mut ours, &t, "  ", width);
            assert_eq!(ours, wrap_slowly(&t, "  ", width), "{t:?} at {width}");
        }
    }

    #[test]
    fn white_space_beyond_ascii_is_known_by_its_bytes() {
        for c in ('\u{80}'..='\u{ffff}').chain(['\u{10000}', '\u{10ffff}']) {
            let mut buf = [0; 4];
            let b = c.encode_utf8(&mut buf).as_bytes();
            assert_eq!(super::breaking_space_at(b, 0), super::breaks(c), "{c:?}");
        }
    }

    #[test]
    fn a_text_is_plain_unless_a_character_in_it_breaks() {
        // Every character, at every place of a block of sixteen bytes and across blocks.
        for c in ('\u{0}'..='\u{ffff}').chain(['\u{10000}', '\u{10ffff}']).filter(|c| *c != ' ') {
            let breaks = super::breaks(c);
            for pad in [0, 7, 14, 15, 16, 30] {
                let t = format!("{}{c}b", "a".repeat(pad + 1));
                assert_eq!(super::plain(&t), !breaks, "{c:?} after {pad}");
            }
        }
        for pad in 0..40 {
            let t = format!("{}  b", "a".repeat(pad + 1));
            assert!(!super::plain(&t), "two spaces after {pad}");
            assert!(super::plain(&t.replacen("  ", " ", 1)), "one space after {pad}");
        }
    }

    #[test]
    fn words_are_split_at_white_space_but_not_at_no_break_spaces() {
        for t in
            ["", "  ", "a", " a  b\tc\n", "“quoted” — dash\u{a0}nbsp\u{2009}thin\u{3000}ideo", "æøå ✗ 2,150 · x\u{85}y"]
        {
            let ours: Vec<(&str, usize)> = text_words(t).collect();
            let split: Vec<(&str, usize)> =
                t.split(super::breaks).filter(|w| !w.is_empty()).map(|w| (w, w.chars().count())).collect();
            assert_eq!(ours, split, "{t:?}");
        }
        assert_eq!(text_words("2\u{a0}150 kr").map(|(w, _)| w).collect::<Vec<_>>(), ["2\u{a0}150", "kr"]);
    }

    #[test]
    fn a_citation_is_not_split_over_two_lines() {
        // Room for 28 characters: "whether it is so: no [Rule" (26) would fit and "12]"
        // not, so word by word the citation would be split after "[Rule"; it goes whole
        // onto the next line instead.
        let t = "whether it is so: no [Rule 12]";
        let want = "whether it is so: no\n[Rule 12]\n";
        let mut ours = String::new();
        super::wrap_into(&mut ours, t, "", 28);
        assert_eq!(ours, want);
        assert_eq!(wrap_slowly(t, "", 28), want);
        // A citation longer than a line breaks as any words do.
        let long = "a [b c d e f g h i j k l]";
        let mut ours = String::new();
        super::wrap_into(&mut ours, long, "", 8);
        assert_eq!(ours, "a [b c d\ne f g h\ni j k l]\n");
        // A number's digit groups held by a no-break space stay together.
        let n = "the fee is 2\u{a0}150 kr";
        let mut ours = String::new();
        super::wrap_into(&mut ours, n, "", 12);
        assert_eq!(ours, "the fee is\n2\u{a0}150 kr\n");
    }
}
