"""The outside world (SQL, Presidio, OpenAI, Celery, tiktoken), each behind a core port."""
