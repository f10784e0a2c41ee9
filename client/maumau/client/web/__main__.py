"""``python -m maumau.client.web``: the same as ``maumau-web``."""

from .cli import main

if __name__ == "__main__":
    main()
