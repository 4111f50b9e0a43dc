//! `conditions completions SHELL` and `conditions man`: shell completions and a man
//! page, generated from the command-line definitions. The bash, zsh and fish scripts also
//! complete the values of `--ruling` (the rulings of the rulebook named on the command line)
//! and `--lang` (the languages with an explanation frame, and the rulebook's): they call the
//! hidden `conditions complete-values ruling|lang -- WORDS…`, which prints one value a line.

use clap::CommandFactory;
use std::process::ExitCode;

/// The hidden command the completion scripts call: not a clap command, so that neither
/// help, the man page nor the scripts offer it.
pub const VALUES: &str = "complete-values";

pub fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut cmd = super::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "conditions", &mut out);
    let script = String::from_utf8_lossy(&out);
    let script = match shell {
        clap_complete::Shell::Bash => bash(&script),
        clap_complete::Shell::Zsh => zsh(&script),
        clap_complete::Shell::Fish => fish(&script),
        _ => script.into_owned(),
    };
    out!("{script}");
    ExitCode::SUCCESS
}

/// Bash: a function in front of clap's that answers for the value of `--ruling` and `--lang`
/// (also written `--ruling=…`), and hands every other word to clap's.
fn bash(script: &str) -> String {
    let mut s = script.to_string();
    s.push_str(
        r#"
_conditions_values() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" before=$((COMP_CWORD - 1))
    if [[ "$prev" == "=" && $COMP_CWORD -ge 2 ]]; then
        prev="${COMP_WORDS[COMP_CWORD-2]}"
        before=$((COMP_CWORD - 2))
    elif [[ "$cur" == "=" ]]; then
        prev="${COMP_WORDS[COMP_CWORD-1]}"
        cur=""
    fi
    case "$prev" in
        --ruling|--lang)
            local IFS=$'\n'
            COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" complete-values "${prev#--}" -- "${COMP_WORDS[@]:0:before}" 2>/dev/null)" -- "$cur"))
            return 0
            ;;
    esac
    _conditions "$@"
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _conditions_values -o nosort -o bashdefault -o default conditions
else
    complete -F _conditions_values -o bashdefault -o default conditions
fi
"#,
    );
    s
}

/// Zsh: the actions of `--ruling` and `--lang` call `_conditions_values`.
fn zsh(script: &str) -> String {
    let mut out = String::new();
    for line in script.lines() {
        let mut line = line.to_string();
        for (value, kind) in [(":RULING:", "ruling"), (":RULINGS:", "ruling"), (":LANG:", "lang")] {
            let from = format!("{value}_default' \\");
            if (line.contains("--ruling=[") || line.contains("--lang=[")) && line.ends_with(&from) {
                line = format!("{}{value}_conditions_values {kind}' \\", &line[..line.len() - from.len()]);
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    let helper = r#"
(( $+functions[_conditions_values] )) ||
_conditions_values() {
    # `_arguments` puts its options for `compadd` first: what to complete comes last.
    local -a values
    values=("${(@f)$(conditions complete-values ${@[-1]} -- ${words[1,CURRENT-1]} 2>/dev/null)}")
    compadd "${@[1,-2]}" -a values
}
"#;
    // Before the lines that register the function, so that it is defined when they run.
    match out.rfind("\nif [ \"$funcstack[1]\" = \"_conditions\" ]; then") {
        Some(at) => out.insert_str(at, helper),
        None => out.push_str(helper),
    }
    out
}

/// Fish: the values of `--ruling` and `--lang` from `conditions complete-values`, and no
/// file names where a command takes none (`completions` takes a shell, `man` nothing).
fn fish(script: &str) -> String {
    let mut out = String::new();
    for line in script.lines() {
        let kind = if line.contains(" -l ruling ") {
            Some("ruling")
        } else if line.contains(" -l lang ") {
            Some("lang")
        } else {
            None
        };
        match kind {
            Some(kind) if line.ends_with(" -r") => out.push_str(&format!(
                "{line} -f -a \"(conditions complete-values {kind} -- (commandline -opc) 2>/dev/null)\"\n"
            )),
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    let shells: Vec<String> = <clap_complete::Shell as clap::ValueEnum>::value_variants()
        .iter()
        .filter_map(|s| clap::ValueEnum::to_possible_value(s).map(|v| v.get_name().to_string()))
        .collect();
    out.push_str(&format!(
        "complete -c conditions -n \"__fish_conditions_using_subcommand completions\" -f -a \"{}\"\n",
        shells.join(" ")
    ));
    out.push_str("complete -c conditions -n \"__fish_conditions_using_subcommand man\" -f\n");
    out
}

/// `conditions complete-values ruling|lang -- WORDS…`: the values for the word after WORDS,
/// one a line; nothing when there are none (a completion never prints an error).
pub fn values(args: &[String]) -> ExitCode {
    let (kind, words) = match args {
        [kind, dashes, words @ ..] if dashes == "--" => (kind.as_str(), words),
        [kind] => (kind.as_str(), &[][..]),
        _ => return ExitCode::SUCCESS,
    };
    let cmd = super::Cli::command();
    // The words as the shell gives them: from the command (its path, or a name) or, in zsh,
    // from the subcommand on.
    let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
    let from = words.iter().position(|w| names.contains(&w.as_str())).unwrap_or(words.len());
    let mut line: Vec<String> = vec!["conditions".into()];
    line.extend(words[from..].iter().cloned());
    // The option whose value is completed, when it ends the line, is not part of it.
    while line.last().is_some_and(|w| w == "=" || w == "--ruling" || w == "--lang") {
        line.pop();
    }
    let rulebook = cmd.ignore_errors(true).try_get_matches_from(&line).ok().and_then(|m| {
        m.subcommand().and_then(|(_, sub)| sub.try_get_one::<String>("rulebook").ok().flatten().cloned())
    });
    let checked = rulebook.and_then(|r| conditions::loader::load(&r).ok());
    let mut out: Vec<String> = Vec::new();
    match kind {
        "ruling" => {
            if let Some(c) = &checked {
                out.extend(c.program.rulings().map(|(_, info)| info.name.clone()));
            }
        }
        "lang" => {
            out.extend(conditions::eval::show::Lang::framed().iter().map(|l| l.code().to_string()));
            if let Some(c) = &checked
                && let Some(l) = conditions::eval::show::Lang::parse(&c.program.rulebook.language)
            {
                out.push(l.code().to_string());
            }
        }
        _ => {}
    }
    let mut seen = std::collections::HashSet::new();
    for v in out {
        if seen.insert(v.clone()) {
            outln!("{v}");
        }
    }
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

/// The proleptic Gregorian date `days` days after 1970-01-01 (1970-01-01 itself past the
/// years 1 to 9999).
fn civil_from_days(days: u64) -> (i64, u32, u32) {
    let day = i64::try_from(days).ok().and_then(conditions::eval::date::Date::from_days);
    day.map_or((1970, 1, 1), conditions::eval::date::Date::ymd)
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
