//! How each language prints numbers with units — its digit separators, the word between a
//! quantity and its unit, the words before and after an amount — read from the bundled
//! message file `messages/units.toml`.

use super::lang::Lang;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// How one language prints numbers with units (a section of `units.toml`).
#[derive(Debug, Deserialize)]
pub struct Style {
    pub thousands: String,
    pub decimal: String,
    pub per: String,
    pub prefix: BTreeMap<String, String>,
    pub suffix: BTreeMap<String, String>,
}

/// The style of each language, by tag (a section of `units.toml` each).
pub type Units = BTreeMap<String, Style>;

/// Every language's style, by tag.
pub fn units() -> &'static Units {
    static U: OnceLock<Units> = OnceLock::new();
    U.get_or_init(|| {
        let text = super::messages::file("units.toml").unwrap_or_default();
        toml::from_str(text).unwrap_or_else(|e| unreachable!("the bundled unit words are valid: {e}"))
    })
}

/// Every language's style, as `units.toml` has them.
pub fn styles() -> impl Iterator<Item = &'static Style> {
    units().values()
}

/// Whether `units.toml` has a style for `lang` or a shorter tag it falls back to.
pub fn has_style(lang: Lang) -> bool {
    lang.fallbacks().into_iter().any(|l| units().contains_key(l.code()))
}

/// The style of `lang`, of the shorter tag it falls back to, or English.
pub fn style(lang: Lang) -> &'static Style {
    let found = lang.fallbacks().into_iter().find_map(|l| units().get(l.code()));
    found.or_else(|| units().get("en")).unwrap_or_else(|| unreachable!("the bundled unit words have English"))
}
