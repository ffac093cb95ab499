"""One module per subcommand. Each module exposes ``add_parser(subparsers)`` and ``run(args) -> int``.

A command reports bad input by raising ``engine.errors.CadoganError`` (or a subclass, all ValueErrors):
``cadogan.__main__`` prints its message as one line on stderr and exits with status 2.
"""
