"""Runs where ``skyrl-gym`` is installed (``.venv-verl``): toolground's SkyRL ``BaseTextEnv`` via skyrl_gym.

Usage: python verl_skyrl.py DATASET_DIR -> prints one JSON line with what it saw.

Each task is replayed as SkyRL's generator would drive it: ``skyrl_gym.make`` with the row as
``extras``, ``init``, then ``step`` with each reference assistant message in Hermes text; every
observation must be the next message of the task's reference Hermes conversation.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(dataset: Path) -> None:
    import skyrl_gym
    from skyrl_gym.envs.base_text_env import BaseTextEnv

    from contract.harnesses import HermesHarness, render_task
    from contract.load import load_tasks
    from contract.messages import messages
    from rollout.conversation import Conversation
    from rollout.episode import TaskEpisode
    from rollout.skyrl import register

    register()
    rows = []
    for task in load_tasks(dataset):
        row = {"reward_spec": {"method": "rule", "ground_truth": task.model_dump_json()}}
        env = skyrl_gym.make("toolground", env_config={"preset": "prove+outcome"}, extras=row)
        wire = render_task(task, HermesHarness())
        prompt, _ = env.init([])
        same_replies, reward, done, metrics = True, None, False, {}
        for i, m in enumerate(wire):
            if m["role"] != "assistant" or done:
                continue
            out = env.step(m["content"])
            done, reward, metrics = out["done"], out["reward"], out["metadata"]
            if not done:
                same_replies &= out["observations"] == [wire[i + 1]]
        episode = TaskEpisode(task)
        rows.append(
            {
                "task_id": task.id,
                "kind": task.kind,
                "turns": len(task.turns),
                "base": isinstance(env, BaseTextEnv),
                "prompt_is_reference": prompt == wire[:2],
                "observations_are_reference": same_replies,
                "done": done,
                "reward": reward,
                "inproc": Conversation(episode).score(messages(task), "prove+outcome").total,
                "state_match": metrics.get("state_match"),
            }
        )
        episode.close()
        env.close()

    task = next(t for t in load_tasks(dataset) if t.gold_calls())
    env = skyrl_gym.make("toolground", extras={"reward_spec": {"ground_truth": task.model_dump_json()}})
    env.init([])
    bad = env.step(
        '<tool_call>\n{"name": "banking_get_balance", "arguments": {"account": "ACC-999999"}}\n</tool_call>'
    )
    junk = env.step("<tool_call>\n{not json\n</tool_call>")
    print(
        json.dumps(
            {"rows": rows, "bad": bad["observations"], "junk": junk["observations"], "done": junk["done"]}
        )
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
