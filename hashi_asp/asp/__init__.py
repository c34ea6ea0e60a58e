"""The only code that knows clingo.

- :mod:`.interface`: what clingo is given (the encoding's files, the puzzle as facts, the rules
  as constants) and what comes back (answer sets as solutions, pair states): the one place
  that knows the encodings' predicate names.
- :mod:`.control`: the one owner of ``clingo.Control``: ground a puzzle, search it with a
  deadline and Ctrl-C, hand each model on as it comes (checked before anyone sees it), shrink
  unsatisfiable cores, report statistics.
- :mod:`.connectivity`: connectivity as lazy cuts, a clingo propagator.
- :mod:`.portfolio`: a race of formulations and clingo options in worker processes.
"""

CONNECTIVITY = ("auto", "reach", "tree", "lazy", "race")
"""How connectivity is stated: ``reach``, by reachability in the encoding (``hashi.lp``);
``tree``, by a spanning tree under clasp's acyclicity check (``bridges.lp`` and ``tree.lp``);
``lazy``, by cuts a propagator adds when a candidate falls apart (``bridges.lp`` and
:mod:`.connectivity`); ``auto``, the one the puzzle's numbers suggest
(:func:`.interface.chosen`); ``race``, several of them at once in worker processes, the first
answer winning (:mod:`.portfolio`).  Here, not in :mod:`.interface`, so that the command line
can offer the choice without importing clingo."""
