//! Tie-break cascades, over generated standings: a ranking whose tie-break starts again from
//! its first key (`among tied by …`), one that applies its keys in turn (`among tied in turn
//! by …`) and one with every key after `by` are ruled by the interpreter and the compiled
//! evaluator and compared with a model of each reading worked out here. A key is worked out
//! only for the teams still tied when it is reached, so a quotient whose divisor is zero is an
//! error only when a team that lost nothing is still tied at the quotient.

use conditions::eval::fast::{self, Scratch};
use conditions::eval::value::Value;
use conditions::eval::{Outcome, rule};
use conditions::source::SourceMap;
use proptest::prelude::*;
use std::cmp::Ordering;

const BOOK: &str = r#"
rulebook "p" {
  title "P"
  language "en"
}

type Team = record {
  name: text "the name of the team",
  vp: int "the VP of the team",
  won: int "the IMPs won by the team",
  lost: int "the IMPs lost by the team",
}

type Win = record {
  winner: text "the team that won the match",
  loser: text "the team that lost the match",
}

clause "1" {
  text "Text."
  fact teams: list of Team "the teams"
  fact wins: list of Win "the matches won"
  def beaten(t: Team, group: list of Team): int "the matches a team won against the teams of a group" =
      count(wins, w => w.winner == t.name and any(group, u => u.name == w.loser))
  ruling again: list of list of Team "ranked again from the first criterion" =
      rank t in teams by t.vp descending
        among tied by beaten(t, tied) descending, t.won - t.lost descending, t.won / t.lost descending
  ruling in_turn: list of list of Team "the criteria in turn" =
      rank t in teams by t.vp descending
        among tied in turn by beaten(t, tied) descending, t.won - t.lost descending, t.won / t.lost descending
  ruling keys: list of list of Team "every criterion after by" =
      rank t in teams by t.vp descending, t.won - t.lost descending, t.won / t.lost descending
}
"#;

#[derive(Clone, Debug)]
struct Team {
    vp: i64,
    won: i64,
    lost: i64,
}

/// A key's value: a fraction with a positive denominator, or `None` (a division by zero).
type Key = Option<(i64, i64)>;

fn key(k: usize, i: usize, teams: &[Team], wins: &[(usize, usize)], group: &[usize]) -> Key {
    let t = &teams[i];
    match k {
        0 => Some((wins.iter().filter(|&&(w, l)| w == i && group.contains(&l)).count() as i64, 1)),
        1 => Some((t.won - t.lost, 1)),
        _ => (t.lost != 0).then_some((t.won, t.lost)),
    }
}

/// Splits `group` by descending values (stably), or `None` when a value is missing.
fn split(group: &[usize], vals: &[Key]) -> Option<Vec<Vec<usize>>> {
    let vals: Vec<(i64, i64)> = vals.iter().copied().collect::<Option<_>>()?;
    let cmp = |a: usize, b: usize| (vals[b].0 * vals[a].1).cmp(&(vals[a].0 * vals[b].1));
    let mut order: Vec<usize> = (0..group.len()).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (n, &i) in order.iter().enumerate() {
        match out.last_mut() {
            Some(last) if n > 0 && cmp(order[n - 1], i) == Ordering::Equal => last.push(group[i]),
            _ => out.push(vec![group[i]]),
        }
    }
    Some(out)
}

/// The model of a tie-break from key `from` on; `None` when a key reached has no value.
fn break_tie(
    group: Vec<usize>,
    from: usize,
    in_turn: bool,
    teams: &[Team],
    wins: &[(usize, usize)],
) -> Option<Vec<Vec<usize>>> {
    for k in from..3 {
        let vals: Vec<Key> = group.iter().map(|&i| key(k, i, teams, wins, &group)).collect();
        let parts = split(&group, &vals)?;
        if parts.len() > 1 {
            let mut out = Vec::new();
            for p in parts {
                if p.len() > 1 {
                    out.extend(break_tie(p, if in_turn { k + 1 } else { 0 }, in_turn, teams, wins)?);
                } else {
                    out.push(p);
                }
            }
            return Some(out);
        }
    }
    Some(vec![group])
}

/// The model of the three rulings: the groups of team indices, or `None` for an error.
fn model(ruling: &str, teams: &[Team], wins: &[(usize, usize)]) -> Option<Vec<Vec<usize>>> {
    let all: Vec<usize> = (0..teams.len()).collect();
    let by_vp = split(&all, &teams.iter().map(|t| Some((t.vp, 1))).collect::<Vec<_>>())?;
    let mut out = Vec::new();
    for g in by_vp {
        if g.len() < 2 {
            out.push(g);
            continue;
        }
        match ruling {
            "keys" => {
                let mut parts = vec![g];
                for k in 1..3 {
                    let mut next = Vec::new();
                    for p in parts {
                        if p.len() < 2 {
                            next.push(p);
                        } else {
                            let vals: Vec<Key> = p.iter().map(|&i| key(k, i, teams, wins, &p)).collect();
                            next.extend(split(&p, &vals)?);
                        }
                    }
                    parts = next;
                }
                out.extend(parts);
            }
            _ => out.extend(break_tie(g, 0, ruling == "in_turn", teams, wins)?),
        }
    }
    Some(out)
}

fn names(groups: &Value) -> Vec<Vec<String>> {
    let name = |t: &Value| match t {
        Value::Record(_, fields) => match fields.first() {
            Some(Some(Value::Text(s))) => s.to_string(),
            other => panic!("a team's name, got {other:?}"),
        },
        other => panic!("a team, got {other:?}"),
    };
    match groups {
        Value::List(gs) => gs
            .iter()
            .map(|g| match g {
                Value::List(ts) => ts.iter().map(name).collect(),
                other => panic!("a group, got {other:?}"),
            })
            .collect(),
        other => panic!("a list of groups, got {other:?}"),
    }
}

fn checked() -> &'static conditions::check::Checked {
    static C: std::sync::OnceLock<conditions::check::Checked> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        let mut map = SourceMap::new();
        map.add("cascade.cond", BOOK);
        let c = conditions::check::check_sources(map);
        assert!(!c.has_errors(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
        c
    })
}

fn agree_with_model(teams: &[Team], wins: &[(usize, usize)]) {
    let p = &checked().program;
    let name = |i: usize| format!("T{i}");
    let facts = serde_json::json!({
        "teams": teams.iter().enumerate().map(|(i, t)| serde_json::json!(
            {"name": name(i), "vp": t.vp, "won": t.won, "lost": t.lost}
        )).collect::<Vec<_>>(),
        "wins": wins.iter().map(|&(w, l)| serde_json::json!({"winner": name(w), "loser": name(l)})).collect::<Vec<_>>(),
    });
    let inputs = conditions::facts::validate(p, &facts, "generated").expect("valid facts");
    let mut scratch = Scratch::default();
    for ruling in ["again", "in_turn", "keys"] {
        let def = p.def_by_name(ruling).expect("the ruling");
        let slow = rule(p, &inputs, def, false).outcome;
        let compiled = fast::rule(p, &inputs, def, &mut scratch).outcome;
        assert_eq!(format!("{compiled:?}"), format!("{slow:?}"), "{ruling}: the two evaluators");
        let want = model(ruling, teams, wins).map(|gs| gs.into_iter().map(|g| g.into_iter().map(name).collect()));
        match (slow, want) {
            (Outcome::Decided(v), Some(w)) => assert_eq!(names(&v), w.collect::<Vec<Vec<String>>>(), "{ruling}"),
            (Outcome::Error(e), None) => assert!(e.message.contains("zero"), "{ruling}: {}", e.message),
            (got, want) => panic!("{ruling}: got {got:?}, the model {:?}", want.map(|w| w.collect::<Vec<_>>())),
        }
    }
}

fn standings() -> impl Strategy<Value = (Vec<Team>, Vec<(usize, usize)>)> {
    (2usize..7).prop_flat_map(|n| {
        let teams = prop::collection::vec(
            (0i64..3, 0i64..4, prop_oneof![Just(0i64), 1i64..4]).prop_map(|(vp, won, lost)| Team { vp, won, lost }),
            n,
        );
        // Each pair's match: won by the first, by the second, or drawn.
        let matches = prop::collection::vec(0u8..3, n * (n - 1) / 2);
        (teams, matches).prop_map(move |(teams, results)| {
            let pairs = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
            let wins = pairs
                .zip(results)
                .filter_map(|((i, j), r)| match r {
                    0 => Some((i, j)),
                    1 => Some((j, i)),
                    _ => None,
                })
                .collect();
            (teams, wins)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn both_readings_follow_the_model((teams, wins) in standings()) {
        agree_with_model(&teams, &wins);
    }
}

/// The hand-worked example of the two readings: a three-way tie on VP that (a) leaves whole,
/// (b) splits one team off, and (c) and (a) again order the other two each its own way.
#[test]
fn a_three_way_tie_read_both_ways() {
    // T0 wins outright; T1, T2, T3 beat each other in a circle; T4 is last.
    let teams = [(9, 120, 0), (5, 75, 85), (5, 90, 90), (5, 80, 90), (1, 25, 125)].map(|(vp, won, lost)| Team {
        vp,
        won,
        lost,
    });
    let wins = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 3), (3, 2), (2, 1), (1, 4), (2, 4), (3, 4)];
    assert_eq!(model("in_turn", &teams, &wins), Some(vec![vec![0], vec![2], vec![3], vec![1], vec![4]]));
    assert_eq!(model("again", &teams, &wins), Some(vec![vec![0], vec![2], vec![1], vec![3], vec![4]]));
    // T0 lost nothing, but is alone on its VP: the quotient is never worked out for it.
    assert_eq!(model("keys", &teams, &wins), Some(vec![vec![0], vec![2], vec![3], vec![1], vec![4]]));
    agree_with_model(&teams, &wins);
}
