"""Numbers no float holds (an integer of 310 digits and more, infinity, NaN) to every numeric
option the JSON API serves, and to the command line's: each refused as any value out of range
is, in one line, never a 500 or a traceback."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from conftest import PROLOG
from processes import run as run_script

from hashi_asp import commands
from hashi_asp.cli import main
from hashi_asp.commands import click_options, declaration
from hashi_asp.notations.puzzlink import parse_url, validate_pzprv3, validate_url
from hashi_asp.web import api

NUMERIC = (declaration.INT, declaration.FLOAT, declaration.SECONDS)
HUGE = "9" * 400  # an integer no float holds
SERVED = [
    (command, option)
    for command, options in api.OPTIONS.items()
    for option in options.values()
    if option.kind in NUMERIC
]


def fine(option: declaration.Option) -> object:
    """A value the option takes, as a request gives it."""
    if option.kind not in NUMERIC:
        return "x"
    low = 0 if option.low is None else option.low
    return int(low) + 1 if option.low_open or option.kind == declaration.INT else low


def refusal(command: str, name: str, value: object) -> api.RequestError:
    """The error of a request for ``command`` giving ``name`` the ``value`` (its required
    options given a value: numbers are checked before any is read)."""
    body = {o.name: fine(o) for o in api.OPTIONS[command].values() if o.required}
    body[name] = value
    with pytest.raises(api.RequestError) as raised:
        api.read_request(command, body, api.Limits())
    return raised.value


def test_every_numeric_option_served_is_tested():
    assert ("solve", "models") in {(command, option.name) for command, option in SERVED}
    assert len(SERVED) >= 27


@pytest.mark.parametrize(
    "value",
    [10**309, 10**310 - 1, 10**400, -(10**310), 10**4000, math.inf, -math.inf, math.nan],
    ids=["10^309", "310 digits", "10^400", "-10^310", "4001 digits", "inf", "-inf", "nan"],
)
@pytest.mark.parametrize(("command", "option"), SERVED, ids=[f"{c}-{o.name}" for c, o in SERVED])
def test_the_api_refuses_a_number_no_float_holds_as_out_of_range(command, option, value):
    error = refusal(command, option.name, value)
    assert error.http == 400
    expected = f"option {option.name!r}: expected {option.expected()}, got "
    assert str(error).startswith(expected), str(error)
    assert "\n" not in str(error) and len(str(error)) < len(expected) + 60


def test_a_large_number_a_float_holds_is_still_judged_by_its_range():
    with pytest.raises(declaration.OptionError, match="from 1 to 64, got 1000000000"):
        api.OPTIONS["solve"]["max-bridges"].from_json(10**300)
    assert api.OPTIONS["solve"]["time-limit"].from_json(10**300) == 1e300
    assert declaration.finite(int(1.7976931348623157e308)) and not declaration.finite(10**309)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("solve", PROLOG, "--time-limit", HUGE), "Invalid value for '--time-limit'"),
        (("solve", PROLOG, "--time-limit", "1e400"), "Invalid value for '--time-limit'"),
        (("render", PROLOG, "--cell-size", "1e400"), "Invalid value for '--cell-size'"),
        (("generate", "--islands", HUGE), "Invalid value for '-n' / '--islands'"),
        (("solve", PROLOG, "-n", HUGE), "Invalid value for '-n' / '--models'"),
    ],
    ids=["time-limit", "time-limit-1e400", "cell-size", "islands", "models"],
)
def test_the_command_line_says_one_line_and_exits_2(args, said):
    done = run_script(*args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"hashi-asp: {said}"), lines


# ---------------------------------------------------------------------------- every command's


def walk(unit: declaration.Command, path: tuple[str, ...]):
    """A command and its commands (``study run``), by the words that name them."""
    yield path, unit
    for sub in unit.commands:
        yield from walk(sub, (*path, sub.name))


NUMERIC_OPTIONS = [
    (path, option)
    for name in commands.NAMES
    for path, unit in walk(commands.command(name), (name,))
    for option in unit.options
    if option.kind in NUMERIC and not option.argument
]
IDS = [f"{'-'.join(path)}-{option.name}" for path, option in NUMERIC_OPTIONS]


def test_the_walk_finds_every_numeric_option():
    names = {(path, option.name) for path, option in NUMERIC_OPTIONS}
    assert {(("solve",), "models"), (("render",), "cell-size"), (("serve",), "port")} <= names
    assert (("study", "run"), "repeat") in names
    assert len(NUMERIC_OPTIONS) >= 50


def usage_error(path: tuple[str, ...], option: declaration.Option, value: str) -> str:
    """What the command line says of ``--option=value``, asserted a usage error of one line
    naming the option (exit 2, no traceback)."""
    result = CliRunner().invoke(main, [*path, f"--{option.name}={value}"])
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit)
    said = result.stderr.strip()
    assert "\n" not in said and "Traceback" not in said, said
    assert said.startswith("hashi-asp: Invalid value for ") and f"--{option.name}" in said, said
    return said


@pytest.mark.parametrize("value", [HUGE, "-" + HUGE, "1e400", "-1e400", "9" * 5000])
@pytest.mark.parametrize(("path", "option"), NUMERIC_OPTIONS, ids=IDS)
def test_every_numeric_option_refuses_a_number_no_float_holds(path, option, value):
    said = usage_error(path, option, value)
    assert len(said) < 300, said  # the value shortened
    if value.lstrip("-").isdigit():
        assert f"({len(value)} characters)" in said, said


@pytest.mark.parametrize(("path", "option"), NUMERIC_OPTIONS, ids=IDS)
def test_every_numeric_option_refuses_infinity_and_nan(path, option):
    for value in ("inf", "-inf", "nan"):
        usage_error(path, option, value)


def test_the_command_line_ends_where_the_api_does():
    """The largest integer a float holds is a number to both fronts, 10**309 to neither,
    whatever the range."""
    whole = click_options.Whole(0)
    largest = int(1.7976931348623157e308)
    assert whole.convert(str(largest), None, None) == largest
    assert api.OPTIONS["solve"]["models"].from_json(largest) == largest
    with pytest.raises(declaration.OptionError):
        api.OPTIONS["solve"]["models"].from_json(10**309)
    with pytest.raises(click_options.click.BadParameter, match="too large a number"):
        whole.convert("1" + "0" * 309, None, None)
    with pytest.raises(click_options.click.BadParameter, match="too large a negative number"):
        whole.convert("-1" + "0" * 309, None, None)
    assert whole.convert("0" * 400 + "7", None, None) == 7  # leading zeros: a small number


def test_a_study_variant_refuses_a_number_no_float_holds():
    with pytest.raises(declaration.OptionError, match="too large a number"):
        click_options.variant(f"--max-bridges {HUGE}")


# ---------------------------------------------------------------------------- puzz.link sizes

BIG = "9" * 20  # a size no grid has, read without converting it whole


@pytest.mark.parametrize(
    ("url", "message", "column"),
    [
        (f"hashikake/{BIG}/1/g", f"COLS {BIG} is too large: a grid has at most 10000000", 11),
        (f"hashikake/1/{BIG}/g", f"ROWS {BIG} is too large: a grid has at most 10000000", 13),
        (f"hashikake/{BIG}/{BIG}/g", f"COLS {BIG} is too large", 11),
        ("hashikake/10000001/1/g", "COLS 10000001 is too large", 11),
        ("hashikake/1/10000001/g", "ROWS 10000001 is too large", 13),
        ("hashikake/5000/2001/g", "grid 5000x2001 exceeds the limit of 10000000 cells", 11),
        (f"hashikake/{'9' * 5000}/1/g", "COLS 999999999999... (5000 digits) is too large", 11),
        (f"hashikake/{'0' * 30}{BIG}/1/g", f"COLS {BIG} is too large", 11),
        ("hashikake/0/3/g", "COLS: expected a positive integer, found '0'", 11),
        ("hashikake/3/000/g", "ROWS: expected a positive integer, found '000'", 13),
        ("hashikake/-3/3/g", "COLS: expected a positive integer, found '-3'", 11),
        ("hashikake/3/-3/g", "ROWS: expected a positive integer, found '-3'", 13),
        ("hashikake/+3/3/g", "COLS: expected a positive integer, found '+3'", 11),
        ("hashikake/1e3/3/g", "COLS: expected a positive integer, found '1e3'", 11),
        ("hashikake/3/x3/g", "ROWS: expected a positive integer, found 'x3'", 13),
        ("hashikake/3/3.0/g", "ROWS: expected a positive integer, found '3.0'", 13),
        ("hashikake/3/\u0663/g", "ROWS: expected a positive integer, found '\u0663'", 13),
    ],
)
def test_a_url_size_no_grid_has_is_named_as_given_and_where(url, message, column):
    for prefix in ("", "https://puzz.link/p?"):
        problem = validate_url(prefix + url)
        assert problem is not None and problem.message.startswith(message), problem
        assert problem.column == len(prefix) + column
        assert "10000001x" not in problem.message and "x10000001" not in problem.message


def test_a_url_size_with_leading_zeros_is_its_number():
    assert parse_url("hashikake/0003/01/1g1").cols == 3
    assert validate_url("hashikake/0003/01/1g1") is None


def test_a_huge_url_size_on_the_command_line_is_one_line_exit_2():
    done = run_script("facts", f"https://puzz.link/p?hashikake/1/{'9' * 400}/g")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "hashi-asp: <text>:1:33: ROWS 999999999999... (400 digits) is too large: a grid has at "
        "most 10000000 cells"
    ]


@pytest.mark.parametrize(
    ("rows", "cols", "message", "line"),
    [
        (BIG, "3", f"ROWS {BIG} is too large", 3),
        ("3", BIG, f"COLS {BIG} is too large", 4),
        ("3", "0", "COLS: expected a positive integer, found '0'", 4),
        ("-3", "3", "ROWS: expected a positive integer, found '-3'", 3),
        ("5000", "2001", "grid 2001x5000 exceeds the limit", 4),
    ],
)
def test_a_pzprv3_size_no_grid_has_is_named_as_given_and_where(rows, cols, message, line):
    problem = validate_pzprv3(f"pzprv3\nhashikake\n{rows}\n{cols}\n. . .\n")
    assert problem is not None and problem.message.startswith(message), problem
    assert (problem.line, problem.column) == (line, 1)


# ---------------------------------------------------------------------------- encodings


def _scripting(language: str) -> bool:
    """Whether this clingo runs ``#script (language)``."""
    import clingo

    try:
        clingo.Control(["--warn=none"]).add("base", [], f"#script ({language})\n#end.")
    except RuntimeError:
        return False
    return True


@pytest.mark.parametrize("option", ["--add", "--encoding"])
@pytest.mark.parametrize("language", ["python", "lua"])
def test_a_script_clingo_cannot_run_is_refused_with_clingo_s_reason(tmp_path, option, language):
    if _scripting(language):
        pytest.skip(f"this clingo runs {language} scripts")
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text("2.2\n")
    rules = tmp_path / "scripted.lp"
    rules.write_text(f"% rules\na.\n#script ({language})\nx = 1\n#end.\n")
    result = CliRunner().invoke(main, ["solve", str(puzzle), option, str(rules)])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"hashi-asp: {rules}:3:1-5:6: error: {language} support not available"
    ]


def test_the_script_says_clingo_s_reason_in_one_line(tmp_path):
    if _scripting("python"):
        pytest.skip("this clingo runs python scripts")
    rules = tmp_path / "scripted.lp"
    rules.write_text("#script (python)\ndef main(prg): pass\n#end.\n")
    done = run_script("solve", PROLOG, "--add", rules)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"hashi-asp: {rules}:1:1-3:6: error: python support not available"
    ]


def test_a_syntax_error_is_still_clingo_s_logged_message(tmp_path):
    rules = tmp_path / "broken.lp"
    rules.write_text("a.\nb(.\n")
    result = CliRunner().invoke(main, ["solve", str(PROLOG), "--add", str(rules)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"hashi-asp: {rules}:2:3-4: error: syntax error, unexpected ., expecting ) or ;"
    ]


def test_a_load_error_without_a_reason_says_what_clingo_raised():
    from hashi_asp.asp.control import load_error

    said = load_error([], RuntimeError("parsing\nfailed"), "rules.lp")
    assert said == "rules.lp: cannot load (parsing failed)"
    assert load_error([], RuntimeError(""), "rules.lp") == "rules.lp: cannot load"
    logged = ["rules.lp:1:1-2: error: syntax error\n  more"]
    assert load_error(logged, RuntimeError("parsing failed"), "rules.lp") == (
        "rules.lp:1:1-2: error: syntax error more"
    )
