//! Views of a rulebook for its explanations, built once per language and kept with the
//! program ([`Cache`]): each clause as it is cited — citation, heading, the quoted text and
//! its gloss (shared by every report, not copied into each) — and its lines in the
//! terminal text, already wrapped. A report cites and quotes from these views; nothing
//! about a clause is worked out again for each ruling.

use super::ClauseView;
use crate::check::program::Program;
use crate::eval::show::Lang;
use std::sync::{Arc, RwLock};

/// What explanations in one language need of a rulebook, worked out once.
pub struct Views {
    lang: Lang,
    /// By clause id.
    pub clauses: Vec<ClauseView>,
}

impl Views {
    fn new(p: &Program, lang: Lang) -> Views {
        let glossed = !lang.reads(&p.rulebook.language);
        let clauses = p
            .clauses
            .iter()
            .map(|cl| {
                let mut c = ClauseView {
                    citation: cl.citation.clone(),
                    heading: cl.heading.clone(),
                    text: cl.text.as_deref().map(Arc::from),
                    text_kind: cl.text_kind,
                    gloss: if glossed { cl.gloss.as_deref().map(Arc::from) } else { None },
                    lines: Arc::from(""),
                };
                c.lines = Arc::from(super::text::clause_lines(lang, &c));
                c
            })
            .collect();
        Views { lang, clauses }
    }
}

/// The views of a program, one per language asked for, made on first use. A copy of the
/// program starts without any (they are rebuilt if used), so that a changed copy never
/// quotes stale texts.
#[derive(Default)]
pub struct Cache(RwLock<Vec<Arc<Views>>>);

impl Clone for Cache {
    fn clone(&self) -> Self {
        Cache::default()
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.read().map_or(0, |v| v.len());
        write!(f, "Cache({n} languages)")
    }
}

/// The program's views in `lang`, built on first use.
pub fn get(p: &Program, lang: Lang) -> Arc<Views> {
    let find = |vs: &[Arc<Views>]| vs.iter().find(|v| v.lang == lang).cloned();
    if let Some(v) = p.views.0.read().ok().and_then(|vs| find(&vs)) {
        return v;
    }
    let Ok(mut vs) = p.views.0.write() else { return Arc::new(Views::new(p, lang)) };
    if let Some(v) = find(&vs) {
        return v;
    }
    let v = Arc::new(Views::new(p, lang));
    vs.push(v.clone());
    v
}
