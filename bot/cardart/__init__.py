"""Card art: every card face the bot shows, drawn with Pillow from the bundled fonts.

:mod:`.cardface` draws a face (colours, layout, the trump mark, the back) for both users:
the card emojis (:mod:`.cardart` turns faces into PNG bytes, :mod:`.emojis` keeps them
uploaded as application emojis and hands out their markdown) and the table picture
(:mod:`bot.pictures`). A package of its own, not part of :mod:`bot.pictures`, because text
rendering needs the emoji registry and must not import the table-picture stack with it.
"""
