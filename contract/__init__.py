"""The Task contract, on the bottom floor beside ``state``: what a task is and how a model sees it.

* :mod:`contract.task` — ``Task``, ``Turn``, ``GoldCall``, ``SnapshotRef`` and the facts a correct
  answer states (shared by the generator's reference answers and the reward's outcome term);
* :mod:`contract.load` — ``load_task`` / ``load_tasks``: the one reader of task rows and files;
* :mod:`contract.messages` — the reference conversation, a rollout's prompt, compact JSON, atomic writes;
* :mod:`contract.harnesses` — one conversation in the openai / hermes / react protocols, and back;
* :mod:`contract.page` — the stylesheet, message block and bar chart every HTML page shares.

It imports pydantic and the standard library only; ``servers``, ``querygen``, ``rewards`` and
``rollout`` all read tasks through it and none of them through another (tests/test_contract_layers.py).
"""

from contract.load import TaskShapeError, iter_tasks, load_task, load_task_cached, load_tasks
from contract.task import GoldCall, SnapshotRef, Task, TaskKind, Turn

__all__ = [
    "GoldCall",
    "SnapshotRef",
    "Task",
    "TaskKind",
    "TaskShapeError",
    "Turn",
    "iter_tasks",
    "load_task",
    "load_task_cached",
    "load_tasks",
]
