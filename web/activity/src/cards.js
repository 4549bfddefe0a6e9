// Cards in the engine's notation ("6s", "Th", "6s'" for a second pack's twin), drawn for people.

export const SUIT_SYMBOLS = { c: '♣', d: '♦', h: '♥', s: '♠' };
const SUIT_KEYS = { c: 'suit.clubs', d: 'suit.diamonds', h: 'suit.hearts', s: 'suit.spades' };
const COURT = { J: 'card.rank.jack', Q: 'card.rank.queen', K: 'card.rank.king', A: 'card.rank.ace' };

/** {rank, suit, twin} of a card in notation. */
export function parseCard(text) {
  const twin = text.endsWith("'");
  const core = twin ? text.slice(0, -1) : text;
  return { rank: core.slice(0, -1), suit: core.slice(-1), twin };
}

/** The rank as the reader writes it: "10" for T, В Д К Т in Russian when the server wants it. */
export function rankLabel(rank, words, localRanks) {
  if (rank === 'T') return '10';
  if (COURT[rank] && localRanks && words[COURT[rank]]) return words[COURT[rank]];
  return rank;
}

/** What a screen reader says: "10 ♥ hearts". */
export function cardName(text, words, localRanks) {
  const { rank, suit } = parseCard(text);
  return `${rankLabel(rank, words, localRanks)} ${SUIT_SYMBOLS[suit]} ${words[SUIT_KEYS[suit]] || ''}`.trim();
}

/**
 * A card face: rank and suit in two corners and a large suit sign in the middle. Suits differ
 * by shape (the sign) and by colour (four colours), never by colour alone.
 */
export function cardFace(el, text, words, localRanks, trump) {
  const { rank, suit } = parseCard(text);
  const label = rankLabel(rank, words, localRanks);
  el.classList.add('card', `suit-${suit}`);
  if (suit === trump) el.classList.add('trump');
  el.dataset.card = text;
  el.setAttribute('aria-label', cardName(text, words, localRanks));
  el.replaceChildren();
  for (const corner of ['tl', 'br']) {
    const c = document.createElement('span');
    c.className = `corner ${corner}`;
    c.setAttribute('aria-hidden', 'true');
    c.textContent = `${label}${SUIT_SYMBOLS[suit]}`;
    el.append(c);
  }
  const pip = document.createElement('span');
  pip.className = 'pip';
  pip.setAttribute('aria-hidden', 'true');
  pip.textContent = SUIT_SYMBOLS[suit];
  el.append(pip);
  return el;
}
