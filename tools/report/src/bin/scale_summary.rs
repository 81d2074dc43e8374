// SPDX-License-Identifier: GPL-2.0
//! `scale-summary [--cpus LIST] [--command TEXT] [--font TTF] [--no-plots]
//! DIR`: the summary of a CPU-count sweep (`report::scale`), written as
//! tools/measure/scale writes it.

use report::cli::{self, Arg};
use report::{plot, scale};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: scale-summary [--cpus 8,16,32,64] [--command TEXT] [--font TTF]
                     [--no-plots] DIR

Reads DIR/nN/results.jsonl for each CPU count N (tools/measure/scale's sweep;
a count without results is skipped) and writes DIR/scale.txt (per N and
feature state the mean of the runs with its 95% interval, Student's t),
DIR/scale.json and DIR/scale-MEASURE.png (every run a dot, the mean with
its interval, feature off and on); prints scale.txt.

  --cpus LIST    the CPU counts, comma-separated (default 8,16,32,64)
  --command TEXT the command line named in scale.txt's first line
                 (default: this one)
  --font TTF     font for the plots' text (default
                 /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf, package
                 fonts-dejavu-core); missing: plots without text
  --no-plots     no PNGs";

struct Args {
    cpus: Vec<u32>,
    command: String,
    font: PathBuf,
    plots: bool,
    dir: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let argv: Vec<String> = std::env::args().collect();
    let mut a = Args {
        cpus: vec![8, 16, 32, 64],
        command: argv.join(" "),
        font: PathBuf::from(plot::DEFAULT_FONT),
        plots: true,
        dir: PathBuf::new(),
    };
    let mut args = cli::Args::new(argv.into_iter().skip(1));
    while let Some(arg) = args.next() {
        let name = match arg {
            Arg::Help => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            Arg::Pos(s) => {
                args.positional(s, "DIR")?;
                continue;
            }
            Arg::Opt(name) => name,
        };
        match name.as_str() {
            "--cpus" => {
                let v = args.value(&name)?;
                a.cpus = v
                    .split(',')
                    .map(|n| n.trim().parse())
                    .collect::<Result<_, _>>()
                    .map_err(|_| format!("--cpus wants a comma list of CPU counts, not '{v}'"))?;
            }
            "--command" => a.command = args.value(&name)?,
            "--font" => a.font = PathBuf::from(args.value(&name)?),
            "--no-plots" => a.plots = false,
            _ => return Err(cli::unknown(&name)),
        }
    }
    a.dir = args.take_positional("DIR")?;
    Ok(a)
}

fn main() -> ExitCode {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("scale-summary: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let text = a.plots.then(|| plot::load_font(&a.font));
    if text == Some(false) {
        eprintln!(
            "scale-summary: font {} missing or unreadable (package fonts-dejavu-core): plots drawn without text",
            a.font.display()
        );
    }
    let written = scale::Sweep::read(&a.dir, &a.cpus)
        .and_then(|s| scale::write(&a.dir, &s, &a.command, text));
    match written {
        Ok((table, _)) => {
            println!("{table}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("scale-summary: {e}");
            ExitCode::FAILURE
        }
    }
}
