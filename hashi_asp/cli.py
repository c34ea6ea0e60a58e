"""The ``hashi-asp`` command line: each command is a thin click wrapper over the library function
of the same name; what it prints comes from :mod:`.reports`.  Each command imports the modules
it runs inside its function, so that a command's start-up pays for its own modules only (see
:mod:`.options`).

Exit codes: 0 success, 1 no solution (or ``check`` found a broken rule, or ``unique`` found
two), 2 bad input or usage, 3 time limit reached before the search gave what was asked,
4 ``unique`` found no solution, 5 the encoding produced an answer that breaks the rules,
130 interrupted (Ctrl-C), 143 terminated (SIGTERM).
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import click

from . import notations, stopping
from .options import (
    BRIDGES,
    FILE,
    PROGRAM,
    WRITABLE,
    Finite,
    Group,
    echo,
    finish,
    look,
    one_given,
    output_format,
    read_bridges,
    time_limit_option,
    with_puzzle,
)
from .puzzle import PuzzleError, Rules, Solution

EXIT_NO_SOLUTION = 1
EXIT_MULTIPLE = 1  # `unique`: more than one solution
EXIT_TIME_LIMIT = 3
EXIT_UNSOLVABLE = 4  # `unique`: no solution (1 is taken by "multiple")


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hashi-asp")
def main() -> None:
    """Solve, check, explain and generate Hashiwokakero ("Bridges") puzzles with answer set
    programming.

    PUZZLE is a file (.has, dot grid, JSON, pzprv3), '-' for standard input, or the puzzle
    itself: its text, a puzz.link URL or a Simon Tatham game ID.
    """


# ---------------------------------------------------------------------------- solve


@main.command("solve")
@with_puzzle(search=True)
@click.option("-n", "--models", type=click.IntRange(min=0), default=1, help="Solutions (0: all).")
@output_format("text", "unicode", "json", "facts", "svg", "pzprv3", help="How to print solutions.")
@click.option("--stats", is_flag=True, help="Print clingo's choices, conflicts and times.")
def solve_command(board, argument, program, time_limit, models, output, stats):
    """Solve PUZZLE and print its solutions as they are found (-n 0: all of them); the last line
    gives the count and the verdict, and for no solution the lines before it say why.  --format
    svg and pzprv3 print the first solution as a file, and the rest on stderr.

    The puzzle's own rules apply (a Tatham ID's mK and L) unless --max-bridges, --no-loops or
    -c max_bridges=K / -c no_loops=1 say otherwise.
    """
    from . import reports
    from .notations.json import dumps
    from .solving import solve

    if output == "pzprv3":
        notations.write(board, "pzprv3")  # refuses, before the search, what it cannot hold
    numbers = itertools.count(1)
    drawn = output in ("text", "unicode", "facts")

    def show(solution: Solution) -> None:
        if drawn:
            numbered = {"numbered": models != 1, "style": output}
            echo(reports.solution_text(board, solution, next(numbers), **numbered))

    search = {"program": program, "time_limit": time_limit, "explained": True}
    result = solve(board, models, on_solution=show, **search)
    if output == "json":
        click.echo(dumps(reports.result_json(board, result, stats=stats)))
    else:  # svg and pzprv3: stdout holds just the file of the first solution, if there is one
        if not drawn and result.solutions:
            click.echo(reports.solution_file(board, result.solutions[0], output), nl=False)
        text = reports.solve_text(board, result, models, stats=stats, look=look(output))
        echo(text, err=not drawn, prefix="% " if output == "facts" else "")
    unsolvable = result.status == "unsolvable"
    code = EXIT_NO_SOLUTION if unsolvable else EXIT_TIME_LIMIT if result.timed_out else 0
    sys.exit(stopping.exit_code() if result.interrupted else code)


# ---------------------------------------------------------------------------- check, facts, render


@main.command("check")
@with_puzzle()
@click.argument("solution")
@output_format("text", "json", help="One line per broken rule, or one JSON document.")
def check_command(board, argument, solution, output):
    """Check SOLUTION against PUZZLE without clingo, naming every broken rule.  Exit 0 if all
    are valid, else 1.

    SOLUTION is JSON ({"bridges": [[r1, c1, r2, c2, k], ...]}, the output of `solve --format
    json`, whose solutions are each checked, or a bare list of bridges) or a pzprv3 file with
    lines; '-' reads it from standard input.  The puzzle's own rules apply unless overridden.
    """
    from . import reports
    from .checking import check

    checked = [check(board, candidate) for candidate in read_bridges(solution)]
    if output == "json":
        from .notations.json import dumps

        click.echo(dumps(reports.check_json(board, checked)))
    else:
        echo("\n".join(reports.check_lines(checked)))
    sys.exit(EXIT_NO_SOLUTION if any(checked) else 0)


@main.command("facts")
@with_puzzle()
def facts_command(board, argument):
    """Print PUZZLE as ASP facts, the input of encodings/hashi.lp: python -m clingo
    encodings/hashi.lp facts.lp runs it (for other than the standard rules, a comment line says
    which -c options to add)."""
    from .asp.interface import facts

    click.echo(facts(board), nl=False)


@main.command("render")
@with_puzzle()
@click.argument("solution", required=False)
@click.option("-o", "--output", type=FILE, help="Picture file, .svg or .png [default: stdout].")
@click.option("--cell-size", type=Finite(4, 1000), default=40, help="Pixels per cell [40].")
def render_command(board, argument, solution, output, cell_size):
    """Draw PUZZLE, with the bridges of SOLUTION if given, as a picture: SVG on standard output,
    or the .svg or .png file -o names (PNG needs the [png] extra).  SOLUTION is what `check`
    takes; of several solutions the first is drawn, and one that breaks a rule is drawn all the
    same, with a warning."""
    from .checking import check
    from .drawing import render
    from .files import not_the_input

    drawn = read_bridges(solution)[0] if solution is not None else None
    if output is not None:
        not_the_input(output, argument)
    picture = render(board, drawn, cell=cell_size, output=output, source=str(solution))
    violations = check(board, drawn) if drawn is not None else []
    if violations:
        broken = f"{len(violations)} rule(s), first: {violations[0].message}"
        click.echo(f"hashi-asp: warning: the solution breaks {broken}", err=True)
    if picture is not None:
        click.echo(picture, nl=False)


@main.command("convert")
@with_puzzle()
@click.option("--to", "target", required=True, type=click.Choice(WRITABLE), help="txt: grid.")
@click.option("-o", "--output", type=FILE, help="File to write [default: standard output].")
def convert_command(board, argument, target, output):
    """Write PUZZLE in another notation (txt is the dot grid).  A notation that cannot hold the
    puzzle (an island without a number in .has, rules other than the standard ones anywhere but
    json and tatham, a grid under 3x3 in a Tatham ID, ...) is an error (exit 2), never a silent
    change of the puzzle."""
    from .files import not_the_input, write_atomically

    text = notations.write(board, target)
    if output is None:
        click.echo(text, nl=False)
    else:
        not_the_input(output, argument)
        write_atomically(output, text.encode("utf-8"))


# ---------------------------------------------------------------------------- unique, count, hint


@main.command("unique")
@with_puzzle(search=True)
@output_format("text", "unicode", "json")
@click.option("--difficulty", "rate", is_flag=True, help="Also rate a unique puzzle's difficulty.")
def unique_command(board, argument, program, time_limit, output, rate):
    """Decide whether PUZZLE has exactly one solution, by searching for two: for two, draw both,
    list the pairs of islands where they differ, name the smallest region of them and propose
    one number to change or island to add that leaves one solution (checked first); for none,
    say why.  --difficulty rates a unique puzzle (as `difficulty`).  Exit 0 unique, 1 multiple,
    4 unsolvable, 3 time limit before a verdict."""
    from . import reports
    from .generation import fix
    from .solving import unique
    from .walkthrough import difficulty

    result = unique(board, program=program, time_limit=time_limit, explained=True)
    sought = result.status == "multiple" and not program.own_rules  # fix: the bundled rules
    found = fix(board, result, time_limit=time_limit) if sought else None
    rated = difficulty(board, time_limit) if rate and result.status == "unique" else None
    text = reports.unique_text(board, result, look(output), fix=found, sought=sought, rated=rated)
    document = reports.unique_json(board, result, fix=found, sought=sought, rated=rated)
    codes = {"unique": 0, "multiple": EXIT_MULTIPLE, "unsolvable": EXIT_UNSOLVABLE}
    finish(output, document, text, codes.get(result.status, EXIT_TIME_LIMIT), result)


@main.command("count")
@with_puzzle(search=True)
@output_format("text", "json", help="One line of text, or one JSON document.")
@click.option("--check/--no-check", "verify", default=True, help="Check each (about 2 ms).")
def count_command(board, argument, program, time_limit, output, verify):
    """Count the solutions of PUZZLE by enumerating them all, each checked by the independent
    checker unless --no-check; a live count shows on stderr when it is a terminal.  Exit 0 with
    the exact count, 1 for none, 3 with "at least N" when the time limit cut the count short."""
    from tqdm import tqdm

    from . import reports
    from .solving import count

    with tqdm(desc="counting", unit=" solutions", leave=False, disable=None) as progress:
        search = {"program": program, "time_limit": time_limit, "verify": verify}
        result = count(board, on_solution=lambda n: progress.update(), **search)
    code = EXIT_TIME_LIMIT if not result.exhausted else 0 if result.count else EXIT_NO_SOLUTION
    document = reports.count_json(board, result, checked=verify)
    finish(output, document, reports.count_text(result, look()), code, result)


@main.command("hint")
@with_puzzle(search=True)
@click.option("--given", metavar="BRIDGES", help="Bridges drawn so far, as `check` reads them.")
@output_format("text", "unicode", "json")
def hint_command(board, argument, program, time_limit, given, output):
    """Draw the bridges every solution of PUZZLE has, '?' where solutions differ, and list
    those pairs of islands with the counts they take.  --given takes the bridges a player has
    drawn, each a lower bound (a single bridge may still become a double): then only solutions
    extending them count, and the bridges they force are listed, or a minimal set of the drawn
    bridges that cannot all stay.  Exit 0 if there is a solution (extending --given), 1 if not,
    3 if the time limit came first."""
    from . import reports
    from .reasoning import hint

    drawn = one_given(given) if given is not None else None
    found = hint(board, drawn, program=program, time_limit=time_limit, explained=True)
    text = reports.hint_text(board, found, look(output))
    code = {"unique": 0, "multiple": 0, "unsolvable": EXIT_NO_SOLUTION}.get(found.status, 3)
    finish(output, reports.hint_json(board, found), text, code, found)


# ---------------------------------------------------------------------------- steps, difficulty


@main.command("steps")
@with_puzzle()
@click.option("--given", metavar="BRIDGES", help="Bridges drawn so far, as `hint` reads them.")
@click.option("-n", "--steps", "limit", type=click.IntRange(min=1), help="Stop after N steps.")
@output_format("text", "unicode", "json", "svg", help="Boards as text, JSON, or SVG pictures.")
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), help="SVG folder.")
@click.option("--brief", is_flag=True, help="One line per step, no boards.")
@click.option("--force", is_flag=True, help="Replace pictures that exist in --out.")
@time_limit_option("Stop after this long, keeping the steps found.")
def steps_command(board, argument, given, limit, output, out, brief, force, time_limit):
    """Walk through PUZZLE one step at a time, from the empty board or the bridges --given: each
    step narrows the bridge counts of one pair of islands, with the smallest set of island
    numbers that forces it (and whether it needs all islands connected), easiest first; each is
    confirmed by clingo before it is shown.  -n 1 is the next move.  --format svg writes one
    picture per step into --out.  Ends with the difficulty when solved; a terminal shows the
    progress on stderr.  Exit 0 when solved (or after the -n steps asked), 1 when stuck (several
    solutions) or in a contradiction (none), 3 at the time limit."""
    from . import reports
    from .files import prepare_folder, write_atomically
    from .walkthrough import steps

    if (output == "svg") != (out is not None):
        raise click.UsageError("--format svg writes pictures: give it --out FOLDER, and only it")
    drawn = one_given(given) if given is not None else None
    with reports.walking_progress("walking") as show:
        walk = steps(board, drawn, limit=limit, time_limit=time_limit, on_step=show)
    if out is not None:
        pictures = reports.step_pictures(board, walk)
        prepare_folder(out, [name for name, _ in pictures], force=force)
        for name, picture in pictures:
            write_atomically(out / name, picture.encode("utf-8"))
        text = reports.steps_verdict(walk, look()) + f"\n{len(pictures)} pictures in {out}"
    else:
        text = reports.steps_text(board, walk, look(output), brief=brief)
    codes = {"solved": 0, "unfinished": 0, "stuck": EXIT_NO_SOLUTION}
    code = codes.get(walk.status, EXIT_TIME_LIMIT if walk.timed_out else EXIT_NO_SOLUTION)
    finish(output, reports.steps_json(board, walk), text, code, walk)


@main.command("difficulty")
@with_puzzle()
@output_format("text", "json", help="One line of text, or one JSON document.")
@time_limit_option("Stop after this long.")
def difficulty_command(board, argument, output, time_limit):
    """Rate how hard PUZZLE is for a person: the walkthrough of a solver who always uses the
    easiest technique that applies, from easy (the patterns a beginner sees) through medium and
    hard (Simon Tatham's levels) to expert; a terminal shows the progress on stderr.  Only a
    puzzle with exactly one solution has a difficulty: exit 1, saying so, if it has none or
    several; 3 at the time limit."""
    from . import reports
    from .notations.json import dumps
    from .walkthrough import Unrated, difficulty

    rated, status = None, "rated"
    try:
        with reports.walking_progress("rating") as show:
            rated = difficulty(board, time_limit=time_limit, on_step=show)
    except Unrated as refused:
        status = refused.status
    document = reports.difficulty_json(board, rated, status)
    text = reports.difficulty_line(rated) if rated else reports.unrated_line(status)
    click.echo(dumps(document) if output == "json" else text)
    sys.exit(0 if rated else EXIT_NO_SOLUTION)


# ---------------------------------------------------------------------------- generate


_SHARE = click.FloatRange(0, 1)


_ISLANDS = "Islands in each puzzle; the number of puzzles is --count."


@main.command("generate")
@click.option("--islands", "-n", type=click.IntRange(min=2), required=True, help=_ISLANDS)
@click.option("--size", metavar="WxH", help="Board [default: by the number of islands].")
@click.option("--alpha", type=_SHARE, help="Extra bridges per island [0.1; 0 with --no-loops].")
@click.option("--beta", type=_SHARE, help="Chance a bridge is double [0.5; 0 if --max-bridges 1].")
@click.option("--seed", type=click.IntRange(min=0), default=1, help="Random seed [default: 1].")
@click.option("--count", type=click.IntRange(min=1), default=1, help="Puzzles [default: 1].")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Folder to write.")
@click.option("--format", "notation", type=click.Choice(WRITABLE), default="has", help="Notation.")
@click.option("--force", is_flag=True, help="Replace files that exist in --out.")
@click.option("--solution", "with_solution", is_flag=True, help="Also NAME.solution.json.")
@click.option("--unique", is_flag=True, help="Repair each puzzle until it has one solution.")
@click.option("--difficulty", metavar="BAND|X|X-Y", help="easy, medium, hard, or scores.")
@click.option("--max-bridges", type=BRIDGES, default=2, help="Most bridges between two islands.")
@click.option("--no-loops", is_flag=True, help="Variant without cycles: build a tree.")
@click.option("--attempts", type=click.IntRange(min=1), default=20, help="Layouts per puzzle.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line per puzzle.")
@time_limit_option("Stop after this long (all puzzles together), keeping the puzzles finished.")
def generate_command(islands, count, out, notation, quiet, force, with_solution, **options):
    """Generate puzzles with the method of Coelho, Laporte, Lindbeck & Vidal (2019): grow a tree
    of islands joined by bridges, add floor(alpha * islands) extra bridges, make each bridge
    double with probability beta (with --max-bridges K, 2..K), write each island's bridge count
    and erase the bridges.  The same options give the same puzzles on every machine.

    -n is the number of islands in each puzzle; --count the number of puzzles (puzzle i uses
    seed + i).  They go to standard output, or with --out to files named like the Coelho et al.
    dataset (with --solution, the hidden solution beside each).  --difficulty takes easy, medium
    or hard, a score X (at least) or a range X-Y, from 0 to 1.  A notation that cannot record
    --max-bridges or --no-loops (has, grid, puzzlink, pzprv3) is refused.
    """
    from . import generation, reports
    from .files import prepare_folder

    finished = 0  # puzzles written whole: said however the command ends
    try:
        if with_solution and out is None:
            raise click.UsageError("--solution needs --out")
        options["rules"] = Rules(options.pop("max_bridges"), options.pop("no_loops"))
        names, puzzles = generation.batch(islands, count, notation=notation, **options)
        folder = out
        if folder is not None:
            solutions = [generation.solution_name(name) for name in names] * with_solution
            prepare_folder(folder, names + solutions, force=force)
        keeping = {"with_solution": with_solution, "force": force}
        for name, made, text in puzzles:
            with stopping.deferred():  # a signal waits until the puzzle is whole and counted
                if folder is None:
                    click.echo(("\n" if finished else "") + text, nl=False)
                else:
                    generation.keep(folder, name, made, text, **keeping)
                finished += 1
            if not quiet:
                click.echo(reports.generated_line(made, name), err=folder is None)
    except stopping.TimeLimitReached as late:
        raise stopping.TimeLimitReached(f"{late}: {finished} of {count} puzzles finished") from None
    except KeyboardInterrupt:
        stopped = stopping.stopped_by()
        click.echo(f"hashi-asp: {stopped}: {finished} of {count} puzzles finished", err=True)
        sys.exit(stopping.exit_code())


# ---------------------------------------------------------------------------- serve


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, help="Port (0: any) [8000].")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the browser.")
@click.option("--workers", type=click.IntRange(min=1), help="Threads for the work [2 per core].")
@click.option("--time-limit", type=Finite(0.1, 3600), default=10, help="Per request [10 s].")
@click.option("--max-time-limit", type=Finite(0.1, 3600), default=60, help="Most a request asks.")
@click.option("--max-islands", type=click.IntRange(min=2), default=10_000, help="[10 000].")
@click.option("--max-bytes", type=click.IntRange(min=1024), default=1_000_000, help="Per request.")
def serve_command(host, port, open_browser, workers, time_limit, max_time_limit, **most):
    """Serve the workbench: a page to load, edit, play, explain, generate and export puzzles,
    and the JSON API under /api/ (POST /api/COMMAND with {"puzzle": ..., options}: the
    command's --format json document).  Listens on 127.0.0.1 (this machine only) unless --host
    says otherwise.  Needs the web extra: pip install 'hashi-asp[web]'.  Ctrl-C stops it."""
    try:
        from .web import api, app
    except ImportError as missing:
        package = (missing.name or "starlette").split(".")[0]
        needed = f"{package} is not installed"
        extra = "pip install 'hashi-asp[web]'"
        raise PuzzleError(f"serve needs the web extra ({needed}): {extra}") from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"hashi-asp: warning: {host} may let other machines use this server", err=True)
    limits = api.Limits(
        most["max_bytes"], most["max_islands"], time_limit=time_limit, max_time_limit=max_time_limit
    )
    ready = lambda url: click.echo(f"hashi-asp: serving {url} (Ctrl-C stops)", err=True)  # noqa: E731
    app.serve(host, port, open_browser=open_browser, limits=limits, workers=workers, on_ready=ready)


# ---------------------------------------------------------------------------- bench


@main.command("bench")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, help="Worker processes.")
@click.option("--unique", is_flag=True, help="Time the uniqueness verdict, not a first solution.")
@time_limit_option("Time limit per puzzle.", per_puzzle=True)
@click.option("--csv", "csv_file", type=FILE, help="Write one row per puzzle.")
@click.option("--json", "json_file", type=FILE, help="Write one object per puzzle.")
@PROGRAM
def bench_command(paths, jobs, unique, time_limit, csv_file, json_file, **program_options):
    """Solve every puzzle in PATHS (files, or folders searched for .has, .txt and .json) and
    report the times: per puzzle in --csv/--json, grouped like Table 1 of Coelho et al. (islands,
    beta, alpha) on standard output.  Exit 0 if every puzzle was solved and its answer passed
    the checker, 1 if any had no solution, failed the check or could not be read, 3 if any ran
    out of time."""
    from tqdm import tqdm

    from . import bench, reports
    from .asp.control import judge_program
    from .asp.interface import program_and_rules
    from .files import write_atomically

    program, rules = program_and_rules(**program_options)  # -c max_bridges=K: every puzzle's
    judge_program(program)
    files = bench.puzzle_files(paths)
    if not files:
        raise PuzzleError("no puzzle files found", " ".join(paths))
    stopped, started = False, time.perf_counter()
    options = {"jobs": jobs, "unique_verdict": unique, "time_limit": time_limit, "rules": rules}
    try:
        with tqdm(total=len(files), unit="puzzle", disable=None) as progress:
            tick = lambda row: progress.update()  # noqa: E731
            rows = bench.bench(files, program=program, on_row=tick, **options)
    except KeyboardInterrupt as cut:  # the rows finished, when the signal came while benching
        rows, stopped = getattr(cut, "rows", []), True
    # The rows of the puzzles finished are reported and written, also after an interruption.
    for path, text in ((csv_file, reports.bench_csv), (json_file, reports.bench_json)):
        if path:
            write_atomically(path, text(rows).encode("utf-8"))
    if rows:
        click.echo(reports.bench_summary(rows, time.perf_counter() - started))
    for row in rows:
        if row.error:
            click.echo(f"hashi-asp: {row.file}: {row.error}", err=True)
    if stopped:
        finished = f"{len(rows)} of {len(files)} puzzles finished"
        click.echo(f"hashi-asp: {stopping.stopped_by()}: {finished}", err=True)
        sys.exit(stopping.exit_code())
    if any(row.status in bench.FAILED for row in rows):
        sys.exit(EXIT_NO_SOLUTION)
    sys.exit(EXIT_TIME_LIMIT if any(row.status == "unknown" for row in rows) else 0)
