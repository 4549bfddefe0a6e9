"""Discord's limits on what a message, an embed or a component may hold.

Discord refuses a whole message (HTTP 400) when one part is a character too long, so every
text the bot builds from names, translations or a game's state is cut to these before it is
sent. They are Discord's numbers (https://discord.com/developers/docs/resources/message and
.../interactions/message-components), not choices of ours: a module of its own, importing
nothing, so the service, the renderers, the surfaces and the cogs all read the same ones.
"""

from __future__ import annotations

from typing import Final

#: Characters in a message's content.
MESSAGE_CONTENT: Final = 2000
#: Characters in an embed's title.
EMBED_TITLE: Final = 256
#: Characters in an embed's description.
EMBED_DESCRIPTION: Final = 4096
#: Characters in an embed field's value (a field's name holds 256).
EMBED_FIELD_VALUE: Final = 1024
#: Characters in an embed's footer.
EMBED_FOOTER: Final = 2048
#: Characters on a button's label.
BUTTON_LABEL: Final = 80
#: Characters in a select option's label, description or value.
SELECT_OPTION_TEXT: Final = 100
#: Characters in a select menu's placeholder.
SELECT_PLACEHOLDER: Final = 150
#: Options in one select menu.
SELECT_OPTIONS: Final = 25
#: Rows of components on one message (each holds five buttons or one select).
ACTION_ROWS: Final = 5
#: Choices an autocomplete answer may offer.
AUTOCOMPLETE_CHOICES: Final = 25
#: Characters in the name of an application-command choice.
CHOICE_NAME: Final = 100
#: Characters in a component's custom_id.
CUSTOM_ID: Final = 100
#: A thread's name.
THREAD_NAME: Final = 100
#: Buttons in one row of components.
BUTTONS_PER_ROW: Final = 5
