"""Email commands: the grammar, one handler per command, and what they reply.

Importing the package registers every command, so the parser, `is_command` and the help
pages all see the full set whichever module is imported first.
"""

from pbm.commands import (  # noqa: F401,E402
    accounts,
    confirm,
    game_commands,
    ladder,
    policy,
    preview,
    queue,
    record,
    replay,
    show_all,
    standing_commands,
    submit,
    talk,
    tournament,
    turn_list,
    vacation,
    watch,
)
