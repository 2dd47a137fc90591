"""nl2sqlbench from Python: judge NL2SQL predictions with the nl2sqlbench binary this
package carries, and read its runs.

    import nl2sqlbench
    run = nl2sqlbench.evaluate("spider:data/spider", {"DAIL": "predictions/DAIL.txt"})
    print(run.scores())

Every number comes from the binary's own files (summary.json, records.jsonl); nothing
is recomputed or parsed from terminal text. Failures raise nl2sqlbench.Error with the
tool's message and exit status.
"""

from ._errors import Error
from ._evaluate import Comparison, compare, evaluate
from ._run import Run, Score, Scores, open_run
from ._version import __version__

__all__ = ["Error", "Comparison", "Run", "Score", "Scores", "compare", "evaluate", "open_run", "__version__"]
