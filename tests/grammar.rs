//! The TextMate grammar (`editors/conditions.tmLanguage.json`) over every bundled `.cond`
//! file: no line inside a clause is left without a scope. The grammar is run here as an
//! editor runs it: `match` rules and `begin`/`end` regions across lines, `include`s of the
//! repository, the earliest match winning (the region's end first on a tie), with the
//! grammar's own regular expressions (fancy-regex, which reads their Oniguruma syntax).

use fancy_regex::Regex;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A compiled rule.
enum Rule {
    Match {
        re: Regex,
        name: Option<String>,
        captures: Vec<(usize, String)>,
    },
    Region(Region),
    /// A list of patterns (a repository entry with `patterns`, or the root).
    List(Vec<usize>),
}

struct Region {
    begin: Regex,
    end: Regex,
    name: Option<String>,
    content: Option<String>,
    begin_captures: Vec<(usize, String)>,
    end_captures: Vec<(usize, String)>,
    patterns: Vec<usize>,
}

struct Grammar {
    rules: Vec<Rule>,
    root: Vec<usize>,
}

fn regex(src: &str) -> Regex {
    Regex::new(src).unwrap_or_else(|e| panic!("the grammar's regex `{src}` does not compile: {e}"))
}

fn captures(v: &Value) -> Vec<(usize, String)> {
    v.as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, c)| Some((k.parse().ok()?, c.get("name")?.as_str()?.to_string())))
        .collect()
}

struct Compiler<'a> {
    repository: &'a serde_json::Map<String, Value>,
    rules: Vec<Rule>,
    by_name: HashMap<String, usize>,
}

impl Compiler<'_> {
    fn patterns(&mut self, v: Option<&Value>) -> Vec<usize> {
        v.and_then(Value::as_array).into_iter().flatten().map(|p| self.rule(p)).collect()
    }

    fn rule(&mut self, v: &Value) -> usize {
        if let Some(inc) = v.get("include").and_then(Value::as_str) {
            let key = inc.strip_prefix('#').unwrap_or_else(|| panic!("only repository includes are used: `{inc}`"));
            if let Some(&id) = self.by_name.get(key) {
                return id;
            }
            let id = self.rules.len();
            self.rules.push(Rule::List(Vec::new()));
            self.by_name.insert(key.to_string(), id);
            let entry = self.repository.get(key).unwrap_or_else(|| panic!("no repository entry `{key}`")).clone();
            let inner = self.rule(&entry);
            self.rules[id] = Rule::List(vec![inner]);
            return id;
        }
        let name = v.get("name").and_then(Value::as_str).map(String::from);
        let rule = if let Some(m) = v.get("match").and_then(Value::as_str) {
            Rule::Match { re: regex(m), name, captures: captures(&v["captures"]) }
        } else if let Some(b) = v.get("begin").and_then(Value::as_str) {
            let end = v.get("end").and_then(Value::as_str).expect("a region has an end");
            let both = captures(&v["captures"]);
            let pick = |k: &str| if v.get(k).is_some() { captures(&v[k]) } else { both.clone() };
            Rule::Region(Region {
                begin: regex(b),
                end: regex(end),
                name,
                content: v.get("contentName").and_then(Value::as_str).map(String::from),
                begin_captures: pick("beginCaptures"),
                end_captures: pick("endCaptures"),
                patterns: self.patterns(v.get("patterns")),
            })
        } else {
            Rule::List(self.patterns(v.get("patterns")))
        };
        self.rules.push(rule);
        self.rules.len() - 1
    }
}

impl Grammar {
    fn load(path: &Path) -> Grammar {
        let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let empty = serde_json::Map::new();
        let repository = json.get("repository").and_then(Value::as_object).unwrap_or(&empty);
        let mut c = Compiler { repository, rules: Vec::new(), by_name: HashMap::new() };
        let root = c.patterns(json.get("patterns"));
        Grammar { rules: c.rules, root }
    }

    /// The match and region rules a pattern list stands for, in order.
    fn leaves(&self, list: &[usize], out: &mut Vec<usize>, depth: usize) {
        assert!(depth < 32, "include cycle");
        for &id in list {
            match &self.rules[id] {
                Rule::List(inner) => self.leaves(inner, out, depth + 1),
                _ => out.push(id),
            }
        }
    }
}

/// A scope that says what the text is (not a `meta.` grouping).
fn real(name: &Option<String>) -> bool {
    name.as_deref().is_some_and(|n| n.split_whitespace().any(|s| !s.starts_with("meta.")))
}

/// Which bytes of each line get a scope.
fn coverage(g: &Grammar, text: &str) -> Vec<Vec<bool>> {
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for line in text.split('\n') {
        let mut covered = vec![false; line.len()];
        let mark = |from: usize, to: usize, on: bool, covered: &mut Vec<bool>| {
            if on {
                covered[from..to].iter_mut().for_each(|c| *c = true);
            }
        };
        let inside = |stack: &[usize]| {
            stack.iter().any(|&r| matches!(&g.rules[r], Rule::Region(x) if real(&x.name) || real(&x.content)))
        };
        let mut pos = 0;
        let mut zero_at: Option<(usize, usize)> = None;
        loop {
            let list: Vec<usize> = match stack.last() {
                Some(&r) => match &g.rules[r] {
                    Rule::Region(x) => x.patterns.clone(),
                    _ => unreachable!(),
                },
                None => g.root.clone(),
            };
            let mut leaves = Vec::new();
            g.leaves(&list, &mut leaves, 0);
            // (start, end, rule, is_end); the region's end first on a tie.
            let mut best: Option<(usize, usize, usize, bool)> = None;
            if let Some(&r) = stack.last()
                && let Rule::Region(x) = &g.rules[r]
                && let Ok(Some(m)) = x.end.find_from_pos(line, pos)
            {
                best = Some((m.start(), m.end(), r, true));
            }
            for id in leaves {
                let re = match &g.rules[id] {
                    Rule::Match { re, .. } => re,
                    Rule::Region(x) => &x.begin,
                    Rule::List(_) => unreachable!(),
                };
                if let Ok(Some(m)) = re.find_from_pos(line, pos)
                    && best.is_none_or(|b| m.start() < b.0)
                {
                    best = Some((m.start(), m.end(), id, false));
                }
            }
            let Some((start, end, id, is_end)) = best else {
                mark(pos, line.len(), inside(&stack), &mut covered);
                break;
            };
            mark(pos, start, inside(&stack), &mut covered);
            let caps = |re: &Regex, list: &[(usize, String)], covered: &mut Vec<bool>| {
                if let Ok(Some(c)) = re.captures_from_pos(line, start) {
                    for (i, _) in list {
                        if let Some(m) = c.get(*i) {
                            covered[m.start()..m.end()].iter_mut().for_each(|x| *x = true);
                        }
                    }
                }
            };
            match &g.rules[id] {
                Rule::Match { re, name, captures } => {
                    mark(start, end, real(name) || inside(&stack), &mut covered);
                    caps(re, captures, &mut covered);
                }
                Rule::Region(x) if is_end => {
                    mark(start, end, real(&x.name) || inside(&stack), &mut covered);
                    caps(&x.end, &x.end_captures, &mut covered);
                    stack.pop();
                }
                Rule::Region(x) => {
                    mark(start, end, real(&x.name) || inside(&stack), &mut covered);
                    caps(&x.begin, &x.begin_captures, &mut covered);
                    stack.push(id);
                }
                Rule::List(_) => unreachable!(),
            }
            if end == start {
                // An empty match: once at a place for a given depth, then move on.
                if zero_at == Some((start, stack.len())) || start >= line.len() {
                    if start >= line.len() {
                        break;
                    }
                    let step = line[start..].chars().next().map_or(1, char::len_utf8);
                    mark(start, start + step, inside(&stack), &mut covered);
                    pos = start + step;
                } else {
                    pos = start;
                }
                zero_at = Some((start, stack.len()));
                continue;
            }
            pos = end;
        }
        // A short string's region ends with its line.
        out.push(covered);
    }
    out
}

/// The `.cond` files of the bundled rulebooks and of the test rulebooks.
fn bundled_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in ["conditions", "tests/rulebooks"] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
        for book in std::fs::read_dir(&root).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()) {
            for f in std::fs::read_dir(&book).unwrap().filter_map(|e| e.ok()).map(|e| e.path()) {
                if f.extension().is_some_and(|x| x == "cond") {
                    out.push(f);
                }
            }
        }
    }
    out.sort();
    out
}

/// The lines (0-based) from each clause's `clause` line to its closing brace.
fn clause_lines(text: &str) -> Vec<usize> {
    let file = conditions::syntax::parse_file(text, 0).expect("a bundled file parses");
    let line_of = |offset: u32| text[..offset as usize].matches('\n').count();
    let mut out = Vec::new();
    for item in &file.items {
        if let conditions::syntax::ast::Item::Clause(c) = item {
            out.extend(line_of(c.span.start)..=line_of(c.span.end.saturating_sub(1)));
        }
    }
    out
}

#[test]
fn every_line_of_every_clause_is_scoped() {
    let grammar = Grammar::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/conditions.tmLanguage.json"));
    let files = bundled_files();
    assert!(files.len() > 10, "the bundled rulebooks are found");
    let mut problems = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let covered = coverage(&grammar, &text);
        let lines: Vec<&str> = text.split('\n').collect();
        for n in clause_lines(&text) {
            checked += 1;
            let line = lines[n];
            let bare: String =
                line.char_indices().filter(|(i, c)| !c.is_whitespace() && !covered[n][*i]).map(|(_, c)| c).collect();
            if !bare.is_empty() {
                problems.push(format!("{}:{}: `{}` unscoped in `{}`", f.display(), n + 1, bare, line.trim()));
            }
        }
    }
    eprintln!("grammar: {checked} clause lines in {} files", files.len());
    assert!(problems.is_empty(), "{} line(s) left unscoped:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_grammar_tells_strings_comments_and_keywords_apart() {
    let grammar = Grammar::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/conditions.tmLanguage.json"));
    // A comment and an unclosed string are scoped; an unknown character is not.
    let covered = coverage(&grammar, "// a comment\n\"unclosed\n  rule x: f = 1\n  ¤");
    assert!(covered[0].iter().all(|c| *c));
    assert!(covered[1].iter().all(|c| *c));
    let line = "  rule x: f = 1";
    assert!(line.char_indices().all(|(i, c)| c == ' ' || covered[2][i]));
    assert!(!covered[3][2], "`¤` is no token of the language");
}
