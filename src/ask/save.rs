//! The facts gathered by a session, as a facts file: answers set at their paths
//! (`player.masterpoints`, `rejsehold.spillere[2].bopæl`), written as JSON, TOML or YAML,
//! and saved onto a file: merged into the facts it holds already, and written whole or not
//! at all (a temporary file beside it, renamed over it).

use crate::facts::Format;
use serde_json::{Map, Value as J};
use std::io::Write as _;
use std::path::{Path, PathBuf};

enum Seg {
    Key(String),
    Index(usize),
}

fn segments(path: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (name, rest) = part.split_once('[').map_or((part, ""), |(a, b)| (a, b));
        out.push(Seg::Key(name.to_string()));
        for idx in rest.split('[') {
            if let Ok(i) = idx.trim_end_matches(']').parse() {
                out.push(Seg::Index(i));
            }
        }
    }
    out
}

/// Sets `value` at `path` in the tree, making the objects on the way.
pub fn set(tree: &mut J, path: &str, value: J) {
    let segs = segments(path);
    let mut at = tree;
    for (i, s) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        at = match s {
            Seg::Key(k) => {
                if !at.is_object() {
                    *at = J::Object(Map::new());
                }
                let J::Object(m) = at else { return };
                let slot = m.entry(k.clone()).or_insert(J::Null);
                if last {
                    *slot = value;
                    return;
                }
                slot
            }
            Seg::Index(n) => {
                let J::Array(xs) = at else { return };
                let Some(slot) = xs.get_mut(*n) else { return };
                if last {
                    *slot = value;
                    return;
                }
                slot
            }
        };
    }
}

/// JSON to TOML: numbers stay exact (a whole number as an integer, any other as text).
pub(crate) fn to_toml(v: &J) -> Option<toml::Value> {
    Some(match v {
        J::Null => return None,
        J::Bool(b) => toml::Value::Boolean(*b),
        J::Number(n) => match n.to_string().parse::<i64>() {
            Ok(i) => toml::Value::Integer(i),
            Err(_) => toml::Value::String(n.to_string()),
        },
        J::String(s) => match s.parse::<toml::value::Datetime>() {
            Ok(d) if s.len() == 10 => toml::Value::Datetime(d),
            _ => toml::Value::String(s.clone()),
        },
        J::Array(xs) => toml::Value::Array(xs.iter().filter_map(to_toml).collect()),
        J::Object(m) => toml::Value::Table(m.iter().filter_map(|(k, v)| Some((k.clone(), to_toml(v)?))).collect()),
    })
}

/// The tree as a facts file; an error when the format cannot write it.
pub fn write(tree: &J, format: Format) -> Result<String, String> {
    match format {
        Format::Json => serde_json::to_string_pretty(tree).map(|t| t + "\n").map_err(|e| e.to_string()),
        Format::Toml => match to_toml(tree).unwrap_or_else(|| toml::Value::Table(Default::default())) {
            toml::Value::Table(t) => toml::to_string(&t).map_err(|e| e.to_string()),
            _ => Err("a TOML facts file is a table".into()),
        },
        Format::Yaml => Ok(crate::facts::yaml::write(tree)),
    }
}

/// Adds `new` to `old`: objects merged key by key, any other value of `new` replacing the
/// one in `old`; an unknown value (`null`) in `new` never replaces a known one.
pub fn merge(old: &mut J, new: &J) {
    match (old, new) {
        (_, J::Null) => {}
        (J::Object(o), J::Object(n)) => {
            for (k, v) in n {
                match o.get_mut(k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        o.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

/// Whether a facts tree is a case file (`description`, `expect` and a `facts` table).
fn is_case_file(tree: &J) -> bool {
    tree.get("description").is_some() && tree.get("expect").is_some() && tree.get("facts").is_some_and(J::is_object)
}

/// Saves `tree` onto the facts file at `path` (JSON, TOML or YAML by its name): added to the
/// facts the file holds already (see [`merge`]), written to a temporary file in the same
/// folder and renamed over the file, so that the file is either whole or as it was. A file
/// that is not a facts file, or is a case file, is refused and left as it is. A path that is
/// neither a file nor a folder (`/dev/stdout`, a named pipe) is written to as it is.
pub fn save(path: &Path, tree: &J) -> Result<(), String> {
    let shown = path.display();
    let format = Format::for_path(&path.to_string_lossy());
    let meta = match std::fs::metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read `{shown}`: {e}")),
    };
    let Some(meta) = meta else {
        return replace(path, None, &write(tree, format)?);
    };
    if meta.is_dir() {
        return Err(format!("`{shown}` is a folder; name a facts file in it"));
    }
    if !meta.is_file() {
        let text = write(tree, format)?;
        let mut file =
            std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("cannot open `{shown}`: {e}"))?;
        return file
            .write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write `{shown}`: {e}"));
    }
    let text = crate::loader::read_text(path, crate::facts::MAX_FACTS_BYTES)
        .map_err(|e| format!("cannot read `{shown}` to add to its facts: {e}"))?;
    let mut merged = if text.trim().is_empty() {
        J::Object(Map::new())
    } else {
        let origin = shown.to_string();
        let old = crate::facts::parse(&text, format, &origin)
            .map_err(|d| format!("`{shown}` holds facts that cannot be read ({}); it is left as it is", d.message))?;
        if !old.is_object() {
            return Err(format!("`{shown}` is not a facts file (not a table of facts); it is left as it is"));
        }
        if is_case_file(&old) {
            return Err(format!("`{shown}` is a case file; save the facts to a facts file"));
        }
        old
    };
    merge(&mut merged, tree);
    // A link is followed: the file it points to is replaced, the link kept.
    let target = std::fs::canonicalize(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    replace(&target, Some(meta.permissions()), &write(&merged, format)?)
}

/// Writes `text` to a temporary file beside `path`, then renames it over `path`.
fn replace(path: &Path, permissions: Option<std::fs::Permissions>, text: &str) -> Result<(), String> {
    let shown = path.display();
    let Some(name) = path.file_name() else {
        return Err(format!("`{shown}` names no file"));
    };
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = folder.join(temp_name);
    // One left by a session of this process id that was stopped.
    let _ = std::fs::remove_file(&temp);
    let written = (|| {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
        file.write_all(text.as_bytes())?;
        if let Some(p) = permissions {
            file.set_permissions(p)?;
        }
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    match written {
        Ok(()) => {
            // The rename itself made lasting; a folder that cannot be synced is no failure.
            if let Ok(dir) = std::fs::File::open(&folder) {
                let _ = dir.sync_all();
            }
            Ok(())
        }
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(format!("cannot write `{shown}`: {e}"))
        }
    }
}
