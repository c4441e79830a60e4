#!/usr/bin/env python3
"""tiltd's man page, tiltd.1 (mdoc), from the commands' own help.

    scripts/man-page.py --binary .build/release/tiltd --out .build/man/tiltd.1
    .build/debug/tiltd --experimental-dump-help | scripts/man-page.py > tiltd.1

It reads ArgumentParser's `--experimental-dump-help` JSON (what the
generate-manual plugin reads) and writes one page with every command, in the
plugin's layout. Not the plugin itself: its mdoc escaping keeps only ASCII
characters, so "1–1000" printed as "11000", "m/s²" as "m/s" and "1/(3·radius)"
as "1/(3radius)"; and its EXIT STATUS is the generic `.Ex -std`, without 64
for a usage error. Here every character is kept (non-ASCII as roff's
\\[uXXXX] escape, which groff and mandoc both read) and EXIT STATUS lists
tiltd's statuses. --out is written whole (a temporary file, then renamed).
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

EXIT_STATUS = [
    ("0", "Success, and a clean stop by SIGINT or SIGTERM (a run, a replay, a render "
          "ended early keeps only whole files)."),
    ("1", "A runtime error: no device, an unreadable or malformed file, a socket or "
          "port in use, a lost device; one line on stderr names it and says what to do."),
    ("64", "A usage error (EX_USAGE): an unknown command or option, a bad or missing "
           "value, options that do not go together; the line is followed by the "
           "command's usage."),
]


def characters(text: str) -> str:
    """Escapes shared by text and macro lines: backslash, and any non-ASCII
    character as \\[uXXXX] (never dropped)."""
    out = []
    for c in text:
        if c == "\\":
            out.append("\\e")
        elif ord(c) > 0x7E or (ord(c) < 0x20 and c != "\t"):
            out.append("\\[u%04X]" % ord(c))
        else:
            out.append(c)
    return "".join(out)


def text_line(line: str) -> str:
    """One line of running text: a leading dot or apostrophe (a macro to
    roff) or blank gets a zero-width \\& in front."""
    escaped = characters(line)
    if escaped[:1] in (".", "'", " "):
        escaped = "\\&" + escaped
    return escaped


def argument(value: str) -> str:
    """A macro argument: quoted when it holds a blank, \\(dq for a quote."""
    escaped = characters(value.replace("\n", " ")).replace('"', "\\(dq")
    return '"%s"' % escaped if (" " in escaped or not escaped) else escaped


def paragraphs(text: str) -> list:
    """Running text as lines, a blank line in the help as .Pp."""
    lines = []
    for line in text.strip("\n").split("\n"):
        lines.append(".Pp" if not line.strip() else text_line(line))
    return lines


def name_flag(name: dict) -> str:
    """`-x`, `--long` as an .Fl argument (without the first dash)."""
    return ("-" if name["kind"] == "long" else "") + name["name"]


def option_title(arg: dict) -> str:
    """The .It line of an option, flag or positional argument."""
    value = argument(arg.get("valueName") or "value")
    if arg["kind"] == "positional":
        return ".It Ar %s%s" % (value, " ..." if arg.get("isRepeating") else "")
    names = arg.get("names") or [arg["preferredName"]]
    parts = []
    for name in names:
        part = "Fl %s" % argument(name_flag(name))
        if arg["kind"] == "option":
            part += " Ar %s" % value
        parts.append(part)
    return ".It " + " , ".join(parts) + (" ..." if arg.get("isRepeating") else "")


def option_body(arg: dict) -> list:
    lines = []
    if arg.get("abstract"):
        lines += paragraphs(arg["abstract"])
    if arg.get("defaultValue") not in (None, "") and arg["kind"] == "option":
        lines.append(text_line("(default: %s)" % arg["defaultValue"]))
    if arg.get("discussion"):
        lines.append(".Pp")
        lines += paragraphs(arg["discussion"])
    return lines


def synopsis_item(arg: dict) -> str:
    if arg["kind"] == "positional":
        item = "Ar %s" % argument(arg.get("valueName") or "value")
    else:
        item = "Fl %s" % argument(name_flag(arg["preferredName"]))
        if arg["kind"] == "option":
            item += " Ar %s" % argument(arg.get("valueName") or "value")
    if arg.get("isRepeating"):
        item += " ..."
    return ".Op " + item if arg.get("isOptional") else "." + item


def describe(command: dict, root: bool) -> list:
    """The DESCRIPTION part of one command: abstract, discussion, options,
    then each subcommand as an item holding its own."""
    lines = []
    if not root and command.get("abstract"):
        lines += paragraphs(command["abstract"])
        if command.get("discussion"):
            lines.append(".Pp")
    if command.get("discussion"):
        lines += paragraphs(command["discussion"])
    shown = [a for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]
    subcommands = [c for c in command.get("subcommands") or [] if c.get("shouldDisplay", True)]
    if shown or subcommands:
        lines.append(".Bl -tag -width 6n")
        for arg in shown:
            lines.append(option_title(arg))
            lines += option_body(arg)
        for sub in subcommands:
            label = " ".join((sub.get("superCommands") or [])[1:] + [sub["commandName"]])
            lines.append(".It Em %s" % argument(label))
            lines += describe(sub, root=False)
        lines.append(".El")
    return lines


def page(tool: dict, date: datetime.date) -> str:
    command = tool["command"]
    name = command["commandName"]
    lines = [
        '.\\" Generated by scripts/man-page.py from `%s --experimental-dump-help`; do not edit.' % name,
        ".Dd %s" % date.strftime("%B %-d, %Y"),
        ".Dt %s 1" % name.upper(),
        ".Os",
        ".Sh NAME",
        ".Nm %s" % name,
        ".Nd %s" % argument(command.get("abstract") or name),
        ".Sh SYNOPSIS",
        ".Nm",
    ]
    if command.get("subcommands"):
        lines.append(".Op Ar subcommand" if command.get("defaultSubcommand") else ".Ar subcommand")
    lines += [synopsis_item(a) for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]
    lines.append(".Sh DESCRIPTION")
    lines += describe(command, root=True)
    lines += [".Sh EXIT STATUS", ".Bl -tag -width 6n"]
    for status, meaning in EXIT_STATUS:
        lines += [".It %s" % status, text_line(meaning)]
    lines += [".El", ".Sh SEE ALSO", text_line("The documentation installed with tiltd: README.md and docs/*.md "
                                                "(make install puts them in share/doc/tiltd).")]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description="Write tiltd's man page from --experimental-dump-help.")
    parser.add_argument("--binary", help="run BINARY --experimental-dump-help (default: read the JSON on stdin)")
    parser.add_argument("--out", help="the page to write whole (default: stdout)")
    parser.add_argument("--date", help="the page's date, YYYY-MM-DD (default: SOURCE_DATE_EPOCH, else today)")
    args = parser.parse_args()
    if args.binary:
        dump = subprocess.run([args.binary, "--experimental-dump-help"], check=True, stdout=subprocess.PIPE).stdout
    else:
        dump = sys.stdin.buffer.read()
    tool = json.loads(dump)
    if args.date:
        date = datetime.date.fromisoformat(args.date)
    elif os.environ.get("SOURCE_DATE_EPOCH"):
        date = datetime.datetime.fromtimestamp(int(os.environ["SOURCE_DATE_EPOCH"]), datetime.timezone.utc).date()
    else:
        date = datetime.date.today()
    text = page(tool, date)
    if not args.out:
        sys.stdout.write(text)
        return 0
    folder = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".tiltd.1.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, args.out)
    except BaseException:
        os.unlink(temporary)
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
