//! Precise "still needed", over every case file under `conditions/`: removing any one
//! input a ruling reads either leaves the ruling unchanged, or makes it undetermined
//! naming inputs whose values can change it — each named input of finite domain is
//! checked by trying its values, and the removed input is named whenever one of its
//! values changes the ruling.

use conditions::cases::{CaseFile, find_cases};
use conditions::check::program::{Program, TypeKind};
use conditions::eval::interp::Inputs;
use conditions::eval::needed::{self, Hole, HoleKind, Key, Step};
use conditions::eval::{Outcome, rule};
use std::path::Path;

use conditions::eval::needed::key;

/// The hole left by removing the input at `path` (a fact, or a field of one read
/// through record fields), or `None` when the path goes through a list.
fn hole_at(p: &Program, path: &str) -> Option<Hole> {
    let mut parts = path.split('.').peekable();
    let mut root = parts.next()?.to_string();
    // A fact of a section: its full name is the first two parts (`s304.rejsehold`).
    if !p.facts.iter().any(|f| f.name == root) {
        root = format!("{root}.{}", parts.next()?);
    }
    let f = p.facts.iter().position(|f| f.name == root)?;
    let mut ty = p.facts[f].ty.clone();
    let mut steps = Vec::new();
    for part in parts {
        let conditions::check::types::Type::Record(t) = ty else { return None };
        let TypeKind::Record(fs) = &p.types[t as usize].kind else { return None };
        let i = fs.iter().position(|x| x.name == part)?;
        steps.push(Step::Field(i as u32));
        ty = fs[i].ty.clone();
    }
    let kind = if steps.is_empty() { HoleKind::Fact(f as u32) } else { HoleKind::Field { fact: f as u32, steps } };
    Some(Hole { kind, path: path.to_string(), domain: needed::domain(p, &ty), ty, candidates: Vec::new() })
}

/// The inputs without the value at `hole`.
fn remove(inputs: &Inputs, hole: &Hole) -> Inputs {
    let mut out = inputs.clone();
    match &hole.kind {
        HoleKind::Fact(f) => out.facts[*f as usize] = None,
        HoleKind::Decision(d) | HoleKind::Lot(d) => out.decisions[*d as usize] = None,
        HoleKind::Field { fact, steps } => {
            fn clear(v: &conditions::eval::value::Value, steps: &[Step]) -> conditions::eval::value::Value {
                use conditions::eval::value::Value;
                match (steps, v) {
                    ([Step::Field(i)], Value::Record(t, fs)) => {
                        let mut fs = fs.to_vec();
                        fs[*i as usize] = None;
                        Value::Record(*t, fs.into())
                    }
                    ([Step::Field(i), rest @ ..], Value::Record(t, fs)) => {
                        let mut fs = fs.to_vec();
                        if let Some(x) = &fs[*i as usize] {
                            fs[*i as usize] = Some(clear(x, rest));
                        }
                        Value::Record(*t, fs.into())
                    }
                    _ => v.clone(),
                }
            }
            if let Some(v) = &inputs.facts[*fact as usize] {
                out.facts[*fact as usize] = Some(clear(v, steps));
            }
        }
    }
    out
}

/// Brute force over the finite holes: whether `target` can change the ruling (two full
/// assignments differing only in it give different rulings, or one stays open).
fn can_change(p: &Program, inputs: &Inputs, def: u32, finite: &[Hole], target: usize) -> bool {
    let sizes: Vec<usize> = finite.iter().map(|h| h.domain.as_ref().map_or(1, |d| d.len())).collect();
    let total: usize = sizes.iter().product();
    let assign = |mut n: usize| -> Inputs {
        let mut i = inputs.clone();
        for (h, size) in finite.iter().zip(&sizes) {
            let v = h.domain.as_ref().expect("finite")[n % size].clone();
            n /= size;
            i = needed::fill(&i, h, v);
        }
        i
    };
    let keys: Vec<Key> = (0..total).map(|n| key(&rule(p, &assign(n), def, false).outcome)).collect();
    let stride: usize = sizes[..target].iter().product();
    (0..total).any(|n| {
        let digit = (n / stride) % sizes[target];
        (0..sizes[target]).filter(|d| *d != digit).any(|d| {
            let m = n - digit * stride + d * stride;
            keys[n] != keys[m] || keys[n] == Key::Open || keys[m] == Key::Open
        })
    })
}

/// A missing number the ruling was found not to depend on: with every other input as
/// the case file gives it, values across a wide range (not the thresholds the search
/// used) all give the case file's ruling.
fn assert_number_cannot_change(p: &Program, inputs: &Inputs, def: u32, gone: &Hole, want: &Key, where_: &str) {
    use conditions::eval::num::Num;
    use conditions::eval::value::Value;
    let whole = gone.ty == conditions::check::types::Type::Int;
    let mut values: Vec<Num> = (-1..=130).chain((150..=10_000).step_by(50)).map(Num::int).collect();
    let original = match &gone.kind {
        HoleKind::Fact(f) => inputs.facts[*f as usize].clone(),
        _ => None,
    };
    if let Some(Value::Num(n)) = original {
        values.extend([n, n.add(Num::ONE).unwrap(), n.sub(Num::ONE).unwrap(), n.mul(Num::int(2)).unwrap()]);
    }
    if !whole {
        values.extend((1..40).map(|i| Num::ratio(2 * i + 1, 2).unwrap()));
    }
    for v in values {
        let got = key(&needed::refine(
            p,
            &needed::fill(inputs, gone, Value::Num(v)),
            rule(p, &needed::fill(inputs, gone, Value::Num(v)), def, true),
        )
        .outcome);
        assert_eq!(
            got, *want,
            "{where_}: left out as unable to change the ruling, but `{}` = {v} changes it",
            gone.path
        );
    }
}

#[test]
fn removing_one_input_names_only_inputs_that_can_change_the_ruling() {
    let (mut removals, mut unchanged, mut named, mut tried, mut pruned) = (0, 0, 0, 0, 0);
    let (mut settled, mut numbers_pruned) = (0, 0);
    for book_name in ["gnt", "dbf"] {
        let book = conditions::loader::load(book_name).unwrap_or_else(|e| panic!("{:?}", e.diagnostics));
        let p = &book.program;
        for path in find_cases(Path::new(&format!("conditions/{book_name}/cases"))) {
            let text = std::fs::read_to_string(&path).expect("readable");
            let case: CaseFile = toml::from_str(&text).expect("case file");
            let tree = conditions::facts::untoml(serde_json::to_value(toml::Value::Table(case.facts)).expect("json"));
            let inputs = conditions::facts::validate(p, &tree, "case").expect("facts fit");
            for exp in &case.expect {
                let Some(def) = p.def_by_name(&exp.ruling) else { continue };
                let original = rule(p, &inputs, def, true);
                // What `rule` reports: a ruling no missing input can change is settled.
                let want = key(&needed::refine(p, &inputs, original.clone()).outcome);
                if want == Key::Open {
                    continue;
                }
                let mut read: Vec<Hole> = Vec::new();
                for node in &original.trace.as_ref().expect("trace").nodes {
                    for u in &node.facts {
                        if let Some(h) = hole_at(p, u.path(p))
                            && !read.iter().any(|r| r.path == h.path)
                        {
                            read.push(h);
                        }
                    }
                    for d in &node.decisions {
                        let info = &p.decisions[*d as usize];
                        if inputs.decisions[*d as usize].is_some() && !read.iter().any(|r| r.path == info.name) {
                            read.push(Hole {
                                kind: HoleKind::Decision(*d),
                                path: info.name.clone(),
                                domain: needed::domain(p, &info.ty),
                                ty: info.ty.clone(),
                                candidates: Vec::new(),
                            });
                        }
                    }
                }
                for gone in &read {
                    removals += 1;
                    let less = remove(&inputs, gone);
                    let where_ = format!("{}: `{}` without `{}`", path.display(), exp.ruling, gone.path);
                    let reported = needed::refine(p, &less, rule(p, &less, def, true));
                    let Some(n) = needed::needed(p, &less, def) else {
                        assert_eq!(
                            key(&reported.outcome),
                            want,
                            "{where_}: the ruling changed without becoming undetermined"
                        );
                        unchanged += 1;
                        continue;
                    };
                    if let Some(k) = &n.settled {
                        assert_eq!(*k, want, "{where_}: settled on another ruling");
                        assert_eq!(key(&reported.outcome), want, "{where_}: `rule` does not report the settled ruling");
                        unchanged += 1;
                        settled += 1;
                        if gone.ty.is_numeric() {
                            eprintln!("{where_}: settled");
                            numbers_pruned += 1;
                            assert_number_cannot_change(p, &inputs, def, gone, &want, &where_);
                        }
                        continue;
                    }
                    assert_eq!(key(&reported.outcome), Key::Open, "{where_}: `rule` settles what `needed` does not");
                    assert!(!n.holes.is_empty(), "{where_}: undetermined, naming nothing");
                    named += 1;
                    if let Outcome::Undetermined(raw) = rule(p, &less, def, false).outcome
                        && raw.len() > n.holes.len()
                    {
                        pruned += 1;
                    }
                    // Every named input of finite domain can change the ruling, and the removed
                    // one is named when it can.
                    let mut finite: Vec<Hole> = n.holes.iter().filter(|h| h.domain.is_some()).cloned().collect();
                    if gone.domain.is_some() && !finite.iter().any(|h| h.path == gone.path) {
                        finite.push(gone.clone());
                    }
                    let product: usize = finite.iter().map(|h| h.domain.as_ref().map_or(1, |d| d.len())).product();
                    if product > 256 {
                        continue;
                    }
                    for (i, h) in finite.iter().enumerate() {
                        let listed = n.holes.iter().any(|x| x.path == h.path);
                        let changes = can_change(p, &less, def, &finite, i);
                        tried += 1;
                        assert_eq!(listed, changes, "{where_}: `{}` named: {listed}, can change it: {changes}", h.path);
                    }
                    if gone.ty.is_numeric() && !n.holes.iter().any(|h| h.path == gone.path) {
                        // A number left out as unable to change the ruling: try it.
                        eprintln!("{where_}: left out");
                        numbers_pruned += 1;
                        assert_number_cannot_change(p, &inputs, def, gone, &want, &where_);
                    }
                    if !gone.ty.is_numeric() && gone.domain.is_none() {
                        assert!(n.holes.iter().any(|h| h.path == gone.path), "{where_}: not named");
                    }
                }
            }
        }
    }
    eprintln!(
        "{removals} removals: {unchanged} unchanged ({settled} settled though inputs are missing), {named} undetermined ({pruned} naming fewer inputs than the interpreter), {tried} named inputs tried, {numbers_pruned} numbers left out tried"
    );
    assert!(numbers_pruned >= 5 && settled > 100, "{numbers_pruned} numbers left out, {settled} settled");
    assert!(removals > 1000 && tried > 500, "{removals} removals, {tried} tried");
}
