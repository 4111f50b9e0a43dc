//! `conditions completions SHELL` and `conditions man`: shell completions and a man
//! page, generated from the command-line definitions.

use clap::CommandFactory;
use std::process::ExitCode;

pub fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut cmd = super::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "conditions", &mut out);
    out!("{}", String::from_utf8_lossy(&out));
    ExitCode::SUCCESS
}

pub fn man() -> ExitCode {
    let cmd = super::Cli::command();
    let mut out = Vec::new();
    let page =
        clap_mangen::Man::new(cmd.clone()).title("CONDITIONS").date(man_date()).manual("General Commands Manual");
    let rendered = page.render(&mut out).and_then(|_| {
        // Each command's own options, under its name.
        for sub in cmd.get_subcommands() {
            out.extend_from_slice(format!(".SH \"CONDITIONS {}\"\n", sub.get_name().to_uppercase()).as_bytes());
            let man = clap_mangen::Man::new(sub.clone());
            man.render_description_section(&mut out)?;
            man.render_options_section(&mut out)?;
        }
        Ok(())
    });
    match rendered {
        Ok(()) => {
            let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
            out!("{}", lint_clean(&String::from_utf8_lossy(&out), &names));
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("error[conditions::io]: cannot write the man page: {e}");
            ExitCode::from(2)
        }
    }
}

/// The page as `mandoc -Tlint` passes it: the commands are sections of this one page, so
/// the list of commands names them (`conditions list`) rather than pages `conditions-list(1)`
/// that do not exist; a blank line between two breaks (which mandoc skips, with a warning)
/// is one paragraph space; no line ends in white space.
fn lint_clean(page: &str, commands: &[&str]) -> String {
    let mut out = String::with_capacity(page.len());
    let lines: Vec<&str> = page.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line == ".br" && lines.get(i + 1) == Some(&"") && lines.get(i + 2) == Some(&".br") {
            out.push_str(".sp\n");
            i += 3;
            continue;
        }
        // clap's own `help` command too, which is not among the commands before the build.
        let named = line
            .strip_prefix("conditions\\-")
            .and_then(|rest| rest.strip_suffix("(1)"))
            .filter(|name| commands.contains(&name.replace("\\-", "-").as_str()) || *name == "help");
        match named {
            Some(name) => out.push_str(&format!("\\fBconditions {name}\\fR")),
            None => out.push_str(line.trim_end()),
        }
        out.push('\n');
        i += 1;
    }
    out
}

/// The page's date, `YYYY-MM-DD`: `SOURCE_DATE_EPOCH` (seconds, for reproducible builds)
/// when set, else today (UTC).
fn man_date() -> String {
    let secs =
        std::env::var("SOURCE_DATE_EPOCH").ok().and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
        });
    let (y, m, d) = civil_from_days(secs / 86_400);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date `days` days after 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn days_are_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_429), (2025, 12, 7));
    }
}
