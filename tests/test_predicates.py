"""The interface between Python and the encodings, declared once (hashi_asp/asp/predicates.py):
the declaration agrees with the .lp files both ways, the table interface.py shows is the
declaration's, and no other module of the package writes or parses a predicate's name."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import clingo
import clingo.ast
import pytest
from conftest import REPO

from hashi_asp import asp
from hashi_asp.asp import interface, predicates
from hashi_asp.asp.predicates import (
    ASSUMED,
    EXTERNAL,
    HASHI_LP,
    HOOK,
    INPUT,
    OUTPUT,
    PARTS,
    PREDICATES,
    Predicate,
)

ENCODINGS = REPO / "encodings"
PACKAGE = REPO / "hashi_asp"
DECLARATION = PACKAGE / "asp" / "predicates.py"


# ---------------------------------------------------------------------------- reading .lp files


class Program:
    """What clingo's parser finds in files (with what they include): the atoms in rule heads
    and those read in bodies, ``#external``, ``#show``, ``#defined`` and ``#const`` names,
    and the parts (``#program``) each atom occurs in, by file."""

    def __init__(self, *names: str):
        self.defined: set[tuple[str, int]] = set()
        self.read: set[tuple[str, int]] = set()
        self.external: set[tuple[str, int]] = set()
        self.shown: set[tuple[str, int]] = set()
        self.undefined_ok: set[tuple[str, int]] = set()  # #defined
        self.constants: set[str] = set()
        self.parts: dict[str, int] = {}  # part name -> number of parameters
        self.where: dict[tuple[str, int], set[tuple[str, str]]] = {}  # -> (file, part)
        self.part = "base"
        self.files: set[str] = set()  # the files given and those they include
        paths = [str(ENCODINGS / name) for name in names]
        clingo.ast.parse_files(paths, self._statement)

    def _statement(self, statement: clingo.ast.AST) -> None:
        kind = statement.ast_type
        file = Path(statement.location.begin.filename).name
        self.file = file
        self.files.add(file)
        if kind == clingo.ast.ASTType.Program:
            self.part = statement.name
            if statement.name != "base":
                self.parts[statement.name] = len(statement.parameters)
        elif kind == clingo.ast.ASTType.ShowSignature:
            self.shown.add((statement.name, statement.arity))
        elif kind == clingo.ast.ASTType.Defined:
            self.undefined_ok.add((statement.name, statement.arity))
        elif kind == clingo.ast.ASTType.Definition:
            self.constants.add(statement.name)
        elif kind == clingo.ast.ASTType.External:
            self._visit(statement.atom, self.external)
            self._visit(statement.body, self.read)
        elif kind == clingo.ast.ASTType.Rule:
            self._visit(statement.head, self.defined)
            self._visit(statement.body, self.read)
        else:  # #edge, #minimize, #show with a term, #heuristic...: bodies only
            for key in statement.child_keys:
                self._visit(getattr(statement, key), self.read)

    def _visit(self, node: object, into: set) -> None:
        if isinstance(node, (list, tuple, clingo.ast.ASTSequence)):
            for child in node:
                self._visit(child, into)
            return
        if not isinstance(node, clingo.ast.AST):
            return
        kind = node.ast_type
        if kind == clingo.ast.ASTType.SymbolicAtom:
            signature = _signature(node.symbol)
            if signature is not None:
                into.add(signature)
                self.where.setdefault(signature, set()).add((self.file, self.part))
            return
        if kind == clingo.ast.ASTType.ConditionalLiteral:
            self._visit(node.literal, into)
            self._visit(node.condition, self.read)
            return
        if kind == clingo.ast.ASTType.BodyAggregateElement:
            self._visit(node.condition, self.read)
            return
        for key in node.child_keys:
            self._visit(getattr(node, key), into)


def _signature(term: clingo.ast.AST) -> tuple[str, int] | None:
    if term.ast_type == clingo.ast.ASTType.UnaryOperation:
        term = term.argument
    if term.ast_type == clingo.ast.ASTType.Function:
        return term.name, len(term.arguments)
    if term.ast_type == clingo.ast.ASTType.SymbolicTerm:
        return term.symbol.name, len(term.symbol.arguments)
    return None


# The programs Python loads: each formulation's files (whose interface is hashi.lp's), the
# helper files with hashi.lp, and the files loaded on their own.
PROGRAMS = [
    *(formulation.files for formulation in asp.FORMULATIONS.values()),
    (HASHI_LP, predicates.RELAX_LP),
    (HASHI_LP, predicates.CONSEQUENCES_LP),
    (HASHI_LP, predicates.ANOTHER_SOLUTION_LP),
    (predicates.STEP_LP,),
    (predicates.FIX_LP,),
    (predicates.SINGLE_EDIT_LP,),
]


def test_every_declared_predicate_is_in_its_encodings_in_its_role():
    for predicate in PREDICATES:
        for file in predicate.uses:
            program = Program(file)
            roles = predicate.roles(file)
            signature = predicate.signature
            everywhere = program.defined | program.read | program.external
            assert signature in everywhere, (predicate, file)
            if INPUT in roles:
                assert signature not in program.defined | program.external, (predicate, file)
            if OUTPUT in roles:
                assert signature in program.shown, (predicate, file)
            if EXTERNAL in roles:
                assert signature in program.external, (predicate, file)
            if ASSUMED in roles:
                assert signature in program.defined, (predicate, file)
            if HOOK in roles:
                assert signature in program.undefined_ok - program.defined, (predicate, file)
            if predicate.part is not None:
                assert {part for _, part in program.where[signature]} == {predicate.part}


def test_every_declared_part_and_constant_is_in_its_encoding():
    for part in PARTS:
        parameters = len(part.parameters.split(",")) if part.parameters else 0
        assert Program(part.file).parts.get(part.name) == parameters, part
    for constant in predicates.CONSTANTS:
        for file in constant.files:
            assert constant.name in Program(file).constants, (constant, file)


@pytest.mark.parametrize("files", PROGRAMS, ids=" ".join)
def test_every_predicate_python_must_give_or_reads_is_declared(files):
    """Read from the .lp files: what a program reads but never derives (Python must give it,
    unless a ``#defined`` says it may stay empty), its externals, its shown atoms and its
    parts are all declared for one of its files (a formulation's interface is hashi.lp's)."""
    program = Program(*files)
    names = {*program.files, HASHI_LP}

    def declared(signature: tuple[str, int], *roles: str) -> bool:
        return any(
            p.signature == signature and any(set(p.roles(f)) & set(roles) for f in names)
            for p in PREDICATES
        )

    given = program.read - program.defined - program.external - program.undefined_ok
    for signature in given:
        assert declared(signature, INPUT, HOOK), (signature, files)
    for signature in program.external:
        assert declared(signature, EXTERNAL), (signature, files)
    for signature in program.shown:
        assert declared(signature, OUTPUT), (signature, files)
    for name in program.parts:
        assert any(p.name == name and p.file in names for p in PARTS), (name, files)


def test_no_predicate_is_declared_twice_for_one_encoding():
    seen: dict[tuple[str, str, int], Predicate] = {}
    for predicate in PREDICATES:
        for file in predicate.uses:
            key = (file, *predicate.signature)
            assert key not in seen, (predicate, seen.get(key))
            seen[key] = predicate


def test_the_table_in_interface_is_the_declarations():
    shown = textwrap_block(interface.__doc__ or "")
    assert shown == predicates.table()


def textwrap_block(docstring: str) -> str:
    """The literal block after ``::`` in a docstring, its indentation removed."""
    _, _, after = docstring.partition("::\n\n")
    lines = []
    for line in after.splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    return "\n".join(lines).strip("\n") + "\n"


# ---------------------------------------------------------------------------- the package


def clingo_facing_names() -> set[str]:
    return {p.name for p in PREDICATES} | {p.name for p in PARTS}


# A fact whose name is built from a field: f"may_{kind}({r},{c})."
BUILT = re.compile(r"(?<![\w}])[a-z_]*\{\}\([^()]*\)\.")
CALLS = {"Function", "by_signature", "atoms", "ground", "ground_part", "add_parts", "append"}


def writes_or_parses(path: Path) -> Iterator[str]:
    """Where a module writes or parses an atom or a part of the encodings by name: a string
    (not a docstring) with a predicate's name and an opening bracket (a fact, an atom's text,
    a pattern to read one), a clingo symbol made by hand, a symbol's name compared with a
    predicate's, or a predicate's or part's name handed to clingo's calls."""
    tree = ast.parse(path.read_text(), str(path))
    names = clingo_facing_names()
    # name( or, in a pattern, name\( ; not a plural such as "island(s)"
    alternatives = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    opening = re.compile(rf"(?<![\w.])({alternatives})\\?\((?!s\))")
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    where = str(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):  # an f-string: its text between the fields
            text = "{}".join(v.value for v in node.values if isinstance(v, ast.Constant))
            if opening.search(text) or BUILT.search(text):
                yield f"{where}:{node.lineno}: writes {ast.unparse(node)}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings and opening.search(node.value):
                yield f"{where}:{node.lineno}: {node.value!r}"
        elif isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else ""
            called = node.func.id if isinstance(node.func, ast.Name) else called
            if called == "Function" and "clingo" in ast.unparse(node.func):
                yield f"{where}:{node.lineno}: makes {ast.unparse(node)}"
            if called in CALLS and _named(node.args, names):
                yield f"{where}:{node.lineno}: names {ast.unparse(node)}"
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "name" for s in sides) and _named(
                sides, names
            ):
                yield f"{where}:{node.lineno}: compares {ast.unparse(node)}"
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and node.value.value in names
            and all(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets)
        ):  # a second declaration of a name: GIVEN = "given"
            yield f"{where}:{node.lineno}: names {ast.unparse(node)}"


def _named(nodes: list[ast.expr], names: set[str]) -> bool:
    """A string constant among ``nodes`` (or in tuples, lists and sets of them) is a name."""
    for node in nodes:
        if isinstance(node, ast.Constant) and node.value in names:
            return True
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and _named(node.elts, names):
            return True
    return False


def test_no_module_but_the_declaration_writes_or_parses_a_predicate_name():
    found = [
        place
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != DECLARATION
        for place in writes_or_parses(path)
    ]
    assert found == []


@pytest.mark.parametrize(
    "code",
    [
        'text = f"kept({r},{c})."',
        'text = "mode(free).\\n"',
        "literal = grounded.literal(clingo.Function('relax', [1, 2]))",
        'found = [s for s in symbols if s.name == "add"]',
        'found = [s for s in symbols if s.name in ("add", "change")]',
        'pairs = grounded.atoms("relax", 2)',
        'waiting.append((f"seen_{a}", facts, "alternative", [a]))',
        'text = f"may_{edit.kind}({r},{c},{edit.new})."',
        'GIVEN = "given"',
        "match = re.fullmatch(r'bridge\\((\\d+)\\)', text)",
    ],
)
def test_the_search_finds_each_way_of_writing_or_parsing_a_name(code, tmp_path):
    (tmp_path / "module.py").write_text(code + "\n")
    assert list(writes_or_parses(tmp_path / "module.py"))


def test_domain_words_that_are_also_names_are_not_flagged(tmp_path):
    """An edit's kind, a JSON key or a word in a message is not a predicate written."""
    code = 'edit = Edit("add", cell, None, 3)\nrow = {"count": 2, "given": None}\n'
    code += 'message = f"add an island {n} at {place}"\nif kind == "remove": pass\n'
    (tmp_path / "module.py").write_text(code)
    assert list(writes_or_parses(tmp_path / "module.py")) == []
