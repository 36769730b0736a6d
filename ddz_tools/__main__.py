"""``python -m ddz_tools`` runs the ``ddz`` command line."""

from .cli import main

if __name__ == "__main__":
    main()
