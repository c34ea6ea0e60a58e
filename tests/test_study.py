"""``hashi-asp study``: variants read by the searching commands' own options, plans (one-off and
TOML), one committed and checked row per cell in real SQLite, resuming, refusing a changed
plan, the faults a study must survive (a memory limit, a broken encoding, Ctrl-C, a killed
client, a full disk) and the report.  Every command runs as a real process."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys

import processes
import pytest
import studies
from click.testing import CliRunner
from conftest import PIGEONS, PROGRAMS, PROLOG, PUZZLES
from studies import COELHO, HOG, count, descendants, rows, study

from hashi_asp import commands, read
from hashi_asp.cli import main
from hashi_asp.study import run
from hashi_asp.study.database import Database, StudyError, WriteError
from hashi_asp.study.plan import load, one_off, resolve
from hashi_asp.study.runs import COLUMNS, Task, perform
from hashi_asp.study.variants import VariantError, parse
from hashi_asp.workers.executors import Here

NYT = PUZZLES / "nyt-2022-04-03.json"  # one solution
FOUR = [COELHO / f"Hs_16_100_{b}_{a}_001.has" for b, a in (("25", "00"), ("75", "15"))]
FOUR += [COELHO / f"Hs_24_200_{b}_{a}_001.has" for b, a in (("25", "00"), ("75", "15"))]


# ---------------------------------------------------------------------------- variants


def test_a_variant_takes_the_searching_commands_options_with_their_messages():
    variant = parse("handy", '--connectivity tree --clingo "--configuration=handy" -c k=1')
    assert variant.program.connectivity == "tree"
    assert variant.program.options == ("--configuration=handy",)
    assert variant.program.constants == {"k": "1"}
    assert parse("rules", "--max-bridges 3 -c no_loops=1").rules == {
        "max_bridges": 3,
        "no_loops": True,
    }
    for options, message in [
        ("--connectivity foo", "variant v: Invalid value for '--connectivity': 'foo' is not one"),
        (
            "--max-bridges 99",
            "variant v: Invalid value for '--max-bridges': 99 is not in the range",
        ),
        ("--nope", "variant v: No such option '--nope'"),
        ('--clingo "--configuration=handy', "variant v: '--clingo \"--configuration=handy': No"),
        ("--encoding no/such.lp", "variant v: no/such.lp: no such file"),
    ]:
        with pytest.raises(VariantError) as refused:
            parse("v", options)
        said = str(refused.value)  # the variant's name, then the command line's own words
        assert said.startswith("variant v: ") and message.removeprefix("variant v: ") in said
    with pytest.raises(VariantError, match="variant name 'a b'"):
        parse("a b", "")


def test_a_variants_files_travel_with_it_includes_too(tmp_path):
    """A copy of hashi.lp names its parts by #include: they go along, so that a worker with no
    shared file system loads the same rules; messages name the files as the variant did."""
    for name in ("hashi.lp", "bridges.lp", "reachability.lp", "geometry.lp"):
        (tmp_path / name).write_text((PUZZLES.parent / "encodings" / name).read_text())
    variant = parse("mine", f"--encoding {tmp_path / 'hashi.lp'} --add {PROGRAMS / 'pairs.lp'}")
    shipped = dict(variant.files)
    assert sorted(shipped) == [
        "0/bridges.lp",
        "0/geometry.lp",
        "0/hashi.lp",
        "0/reachability.lp",
        "1/pairs.lp",
    ]
    assert shipped["0/bridges.lp"] == (tmp_path / "bridges.lp").read_text()
    worker = tmp_path / "worker"
    moved = variant.program_in(worker)
    assert moved.encoding == str(worker / "0/hashi.lp") and (worker / "0/geometry.lp").is_file()
    said = f"{worker / '0/bridges.lp'}:3:1: error"
    assert variant.as_given(said, worker) == f"{tmp_path / 'bridges.lp'}:3:1: error"
    before = variant.digest
    (tmp_path / "geometry.lp").write_text("% changed\n")
    assert parse("mine", variant.options).digest != before  # a changed include changes the plan


# ---------------------------------------------------------------------------- running


def test_every_cell_is_one_checked_row_committed_to_sqlite(tmp_path):
    database = tmp_path / "study.db"
    args = [database, *FOUR, PROLOG, NYT, "--task", "unique", "--repeat", "2", "-j", "2"]
    variants = ["--variant", "reach=--connectivity reach", "--variant", "tree=--connectivity tree"]
    done = study(*args, *variants, "--time-limit", "30", "--memory-limit", "2000")
    assert done.returncode == 0, done.stderr
    assert "24 of 24 cells have a row (24 run now" in done.stderr
    found = rows(database)
    cells = {(row["instance"], row["variant"], row["seed"]) for row in found}
    assert len(found) == len(cells) == 6 * 2 * 2
    assert {seed for _, _, seed in cells} == {1, 2}
    assert {row["status"] for row in found if row["instance"] == str(NYT)} == {"unique"}
    assert {row["status"] for row in found if row["instance"] != str(NYT)} == {"multiple"}
    for row in found:
        assert row["checked"] == 1  # every answer passed the checker: one, or two
        assert row["answers"] == (1 if row["status"] == "unique" else 2)
        assert row["wall"] > 0 and row["conflicts"] >= 0 and row["memory"] > 10
        assert row["task"] == "unique" and row["host"] and row["clingo"] and row["python"]
    named = next(row for row in found if row["instance"].endswith("Hs_16_100_75_15_001.has"))
    assert (named["islands"], named["size"], named["beta"], named["alpha"]) == (
        100,
        "16x16",
        0.75,
        0.15,
    )
    computed = next(row for row in found if row["instance"] == str(PROLOG))
    assert computed["islands"] == 7 and computed["alpha"] is not None
    schema = sqlite3.connect(database).execute("SELECT sql FROM sqlite_master").fetchall()
    assert any("UNIQUE (instance, variant, seed)" in sql for (sql,) in schema if sql)
    assert sqlite3.connect(database).execute("PRAGMA journal_mode").fetchone() == ("wal",)

    again = study(*args, *variants, "--time-limit", "30", "--memory-limit", "2000")
    assert again.returncode == 0 and "24 with a row already, 0 to run" in again.stderr
    assert rows(database) == found  # nothing run twice, nothing rewritten

    resumed = study(database)  # the database alone: its own plan
    assert resumed.returncode == 0 and "0 to run" in resumed.stderr

    changed = study(*args, "--variant", "reach=--connectivity lazy", "--time-limit", "30")
    assert changed.returncode == 2
    assert changed.stderr.count("\n") == 1
    assert "another plan (memory limit 2000 -> None; variant reach changed;" in changed.stderr
    assert "variant tree left out" in changed.stderr
    assert rows(database) == found

    report = json.loads(study("report", database, "--format", "json").stdout)
    for name in ("reach", "tree"):
        variant = report["variants"][name]
        mine = [row for row in found if row["variant"] == name]
        assert variant["runs"] == 12 and variant["solved"] == 12
        assert variant["max"] == pytest.approx(max(row["wall"] for row in mine), abs=1e-6)
        assert variant["mean"] == pytest.approx(sum(row["wall"] for row in mine) / 12, abs=1e-6)
        assert variant["par2"] == pytest.approx(variant["mean"])  # every run solved
    (pair,) = report["pairs"]
    assert pair["common"] == 12 and pair["wins"] + pair["losses"] + pair["ties"] == 12
    assert report["study"]["cells"] == 24 and report["study"]["time_limit"] == 30


def test_a_run_over_its_memory_limit_is_a_memout_row_and_a_broken_encoding_an_error_row(tmp_path):
    """The study goes on after both: the next runs are made by the same runners."""
    database = tmp_path / "faults.db"
    done = study(
        database,
        *FOUR[:1],
        "--variant",
        f"hog=--add {HOG}",
        "--variant",
        f"broken=--add {PROGRAMS / 'syntax_error.lp'}",
        "--variant",
        "plain=",
        "--memory-limit",
        "400",
        "--jobs",
        "1",
    )
    assert done.returncode == 0, done.stderr
    by_variant: dict[str, list[dict]] = {}
    for row in rows(database):
        by_variant.setdefault(row["variant"], []).append(row)
    assert [row["status"] for row in by_variant["hog"]] == ["memout"]
    assert all("memory limit of 400 MB" in row["message"] for row in by_variant["hog"])
    assert [row["status"] for row in by_variant["broken"]] == ["error"]
    for row in by_variant["broken"]:  # clingo's own message, naming the file as given
        assert row["message"].startswith(f"{PROGRAMS / 'syntax_error.lp'}:1:8-9: error: syntax")
        assert row["checked"] == 0
    assert [row["status"] for row in by_variant["plain"]] == ["solved"]
    assert "hashi-asp: hog: memout 1, first:" in done.stderr
    # A limit below what a run takes before any work: said at once, not a run that hangs.
    tiny = tmp_path / "tiny.db"
    assert study(tiny, PROLOG, "--memory-limit", "64", "--jobs", "1").returncode == 0
    (row,) = rows(tiny)
    assert row["status"] == "memout" and "MB of address space before any work" in row["message"]


def test_tasks_count_steps_and_difficulty(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(f'task = "count"\n[[instances]]\npaths = ["{PROLOG}", "{NYT}"]\n')
    assert study(tmp_path / "count.db", "--plan", plan).returncode == 0
    counted = {row["instance"]: row for row in rows(tmp_path / "count.db")}
    assert counted[str(PROLOG)]["status"] == "multiple"
    assert json.loads(counted[str(PROLOG)]["detail"]) == {"count": 2}
    assert counted[str(NYT)]["status"] == "unique" and counted[str(NYT)]["checked"] == 1
    for task in ("steps", "difficulty"):
        done = study(tmp_path / f"{task}.db", NYT, "--task", task)
        assert done.returncode == 0, done.stderr
        (row,) = rows(tmp_path / f"{task}.db")
        assert row["status"] == {"steps": "solved", "difficulty": "rated"}[task], row["message"]
        detail = json.loads(row["detail"])
        assert (detail["difficulty"] if task == "steps" else detail)["band"] in {
            "easy",
            "medium",
            "hard",
            "expert",
        }
    refused = study(tmp_path / "x.db", NYT, "--task", "steps", "--variant", "t=--connectivity tree")
    assert refused.returncode == 2 and "the steps task takes no program options" in refused.stderr


@pytest.mark.parametrize("task", ["solve", "unique", "fix", "count", "hint", "steps", "difficulty"])
def test_a_row_says_the_verdict_its_command_gives(tmp_path, task):
    """A run is its command's, run through the command's unit: for one solution, several and
    none, the row's status is the verdict the command line prints for the same puzzle, and a
    command that declares no detail of its own keeps the plain values of its document."""
    unsolvable = tmp_path / "unsolvable.txt"
    unsolvable.write_text("1 . 2\n")
    for puzzle in (NYT, PROLOG, unsolvable):
        record = perform(Task(str(puzzle), puzzle.read_text(), parse("default", ""), 1, task, 60))
        printed = CliRunner().invoke(main, [task, str(puzzle), "--format", "json"])
        document = json.loads(printed.stdout)
        assert record.status == document["status"], record.message
        assert record.answered and record.islands == len(read(puzzle).islands)
        if commands.command(task).detail is None:
            plain = {k: v for k, v in document.items() if isinstance(v, (bool, int, float, str))}
            del plain["status"]
            assert json.loads(record.detail) == plain


def test_a_task_gives_its_command_options_of_its_own(tmp_path):
    """``steps -n 1`` stops each walkthrough after one step, as on the command line; a task may
    not say what the plan gives (the rules, the program, the format, the time limit) or name a
    file, and says which option it refused."""
    database = tmp_path / "one.db"
    done = study(database, NYT, PROLOG, "--task", "steps -n 1")
    assert done.returncode == 0, done.stderr
    assert [row["status"] for row in rows(database)] == ["unfinished", "unfinished"]
    assert all(json.loads(row["detail"])["steps"] == 1 for row in rows(database))
    verdict = study(tmp_path / "two.db", PROLOG, "--task", "unique --no-propose")
    assert verdict.returncode == 0 and rows(tmp_path / "two.db")[0]["status"] == "multiple"
    for task in ("unique --encoding x.lp", "steps --format json", "solve --max-bridges 3"):
        refused = study(tmp_path / "three.db", PROLOG, "--task", task)
        option = task.split()[1]
        assert refused.returncode == 2 and f"No such option '{option}'" in refused.stderr
        assert refused.stderr.count("\n") == 1 and not (tmp_path / "three.db").exists()


def test_a_plan_file_with_generated_instances_and_seeds(tmp_path):
    (tmp_path / "set").mkdir()
    for path in FOUR[:2]:
        (tmp_path / "set" / path.name).write_text(path.read_text())
    plan = tmp_path / "plan.toml"
    plan.write_text(
        "seeds = [3, 5]\ntime_limit = 20\n"
        '[[instances]]\npaths = ["set"]\n'
        "[[instances]]\ngenerate = { islands = 30, beta = 0.5, seed = 7, count = 2 }\n"
        '[variants]\nreach = "--connectivity reach"\n'
    )
    database = tmp_path / "plan.db"
    done = study(database, "--plan", plan, cwd="/")  # paths are the plan file's
    assert done.returncode == 0, done.stderr
    found = rows(database)
    names = sorted({row["instance"] for row in found})
    assert (
        names[:2]
        == sorted(f"generated/Hs_{s}_30_50_10_00{n}.has" for s, n in (("10", 7), ("10", 8)))
        or len(names) == 4
    )
    assert [name for name in names if name.startswith("set/")] == [
        f"set/{p.name}" for p in FOUR[:2]
    ]
    assert len(found) == 4 * 2 and {row["seed"] for row in found} == {3, 5}
    assert all(row["status"] == "solved" and row["checked"] == 1 for row in found)
    # The same plan makes the same instances: running it again has nothing to do.
    assert "0 to run" in study(database, "--plan", plan).stderr
    mixed = study(database, "--plan", plan, "--jobs", "1", FOUR[0])
    assert mixed.returncode == 2 and "--plan says what PATHS would" in mixed.stderr


@pytest.mark.parametrize(
    "text, message",
    [
        ("tasks = 1\n", "plan.toml: unknown key 'tasks' (known: instances, memory_limit,"),
        ("task = solve\n", "plan.toml: Invalid value (at line 1, column 8)"),
        ('task = "solve"\n', "plan.toml: expected [[instances]] with paths or generate"),
        ('[[instances]]\npaths = ["nowhere"]\n', "nowhere: no such file or directory"),
        ('task = "race"\n[[instances]]\npaths = ["."]\n', "task 'race': expected one of solve,"),
        ("[[instances]]\ngenerate = {islands = 1}\n", "plan.toml: instances 1: generate: islands"),
        ('[[instances]]\npaths = ["."]\n[variants]\nx = "--seed"\n', "No such option '--seed'"),
        ('[[instances]]\npaths = ["."]\n[variants]\nx = "--clingo --seed=2"\n', "--seed is the"),
    ],
)
def test_a_bad_plan_is_one_line_and_exit_2(tmp_path, text, message):
    (tmp_path / "a.txt").write_text(PROLOG.read_text())
    (tmp_path / "plan.toml").write_text(text)
    done = study(tmp_path / "s.db", "--plan", tmp_path / "plan.toml", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert not (tmp_path / "s.db").exists()


def test_what_is_not_a_study_database_is_refused_and_left_alone(tmp_path):
    notes = tmp_path / "notes.db"
    notes.write_text("my notes\n")
    done = study(notes, PROLOG)
    assert done.returncode == 2 and done.stderr.startswith(f"hashi-asp: {notes}: cannot use it")
    assert notes.read_text() == "my notes\n"
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE mine (x)").connection.commit()
    assert "an SQLite database, but not a study's" in study(other, PROLOG).stderr
    missing = study("report", tmp_path / "none.db")
    assert missing.returncode == 2 and "none.db: no such study database" in missing.stderr
    assert not (tmp_path / "none.db").exists()
    both = study(tmp_path / "s.db", PROLOG, "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert both.returncode == 2 and "not both" in both.stderr


def test_without_the_cluster_extra_scheduler_names_it(tmp_path):
    code = (
        "import sys; sys.modules['distributed'] = None\n"
        "from hashi_asp.cli import main\n"
        f"main(['study', 'run', {str(tmp_path / 's.db')!r}, {str(PROLOG)!r},"
        " '--scheduler', 'tcp://127.0.0.1:1'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == (
        "hashi-asp: --scheduler needs the cluster extra (dask.distributed is not installed): "
        "pip install 'hashi-asp[cluster]'\n"
    )


# ---------------------------------------------------------------------------- stopping


def slow_study(database, jobs=1):
    """Four instances, each run fast and then slow (the pigeons keep it busy until its time
    limit of a second), one job: the rows come one by one."""
    variants = ["--variant", "fast=", "--variant", f"slow=--add {PIGEONS}"]
    return [database, *FOUR, *variants, "--time-limit", "1", "--jobs", str(jobs)]


def live() -> set[int]:
    return set(studies.processes())


def test_ctrl_c_keeps_every_finished_row_and_running_again_finishes(tmp_path):
    database = tmp_path / "stopped.db"
    process = processes.start("study", "run", *slow_study(database))
    try:
        processes.wait_for(lambda: count(database) >= 2, "two rows committed")
        mine = descendants(process.pid)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    kept = rows(database)
    assert 2 <= len(kept) < 8
    assert err.strip().splitlines()[-1] == (
        f"hashi-asp: interrupted: {len(kept)} of 8 cells have a row; "
        f"`hashi-asp study run {database}` goes on from there"
    )
    processes.wait_for(lambda: not mine & live(), "the runner and its run ended")
    resumed = study(*slow_study(database, jobs=2))  # the jobs are not part of the plan
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(kept)} with a row already, {8 - len(kept)} to run" in resumed.stderr
    final = rows(database)
    assert final[: len(kept)] == kept  # the rows before, untouched
    assert len({(r["instance"], r["variant"], r["seed"]) for r in final}) == len(final) == 8
    assert {r["status"] for r in final if r["variant"] == "slow"} == {"unknown"}


def test_a_killed_client_keeps_its_rows_and_leaves_no_run_behind(tmp_path):
    database = tmp_path / "killed.db"
    process = processes.start("study", "run", *slow_study(database))
    try:
        processes.wait_for(lambda: count(database) >= 2, "two rows committed")
        mine = descendants(process.pid)
        assert mine, "the study has its runner and its run"
        process.kill()
        process.communicate(timeout=60)
    finally:
        process.kill()
    processes.wait_for(lambda: not mine & live(), "the runner and its run ended with the client")
    assert len(rows(database)) >= 2
    check = sqlite3.connect(database).execute("PRAGMA integrity_check").fetchone()
    assert check == ("ok",)


def test_a_full_disk_is_one_line_and_the_rows_before_stay(tmp_path):
    """SQLite's own limit on the file's pages stands in for a full disk: the same error."""
    spec = one_off([str(PROLOG), str(NYT)], [], repeat=20)  # more rows than a page holds
    plan = resolve(spec)
    database = Database(tmp_path / "full.db", create=True)
    database.adopt(spec, plan.fingerprint())
    pages = database.connection.execute("PRAGMA page_count").fetchone()[0]
    database.connection.execute(f"PRAGMA max_page_count = {pages + 1}")
    with pytest.raises(WriteError) as full:
        run(plan, Here(), database)
    message = str(full.value)
    assert "\n" not in message and "database or disk is full" in message
    written = database.written
    assert 1 <= written < 40 and f"the {written} rows written before it are kept" in message
    database.close()
    assert len(rows(tmp_path / "full.db")) == written


# ---------------------------------------------------------------------------- reports


def test_the_report_in_each_format(tmp_path):
    database = tmp_path / "r.db"
    variants = ["--variant", "reach=--connectivity reach", "--variant", "lazy=--connectivity lazy"]
    assert study(database, *FOUR[::3], *variants, "--time-limit", "20").returncode == 0
    found = rows(database)
    text = study("report", database).stdout
    assert text.startswith("task solve, 4 rows of 4 cells, seeds 1, time limit 20 s")
    assert "variant reach: 2 runs, 2 solved (2 solved)" in text
    assert "islands  beta%  alpha%  runs  solved  mean s   max s" in text
    markdown = study("report", database, "--format", "markdown").stdout
    assert "| islands | beta% | alpha% | runs | solved | mean s | max s |" in markdown
    table = study("report", database, "--format", "csv").stdout.splitlines()
    assert table[0] == "variant,islands,beta,alpha,runs,solved,mean,max,par2"
    assert sum(line.startswith("reach,") for line in table) == 2 + 2 + 1  # groups, n, all
    document = json.loads(study("report", database, "--format", "json").stdout)
    (pair,) = document["pairs"]
    walls = {(r["instance"], r["variant"]): r["wall"] for r in found}
    wins = sum(walls[(i, "lazy")] < walls[(i, "reach")] for i, _ in walls if _ == "reach")
    assert (pair["a"], pair["b"], pair["wins"]) == ("reach", "lazy", wins)


def test_columns_the_conventions_name():
    assert {"instance", "variant", "seed", "status", "wall", "conflicts", "checked"} <= set(COLUMNS)
    with pytest.raises(StudyError, match="no such plan file"):
        load("no/such/plan.toml")


def test_a_task_is_any_command_that_reads_a_puzzle_and_gives_a_verdict():
    from hashi_asp.study import command as study

    tasks = ["solve", "unique", "fix", "count", "hint", "steps", "difficulty"]
    assert list(commands.TASKS) == tasks
    assert all(task in study.RUN.option("task").help for task in tasks)
    assert "check" not in commands.TASKS and "generate" not in commands.TASKS


# ---------------------------------------------------------------------------- runners


def test_a_runner_that_reads_nothing_holds_up_no_one_and_overstaying_ends_it():
    """Tasks larger than a pipe holds are handed over without waiting for the runner to read
    them, so its parent stays free to end a run that overstays its limit (a runner stopped
    here stands for one stuck in work that cannot be interrupted)."""
    import os
    import threading

    from hashi_asp.study.runs import Task
    from hashi_asp.workers.runners import Runner

    variant = parse("reach", "--connectivity reach")
    text = PROLOG.read_text() + "\n" * 2_000_000  # over any pipe's buffer
    runner = Runner()
    os.kill(runner.process.pid, signal.SIGSTOP)
    try:
        sent = threading.Event()

        def send_two() -> None:
            runner.send(Task(str(PROLOG), text, variant, seed=1, time_limit=0.2))
            runner.send(Task(str(PROLOG), text, variant, seed=2))  # no limit: waited for
            sent.set()

        threading.Thread(target=send_two, daemon=True).start()
        assert sent.wait(120), "sending to a runner that reads nothing held up its parent"
        while not runner.overdue():
            sent.wait(0.05)
        record = runner.finish()  # ends the stopped runner; a new one takes the next task
        assert record.status == "unknown" and "after its time limit" in record.message
        assert runner.task is not None and runner.task.seed == 2
        following = runner.finish()
        assert following.seed == 2
        assert following.status == "solved" and following.checked == 1
    finally:
        runner.close(kill=True)
