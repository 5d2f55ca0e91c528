"""Two instruction sets mixed into one fine-tuning corpus and tokenized in a ThreadPoolExecutor. The second set
is in the chat format (`messages`: a list of role/content turns); the loader takes `text` or else `messages`,
so the tokenizer's regex is handed a list in a pool thread; `pool.map`'s results re-raise it in the main."""

import re
from concurrent.futures import ThreadPoolExecutor

WORD = re.compile(r"\w+|[^\w\s]")


def alpaca_records(n: int) -> list[dict]:
    return [{"text": f"### Instruction: summarise review {i}. ### Response: a fine film."} for i in range(n)]


def chat_records(n: int) -> list[dict]:
    return [
        {"messages": [{"role": "user", "content": f"Is film {i} good?"}, {"role": "assistant", "content": "Yes."}]}
        for i in range(n)
    ]


def tokenize(record: dict) -> list[str]:
    text = record.get("text") or record.get("messages")
    return WORD.findall(text.lower() if isinstance(text, str) else text)


def main() -> None:
    corpus = alpaca_records(200) + chat_records(50)
    print(f"tokenizing {len(corpus)} records in 4 threads", flush=True)
    with ThreadPoolExecutor(max_workers=4, thread_name_prefix="tok") as pool:
        tokens = list(pool.map(tokenize, corpus))
    print(f"{sum(map(len, tokens))} tokens", flush=True)
