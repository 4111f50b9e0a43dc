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
    let rendered = clap_mangen::Man::new(cmd.clone()).render(&mut out).and_then(|_| {
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
            out!("{}", String::from_utf8_lossy(&out));
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("error[conditions::io]: cannot write the man page: {e}");
            ExitCode::from(2)
        }
    }
}
