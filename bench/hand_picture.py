"""Draw a real hand message as Discord shows it, for docs/playing.md: docs/img/hand-en.png and
docs/img/hand-ru.png, 450 px wide (the width a message column has on a phone and in a narrow
desktop window).

The message is not mocked up: the embed and the components are the ones
``bot.surfaces.hand_views.hand_message`` builds for a sample position (you lead in a
three-player podkidnoy holding three nines), drawn in Discord's dark theme: the embed with
its colour bar, title, hand, fields and footer; then the component rows as Discord lays them
out (card buttons with the card emoji the bot registers, Refresh, and the "Play several
cards…" menu, drawn open so its options show). Markdown bold and the live countdown
(``<t:…:R>``) are rendered as a client would.

    .venv/bin/python bench/hand_picture.py [docs/img]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
from PIL import Image, ImageDraw

from bot.cardart.cardface import emoji_face, font
from bot.game.models import GameSession, SeatInfo
from bot.pictures.fonts import drawable, safe_text
from bot.surfaces.hand_views import hand_message
from engine import Card, Game, RuleSet

#: Discord's message column on a phone; the picture is drawn at twice this and scaled down.
WIDTH = 450
SCALE = 2

BACKGROUND = (49, 51, 56)
EMBED = (43, 45, 49)
TEXT = (219, 222, 225)
MUTED = (181, 186, 193)
WHITE = (242, 243, 245)
SELECT = (30, 31, 34)
MENU = (43, 45, 49)
STYLES = {
    discord.ButtonStyle.primary: (88, 101, 242),
    discord.ButtonStyle.secondary: (78, 80, 88),
    discord.ButtonStyle.success: (36, 128, 70),
    discord.ButtonStyle.danger: (218, 55, 60),
}

#: The sample's turn ends 55 s from "now": the countdown reads as a client shows it.
NOW, DEADLINE = 1000.0, 1055.0
RELATIVE = {"en": "in 55 seconds", "ru": "через 55 секунд"}


def sample() -> GameSession:
    """You (seat 0) lead in a three-player podkidnoy, hearts trump, holding three nines."""
    game = Game.from_position(
        RuleSet.preset("podkidnoy", players=3),
        hands=[
            ["9c", "9d", "9s", "Qd", "Ts", "6h"],
            ["7c", "8h", "Qs", "Ac", "Kd", "7s"],
            ["6c", "8d", "Js", "Kh", "Ad", "Jh"],
        ],
        trump_card="Th",
        talon=["Kc", "As", "8c", "8s", "7d", "7h", "6d", "6s", "Tc", "Td", "Jc", "Th"],
        attacker=0,
        defender=1,
    )
    seats = [SeatInfo(0, "you", 100, None), SeatInfo(1, "alice", 101, None)]
    seats.append(SeatInfo(2, "bob", 102, None))
    session = GameSession(12, 10, 20, 30, 100, "podkidnoy", seats, game, seed=7, version=5)
    session.deadline = DEADLINE
    return session


def _px(v: float) -> int:
    return round(v * SCALE)


class Canvas:
    """A tall scratch image drawn top to bottom; cropped to what was used."""

    def __init__(self) -> None:
        self.image = Image.new("RGB", (_px(WIDTH), _px(2000)), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def words(self, text: str, locale: str) -> list[tuple[str, bool]]:
        """``text`` as (word, bold) pieces: **bold**, the countdown; custom emoji and emoji
        the bundled font lacks (⏱️) are dropped."""
        text = re.sub(r"<t:\d+:R>", RELATIVE[locale], text)
        text = re.sub(r"<a?:\w+:\d+>", "", text)
        out: list[tuple[str, bool]] = []
        for i, part in enumerate(text.split("**")):
            bold = i % 2 == 1
            out += [(safe_text(w, bold), bold) for w in part.split(" ") if drawable(w, bold)]
        return out

    def paragraph(
        self,
        text: str,
        x: float,
        y: float,
        width: float,
        size: float,
        colour: tuple[int, int, int],
        locale: str,
        bold: bool = False,
    ) -> float:
        """Wrap ``text`` into ``width`` from (x, y); returns the y below it."""
        line_height = size * 1.35
        for line in text.split("\n"):
            cx = x
            for word, strong in self.words(line, locale):
                face = font(_px(size), bold or strong)
                w = face.getlength(word + " ") / SCALE
                if cx > x and cx + face.getlength(word) / SCALE > x + width:
                    cx, y = x, y + line_height
                self.draw.text((_px(cx), _px(y)), word, font=face, fill=colour)
                cx += w
            y += line_height
        return y

    def button(self, item: Any, x: float, y: float, w: float, locale: str) -> None:
        colour = STYLES.get(item.style, STYLES[discord.ButtonStyle.secondary])
        self.draw.rounded_rectangle(
            (_px(x), _px(y), _px(x + w), _px(y + 32)), radius=_px(3), fill=colour
        )
        label = item.label or ""
        face = font(_px(14), False)
        inner = face.getlength(label) / SCALE
        card = _card_of(item)
        icon = 22 if card is not None else 0
        label = safe_text(label)  # (a 🔄 or ✖️ emoji of a button is left out)
        inner = face.getlength(label) / SCALE
        left = x + (w - inner - icon) / 2
        if card is not None:
            trump = card.suit == 2  # the sample's trump: hearts
            art = emoji_face(card, trump=trump, size=_px(22)).convert("RGBA")
            self.image.paste(art, (_px(left - 2), _px(y + 5)), art)
        self.draw.text((_px(left + icon), _px(y + 16)), label, font=face, fill=WHITE, anchor="lm")

    def select(self, item: Any, x: float, y: float, w: float) -> float:
        """The menu, drawn open; returns the y below its option list."""
        self.draw.rounded_rectangle(
            (_px(x), _px(y), _px(x + w), _px(y + 40)),
            radius=_px(4),
            fill=SELECT,
            outline=(88, 101, 242),
            width=_px(1),
        )
        face = font(_px(14))
        self.draw.text(
            (_px(x + 12), _px(y + 20)), item.placeholder or "", font=face, fill=MUTED, anchor="lm"
        )
        self.draw.text((_px(x + w - 22), _px(y + 20)), "▴", font=face, fill=TEXT, anchor="lm")
        top = y + 42
        rows = len(item.options)
        self.draw.rounded_rectangle(
            (_px(x), _px(top), _px(x + w), _px(top + 8 + 36 * rows)), radius=_px(4), fill=MENU
        )
        for i, option in enumerate(item.options):
            self.draw.text(
                (_px(x + 12), _px(top + 4 + 36 * i + 18)),
                option.label,
                font=face,
                fill=TEXT,
                anchor="lm",
            )
        return top + 8 + 36 * rows


def _card_of(item: Any) -> Card | None:
    custom_id = getattr(item, "custom_id", "") or ""
    if custom_id.startswith("durak:card:"):
        return Card.parse(custom_id.rsplit(":", 1)[1])
    return None


def draw(session: GameSession, locale: str) -> Image.Image:
    """The hand message of seat 0 in ``locale``, as Discord draws it, ``WIDTH`` px wide."""
    _, embed, view = hand_message(session, 0, locale)
    canvas = Canvas()
    pad, bar = 12.0, 4.0
    x0, width = pad + bar, WIDTH - 2 * pad - bar
    y = pad
    # the embed: its body first (to know its height), then its background and colour bar
    body_top = y
    inner_x, inner_w = x0 + 12, width - 24
    y += 10
    y = canvas.paragraph(embed.title or "", inner_x, y, inner_w, 16, WHITE, locale, bold=True)
    y = canvas.paragraph(embed.description or "", inner_x, y + 4, inner_w, 15, TEXT, locale)
    for field in embed.fields:
        y = canvas.paragraph(field.name or "", inner_x, y + 8, inner_w, 14, WHITE, locale, True)
        y = canvas.paragraph(field.value or "", inner_x, y + 2, inner_w, 14, TEXT, locale)
    y = canvas.paragraph(embed.footer.text or "", inner_x, y + 8, inner_w, 12, MUTED, locale)
    body_bottom = y + 10
    layer = canvas.image.copy()
    draw = ImageDraw.Draw(layer)
    draw.rounded_rectangle(
        (_px(pad), _px(body_top), _px(pad + bar + width), _px(body_bottom)),
        radius=_px(4),
        fill=EMBED,
    )
    colour = embed.colour.to_rgb() if embed.colour else (88, 101, 242)
    draw.rounded_rectangle(
        (_px(pad), _px(body_top), _px(pad + bar + 2), _px(body_bottom)),
        radius=_px(4),
        fill=colour,
    )
    # redraw the text over the embed background
    canvas.image = layer
    canvas.draw = draw
    y = body_top + 10
    y = canvas.paragraph(embed.title or "", inner_x, y, inner_w, 16, WHITE, locale, bold=True)
    y = canvas.paragraph(embed.description or "", inner_x, y + 4, inner_w, 15, TEXT, locale)
    for field in embed.fields:
        y = canvas.paragraph(field.name or "", inner_x, y + 8, inner_w, 14, WHITE, locale, True)
        y = canvas.paragraph(field.value or "", inner_x, y + 2, inner_w, 14, TEXT, locale)
    canvas.paragraph(embed.footer.text or "", inner_x, y + 8, inner_w, 12, MUTED, locale)
    # the component rows, as Discord lays them out
    y = body_bottom + 8
    rows: dict[int, list[Any]] = {}
    for child in view.children:
        item = getattr(child, "item", child)
        rows.setdefault(item.row or 0, []).append(item)
    for row in sorted(rows):
        items = rows[row]
        if isinstance(items[0], discord.ui.Select):
            y = canvas.select(items[0], pad, y, WIDTH - 2 * pad) + 8
            continue
        cx = pad
        for item in items:
            face = font(_px(14))
            w = face.getlength(item.label or "") / SCALE + 32 + (22 if _card_of(item) else 0)
            if cx + w > WIDTH - pad:  # Discord wraps a row that does not fit
                cx, y = pad, y + 40
            canvas.button(item, cx, y, w, locale)
            cx += w + 8
        y += 40
    used = canvas.image.crop((0, 0, _px(WIDTH), _px(y + pad - 8)))
    return used.resize((WIDTH, round(used.height / SCALE)), Image.Resampling.LANCZOS)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "docs/img")
    folder.mkdir(parents=True, exist_ok=True)
    for locale in ("en", "ru"):
        target = folder / f"hand-{locale}.png"
        image = draw(sample(), locale)
        image.quantize(256, method=Image.Quantize.FASTOCTREE).save(target, "PNG", optimize=True)
        print(f"wrote {target} ({image.width}x{image.height}, {target.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
