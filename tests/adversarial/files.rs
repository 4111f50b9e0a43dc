//! Bounded reads and a `fmt` that loses nothing.

use conditions::format::{RewriteError, rewrite};
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("conditions-adv-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn leftovers(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".fmt-"))
        .collect()
}

#[test]
fn text_appended_while_formatting_is_not_lost() {
    let d = temp("append");
    let f = d.join("a.cond");
    std::fs::write(&f, "old").unwrap();
    std::fs::write(&f, "old\nappended").unwrap(); // someone writes after `fmt` read "old"
    assert!(matches!(rewrite(&f, "old", "new"), Err(RewriteError::Changed)));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "old\nappended");
    assert!(leftovers(&d).is_empty());
    rewrite(&f, "old\nappended", "new").unwrap();
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
}

#[cfg(unix)]
#[test]
fn a_symlink_stays_a_link_and_links_and_modes_are_kept() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let d = temp("links");
    let real = d.join("real.cond");
    std::fs::write(&real, "old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = d.join("link.cond");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    rewrite(&link, "old", "new").unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
    let hard = d.join("hard.cond");
    std::fs::hard_link(&real, &hard).unwrap();
    let ino = std::fs::metadata(&real).unwrap().ino();
    rewrite(&real, "new", "newer").unwrap();
    assert_eq!(std::fs::metadata(&real).unwrap().ino(), ino);
    assert_eq!(std::fs::read_to_string(&hard).unwrap(), "newer");
    assert!(leftovers(&d).is_empty());
}

#[test]
fn a_read_only_file_is_refused() {
    let d = temp("ro");
    let f = d.join("a.cond");
    std::fs::write(&f, "old").unwrap();
    let mut p = std::fs::metadata(&f).unwrap().permissions();
    p.set_readonly(true);
    std::fs::set_permissions(&f, p).unwrap();
    assert!(matches!(rewrite(&f, "old", "new"), Err(RewriteError::ReadOnly)));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "old");
}

#[test]
fn a_sparse_1_gb_condition_file_is_refused_before_it_is_read() {
    let d = temp("sparse");
    let f = std::fs::File::create(d.join("big.cond")).unwrap();
    f.set_len(1 << 30).unwrap();
    let e =
        conditions::loader::read_limited(&d.join("big.cond"), conditions::syntax::parser::MAX_FILE_BYTES).unwrap_err();
    assert!(e.to_string().contains("larger than the limit"), "{e}");
}

#[cfg(unix)]
#[test]
fn dev_zero_as_facts_is_refused_at_the_limit() {
    let e = conditions::loader::read_limited(std::path::Path::new("/dev/zero"), 1 << 20).unwrap_err();
    assert!(e.to_string().contains("larger than the limit"), "{e}");
}
