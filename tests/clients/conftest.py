"""The drivers run inside the clients' own virtualenvs: never imported by pytest here."""
collect_ignore = ["drivers"]
