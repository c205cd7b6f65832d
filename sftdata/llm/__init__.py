"""The LLM client both LLM stages use (annotate and judge): an OpenAI-compatible backend with deadlines, retries
and redacted endpoints (``backends``), the reply cache keyed by request (``cache``), a cached request with usage
counting (``ask``) and the endpoint options (``endpoint``). It knows nothing of reasoning or verdicts: a stage
passes its own ``response_format`` and parses the reply itself."""
