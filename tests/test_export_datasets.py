"""``tasks.jsonl`` loaded the way trainers load it: Hugging Face ``datasets.load_dataset("json")``.

Arrow gives every field one type across all rows, so a Task carried as a JSON object comes back
retyped wherever rows disagree: a PIN "0978" in one banking task's diff and a number in another's
become the integer 978. The export carries the Task as a JSON string; these tests show the
object form really is corrupted by ``datasets`` and the string form is not, and that perfect
rollouts of the loaded rows score the preset maximum.
"""

from __future__ import annotations

import json
import os

import pytest

datasets = pytest.importorskip("datasets", reason="`make test` installs datasets with the test extras")

from querygen.generate import GenConfig, Generator  # noqa: E402
from querygen.out.export import jsonl_bytes  # noqa: E402
from rewards import score  # noqa: E402

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")  # a local file: nothing may be fetched


@pytest.fixture(scope="module")
def tasks(snapshot_cache):
    made, _ = Generator(GenConfig(domains=("banking",), n=120, seed=4, scale="small"), snapshot_cache).run()
    return made


def _load(path):
    return datasets.load_dataset("json", data_files=str(path), split="train")


def test_a_task_carried_as_an_object_is_retyped_by_datasets(tasks, tmp_path):
    old = tmp_path / "objects.jsonl"
    old.write_text("".join(json.dumps({"ground_truth": t.model_dump(mode="json")}) + "\n" for t in tasks))
    loaded = _load(old)
    changed = [
        i
        for i, (t, row) in enumerate(zip(tasks, loaded, strict=True))
        if row["ground_truth"]["expected_diff"] != t.model_dump(mode="json")["expected_diff"]
    ]
    assert changed, "the control lost its point: no task's values were retyped"


def test_the_export_survives_load_dataset_and_scores_the_maximum(tasks, tmp_path):
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(jsonl_bytes(tasks))
    loaded = _load(path)
    assert len(loaded) == len(tasks)
    for task, row in zip(tasks, loaded, strict=True):
        assert json.loads(row["ground_truth"]) == json.loads(task.model_dump_json())
        result = score(row["ground_truth"], row["messages"][1:], "prove+outcome")
        best = 1.0 if task.kind == "abstain" or not task.gold_calls() else 1.8
        if task.kind == "tool":
            assert result.total == pytest.approx(best), (task.id, result.components)
