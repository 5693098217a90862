//! The command line, read by clap (builder API: no proc-macro to compile, and without clap's help,
//! usage, colour and suggestion features, which this command does not use: its help is the shared
//! js/cli-help.txt and its errors are the one-line messages both CLIs print, mapped from clap's
//! error kinds below). The npm command (js/cli.mjs) reads the same options with node:util's
//! parseArgs and makes the same checks in the same order. `ai` (`parse_ai`) has options of its
//! own: the offline inputs and the crawler's declared purposes.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, ArgMatches, Command};
use robots_eval::aipref::operators::Purpose;
use robots_eval::{DialectId, Options};

/// A usage or input error: one line on stderr, exit status 2.
pub type Fail = String;

/// The command line, read.
#[derive(Default)]
pub struct Args {
    pub command: String,
    pub positional: Vec<String>,
    pub agents: Vec<String>,
    pub options: Options,
    pub json: bool,
    pub csv: bool,
    pub markdown: bool,
    pub strict: bool,
    pub help: bool,
    pub urls: Option<String>,
    pub sitemap: Option<String>,
    /// `check --ai`: the AI usage preferences too; `--header`: Content-Usage field lines.
    pub ai: bool,
    pub headers: Vec<String>,
}

/// The commands, as the error for an unknown one lists them.
const COMMANDS: &str = "check, lint, table, diff, test, coverage";

/// The options each command takes (besides --dialect, --max-bytes and --help).
fn allowed(command: &str) -> &'static [&'static str] {
    match command {
        "check" => &["json", "agent", "ai", "header"],
        "lint" => &["json", "strict"],
        "table" => &["json", "csv", "markdown", "agent", "urls", "sitemap"],
        "diff" | "coverage" => &["json", "agent", "urls", "sitemap"],
        _ => &[],
    }
}

/// Flags (no value) and options (a value), as every command reads them; which command takes which
/// is checked after (`allowed`), so that an option of another command gets its own message.
const FLAGS: &[(&str, Option<char>)] = &[
    ("json", None),
    ("csv", None),
    ("markdown", None),
    ("strict", None),
    ("ai", None),
    ("help", Some('h')),
];
const VALUES: &[(&str, Option<char>, bool)] = &[
    ("agent", Some('a'), true),
    ("header", None, true),
    ("dialect", Some('d'), false),
    ("urls", None, false),
    ("sitemap", None, false),
    ("max-bytes", None, false),
];

/// A command's own arguments: its positionals, then its flags and options (as FLAGS and VALUES
/// list them), with its help flag and error handling left to this module.
fn subcommand(
    name: &'static str,
    flags: &[(&'static str, Option<char>)],
    values: &[(&'static str, Option<char>, bool)],
) -> Command {
    let flags = flags.iter().map(|&(name, short)| {
        Arg::new(name)
            .long(name)
            .short_opt(short)
            .action(ArgAction::SetTrue)
    });
    let values = values.iter().map(|&(name, short, repeat)| {
        let action = if repeat {
            ArgAction::Append
        } else {
            ArgAction::Set
        };
        Arg::new(name)
            .long(name)
            .short_opt(short)
            .action(action)
            .num_args(1)
    });
    Command::new(name)
        .disable_help_flag(true)
        .arg(
            Arg::new("positional")
                .num_args(0..)
                .action(ArgAction::Append),
        )
        .args(flags)
        .args(values)
        // `--urls -` (standard input) is a value; a lone `-` is a positional (the robots.txt).
        .allow_negative_numbers(false)
}

fn command() -> Command {
    let sub = |name: &'static str| subcommand(name, FLAGS, VALUES);
    Command::new("robots-eval")
        .disable_help_flag(true)
        .disable_version_flag(true)
        .disable_help_subcommand(true)
        .subcommand_required(false)
        .arg(
            Arg::new("help")
                .long("help")
                .short('h')
                .action(ArgAction::SetTrue),
        )
        .arg(
            Arg::new("version")
                .long("version")
                .short('V')
                .action(ArgAction::SetTrue),
        )
        .subcommands(
            [
                "check", "lint", "table", "diff", "test", "coverage", "batch", "help",
            ]
            .map(sub),
        )
}

trait ShortOpt {
    fn short_opt(self, short: Option<char>) -> Self;
}
impl ShortOpt for Arg {
    fn short_opt(self, short: Option<char>) -> Self {
        match short {
            Some(c) => self.short(c),
            None => self,
        }
    }
}

/// clap's error as the one line both CLIs print.
fn message(e: &clap::Error, command: Option<&str>) -> Fail {
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(s)) => s.join(" "),
        _ => String::new(),
    };
    // "--agent <agent>" -> "--agent": the option as written in the help.
    let arg = context(ContextKind::InvalidArg);
    let name = arg.split([' ', '=']).next().unwrap_or_default().to_string();
    let name = match name.strip_prefix('-') {
        Some(short) if !short.starts_with('-') => VALUES
            .iter()
            .find(|v| v.1.map(String::from).as_deref() == Some(short))
            .map_or(name.clone(), |v| format!("--{}", v.0)),
        _ => name,
    };
    match e.kind() {
        ErrorKind::InvalidSubcommand => format!(
            "unknown command {:?} (commands: {COMMANDS})",
            context(ContextKind::InvalidSubcommand)
        ),
        ErrorKind::UnknownArgument => format!(
            "unknown option {name} (robots-eval {} --help lists the options)",
            command.unwrap_or("")
        ),
        ErrorKind::InvalidValue | ErrorKind::NoEquals => format!("{name} needs a value"),
        ErrorKind::TooManyValues => format!("{name} takes no value"),
        _ => e.to_string().lines().next().unwrap_or_default().to_string(),
    }
}

/// Reads the command line (without the program's name).
pub fn parse(argv: &[String]) -> Result<Args, Fail> {
    let mut a = Args::default();
    let Some(first) = argv.first() else {
        return Err("missing command (robots-eval --help lists the commands)".into());
    };
    // The command's name, for messages about its options.
    let named = (!first.starts_with('-')).then_some(first.as_str());
    let top = command()
        .try_get_matches_from(std::iter::once("robots-eval").chain(argv.iter().map(String::as_str)))
        .map_err(|e| message(&e, named))?;
    let Some((command, m)) = top.subcommand() else {
        if top.get_flag("version") {
            a.command = "version".into();
        } else {
            a.help = true;
        }
        return Ok(a);
    };
    if command == "help" {
        a.help = true;
        return Ok(a);
    }
    a.command = command.to_string();
    read(&mut a, m)?;
    Ok(a)
}

/// The values of a repeatable option (or the positionals), in order.
fn strings(m: &ArgMatches, id: &str) -> Vec<String> {
    m.get_many::<String>(id)
        .map(|v| v.cloned().collect())
        .unwrap_or_default()
}

/// A `--dialect` value (ASCII case-insensitive).
fn dialect(name: &str) -> Result<DialectId, Fail> {
    DialectId::from_name(&name.to_ascii_lowercase()).ok_or_else(|| {
        format!("unknown dialect {name:?} (dialects: rfc9309, google, draft1996, original1994, revisited)")
    })
}

fn read(a: &mut Args, m: &ArgMatches) -> Result<(), Fail> {
    let strings = |id: &str| strings(m, id);
    a.positional = strings("positional");
    a.agents = strings("agent");
    a.headers = strings("header");
    a.urls = m.get_one::<String>("urls").cloned();
    a.sitemap = m.get_one::<String>("sitemap").cloned();
    a.json = m.get_flag("json");
    a.csv = m.get_flag("csv");
    a.markdown = m.get_flag("markdown");
    a.strict = m.get_flag("strict");
    a.ai = m.get_flag("ai");
    a.help = m.get_flag("help");
    if a.help {
        return Ok(());
    }
    // The options given, in the order of the table, that this command does not take.
    let takes = allowed(&a.command);
    let given = FLAGS
        .iter()
        .map(|f| f.0)
        .filter(|id| *id != "help" && m.get_flag(id))
        .chain(
            VALUES
                .iter()
                .map(|v| v.0)
                .filter(|id| m.contains_id(id) && m.value_source(id).is_some()),
        );
    for key in given {
        if !matches!(key, "dialect" | "max-bytes") && !takes.contains(&key) {
            return Err(format!("{} takes no --{key}", a.command));
        }
    }
    if let Some(d) = m.get_one::<String>("dialect") {
        a.options.dialect = dialect(d)?;
    }
    if let Some(n) = m.get_one::<String>("max-bytes") {
        // At most 2^53 - 1, as the npm command (a JavaScript integer).
        a.options.max_bytes = n
            .parse::<u64>()
            .ok()
            .filter(|&v| n.bytes().all(|b| b.is_ascii_digit()) && v < 1 << 53)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| format!("--max-bytes: not a number of bytes: {n:?}"))?;
    }
    if !a.headers.is_empty() && !a.ai {
        return Err("--header needs --ai".into());
    }
    if [a.json, a.csv, a.markdown].iter().filter(|b| **b).count() > 1 {
        return Err("choose one of --json, --csv and --markdown".into());
    }
    Ok(())
}

/// The arguments of `ai`.
#[derive(Default)]
pub struct AiArgs {
    pub url: String,
    pub agent: String,
    pub json: bool,
    pub dialect: DialectId,
    /// Offline inputs: files (or `none`) instead of fetches.
    pub robots: Option<String>,
    pub tdmrep: Option<String>,
    pub html: Option<String>,
    /// The page's response headers, for `--html` (`Name: value`).
    pub headers: Vec<(String, String)>,
    /// The purposes the crawler declares, and its policy tokens (for a crawler the operator
    /// table does not know).
    pub purposes: Vec<Purpose>,
    pub policy_tokens: Vec<String>,
}

/// `ai`'s flags and options, as FLAGS and VALUES.
const AI_FLAGS: &[(&str, Option<char>)] = &[("json", None), ("help", Some('h'))];
const AI_VALUES: &[(&str, Option<char>, bool)] = &[
    ("agent", Some('a'), true),
    ("dialect", Some('d'), false),
    ("robots", None, false),
    ("tdmrep", None, false),
    ("html", None, false),
    ("header", None, true),
    ("purpose", None, true),
    ("policy-token", None, true),
];

/// Reads `ai`'s command line (after `ai`); `None` for `--help`.
pub fn parse_ai(argv: &[String]) -> Result<Option<AiArgs>, Fail> {
    let m = subcommand("ai", AI_FLAGS, AI_VALUES)
        .try_get_matches_from(std::iter::once("ai").chain(argv.iter().map(String::as_str)))
        .map_err(|e| message(&e, Some("ai")))?;
    if m.get_flag("help") {
        return Ok(None);
    }
    let strings = |id: &str| strings(&m, id);
    // The checks in js/cli.mjs's order (readAiArgs).
    let agents = strings("agent");
    if agents.len() > 1 {
        return Err("ai takes one --agent".into());
    }
    let mut a = AiArgs {
        json: m.get_flag("json"),
        robots: m.get_one::<String>("robots").cloned(),
        tdmrep: m.get_one::<String>("tdmrep").cloned(),
        html: m.get_one::<String>("html").cloned(),
        policy_tokens: strings("policy-token"),
        ..AiArgs::default()
    };
    if let Some(d) = m.get_one::<String>("dialect") {
        a.dialect = dialect(d)?;
    }
    for h in strings("header") {
        let (n, v) = h
            .split_once(':')
            .ok_or_else(|| format!("--header {h:?}: not 'Name: value'"))?;
        a.headers.push((n.trim().to_string(), v.trim().to_string()));
    }
    for p in strings("purpose") {
        a.purposes.push(
            Purpose::from_label(&p).ok_or_else(|| {
                format!("--purpose {p:?}: not a purpose (train-ai, ai-use, search)")
            })?,
        );
    }
    match strings("positional").as_slice() {
        [url] => a.url = url.clone(),
        [] => return Err("ai needs the page's <url>".into()),
        _ => return Err("ai takes one <url>".into()),
    }
    a.agent = agents.into_iter().next().ok_or("ai needs --agent")?;
    let needs_url = a.robots.is_none() || a.tdmrep.is_none() || a.html.is_none();
    if needs_url && !crate::is_url(&a.url) {
        return Err(format!(
            "<url>: not an http(s) URL: {:?} (give --robots, --tdmrep and --html to answer offline)",
            a.url
        ));
    }
    Ok(Some(a))
}
