"""Scale-out on Dask: independent checks, mutants and loop candidates on a cluster.

Work is cut into units of plain data (a model reference, a scenario, the
item to do, engine options): one unit per (system, scenario) for ``check``,
one per mutant for ``mutants``, one per encoded loop candidate for
``loops``.  :func:`run_units` runs them in-process (no Dask import) or on a
``distributed.LocalCluster`` / an existing Dask scheduler, and returns the
results in unit order; a unit whose worker dies or that times out comes back
UNKNOWN with the reason.  Z3 objects never cross a process boundary: each
worker rebuilds what it needs and caches it per process.

Modules: :mod:`.executor` (:func:`run_units`, :class:`Fault`), :mod:`.systems`
(model references, the per-process system cache), :mod:`.check`,
:mod:`.mutants` (the units and drivers of those commands); the loop
search's units and driver are :mod:`ruleproof.loops.driver`, above this package.
"""

from __future__ import annotations

from .executor import Fault, run_units

__all__ = ["Fault", "run_units"]
