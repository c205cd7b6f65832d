"""The judge stage: a second opinion on every annotated episode (``RUN/judgements.jsonl``).

:mod:`.verdict` (records, parsing, pass/fail), :mod:`.rules` (the offline backend: the alignment and hindsight
checks as verdicts), :mod:`.prompt` (the versioned judge prompt and its messages), :mod:`.llm` (one episode
through the openai backend, the reply cache and re-asks), :mod:`.stage` (the run: resume, ledgers, manifest).
"""
