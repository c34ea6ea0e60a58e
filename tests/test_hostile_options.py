"""Numbers no float holds (an integer of 310 digits and more, infinity, NaN) to every numeric
option the JSON API serves, and to the command line's: each refused as any value out of range
is, in one line, never a 500 or a traceback."""

from __future__ import annotations

import math

import pytest
from conftest import PROLOG
from processes import run as run_script

from hashi_asp.commands import declaration
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
        (("generate", "--islands", HUGE), "board "),  # (its board: over the limit of cells)
    ],
    ids=["time-limit", "time-limit-1e400", "cell-size", "islands"],
)
def test_the_command_line_says_one_line_and_exits_2(args, said):
    done = run_script(*args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"hashi-asp: {said}"), lines
