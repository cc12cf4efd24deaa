"""``contract.load``: one reader for every shape a task travels in.

Seven parsers used to read tasks, each its own set of shapes (``rollout.episode.as_task``,
``rollout.verl.as_task``, ``rollout.trl.task_of``, ``querygen.out.export._task``,
``rewards.adapters.as_task``, ``servers.binding.parse_task``, ``rewards.tasks.prepare_task``).
Every shape their tests fed them is read here by ``load_task``, from rows the real writers make,
plus the format before the shown fields were typed, plus bad input that must be refused clearly.
"""

from __future__ import annotations

import json
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from contract import TaskShapeError, load_task, load_task_cached, load_tasks
from contract.messages import messages, prompt
from contract.rows import verl_row
from contract.task import DEFAULT_SYSTEM_PROMPT, GoldCall, SnapshotRef, Task, Turn
from querygen.out.export import jsonl_bytes, turn_lines, write_dataset
from rewards import TaskError, prepare_task
from servers.binding import BindRefused, parse_task
from tests.test_reward_adapters import TASK as ADAPTER_MINIMAL
from tests.test_reward_service import MINI as SERVICE_MINIMAL

POLICY = {
    "kind": "confirmation",
    "marks": [],
    "confirm": [
        {
            "turn": 1,
            "domain": "banking",
            "rule": 2,
            "slug": "confirm-transfers",
            "tools": ["banking_transfer"],
        }
    ],
}


def _task(task_id: str = "tg-0123456789abcdef") -> Task:
    return Task(
        id=task_id,
        domains=["banking"],
        snapshots=[
            SnapshotRef(domain="banking", seed=0, scale="small", sha256="ab" * 32, variant="logged_out")
        ],
        turns=[
            Turn(
                user="Send 10 from my checking.",
                calls=[GoldCall(name="banking_transfer", arguments={"pin": "0978"})],
            ),
            Turn(
                user="And the balance?", calls=[GoldCall(name="banking_get_balance", result={"balance": 3.5})]
            ),
        ],
        dependencies=[(0, 1)],
        tools=[{"type": "function", "function": {"name": "banking_transfer", "parameters": {}}}],
        expected_state_hash="cd" * 32,
        expected_diff=[{"domain": "banking", "table": "accounts", "pk": "ACC-1", "op": "update"}],
        metadata={"chain": ["banking_transfer"], "knobs": {"distractors": 0}},
        system_prompt="You are an assistant for a bank.",
        policy=POLICY,
    )


@pytest.fixture
def task() -> Task:
    return _task()


def _dataset_rows(task: Task) -> dict[str, object]:
    """Every wrapping of one task the old parsers were fed, named by who fed it."""
    text = task.model_dump_json()
    jsonl_row = json.loads(jsonl_bytes([task]))
    hf_row = verl_row(task, 0)
    return {
        "Task (episode, verl, trl, prepare_task)": task,
        "dict (episode, verl, trl, binding)": task.model_dump(mode="json"),
        "JSON text (episode, verl ground truth, prepare_task)": text,
        "JSON bytes (trl, binding request body)": text.encode(),
        "tasks.jsonl row, ground_truth as text (export, trl, binding, adapters)": jsonl_row,
        "tasks.jsonl row as a line of text (binding, eval)": jsonl_bytes([task]).decode(),
        "older row, ground_truth as an object (export, adapters)": {
            "ground_truth": task.model_dump(mode="json")
        },
        "binding row {id, ground_truth}": {"id": task.id, "ground_truth": text},
        "verl/hf row, reward_model.ground_truth (trl, binding)": hf_row,
        "TRL column {task: text} (trl, adapters)": {"task": text},
        "TRL column {task: object}": {"task": task.model_dump(mode="json")},
        "turns.jsonl row (prompt + tasks.jsonl row)": json.loads(next(turn_lines([task]))),
        "a row in a row": {"task": {"ground_truth": text}},
    }


def test_every_shape_the_old_parsers_read_gives_the_same_task(task):
    for name, row in _dataset_rows(task).items():
        assert load_task(row) == task, name
        assert load_task_cached(row) == task, name


def test_the_writers_rows_round_trip_through_files(task, tmp_path):
    other = _task("tg-fedcba9876543210")
    write_dataset(tmp_path, [task, other], ["jsonl", "parquet", "hf"])
    assert load_tasks(tmp_path) == [task, other]  # the folder: its tasks.jsonl
    assert load_tasks(tmp_path / "tasks.jsonl") == [task, other]
    assert load_tasks(tmp_path / "train.parquet") == [task, other]
    (tmp_path / "tasks.jsonl").unlink()
    assert load_tasks(tmp_path) == [task, other]  # no tasks.jsonl: the parquet
    (tmp_path / "train.parquet").unlink()
    assert load_tasks(tmp_path) == [task, other]  # then hf/
    plain = tmp_path / "plain.jsonl"
    plain.write_text(task.model_dump_json() + "\n\n" + other.model_dump_json() + "\n")
    assert load_tasks(plain) == [task, other]  # a JSONL of bare Tasks, blank lines skipped


def test_the_shown_fields_are_typed_and_drive_the_views(task):
    assert task.system_prompt == "You are an assistant for a bank." and task.policy == POLICY
    earlier = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]
    later = task.model_copy(update={"history": earlier})
    assert messages(later)[:3] == [{"role": "system", "content": task.system_prompt}, *earlier]
    assert prompt(later)[-1] == {"role": "user", "content": task.turns[0].user}
    bare = Task(id="x", domains=[], turns=[Turn(user="hi")])
    assert (bare.system_prompt, bare.history, bare.policy) == (DEFAULT_SYSTEM_PROMPT, [], None)
    assert "system_prompt" not in task.metadata and "policy" not in task.metadata


def test_an_old_row_with_the_shown_fields_in_metadata_still_loads(task):
    history = [{"role": "user", "content": "earlier"}]
    new = task.model_copy(update={"history": history})
    old = new.model_dump(mode="json")
    for key in ("system_prompt", "history", "policy"):
        old["metadata"][key] = old.pop(key)
    with pytest.warns(DeprecationWarning, match="regenerate"):
        assert load_task({"ground_truth": json.dumps(old)}) == new
    with pytest.warns(DeprecationWarning):  # every reader sees the same promotion
        assert prepare_task(json.dumps(old)).confirm == prepare_task(new).confirm != ()
    legacy_none = {**old, "metadata": {**old["metadata"], "history": None}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert load_task(legacy_none).history == []
    both = {**old, "policy": POLICY}
    with pytest.raises(TaskShapeError, match="policy given both as a field and in metadata"):
        load_task(both)


BAD = {
    "not JSON": ("{not json", "not valid JSON"),
    "JSON that is no object": ("[1, 2]", "not a task: got list"),
    "a row whose ground truth is no task": ({"id": "x", "ground_truth": "[1, 2]"}, "not a task: got list"),
    "broken JSON inside a row": ({"ground_truth": "{oops"}, "not valid JSON at ground_truth"),
    "an object without turns": ({"calls": []}, "needs 'turns'"),
    "an empty object in the ground truth": ({"ground_truth": "{}"}, "needs 'turns'"),
    "a field of the wrong type": ({"id": "x", "domains": [], "turns": [{"user": 5}]}, "turns.0.user"),
    "a key the contract does not have": ({"id": "x", "domains": [], "turns": [], "surprise": 1}, "surprise"),
    "NaN is not JSON": ('{"id": "x", "domains": [], "turns": [], "expected_state_hash": NaN}', "NaN"),
    "nothing at all": (None, "not a task: got NoneType"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_refused_naming_the_problem_and_the_shapes(case):
    value, needle = BAD[case]
    with pytest.raises(TaskShapeError) as err:
        load_task(value)
    assert needle in str(err.value), str(err.value)
    if str(err.value).startswith("not a task"):
        assert "reward_model.ground_truth" in str(err.value)  # the allowed shapes are named


def test_a_bad_line_names_its_file_and_line(task, tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(task.model_dump_json() + "\n" + '{"ground_truth": "{}"}\n')
    with pytest.raises(TaskShapeError, match=r"t\.jsonl:2: not a task"):
        load_tasks(path)
    with pytest.raises(FileNotFoundError, match="no tasks at"):
        load_tasks(tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="holds no tasks.jsonl"):
        load_tasks(tmp_path)


def test_the_reward_reads_the_same_shapes_and_its_minimal_tasks(task):
    for name, row in _dataset_rows(task).items():
        prepared = prepare_task(row)
        assert (prepared.id, prepared.source, len(prepared.gold)) == (task.id, "task", 2), name
        assert prepared.snapshots == tuple(task.snapshots) and prepared.confirm, name
    for minimal in (ADAPTER_MINIMAL, SERVICE_MINIMAL):
        for wrapped in (
            minimal,
            json.dumps(minimal),
            {"task": minimal},
            {"ground_truth": json.dumps(minimal)},
        ):
            prepared = prepare_task(wrapped)
            assert (prepared.id, prepared.source) == (minimal.get("id"), "minimal")
            assert prepared.final_turn is None and prepared.prereqs == ((), (0,))
    with pytest.raises(TaskError, match="'turns'.*'gold_calls'"):
        prepare_task({"calls": []})
    with pytest.raises(TaskError, match="not valid JSON") as err:
        prepare_task("{not json")
    assert err.value.detail[0]["loc"][0] == "task"


def test_the_server_keeps_a_view_and_refuses_what_is_no_task(task):
    view = parse_task(json.loads(jsonl_bytes([task])))
    assert (view.id, view.snapshots, view.tools, view.setup) == (
        task.id,
        tuple(task.snapshots),
        tuple(task.tools),
        (),
    )
    for body, needle in ((b"{not json", "not a task"), ({"id": "x", "ground_truth": "[1, 2]"}, "not a task")):
        with pytest.raises(BindRefused, match=needle) as err:
            parse_task(body)
        assert err.value.status == 400
    nameless = task.model_copy(update={"tools": [{"function": {"description": "no name"}}]})
    with pytest.raises(BindRefused, match=r"tools\.0\.function\.name"):
        parse_task(nameless.model_dump(mode="json"))


def test_the_parquet_row_carries_the_task_as_text(task, tmp_path):
    """``datasets`` retypes an object's values across rows, so the hf row keeps text (and loads)."""
    row = verl_row(task, 0)
    assert isinstance(row["reward_model"]["ground_truth"], str)
    path = tmp_path / "rows.parquet"
    pq.write_table(pa.Table.from_pylist([row]), path)
    assert load_tasks(path) == [task]
