"""GRPO with TRL on toolground tasks: the model's tool calls run against each task's own world.

On a GPU machine (any model whose chat template TRL knows: Qwen2.5/3, Llama 3.1/3.2, ...):

    pip install -e '.[train]'       # TRL 1.16 and its stack; the torch build for your GPU as usual
    toolground generate --domains banking --n 2000 --scale small --format parquet,turns --out data/
    python examples/train_trl.py data/ --model Qwen/Qwen2.5-0.5B-Instruct
    # or the tools on a server:  toolground serve --domains banking --scale small --port 8000 &
    #                            python examples/train_trl.py data/ --mcp http://127.0.0.1:8000/mcp

``environments()`` gives TRL one environment class per offered tool set (each tool a method
showing the task's exact schema, errors as ``{"error": ...}``), routes every row to its class and
resets an instance per rollout; ``env_reward`` scores each completion against its instance's task
and lets the state the rollout left decide write tasks. TRL shows the first user turn only, so the
data is ``turns.parquet``: every user turn of a multi-turn task as its own row, the earlier turns in
its prompt and their calls already applied to its world.
"""

from __future__ import annotations

import argparse

import torch
from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

from rollout.trl import env_reward, environments


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="a `toolground generate --format parquet,turns` output folder")
    ap.add_argument("--model", default="Qwen/Qwen2.5-0.5B-Instruct")
    ap.add_argument("--mcp", default="inproc", help="http://host:port/mcp of a toolground serve")
    ap.add_argument("--out", default="grpo-toolground")
    ap.add_argument("--max-steps", type=int, default=-1, help="stop early (default: one epoch)")
    args = ap.parse_args()

    dataset = load_dataset("parquet", data_files=f"{args.data}/turns.parquet", split="train")
    envs = environments(dataset, backend=args.mcp)
    trainer = GRPOTrainer(
        model=args.model,
        args=GRPOConfig(
            output_dir=args.out,
            num_generations=8,
            per_device_train_batch_size=8,
            max_completion_length=2048,  # tool results count: the longest banking ones are ~1,100 characters
            max_tool_calling_iterations=8,
            max_steps=args.max_steps,
            logging_steps=1,
            bf16=torch.cuda.is_available(),
            use_cpu=not torch.cuda.is_available(),  # runs (slowly) without a GPU too
        ),
        train_dataset=envs.dataset,
        environment_factory=envs.factory,
        reward_funcs=env_reward("prove+paths"),  # every right path pays (docs/reward.md)
    )
    trainer.train()
    envs.close()  # TRL has no teardown hook; finalizers would free server sessions at exit anyway


if __name__ == "__main__":
    main()
