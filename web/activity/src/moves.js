// Which moves a selection of hand cards makes: the server sends every legal move of the seat
// (engine notation in `send`); the client only matches clicks against that list.

/** Moves that put cards on the table as a new card (not on an attack card). */
export const TABLE_KINDS = ['attack', 'throw', 'pile', 'transfer', 'show', 'exchange', 'swap'];
/** Moves that lay a card on an attack card. */
export const BEAT_KINDS = ['defend', 'conceal'];
/** Moves without a card of the hand: always a button. */
export const PLAIN_KINDS = ['take', 'pass', 'accept', 'challenge', 'top'];

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

export function playable(moves, card) {
  return moves.some((m) => (m.cards || []).includes(card));
}

/** The selection after a click on `card`: added when some move plays them together. */
export function toggle(moves, selected, card) {
  if (selected.includes(card)) return selected.filter((c) => c !== card);
  const grown = [...selected, card];
  if (moves.some((m) => grown.every((c) => (m.cards || []).includes(c)))) return grown;
  return playable(moves, card) ? [card] : [];
}

/** The moves that play exactly the selection. */
export function complete(moves, selected) {
  if (!selected.length) return [];
  return moves.filter((m) => m.cards && sameCards(m.cards, selected));
}

/** The move a drop on the table makes, if any (a lead, throw-in, pile-on or transfer). */
export function tableMove(moves, selected) {
  const options = complete(moves, selected).filter((m) => TABLE_KINDS.includes(m.kind));
  options.sort((a, b) => TABLE_KINDS.indexOf(a.kind) - TABLE_KINDS.indexOf(b.kind));
  return options[0] || null;
}

/** The move a drop on the attack card `attack` makes, if any. */
export function beatMove(moves, selected, attack) {
  return complete(moves, selected).find((m) => BEAT_KINDS.includes(m.kind) && m.on[0] === attack) || null;
}

/** Moves shown as buttons: those without cards, and those the selection completes. */
export function buttonMoves(moves, selected) {
  const plain = moves.filter((m) => PLAIN_KINDS.includes(m.kind) || m.slots);
  return [...plain, ...complete(moves, selected)];
}
