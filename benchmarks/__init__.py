"""The performance suite: ``python -m benchmarks --out bench-output`` (``make bench``).

Each module measures one thing and returns report lines (value, target, PASS/MISS):

- :mod:`benchmarks.clicks`: a click through the table service to the built answer, with 200 live
  tables on a file SQLite database, and the throughput of concurrent clicks;
- :mod:`benchmarks.render`: board render time and PNG size per seat count;
- :mod:`benchmarks.engine`: random playouts (actions per second) and AI decision time;
- :mod:`benchmarks.winrate`: the Coup AI's win rate against seats that play random legal moves;
- :mod:`benchmarks.masti`: the same for «Масти Власти» (render, playouts, AI decisions, win rate);
- :mod:`benchmarks.balance`: game balance from all-AI playouts of every setting of every game
  (seat position, endings, length, per-card numbers; ``make balance``).

They are not run as timed tests; ``tests/benchmarks`` only checks that each one runs at tiny sizes.
"""
