"""What test files share: positions and decks for the rules, the wire and the browser
side's helpers, and the data, apps and helpers that several test files use. Nothing
here is collected as a test; ``tests`` is on ``sys.path`` (pyproject's pytest
``pythonpath``), so a test imports ``support.<module>``."""
