"""Pictures of the table: a PNG that rides along the public table message.

The cards on it are drawn by :mod:`bot.cardart`, the same faces as the card emojis.
The package is split by what can go wrong where:

* :mod:`.scene` turns the live, mutable service state into a frozen :class:`~.scene.Scene`
  on the event loop. It reads only public information (the spectator observation, seat
  names, roles), so nothing drawn later can reveal a hidden card.
* :mod:`.cards` and :mod:`.table` draw a scene with Pillow: pure functions of the scene, so
  the same state always gives the same pixels, and safe to run in a worker thread because
  the scene is immutable. :mod:`.palette` and :mod:`.png` store it (a fixed palette, the
  image data deflated in bands); :mod:`.painter` redraws and re-encodes only what changed
  since a game's last picture, to the same pixels (:mod:`.png` says why not always the same
  deflated bytes).
* :mod:`.service` runs the drawing off the event loop, caches it per scene (a scene holds the
  game id and version), and turns any failure into "no picture" so the text table still goes
  out and no move ever fails because of a picture.
"""

from __future__ import annotations

from .scene import Scene, SeatScene, lobby_scene, table_scene
from .service import ATTACHMENT_NAME, ATTACHMENT_URL, Superseded, TablePictures
from .table import render_png

__all__ = [
    "ATTACHMENT_NAME",
    "ATTACHMENT_URL",
    "Scene",
    "SeatScene",
    "Superseded",
    "TablePictures",
    "lobby_scene",
    "render_png",
    "table_scene",
]
