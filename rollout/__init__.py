"""Running models against tasks: episodes, harness loop, eval runs and their report."""
