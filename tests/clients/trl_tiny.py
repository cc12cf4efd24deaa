"""A tiny chat model built at test time, with no download, that TRL treats as Qwen2.5.

* Tokenizer: byte-level BPE (2048 tokens) trained with ``tokenizers`` on the tasks' own rendered
  conversations, with Qwen's special and tool tokens, so a 4,000-token prompt stays 4,000 tokens.
* Chat template: TRL's shipped copy of Qwen2.5's, byte-identical, so TRL recognises it (it sets
  the response template that parses ``<tool_call>`` blocks, and picks the training template).
* Model: ``Qwen2ForCausalLM`` with 2 layers of width 64, randomly initialised (about 200K
  parameters): it cannot write a tool call, which is why the test scripts part of the rollouts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
ADDED = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]


def qwen25_template() -> str:
    from trl.chat_template_utils import qwen2_5_chat_template

    return qwen2_5_chat_template


def tool_call_text(name: str, arguments: Any) -> str:
    """One call as the Qwen2.5 template renders it (and as a Qwen model writes it)."""
    return f'<tool_call>\n{{"name": "{name}", "arguments": {json.dumps(arguments, ensure_ascii=False)}}}\n</tool_call>'


def training_texts(rows: Iterable[dict[str, Any]]) -> list[str]:
    """Text the tokenizer learns from: each row's tools and reference turns, each text once (the
    same schemas recur in every row)."""
    texts: list[str] = []
    for row in rows:
        texts += [json.dumps(t, ensure_ascii=False) for t in row["tools"]]
        for m in row["messages"]:
            texts.append(str(m.get("content") or ""))
            for tc in m.get("tool_calls") or []:
                fn = tc["function"]
                args = fn["arguments"]
                texts.append(tool_call_text(fn["name"], json.loads(args) if isinstance(args, str) else args))
    return list(dict.fromkeys(texts))


def tiny_tokenizer(texts: list[str], vocab_size: int = 2048) -> Any:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL + ADDED,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=["<|im_start|>"],
    )
    fast.chat_template = qwen25_template()
    return fast


def tiny_model(tokenizer: Any, seed: int = 0) -> Any:
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=16384,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    model = Qwen2ForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model
